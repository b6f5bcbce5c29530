"""A process tree's CPU seconds read from ``/proc`` (a fake one in a temporary folder): the
root, its descendants and its session's processes, each with the children it reaped; no
other process."""

from __future__ import annotations

import os
from pathlib import Path

from arena.sandbox.cpu_time import cgroup_cpu_seconds, parse_stat, tree_cpu_seconds, used_between

TICK = os.sysconf("SC_CLK_TCK")


def stat_line(pid: int, name: str, parent: int, session: int, ticks: tuple[int, ...]) -> str:
    # fields after the name: state ppid pgrp session tty tpgid flags minflt cminflt majflt
    # cmajflt utime stime cutime cstime ...
    utime, stime, cutime, cstime = ticks
    rest = f"S {parent} {pid} {session} 0 -1 0 0 0 0 0 {utime} {stime} {cutime} {cstime} 20 0 1 0"
    return f"{pid} ({name}) {rest}\n"


def fake_proc(tmp: Path, rows: list[tuple[int, str, int, int, tuple[int, ...]]]) -> Path:
    for pid, name, parent, session, ticks in rows:
        (tmp / str(pid)).mkdir()
        (tmp / str(pid) / "stat").write_text(stat_line(pid, name, parent, session, ticks))
    (tmp / "self").mkdir()  # not a pid: ignored
    return tmp


def test_a_stat_line_with_parentheses_in_its_name_is_read() -> None:
    found = parse_stat(stat_line(42, "a) (b", 7, 40, (1, 2, 3, 4)))
    assert found is not None
    assert (found.pid, found.parent, found.session, found.ticks) == (42, 7, 40, 10)
    assert parse_stat("garbage") is None


def test_a_tree_counts_descendants_session_and_reaped_children(tmp_path: Path) -> None:
    proc = fake_proc(
        tmp_path,
        [
            (1, "init", 0, 1, (500, 500, 0, 0)),
            (100, "bwrap", 1, 100, (1, 1, 0, 0)),
            (101, "bot", 100, 100, (10, 5, 20, 5)),  # reaped children: 25 ticks
            (102, "worker child", 101, 100, (30, 0, 0, 0)),
            (150, "double forked", 1, 100, (7, 0, 0, 0)),  # left the tree, kept the session
            (200, "other seat", 1, 200, (900, 0, 0, 0)),
        ],
    )
    found = tree_cpu_seconds([100, 200, 999], proc)
    assert found == {100: (2 + 40 + 30 + 7) / TICK, 200: 900 / TICK}  # 999 is gone


def test_a_cgroup_counts_its_usage(tmp_path: Path) -> None:
    (tmp_path / "cpu.stat").write_text("usage_usec 1500000\nuser_usec 1000000\n")
    assert cgroup_cpu_seconds(tmp_path) == 1.5
    assert cgroup_cpu_seconds(tmp_path / "gone") is None


def test_a_match_uses_the_difference_of_two_samples() -> None:
    assert used_between(1.25, 3.5) == 2.25
    assert used_between(None, 3.5) is None and used_between(1.0, None) is None
