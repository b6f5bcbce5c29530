"""``arena web`` latency on a large results database while a tournament writes to it.

Builds a database of at least ``--matches`` matches (10,000 by default) in a temporary folder:
a real small tournament of each game (classic 3 seats, RISK: Europe 2 seats, bots in-process),
then copies of its rows (tournaments, plan, matches, seats, rating history) under new ids.
Serves it with ``arena web`` (uvicorn, its own process) and, while ``arena tournament run``
records matches into the same file, measures over HTTP, one request at a time:

* the front page ``/`` (every pool's leaderboard) and ``/api/leaderboards/{pool}``
  (target p99 ≤ 100 ms);
* a match page ready to play: ``/matches/{id}`` and the viewer's first frames
  ``/api/matches/{id}/frames``, timed together, first on a replay not viewed before (its
  frames are re-played from the stored replay) and then again (kept by the server)
  (target p99 ≤ 300 ms).

Then, in-process on the same file: each pool's leaderboard as ``arena leaderboard`` reads
it (its query, interpreter start-up aside; target ≤ 200 ms), the pool list, and recording a
match with ``Store.record_match`` at the writer (target ≤ 5 ms).

The copies are made with bulk SQL (one ``INSERT … SELECT`` per table), then the pools'
totals are recomputed from the copied seats once (``Store.rebuild_totals``): about 3 GB of
disk and some minutes at ``--matches 1000000``.

    python benchmarks/web.py [--matches 10000] [--requests 300] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.web.browser

from tests.web.browser import arena_command, web_server

SOURCES = (
    ["--bot", "random", "--bot", "aggressive", "--bot", "continent", "--seats", "3",
     "--rounds", "12", "--rules", "max_rounds=40", "--seed", "5", "--name", "bench-classic"],
    ["--game", "europe", "--bot", "random", "--bot", "europe-heuristic", "--seats", "2",
     "--rounds", "6", "--rules", "max_rounds=15", "--seed", "6", "--name", "bench-europe"],
)  # fmt: skip
"""The real tournaments whose rows are copied: 36 classic and 12 Europe matches, more distinct
replays than the server keeps frames of, so a first view re-plays its replay."""
WRITER = (
    "--bot", "random", "--bot", "aggressive", "--bot", "continent", "--seats", "3",
    "--rounds", "1000", "--rules", "max_rounds=10", "--seed", "7", "--name", "bench-writer",
    "--workers", "1",
)  # fmt: skip
"""The tournament writing to the database while the pages are measured (stopped after)."""
COPIED = {
    "tournaments": ("id",),
    "plan": ("tournament_id",),
    "matches": ("id", "tournament_id"),
    "seats": ("match_id",),
    "rating_history": ("match_id",),
}
"""The tables copied, in foreign-key order, and the id columns each copy renames."""
TARGETS = {"leaderboard": 100.0, "match page": 300.0}


def arena(home: Path, *args: str) -> None:
    subprocess.run(
        arena_command(*args), env={**os.environ, "ARENA_HOME": str(home)}, check=True,
        stdout=subprocess.DEVNULL,
    )  # fmt: skip


def build(db: Path, home: Path, want: int) -> int:
    """Fill ``db`` with the source tournaments and enough copies of their rows for ``want``
    matches; returns the number of matches."""
    for args in SOURCES:
        arena(home, "tournament", "run", *args, "--in-process", "--no-progress", "--db", str(db))
    with sqlite3.connect(db) as conn:
        source = conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
        copies = math.ceil(want / source) - 1
        for table, renamed in COPIED.items():
            columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
            chosen = ", ".join(f"{c} || '-' || k.n" if c in renamed else c for c in columns)
            conn.execute(
                f"WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < ?)"
                f" INSERT INTO {table} ({', '.join(columns)})"
                f" SELECT {chosen} FROM {table}, k WHERE {renamed[0]} NOT LIKE '%-%'",
                (copies,),
            )
        conn.commit()
        if has_totals(conn):
            from arena.results.store import open_store

            with open_store(db) as store:
                store.rebuild_totals()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return int(conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0])


def has_totals(conn: sqlite3.Connection) -> bool:
    """Whether the database keeps pool totals (an arena from before them has none)."""
    found = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'pool_versions'").fetchone()
    return found is not None


def timed(url: str) -> float:
    """Milliseconds to fetch ``url`` whole (a failure stops the benchmark)."""
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as answer:
        answer.read()
        assert answer.status == 200, (url, answer.status)
    return (time.perf_counter() - started) * 1000


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def measure(name: str, urls: Callable[[], list[str]], count: int) -> dict[str, float | str | int]:
    """p50, p99 and max of ``count`` fetches of what ``urls`` gives (a page and the data its
    script loads at once count as one)."""
    times = [sum(timed(u) for u in urls()) for _ in range(count)]
    return {
        "name": name,
        "n": count,
        "p50": statistics.median(times),
        "p99": percentile(times, 99),
        "max": max(times),
    }


def main() -> int:
    """Build, serve, write, measure, print; the temporary folder goes unless ``--keep``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--keep", type=Path, help="build the database in DIR and keep it")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="arena-web-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        return run(args, folder)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


def run(args: argparse.Namespace, folder: Path) -> int:
    home, db = folder / "home", folder / "arena.db"
    home.mkdir(exist_ok=True)
    started = time.perf_counter()
    total = build(db, home, args.matches)
    size = db.stat().st_size
    print(f"database: {total} matches in {db} ({size / 1e6:.0f} MB,"
          f" built in {time.perf_counter() - started:.0f} s, {size / total:.0f} bytes a match)")  # fmt: skip
    with sqlite3.connect(db) as conn:
        pools = [row[0] for row in conn.execute("SELECT DISTINCT pool FROM matches ORDER BY 1")]
        by_replay: dict[str, list[str]] = {}
        for match_id, original in conn.execute(
            "SELECT id, substr(id, 1, instr(id || '-', '-') - 1) FROM matches"
        ):
            by_replay.setdefault(original, []).append(match_id)
        before = conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
    rng = random.Random(1)
    env = {**os.environ, "ARENA_HOME": str(home)}
    writer_args = ("tournament", "run", *WRITER, "--in-process", "--no-progress", "--db", str(db))
    with web_server(db, folder / "server.log") as url:
        writer = subprocess.Popen(
            arena_command(*writer_args), env=env, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            timed(f"{url}/")  # the server's first answer imports what the pages need
            rows = [
                measure("/", lambda: [f"{url}/"], args.requests),
                measure(
                    "/api/leaderboards/{pool}",
                    lambda: [f"{url}/api/leaderboards/{rng.choice(pools)}"],
                    args.requests,
                ),
            ]
            cold = [rng.choice(ids) for ids in by_replay.values()]  # one per distinct replay
            firsts = iter(cold)

            def match_page(match_id: str) -> list[str]:
                return [f"{url}/matches/{match_id}", f"{url}/api/matches/{match_id}/frames"]

            rows += [
                measure("/matches/{id} first view", lambda: match_page(next(firsts)), len(cold)),
                measure("/matches/{id} again", lambda: match_page(rng.choice(cold)), args.requests),
            ]
            writing = writer.poll() is None
        finally:
            writer.terminate()
            writer.wait()
    with sqlite3.connect(db) as conn:
        written = conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0] - before
    print(f"while a tournament wrote {written} matches (still writing at the end: {writing})")
    print(f"{'route':34} {'n':>5} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}  target")
    for row in rows:
        target = TARGETS["match page" if "matches" in str(row["name"]) else "leaderboard"]
        verdict = "met" if float(row["p99"]) <= target else "MISSED"
        print(
            f"{row['name']:34} {row['n']:>5} {row['p50']:>8.1f} {row['p99']:>8.1f}"
            f" {row['max']:>8.1f}  p99 ≤ {target:.0f} ms: {verdict}"
        )
    where_the_time_goes(db, pools)
    recording(db)
    return 0


def where_the_time_goes(db: Path, pools: list[str]) -> None:
    """Each pool's leaderboard as ``arena leaderboard`` reads it (the rows and the fault
    flags), and the pool list, timed in this process (no HTTP, no writer)."""
    from arena.results import reports
    from arena.results.store import open_store

    with open_store(db, read_only=True) as store:
        for pool in pools:
            started = time.perf_counter()
            board = reports.leaderboard(store, pool)
            took = (time.perf_counter() - started) * 1000
            count = sum(int(row["games"]) for row in board["rows"])
            print(f"in-process: {pool} board {took:.1f} ms over {count} seats", end="; ")
        started = time.perf_counter()
        store.pools()
        print(f"the pool list {(time.perf_counter() - started) * 1000:.1f} ms")


def recording(db: Path, count: int = 200) -> None:
    """``Store.record_match`` at the writer, ``count`` times: each a copy of a recorded match
    (its seats, rating changes and current ratings, its stored replay) under a new id."""
    from arena.results.store import CompressedReplay, open_store

    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        row = dict(
            conn.execute(
                "SELECT m.*, COALESCE(r.rules_json, m.rules_json) AS rules FROM matches m"
                " LEFT JOIN match_rules r ON r.id = m.rules_id WHERE m.pool LIKE 'classic%' LIMIT 1"
            ).fetchone()
        )
        seats = [
            dict(s) for s in conn.execute("SELECT * FROM seats WHERE match_id = ?", (row["id"],))
        ]
        changes = [
            dict(c)
            for c in conn.execute(
                "SELECT pool, version_id, mu_before, sigma_before, mu_after, sigma_after"
                " FROM rating_history WHERE match_id = ?",
                (row["id"],),
            )
        ]
        ratings = [
            dict(r) for r in conn.execute(
                "SELECT pool, version_id, mu, sigma, games FROM ratings WHERE pool = ?",
                (row["pool"],),
            )
        ]  # fmt: skip
    replay = CompressedReplay(row.pop("replay"))
    match = {
        **{k: row[k] for k in ("game", "pool", "seed", "end_reason", "winner_seat", "turns",
                                "rounds", "decisions", "started_at", "finished_at")},
        "rules": json.loads(row["rules"]),
    }  # fmt: skip
    for seat in seats:
        del seat["match_id"]
    times = []
    with open_store(db) as store:
        for n in range(count):
            started = time.perf_counter()
            store.record_match({**match, "id": f"recorded-{n}"}, seats, replay, changes, ratings)
            times.append((time.perf_counter() - started) * 1000)
    print(
        f"record_match: n {count}, p50 {statistics.median(times):.2f} ms,"
        f" p99 {percentile(times, 99):.2f} ms, max {max(times):.2f} ms (target ≤ 5 ms)"
    )


if __name__ == "__main__":
    sys.exit(main())
