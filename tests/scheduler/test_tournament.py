"""Tournaments end to end: the ``arena`` console script runs real bot subprocesses on a pool of
worker processes and records into a real SQLite file under ``$ARENA_HOME``.

Covered: a run records exactly its plan and prints the leaderboard; ratings do not depend on
the number of workers; ``kill -9`` of the scheduler or of a worker, and Ctrl-C, leave no process
behind and lose nothing (resume plays exactly the rest); forfeits rate the same live and after
``arena ratings rebuild``; bad input, a busy or read-only database; the reports.

Every test is small (``max_rounds`` of 6-60, two workers). Tests with ``js-random`` are skipped
without ``node``; the bot's ``npm ci`` setup is done (or noted as done) once per session.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from arena.catalog import find_bot
from arena.results.store import compress_replay
from arena.scheduler.records import MatchRecord, MatchSpec, SeatRecord
from tests.node import set_up_js_bot

ARENA = str(Path(sys.executable).with_name("arena"))
if not Path(ARENA).exists():  # pragma: no cover - an install without the venv layout
    ARENA = shutil.which("arena") or ARENA

HAVE_NODE = shutil.which("node") is not None and shutil.which("npm") is not None
needs_node = pytest.mark.skipif(not HAVE_NODE, reason="js-random needs `node` and `npm` on PATH")

# Three bots when node is here, else the two Python bots (and more rounds for the long runs).
BOTS = ["random", "aggressive", "js-random"] if HAVE_NODE else ["random", "aggressive"]
LONG_ROUNDS = "2" if HAVE_NODE else "6"
"""Rounds of the tournaments that get interrupted: long enough to interrupt, short to resume."""

LEADERBOARD_KEYS = {
    "rank",
    "bot",
    "version",
    "mu",
    "sigma",
    "mu_minus_3sigma",
    "games",
    "wins",
    "avg_place",
    "faults",
    "think_ms_p50",
    "think_ms_p99",
}
RUN_TIMEOUT = 180.0
"""Seconds any one command may take (generous: the machine may be busy with other tests)."""


# ----------------------------------------------------------------------------- helpers


def home() -> Path:
    return Path(os.environ["ARENA_HOME"])


def db_path() -> Path:
    return home() / "arena.db"


def arena(
    *args: str, timeout: float = RUN_TIMEOUT, prefix: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """Run the console script with this test's ``ARENA_HOME``."""
    return subprocess.run(
        [*prefix, ARENA, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=dict(os.environ),
        check=False,
    )


def ok(*args: str) -> str:
    """Stdout of a command that must succeed."""
    done = arena(*args)
    assert done.returncode == 0, (args, done.returncode, done.stdout[-2000:], done.stderr[-4000:])
    assert "Traceback" not in done.stderr
    return done.stdout


def error_line(done: subprocess.CompletedProcess[str]) -> str:
    """The one ``arena: error:`` line of a failed command (no traceback)."""
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("arena: error:")]
    assert len(lines) == 1, done.stderr
    return lines[0]


def tournament_args(
    *,
    bots: list[str] | None = None,
    seats: int = 2,
    rounds: str = "1",
    max_rounds: int = 6,
    seed: int = 5,
    workers: int = 2,
) -> list[str]:
    args = ["tournament", "run"]
    for bot in bots or BOTS:
        args += ["--bot", bot]
    args += ["--seats", str(seats), "--rounds", rounds, "--rules", f"max_rounds={max_rounds}"]
    args += ["--seed", str(seed), "--workers", str(workers), "--no-progress", "--json"]
    return args


def query(
    sql: str, params: tuple[Any, ...] = (), path: Path | None = None
) -> list[tuple[Any, ...]]:
    """Read the results database without writing to it (a read-only connection)."""
    conn = sqlite3.connect(f"file:{path or db_path()}?mode=ro", uri=True, timeout=10)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def recorded_count(path: Path | None = None) -> int:
    """Matches recorded so far (0 while the file or its tables do not exist yet)."""
    target = path or db_path()
    if not target.exists():
        return 0
    try:
        return query("SELECT COUNT(*) FROM matches", path=target)[0][0]
    except sqlite3.OperationalError:  # not created yet, or the schema is being applied
        return 0


def tournaments() -> list[dict[str, Any]]:
    return json.loads(ok("tournament", "list", "--json"))


def assert_plan_recorded_once(tournament_id: str) -> int:
    """Every plan index of the tournament recorded exactly once; returns the plan size."""
    planned = query("SELECT COUNT(*) FROM plan WHERE tournament_id = ?", (tournament_id,))[0][0]
    counts = query(
        "SELECT plan_index, COUNT(*) FROM matches WHERE tournament_id = ? GROUP BY plan_index",
        (tournament_id,),
    )
    assert planned > 0
    assert sorted(i for i, _ in counts) == list(range(planned))
    assert all(n == 1 for _, n in counts), counts
    total = query("SELECT COUNT(*) FROM matches WHERE tournament_id = ?", (tournament_id,))[0][0]
    assert total == planned
    # Each match has its seats and a rating change per seat.
    seats, changes = query(
        "SELECT (SELECT COUNT(*) FROM seats s JOIN matches m ON m.id = s.match_id"
        "        WHERE m.tournament_id = ?),"
        " (SELECT COUNT(*) FROM rating_history h JOIN matches m ON m.id = h.match_id"
        "        WHERE m.tournament_id = ?)",
        (tournament_id, tournament_id),
    )[0]
    seat_count = query(
        "SELECT SUM(seat_count) FROM matches WHERE tournament_id = ?", (tournament_id,)
    )[0][0]
    assert seats == changes == seat_count
    return planned


def assert_prefix(tournament_id: str) -> int:
    """The recorded matches are a prefix of the plan; returns how many."""
    return assert_prefix_in(tournament_id, db_path())


def assert_prefix_in(tournament_id: str, path: Path) -> int:
    """The recorded matches in database ``path`` are a prefix of the plan; returns how many."""
    indices = sorted(
        i
        for (i,) in query(
            "SELECT plan_index FROM matches WHERE tournament_id = ?", (tournament_id,), path=path
        )
    )
    assert indices == list(range(len(indices))), indices
    return len(indices)


def stored_ratings(path: Path | None = None) -> dict[tuple[str, str], tuple[float, float, int]]:
    return {
        (pool, vid): (mu, sigma, games)
        for pool, vid, mu, sigma, games in query(
            "SELECT pool, version_id, mu, sigma, games FROM ratings", path=path
        )
    }


def assert_rebuild_keeps_ratings() -> None:
    """``arena ratings rebuild`` recomputes exactly the ratings the live run stored."""
    before = stored_ratings()
    history = query("SELECT COUNT(*) FROM rating_history")[0][0]
    assert before
    out = ok("ratings", "rebuild")
    assert "recomputed ratings from" in out
    after = stored_ratings()
    assert after.keys() == before.keys()
    for key, (mu, sigma, games) in before.items():
        assert after[key][0] == pytest.approx(mu, abs=1e-9), key
        assert after[key][1] == pytest.approx(sigma, abs=1e-9), key
        assert after[key][2] == games, key
    assert query("SELECT COUNT(*) FROM rating_history")[0][0] == history


# -- processes ---------------------------------------------------------------------------


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, start time) of a process, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[19])


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += [int(c) for c in (task / "children").read_text().split()]
    return found


def descendants(pid: int) -> dict[int, int]:
    """Every descendant's pid and start time (so a reused pid is not mistaken for it)."""
    found: dict[int, int] = {}
    todo = children(pid)
    while todo:
        child = todo.pop()
        stat = _stat(child)
        if stat is None or child in found:
            continue
        found[child] = stat[1]
        todo += children(child)
    return found


def running(pids: dict[int, int]) -> list[int]:
    """Those of ``pids`` still running (zombies have ended: only their exit status is left)."""
    alive = []
    for pid, started in pids.items():
        stat = _stat(pid)
        if stat is not None and stat[1] == started and stat[0] not in "ZXx":
            alive.append(pid)
    return alive


def using_home(path: Path) -> list[int]:
    """Running processes whose environment names ``ARENA_HOME=path`` (bots and workers
    inherit it), other than this test process."""
    needle = f"ARENA_HOME={path}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if needle in environ.split(b"\0"):
            stat = _stat(int(entry.name))
            if stat is not None and stat[0] not in "ZXx":
                found.append(int(entry.name))
    return found


def assert_no_survivors(pids: dict[int, int], limit: float = 60.0) -> None:
    """Within ``limit`` seconds none of ``pids``, nor anything else using this home, runs."""
    deadline = time.monotonic() + limit
    while True:
        left = running(pids) + using_home(home())
        if not left:
            return
        if time.monotonic() > deadline:
            described = {p: _cmdline(p) for p in set(left)}
            pytest.fail(f"processes survived: {described}")
        time.sleep(0.1)


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:200]
    except OSError:
        return "?"


def wait_until(
    condition: Callable[[], bool],
    what: str,
    limit: float = RUN_TIMEOUT,
    process: subprocess.Popen[str] | None = None,
) -> None:
    """Poll ``condition`` every 50 ms for up to ``limit`` seconds."""
    deadline = time.monotonic() + limit
    while not condition():
        if process is not None and process.poll() is not None:
            pytest.fail(f"the tournament ended (code {process.returncode}) before {what}")
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.05)


class Scheduler:
    """A ``tournament run`` started in the background; output goes to files."""

    def __init__(self, args: list[str], folder: Path) -> None:
        self.out_path = folder / "scheduler.out"
        self.err_path = folder / "scheduler.err"
        with self.out_path.open("w") as out, self.err_path.open("w") as err:
            self.process = subprocess.Popen(
                [ARENA, *args], stdout=out, stderr=err, text=True, env=dict(os.environ)
            )

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait(self, timeout: float = RUN_TIMEOUT) -> int:
        return self.process.wait(timeout)

    @property
    def stdout(self) -> str:
        return self.out_path.read_text()

    @property
    def stderr(self) -> str:
        return self.err_path.read_text()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(30)


@pytest.fixture
def scheduler(tmp_path: Path) -> Iterator[Callable[[list[str]], Scheduler]]:
    started: list[Scheduler] = []

    def start(args: list[str]) -> Scheduler:
        started.append(Scheduler(args, tmp_path))
        return started[-1]

    yield start
    for one in started:
        one.stop()


def only_tournament_id() -> str:
    rows = query("SELECT id FROM tournaments")
    assert len(rows) == 1, rows
    return rows[0][0]


# -- the JavaScript bots' setup: once per checkout ------------------------------------------

JS_BOTS = ("js-random", "js-heuristic", "js-europe")
"""The bundled JavaScript bots these tests play (js-random; the demo plays all three)."""


@pytest.fixture(scope="session")
def js_setup_markers(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The notes that the JavaScript bots' ``npm ci`` ran (none without node).

    ``setup`` runs once per results home; copying these notes into each test's home keeps the
    tests from running ``npm ci`` again in the shared bot folders (:func:`set_up_js_bot`).
    """
    if not HAVE_NODE:
        return []
    shared = tmp_path_factory.mktemp("js-setup-home")
    return [set_up_js_bot(find_bot(name), shared) for name in JS_BOTS]


@contextlib.contextmanager
def short_temp_folder() -> Iterator[Path]:
    """A fresh folder to be the commands' ``TMPDIR``, so a test can check what they leave
    there; short, since it holds the referee's unix sockets, and passable by seat users."""
    folder = Path(tempfile.mkdtemp(prefix="arena-test-"))
    folder.chmod(0o711)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(autouse=True)
def temp_folder(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The test's own temporary folder for the commands it runs (:func:`short_temp_folder`)."""
    with short_temp_folder() as folder:
        monkeypatch.setenv("TMPDIR", str(folder))
        yield folder


@pytest.fixture(autouse=True)
def _js_ready(js_setup_markers: list[Path]) -> None:
    for marker in js_setup_markers:
        target = home() / "setup" / marker.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(marker, target)


# ------------------------------------------------------------------ 1. a whole tournament


@needs_node
def test_run_records_the_plan_and_prints_the_leaderboard(temp_folder: Path) -> None:
    out = ok(*tournament_args(bots=["random", "aggressive", "js-random"]))

    board = json.loads(out)  # stdout is exactly one JSON document
    assert set(board) >= {"pool", "rows"}
    assert board["pool"] == "classic/2p/world"
    rows = board["rows"]
    assert [r["bot"] for r in rows] and sorted(r["bot"] for r in rows) == [
        "aggressive",
        "js-random",
        "random",
    ]
    for rank, row in enumerate(rows, 1):
        assert set(row) >= LEADERBOARD_KEYS, set(row) ^ LEADERBOARD_KEYS
        assert row["rank"] == rank
        assert row["version"] == "1.0"
        assert row["mu_minus_3sigma"] == pytest.approx(row["mu"] - 3 * row["sigma"])
        assert row["games"] == 4  # 3 bots, 2 seats: each pair twice, seats swapped
        assert 0 <= row["wins"] <= 4
        assert 1 <= row["avg_place"] <= 2
        assert row["faults"] == {}
        assert row["think_ms_p50"] is not None and row["think_ms_p99"] >= row["think_ms_p50"] >= 0
    scores = [r["mu_minus_3sigma"] for r in rows]
    assert scores == sorted(scores, reverse=True)

    # The database is $ARENA_HOME/arena.db and holds the 6 planned matches, each index once.
    assert db_path().is_file()
    tournament_id = only_tournament_id()
    assert board.get("tournament") == tournament_id
    assert assert_plan_recorded_once(tournament_id) == 6
    assert query("SELECT status FROM tournaments")[0][0] == "finished"
    # Elimination order is stored with each match, so a rebuild ranks forfeits as live.
    assert all(o is not None for (o,) in query("SELECT out_order_json FROM matches"))
    assert_rebuild_keeps_ratings()

    # One log per tournament, written by the worker processes too.
    log = home() / "logs" / f"tournament-{tournament_id}.log"
    assert log.is_file()
    lines = log.read_text().splitlines()
    worker_lines = [line for line in lines if " arena.worker: match " in line]
    assert len(worker_lines) == 6, lines
    assert {line.split()[2] for line in worker_lines} - {"MainProcess"}, worker_lines
    assert all("MainProcess" not in line for line in worker_lines)
    for index in range(6):
        assert sum(f"(plan {index})" in line for line in worker_lines) == 1
    assert len(list((home() / "logs").glob("tournament-*.log"))) == 1
    assert not using_home(home())  # the workers and bots have ended
    assert not list(temp_folder.iterdir())  # nor left sockets or bot homes behind


# -------------------------------------------------------- 2. ratings independent of timing


def _matches_summary(path: Path) -> list[tuple[Any, ...]]:
    return query(
        "SELECT m.plan_index, m.seed, m.end_reason, m.winner_seat, m.turns, m.decisions,"
        " s.seat, s.bot, s.place, s.status FROM matches m JOIN seats s ON s.match_id = m.id"
        " ORDER BY m.plan_index, s.seat",
        path=path,
    )


def test_ratings_do_not_depend_on_the_worker_count(monkeypatch: pytest.MonkeyPatch) -> None:
    base = home()
    results = {}
    for workers in (1, 2):
        monkeypatch.setenv("ARENA_HOME", str(base / f"workers{workers}"))
        _js_ready_copy(base)
        ok(*tournament_args(seed=17, workers=workers))
        results[workers] = (_matches_summary(db_path()), stored_ratings())
    (places_1, ratings_1), (places_2, ratings_2) = results[1], results[2]
    assert places_1 == places_2  # the matches themselves are the same...
    assert len(places_1) == 2 * len(BOTS) * (len(BOTS) - 1)  # seat rows of n(n-1) matches
    assert ratings_1 == ratings_2  # ...so the ratings, applied in plan order, are identical


def _js_ready_copy(base: Path) -> None:
    """Carry the JavaScript bots' setup notes from the test's first home into the current one."""
    marker_dir = base / "setup"
    if marker_dir.is_dir():
        shutil.copytree(marker_dir, home() / "setup", dirs_exist_ok=True)


# ------------------------------------------------------------- 3. kill -9 of the scheduler


def test_resume_after_kill_9_of_the_scheduler(
    scheduler: Callable[[list[str]], Scheduler], temp_folder: Path
) -> None:
    run = scheduler(tournament_args(rounds=LONG_ROUNDS, max_rounds=20, seed=11))
    wait_until(lambda: recorded_count() >= 2, "2 recorded matches", process=run.process)
    family = descendants(run.pid)
    assert len(children(run.pid)) >= 2  # the workers
    family.update(descendants(run.pid))  # bots started meanwhile
    run.process.send_signal(signal.SIGKILL)
    assert run.wait() == -signal.SIGKILL
    assert_no_survivors(family)
    assert [p.name.split("-")[3] for p in temp_folder.iterdir()] == [str(run.pid)]  # its pool's

    tournament_id = only_tournament_id()
    done = assert_prefix(tournament_id)
    # It never got to say otherwise, but its process is gone: interrupted, not running.
    assert query("SELECT status FROM tournaments")[0][0] == "running"
    listed = tournaments()[0]
    assert listed["status"] == "interrupted"
    assert listed["recorded"] == done < listed["planned"]
    assert "interrupted" in ok("tournament", "list")
    assert (
        json.loads(ok("tournament", "show", tournament_id, "--json"))["tournament"]["status"]
        == "interrupted"
    )
    assert " · interrupted · " in ok("tournament", "show", tournament_id)

    out = ok("tournament", "resume", tournament_id, "--no-progress", "--json")
    assert json.loads(out)["tournament"] == tournament_id
    planned = assert_plan_recorded_once(tournament_id)
    assert planned == listed["planned"]
    listed = tournaments()[0]
    assert (listed["status"], listed["recorded"]) == ("finished", planned)
    assert not using_home(home())
    assert not list(temp_folder.iterdir())  # the resume's pool removed the dead one's folder
    assert_rebuild_keeps_ratings()


# ---------------------------------------------------------------- 4. kill -9 of a worker


def test_the_tournament_survives_kill_9_of_a_worker(
    scheduler: Callable[[list[str]], Scheduler], temp_folder: Path
) -> None:
    run = scheduler(tournament_args(rounds=LONG_ROUNDS, max_rounds=20, seed=23))
    wait_until(lambda: recorded_count() >= 1, "a recorded match", process=run.process)
    command = Path(f"/proc/{run.pid}/cmdline").read_bytes()
    workers = [
        pid for pid in children(run.pid) if Path(f"/proc/{pid}/cmdline").read_bytes() == command
    ]
    assert len(workers) == 2, workers
    victim = workers[0]
    wait_until(lambda: bool(children(victim)), "the worker's bots", process=run.process)
    orphans = descendants(victim)  # its bot processes must die with it
    os.kill(victim, signal.SIGKILL)

    assert run.wait() == 0, run.stderr
    tournament_id = only_tournament_id()
    planned = assert_plan_recorded_once(tournament_id)
    assert planned == len(query("SELECT 1 FROM plan"))
    assert len(json.loads(run.stdout)["rows"]) == len(BOTS)
    assert tournaments()[0]["status"] == "finished"
    assert "a worker died" in run.stderr
    log = (home() / "logs" / f"tournament-{tournament_id}.log").read_text()
    assert "a worker died; replaying its matches from their seeds" in log
    assert_no_survivors(orphans)
    assert not list(temp_folder.iterdir())  # the dead worker's sockets and bot homes went too
    assert_rebuild_keeps_ratings()


# -------------------------------------------------------------------------- 5. Ctrl-C


def test_ctrl_c_stops_and_resume_completes(
    scheduler: Callable[[list[str]], Scheduler], temp_folder: Path
) -> None:
    """Ctrl-C stops cleanly (no traceback, not even from the interpreter's exit), and the
    printed hint, which names the non-default database, resumes it."""
    other = home() / "elsewhere" / "other.db"
    other.parent.mkdir(parents=True)
    run = scheduler(
        [*tournament_args(rounds=LONG_ROUNDS, max_rounds=20, seed=31), "--db", str(other)]
    )
    wait_until(
        lambda: recorded_count(other) >= 1,
        "a recorded match",
        limit=RUN_TIMEOUT,
        process=run.process,
    )
    family = descendants(run.pid)
    run.process.send_signal(signal.SIGINT)
    assert run.wait() == 130, run.stderr
    assert_no_survivors(family)
    assert not list(temp_folder.iterdir())

    tournament_id = query("SELECT id FROM tournaments", path=other)[0][0]
    hint = f"resume with: arena tournament resume {tournament_id} --db {other}"
    assert hint in run.stderr
    assert "Traceback" not in run.stderr and "Exception ignored" not in run.stderr, run.stderr
    assert run.stdout == ""  # no leaderboard for a stopped tournament
    listed = json.loads(ok("tournament", "list", "--json", "--db", str(other)))[0]
    assert listed["status"] == "stopped"
    done = assert_prefix_in(tournament_id, other)
    assert listed["recorded"] == done < listed["planned"]
    assert f"stopped after {done}/{listed['planned']} matches" in run.stderr

    command = run.stderr.split("resume with: arena ", 1)[1].split()
    ok(*command, "--no-progress", "--json")
    listed = json.loads(ok("tournament", "list", "--json", "--db", str(other)))[0]
    assert (listed["status"], listed["recorded"]) == ("finished", listed["planned"])
    assert not db_path().exists()  # everything went to the named database
    assert not using_home(home())


# ------------------------------------------------------- resuming after a bot changed


def _bot_copy(folder: Path, name: str) -> Path:
    """A copy of the bundled random bot under another name (so a version of its own)."""
    target = folder / name
    shutil.copytree(find_bot("random").path, target)
    toml = target / "bot.toml"
    toml.write_text(toml.read_text().replace('name = "random"', f'name = "{name}"'))
    return target


def _stopped_tournament(
    scheduler: Callable[[list[str]], Scheduler], args: list[str]
) -> tuple[str, int]:
    """A tournament stopped by Ctrl-C after at least one recorded match: (id, recorded)."""
    run = scheduler(args)
    wait_until(lambda: recorded_count() >= 1, "a recorded match", process=run.process)
    run.process.send_signal(signal.SIGINT)
    assert run.wait() == 130, run.stderr
    tournament_id = only_tournament_id()
    return tournament_id, assert_prefix(tournament_id)


def test_resume_refuses_a_changed_bot_and_records_the_new_version_when_asked(
    scheduler: Callable[[list[str]], Scheduler], tmp_path: Path
) -> None:
    bot = _bot_copy(tmp_path, "mutable")
    args = tournament_args(bots=["aggressive", str(bot)], rounds="4", max_rounds=20, seed=51)
    tournament_id, done = _stopped_tournament(scheduler, args)
    planned = query("SELECT COUNT(*) FROM plan")[0][0]
    assert done < planned
    old = query("SELECT id FROM versions WHERE bot = 'mutable'")[0][0]
    plan_before = query("SELECT plan_index, seats_json FROM plan ORDER BY plan_index")

    with (bot / "bot.py").open("a") as source:
        source.write("\n# a change: a new version\n")
    done_again = arena("tournament", "resume", tournament_id, "--no-progress")
    assert done_again.returncode == 2
    line = error_line(done_again)
    assert "'mutable'" in line and "changed since tournament" in line and old in line
    assert "--record-new-version" in line and "aggressive" not in line
    # Refused before anything was written or played.
    assert query("SELECT plan_index, seats_json FROM plan ORDER BY plan_index") == plan_before
    assert recorded_count() == done
    assert tournaments()[0]["status"] == "stopped"

    resumed = arena(
        "tournament", "resume", tournament_id, "--record-new-version", "--no-progress", "--json"
    )
    assert resumed.returncode == 0, resumed.stderr
    assert "bot 'mutable' changed" in resumed.stderr
    assert assert_plan_recorded_once(tournament_id) == planned
    versions = dict(query("SELECT id, label FROM versions WHERE bot = 'mutable'"))
    assert old in versions and len(versions) == 2
    (new,) = set(versions) - {old}
    # Matches played before the edit are the old version's, every later one the new one's.
    by_index = query(
        "SELECT m.plan_index, s.version_id FROM seats s JOIN matches m ON m.id = s.match_id"
        " WHERE s.bot = 'mutable' ORDER BY m.plan_index"
    )
    assert [v for i, v in by_index if i < done] == [old] * done
    assert [v for i, v in by_index if i >= done] == [new] * (planned - done)
    for index, seats in query("SELECT plan_index, seats_json FROM plan"):
        assert (old in json.loads(seats)) == (index < done), (index, seats)
    # The new version is rated apart: its games are only the matches it played.
    games = {v: g for (_, v), (_, _, g) in stored_ratings().items()}
    assert games[old] == done and games[new] == planned - done
    board = json.loads(resumed.stdout)
    assert sorted(r["bot"] for r in board["rows"]) == ["aggressive", "mutable", "mutable"]
    table = json.loads(ok("tournament", "show", tournament_id, "--json"))
    assert len(table["bots"]) == 3  # the two versions are two names in the crosstable
    assert_rebuild_keeps_ratings()


# ------------------------------------------------------------------- stale states, hints


def _planned_tournament(bots: list[str]) -> str:
    """A tournament created (planned, not run) in this test's database."""
    from arena.results.store import open_store
    from arena.scheduler.tournament import TournamentSettings, create

    settings = TournamentSettings(bots=bots, rules={"max_rounds": "6"}, seed=3, workers=1)
    with open_store(db_path()) as store:
        return create(store, settings)


def test_a_stale_heartbeat_shows_interrupted_and_a_live_one_blocks_resume() -> None:
    tournament_id = _planned_tournament(["random", "aggressive"])
    assert tournaments()[0]["status"] == "planned"
    conn = sqlite3.connect(str(db_path()))
    try:
        # Running on another host (its pid cannot be checked from here), heartbeat fresh.
        now = datetime.now(UTC)
        conn.execute(
            "UPDATE tournaments SET status = 'running', runner_pid = 4242,"
            " runner_host = 'elsewhere.invalid', heartbeat_at = ?",
            (now.isoformat(),),
        )
        conn.commit()
        assert tournaments()[0]["status"] == "running"
        done = arena("tournament", "resume", tournament_id, "--no-progress")
        assert done.returncode == 2
        line = error_line(done)
        assert "is being run by process 4242 on elsewhere.invalid" in line
        assert recorded_count() == 0

        # No heartbeat for an hour: interrupted, in the list and in show.
        conn.execute(
            "UPDATE tournaments SET heartbeat_at = ?", ((now - timedelta(hours=1)).isoformat(),)
        )
        conn.commit()
    finally:
        conn.close()
    assert tournaments()[0]["status"] == "interrupted"
    assert f"{tournament_id}  interrupted" in ok("tournament", "list")
    shown = json.loads(ok("tournament", "show", tournament_id, "--json"))
    assert shown["tournament"]["status"] == "interrupted"
    # An interrupted tournament resumes.
    ok("tournament", "resume", tournament_id, "--no-progress", "--json")
    assert tournaments()[0]["status"] == "finished"


def test_resuming_a_finished_tournament_says_so() -> None:
    board = json.loads(ok(*tournament_args(bots=["random", "aggressive"], workers=1)))
    tournament_id = board["tournament"]
    for extra in ((), ("--json",)):
        done = arena("tournament", "resume", tournament_id, *extra)  # with the progress bar
        assert done.returncode == 0, done.stderr
        assert f"tournament {tournament_id} is already finished: 2/2 matches" in done.stderr
        assert "matches/min" not in done.stderr + done.stdout
        assert "Traceback" not in done.stderr
    assert json.loads(done.stdout)["tournament"] == tournament_id
    assert assert_plan_recorded_once(tournament_id) == 2


def test_a_bot_that_cannot_start_is_refused_before_the_tournament(tmp_path: Path) -> None:
    bot = tmp_path / "ghost"
    bot.mkdir()
    (bot / "bot.toml").write_text('name = "ghost"\ncommand = "no-such-program-here --fast"\n')
    done = arena(*tournament_args(bots=["random", str(bot)]))
    assert done.returncode == 2
    line = error_line(done)
    assert "bot 'ghost' cannot start" in line and "'no-such-program-here'" in line
    assert "resume" not in line
    assert not db_path().exists() or query("SELECT COUNT(*) FROM tournaments") == [(0,)]


def test_a_program_in_the_arena_environment_counts_as_startable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bots run with the arena interpreter's ``bin`` first on PATH, so a program only found
    there (the ``arena`` script itself) can start, whatever the caller's PATH says."""
    from arena.catalog import read_spec
    from arena.scheduler.tournament import cannot_start

    bot = tmp_path / "scripted"
    bot.mkdir()
    (bot / "bot.toml").write_text('name = "scripted"\ncommand = "arena --version"\n')
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    assert cannot_start(read_spec(bot)) is None
    (bot / "bot.toml").write_text('name = "scripted"\ncommand = "no-such-program-here"\n')
    assert "is not on PATH" in (cannot_start(read_spec(bot)) or "")


def test_a_bot_whose_setup_does_not_build_its_program_stops_without_a_resume_hint(
    tmp_path: Path,
) -> None:
    """The program of a bot with a setup may not exist before the setup runs; after it,
    a still missing program stops the run, saying why instead of a hint that would fail."""
    bot = tmp_path / "unbuilt"
    bot.mkdir()
    (bot / "bot.toml").write_text('name = "unbuilt"\ncommand = "./bot"\nsetup = "true"\n')
    done = arena(*tournament_args(bots=["random", str(bot)]))
    assert done.returncode == 2
    line = error_line(done)
    assert "bot 'unbuilt' cannot start" in line and "'./bot' does not exist" in line
    assert "stopped after 0/2 matches" in line and "resume with" not in line
    assert tournaments()[0]["status"] == "stopped"


# --------------------------------------------------------------- bounded scheduler memory


def test_the_scheduler_holds_a_bounded_number_of_matches() -> None:
    """However long the tournament, at most ``in_flight_limit`` matches are submitted and not
    back, and at most ``ahead_limit`` submitted and not recorded (each holds a replay)."""
    from arena.results.store import open_store
    from arena.scheduler import tournament as scheduler_module

    class CountingFuture(Future):  # type: ignore[type-arg]
        taken = 0

        def result(self, timeout: float | None = None) -> Any:
            CountingFuture.taken += 1
            return super().result(timeout)

    class FakePool(Executor):
        """Plays nothing: each job is finished at once, except the first, which is held
        back until three more were submitted, so results also arrive out of plan order."""

        def __init__(self, runner: scheduler_module.Runner) -> None:
            self.runner = runner
            self.submitted = 0
            self.held: list[tuple[Future, MatchSpec]] = []  # type: ignore[type-arg]
            self.peaks = [0, 0]

        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future:  # type: ignore[type-arg]
            (job,) = args
            future = CountingFuture()
            self.submitted += 1
            outstanding = self.submitted - CountingFuture.taken
            unrecorded = self.submitted - self.runner.written
            self.peaks = [max(self.peaks[0], outstanding), max(self.peaks[1], unrecorded)]
            if job.plan_index == 0:
                self.held.append((future, job))
            else:
                future.set_result(_fake_outcome(job))
            if self.held and self.submitted >= 4:
                held, held_job = self.held.pop()
                held.set_result(_fake_outcome(held_job))
            return future

    class CountingRunner(scheduler_module.Runner):
        written = 0

        fake: FakePool | None = None

        def _executor(self) -> Executor:
            self.fake = FakePool(self)
            return self.fake

        def _record(self, index: int, changes: list[Any]) -> None:
            super()._record(index, changes)
            self.written += 1

    tournament_id = _planned_tournament(["random", "aggressive", "defensive", "continent"])
    with open_store(db_path()) as store:
        runner = CountingRunner(store, tournament_id, workers=2)
        planned = len(runner.plan)
        runner.run()
        pool = runner.fake
        assert isinstance(pool, FakePool)
        assert pool.submitted == planned == runner.written == runner.recorded
        assert runner.results == {}  # every outcome dropped once recorded
        assert pool.peaks[0] <= runner.in_flight_limit == 4
        assert pool.peaks[1] <= runner.ahead_limit == 8
        assert planned > runner.ahead_limit  # so the bound was what held it back
        assert len(store.recorded_indices(tournament_id)) == planned
        assert store.tournament(tournament_id)["status"] == "finished"


def test_stopping_the_pool_leaves_no_thread_to_race_the_interpreter_exit() -> None:
    """After a stop (Ctrl-C, an error) the pool's manager thread has ended: left running, it
    raced ``threading._shutdown`` at exit, which then sometimes printed a traceback."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from arena.scheduler.tournament import _stop

    pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork"))
    futures = [pool.submit(time.sleep, 600) for _ in range(4)]
    wait_until(lambda: len(pool._processes or {}) == 2, "the pool's workers")  # type: ignore[attr-defined]
    workers = list(pool._processes.values())  # type: ignore[attr-defined]
    manager = pool._executor_manager_thread  # type: ignore[attr-defined]
    assert manager is not None and manager.is_alive()
    _stop(pool)
    assert not manager.is_alive()
    assert all(not w.is_alive() for w in workers)
    assert all(f.done() for f in futures)


def _fake_outcome(job: MatchSpec) -> MatchRecord:
    """What a worker returns for a match, without playing one: seat 0 wins."""
    seats = tuple(
        SeatRecord(
            seat=i,
            bot=e["name"],
            version=e["label"],
            place=1 if i == 0 else 2,
            status="OK",
            strikes=0,
            decisions=20,
            think_ms_p50=1.0,
            think_ms_p99=2.0,
            log=None,
        )
        for i, e in enumerate(job.seats)
    )
    return MatchRecord(
        plan_index=job.plan_index,
        match_id=f"fake-{job.tournament_id}-{job.plan_index}",
        game=job.game,
        seed=job.seed,
        rules=job.rules,
        end_reason="domination",
        winner=0,
        turns=10,
        rounds=5,
        decisions=40,
        seats=seats,
        out_order=tuple(range(len(seats) - 1, 0, -1)),
        started_at=time.time(),
        finished_at=time.time(),
        replay=compress_replay(b'{"type":"decision","seat":0}\n' * 100),
        worker=0,
    )


# ------------------------------------------------ forfeits: live ratings equal a rebuild

QUITTER_TOML = """\
name = "quitter"
version = "1.0"
language = "Python"
description = "Plays randomly; exits as soon as any seat has been eliminated."
command = "python -B bot.py"
"""

QUITTER_PY = """\
import random
import sys

from arena.sdk import Attack, Bot, Fortify, Place


class Quitter(Bot):
    name = "quitter"
    version = "1.0"

    def start(self, match):
        super().start(match)
        self.rng = random.Random(match.bot_seed)

    def choose(self, request):
        if request.view.get("eliminated"):
            sys.exit(3)  # forfeits after another seat went out
        options, rng = request.options, self.rng
        if request.kind == "reinforce" or (request.kind == "place" and options.armies > 1):
            share = {}
            for _ in range(options.armies):
                t = rng.choice(options.territories)
                share[t] = share.get(t, 0) + 1
            return Place(tuple(sorted(share.items())))
        index = rng.randrange(len(request.choices))
        picked = request.choices[index]
        if isinstance(picked, Attack):
            return Attack(picked.source, picked.target, rng.randint(1, picked.dice))
        if isinstance(picked, Fortify):
            return Fortify(picked.source, picked.target, rng.randint(1, picked.armies))
        return index


if __name__ == "__main__":
    Quitter().run()
"""


def test_forfeits_rate_the_same_live_and_after_a_rebuild(tmp_path: Path) -> None:
    """A seat that crashes after another went out is ranked by the stored elimination order,
    so ``ratings rebuild`` gives the live ratings (it used to rank it as if everyone were in)."""
    bot = tmp_path / "quitter"
    bot.mkdir()
    (bot / "bot.toml").write_text(QUITTER_TOML)
    (bot / "bot.py").write_text(QUITTER_PY)
    board = json.loads(
        ok(
            *tournament_args(
                bots=["aggressive", "random", str(bot)], seats=3, max_rounds=60, seed=1
            )
        )
    )
    quitter = next(r for r in board["rows"] if r["bot"] == "quitter")
    assert sum(quitter["faults"].values()) >= 1  # CRASH, or DISCONNECT if the stream went first
    # At least one match exercises the case: an OK seat went out before the crash.
    telling = 0
    for match_id, out_order in query("SELECT id, out_order_json FROM matches"):
        statuses = dict(query("SELECT seat, status FROM seats WHERE match_id = ?", (match_id,)))
        order = json.loads(out_order)
        crashed = [s for s, status in statuses.items() if status != "OK"]
        if crashed and any(statuses[s] == "OK" for s in order[: order.index(crashed[0])]):
            telling += 1
    assert telling >= 1
    assert_rebuild_keeps_ratings()


# --------------------------------------------------------------------------- 6. bad input


def test_unknown_bot_names_the_bundled_bots() -> None:
    done = arena("tournament", "run", "--bot", "nosuchbot", "--bot", "random", "--no-progress")
    assert done.returncode == 2
    line = error_line(done)
    assert "nosuchbot" in line
    for name in ("random", "aggressive", "js-random"):
        assert name in line


def test_seats_need_enough_bots() -> None:
    done = arena("tournament", "run", "--bot", "random", "--bot", "aggressive", "--seats", "3")
    assert done.returncode == 2
    assert "3 seats per match need at least 3 different bots, got 2" in error_line(done)
    assert recorded_count() == 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('bots = ["random"\n', "invalid TOML"),
        ('bots = ["random", "aggressive"]\ncolour = "red"\n', "unknown keys ['colour']"),
        ('bots = ["random", "aggressive"]\nseats = "two"\n', "seats must be a whole number"),
        ('bots = ["random", "aggressive"]\nrules = 3\n', "rules must be a table"),
        ('bots = "random"\n', "bots must be a list"),
        (
            'bots = ["random", "aggressive"]\nfresh_process = 1\n',
            "fresh_process must be true or false",
        ),
        ('bots = ["random", "aggressive"]\n[rules]\nmax_rounds = "many"\n', "max_rounds"),
    ],
    ids=[
        "syntax",
        "unknown-key",
        "seats-type",
        "rules-type",
        "bots-type",
        "bool-type",
        "rules-value",
    ],
)
def test_bad_config_files(tmp_path: Path, text: str, expected: str) -> None:
    config = tmp_path / "tournament.toml"
    config.write_text(text)
    done = arena("tournament", "run", "--config", str(config), "--no-progress")
    assert done.returncode == 2, done.stderr
    assert expected in error_line(done)
    assert recorded_count() == 0


def test_missing_config_file(tmp_path: Path) -> None:
    done = arena("tournament", "run", "--config", str(tmp_path / "nope.toml"))
    assert done.returncode == 2
    assert "no tournament file" in error_line(done)


def test_a_config_file_runs(tmp_path: Path) -> None:
    config = tmp_path / "tournament.toml"
    config.write_text(
        'bots = ["random", "aggressive"]\nname = "from toml"\nseed = 9\nworkers = 2\n'
        "[rules]\nmax_rounds = 6\n"
    )
    board = json.loads(ok("tournament", "run", "--config", str(config), "--no-progress", "--json"))
    assert len(board["rows"]) == 2
    listed = tournaments()
    assert [(t["name"], t["seed"], t["planned"], t["recorded"]) for t in listed] == [
        ("from toml", 9, 2, 2)
    ]


def test_leaderboard_of_an_empty_database() -> None:
    done = arena("leaderboard")
    assert done.returncode != 0
    assert "no results yet" in error_line(done)
    done = arena("matches", "--tournament", "nope")
    assert done.returncode == 2
    assert "no tournament 'nope'" in error_line(done)
    done = arena("tournament", "resume", "nope", "--no-progress")
    assert done.returncode == 2
    assert "no tournament 'nope'" in error_line(done)
    assert json.loads(ok("matches", "--json")) == []
    assert json.loads(ok("tournament", "list", "--json")) == []


def test_a_busy_database_stops_the_tournament_and_loses_nothing(
    scheduler: Callable[[list[str]], Scheduler],
) -> None:
    run = scheduler(tournament_args(rounds="1", max_rounds=20, seed=41))
    wait_until(lambda: recorded_count() >= 1, "a recorded match", process=run.process)
    family = descendants(run.pid)
    lock = sqlite3.connect(str(db_path()), timeout=20, isolation_level=None)
    try:
        lock.execute("BEGIN EXCLUSIVE")  # waits for the scheduler's transaction, if any
        held = recorded_count()
        # Readers are not blocked (WAL): the leaderboard still works meanwhile.
        board = json.loads(ok("leaderboard", "--json"))
        assert board["rows"]
        # The scheduler cannot record its next match: after the busy timeout it stops.
        code = run.wait()
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    assert code == 2, run.stderr
    errors = [e for e in run.stderr.splitlines() if e.startswith("arena: error:")]
    assert errors and "the database is busy" in errors[-1], run.stderr
    assert "Traceback" not in run.stderr
    assert_no_survivors(family)

    tournament_id = only_tournament_id()
    assert assert_prefix(tournament_id) == held  # nothing written meanwhile, nothing lost
    ok("tournament", "resume", tournament_id, "--no-progress", "--json")
    assert_plan_recorded_once(tournament_id)
    assert tournaments()[0]["status"] == "finished"
    assert_rebuild_keeps_ratings()


def _snapshot(path: Path) -> tuple[Any, ...]:
    return (
        query("SELECT id, plan_index, seed, turns FROM matches ORDER BY id", path=path),
        query("SELECT id, status FROM tournaments ORDER BY id", path=path),
        query("SELECT * FROM ratings ORDER BY pool, version_id", path=path),
    )


def test_a_read_only_database_is_refused_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    """The results folder and file not writable: a clear error, the file unchanged.

    Root ignores permission bits, so as root the commands run as ``nobody`` (via ``setpriv``)
    on a copy in a folder nobody may write; otherwise the folder and file are chmod-ed."""
    folder = Path(tempfile.mkdtemp(prefix="arena-readonly-"))
    try:
        monkeypatch.setenv("ARENA_HOME", str(folder))
        ok(*tournament_args(bots=["random", "aggressive"], workers=1))
        db = folder / "arena.db"
        assert not (folder / "arena.db-wal").exists()  # checkpointed on close
        before = _snapshot(db)
        prefix: tuple[str, ...] = ()
        if os.geteuid() == 0:
            setpriv = shutil.which("setpriv")
            if setpriv is None:
                pytest.skip("running as root without setpriv: cannot take write permission away")
            prefix = (setpriv, "--reuid", "65534", "--regid", "65534", "--clear-groups")
            probe = subprocess.run(
                [*prefix, ARENA, "--version"], capture_output=True, text=True, check=False
            )
            if probe.returncode != 0:
                # E.g. a checkout inside a private (0700) temporary folder.
                pytest.skip(
                    f"an unprivileged user cannot run this checkout's arena: {probe.stderr}"
                )
            folder.chmod(0o755)
            db.chmod(0o644)
        else:
            db.chmod(0o444)
            folder.chmod(0o555)
        run_args = tournament_args(bots=["random", "aggressive"], seed=6, workers=1)
        for args in (run_args, ["ratings", "rebuild"]):
            done = arena(*args, "--db", str(db), prefix=prefix)
            assert done.returncode == 2, (args, done.stdout, done.stderr)
            assert "read-only" in error_line(done), done.stderr
        # Reading may work (SQLite reads a closed WAL file without its -shm) or fail clearly.
        done = arena("leaderboard", "--json", "--db", str(db), prefix=prefix)
        if done.returncode == 0:
            assert len(json.loads(done.stdout)["rows"]) == 2
        else:
            assert done.returncode == 2
            assert "read-only" in error_line(done), done.stderr

        # A writable folder but a read-only file: reading works, writing is refused.
        if os.geteuid() == 0:
            folder.chmod(0o777)
        else:
            folder.chmod(0o755)
        board = json.loads(arena("leaderboard", "--json", "--db", str(db), prefix=prefix).stdout)
        assert len(board["rows"]) == 2
        done = arena(*run_args, "--db", str(db), prefix=prefix)
        assert done.returncode == 2
        assert "read-only" in error_line(done)
        assert _snapshot(db) == before
        assert not using_home(folder)
    finally:
        folder.chmod(0o755)
        with contextlib.suppress(OSError):
            (folder / "arena.db").chmod(0o644)
        shutil.rmtree(folder, ignore_errors=True)


def test_results_are_never_deleted() -> None:
    ok(*tournament_args(bots=["random", "aggressive"], seed=1))
    first = query(
        "SELECT id, tournament_id, plan_index, seed, turns, replay FROM matches ORDER BY id"
    )
    first_seats = query("SELECT * FROM seats ORDER BY match_id, seat")
    assert len(first) == 2
    # A second tournament (a different pool: 3 seats) and a rebuild only add.
    ok(
        *tournament_args(
            bots=["random", "aggressive", "js-random"] if HAVE_NODE else ["random", "aggressive"],
            seats=3 if HAVE_NODE else 2,
            seed=2,
        )
    )
    ok("ratings", "rebuild")
    listed = tournaments()
    assert len(listed) == 2
    assert all(t["status"] == "finished" for t in listed)
    ids = {m[0] for m in first}
    after = query(
        "SELECT id, tournament_id, plan_index, seed, turns, replay FROM matches ORDER BY id"
    )
    assert [m for m in after if m[0] in ids] == first
    seats_after = query("SELECT * FROM seats ORDER BY match_id, seat")
    assert [s for s in seats_after if s[0] in ids] == first_seats
    assert len(after) == 2 + listed[1]["planned"]
    assert len(json.loads(ok("matches", "--json"))) == len(after)
    # Each tournament's own leaderboard still shows its bots.
    first_board = json.loads(ok("leaderboard", "--json", "--tournament", listed[0]["id"]))
    assert {r["bot"] for r in first_board["rows"]} == {"random", "aggressive"}


# --------------------------------------------------------------------------- 7. reports


def test_reports_json_and_csv() -> None:
    board = json.loads(ok(*tournament_args(bots=["random", "aggressive"], rounds="2", seed=8)))
    tournament_id = board["tournament"]

    matches = json.loads(ok("matches", "--json"))
    assert [m["plan_index"] for m in matches] == [0, 1, 2, 3]
    for m in matches:
        assert {
            "id",
            "tournament",
            "plan_index",
            "pool",
            "seed",
            "end",
            "winner",
            "turns",
            "finished_at",
            "seats",
        } <= set(m)
        assert m["tournament"] == tournament_id
        assert m["pool"] == "classic/2p/world"
        assert sorted(s["bot"] for s in m["seats"]) == ["aggressive", "random"]
        assert {s["status"] for s in m["seats"]} == {"OK"}
    assert json.loads(ok("matches", "--json", "--tournament", tournament_id)) == matches

    table = list(csv.reader(io.StringIO(ok("matches", "--csv"))))
    assert table[0] == [
        "id",
        "tournament",
        "plan_index",
        "pool",
        "seed",
        "end",
        "winner",
        "turns",
        "finished_at",
        "seats",
    ]
    assert [row[0] for row in table[1:]] == [m["id"] for m in matches]

    board_csv = ok("leaderboard", "--csv")
    rows = list(csv.DictReader(io.StringIO(board_csv)))
    assert [r["bot"] for r in rows] == [r["bot"] for r in board["rows"]]
    header = board_csv.splitlines()[0].split(",")
    assert header[:3] == ["rank", "bot", "version"]
    assert {
        "mu",
        "sigma",
        "mu_minus_3sigma",
        "games",
        "wins",
        "avg_place",
        "think_ms_p50",
        "think_ms_p99",
    } <= set(header)
    assert any(h.startswith("faults_") for h in header)
    for row, expected in zip(rows, board["rows"], strict=True):
        assert float(row["mu"]) == pytest.approx(expected["mu"])
        assert int(row["games"]) == expected["games"] == 4

    # The plain leaderboard agrees with what `tournament run --json` printed.
    again = json.loads(ok("leaderboard", "--json"))
    assert [(r["bot"], r["mu"], r["sigma"]) for r in again["rows"]] == [
        (r["bot"], r["mu"], r["sigma"]) for r in board["rows"]
    ]
    text = ok("leaderboard")
    assert "Leaderboard" in text and "aggressive" in text

    listed = tournaments()
    assert len(listed) == 1
    assert set(listed[0]) == {
        "id",
        "name",
        "status",
        "seed",
        "planned",
        "recorded",
        "created_at",
        "finished_at",
    }
    assert listed[0]["id"] == tournament_id
    assert (listed[0]["status"], listed[0]["seed"]) == ("finished", 8)
    assert listed[0]["planned"] == listed[0]["recorded"] == 4
    assert listed[0]["finished_at"] >= listed[0]["created_at"]
    assert tournament_id in ok("tournament", "list")


@needs_node
def test_demo_runs_end_to_end() -> None:
    """Classic RISK, then RISK: Europe, each ending with its leaderboard."""
    out = ok("demo", "--no-progress")
    assert "Leaderboard · classic/3p/world" in out and "Leaderboard · europe/4p" in out
    for name in ("random", "continent", "js-heuristic", "strong", "js-europe", "europe-heuristic"):
        assert name in out
    by_name = {t["name"]: t["id"] for t in tournaments()}
    assert set(by_name) == {"demo", "demo-europe"}
    # Classic: every 3-combination of the 4 bots, each in its 3 seat rotations.
    assert f"tournament {by_name['demo']}: 12 matches recorded in {db_path()}" in out
    assert assert_plan_recorded_once(by_name["demo"]) == 12
    # Europe: the 4 bots in each of their 4 seat rotations.
    assert f"tournament {by_name['demo-europe']}: 4 matches recorded in {db_path()}" in out
    assert assert_plan_recorded_once(by_name["demo-europe"]) == 4
    assert out.index("classic/3p/world") < out.index("europe/4p")
    last = out.rstrip().splitlines()[-1]
    prefix, _, rest = last.partition(" web --db ")
    assert prefix.startswith("see it in the browser: ")
    assert rest == f"{db_path()}  →  http://127.0.0.1:8000/"
    shown = prefix.removeprefix("see it in the browser: ")  # runnable as printed, from here
    assert Path(shutil.which(shown) or shown).resolve() == Path(ARENA).resolve(), shown
    assert not using_home(home())
