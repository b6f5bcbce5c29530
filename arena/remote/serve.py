"""``arena serve``: a long-lived referee that remote bots dial into, and that plays the
tournaments handed to it.

One event loop (on a thread of its own) runs the TCP server with the :class:`Lobby` and
every match: remote seats come from the lobby, local bots start as usual through a
:class:`~arena.referee.host.BotHost` (a unix socket per process). The main thread runs each
handed tournament with the scheduler's :class:`~arena.scheduler.tournament.Runner`, so
recording and ratings in plan order are the scheduler's own code: only its executor differs
(matches go to the loop instead of a process pool). The serve is the database's single
writer for those tournaments; it notes its liveness in ``serves`` as a scheduler does with
heartbeats, and polls ``serve_queue`` for tournaments ``arena tournament run`` hands it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys
import threading
import uuid
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

import grpc

from arena.catalog.entries import Entry
from arena.catalog.remote import is_remote
from arena.errors import ArenaError, BotError, ConfigError
from arena.referee.doctor import fairness_line
from arena.referee.match import Seat
from arena.referee.server import start_server
from arena.remote.lobby import Lobby, LobbySeat
from arena.results.store import Store, open_store
from arena.scheduler.ladder import LadderRunner, runner_class
from arena.scheduler.records import MatchRecord, MatchSpec
from arena.scheduler.tournament import Runner
from arena.scheduler.worker import REUSABLE, MatchFailed, WorkerHost

if TYPE_CHECKING:
    from arena.remote.hosted import HostedSettings

log = logging.getLogger("arena.serve")

POLL_SECONDS = 0.5
"""How often the serve looks for a handed tournament."""
BEAT_SECONDS = 5.0
"""How often the serve notes in the database that it is alive."""
START_SECONDS = 60.0
"""Longest wait for the server to start listening."""
CONNECTIONS = 512
"""Connections and streams the serve takes at once: every remote bot holds one, and a
referee server's default (32, for one bot process) would let a few clients that connect
and wait lock the others out; idle and handshake-less connections still close after the
hello timeout."""
KEEPALIVE = (
    ("grpc.keepalive_time_ms", 20_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.keepalive_permit_without_calls", 1),
)
"""The serve pings each remote bot's connection every 20 s and closes one unanswered for
10 s: a bot whose network vanished without a word is seen gone (and may dial in again,
one connection per token) within half a minute, not when TCP gives up."""


class ServeHost(WorkerHost):
    """A worker host whose remote entries are seated from the lobby."""

    def __init__(self, lobby: Lobby) -> None:
        super().__init__()
        self.lobby = lobby
        self.remote_seats: dict[str, LobbySeat] = {}
        """One seat per remote bot, kept across its matches (and its streams), as a worker
        keeps a bot process's seat: its request ids never repeat."""

    async def play_job(self, job: MatchSpec) -> MatchRecord:
        """One planned match, its failures told as a worker's are (see ``play_job``)."""
        try:
            return await self._play(job)
        except BotError:
            raise
        except Exception as exc:
            log.warning("match (plan %s) failed: %s: %s", job.plan_index, type(exc), exc)
            raise MatchFailed(f"{type(exc).__name__}: {exc}") from None

    async def _play(self, job: MatchSpec) -> MatchRecord:
        remote = sorted({e["name"] for e in job.seats if is_remote(e)})
        async with contextlib.AsyncExitStack() as held:
            for bot in remote:  # in name order: two matches never wait on each other
                await held.enter_async_context(self.lobby.lock(bot))
            return await super()._play(job)

    async def _seat(self, entry: Entry, label: str, startup: float) -> tuple[Any, str]:
        if not is_remote(entry):
            return await super()._seat(entry, label, startup)
        bot = entry["name"]
        session = await self.lobby.session(bot, startup)
        if session is None:
            return None, f"remote bot {bot!r} did not connect within {startup:g} s"
        seat = self.remote_seats.get(bot)
        if seat is None:
            seat = self.remote_seats[bot] = LobbySeat(session, bot, self.lobby)
        elif seat.session is not session:
            seat.adopt(session)
        return seat, ""

    async def _settle(
        self,
        entries: tuple[Entry, ...],
        seats: list[Seat | None],
        statuses: list[str],
        fresh: bool,
    ) -> None:
        """Local seats as a worker settles them; a remote stream that is no longer sound
        (its seat forfeited or timed out) is ended: its bot dials in again."""
        for seat, status in zip(seats, statuses, strict=True):
            if isinstance(seat, LobbySeat) and (
                fresh or not seat.sound() or status not in REUSABLE
            ):
                self.lobby.drop(seat.bot, seat.session)
        local = [None if isinstance(seat, LobbySeat) else seat for seat in seats]
        await super()._settle(entries, local, statuses, fresh)


class LoopExecutor(Executor):
    """Runs each submitted match as a coroutine on the serve's event loop, at most
    ``workers`` at once (as many as a pool has workers; the runner submits more ahead)."""

    def __init__(self, host: ServeHost, workers: int) -> None:
        self.host = host
        self.workers = workers
        self._slots: asyncio.Semaphore | None = None
        self._futures: set[Future[Any]] = set()

    async def _limited(self, job: MatchSpec) -> MatchRecord:
        if self._slots is None:  # made on the loop's thread
            self._slots = asyncio.Semaphore(self.workers)
        async with self._slots:
            return await self.host.play_job(job)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """``fn`` is the pool's ``play_job``; here its job plays on the loop instead."""
        job = args[0]
        future = asyncio.run_coroutine_threadsafe(self._limited(job), self.host.loop)
        self._futures.add(future)
        future.add_done_callback(self._futures.discard)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures:
            for future in list(self._futures):
                future.cancel()


class ServeRunner(Runner):
    """The scheduler's runner with the serve's executor; stops when the tournament is
    marked stopped (Ctrl-C in the ``tournament run`` that follows it)."""

    host: ServeHost

    def _executor(self) -> Executor:
        return LoopExecutor(self.host, self.workers)

    def _heartbeat(self, force: bool = False) -> None:
        super()._heartbeat(force)
        found = self.store.tournament(self.id)
        if found is not None and found["stored_status"] == "stopped":
            raise ArenaError(f"tournament {self.id} was stopped")


class ServeLadderRunner(ServeRunner, LadderRunner):
    """A ladder with remote bots, played by the serve."""


def server_credentials(cert: Path | None, key: Path | None) -> grpc.ServerCredentials | None:
    """TLS credentials from a PEM certificate chain and key, or None without them."""
    if cert is None and key is None:
        return None
    if cert is None or key is None:
        raise ConfigError("give both --tls-cert and --tls-key (or neither)")
    try:
        return grpc.ssl_server_credentials([(key.read_bytes(), cert.read_bytes())])
    except OSError as exc:
        raise ConfigError(f"cannot read the TLS files: {exc.strerror or exc}") from None


class Serve:
    """The running serve: its loop thread, server, lobby and database rows."""

    def __init__(self, db: Path, address: str, credentials: grpc.ServerCredentials | None):
        self.db = db
        self.id = uuid.uuid4().hex[:12]
        self.store = open_store(db)
        self._lookups: Store | None = None
        self.lobby = Lobby(self._bot_of, self._registered)
        self.host = ServeHost(self.lobby)
        self.stopping = threading.Event()
        self._thread = threading.Thread(target=self.host.loop.run_forever, daemon=True)
        self._thread.start()
        self.server: grpc.aio.Server | None = None
        try:
            started = asyncio.run_coroutine_threadsafe(
                start_server(
                    self.lobby,
                    address,
                    max_connections=CONNECTIONS,
                    max_streams=CONNECTIONS,
                    credentials=credentials,
                    options=KEEPALIVE,
                ),
                self.host.loop,
            )
            self.server, self.target = started.result(START_SECONDS)
        except BaseException:
            self.close()
            raise
        self.store.start_serve(self.id, os.getpid(), socket.gethostname(), self.target)
        self._beater = threading.Thread(target=self._beat, daemon=True)
        self._beater.start()

    def _reader(self) -> Store:
        """The loop thread's own connection (SQLite connections stay on their thread)."""
        if self._lookups is None:
            self._lookups = open_store(self.db)
        return self._lookups

    def _bot_of(self, token_hash: str) -> str | None:
        return self._reader().remote_bot_by_token(token_hash)

    def _registered(self, name: str) -> bool:
        return self._reader().remote_bot_named(name)

    def _beat(self) -> None:
        with open_store(self.db) as store:
            while not self.stopping.wait(BEAT_SECONDS):
                with contextlib.suppress(ArenaError):
                    store.serve_heartbeat(self.id)

    def run(self) -> None:
        """Play handed tournaments until stopped."""
        while not self.stopping.is_set():
            tournament_id = self.store.take_queued(self.id)
            if tournament_id is None:
                self.stopping.wait(POLL_SECONDS)
                continue
            self.play(tournament_id)

    def play(self, tournament_id: str) -> None:
        """Run one handed tournament; note how it ended for the ``tournament run`` that waits."""
        print(f"arena serve: playing tournament {tournament_id}", flush=True)
        try:
            found = self.store.tournament(tournament_id) or {}
            ladder = runner_class(found.get("settings", {})) is LadderRunner
            runner = (ServeLadderRunner if ladder else ServeRunner)(self.store, tournament_id)
            runner.host = self.host
            runner.run()
        except ArenaError as exc:
            with contextlib.suppress(ArenaError):
                self.store.set_tournament_status(tournament_id, "stopped")
            outcome = str(exc)
        else:
            outcome = "finished"
        self.store.finish_queued(tournament_id, outcome)
        print(f"arena serve: tournament {tournament_id}: {outcome}", flush=True)

    def close(self) -> None:
        """Stop serving, end every bot stream and process, note the serve ended."""
        self.stopping.set()
        loop = self.host.loop
        if not loop.is_closed() and self._thread.is_alive():

            async def stop() -> None:
                self.lobby.close()
                if self.server is not None:
                    await self.server.stop(1.0)

            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(stop(), loop).result(START_SECONDS)
            loop.call_soon_threadsafe(loop.stop)
            self._thread.join(START_SECONDS)
        with contextlib.suppress(Exception):
            self.host.close()
        if self.server is not None:
            with contextlib.suppress(ArenaError):
                self.store.serve_heartbeat(self.id, stopped=True)
        self.store.close()


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def serve(
    db: Path,
    address: str,
    credentials: grpc.ServerCredentials | None,
    hosted: HostedSettings | None = None,
    web: tuple[str, int] | None = None,
) -> int:
    """Run ``arena serve`` until SIGINT or SIGTERM; with ``hosted``, also its ladders and
    the builder of submissions, and with ``web`` the web pages (:mod:`arena.remote.hosted`)."""
    from arena.remote.hosted import Hosted, HostedSettings, require_isolation
    from arena.submissions.files import submissions_root

    if hosted is not None and hosted.submissions:
        require_isolation(submissions_root(db))  # before any bot process starts
    signal.signal(signal.SIGTERM, _terminate)
    said = logging.StreamHandler(sys.stdout)
    said.setFormatter(logging.Formatter("arena serve: %(message)s"))
    for named in (log, logging.getLogger("arena.submissions")):
        named.addHandler(said)
        named.setLevel(logging.INFO)  # who connects, from where; matches the bots drop; builds
    running = Serve(db, address, credentials)
    extra = Hosted(running, hosted or HostedSettings())
    tls = " over TLS" if credentials is not None else ""
    print(f"arena serve: listening on {running.target}{tls} for {db}", flush=True)
    print(f"arena serve: {fairness_line()}", flush=True)
    try:
        if web is not None:
            url = extra.serve_web(*web)
            print(f"arena serve: web pages at {url}/", flush=True)
        extra.start()
        signal.signal(signal.SIGTERM, _terminate)  # again: connecting to Ray replaces it
        running.run()
    except KeyboardInterrupt:
        print("arena serve: stopping", file=sys.stderr, flush=True)
    finally:
        running.stopping.set()
        extra.join()
        running.close()
    return 0
