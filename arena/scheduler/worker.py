"""Worker processes of a tournament: each plays matches and keeps its bot processes alive.

A worker holds one referee server and, per bot version, idle bot sessions left from earlier
matches: a bot process plays many matches on one stream and is restarted when it dies, when
it let a request go unanswered past its time (it may still be busy with it, or be frozen), or
for every match with ``fresh_process``. Workers ask the kernel to kill them when the
scheduler dies, and their bots die with them, so no bot outlives the tournament.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from arena.bots import BotSpec
from arena.games import load as load_game
from arena.referee.host import BotHost
from arena.referee.match import Seat, TimeControl, run_match
from arena.referee.seats import RemoteSeat
from arena.statuses import SeatStatus

log = logging.getLogger("arena.worker")

REUSABLE = {SeatStatus.OK.value, SeatStatus.TIMEOUT.value, SeatStatus.ILLEGAL.value}
"""Statuses after which a bot's stream is still sound enough for its next match (provided it
never timed out: see :meth:`WorkerHost._settle`)."""


def init_worker() -> None:
    """Runs first in every worker process: die with the scheduler."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the scheduler's to handle


def entry_spec(entry: dict[str, Any]) -> BotSpec:
    """The bot spec of a tournament entry (what :func:`arena.scheduler.tournament.register` stored)."""
    return BotSpec(
        name=entry["name"],
        path=Path(entry["path"]),
        version=entry["label"],
        language="",
        description="",
        entry=None,
        command=entry["command"],
        setup=entry.get("setup"),
    )


class WorkerHost:
    """The per-process referee server and the idle bot sessions, by bot version."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.host = BotHost()
        self.loop.run_until_complete(self.host.open())
        self.idle: dict[str, list[RemoteSeat]] = {}

    def play(self, job: dict[str, Any]) -> dict[str, Any]:
        return self.loop.run_until_complete(self._play(job))

    def close(self) -> None:
        """End every bot process and the server (a worker process normally just dies)."""
        if self.loop.is_closed():
            return
        self.idle.clear()
        self.loop.run_until_complete(self.host.close())
        self.loop.close()

    async def _seat(self, entry: dict[str, Any], label: str, startup: float) -> tuple[Any, str]:
        waiting = self.idle.get(entry["version_id"], [])
        while waiting:
            seat = waiting.pop()
            if BotHost.alive(seat):
                return seat, ""
            await self.host.release(seat)
        return await self.host.connect(entry_spec(entry), label, startup)

    async def _play(self, job: dict[str, Any]) -> dict[str, Any]:
        control = TimeControl(**job["control"])
        game = load_game(job.get("game", "classic")).from_config(job["rules"])
        entries = job["seats"]
        tag = f"{job['tournament_id']}-{job['plan_index']}"
        found = await asyncio.gather(
            *(
                self._seat(e, f"{tag}-seat{i}-{Path(e['path']).name}", control.startup_time)
                for i, e in enumerate(entries)
            )
        )
        seats: list[Seat | None] = [seat for seat, _ in found]
        absent = {
            i: (SeatStatus.INIT_FAIL, why) for i, (seat, why) in enumerate(found) if seat is None
        }
        names = [(e["name"], e["label"]) for e in entries]
        started = time.time()
        with tempfile.TemporaryDirectory(prefix="arena-replay-") as tmp:
            replay_path = Path(tmp) / "replay.jsonl"
            try:
                result = await run_match(
                    game,
                    seats,
                    job["seed"],
                    names,
                    control,
                    replay_path,
                    job["strike_limit"],
                    absent=absent,
                )
            except BaseException:
                await self._settle(entries, seats, [""] * len(seats), fresh=True)
                raise
            replay = replay_path.read_bytes()
        statuses = [s.status for s in result.seats]
        await self._settle(entries, seats, statuses, job.get("fresh_process", False))
        log.info(
            "match %s (plan %s) %s: %s",
            result.match_id,
            job["plan_index"],
            result.end,
            ", ".join(f"{s.bot} {s.place} {s.status}" for s in result.seats),
        )
        return {
            "plan_index": job["plan_index"],
            "match": result.to_dict(),
            "out_order": list(result.out_order),
            "think": [s.timing() for s in result.seats],
            "started_at": started,
            "finished_at": time.time(),
            "replay": replay,
            "worker": os.getpid(),
        }

    async def _settle(
        self,
        entries: list[dict[str, Any]],
        seats: list[Seat | None],
        statuses: list[str],
        fresh: bool,
    ) -> None:
        """Keep sound bot sessions for the next match; end the others' processes.

        A seat that timed out is not sound even when its status allows it: its process may
        still be working on (or frozen in) a request and would start the next match late.
        """
        for entry, seat, status in zip(entries, seats, statuses, strict=True):
            if not isinstance(seat, RemoteSeat):
                continue
            if fresh or status not in REUSABLE or seat.timed_out or not BotHost.alive(seat):
                await self.host.release(seat)
            else:
                self.idle.setdefault(entry["version_id"], []).append(seat)


_HOST: WorkerHost | None = None


def play_job(job: dict[str, Any]) -> dict[str, Any]:
    """Entry point of a worker task: play one planned match."""
    global _HOST
    if _HOST is None:
        _HOST = WorkerHost()
    return _HOST.play(job)
