"""What crosses between the scheduler and a worker: the match to play (:class:`MatchSpec`)
and what came of it (:class:`MatchRecord`, with a :class:`SeatRecord` per seat).

Frozen and picklable, so they travel to worker processes and Ray actors as they are; typed,
so the scheduler, ``arena versus`` and ``arena serve`` read fields, not string keys. How a
match ended is its ``end_reason`` here as in the database (``end`` in replays and in ``arena
match --json``, names kept for the files and scripts that read them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from arena.catalog.entries import Entry
from arena.referee.match import MatchResult, TimeControl
from arena.results.store import CompressedReplay


@dataclass(frozen=True, slots=True)
class MatchSpec:
    """One planned match: its place in the plan, its game and seed, its bots and clocks."""

    tournament_id: str
    plan_index: int
    seed: int
    game: str
    rules: dict[str, Any]
    seats: tuple[Entry, ...]
    control: TimeControl
    strike_limit: int = 3
    fresh_process: bool = False
    """End every bot process after the match (a fresh process for every match)."""
    in_process: bool = False
    """Play Python bots that have an ``entry`` inside the worker."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat's line: its place and status, how long its bot thought and the CPU it used."""

    seat: int
    bot: str
    version: str
    place: int
    status: str
    strikes: int
    decisions: int
    think_ms_p50: float | None
    think_ms_p99: float | None
    log: str | None
    """The bot process's stderr log (None for a seat that played in-process)."""
    cpu_s: float | None = None
    """CPU seconds its bot process (tree) used during the match, from the kernel (None for a
    seat that played in-process: its CPU is the worker's)."""


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A played match, as the worker hands it back for rating and recording."""

    plan_index: int
    match_id: str
    game: str
    seed: int
    rules: dict[str, Any]
    end_reason: str
    winner: int | None
    turns: int
    rounds: int
    decisions: int
    seats: tuple[SeatRecord, ...]
    out_order: tuple[int, ...]
    """Seats in the order they left the game (see :attr:`MatchResult.out_order`)."""
    started_at: float
    finished_at: float
    replay: CompressedReplay
    """The replay, compressed (by the worker, in parallel)."""
    worker: int
    """The process id of the worker that played it."""

    @property
    def places(self) -> list[int]:
        return [s.place for s in self.seats]

    @property
    def statuses(self) -> list[str]:
        return [s.status for s in self.seats]

    @classmethod
    def of(
        cls,
        spec: MatchSpec,
        result: MatchResult,
        logs: list[str | None],
        times: tuple[float, float],
        replay: CompressedReplay,
        worker: int,
    ) -> MatchRecord:
        """The record of ``spec`` played to ``result`` between ``times`` (start, finish)."""
        seats = []
        for seat, log in zip(result.seats, logs, strict=True):
            timing = seat.timing()
            seats.append(
                SeatRecord(
                    seat=seat.seat,
                    bot=seat.bot,
                    version=seat.version,
                    place=seat.place,
                    status=seat.status,
                    strikes=seat.strikes,
                    decisions=timing["decisions"],
                    think_ms_p50=timing["think_ms_p50"],
                    think_ms_p99=timing["think_ms_p99"],
                    log=log,
                    cpu_s=timing["cpu_s"],
                )
            )
        return cls(
            plan_index=spec.plan_index,
            match_id=result.match_id,
            game=result.game,
            seed=result.seed,
            rules=result.rules,
            end_reason=result.end_reason,
            winner=result.winner,
            turns=result.turns,
            rounds=result.rounds,
            decisions=result.decisions,
            seats=tuple(seats),
            out_order=tuple(result.out_order),
            started_at=times[0],
            finished_at=times[1],
            replay=replay,
            worker=worker,
        )
