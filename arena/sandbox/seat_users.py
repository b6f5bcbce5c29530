"""Unprivileged users for bot processes: one uid per process, from a range, held by a lock.

A uid is held with an exclusive ``flock`` on a file of its own in a root-only folder, so
referees of different runs on one host (workers, other results homes) never hand out the
same uid at once. A uid with a ``/etc/passwd`` entry is never used: its processes are
someone's. Before a uid is handed out, and when its process ends, every process of that uid
is killed, so nothing a bot started (``setsid``, double forks included) outlives its seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import pwd
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

from arena.errors import ArenaError

LOCK_FOLDERS = (Path("/run/risk-arena/seat-uids"), Path(tempfile.gettempdir()) / "risk-arena-uids")
"""Where the uid locks live: the first folder that can be made root-only."""

_KILL_ALL = """
import os, sys
uid = int(sys.argv[1])
os.setgroups([])
os.setgid(uid)
os.setuid(uid)
try:
    os.kill(-1, 9)
except ProcessLookupError:
    pass
"""
"""Run as the seat's uid: ``kill(-1, SIGKILL)`` ends every process of that uid at once (the
kernel signals them under one lock, so a process forking meanwhile cannot slip through)."""


def kill_all_argv(uid: int) -> list[str]:
    """The command that kills every process of ``uid`` (the caller must be root)."""
    return [sys.executable, "-I", "-S", "-c", _KILL_ALL, str(uid)]


def kill_all(uid: int) -> None:
    """Kill every process of ``uid`` and wait until that is done."""
    subprocess.run(kill_all_argv(uid), check=False, timeout=30, stdin=subprocess.DEVNULL)


async def kill_all_async(uid: int) -> None:
    """:func:`kill_all` without blocking the event loop."""
    process = await asyncio.create_subprocess_exec(
        *kill_all_argv(uid), stdin=asyncio.subprocess.DEVNULL
    )
    await process.wait()


def _lock_folder() -> Path:
    """A folder only root can enter, for the uid locks."""
    reasons = []
    for folder in LOCK_FOLDERS:
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            info = folder.lstat()
        except OSError as exc:
            reasons.append(f"{folder}: {exc.strerror}")
            continue
        if stat.S_ISDIR(info.st_mode) and info.st_uid == 0 and not info.st_mode & 0o077:
            return folder
        reasons.append(f"{folder} is not a folder only root can enter")
    raise ArenaError("no folder for the seat-user locks: " + "; ".join(reasons))


def _has_account(uid: int) -> bool:
    try:
        pwd.getpwuid(uid)
    except KeyError:
        return False
    return True


class SeatUser:
    """A uid held for one bot process until :meth:`release`."""

    def __init__(self, uid: int, lock_fd: int) -> None:
        self.uid = uid
        self._lock_fd: int | None = lock_fd

    def release(self) -> None:
        """Let the uid go (its processes must already be killed)."""
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None


class SeatUsers:
    """Hands out the uids of a range, one process at a time."""

    def __init__(self, uids: tuple[int, int]) -> None:
        self.first, self.last = uids
        self._folder: Path | None = None

    def take(self) -> SeatUser:
        """A free uid of the range, with no process left running as it."""
        if self._folder is None:
            self._folder = _lock_folder()
        for uid in range(self.first, self.last + 1):
            if _has_account(uid):
                continue
            fd = os.open(self._folder / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            except BaseException:
                os.close(fd)
                raise
            with contextlib.suppress(OSError, subprocess.TimeoutExpired):
                kill_all(uid)  # whatever a previous holder that died left running
            return SeatUser(uid, fd)
        raise ArenaError(
            f"every seat uid of {self.first}-{self.last} is in use; widen $ARENA_SEAT_UIDS"
        )
