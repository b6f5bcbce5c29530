"""The state of one classic game: plain data with a cheap :meth:`ClassicState.copy`.

The state is mutable (python-chess style) because search needs cheap branching: the rules'
validating ``apply`` copies it first, so callers see a pure function, while
``apply_unchecked`` mutates in place for search. Per-seat collections that change rarely are
tuples, so a copy only duplicates the two 42-long territory lists.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import Any

from arena.games.classic.rng import Streams

NEUTRAL = -1
"""Owner id of the neutral army of the 2-player game."""
UNCLAIMED = -2
"""Owner id of a territory nobody has claimed yet."""


class Phase(IntEnum):
    """What the game is waiting for. Its name, lower-cased, is the decision kind."""

    CLAIM = 0
    PLACE = 1
    PLACE_NEUTRAL = 2
    HEADQUARTERS = 3
    TRADE = 4
    REINFORCE = 5
    ATTACK = 6
    DEFEND = 7
    REROLL = 8
    OCCUPY = 9
    FORTIFY = 10
    OVER = 11


PHASE_KINDS: tuple[str, ...] = tuple(phase.name.lower() for phase in Phase)
"""The decision kind of each phase, indexed by phase (an enum's ``name`` is slow to read)."""


class ClassicState:
    """Everything about one game at one moment. Read it through the rules and views."""

    __slots__ = (
        "always_max",
        "armies",
        "attack",
        "bonus_given",
        "card_i",
        "conquered",
        "deck",
        "dice_i",
        "discard",
        "eliminated",
        "end",
        "first",
        "forced_trade",
        "forfeited",
        "hands",
        "hq",
        "hq_pending",
        "hq_revealed",
        "missions",
        "n",
        "neutral_reserve",
        "occupy",
        "owner",
        "phase",
        "places",
        "reserve",
        "roll",
        "round",
        "seat",
        "sets_traded",
        "streams",
        "to_place",
        "turns",
        "winner",
    )

    n: int
    """Number of player seats (the neutral of the 2-player game is not a seat)."""
    owner: list[int]
    """Owner of each territory: a seat, :data:`NEUTRAL` or :data:`UNCLAIMED`."""
    armies: list[int]
    phase: Phase
    seat: int
    """Whose turn (or setup placement) it is."""
    first: int
    """The seat that placed first and so moves first; rounds start with it."""
    round: int
    """1-based round number; a round ends when every live seat has had a turn."""
    turns: int
    """Player turns started so far."""
    reserve: tuple[int, ...]
    """Setup armies each seat still has to place."""
    neutral_reserve: int
    hands: tuple[tuple[int, ...], ...]
    """Card ids held by each seat."""
    deck: tuple[int, ...]
    """Draw pile (card ids, ascending; draws pick from it with the cards stream)."""
    discard: tuple[int, ...]
    """Traded cards; they become the draw pile when it runs out."""
    sets_traded: int
    dice_i: int
    """Dice drawn from the dice stream so far."""
    card_i: int
    """Draws made from the cards stream so far."""
    to_place: int
    """Armies the seat to move must still place (reinforce phase)."""
    bonus_given: bool
    """The +2 territory bonus for a traded card was already given this turn."""
    conquered: bool
    """The seat to move captured a territory this turn (earns a card)."""
    forced_trade: bool
    """A trade forced by a card takeover (trade down to 4, then place, then attack on)."""
    attack: tuple[int, int, int, int | None, str] | None
    """The attack in progress: (from, to, dice, until, reroll policy)."""
    roll: tuple[tuple[int, ...], tuple[int, ...], int] | None
    """A roll awaiting the attacker's re-roll decision: (attacker dice, defender dice, def dice)."""
    occupy: tuple[int, int, int] | None
    """A capture awaiting the occupation decision: (from, to, minimum armies)."""
    eliminated: tuple[int, ...]
    """Seats out of the game (eliminated or forfeited), in the order they went out."""
    forfeited: tuple[bool, ...]
    missions: tuple[int, ...]
    """Mission id per seat (Secret Mission RISK), else empty."""
    hq: tuple[int, ...]
    """Headquarters territory per seat (Capital RISK), -1 while unchosen; else empty."""
    hq_pending: tuple[int, ...]
    """Headquarters chosen in secret but not yet revealed (-1 = not chosen)."""
    hq_revealed: bool
    always_max: tuple[bool, ...]
    """Seats that declared at the start that they always defend with the maximum dice."""
    winner: int | None
    end: str | None
    """Why the game ended (see :class:`arena.games.classic.rules.end.Termination`), or None."""
    places: tuple[int, ...] | None
    """Final place of each seat (1 = best, ties share a place), once the game is over."""
    streams: Streams

    def copy(self) -> ClassicState:
        """A copy that shares nothing mutable with this state (the streams are shared)."""
        return _copy(self)

    def alive(self, seat: int) -> bool:
        """Whether ``seat`` is still playing (neither eliminated nor forfeited)."""
        return seat not in self.eliminated

    def territories_of(self, seat: int) -> list[int]:
        """Territory ids owned by ``seat``."""
        return [t for t, o in enumerate(self.owner) if o == seat]


def _make_copy() -> Callable[[ClassicState], ClassicState]:
    """:meth:`ClassicState.copy` compiled from ``__slots__``: one straight-line assignment per
    slot is several times faster than a getattr/setattr loop, and a slot added later is
    copied without anyone having to remember to list it here."""
    lines = ["def copy(self):", "    new = new_state(ClassicState)"]
    for name in ClassicState.__slots__:
        tail = "[:]" if name in ("owner", "armies") else ""
        lines.append(f"    new.{name} = self.{name}{tail}")
    lines.append("    return new")
    scope: dict[str, Any] = {"ClassicState": ClassicState, "new_state": object.__new__}
    exec("\n".join(lines), scope)
    copy: Callable[[ClassicState], ClassicState] = scope["copy"]
    return copy


_copy = _make_copy()


def replaced(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``values`` with ``values[index]`` set to ``value`` (a per-seat tuple field is never
    changed in place: copies of the state share it)."""
    return (*values[:index], value, *values[index + 1 :])


def bumped(values: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    """``values`` with ``delta`` added to ``values[index]`` (see :func:`replaced`)."""
    return (*values[:index], values[index] + delta, *values[index + 1 :])
