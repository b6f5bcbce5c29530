"""Starting bot processes: own process group, resource limits, capped stderr log, sure kill.

Each bot runs in its own session (process group) so the whole group can be killed at the
end of a match; on Linux the child also asks the kernel to kill it if the referee dies. On
top of that come the isolation layers in force (:mod:`arena.sandbox.isolation`): a seat
user of its own (every process of that uid is killed when the seat ends) and a bubblewrap
sandbox (its PID namespace dies with it).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.errors import BotError
from arena.keys import KEY_ENV
from arena.sandbox import cgroups
from arena.sandbox.bubblewrap import SANDBOX_PATHS_ENV, bwrap_argv
from arena.sandbox.cpu_time import cgroup_cpu_seconds, tree_cpu_seconds
from arena.sandbox.isolation import ISOLATION_ENV, SEAT_UIDS_ENV, Isolation
from arena.sandbox.seat_users import SeatUser, kill_all_async

log = logging.getLogger(__name__)

LOG_CAP_BYTES = 1 << 20
"""Most bytes of a bot's stderr kept per log file."""


REFEREE_ONLY = frozenset(
    {KEY_ENV, "ARENA_HOME", "ARENA_BOTS", ISOLATION_ENV, SEAT_UIDS_ENV, SANDBOX_PATHS_ENV}
)
"""``ARENA_*`` variables of the referee's a bot never gets: the installation's key, where
the results and the bot folders are, and how bots are isolated."""
PASSED = frozenset({"PATH", "LANG", "LANGUAGE", "TZ", "VIRTUAL_ENV", "SYSTEMROOT"})
"""Other variables of the referee's a bot gets (with every ``LC_*``); every other one is left
out, so a bot learns nothing of the referee's environment."""


def bot_env(referee: dict[str, str], extra: dict[str, str], home: Path) -> dict[str, str]:
    """A bot process's whole environment: ``extra`` (its address, token and ``PATH``), the
    referee's locale and ``ARENA_*`` variables other than :data:`REFEREE_ONLY`, and its own
    private ``HOME`` and ``TMPDIR``."""
    kept = {
        k: v
        for k, v in referee.items()
        if k in PASSED or k.startswith("LC_") or (k.startswith("ARENA_") and k not in REFEREE_ONLY)
    }
    return {**kept, **extra, "HOME": str(home), "TMPDIR": str(home)}


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits for one bot process (0 = no limit)."""

    memory_mb: int = 4096
    """Address space (RLIMIT_AS), MiB. Node reserves much virtual memory: keep it generous."""
    cpu_seconds: int = 3600
    """CPU time for the process's life (RLIMIT_CPU)."""
    processes: int = 64
    """Processes/threads for the user (RLIMIT_NPROC; not enforced for root)."""
    open_files: int = 256
    """File descriptors (RLIMIT_NOFILE)."""
    core_bytes: int = 0
    """Core dump size (RLIMIT_CORE): none, so a crash leaves no file with the bot's memory."""


_TRAMPOLINE = """
import os, resource, sys, warnings  # execvp imports warnings: before any switch of user
try:
    import ctypes  # before the switch to a seat user, who may not reach the stdlib
    libc = ctypes.CDLL(None, use_errno=True)
except (ImportError, OSError):
    libc = None
for which, value in zip(
    (resource.RLIMIT_AS, resource.RLIMIT_CPU, resource.RLIMIT_NPROC, resource.RLIMIT_NOFILE),
    map(int, sys.argv[1:5]),
):
    if value:
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass
resource.setrlimit(resource.RLIMIT_CORE, (int(sys.argv[5]),) * 2)
if sys.argv[8]:  # the seat's cgroup: joined before the bot starts, so all it runs is in it
    try:
        with open(sys.argv[8] + "/cgroup.procs", "w") as procs:
            procs.write(str(os.getpid()))
    except OSError as exc:
        sys.stderr.write(f"cannot join the seat's cgroup {sys.argv[8]}: {exc.strerror}\\n")
        os._exit(126)
uid = int(sys.argv[7])
if uid:
    os.setgroups([])
    os.setgid(uid)
    os.setuid(uid)
if sys.platform.startswith("linux"):
    try:
        libc.prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError):
        pass
    if os.getppid() != int(sys.argv[6]):
        os._exit(1)  # the referee is already gone
try:
    os.execvp(sys.argv[9], sys.argv[9:])
except OSError as exc:
    sys.stderr.write(f"cannot start {sys.argv[9]}: {exc.strerror}\\n")
    os._exit(127)
"""
"""Runs in the child before the bot's command: limits, the seat's cgroup (where CPU fairness
is on), the seat user (when there is one and no sandbox switches to it), the parent-death signal (set after the switch, which clears
it), then exec.

The limits used to be set by a ``preexec_fn``, but that makes Python fork without exec in a
process running gRPC threads, and gRPC's fork handlers then sometimes abort the child
(SIGABRT) before it starts the bot. Without ``preexec_fn`` the child is spawned with vfork
and only this small interpreter sets the limits.
"""


def _trampoline(
    argv: list[str], limits: Limits, uid: int | None, cgroup: Path | None = None
) -> list[str]:
    values = (
        limits.memory_mb * 1024 * 1024,
        limits.cpu_seconds,
        limits.processes,
        limits.open_files,
        limits.core_bytes,
    )
    head = [sys.executable, "-I", "-S", "-c", _TRAMPOLINE]
    joined = str(cgroup) if cgroup is not None else ""
    return [*head, *map(str, values), str(os.getpid()), str(uid or 0), joined, *argv]


def program_path(program: str, cwd: Path, path_env: str) -> Path | None:
    """The file ``program`` (a command's argv[0]) names when the command runs in ``cwd``:
    a name with a slash is relative to ``cwd`` (the bot's folder, not the referee's), a bare
    name is looked up on ``path_env``; None when no such file is there."""
    if "/" not in program:
        found = shutil.which(program, path=path_env)
        return Path(found) if found else None
    path = cwd / program
    return path if path.exists() else None


def cannot_execute(program: str, cwd: Path, path_env: str) -> str | None:
    """Why ``program`` (argv[0], run in ``cwd``) cannot be executed, or None if it can."""
    path = program_path(program, cwd, path_env)
    if path is None:
        return os.strerror(errno.ENOENT)
    if path.is_dir() or not os.access(path, os.X_OK):
        return os.strerror(errno.EACCES)
    return None


class BotProcess:
    """A running bot process and the task copying its stderr into a capped log."""

    def __init__(
        self,
        process: Child,
        log_path: Path,
        log_task: asyncio.Task[None],
        home: Path | None = None,
        user: SeatUser | None = None,
        cgroup: Path | None = None,
    ):
        self.process = process
        self.log_path = log_path
        self._log_task = log_task
        self.home = home
        """The process's private HOME and TMPDIR (removed once it is killed)."""
        self.user = user
        """The seat user it runs as (every process of that uid is killed with it)."""
        self.cgroup = cgroup
        """The cgroup its tree runs in (removed once it is killed), where CPU fairness is on."""
        self._ending: asyncio.Future[None] | None = None

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def exited(self) -> bool:
        return self.process.returncode is not None

    async def wait_exit(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the process to exit; True if it did."""
        try:
            await asyncio.wait_for(self.process.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def kill(self, grace: float = 0.5) -> None:
        """End the whole process group: SIGTERM, then SIGKILL after ``grace`` seconds; then
        every process of its seat user (what left the group: ``setsid``, double forks).

        Safe to call again and from clean-ups that race (a seat released while its host
        closes, after a Ctrl-C): the first call does the work and is its seat user's only
        releaser; later calls wait for it. A caller cancelled while waiting does not cut it
        short: a uid let go with its processes still running could go to the next bot."""
        if self._ending is None:
            self._ending = asyncio.ensure_future(self._end(grace))
        await asyncio.shield(self._ending)

    async def _end(self, grace: float) -> None:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, sig)
            if sig == signal.SIGTERM and await self.wait_exit(grace):
                # The leader is gone; make sure nothing else in its group survives.
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                break
        await self.wait_exit(5)
        # whatever of its tree is left (if it has a cgroup), and the cgroup itself
        if self.cgroup is not None and not await cgroups.remove(self.cgroup):
            log.warning("the cgroup %s could not be removed", self.cgroup)
        user, self.user = self.user, None
        if user is not None:
            try:
                with contextlib.suppress(OSError):
                    await kill_all_async(user.uid)
            finally:
                user.release()
        with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
            await asyncio.wait_for(self._log_task, 2)
        if self.home is not None:
            shutil.rmtree(self.home, ignore_errors=True)


def cpu_seconds(processes: Sequence[BotProcess | None]) -> list[float | None]:
    """CPU seconds each process's tree has used so far (its cgroup's count where it has one,
    else the kernel's per-process counts in ``/proc``, all read in one pass); None for no
    process, or one that is gone."""
    by_tree = tree_cpu_seconds(
        p.pid for p in processes if p is not None and p.cgroup is None and not p.exited
    )
    used: list[float | None] = []
    for process in processes:
        if process is None:
            used.append(None)
        elif process.cgroup is not None:
            used.append(cgroup_cpu_seconds(process.cgroup))
        else:
            used.append(None if process.exited else by_tree.get(process.pid))
    return used


def open_to_others(path: Path) -> str | None:
    """Why a user other than the owner cannot use ``path`` itself (read and search a folder,
    read and execute a file), or None if it can."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return f"{path}: {exc.strerror}"
    if (mode & 0o005) != 0o005:
        return f"{path} is not readable and executable by other users"
    return None


def reachable_by_others(path: Path) -> str | None:
    """Why a user other than the owner cannot reach ``path`` (every folder above it
    searchable, the path itself readable and searchable/executable), or None if it can."""
    real = Path(os.path.realpath(path))
    for folder in reversed(real.parents):
        try:
            searchable = os.stat(folder).st_mode & 0o001
        except OSError as exc:
            return f"{folder}: {exc.strerror}"
        if not searchable:
            return f"{folder} is not searchable by other users"
    return open_to_others(real)


async def launch(
    argv: list[str],
    cwd: Path,
    env: dict[str, str],
    log_path: Path,
    limits: Limits,
    *,
    isolation: Isolation | None = None,
    user: SeatUser | None = None,
    socket_dir: Path | None = None,
) -> BotProcess:
    """Start a bot process in ``cwd`` with ``env`` added to its scrubbed environment
    (:func:`bot_env`), in a private temporary home removed when it is killed.

    ``user``: the seat user it runs as (released with it, or here when it does not start).
    With ``isolation.bwrap`` it runs in a sandbox that sees ``socket_dir``, its seat's
    referee socket folder (None: TCP). A start that fails is a :class:`BotError`. Nothing
    here waits: a start is never cut short half-way by a cancellation.
    """
    log_path.parent.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="arena-bot-"))
    cgroup = _seat_cgroup(limits)
    stderr, stderr_end = os.pipe()
    try:
        try:
            child = _start(
                argv, cwd, env, limits, home, isolation, user, socket_dir, stderr_end, cgroup
            )
        finally:
            os.close(stderr_end)  # the bot's copy is its own: the log ends when it closes
    except BaseException:
        os.close(stderr)
        shutil.rmtree(home, ignore_errors=True)
        if cgroup is not None:
            with contextlib.suppress(OSError):
                cgroup.rmdir()  # nothing started in it
        if user is not None:
            user.release()
        raise
    task = asyncio.create_task(_copy_capped(stderr, log_path))
    return BotProcess(child, log_path, task, home, user, cgroup)


def _seat_cgroup(limits: Limits) -> Path | None:
    """A new cgroup for a bot process where CPU fairness is on (:mod:`.cgroups`); None where
    it is off, or (said in the log) when this one cannot be made: the bot then runs as it
    would without, its CPU still measured from ``/proc``."""
    fair = cgroups.fairness()
    if not fair.active or fair.base is None:
        return None
    try:
        return cgroups.create(fair.base, cgroups.CPU_MAX, limits.memory_mb)
    except OSError as exc:
        log.warning("a bot process runs without a cgroup: %s", exc)
        return None


def _start(
    argv: list[str],
    cwd: Path,
    env: dict[str, str],
    limits: Limits,
    home: Path,
    isolation: Isolation | None,
    user: SeatUser | None,
    socket_dir: Path | None,
    stderr: int,
    cgroup: Path | None = None,
) -> Child:
    """The started process, its stderr on the pipe end ``stderr``, in ``cgroup`` if given."""
    full_env = bot_env(dict(os.environ), env, home)
    path_env = full_env.get("PATH", os.defpath)
    why = cannot_execute(argv[0], cwd, path_env)
    if why is not None:
        raise BotError(f"cannot start {shlex.join(argv)!r} in {cwd}: {why}")
    bwrap = isolation.bwrap if isolation is not None else None
    uid = user.uid if user is not None else None
    command = argv
    if bwrap is not None:
        command = bwrap_argv(
            bwrap, argv, cwd=cwd, home=home, socket_dir=socket_dir, uid=uid, path_env=path_env
        )
    try:
        if uid is not None:
            os.chown(home, uid, uid)
        popen = subprocess.Popen(
            _trampoline(command, limits, None if bwrap is not None else uid, cgroup),
            cwd=str(cwd),
            env=full_env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            start_new_session=True,
        )
    except OSError as exc:
        if referee_short(exc):
            raise
        raise BotError(f"cannot start {shlex.join(argv)!r} in {cwd}: {exc.strerror}") from None
    return Child(popen, asyncio.get_running_loop())


SHORTAGES = frozenset({errno.EMFILE, errno.ENFILE, errno.ENOMEM, errno.EAGAIN})
"""Errors that say the referee's process or machine ran short (descriptors, memory,
processes), not that the bot cannot start."""


def referee_short(exc: OSError) -> bool:
    """Whether ``exc`` is the referee's shortage, for which no bot is to blame."""
    return exc.errno in SHORTAGES


class Child:
    """A started bot process whose exit the event loop learns from a thread of its own.

    Not an asyncio subprocess: asyncio's start of one has a window in which cancelling
    every task of the loop (``asyncio.run`` ending while seats start, a Ctrl-C) leaves it
    waiting forever for a process that is long gone; this start does not wait at all."""

    def __init__(self, popen: subprocess.Popen[bytes], loop: asyncio.AbstractEventLoop) -> None:
        self._popen = popen
        self._loop = loop
        self._exit: asyncio.Future[int] = loop.create_future()
        self.pid = popen.pid
        threading.Thread(target=self._reap, name=f"reap-{self.pid}", daemon=True).start()

    def _reap(self) -> None:
        code = self._popen.wait()
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting
            self._loop.call_soon_threadsafe(self._exited, code)

    def _exited(self, code: int) -> None:
        if not self._exit.done():
            self._exit.set_result(code)

    @property
    def returncode(self) -> int | None:
        """The exit code (minus the signal that killed it), or None while it runs (as the
        event loop has seen it)."""
        return self._exit.result() if self._exit.done() else None

    async def wait(self) -> int:
        """Wait for the exit; a waiter cancelled (a timeout) leaves the others waiting."""
        return await asyncio.shield(self._exit)


async def _copy_capped(read_fd: int, path: Path) -> None:
    """Copy the pipe ``read_fd`` into ``path`` (the first :data:`LOG_CAP_BYTES`) until its
    last writer closes it; the pipe is closed here, whatever happens."""
    pipe = os.fdopen(read_fd, "rb", buffering=0)
    reader = asyncio.StreamReader()
    try:
        transport, _ = await asyncio.get_running_loop().connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), pipe
        )
    except BaseException:
        pipe.close()
        raise
    try:
        await _write_capped(reader, path)
    finally:
        transport.close()


async def _write_capped(stream: asyncio.StreamReader, path: Path) -> None:
    written = 0
    with path.open("wb") as log:
        while chunk := await stream.read(65536):
            if written < LOG_CAP_BYTES:
                part = chunk[: LOG_CAP_BYTES - written]
                log.write(part)
                written += len(part)
                if written >= LOG_CAP_BYTES:
                    log.write(b"\n[log truncated at 1 MiB]\n")
                log.flush()
