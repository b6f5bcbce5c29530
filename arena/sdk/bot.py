"""The strategy interface every Python bot implements, in-process or over gRPC.

Subclass :class:`Bot` and override :meth:`Bot.choose`, or one method per decision kind.
A bot sees only its seat's :class:`Request` (view + legal options), never the game state.
An answer is an action (for classic, see :mod:`arena.sdk.classic`) or an option index into
``request.choices``. Game-neutral: a kind the bot has no method for is answered with option 0,
always legal, so a bot never crashes on a decision it was not written for.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from arena.games.europe.actions import Action as EuropeAction
from arena.sdk.classic import DEFAULTS, GAME, KINDS, ClassicBot, choices
from arena.sdk.classic import Answer as ClassicAnswer

Answer: TypeAlias = ClassicAnswer | EuropeAction | dict[str, Any]
"""What a bot may answer: an option index, a classic or RISK: Europe action, or an action's
JSON form as a dict (the form replays hold)."""

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
    """The legal options, typed by the game (classic: :class:`arena.sdk.Options`)."""
    request_id: int = 0
    deadline_ms: int = 0
    """Time allowed for this decision (0 = no clock)."""
    time_bank_ms: int = 0
    """Time left in the seat's bank for the rest of the match."""
    choices: list[Any] = field(default_factory=list)
    """The options as complete actions; answering ``i`` means ``choices[i]``."""
    events: list[dict[str, Any]] = field(default_factory=list)
    """What happened since this seat's previous request (other seats' cards hidden)."""
    game: str = GAME
    """The game of the match this request belongs to (its registry name, e.g. ``"classic"``)."""

    @classmethod
    def make(cls, seat: int, view: dict[str, Any], options: Any, **extra: Any) -> Request:
        """Build a classic request with its enumerated ``choices``."""
        return cls(options.kind, seat, view, options, choices=choices(options), **extra)


def default_answer(request: Request) -> Answer:
    """The game-neutral safe answer: the first option, which is always legal."""
    return 0


class Bot(ClassicBot):
    """Base class for strategies. Defaults are safe, simple play; override what you improve.

    Works for any game: :meth:`choose` calls the method named after the request's kind when
    the bot has one (classic's per-kind methods come from :class:`arena.sdk.classic.ClassicBot`)
    and otherwise answers :func:`default_answer`.
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

    def start(self, match: MatchInfo) -> None:
        """Called once when a match starts."""
        self.match = match

    def finish(self, result: dict[str, Any]) -> None:
        """Called once when the match is over, with places and the end reason."""

    def rejected(self, reason: str) -> None:
        """The last answer was illegal (a strike); ``choose`` is asked again right after."""
        print(f"{self.name}: answer rejected: {reason}", file=sys.stderr)

    def choose(self, request: Request) -> Answer:
        """Answer a decision: the method named after its kind, else the first option."""
        kind = request.kind
        if kind.startswith("_") or kind in _RESERVED:
            return default_answer(request)
        method = getattr(self, kind, None)
        if not callable(method):
            return default_answer(request)
        if request.game != GAME and getattr(type(self), kind, None) is DEFAULTS.get(kind):
            return default_answer(request)  # classic's default does not know another game
        answer: Answer = method(request)
        return answer


_RESERVED = frozenset(name for cls in (Bot, ClassicBot) for name in vars(cls) if name not in KINDS)
"""Bot's own attributes (``start``, ``run``, ...): never taken for a decision method."""
