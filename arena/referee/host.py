"""Referee servers and the bot processes connected to them.

The host starts bot processes, waits for their Hello, and hands out :class:`RemoteSeat` s.
A seat can be kept for the next match (a bot process plays many matches on one stream and
is restarted only when it dies) or released, which kills its process group. Closing the
host kills every process it started.

Each bot process gets a unix socket and a referee server of its own, in a folder only its
seat user can enter (and the only socket its sandbox sees), whose registry knows only that
process's token: a token another process stole is refused as ``UNAUTHENTICATED`` on every
other socket, and the stolen seat's own socket is out of the thief's reach. With an
``address`` (TCP, or a unix socket the user names) all bots share one server and the token
alone identifies a seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import shlex
import shutil
import tempfile
from pathlib import Path

import grpc

import arena
from arena.catalog import BotSpec, bot_environment, command_argv, run_setup
from arena.errors import ArenaError
from arena.paths import results_home
from arena.referee.seats import RemoteSeat
from arena.referee.server import Registry, Session, start_server
from arena.sandbox.isolation import Isolation, detect
from arena.sandbox.launcher import (
    BotProcess,
    Limits,
    cannot_execute,
    launch,
    open_to_others,
    program_path,
    reachable_by_others,
    referee_short,
)
from arena.sandbox.seat_users import SeatUser, SeatUsers
from arena.sdk.client import ADDRESS_ENV, TOKEN_ENV

log = logging.getLogger(__name__)


def logs_dir() -> Path:
    """Where bots' stderr logs go: ``logs/`` of the results home in use (a tournament's: that
    of its database, see :func:`arena.paths.logs_follow`)."""
    return arena.paths.logs_dir()


SEAT_CONNECTIONS = 4
SEAT_STREAMS = 2
"""What one bot process's own server takes at once: it needs one connection and one stream
(a few more leave room for a reconnect), so a hostile process holds the referee to little."""


class _SeatServer:
    """One bot process's own referee server, socket folder and token registry."""

    def __init__(self, folder: Path, registry: Registry, server: grpc.aio.Server, target: str):
        self.folder = folder
        self.registry = registry
        self.server = server
        self.target = target

    async def close(self) -> None:
        await self.server.stop(0.5)
        shutil.rmtree(self.folder, ignore_errors=True)


class BotHost:
    """Runs bot processes, each on a referee server of its own (or on ``address``)."""

    def __init__(
        self,
        address: str | None = None,
        limits: Limits | None = None,
        isolation: Isolation | None = None,
    ) -> None:
        self.address = address
        self.limits = limits or Limits()
        self.isolation = isolation if isolation is not None else detect()
        self.registry = Registry()
        """The shared server's tokens (with ``address``)."""
        self.processes: list[BotProcess] = []
        self._users = SeatUsers(self.isolation.uids) if self.isolation.uids else None
        self._seat_servers: dict[BotProcess, _SeatServer] = {}
        self._numbers = itertools.count()
        self._workdir: Path | None = None
        self._server: grpc.aio.Server | None = None
        self.target = ""
        """The shared server's address (with ``address``; empty otherwise)."""

    async def open(self) -> BotHost:
        self._workdir = Path(tempfile.mkdtemp(prefix="arena-"))
        if self._users is not None:
            self._workdir.chmod(0o711)  # seat users pass through to their own folder only
            _make_private(results_home())
        if self.address is None:
            return self
        try:
            self._server, self.target = await start_server(self.registry, self.address)
        except BaseException:  # e.g. an address that cannot be served on: leave nothing
            await self.close()
            raise
        shared = self._shared_socket_dir()
        if shared is not None and self._users is not None:
            socket = shared / Path(self.target).name
            socket.chmod(0o666)  # seat users share it; its folder is the user's choice
        return self

    def _shared_socket_dir(self) -> Path | None:
        """The folder of the shared server's unix socket (None: it serves on TCP)."""
        if not self.target.startswith("unix:"):
            return None
        path = self.target.removeprefix("unix:")
        return Path(path[2:] if path.startswith("//") else path).parent

    async def __aenter__(self) -> BotHost:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _seat_server(self, user: SeatUser | None) -> _SeatServer:
        """A new socket folder (its seat user's alone) with a server and registry on it."""
        assert self._workdir is not None, "open() the host first"
        folder = self._workdir / f"seat-{next(self._numbers)}"
        folder.mkdir(mode=0o700)
        registry = Registry()
        starting = asyncio.ensure_future(
            start_server(
                registry,
                f"unix:{folder}/referee.sock",
                max_connections=SEAT_CONNECTIONS,
                max_streams=SEAT_STREAMS,
            )
        )
        try:
            server, target = await _stopped_if_cancelled(starting)
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        if user is not None:
            for path in (folder, folder / "referee.sock"):
                os.chown(path, user.uid, user.uid)
        return _SeatServer(folder, registry, server, target)

    def _seat_user(self, argv: list[str], spec: BotSpec) -> tuple[SeatUser | None, str]:
        """A seat user for the bot's process, if that layer is on and the bot can run as
        one; else None and, when the layer was required, why not."""
        if self._users is None:
            return None, ""
        why = self._closed_to_seat_users(argv, spec)
        if why is None:
            return self._users.take(), ""
        if self.isolation.strict:
            return None, f"cannot run as a seat user: {why}"
        _say_runs_as_referee(spec.name, why, self.isolation)
        return None, ""

    def _closed_to_seat_users(self, argv: list[str], spec: BotSpec) -> str | None:
        """Why a seat user could not run the bot's command, or None if it can.

        A sandbox mounts each path it shows at its own place (the folders above made open),
        so there only the bot folder's own mode counts; without one the host's paths must
        do: the program, as the command will run it (in the bot's folder), the folder, and
        the arena package, every folder above them included."""
        if self.isolation.bwrap is not None:
            return open_to_others(spec.path)
        program = program_path(argv[0], spec.path, bot_environment()["PATH"])
        paths = [spec.path, Path(arena.__file__).parent]
        for path in ([program] if program is not None else []) + paths:
            why = reachable_by_others(path)
            if why is not None:
                return why
        return None

    async def connect(
        self, spec: BotSpec, log_name: str, startup_time: float
    ) -> tuple[RemoteSeat | None, str]:
        """Start ``spec`` and wait for its Hello: the seat, or None and why it failed.

        Every failure to start is a one-line reason, never an exception: the match goes on
        without this seat, and the seats starting beside it are not cut short. Only the
        referee running short (descriptors, memory, processes) is raised: no bot is to
        blame, and a tournament plays such a match again."""
        if spec.command is None:
            return None, "the bot has no command to start it"
        try:
            started = await self._start(spec, log_name)
        except OSError as exc:
            if referee_short(exc):  # the referee's trouble: not this bot's INIT_FAIL
                raise
            return None, _start_failure(exc)
        except ArenaError as exc:
            return None, _start_failure(exc)
        if isinstance(started, str):
            return None, started
        process, registry, token = started
        session = await _connected(registry, token, process, startup_time)
        if session is None:
            why = (
                f"exited with code {process.process.returncode} before connecting"
                if process.exited
                else f"did not connect within {startup_time:g} s"
            )
            await self._end(process)
            return None, why
        return RemoteSeat(session, process, spec.name), ""

    async def _start(self, spec: BotSpec, log_name: str) -> tuple[BotProcess, Registry, str] | str:
        """Run the bot's setup and start its process: the process, the registry its Hello
        goes to and its token; or why it was refused."""
        run_setup(spec)
        argv = command_argv(spec)
        why = cannot_execute(argv[0], spec.path, bot_environment()["PATH"])
        if why is not None:
            return f"cannot start {shlex.join(argv)!r} in {spec.path}: {why}"
        user, refused = self._seat_user(argv, spec)
        if refused:
            return refused
        try:
            own = await self._seat_server(user) if self.address is None else None
        except BaseException:
            if user is not None:
                user.release()
            raise
        registry = own.registry if own is not None else self.registry
        target = own.target if own is not None else self.target
        token = registry.issue(log_name)
        try:
            process = await launch(  # from here on, the seat user is the launch's to release
                argv,
                spec.path,
                {**bot_environment(), ADDRESS_ENV: target, TOKEN_ENV: token},
                logs_dir() / f"{log_name}.log",
                self.limits,
                isolation=self.isolation,
                user=user,
                socket_dir=own.folder if own is not None else self._shared_socket_dir(),
            )
        except BaseException:
            if own is not None:
                await own.close()
            raise
        self.processes.append(process)
        if own is not None:
            self._seat_servers[process] = own
        return process, registry, token

    @staticmethod
    def alive(seat: RemoteSeat) -> bool:
        """Whether the seat's stream and process are still up (so it can play again)."""
        process = seat.process
        return seat.session.closed is None and (process is None or not process.exited)

    async def release(self, seat: RemoteSeat) -> None:
        """End the seat's stream and its process group."""
        await seat.close()
        if seat.process is not None:
            await self._end(seat.process)

    async def _end(self, process: BotProcess) -> None:
        if not await process.wait_exit(1.0):
            await process.kill()
        else:
            await process.kill(grace=0)
        if process in self.processes:
            self.processes.remove(process)
        own = self._seat_servers.pop(process, None)
        if own is not None:
            await own.close()

    async def close(self) -> None:
        """Kill every process this host started and stop serving."""
        for process in list(self.processes):
            await self._end(process)
        if self._server is not None:
            await self._server.stop(0.5)
            self._server = None
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)
            self._workdir = None


async def _stopped_if_cancelled(
    starting: asyncio.Future[tuple[grpc.aio.Server, str]],
) -> tuple[grpc.aio.Server, str]:
    """The started server and its target. Cancelled meanwhile (a Ctrl-C as seats start),
    the start still finishes and its server is stopped before the cancellation goes on: a
    server left half-started is never stopped, and gRPC then tries to stop it on a closed
    event loop as the referee exits ("Exception ignored in Server.__del__")."""
    try:
        return await asyncio.shield(starting)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            server, _ = await starting
            await server.stop(0)
        raise


def _start_failure(exc: OSError | ArenaError) -> str:
    """One line saying why a bot process could not be started."""
    if isinstance(exc, OSError):
        where = f": {exc.filename}" if exc.filename else ""
        return f"cannot start the bot: {exc.strerror or exc}{where}"
    return " ".join(str(exc).split())


class _OncePerRun:
    """Lets one process of a run say something, once: the run's first process makes a pipe
    holding one byte before any worker is forked from it, and the process that reads the
    byte is the one that says it (a pipe's read is atomic, so two workers never both do)."""

    def __init__(self) -> None:
        self._read, write = os.pipe()
        os.write(write, b"!")
        os.close(write)  # once the byte is read, every later read finds the end of the pipe

    def first(self) -> bool:
        """True for the first call in the whole run, False for every later one."""
        try:
            return os.read(self._read, 1) == b"!"
        except OSError:
            return False


_MEANING = _OncePerRun()
_SAID: set[tuple[str, str]] = set()


def _say_runs_as_referee(name: str, why: str, isolation: Isolation) -> None:
    """Warn that a bot runs as the referee's user, and why (once per bot and reason); and,
    once per run, what that means where no sandbox keeps bots apart."""
    if (name, why) not in _SAID:
        _SAID.add((name, why))
        log.warning("%s runs as the referee's user: %s", name, why)
    if isolation.bwrap is None and _MEANING.first():
        remedy = "install bubblewrap" if shutil.which("bwrap") is None else "make bubblewrap work"
        log.warning(
            "bots of this run can read and play each other's seats: fine for your own bots; "
            "for strangers' bots %s, see `arena doctor`",
            remedy,
        )


def _make_private(folder: Path) -> None:
    """Make the results folder the referee's alone (seat users must not open it)."""
    folder.mkdir(parents=True, exist_ok=True)
    if folder.stat().st_mode & 0o077:
        folder.chmod(0o700)


async def _connected(
    registry: Registry, token: str, process: BotProcess, timeout: float
) -> Session | None:
    """The bot's session, or None if it exits or does not connect within ``timeout`` s."""
    session = asyncio.ensure_future(registry.wait(token, timeout))
    exited = asyncio.ensure_future(process.process.wait())
    await asyncio.wait((session, exited), return_when=asyncio.FIRST_COMPLETED)
    exited.cancel()
    if session.done():
        return session.result()
    session.cancel()
    # It exited: it may still have said Hello just before.
    return await registry.wait(token, 0)
