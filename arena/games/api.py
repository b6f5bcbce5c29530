"""The game contract: all the arena (referee, protocol, scheduler, replays, check-bot) may
ask of a game, so that nothing above the engine knows which game it runs.

In the spirit of OpenSpiel's Game/State split and python-chess's Board: a :class:`GameType`
is a registered game (its metadata and how to configure it); :meth:`GameType.configure`
gives a :class:`Game`, the rules under one configuration and player count; states, actions
and options are the game's own objects, opaque to the arena, which only hands them back to
the game that made them. What crosses the arena as data (replays, JSON output, events,
views) is plain JSON: dicts, lists, strings, numbers, booleans and None.

A game is pure: no I/O, clocks, processes or gRPC; every random draw comes from keyed
streams derived from the seed (see :mod:`arena.seeds`), so the same seed, configuration and
actions give the same game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

Event = dict[str, Any]
"""What happened when an action was applied (a plain JSON object with a ``type`` key)."""

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")
OptionsT = TypeVar("OptionsT")


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One rules option a game takes as ``--rules KEY=VALUE``.

    ``choices`` lists the allowed values (the default first); empty means a free value the
    game checks itself, of the kind ``value`` names (e.g. ``positive integer``).
    ``approximation`` marks an option whose rule is a stand-in where no source was found.
    """

    key: str
    default: str
    choices: tuple[str, ...]
    description: str
    approximation: bool = False
    value: str = ""


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game is, for listings (``arena games``, ``arena rules``) and for checks made
    before a match (player counts, options, what a bot may declare)."""

    name: str
    """Registry name, as in ``--game NAME`` and ``bot.toml`` ``games``; no ``/`` in it."""
    title: str
    min_players: int
    max_players: int
    options: tuple[RuleOption, ...]
    approximations: tuple[str, ...] = ()
    """Parts of the rules that are stand-ins where no source was found, in words."""
    declarations: tuple[str, ...] = ()
    """Per-seat choices a bot declares before the game (classic: ``always_max_defence``)."""
    notes: tuple[str, ...] = ()
    """Rules facts a player should know beside the options (shown by ``arena rules``)."""

    def option(self, key: str) -> RuleOption:
        """The option named ``key`` (KeyError if the game has none)."""
        for option in self.options:
            if option.key == key:
                return option
        raise KeyError(key)


@dataclass(frozen=True, slots=True)
class Decision:
    """Who must decide now and the kind of decision.

    A ``simultaneous`` decision names several seats that answer in secret under one deadline;
    the referee collects every answer and hands them to :meth:`Game.apply_joint` at once, so
    no answer is checked against a state another answer already changed, and none is seen by
    another seat before the rules reveal it. Any other decision names exactly one seat.
    """

    kind: str
    seats: tuple[int, ...]
    simultaneous: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game: a place per seat (1 = best; ties share a place), the seat alone in
    first place (else None), and why it ended (a game-defined word, e.g. ``domination``)."""

    places: tuple[int, ...]
    winner: int | None
    end_reason: str


@dataclass(frozen=True, slots=True)
class Step(Generic[StateT]):
    """A new state and the events that led to it (the old state is left untouched)."""

    state: StateT
    events: list[Event]


class Game(Protocol[StateT, ActionT, OptionsT]):
    """One game under one rules configuration and player count.

    Every method that takes a state treats it as read-only, except
    :meth:`apply_unchecked`, the fast path for search, which changes it in place.
    """

    info: GameInfo
    players: int

    def config(self) -> dict[str, Any]:
        """The configuration as plain data, players included: stored with replays and
        tournaments, and given back to :meth:`GameType.from_config`."""
        ...

    def rating_format(self) -> str:
        """The rating format of this configuration, e.g. classic ``3p/world``: results of
        one format are rated together (the pool is ``GAME/FORMAT``), formats never mix."""
        ...

    def board(self) -> dict[str, Any]:
        """The static board a bot receives at match start (plain JSON)."""
        ...

    def new_game(self, seed: int, declarations: Sequence[Mapping[str, Any]] = ()) -> StateT:
        """The position before the first decision. ``declarations[seat]`` holds what that
        seat declared before the game (keys from :attr:`GameInfo.declarations`)."""
        ...

    def copy(self, state: StateT) -> StateT:
        """An independent copy, cheap enough for search."""
        ...

    def decision(self, state: StateT) -> Decision | None:
        """Who must decide now, or None once the game is over."""
        ...

    def legal_options(self, state: StateT, seat: int) -> OptionsT:
        """The legal options of ``seat``'s current decision, in the game's compact form."""
        ...

    def choices(self, options: OptionsT) -> Sequence[ActionT]:
        """Complete actions for answers by index (``0`` is the first), in a fixed order."""
        ...

    def check(self, state: StateT, seat: int, action: ActionT) -> None:
        """Raise :class:`~arena.errors.IllegalActionError` with a precise reason unless
        ``action`` is legal for ``seat`` now."""
        ...

    def apply(self, state: StateT, seat: int, action: ActionT) -> Step[StateT]:
        """Check and apply the action of a decision of one seat (a simultaneous decision
        goes through :meth:`apply_joint`, which takes single-seat decisions too)."""
        ...

    def apply_joint(self, state: StateT, actions: Mapping[int, ActionT]) -> Step[StateT]:
        """Check every answer of a decision against the same state, then apply them together
        (a simultaneous decision's secret answers are revealed at once). Raises
        :class:`~arena.errors.IllegalActionError` naming the first seat whose answer is not
        legal, before anything is applied."""
        ...

    def apply_unchecked(self, state: StateT, seat: int, action: ActionT) -> list[Event]:
        """Apply a legal action of a one-seat decision in place, without checks (search and
        replays of checked actions); returns the events."""
        ...

    def default_action(self, state: StateT, seat: int) -> ActionT:
        """The documented action played for a seat that does not answer in time."""
        ...

    def forfeit(self, state: StateT, seat: int) -> Step[StateT]:
        """Take ``seat`` out of the game (its pieces stay as the game's rules say)."""
        ...

    def view(self, state: StateT, seat: int) -> dict[str, Any]:
        """What ``seat`` may see of the position (plain JSON): nothing hidden from it."""
        ...

    def redact(self, event: Event, seat: int) -> Event:
        """The event as ``seat`` may see it (secrets of others hidden)."""
        ...

    def progress(self, state: StateT) -> dict[str, int]:
        """How far the game has gone, as named counters (classic: ``turns`` and ``rounds``),
        reported with results; a game without turns reports what it counts instead."""
        ...

    def standings(self, state: StateT) -> list[dict[str, int]]:
        """Per-seat figures for a result table (classic: territories and armies held), the
        same keys for every seat; empty dicts when the game has none to show."""
        ...

    def outcome(self, state: StateT) -> Outcome | None:
        """The result once the game is over, else None."""
        ...

    def out_order(self, state: StateT) -> tuple[int, ...]:
        """Seats in the order they left the game (eliminated or forfeited), earliest first."""
        ...

    def action_to_dict(self, action: ActionT) -> dict[str, Any]:
        """The action as plain JSON (replays, JSON answers)."""
        ...

    def action_from_dict(self, data: Mapping[str, Any]) -> ActionT:
        """The action from :meth:`action_to_dict` output; raises
        :class:`~arena.errors.MalformedActionError` on a bad shape."""
        ...


@dataclass(frozen=True, slots=True)
class Position:
    """A real position where ``seat`` must make a ``kind`` decision (for ``check-bot``)."""

    kind: str
    game: Game[Any, Any, Any]
    state: Any
    seat: int
    seed: int


class GameType(Protocol):
    """A registered game: its metadata and how to configure it."""

    info: GameInfo

    def configure(self, options: Mapping[str, str], players: int) -> Game[Any, Any, Any]:
        """Check ``KEY=VALUE`` rules options for ``players`` seats; raises
        :class:`~arena.errors.ConfigError` with a one-line message naming the valid choices."""
        ...

    def from_config(self, config: Mapping[str, Any]) -> Game[Any, Any, Any]:
        """Rebuild a configured game from :meth:`Game.config` output (same checks)."""
        ...

    def positions(self, seed: int = 1) -> list[Position]:
        """Real positions for ``check-bot``, found by seeded play: one per decision kind of
        the game (over whichever configurations it takes to meet them all), fixed order."""
        ...
