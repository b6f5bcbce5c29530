"""Starting bot processes: own process group, resource limits, capped stderr log, sure kill.

Each bot runs in its own session (process group) so the whole group can be killed at the
end of a match; on Linux the child also asks the kernel to kill it if the referee dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import shlex
import shutil
import signal
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from arena.errors import BotError
from arena.seeds import KEY_ENV

LOG_CAP_BYTES = 1 << 20
"""Most bytes of a bot's stderr kept per log file."""


REFEREE_ONLY = frozenset({KEY_ENV, "ARENA_HOME", "ARENA_BOTS"})
"""``ARENA_*`` variables of the referee's a bot never gets: the installation's key, and where
the results and the bot folders are."""
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


_TRAMPOLINE = """
import os, resource, sys
for which, value in zip(
    (resource.RLIMIT_AS, resource.RLIMIT_CPU, resource.RLIMIT_NPROC, resource.RLIMIT_NOFILE),
    map(int, sys.argv[1:5]),
):
    if value:
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            pass
if sys.platform.startswith("linux"):
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
    except (OSError, AttributeError):
        pass
    if os.getppid() != int(sys.argv[5]):
        os._exit(1)  # the referee is already gone
try:
    os.execvp(sys.argv[6], sys.argv[6:])
except OSError as exc:
    sys.stderr.write(f"cannot start {sys.argv[6]}: {exc.strerror}\\n")
    os._exit(127)
"""
"""Runs in the child before the bot's command: limits, then exec.

The limits used to be set by a ``preexec_fn``, but that makes Python fork without exec in a
process running gRPC threads, and gRPC's fork handlers then sometimes abort the child
(SIGABRT) before it starts the bot. Without ``preexec_fn`` the child is spawned with vfork
and only this small interpreter sets the limits.
"""


def _trampoline(argv: list[str], limits: Limits) -> list[str]:
    values = (
        limits.memory_mb * 1024 * 1024,
        limits.cpu_seconds,
        limits.processes,
        limits.open_files,
    )
    head = [sys.executable, "-I", "-S", "-c", _TRAMPOLINE]
    return [*head, *map(str, values), str(os.getpid()), *argv]


def _cannot_execute(program: str, cwd: Path, env: dict[str, str]) -> str | None:
    """Why ``program`` (argv[0], run in ``cwd``) cannot be executed, or None if it can."""
    if "/" not in program:
        found = shutil.which(program, path=env.get("PATH", os.defpath))
        return None if found else os.strerror(errno.ENOENT)
    path = cwd / program
    if not path.exists():
        return os.strerror(errno.ENOENT)
    if path.is_dir() or not os.access(path, os.X_OK):
        return os.strerror(errno.EACCES)
    return None


class BotProcess:
    """A running bot process and the task copying its stderr into a capped log."""

    def __init__(
        self,
        process: asyncio.subprocess.Process,
        log_path: Path,
        log_task: asyncio.Task,
        home: Path | None = None,
    ):
        self.process = process
        self.log_path = log_path
        self._log_task = log_task
        self.home = home
        """The process's private HOME and TMPDIR (removed once it is killed)."""

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
        """End the whole process group: SIGTERM, then SIGKILL after ``grace`` seconds."""
        for sig in (signal.SIGTERM, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, sig)
            if sig == signal.SIGTERM and await self.wait_exit(grace):
                # The leader is gone; make sure nothing else in its group survives.
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                break
        await self.wait_exit(5)
        with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
            await asyncio.wait_for(self._log_task, 2)
        if self.home is not None:
            shutil.rmtree(self.home, ignore_errors=True)


async def launch(
    argv: list[str], cwd: Path, env: dict[str, str], log_path: Path, limits: Limits
) -> BotProcess:
    """Start a bot process in ``cwd`` with ``env`` added to its scrubbed environment
    (:func:`bot_env`), in a private temporary home removed when it is killed."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="arena-bot-"))
    full_env = bot_env(dict(os.environ), env, home)
    why = _cannot_execute(argv[0], cwd, full_env)
    if why is not None:
        shutil.rmtree(home, ignore_errors=True)
        raise BotError(f"cannot start {shlex.join(argv)!r} in {cwd}: {why}")
    try:
        process = await asyncio.create_subprocess_exec(
            *_trampoline(argv, limits),
            cwd=str(cwd),
            env=full_env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
    except OSError as exc:
        shutil.rmtree(home, ignore_errors=True)
        raise BotError(f"cannot start {shlex.join(argv)!r} in {cwd}: {exc.strerror}") from None
    assert process.stderr is not None
    task = asyncio.create_task(_copy_capped(process.stderr, log_path))
    return BotProcess(process, log_path, task, home)


async def _copy_capped(stream: asyncio.StreamReader, path: Path) -> None:
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
