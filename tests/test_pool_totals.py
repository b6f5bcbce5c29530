"""The per-(pool, version) totals a pool's leaderboard reads: after every match of a randomized
run they equal a full recomputation from the seats, as do the fault counts and the pool list;
a rebuild and the migration that backfills an older database give the same totals."""

from __future__ import annotations

import math
import random
import statistics
from pathlib import Path
from typing import Any

import pytest
from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from arena.results.store import MIGRATIONS, Store, open_store
from arena.results.store import totals as pool_totals

POOLS = ("classic/3p/world", "europe/2p")
VERSIONS = [f"bot{i}@{i}" for i in range(5)]
STATUSES = ("OK", "OK", "OK", "OK", "TIMEOUT", "CRASH", "ILLEGAL")


def recomputed_board(store: Store, pool: str) -> list[dict[str, Any]]:
    """The pool's board computed from every seat, as the leaderboard always defined it."""
    seats = store._rows(
        "SELECT s.version_id, s.place, s.status, s.think_ms_p50, s.think_ms_p99, s.cpu_s, v.bot,"
        " v.label"
        " FROM seats s JOIN matches m ON m.id = s.match_id JOIN versions v ON v.id = s.version_id"
        " WHERE m.pool = ?",
        (pool,),
    )
    ratings = {r["version_id"]: r for r in store.ratings(pool)}
    grouped: dict[str, list[dict[str, Any]]] = {}
    for seat in seats:
        grouped.setdefault(seat["version_id"], []).append(seat)
    rows = []
    for vid, played in grouped.items():
        faults: dict[str, int] = {}
        for s in played:
            if s["status"] != "OK":
                faults[s["status"]] = faults.get(s["status"], 0) + 1
        p50s = sorted(s["think_ms_p50"] for s in played if s["think_ms_p50"] is not None)
        p99s = sorted(s["think_ms_p99"] for s in played if s["think_ms_p99"] is not None)
        tail = p99s[max(0, math.ceil(0.95 * len(p99s)) - 1)] if p99s else None
        cpu = [s["cpu_s"] for s in played if s["cpu_s"] is not None]
        rating = ratings.get(vid, {})
        rows.append(
            {
                "bot": played[0]["bot"],
                "label": played[0]["label"],
                "version_id": vid,
                "mu": rating.get("mu"),
                "sigma": rating.get("sigma"),
                "games": rating.get("games") or 0,
                "matches": len(played),
                "wins": sum(1 for s in played if s["place"] == 1),
                "avg_place": statistics.fmean(s["place"] for s in played),
                "faults": dict(sorted(faults.items())),
                "think_ms_p50": statistics.median(p50s) if p50s else None,
                "think_ms_p99_p95": tail,
                "think_ms_p99": tail,
                "cpu_s_per_match": statistics.fmean(cpu) if cpu else None,
            }
        )
    rated = [r for r in rows if r["mu"] is not None]
    rated.sort(key=lambda r: (-(r["mu"] - 3 * r["sigma"]), r["bot"], r["version_id"]))
    unrated = sorted(
        (r for r in rows if r["mu"] is None), key=lambda r: (r["bot"], r["version_id"])
    )
    return rated + unrated


def recomputed_fault_counts(store: Store) -> dict[str, tuple[int, int]]:
    rows = store._tuples(
        "SELECT version_id, COUNT(DISTINCT match_id),"
        " COUNT(DISTINCT CASE WHEN status <> 'OK' THEN match_id END) FROM seats GROUP BY version_id"
    )
    return {vid: (n, faulted) for vid, n, faulted in rows}


def think_time(rng: random.Random) -> float | None:
    """Often repeated values (ties), sometimes none, sometimes a fresh one."""
    roll = rng.random()
    if roll < 0.1:
        return None
    if roll < 0.6:
        return float(rng.choice((0.5, 1.25, 2.0, 3.0)))
    return round(rng.uniform(0.0, 50.0), 3)


def random_match(rng: random.Random, n: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    pool = rng.choice(POOLS)
    size = 2 if pool.startswith("europe") else 3
    # sometimes the same version in two seats of one match
    versions = [rng.choice(VERSIONS) for _ in range(size)]
    places = list(range(1, size + 1))
    rng.shuffle(places)
    seats = [
        {
            "seat": i,
            "version_id": vid,
            "bot": vid.split("@")[0],
            "place": places[i],
            "status": rng.choice(STATUSES),
            "think_ms_p50": think_time(rng),
            "think_ms_p99": think_time(rng),
        }
        for i, vid in enumerate(versions)
    ]
    match = {
        "id": f"m{n}",
        "game": pool.split("/")[0],
        "pool": pool,
        "rules": {},
        "seed": n,
        "end_reason": "domination",
        "turns": 1,
        "rounds": 1,
        "decisions": 1,
        "started_at": f"2026-01-01T00:00:{n:06d}",
        "finished_at": f"2026-01-01T00:00:{n:06d}",
    }
    return match, seats


def totals_table(store: Store) -> list[tuple[Any, ...]]:
    """Every stored total, cursors and histograms included, keyed by pool and version."""
    rows = store._tuples(
        "SELECT pool, version_id, seats, wins, place_sum, faults_json, matches, faulted_matches,"
        " p50_count, p50_at, p50_below, p99_count, p99_at, p99_below, think_ms_p50,"
        " think_ms_p99_p95 FROM pool_versions ORDER BY pool, version_id"
    )
    histograms = store._tuples(
        "SELECT p.pool, p.version_id, t.which, t.value, t.n FROM think_times t"
        " JOIN pool_versions p ON p.id = t.pool_version ORDER BY 1, 2, 3, 4"
    )
    return [*map(tuple, rows), *map(tuple, histograms)]


def add_versions(store: Store) -> None:
    for vid in VERSIONS:
        bot, label = vid.split("@")
        store.add_bot(bot, "python", "", f"/bots/{bot}")
        store.add_version(vid, bot, label)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    opened = open_store(tmp_path / "arena.db")
    add_versions(opened)
    return opened


def test_totals_equal_a_recomputation_after_every_match(store: Store) -> None:
    rng = random.Random(47)
    for n in range(160):
        match, seats = random_match(rng, n)
        ratings = [
            {"pool": match["pool"], "version_id": s["version_id"], "mu": rng.uniform(10, 40),
             "sigma": rng.uniform(1, 8), "games": n}
            for s in seats
        ]  # fmt: skip
        store.record_match(match, seats, b"", [], ratings)
        for pool in POOLS:
            assert store.leaderboard_rows(pool) == recomputed_board(store, pool), (n, pool)
        assert store.fault_counts() == recomputed_fault_counts(store)
        assert store.fault_counts(VERSIONS[:2]) == {
            vid: counts for vid, counts in recomputed_fault_counts(store).items()
            if vid in VERSIONS[:2]
        }  # fmt: skip
    assert store.pools() == sorted(POOLS)


def test_a_rebuild_gives_the_totals_kept_match_by_match(store: Store) -> None:
    rng = random.Random(3)
    for n in range(60):
        store.record_match(*random_match(rng, n), b"", [], [])
    kept = totals_table(store)
    marks = store.change_marks()
    store.replace_ratings([], [])  # a ratings rebuild recomputes the totals too
    assert totals_table(store) == kept
    assert store.change_marks() != marks  # a reader's kept boards are read again


def test_a_recorded_match_moves_the_change_marks(store: Store) -> None:
    before = store.change_marks()
    store.record_match(*random_match(random.Random(1), 0), b"", [], [])
    assert store.change_marks() != before


def test_the_migration_backfills_an_older_database(tmp_path: Path) -> None:
    older = Migrations("arena")
    for migration in MIGRATIONS.pending(Database(memory=True)):
        if migration.name != "0007_pool_totals":
            older(name=migration.name)(migration.fn)
    path = tmp_path / "old.db"
    rng = random.Random(9)
    with open_store(path, migrations=older) as old:
        add_versions(old)
        with old._write("record seats the way an older arena did") as db:
            for n in range(40):
                match, seats = random_match(rng, n)
                db.table("matches").insert(
                    {**{k: v for k, v in match.items() if k != "rules"}, "rules_json": "{}",
                     "seat_count": len(seats), "replay": b""}
                )  # fmt: skip
                db.table("seats").insert_all({**s, "match_id": match["id"]} for s in seats)
    with open_store(path) as upgraded:
        for pool in POOLS:
            assert upgraded.leaderboard_rows(pool) == recomputed_board(upgraded, pool)
        assert upgraded.fault_counts() == recomputed_fault_counts(upgraded)
        backfilled = totals_table(upgraded)
        with upgraded._write("rebuild") as db:
            pool_totals.rebuild(db)
        assert totals_table(upgraded) == backfilled
