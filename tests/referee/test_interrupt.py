"""Ctrl-C while bots play: the command ends its bots, prints ``arena: interrupted`` and
exits 130, every time, with no traceback and no bot process left behind.

The command runs as a real subprocess with every isolation layer this machine gives (with
seat users, two clean-ups of one process once raced over its uid); SIGINT goes to it once
its bot processes run, which are told apart by a mark in their environment.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.waiting import wait_until

from . import REPO

ARENA = REPO / ".venv" / "bin" / "arena"


def marked(mark: str, but: int) -> list[int]:
    """Live processes other than ``but`` whose environment carries ``ARENA_TEST_MARK=mark``."""
    wanted = f"ARENA_TEST_MARK={mark}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == but:
            continue
        try:
            if wanted not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            found.append(int(entry.name))
    return found


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # a background shell leaves it ignored


@pytest.mark.parametrize(("command", "attempts"), [("versus", 3), ("match", 2)])
def test_ctrl_c_while_bots_play_ends_them_and_exits_130_every_time(
    command: str, attempts: int, tmp_path: Path
) -> None:
    args = {
        "versus": ["versus", "random", "random", "--games", "500"],
        "match": ["match", "--bot", "random", "--bot", "random", "--bot", "random"],
    }[command]
    for attempt in range(attempts):
        mark = f"interrupt-{os.getpid()}-{time.monotonic_ns()}"
        env = {**os.environ, "ARENA_ISOLATION": "auto", "ARENA_TEST_MARK": mark}
        arena = subprocess.Popen(
            [str(ARENA), *args, "--seed", str(attempt)],
            env=env,
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=_default_sigint,
        )
        try:
            assert wait_until(lambda: len(marked(mark, arena.pid)) >= 2, 60), "no bots ran"  # noqa: B023
            arena.send_signal(signal.SIGINT)
            _, err = arena.communicate(timeout=120)
        finally:
            if arena.poll() is None:
                arena.kill()
                arena.wait()
        said = err.decode(errors="replace")
        assert "Traceback" not in said, f"attempt {attempt}: {said}"
        assert said.strip().splitlines()[-1] == "arena: interrupted", said
        assert arena.returncode == 130, (attempt, said)
        assert wait_until(lambda: not marked(mark, arena.pid)), f"bots outlived it: {said}"  # noqa: B023


def test_clean_ups_racing_over_one_bot_process_end_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat released while its host closes: both kill the process, neither fails, and the
    seat user is let go once its processes are gone."""
    from arena.sandbox.isolation import detect
    from arena.sandbox.launcher import Limits, launch
    from arena.sandbox.seat_users import SeatUsers

    monkeypatch.setenv("ARENA_ISOLATION", "auto")
    uids = detect().uids
    if uids is None:
        pytest.skip("no seat users here (the referee does not run as root)")

    async def scenario() -> tuple[list[object], bool, bool]:
        user = SeatUsers(uids).take()
        process = await launch(
            ["sleep", "600"], Path("/"), {}, tmp_path / "race.log", Limits(), user=user
        )
        ended: list[object] = list(
            await asyncio.gather(process.kill(), process.kill(grace=0), return_exceptions=True)
        )
        ended += await asyncio.gather(process.kill(), return_exceptions=True)
        return ended, process.exited, process.user is None

    assert asyncio.run(scenario()) == ([None, None, None], True, True)
