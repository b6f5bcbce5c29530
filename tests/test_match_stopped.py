"""A match stopped from outside keeps its replay: ``kill -9`` of ``arena match`` leaves every
record made so far in the file (each is written through as it is made), and SIGTERM (what
``timeout`` sends) stops it as Ctrl-C does: its bots ended, its replay kept, exit 143.

A real ``arena match`` subprocess plays a human seat fed through a pipe against the random
bot: after N answers the match waits at the human's next prompt, so exactly what it made so
far must be in the file, whatever the machine's speed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.replays.files import apply_record, read, start
from tests.scheduler.test_tournament import descendants, running
from tests.waiting import wait_until

ARENA = str(Path(sys.executable).with_name("arena"))
PROMPT = "Your choice (0-"
ANSWERS = 5
"""Answers the human seat is given before the match is stopped at its next prompt."""
BUDGET = 120.0


def _replay_file() -> Path | None:
    found = sorted((Path(os.environ["ARENA_HOME"]) / "replays").glob("*.jsonl"))
    return found[0] if found else None


def _records() -> list[dict[str, Any]]:
    """The records in the replay file so far (a last line not yet complete is left out)."""
    path = _replay_file()
    if path is None:
        return []
    lines = path.read_text().split("\n")[:-1]
    return [json.loads(line) for line in lines]


def _human_decisions(records: list[dict[str, Any]]) -> int:
    return sum(1 for r in records if r.get("type") == "decision" and r.get("seat") == 0)


@pytest.fixture
def waiting_match(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """``arena match`` with the human seat answered ANSWERS times and now waiting at its
    next prompt (its input kept open); yields the process and its stderr file."""
    err_path = tmp_path / "match.err"
    # SIGINT at its default even if this test runs where it is ignored (a background job).
    launcher = "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    launcher += "os.execv(sys.argv[1], sys.argv[1:])"
    with err_path.open("w") as err:
        process = subprocess.Popen(
            [sys.executable, "-c", launcher, ARENA, "match", "--bot", "human", "--bot",
             "random", "--seed", "4", "--rules", "max_rounds=3", "--json"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err, text=True,
            env=dict(os.environ),
        )  # fmt: skip
    try:
        assert process.stdin is not None
        process.stdin.write("0\n" * ANSWERS)
        process.stdin.flush()
        asked = lambda: err_path.read_text().count(PROMPT) > ANSWERS  # noqa: E731
        assert wait_until(asked, BUDGET), err_path.read_text()[-2000:]
        yield process, err_path
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        if process.stdin is not None:
            process.stdin.close()


def _check_replay_up_to_the_prompt() -> list[dict[str, Any]]:
    """The file holds every record made before the human's next prompt: re-applied, they
    lead to a position where the game asks the human seat (seat 0), after ANSWERS of its own
    decisions; ``arena replay show`` reads it."""
    path = _replay_file()
    assert path is not None
    header, records = read(path)
    assert _human_decisions(records) == ANSWERS
    game, state = start(header)
    for record in records:
        step = apply_record(game, state, record)
        if step is not None:
            state = step.state
    decision = game.decision(state)
    assert decision is not None and decision.seats == (0,), decision
    shown = subprocess.run(
        [ARENA, "replay", "show", str(path)], capture_output=True, text=True, timeout=BUDGET
    )
    assert shown.returncode == 0, shown.stderr
    assert "Traceback" not in shown.stderr and "human" in shown.stdout
    return records


def test_a_match_killed_with_sigkill_keeps_every_record_made_so_far(waiting_match) -> None:
    process, _ = waiting_match
    # The records reach the file as they are made: no need to stop the match to see them.
    assert wait_until(lambda: _human_decisions(_records()) == ANSWERS, BUDGET), _records()
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=BUDGET)
    _check_replay_up_to_the_prompt()


def test_sigterm_stops_a_match_like_ctrl_c_and_keeps_its_replay(waiting_match) -> None:
    process, err_path = waiting_match
    bots = descendants(process.pid)
    assert bots, "the random bot runs as a process of the referee's"
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=BUDGET)
    err = err_path.read_text()
    assert process.returncode == 143, err[-2000:]
    assert err.splitlines()[-1] == "arena: terminated", err[-2000:]
    assert "Traceback" not in err and "Exception ignored" not in err
    assert running(bots) == []
    records = _check_replay_up_to_the_prompt()
    assert not any(r.get("type") == "result" for r in records)
