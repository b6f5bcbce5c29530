"""Where a tournament's logs go, and how its faults point at them: with ``--db`` elsewhere
(and no ``$ARENA_HOME``) the logs live in the database's folder, and ``tournament run`` and
``tournament show`` name the stderr log of each faulted seat (text and ``--json``).

Real tournaments on the worker pool, with a bot (written here) that cannot start: it prints
its reason on stderr and exits before connecting, so every seat of it is INIT_FAIL."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

from arena.results.reports import fault_log_line
from tests.scheduler.test_tournament import ARENA, RUN_TIMEOUT

FAIL_PY = """
import sys

print("failer: the model file is missing, cannot start", file=sys.stderr, flush=True)
sys.exit(3)
"""
REASON = "the model file is missing"


def failing_bot(folder: Path) -> Path:
    bot = folder / "failer"
    bot.mkdir()
    (bot / "fail.py").write_text(FAIL_PY)
    (bot / "bot.toml").write_text(
        'name = "failer"\nversion = "1"\nlanguage = "Python"\ncommand = "python fail.py"\n'
    )
    return bot


def run_arena(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The console script without ``$ARENA_HOME``: the results home is the database's."""
    env = {k: v for k, v in os.environ.items() if k != "ARENA_HOME"}
    done = subprocess.run(
        [ARENA, *args], capture_output=True, text=True, timeout=RUN_TIMEOUT, env=env, cwd=cwd
    )
    assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-3000:])
    assert "Traceback" not in done.stderr
    return done


def test_logs_live_next_to_the_database_and_faults_name_the_failing_seats_log(
    tmp_path: Path,
) -> None:
    here = tmp_path / "cwd"
    here.mkdir()
    data = tmp_path / "x"
    data.mkdir()
    db = data / "other.db"
    bot = failing_bot(tmp_path)
    run = ["tournament", "run", "--bot", str(bot), "--bot", "random", "--seats", "2",
           "--rounds", "1", "--rules", "max_rounds=6", "--workers", "2", "--no-progress",
           "--db", str(db)]  # fmt: skip

    text = run_arena(*run, cwd=here).stdout
    board = json.loads(run_arena(*run, "--json", cwd=here).stdout)

    logs = data / "logs"
    assert len(list(logs.glob("tournament-*.log"))) == 2
    assert len(list(logs.glob("*-seat*-random.log"))) == 4
    assert not (here / "results" / "logs").exists()
    assert list(board["fault_logs"]) == ["failer 1"]
    faulted = board["fault_logs"]["failer 1"]
    assert [(f["plan_index"], f["status"]) for f in faulted] == [(0, "INIT_FAIL"), (1, "INIT_FAIL")]
    for fault in faulted:
        log = Path(fault["log"])
        assert log.parent == logs.resolve() and REASON in log.read_text()
        assert log.name.endswith(f"-{fault['plan_index']}-seat{fault['seat']}-failer.log")
    line = re.search(r"fault log · failer 1: INIT_FAIL in match 1, seat \d: (\S+)", text)
    assert line is not None, text
    assert (
        Path(line.group(1)).parent == logs.resolve() and REASON in Path(line.group(1)).read_text()
    )

    tournament = board["fault_logs"]["failer 1"][0]["log"].split("/")[-1].split("-")[0]
    shown = run_arena("tournament", "show", tournament, "--db", str(db), cwd=here).stdout
    assert "faults · failer 1: INIT_FAIL 2" in shown
    last = faulted[-1]
    assert (
        f"fault log · failer 1: INIT_FAIL in match 1, seat {last['seat']}: {last['log']}" in shown
    )
    as_json = json.loads(
        run_arena("tournament", "show", tournament, "--db", str(db), "--json", cwd=here).stdout
    )
    assert as_json["fault_logs"] == board["fault_logs"]


def test_the_fault_log_line_names_the_last_log_and_counts_the_others() -> None:
    def seat(plan: int, log: str | None) -> dict[str, object]:
        return {
            "match_id": f"m{plan}",
            "plan_index": plan,
            "seat": 1,
            "status": "CRASH",
            "log": log,
        }

    several = [seat(0, "/l/a.log"), seat(4, "/l/b.log"), seat(5, "/l/b.log"), seat(7, None)]
    assert fault_log_line("bot 1", several) == (
        "bot 1: CRASH in match 5, seat 1: /l/b.log (and 1 more: --json lists them)"
    )
    assert fault_log_line("bot 1", [seat(2, None)]) == (
        "bot 1: no stderr log recorded (a bot playing in-process has none)"
    )
