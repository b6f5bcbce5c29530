"""CPU fairness: each bot process tree in a cgroup v2 of its own, with ``cpu.max`` and
``memory.max``, where the machine has a writable cgroup v2 hierarchy with the cpu and memory
controllers.

Without it, a bot that burns CPU (in many threads or processes) while its opponents think
takes their cores and slows them down; its own per-process limits (RLIMIT_CPU) bound only its
total, not its share. In a cgroup, a seat's whole tree (whatever it forks, whatever left its
process group) gets at most :data:`CPU_MAX` and its memory limit, and the cgroup's
``cpu.stat`` counts every CPU second it used.

The arena makes one subtree, ``<root>/risk-arena``, enables the two controllers for it, and
makes a cgroup per bot process in it (created before the bot starts: the launcher's child
joins it before it executes the bot) and removes it after the process ends.
:func:`fairness` says, once per process, whether this works here and why (not); the launcher,
``arena doctor`` and ``arena serve``'s start-up line all read it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
"""Where a cgroup v2 hierarchy is mounted (on a hybrid machine, v1 holds the controllers here
and an empty v2 hierarchy sits at ``unified``)."""
SUBTREE = "risk-arena"
"""The arena's own folder in the hierarchy: every seat cgroup is made in it."""
CONTROLLERS = ("cpu", "memory")
CPU_MAX = "100000 100000"
"""One core's worth per seat (100 ms of CPU in every 100 ms period): a bot is given what one
thread needs to think at full speed, and no more, however many threads or processes it runs,
so a machine with a core per seat keeps its opponents' cores free for them."""
REMOVE_WAIT = 5.0
"""Seconds to wait for a seat cgroup's processes to be gone before giving up removing it."""


@dataclass(frozen=True, slots=True)
class Fairness:
    """Whether bot processes run in cgroups of their own here, and why (or why not)."""

    active: bool
    why: str
    base: Path | None = None
    """The arena's subtree, in which seat cgroups are made (when active)."""

    def line(self) -> str:
        """The words ``arena doctor`` and ``arena serve`` print."""
        state = "on" if self.active else "off"
        return f"CPU fairness {state}: {self.why}"


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:
        return None


def _enable(folder: Path) -> str | None:
    """Turn :data:`CONTROLLERS` on for ``folder``'s children; why not, or None."""
    enabled = (_read(folder / "cgroup.subtree_control") or "").split()
    missing = [c for c in CONTROLLERS if c not in enabled]
    if not missing:
        return None
    try:
        (folder / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in missing))
    except OSError as exc:
        return f"cannot enable {', '.join(missing)} under {folder}: {exc.strerror or exc}"
    return None


def detect(root: Path = ROOT) -> Fairness:
    """Whether seat cgroups can be made under ``root``: a cgroup v2 hierarchy there with the
    cpu and memory controllers, the arena's subtree made (or found) and both controllers
    enabled for it, and a trial cgroup made and removed in it."""
    controllers = _read(root / "cgroup.controllers")
    if controllers is None:
        if (root / "unified" / "cgroup.controllers").exists():
            return Fairness(False, f"no writable cgroup v2 hierarchy ({root} is cgroup v1)")
        return Fairness(False, f"no writable cgroup v2 hierarchy (none at {root})")
    missing = [c for c in CONTROLLERS if c not in controllers.split()]
    if missing:
        return Fairness(False, f"the cgroup v2 hierarchy at {root} has no {', '.join(missing)}")
    base = root / SUBTREE
    try:
        base.mkdir(exist_ok=True)
    except OSError as exc:
        return Fairness(False, f"no writable cgroup v2 hierarchy ({base}: {exc.strerror})")
    for folder in (root, base):
        why = _enable(folder)
        if why is not None:
            return Fairness(False, why)
    trial = base / f"trial-{os.getpid()}"
    try:
        trial.mkdir(exist_ok=True)
        try:
            for name in ("cpu.max", "memory.max", "cgroup.procs"):
                if not (trial / name).exists():  # the kernel makes them in a real cgroup
                    return Fairness(False, f"a cgroup made in {base} has no {name}")
            (trial / "cpu.max").write_text(CPU_MAX)
            why = _trial_join(trial)
        finally:
            trial.rmdir()
    except OSError as exc:
        return Fairness(False, f"cannot make a cgroup in {base}: {exc.strerror}")
    if why is not None:
        return Fairness(False, why)
    return Fairness(True, f"each bot process in a cgroup of its own under {base}", base)


_JOIN = "import os, sys; open(sys.argv[1] + '/cgroup.procs', 'w').write(str(os.getpid()))"


def _trial_join(trial: Path) -> str | None:
    """Why a process cannot join a cgroup made as a seat's is (as a bot process joins its
    own before it starts), or None when one did: a hierarchy can allow making cgroups and
    refuse moving processes into them (a container's delegated subtree, say)."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", _JOIN, str(trial)],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"cannot start a process to join a trial cgroup in {trial.parent}: {exc}"
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return f"a process cannot join a cgroup in {trial.parent}: {last}"
    return None


@functools.cache
def fairness() -> Fairness:
    """:func:`detect` for this machine's hierarchy, once per process."""
    return detect(ROOT)


_serial = itertools.count()


def create(base: Path, cpu_max: str, memory_mb: int) -> Path:
    """A new seat cgroup in ``base`` limited to ``cpu_max`` and ``memory_mb`` MiB (0: no
    limit); an :class:`OSError` when it cannot be made (none is left behind)."""
    path = base / f"seat-{os.getpid()}-{next(_serial)}"
    path.mkdir()
    try:
        (path / "cpu.max").write_text(cpu_max)
        (path / "memory.max").write_text(str(memory_mb << 20) if memory_mb else "max")
    except OSError:
        with contextlib.suppress(OSError):
            path.rmdir()
        raise
    return path


def members(path: Path) -> list[int]:
    """The pids in the cgroup now."""
    text = _read(path / "cgroup.procs") or ""
    return [int(pid) for pid in text.split() if pid.isdigit()]


def kill_members(path: Path) -> None:
    """SIGKILL every process in the cgroup (all at once with ``cgroup.kill`` where the kernel
    has it, one by one otherwise)."""
    try:
        (path / "cgroup.kill").write_text("1")
        return
    except OSError:
        pass
    for pid in members(path):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


async def remove(path: Path, wait: float | None = None) -> bool:
    """Kill what is left in the seat cgroup and remove it; False if it could not be removed
    within ``wait`` seconds (default :data:`REMOVE_WAIT`: a process that will not die)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + (REMOVE_WAIT if wait is None else wait)
    while True:
        kill_members(path)
        try:
            path.rmdir()
            return True
        except FileNotFoundError:
            return True
        except OSError:  # still populated: its processes are dying
            if loop.time() >= deadline:
                return False
        await asyncio.sleep(0.02)
