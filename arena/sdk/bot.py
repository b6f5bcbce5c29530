"""The strategy interface every Python bot implements, in-process or over gRPC.

Subclass :class:`Bot` and override :meth:`Bot.choose`, or one method per decision kind.
A bot sees only its seat's :class:`Request` (view + legal options), never the game state.
An answer is one of the game's actions or an option index into ``request.choices``.

Game-neutral: what a game adds (its bot base class with a default method per decision kind,
its actions and helpers, what a bot declares) lives in its own SDK package, found by the
game's name (:mod:`arena.sdk.game_sdk`). A kind the bot has no method for gets that game's
default answer, or option 0, always legal, so a bot never crashes on a decision it was not
written for.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from arena.games import DEFAULT_GAME
from arena.sdk import game_sdk

Answer: TypeAlias = Any
"""What a bot may answer: an option index, one of the game's actions, or an action's JSON
form as a dict (the form replays hold); each game's SDK package names its own answer type."""

__all__ = ["Answer", "Bot", "MatchInfo", "Request", "default_answer"]


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """What a bot learns when a match starts."""

    game: str
    rules: dict[str, Any]
    seat: int
    players: int
    bot_seed: int
    """A per-seat seed derived from the match seed, for reproducible randomness."""
    board: dict[str, Any]
    """Territory names, neighbour lists, continents and card symbols (ids index them)."""
    names: tuple[str, ...] = ()
    """Bot name of each seat."""
    match_id: str = ""
    move_time_ms: int = 0
    """Time per decision before the bank is drawn on (0 = no clock)."""
    time_bank_ms: int = 0
    """This seat's time bank for the whole match."""


@dataclass(frozen=True, slots=True)
class Request:
    """One decision asked of this bot's seat."""

    kind: str
    seat: int
    view: dict[str, Any]
    options: Any
    """The legal options, typed by the game (classic: :class:`arena.sdk.classic.Options`)."""
    request_id: int = 0
    deadline_ms: int = 0
    """Time allowed for this decision (0 = no clock)."""
    time_bank_ms: int = 0
    """Time left in the seat's bank for the rest of the match."""
    choices: list[Any] = field(default_factory=list)
    """The options as complete actions; answering ``i`` means ``choices[i]``."""
    events: list[dict[str, Any]] = field(default_factory=list)
    """What happened since this seat's previous request (other seats' cards hidden)."""
    game: str = DEFAULT_GAME
    """The game of the match this request belongs to (its registry name, e.g. ``"classic"``)."""

    @classmethod
    def make(cls, seat: int, view: dict[str, Any], options: Any, **extra: Any) -> Request:
        """Build a request of the kind ``options`` name, with the ``choices`` its game's SDK
        package enumerates from them (``extra`` may name the game; else :data:`DEFAULT_GAME`)."""
        game = extra.get("game", DEFAULT_GAME)
        enumerate_choices = getattr(game_sdk.package(game), "choices", None)
        if enumerate_choices is None:
            raise ValueError(f"the SDK cannot list the choices of game {game!r}: pass choices=")
        return cls(options.kind, seat, view, options, choices=enumerate_choices(options), **extra)


def default_answer(request: Request) -> Answer:
    """The safe answer to ``request``: its game's default for the kind, from the game's SDK
    package (its ``default_answer``), else the first option, which is always legal."""
    answer = getattr(game_sdk.package(request.game), "default_answer", None)
    return 0 if answer is None else answer(request)


class Bot:
    """Base class for strategies, for any game: :meth:`choose` calls the method named after
    the request's kind when the bot has one and otherwise answers :func:`default_answer`.

    A game's own base class (``arena.sdk.<game>``, e.g. classic's ``ClassicBot``) adds a
    default method per decision kind; override what you improve.
    """

    name: str = "bot"
    version: str = "0"
    games: tuple[str, ...] = ()
    """The games this bot says in its Hello it plays; the referee then refuses it a match of
    another game. Empty (the default): not said, the bot.toml's ``games`` decide."""

    match: MatchInfo | None = None
    _debug: list[str] | None = None

    def run(self) -> None:
        """Connect to the referee named in the environment and play; exits the process."""
        from arena.sdk.client import run

        sys.exit(run(self))

    def debug(self, text: str) -> None:
        """Send a line of debug text; it goes into the replay and is never shown to opponents."""
        if self._debug is None:
            self._debug = []
        self._debug.append(str(text))

    def take_debug(self) -> list[str]:
        """Debug lines written since the last call (used by the runners)."""
        texts, self._debug = self._debug or [], None
        return texts

    def declarations(self, game: str) -> dict[str, Any]:
        """What this bot declares before a match of ``game``: what the game's SDK package
        reads from the bot (its ``declarations(bot)``), else nothing."""
        declared = getattr(game_sdk.package(game), "declarations", None)
        return {} if declared is None else dict(declared(self))

    def start(self, match: MatchInfo) -> None:
        """Called once when a match starts."""
        self.match = match

    def finish(self, result: dict[str, Any]) -> None:
        """Called once when the match is over, with places and the end reason."""

    def rejected(self, reason: str) -> None:
        """The last answer was illegal (a strike); ``choose`` is asked again right after."""
        print(f"{self.name}: answer rejected: {reason}", file=sys.stderr)

    def choose(self, request: Request) -> Answer:
        """Answer a decision: the method named after its kind, else :func:`default_answer`."""
        kind = request.kind
        if kind.startswith("_") or kind in _RESERVED:
            return default_answer(request)
        method = getattr(self, kind, None)
        if not callable(method):
            return default_answer(request)
        return method(request)


_RESERVED = frozenset(vars(Bot))
"""Bot's own attributes (``start``, ``run``, ...): never taken for a decision method."""
