"""CPU seconds per seat in the results: stored with each seat, summed per (pool, version) in the
totals a pool's board reads (kept match by match, and equal after a rebuild), shown as a
per-match mean; a database of before the column opens and migrates, its seats without a figure."""

from __future__ import annotations

import random
import statistics
from pathlib import Path

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from arena.results.reports import leaderboard
from arena.results.store import MIGRATIONS, Store, open_store
from arena.results.store import totals as pool_totals
from tests.test_pool_totals import POOLS, add_versions, random_match


def with_cpu(rng: random.Random, n: int) -> tuple[dict, list[dict]]:
    match, seats = random_match(rng, n)
    for seat in seats:  # an in-process seat has no figure
        seat["cpu_s"] = None if rng.random() < 0.3 else round(rng.uniform(0.0, 3.0), 3)
    return match, seats


def means(store: Store, pool: str) -> dict[str, float | None]:
    """Each version's mean CPU seconds per measured seat in ``pool``, from the seats."""
    found: dict[str, list[float]] = {}
    for vid, cpu in store._tuples(
        "SELECT s.version_id, s.cpu_s FROM seats s JOIN matches m ON m.id = s.match_id"
        " WHERE m.pool = ?",
        (pool,),
    ):
        found.setdefault(vid, [])
        if cpu is not None:
            found[vid].append(cpu)
    return {vid: statistics.fmean(v) if v else None for vid, v in found.items()}


def board_cpu(store: Store, pool: str, tournament: str | None = None) -> dict[str, float | None]:
    return {r["version_id"]: r["cpu_s_per_match"] for r in store.leaderboard_rows(pool, tournament)}


def close(a: dict[str, float | None], b: dict[str, float | None]) -> bool:
    return a.keys() == b.keys() and all(
        (a[k] is None and b[k] is None)
        or (a[k] is not None and b[k] is not None and abs(a[k] - b[k]) < 1e-9)  # type: ignore[operator]
        for k in a
    )


def test_the_board_shows_the_mean_cpu_per_match_kept_match_by_match(tmp_path: Path) -> None:
    store = open_store(tmp_path / "arena.db")
    add_versions(store)
    rng = random.Random(5)
    for n in range(80):
        match, seats = with_cpu(rng, n)
        store.record_match(match, seats, b"", [], [])
        assert [s["cpu_s"] for s in store.seats_of(match["id"])] == [s["cpu_s"] for s in seats]
        for pool in POOLS:
            assert close(board_cpu(store, pool), means(store, pool)), (n, pool)
    before = {pool: board_cpu(store, pool) for pool in POOLS}
    store.rebuild_totals()
    for pool in POOLS:
        assert close(board_cpu(store, pool), before[pool])
    rows = leaderboard(store, POOLS[0])["rows"]
    assert all("cpu_s_per_match" in row for row in rows)
    assert any(row["cpu_s_per_match"] is not None for row in rows)


def test_a_version_never_measured_has_no_mean(tmp_path: Path) -> None:
    store = open_store(tmp_path / "arena.db")
    add_versions(store)
    rng = random.Random(8)
    match, seats = random_match(rng, 0)
    store.record_match(match, seats, b"", [], [])  # no cpu_s given: in-process seats
    assert set(board_cpu(store, match["pool"]).values()) == {None}
    assert {s["cpu_s"] for s in store.seats_of(match["id"])} == {None}


def test_a_database_of_before_cpu_seconds_migrates(tmp_path: Path) -> None:
    older = Migrations("arena")
    for migration in MIGRATIONS.pending(Database(memory=True)):
        if migration.name != "0010_seat_cpu":
            older(name=migration.name)(migration.fn)
    path = tmp_path / "old.db"
    rng = random.Random(2)
    with open_store(path, migrations=older) as old:
        add_versions(old)
        match, seats = random_match(rng, 0)
        with old._write("record seats the way an older arena did") as db:
            db.table("matches").insert(
                {**{k: v for k, v in match.items() if k != "rules"}, "rules_json": "{}",
                 "seat_count": len(seats), "replay": b""}
            )  # fmt: skip
            db.table("seats").insert_all({**s, "match_id": match["id"]} for s in seats)
            pool_totals.add_match(db, match["pool"], seats)
    with open_store(path) as upgraded:
        assert set(board_cpu(upgraded, match["pool"]).values()) == {None}
        later, later_seats = with_cpu(rng, 1)
        later_seats = [{**s, "cpu_s": 1.5} for s in seats]
        later["pool"] = match["pool"]
        later["game"] = match["game"]
        upgraded.record_match({**later, "id": "m-later"}, later_seats, b"", [], [])
        assert close(board_cpu(upgraded, match["pool"]), means(upgraded, match["pool"]))
