"""Worker processes of a tournament: each plays matches and keeps its bot processes alive.

A worker holds one referee server and, per bot version, idle bot sessions left from earlier
matches: a bot process plays many matches on one stream and is restarted when it dies, when
it let a request go unanswered past its time (it may still be busy with it, or be frozen), or
for every match with ``fresh_process``. Workers ask the kernel to kill them when the
scheduler dies, and their bots die with them, so no bot outlives the tournament.

A bot's stream ends the way a single match ends it: when the worker is done with a sound bot
process (the tournament is over, or ``fresh_process``), its last MatchEnd is delivered, the
stream ends with status OK, and the process has :data:`STREAM_END_GRACE` seconds to exit by
itself (what it prints meanwhile still goes to its log) before it is killed.

With ``in_process`` a Python bot that has an ``entry`` plays inside the worker instead: its
module is imported once per worker and every match gets a fresh instance of its class, so
each match starts as clean as a fresh process would; anything a bot prints goes to the
tournament's in-process log, never to the terminal. Other bots still play as processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import io
import logging
import multiprocessing.util
import os
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from arena.catalog import load_bot
from arena.catalog.entries import Entry, entry_spec
from arena.errors import BotError
from arena.games import load as load_game
from arena.paths import logs_dir
from arena.referee.host import BotHost
from arena.referee.match import MatchSettings, Seat, run_match
from arena.referee.seats import InProcessSeat, RemoteSeat
from arena.replays.compact import compact, deflate
from arena.results.store import CompressedReplay, compress_replay
from arena.sandbox.resources import raise_open_files_limit
from arena.scheduler.records import MatchRecord, MatchSpec
from arena.sdk.bot import Bot
from arena.statuses import SeatStatus

log = logging.getLogger("arena.worker")

REUSABLE = {SeatStatus.OK.value, SeatStatus.TIMEOUT.value, SeatStatus.ILLEGAL.value}
"""Statuses after which a bot's stream is still sound enough for its next match (provided it
never timed out: see :meth:`WorkerHost._settle`)."""
STREAM_END_GRACE = 5.0
"""Seconds a sound bot process has to exit by itself once its stream has ended normally
(after its last MatchEnd) before it is killed; one that exits sooner costs only its exit."""


class MatchFailed(Exception):
    """A match could not be played for a reason no seat's bot is to blame for (e.g. the
    worker ran out of file descriptors): the scheduler plays it again from its seed. It
    carries only text, so it always crosses back to the scheduler's process."""


def init_worker(scratch: str | None = None, forked: bool = False) -> None:
    """Runs first in every worker process: die with the scheduler; temporary files in its
    pool's ``scratch`` folder (which the pool removes, even after a kill -9); as many
    descriptors as the hard limit allows (each bot process costs its referee a few); a
    settled heap. ``forked``: a local pool's process, which inherited the scheduler's signal
    handlers."""
    if scratch is not None:
        tempfile.tempdir = scratch
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the scheduler's to handle
    if forked:  # a local pool's worker: not the scheduler's "SIGTERM stops like Ctrl-C"
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # When the pool shuts down, the worker's kept bots get their last MatchEnd and a normal
    # end of stream before it exits (run by multiprocessing as the worker process ends,
    # before the log queue's own clean-up at priority 10, so its lines still reach the log).
    multiprocessing.util.Finalize(None, close_host, exitpriority=100)
    raise_open_files_limit()
    settle_heap()


def settle_heap() -> None:
    """Move what lives for the whole worker (modules, boards, bot classes) out of the
    garbage collector's sight. A full collection walks every tracked object, 15-25 ms for
    the ~30k a worker holds; one landing inside an in-process bot's decision is charged to
    its clock, and at a 50 ms move time that is a strike's worth."""
    gc.collect()
    gc.freeze()


class WorkerHost:
    """The per-process referee server and the idle bot sessions, by bot version."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.host = BotHost()
        self.loop.run_until_complete(self.host.open())
        self.idle: dict[str, list[RemoteSeat]] = {}
        self.loadable: dict[str, bool] = {}
        """Per bot version: whether it plays in-process here (its class loaded once)."""
        self.imported: dict[Path, str] = {}
        """Per bot folder: the version whose package this worker imported (once per process)."""

    def play(self, job: MatchSpec) -> MatchRecord:
        return self.loop.run_until_complete(self._play(job))

    def close(self) -> None:
        """End the kept bots' streams normally (see :meth:`_let_go`), then every bot process
        and the server."""
        if self.loop.is_closed():
            return
        kept = [seat for seats in self.idle.values() for seat in seats]
        self.idle.clear()
        self.loop.run_until_complete(self._close(kept))
        self._cancel_leftovers()
        self.loop.close()

    def _cancel_leftovers(self) -> None:
        """Cancel what is still pending on the loop (a game cut short by Ctrl-C leaves, e.g.,
        a bot's log reader) and let it finish, as ``asyncio.run`` does: a task destroyed while
        pending would print a warning after ``arena: interrupted``."""
        pending = asyncio.all_tasks(self.loop)
        for task in pending:
            task.cancel()
        if pending:
            self.loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))

    async def _close(self, kept: list[RemoteSeat]) -> None:
        await asyncio.gather(*(self._let_go(seat) for seat in kept))
        await self.host.close()

    async def _let_go(self, seat: RemoteSeat) -> None:
        """End a sound bot's stream as a single match does: what is queued for it (its last
        MatchEnd) goes first, then the stream ends with status OK; its process then has
        :data:`STREAM_END_GRACE` seconds to exit by itself (its stderr is logged to the end)
        before it is killed."""
        await seat.close()
        if seat.process is not None:
            await seat.process.wait_exit(STREAM_END_GRACE)
        await self._release(seat)

    async def _release(self, seat: RemoteSeat) -> None:
        """End the seat's process; the tournament's log says how it ended."""
        await self.host.release(seat)
        if seat.process is not None:
            code = seat.process.process.returncode
            how = f"was killed (signal {-code})" if code is not None and code < 0 else "exited"
            log.info(
                "%s (pid %d) %s with code %s; its log: %s",
                seat.name,
                seat.process.pid,
                how,
                code,
                seat.process.log_path,
            )

    async def _seat(self, entry: Entry, label: str, startup: float) -> tuple[Any, str]:
        waiting = self.idle.get(entry["version_id"], [])
        while waiting:
            seat = waiting.pop()
            if BotHost.alive(seat):
                return seat, ""
            await self._release(seat)
        return await self.host.connect(entry_spec(entry), label, startup)

    def _in_process(self, entry: Entry) -> InProcessSeat | None:
        """A fresh in-process seat of the entry's bot, or None when it plays as a process."""
        bot = self._fresh_bot(entry)
        return None if bot is None else InProcessSeat(bot, entry["name"], entry["label"])

    def _fresh_bot(self, entry: Entry) -> Bot | None:
        """A new instance of the bot's class (its module imported once per worker), or None:
        no ``entry``, or it cannot be loaded (its process then fails, or plays, as without
        ``in_process``, so the records are the same either way)."""
        vid = entry["version_id"]
        spec = entry_spec(entry)
        if self.loadable.get(vid) is False or not spec.entry:
            return None
        # A folder's package is imported once per process: if its files changed since this
        # worker imported another version of it, that version's modules would stand in.
        first = self.imported.setdefault(spec.path.resolve(), vid)
        if first != vid:
            log.warning("%s plays as a process: version %s was imported here", spec.name, first)
            self.loadable[vid] = False
            return None
        try:
            bot = load_bot(spec)
        except BotError as exc:
            log.warning("%s plays as a process: %s", entry["name"], exc)
            self.loadable[vid] = False
            return None
        if vid not in self.loadable:
            self.loadable[vid] = True
            settle_heap()  # its modules are new to this worker
        return bot

    async def _play(self, job: MatchSpec) -> MatchRecord:
        control = job.control
        game = load_game(job.game).from_config(job.rules)
        entries = job.seats
        tag = f"{job.tournament_id}-{job.plan_index}"
        labels = [f"{tag}-seat{i}-{Path(e['path']).name}" for i, e in enumerate(entries)]
        local = [self._in_process(e) if job.in_process else None for e in entries]
        starts = await asyncio.gather(
            *(
                self._seat(e, labels[i], control.startup_time)
                for i, e in enumerate(entries)
                if local[i] is None
            ),
            return_exceptions=True,  # every start finishes: none is left running unseen
        )
        failed = [s for s in starts if isinstance(s, BaseException)]
        if failed:
            for start in starts:
                if not isinstance(start, BaseException) and start[0] is not None:
                    await self._release(start[0])
            raise failed[0]
        connected = iter(s for s in starts if not isinstance(s, BaseException))
        found = [next(connected) if seat is None else (seat, "") for seat in local]
        seats: list[Seat | None] = [seat for seat, _ in found]
        absent = {
            i: (SeatStatus.INIT_FAIL, why) for i, (seat, why) in enumerate(found) if seat is None
        }
        names = [(e["name"], e["label"]) for e in entries]
        logs = [_seat_log(seat, label) for seat, label in zip(seats, labels, strict=True)]
        started = time.time()
        with tempfile.TemporaryDirectory(prefix="arena-replay-") as tmp:
            replay_path = Path(tmp) / "replay.jsonl"
            try:
                with _printed_to_log(job.tournament_id, any(local)):
                    settings = MatchSettings(control, job.strike_limit, replay_path)
                    result = await run_match(game, seats, job.seed, names, settings, absent)
            except BaseException:
                await self._settle(entries, seats, [""] * len(seats), fresh=True)
                raise
            replay = replay_path.read_bytes()
        statuses = [s.status for s in result.seats]
        await self._settle(entries, seats, statuses, job.fresh_process)
        log.info(
            "match %s (plan %s) %s: %s",
            result.match_id,
            job.plan_index,
            result.end_reason,
            ", ".join(f"{s.bot} {s.place} {s.status}" for s in result.seats),
        )
        times = (started, time.time())
        # the replay is compacted and compressed here, in parallel, not in the scheduler
        packed = compact(replay)
        deflated = deflate(packed)
        stored = CompressedReplay(deflated) if deflated else compress_replay(packed)
        return MatchRecord.of(job, result, logs, times, stored, os.getpid())

    async def _settle(
        self,
        entries: tuple[Entry, ...],
        seats: list[Seat | None],
        statuses: list[str],
        fresh: bool,
    ) -> None:
        """Keep sound bot sessions for the next match (with ``fresh``, end their streams
        normally: :meth:`_let_go`); end the others' processes at once.

        A seat that timed out is not sound even when its status allows it: its process may
        still be working on (or frozen in) a request and would start the next match late.
        """
        letting_go = []
        for entry, seat, status in zip(entries, seats, statuses, strict=True):
            if not isinstance(seat, RemoteSeat):
                continue
            if status not in REUSABLE or seat.timed_out or not BotHost.alive(seat):
                await self._release(seat)
            elif fresh:
                letting_go.append(self._let_go(seat))
            else:
                self.idle.setdefault(entry["version_id"], []).append(seat)
        await asyncio.gather(*letting_go)


def _seat_log(seat: Seat | None, label: str) -> str | None:
    """The stderr log of the seat's bot process: the file of the match its process was
    started for (a kept process plays on in later ones), or for a process that never
    connected, the file it wrote while failing; None for a seat that played in-process."""
    if isinstance(seat, RemoteSeat):
        return None if seat.process is None else str(seat.process.log_path.resolve())
    if seat is None:
        path = logs_dir() / f"{label}.log"
        return str(path.resolve()) if path.is_file() else None
    return None


@contextlib.contextmanager
def _printed_to_log(tournament_id: str, capture: bool) -> Iterator[None]:
    """While in-process bots play, keep what they print off the terminal (and off ``--json``
    output): it is appended to ``logs/TOURNAMENT-in-process.log`` in the logs folder in use."""
    if not capture:
        yield
        return
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
            yield
    finally:
        if printed.tell():
            path = logs_dir() / f"{tournament_id}-in-process.log"
            with contextlib.suppress(OSError):
                path.parent.mkdir(parents=True, exist_ok=True)
                with path.open("a") as out:
                    out.write(printed.getvalue())


_HOST: WorkerHost | None = None


def play_job(job: MatchSpec) -> MatchRecord:
    """Entry point of a worker task: play one planned match.

    A bot that cannot be started is a :class:`BotError` (the tournament cannot go on with
    it); anything else that goes wrong is a :class:`MatchFailed` for the scheduler to play
    again, after this worker's host (its server and every bot process) is started afresh.
    """
    global _HOST
    try:
        if _HOST is None:
            _HOST = WorkerHost()
        return _HOST.play(job)
    except BotError:
        raise
    except Exception as exc:
        log.warning(
            "match (plan %s) failed: %s: %s",
            job.plan_index,
            type(exc).__name__,
            exc,
        )
        close_host()
        raise MatchFailed(f"{type(exc).__name__}: {exc}") from None


def close_host() -> None:
    """End this worker's host (its server and every bot process); the next match starts a
    fresh one."""
    global _HOST
    host, _HOST = _HOST, None
    if host is not None:
        with contextlib.suppress(Exception):
            host.close()
