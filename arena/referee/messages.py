"""What the match loop and a seat say to each other, in the game's own terms: views, options
and actions, never wire messages.

The loop (:mod:`arena.referee.match`) hands a seat a :class:`Start`, :class:`Ask`,
:class:`Result` and :class:`End`, and gets back a :class:`Reply` whose answer is already an
option index or the game's action. Each kind of seat carries them its own way
(:mod:`arena.referee.seats`): a remote seat encodes protobuf, an in-process seat hands the
bot the SDK's objects, so the loop has one path for both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arena.games.api import Game


@dataclass(frozen=True, slots=True)
class Start:
    """A match begins for one seat: what its MatchStart says."""

    game: Game[Any, Any, Any]
    match_id: str
    seat: int
    names: list[str]
    bot_seed: int
    move_time_ms: int
    time_bank_ms: int


@dataclass(slots=True)
class Ask:
    """One decision asked of one seat: its own view, its legal options and the events it may
    see since it was last asked."""

    game: Game[Any, Any, Any]
    match_id: str
    seat: int
    request_id: int
    kind: str
    view: dict[str, Any]
    options: Any
    deadline_ms: int
    time_bank_ms: int
    events: list[dict[str, Any]]
    _listed: list[Any] | None = field(default=None, repr=False)

    @property
    def listed(self) -> list[Any]:
        """The game's enumerated choices (``choices(options)``), built once: an in-process
        bot is handed them, the wire sends their count, an answer by index picks one."""
        if self._listed is None:
            found = self.game.choices(self.options)
            self._listed = found if type(found) is list else list(found)
        return self._listed


@dataclass(frozen=True, slots=True)
class Result:
    """The referee's verdict on an answer: accepted, or rejected with the reason (a retry
    may follow before the deadline)."""

    request_id: int
    accepted: bool
    reason: str = ""
    strikes: int = 0


@dataclass(frozen=True, slots=True)
class End:
    """The match is over: every seat's line, how it ended and the winner."""

    match_id: str
    lines: list[dict[str, Any]]
    end_reason: str
    winner: int | None


@dataclass(slots=True)
class Reply:
    """What came back for a request within its time.

    ``answer`` is the bot's answer as the referee reads it (an option index or the game's
    action), or None when nothing arrived in time. ``illegal`` is why an answer could not even
    be put on the wire; ``unreadable`` why what arrived is no answer the game can read (both
    are rejections). ``fault`` ends the seat (``crash``, ``disconnect`` or ``protocol``) with
    ``detail``.
    """

    answer: Any = None
    elapsed: float = 0.0
    illegal: str | None = None
    unreadable: str | None = None
    fault: str | None = None
    detail: str = ""
    debug: list[str] = field(default_factory=list)

    @property
    def silent(self) -> bool:
        """Nothing arrived within the time (a timeout, unless the seat faulted)."""
        return self.answer is None and self.illegal is None and self.unreadable is None
