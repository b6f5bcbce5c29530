"""The lines of a replay file, typed: the header the referee writes first, then one record per
decision, simultaneous batch, forfeit, strike or debug text, and the result last.

These are what the referee writes (:mod:`arena.referee.match`), so the type checker holds
every writer to the format that ``arena replay show``, ``replay verify``, the web viewer and
outside tools read. Events and views stay the game's own plain JSON (``Event`` in
:mod:`arena.games.api`). A reader still checks what it reads: a file may be old or edited.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict


class HeaderSeat(TypedDict):
    seat: int
    bot: str
    version: str


class TimeControlRecord(TypedDict):
    move_time: float | None
    """Seconds per decision (None: no clocks)."""
    time_bank: float


class ReplayHeader(TypedDict):
    """What the match was: the game, its rules and seed, who sat where, what each declared."""

    game: str
    match_id: str
    seed: int
    rules: dict[str, Any]
    seats: list[HeaderSeat]
    declarations: list[dict[str, Any]]
    always_max: NotRequired[list[bool]]
    """Classic's ``always_max_defence`` declarations, under the key replays had before
    declarations were per game."""
    time_control: TimeControlRecord
    strike_limit: int


class Answer(TypedDict):
    """One seat's accepted (or default) answer."""

    seat: int
    action: dict[str, Any]
    request_id: int | None
    """The request it answered (None: the seat was not asked, e.g. it had forfeited)."""
    think_ms: float | None


class DecisionRecord(Answer):
    type: Literal["decision"]
    kind: str
    events: list[dict[str, Any]]


class JointRecord(TypedDict):
    """A simultaneous decision: every seat's answer, applied together."""

    type: Literal["joint"]
    kind: str
    answers: list[Answer]
    events: list[dict[str, Any]]


class ForfeitRecord(TypedDict):
    type: Literal["forfeit"]
    seat: int
    status: str
    detail: str
    events: list[dict[str, Any]]


class TimeoutRecord(TypedDict):
    """A strike for an answer that came too late (the game's default was applied)."""

    type: Literal["timeout"]
    seat: int
    request_id: int
    think_ms: float


class RejectedRecord(TypedDict):
    """A strike for an answer the game refused, with its reason."""

    type: Literal["rejected"]
    seat: int
    request_id: int
    answer: object
    reason: str


class DebugRecord(TypedDict):
    type: Literal["debug"]
    seat: int
    request_id: int
    text: str


class ResultRecord(TypedDict):
    """The last line: places by seat, the winner, how it ended (``end``), how far it went."""

    type: Literal["result"]
    places_by_seat: list[int]
    winner: int | None
    end: str
    turns: NotRequired[int]
    rounds: NotRequired[int]
    progress: dict[str, int]
    statuses: list[str]
    strikes: list[int]


Record = (
    DecisionRecord
    | JointRecord
    | ForfeitRecord
    | TimeoutRecord
    | RejectedRecord
    | DebugRecord
    | ResultRecord
)
"""Any line of a replay after its header."""
