"""CPU fairness with cgroup v2: how the machine's hierarchy is judged (on fake hierarchies in a
temporary folder, for every reason it can be off), what a seat cgroup is made with, that the
launcher puts a bot process in it before the bot starts and reads its CPU from it, and (where
this machine has a writable cgroup v2 hierarchy) the real thing."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.referee import doctor
from arena.sandbox import cgroups
from arena.sandbox.cgroups import CPU_MAX, Fairness, detect
from arena.sandbox.launcher import Limits, cpu_seconds, launch
from tests.referee import alive


def fake_v2(root: Path, controllers: str = "cpuset cpu io memory pids") -> Path:
    root.mkdir(exist_ok=True)
    (root / "cgroup.controllers").write_text(controllers + "\n")
    (root / "cgroup.subtree_control").write_text("\n")
    return root


def test_a_hybrid_machine_is_off_naming_cgroup_v1(tmp_path: Path) -> None:
    (tmp_path / "unified").mkdir()
    (tmp_path / "unified" / "cgroup.controllers").write_text("\n")
    (tmp_path / "cpu").mkdir()
    found = detect(tmp_path)
    assert not found.active and found.base is None
    assert (
        found.line()
        == f"CPU fairness off: no writable cgroup v2 hierarchy ({tmp_path} is cgroup v1)"
    )


def test_no_hierarchy_at_all_is_off(tmp_path: Path) -> None:
    found = detect(tmp_path / "absent")
    assert not found.active
    assert found.why.startswith("no writable cgroup v2 hierarchy")


def test_a_hierarchy_without_the_memory_controller_is_off(tmp_path: Path) -> None:
    found = detect(fake_v2(tmp_path / "v2", "cpu pids"))
    assert not found.active and "has no memory" in found.why


def test_a_hierarchy_the_arena_cannot_make_its_subtree_in_is_off(tmp_path: Path) -> None:
    root = fake_v2(tmp_path / "v2")
    (root / cgroups.SUBTREE).write_text("a file where the subtree would go")
    found = detect(root)
    assert not found.active and found.why.startswith("no writable cgroup v2 hierarchy")


def test_detection_enables_both_controllers_and_tries_a_cgroup(tmp_path: Path) -> None:
    root = fake_v2(tmp_path / "v2")
    found = detect(root)
    # both controllers turned on for the arena's subtree and for the seats in it
    assert (root / "cgroup.subtree_control").read_text() == "+cpu +memory"
    assert (root / cgroups.SUBTREE / "cgroup.subtree_control").read_text() == "+cpu +memory"
    # a plain folder is no cgroup: the kernel makes a cgroup's files, nothing here does
    assert not found.active and "has no cpu.max" in found.why
    assert not list((root / cgroups.SUBTREE).glob("trial-*"))


def test_a_seat_cgroup_is_made_with_its_limits(tmp_path: Path) -> None:
    one = cgroups.create(tmp_path, CPU_MAX, 512)
    assert (one / "cpu.max").read_text() == "100000 100000"
    assert (one / "memory.max").read_text() == str(512 * 1024 * 1024)
    other = cgroups.create(tmp_path, CPU_MAX, 0)
    assert other != one and (other / "memory.max").read_text() == "max"


def test_the_launcher_puts_the_bot_in_its_cgroup_before_it_starts(tmp_path, monkeypatch):
    base = tmp_path / "risk-arena"
    base.mkdir()
    monkeypatch.setattr(cgroups, "fairness", lambda: Fairness(True, "fake", base))
    monkeypatch.setattr(cgroups, "REMOVE_WAIT", 0.1)  # a folder of plain files never goes
    # the bot says its pid on stderr: the trampoline that started it wrote that pid first
    probe = "import os, sys, time; print(os.getpid(), file=sys.stderr, flush=True); time.sleep(600)"

    async def main() -> None:
        log = tmp_path / "bot.log"
        process = await launch([sys.executable, "-c", probe], tmp_path, {}, log, Limits())
        try:
            assert process.cgroup is not None and process.cgroup.parent == base
            while not (log.exists() and log.read_text().strip()):
                await asyncio.sleep(0.02)
            assert cgroups.members(process.cgroup) == [process.pid]
            assert (process.cgroup / "cpu.max").read_text() == CPU_MAX
            assert (process.cgroup / "memory.max").read_text() == str(4096 << 20)
            (process.cgroup / "cpu.stat").write_text("usage_usec 2500000\nuser_usec 2000000\n")
            assert cpu_seconds([process, None]) == [2.5, None]
        finally:
            await process.kill(grace=0)
        assert not alive(process.pid)

    asyncio.run(main())


def test_doctor_and_serve_say_whether_fairness_is_on(monkeypatch) -> None:
    monkeypatch.setattr(
        cgroups, "fairness", lambda: Fairness(False, "no writable cgroup v2 hierarchy (none at /x)")
    )
    check = doctor.fairness_check()
    assert (check.name, check.state) == ("cpu fairness", doctor.OFF)
    assert (
        doctor.fairness_line() == "CPU fairness off: no writable cgroup v2 hierarchy (none at /x)"
    )
    monkeypatch.setattr(
        cgroups, "fairness", lambda: Fairness(True, "each bot process in a cgroup", Path("/x"))
    )
    assert doctor.fairness_check().state == doctor.ON
    assert doctor.fairness_line().startswith("CPU fairness on: ")
    assert any(c.name == "cpu fairness" for c in doctor.diagnose(trial=False))


REAL = cgroups.fairness()


@pytest.mark.skipif(not REAL.active, reason=f"this machine: {REAL.line()}")
def test_a_real_seat_cgroup_holds_the_bot_and_is_removed_after() -> None:
    burn = "import os, time\nos.fork()\nwhile True: pass\n"  # two processes spinning

    async def main(folder: Path) -> None:
        log = folder / "bot.log"
        process = await launch([sys.executable, "-c", burn], folder, {}, log, Limits())
        cgroup = process.cgroup
        assert cgroup is not None and cgroup.is_dir()
        deadline = asyncio.get_running_loop().time() + 60  # bounded: a generous budget

        async def until(condition: Callable[[], bool], what: str) -> None:
            while not condition():
                assert asyncio.get_running_loop().time() < deadline, f"timed out: {what}"
                await asyncio.sleep(0.02)

        try:
            # the child forked: it is in the cgroup too
            await until(lambda: len(cgroups.members(cgroup)) >= 2, "both processes in it")
            assert process.pid in cgroups.members(cgroup)
            assert (cgroup / "cpu.max").read_text().split() == CPU_MAX.split()
            before = cpu_seconds([process])[0]
            assert before is not None
            await until(lambda: (cpu_seconds([process])[0] or 0.0) > before, "CPU counted")
        finally:
            await process.kill(grace=0)
        assert not cgroup.exists()

    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        asyncio.run(main(Path(tmp)))
