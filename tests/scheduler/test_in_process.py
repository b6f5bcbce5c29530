"""``tournament run --in-process``: Python bots with an ``entry`` play inside the workers.

Covered: the flag is stored with the tournament and kept by resume; the same tournament gives
the same records (places, statuses, end, turns, rounds, winner, replay events; timing and ids
aside) with and without it; a bot without an ``entry`` still plays as a process; what an
in-process bot prints stays off the command's output; the default number of workers; a
worker's inherited heap frozen.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.catalog import find_bot
from arena.replays.compact import expand
from arena.results.store import open_store
from arena.scheduler import tournament as tournaments
from arena.scheduler.tournament import Runner, TournamentSettings, create

ARENA = str(Path(sys.executable).with_name("arena"))
if not Path(ARENA).exists():  # pragma: no cover - an install without the venv layout
    ARENA = shutil.which("arena") or ARENA

BOTS = ["random", "aggressive", "defensive"]
GENEROUS = ["--move-time", "10", "--time-bank", "120", "--startup-time", "120"]
"""Clocks no bot comes near even on a loaded machine: a timeout would differ between runs."""
TIMING = {"match_id", "think_ms"}
"""Replay keys that differ between two plays of the same match (ids and measured times)."""


def home() -> Path:
    return Path(os.environ["ARENA_HOME"])


def arena(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [ARENA, *args], capture_output=True, text=True, timeout=300, env=dict(os.environ)
    )


def ok(*args: str) -> str:
    done = arena(*args)
    assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-4000:])
    assert "Traceback" not in done.stderr
    return done.stdout


def run_args(db: Path, bots: list[str], *extra: str) -> list[str]:
    args = ["tournament", "run", "--db", str(db), "--seed", "29", "--workers", "2"]
    for bot in bots:
        args += ["--bot", bot]
    return [*args, "--rules", "max_rounds=10", *GENEROUS, "--no-progress", "--json", *extra]


def _untimed(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


def records(db: Path) -> list[dict[str, Any]]:
    """Every recorded match of the database as played: what must not depend on the path."""
    found = []
    with open_store(db, read_only=True) as store:
        for match in sorted(store.matches(), key=lambda m: m["plan_index"]):
            seats = sorted(store.seats_of(match["id"]), key=lambda s: s["seat"])
            replay = [json.loads(line) for line in expand(store.replay(match["id"])).splitlines()]
            found.append(
                {
                    "match": {
                        k: match[k]
                        for k in (
                            "plan_index",
                            "seed",
                            "end_reason",
                            "winner_seat",
                            "turns",
                            "rounds",
                            "decisions",
                            "rules",
                            "out_order",
                        )
                    },
                    "seats": [
                        {k: s[k] for k in ("seat", "version_id", "bot", "place", "status")}
                        for s in seats
                    ],
                    "replay": _untimed(replay),
                }
            )
    return found


def stored_settings(db: Path) -> dict[str, Any]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        (text,) = conn.execute("SELECT settings_json FROM tournaments").fetchone()
    finally:
        conn.close()
    settings: dict[str, Any] = json.loads(text)
    return settings


def bot_process_logs() -> list[str]:
    """Logs of bot processes started (one per start, named ``ID-N-seatS-FOLDER.log``)."""
    logs = home() / "logs"
    return sorted(p.name for p in logs.glob("*-seat*.log")) if logs.is_dir() else []


def no_entry_copy(folder: Path) -> Path:
    """The random bot without its ``entry`` (and named apart): it can only run as a process."""
    target = folder / "no-entry"
    shutil.copytree(find_bot("random").path, target)
    toml = target / "bot.toml"
    text = toml.read_text().replace('name = "random"', 'name = "no-entry"')
    toml.write_text("\n".join(line for line in text.splitlines() if not line.startswith("entry")))
    return target


def test_same_seeds_give_the_same_records_in_process_and_as_processes(tmp_path: Path) -> None:
    processes, in_process = tmp_path / "processes.db", tmp_path / "in-process.db"
    ok(*run_args(processes, BOTS))
    assert bot_process_logs()  # the bots did run as processes
    shutil.rmtree(home() / "logs")
    board = json.loads(ok(*run_args(in_process, BOTS, "--in-process")))

    assert bot_process_logs() == []  # every bot played inside the workers
    assert stored_settings(in_process)["in_process"] is True
    assert stored_settings(processes)["in_process"] is False
    played = records(in_process)
    assert len(played) == len(BOTS) * (len(BOTS) - 1)
    assert all(s["status"] == "OK" for r in played for s in r["seats"])
    assert played == records(processes)
    assert sorted(r["bot"] for r in board["rows"]) == sorted(BOTS)


class StopAfter(Runner):
    """A runner interrupted (as by Ctrl-C) once ``limit`` matches are recorded."""

    limit = 2

    def _record(self, index: int, changes: list[Any]) -> None:
        super()._record(index, changes)
        if self.recorded >= self.limit:
            raise KeyboardInterrupt


def test_resume_keeps_in_process_and_a_bot_without_an_entry_plays_as_a_process(
    tmp_path: Path,
) -> None:
    bots = ["random", "aggressive", str(no_entry_copy(tmp_path))]
    db = tmp_path / "resumed.db"
    settings = TournamentSettings(
        bots=bots,
        rules={"max_rounds": "10"},
        seed=29,
        workers=2,
        move_time=10.0,
        time_bank=120.0,
        startup_time=120.0,
        in_process=True,
    )
    with open_store(db) as store:
        tournament_id = create(store, settings)
        with pytest.raises(KeyboardInterrupt):
            StopAfter(store, tournament_id).run()
        store.set_tournament_status(tournament_id, "stopped")
        assert 2 <= len(store.recorded_indices(tournament_id)) < 6
    resumed = arena("tournament", "resume", tournament_id, "--db", str(db), "--no-progress")
    assert resumed.returncode == 0, resumed.stderr[-4000:]
    assert "Traceback" not in resumed.stderr

    started = bot_process_logs()
    assert started and all(name.endswith("-no-entry.log") for name in started)
    reference = tmp_path / "reference.db"
    ok(*run_args(reference, bots))
    assert records(db) == records(reference)


PRINTER_PY = """\
import sys

from arena.sdk import Bot


class Printer(Bot):
    def choose(self, request):
        print("thinking out loud")
        print("and on stderr", file=sys.stderr)
        return 0


if __name__ == "__main__":
    Printer().run()
"""


def test_what_an_in_process_bot_prints_goes_to_a_log(tmp_path: Path) -> None:
    bot = tmp_path / "printer"
    bot.mkdir()
    (bot / "bot.py").write_text(PRINTER_PY)
    (bot / "bot.toml").write_text(
        'name = "printer"\nversion = "1"\nlanguage = "Python"\ncommand = "python bot.py"\n'
        'entry = "bot:Printer"\n'
    )
    done = arena(*run_args(tmp_path / "printer.db", ["random", str(bot)], "--in-process"))
    assert done.returncode == 0, done.stderr[-4000:]
    assert "thinking" not in done.stdout and "thinking" not in done.stderr
    json.loads(done.stdout)  # --json output stays one object
    logs = list((home() / "logs").glob("*-in-process.log"))
    assert len(logs) == 1
    text = logs[0].read_text()
    assert "thinking out loud" in text and "and on stderr" in text


def test_in_process_in_a_config_file(tmp_path: Path) -> None:
    config = tmp_path / "t.toml"
    config.write_text('bots = ["random", "aggressive"]\nin_process = true\n')
    assert TournamentSettings.from_toml(config).in_process is True
    config.write_text('bots = ["random", "aggressive"]\nin_process = 1\n')
    done = arena("tournament", "run", "--config", str(config), "--db", str(tmp_path / "x.db"))
    assert done.returncode == 2
    assert "in_process must be true or false" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity here")
def test_the_default_workers_are_the_usable_cores(tmp_path: Path) -> None:
    """One worker per core the scheduler may run on (its affinity, e.g. under ``taskset``)."""
    pinned = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os; os.sched_setaffinity(0, {min(os.sched_getaffinity(0))}); "
            "from arena.scheduler.tournament import default_workers; print(default_workers())",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert pinned.stdout.strip() == "1"
    assert tournaments.default_workers() == len(os.sched_getaffinity(0))

    with open_store(tmp_path / "w.db") as store:
        unset = create(store, TournamentSettings(bots=["random", "aggressive"], seed=1))
        stored = create(store, TournamentSettings(bots=["random", "aggressive"], workers=3))
        assert Runner(store, unset).workers == tournaments.default_workers()
        assert Runner(store, stored).workers == 3
        assert Runner(store, stored, workers=5).workers == 5  # `resume --workers 5`


def _frozen_in_a_worker() -> int:
    import gc

    return gc.get_freeze_count()


def test_a_worker_starts_with_its_inherited_heap_out_of_the_collectors_sight() -> None:
    """A full garbage collection inside an in-process bot's decision is charged to its clock;
    what the worker inherits is frozen, so such a collection has little left to walk."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from arena.scheduler.worker import init_worker

    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(1, mp_context=context, initializer=init_worker) as pool:
        frozen = pool.submit(_frozen_in_a_worker).result(timeout=120)
    assert frozen > 1000  # the arena's modules at least
