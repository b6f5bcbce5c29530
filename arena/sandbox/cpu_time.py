"""CPU seconds a bot process has used, from the kernel: a process tree's in ``/proc``, or a
cgroup's ``cpu.stat``.

A bot process may fork (and under bubblewrap the bot itself is a descendant of ``bwrap``), so
its CPU is that of a tree: every live process descended from the root, or in the root's
session (a child that left the tree by a double fork but kept the session), each counted with
its own ``utime + stime`` and the ``cutime + cstime`` of the children it reaped (a reaped
child's time is its reaper's). A process that left the session too (``setsid``) is not seen
here; a cgroup (:mod:`arena.sandbox.cgroups`) counts everything its processes ever used.

Sampled at a match's start and end (a kept bot process plays many matches): the difference is
the match's.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")


@dataclass(frozen=True, slots=True)
class ProcStat:
    """What one ``/proc/<pid>/stat`` line says of a process's family and CPU."""

    pid: int
    parent: int
    session: int
    ticks: int
    """utime + stime + cutime + cstime, in clock ticks."""


def parse_stat(line: str) -> ProcStat | None:
    """A ``/proc/<pid>/stat`` line read, or None when it is not one. The command name (in
    parentheses, may hold spaces and parentheses) ends at the line's last ``)``."""
    head, close, rest = line.rpartition(")")
    if not close:
        return None
    pid_text = head.partition(" (")[0]
    fields = rest.split()
    # fields[0] is field 3 (state): ppid 4, session 6, utime 14, stime 15, cutime 16, cstime 17
    try:
        return ProcStat(
            pid=int(pid_text),
            parent=int(fields[1]),
            session=int(fields[3]),
            ticks=sum(int(f) for f in fields[11:15]),
        )
    except (ValueError, IndexError):
        return None


def _stats(proc: Path) -> Iterable[ProcStat]:
    try:
        names = os.listdir(proc)
    except OSError:
        return
    for name in names:
        if not name.isdigit():
            continue
        try:
            line = (proc / name / "stat").read_text(errors="replace")
        except OSError:  # gone meanwhile, or not ours to read
            continue
        stat = parse_stat(line)
        if stat is not None:
            yield stat


def tree_cpu_seconds(roots: Iterable[int], proc: Path = PROC) -> dict[int, float]:
    """CPU seconds used so far by each root's tree (its descendants and its session's
    processes), from one pass over ``proc``; a root that is gone has no entry."""
    wanted = set(roots)
    if not wanted:  # in-process seats only: nothing to read
        return {}
    stats = {s.pid: s for s in _stats(proc)}
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    children: dict[int, list[int]] = {}
    for stat in stats.values():
        children.setdefault(stat.parent, []).append(stat.pid)
    found: dict[int, float] = {}
    for root in wanted:
        if root not in stats:
            continue
        tree = {root}
        queue = [root]
        while queue:
            for child in children.get(queue.pop(), ()):
                if child not in tree:
                    tree.add(child)
                    queue.append(child)
        tree.update(s.pid for s in stats.values() if s.session == root)
        found[root] = sum(stats[pid].ticks for pid in tree) / tick
    return found


def cgroup_cpu_seconds(cgroup: Path) -> float | None:
    """CPU seconds used by every process the cgroup ever held (its ``cpu.stat``
    ``usage_usec``), or None when it cannot be read."""
    try:
        text = (cgroup / "cpu.stat").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        key, _, value = line.partition(" ")
        if key == "usage_usec" and value.strip().isdigit():
            return int(value) / 1_000_000
    return None


def used_between(before: float | None, after: float | None) -> float | None:
    """CPU seconds used between two samples, rounded to the millisecond; None if either is
    missing (an in-process seat, a process gone before the second)."""
    if before is None or after is None:
        return None
    return round(max(0.0, after - before), 3)
