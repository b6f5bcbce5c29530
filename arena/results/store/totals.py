"""Per-(pool, version) totals (tables ``pool_versions`` and ``think_times``): what a pool's
leaderboard shows, kept up to date by the transaction that records each match, so a board
costs a read per version instead of a read per seat of the pool.

A row of ``pool_versions`` holds the counts (seats played, wins, the sum of places, faults
by status, distinct matches and faulted ones, for the fault flags) and the two think-time
figures exactly as a full recomputation gives them: the median of per-match p50s and the
nearest-rank 95th percentile of per-match p99s. Those are order statistics, so each is
kept with its sorted values: ``think_times`` counts every distinct value a version's seats
recorded in the pool (a histogram; in practice far fewer rows than seats), and the row keeps
a cursor into it (the value at the figure's rank and how many values lie below it). A new
value moves the rank by at most one, and the cursor by one step of the index at most, so
adding a match costs a few index lookups however many matches the pool has.

:func:`add_match` is called inside ``record_match``'s transaction; :func:`rebuild` recomputes
every row from the seats (the migration that introduced them, ``arena ratings rebuild``, and
tools that copy rows in bulk).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

P50, P99 = 0, 1
"""``think_times.which``: a seat's per-match p50 or p99."""

TOTALS_COLUMNS = (
    "seats",
    "wins",
    "place_sum",
    "faults_json",
    "matches",
    "faulted_matches",
    "think_ms_p50",
    "think_ms_p99_p95",
)
"""What a leaderboard reads of a ``pool_versions`` row (besides its keys)."""

SCHEMA = (
    """CREATE TABLE pool_versions (
        id INTEGER PRIMARY KEY,
        pool TEXT NOT NULL,
        version_id TEXT NOT NULL REFERENCES versions(id),
        seats INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        place_sum INTEGER NOT NULL,
        faults_json TEXT NOT NULL,
        matches INTEGER NOT NULL,
        faulted_matches INTEGER NOT NULL,
        p50_count INTEGER NOT NULL,
        p50_at REAL,
        p50_below INTEGER NOT NULL,
        p99_count INTEGER NOT NULL,
        p99_at REAL,
        p99_below INTEGER NOT NULL,
        think_ms_p50 REAL,
        think_ms_p99_p95 REAL,
        UNIQUE (pool, version_id)
    )""",
    """CREATE TABLE think_times (
        pool_version INTEGER NOT NULL REFERENCES pool_versions(id),
        which INTEGER NOT NULL,
        value REAL NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (pool_version, which, value)
    ) WITHOUT ROWID""",
    """CREATE TABLE leaderboard_revision (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        revision INTEGER NOT NULL
    )""",
)
"""The tables, created by migration ``0007_pool_totals``. ``leaderboard_revision`` moves on
every write that can change a leaderboard (a match recorded, ratings rebuilt), so a reader
can keep a board until it does (no row yet: revision 0)."""
CPU_SCHEMA = """CREATE TABLE pool_cpu (
    pool_version INTEGER PRIMARY KEY REFERENCES pool_versions(id),
    cpu_s_sum REAL NOT NULL,
    cpu_count INTEGER NOT NULL
)"""
"""The table migration ``0010_seat_cpu`` adds: per (pool, version), the sum of its seats'
CPU seconds and how many seats had a figure (an in-process seat has none), for a per-match
mean. A table of its own, so the tables of ``0007_pool_totals`` stay as they were made."""


def rank_of_median(count: int) -> int:
    """The 1-based rank of the (lower) median of ``count`` values."""
    return (count + 1) // 2


def rank_of_p95(count: int) -> int:
    """The 1-based nearest rank of the 95th percentile, computed as the leaderboard always
    has (``ceil(0.95 * n)``, in floating point)."""
    return max(1, math.ceil(0.95 * count))


@dataclass(slots=True)
class Cursor:
    """A position in a version's sorted think times: ``at`` is the value of rank ``rank``
    (1-based) among ``count`` values, ``below`` how many values are smaller than ``at``."""

    count: int
    at: float | None
    below: int


class _Histogram:
    """One version's think times of one kind, as stored: distinct values with their counts."""

    def __init__(self, db: Database, pool_version: int, which: int) -> None:
        self.db, self.key = db, (pool_version, which)

    def count(self, value: float) -> int:
        row = self.db.execute(
            "SELECT n FROM think_times WHERE pool_version = ? AND which = ? AND value = ?",
            (*self.key, value),
        ).fetchone()
        return int(row[0]) if row else 0

    def add(self, value: float) -> None:
        self.db.execute(
            "INSERT INTO think_times (pool_version, which, value, n) VALUES (?, ?, ?, 1)"
            " ON CONFLICT (pool_version, which, value) DO UPDATE SET n = n + 1",
            (*self.key, value),
        )

    def neighbour(self, value: float, after: bool) -> tuple[float, int]:
        """The next distinct value above (``after``) or below ``value``, with its count."""
        sql = (
            "SELECT value, n FROM think_times WHERE pool_version = ? AND which = ? AND value > ?"
            " ORDER BY value LIMIT 1"
            if after
            else "SELECT value, n FROM think_times WHERE pool_version = ? AND which = ?"
            " AND value < ? ORDER BY value DESC LIMIT 1"
        )
        row = self.db.execute(sql, (*self.key, value)).fetchone()
        assert row is not None, "a cursor stepped past the ends of its histogram"
        return float(row[0]), int(row[1])


def _insert(histogram: _Histogram, cursor: Cursor, value: float, rank: int) -> float:
    """Add ``value``, move the cursor to ``rank`` (of the new count) and return its value."""
    histogram.add(value)
    if cursor.at is None:
        cursor.count, cursor.at, cursor.below = 1, value, 0
        return value
    if value < cursor.at:
        cursor.below += 1
    cursor.count += 1
    while rank <= cursor.below:
        cursor.at, n = histogram.neighbour(cursor.at, after=False)
        cursor.below -= n
    while rank > cursor.below + (here := histogram.count(cursor.at)):
        cursor.below += here
        cursor.at, _ = histogram.neighbour(cursor.at, after=True)
    return cursor.at


def _median(histogram: _Histogram, cursor: Cursor) -> float:
    """The median (the mean of the two middle values for an even count), the cursor being at
    the lower middle rank."""
    assert cursor.at is not None
    if cursor.count % 2:
        return cursor.at
    upper = rank_of_median(cursor.count) + 1
    if upper <= cursor.below + histogram.count(cursor.at):
        return cursor.at
    following, _ = histogram.neighbour(cursor.at, after=True)
    return (cursor.at + following) / 2


def add_match(db: Database, pool: str, seats: Iterable[Mapping[str, Any]]) -> None:
    """Count one recorded match's seats into its pool's totals (inside the caller's
    transaction), and move the leaderboard revision."""
    by_version: dict[str, list[Mapping[str, Any]]] = {}
    for seat in seats:
        by_version.setdefault(str(seat["version_id"]), []).append(seat)
    for version_id, played in by_version.items():
        _add_seats(db, pool, version_id, played)
    bump_revision(db)


def bump_revision(db: Database) -> None:
    db.execute(
        "INSERT INTO leaderboard_revision (id, revision) VALUES (1, 1)"
        " ON CONFLICT (id) DO UPDATE SET revision = revision + 1"
    )


def _add_seats(db: Database, pool: str, version_id: str, played: list[Mapping[str, Any]]) -> None:
    db.execute(
        "INSERT INTO pool_versions (pool, version_id, seats, wins, place_sum, faults_json,"
        " matches, faulted_matches, p50_count, p50_below, p99_count, p99_below)"
        " VALUES (?, ?, 0, 0, 0, '{}', 0, 0, 0, 0, 0, 0) ON CONFLICT (pool, version_id) DO NOTHING",
        (pool, version_id),
    )
    row = db.execute(
        "SELECT id, seats, wins, place_sum, faults_json, matches, faulted_matches, p50_count,"
        " p50_at, p50_below, p99_count, p99_at, p99_below, think_ms_p50, think_ms_p99_p95"
        " FROM pool_versions WHERE pool = ? AND version_id = ?",
        (pool, version_id),
    ).fetchone()
    key = int(row[0])
    faults: dict[str, int] = json.loads(row[4])
    for seat in played:
        if seat["status"] != "OK":
            faults[seat["status"]] = faults.get(seat["status"], 0) + 1
    p50, p99 = Cursor(row[7], row[8], row[9]), Cursor(row[10], row[11], row[12])
    median, tail = row[13], row[14]
    lower, upper = _Histogram(db, key, P50), _Histogram(db, key, P99)
    for seat in played:
        if seat.get("think_ms_p50") is not None:
            _insert(lower, p50, float(seat["think_ms_p50"]), rank_of_median(p50.count + 1))
            median = _median(lower, p50)
        if seat.get("think_ms_p99") is not None:
            tail = _insert(upper, p99, float(seat["think_ms_p99"]), rank_of_p95(p99.count + 1))
    cpu = [float(s["cpu_s"]) for s in played if s.get("cpu_s") is not None]
    if cpu:
        db.execute(
            "INSERT INTO pool_cpu (pool_version, cpu_s_sum, cpu_count) VALUES (?, ?, ?)"
            " ON CONFLICT (pool_version) DO UPDATE SET"
            " cpu_s_sum = cpu_s_sum + excluded.cpu_s_sum,"
            " cpu_count = cpu_count + excluded.cpu_count",
            (key, sum(cpu), len(cpu)),
        )
    db.execute(
        "UPDATE pool_versions SET seats = ?, wins = ?, place_sum = ?, faults_json = ?,"
        " matches = ?, faulted_matches = ?, p50_count = ?, p50_at = ?, p50_below = ?,"
        " p99_count = ?, p99_at = ?, p99_below = ?, think_ms_p50 = ?, think_ms_p99_p95 = ?"
        " WHERE id = ?",
        (
            row[1] + len(played),
            row[2] + sum(1 for s in played if s["place"] == 1),
            row[3] + sum(int(s["place"]) for s in played),
            json.dumps(dict(sorted(faults.items()))),
            row[5] + 1,
            row[6] + (1 if any(s["status"] != "OK" for s in played) else 0),
            p50.count,
            p50.at,
            p50.below,
            p99.count,
            p99.at,
            p99.below,
            median,
            tail,
            key,
        ),
    )


def rebuild(db: Database) -> None:
    """Recompute every total from the seats of every match (inside the caller's transaction,
    or on its own): counts in one grouped query, the histograms in another, and each
    version's cursors by walking its histogram once. The caller moves the revision
    (:func:`bump_revision`) if readers may hold boards."""
    cpu = db["pool_cpu"].exists()  # not yet while migration 0007 rebuilds
    if cpu:
        db.execute("DELETE FROM pool_cpu")
    db.execute("DELETE FROM think_times")
    db.execute("DELETE FROM pool_versions")
    db.execute(
        "INSERT INTO pool_versions (pool, version_id, seats, wins, place_sum, faults_json,"
        " matches, faulted_matches, p50_count, p50_below, p99_count, p99_below)"
        " SELECT m.pool, s.version_id, COUNT(*), SUM(s.place = 1), SUM(s.place), '{}',"
        " COUNT(DISTINCT s.match_id),"
        " COUNT(DISTINCT CASE WHEN s.status <> 'OK' THEN s.match_id END),"
        " COUNT(s.think_ms_p50), 0, COUNT(s.think_ms_p99), 0"
        " FROM seats s JOIN matches m ON m.id = s.match_id"
        " GROUP BY m.pool, s.version_id ORDER BY m.pool, s.version_id"
    )
    faults: dict[int, dict[str, int]] = {}
    for key, status, n in db.execute(
        "SELECT p.id, s.status, COUNT(*) FROM seats s JOIN matches m ON m.id = s.match_id"
        " JOIN pool_versions p ON p.pool = m.pool AND p.version_id = s.version_id"
        " WHERE s.status <> 'OK' GROUP BY p.id, s.status ORDER BY p.id, s.status"
    ).fetchall():
        faults.setdefault(int(key), {})[str(status)] = int(n)
    for which, column in ((P50, "think_ms_p50"), (P99, "think_ms_p99")):
        db.execute(
            "INSERT INTO think_times (pool_version, which, value, n)"
            f" SELECT p.id, {which}, s.{column}, COUNT(*) FROM seats s"
            " JOIN matches m ON m.id = s.match_id"
            " JOIN pool_versions p ON p.pool = m.pool AND p.version_id = s.version_id"
            f" WHERE s.{column} IS NOT NULL GROUP BY p.id, s.{column}"
        )
    if cpu:
        db.execute(
            "INSERT INTO pool_cpu (pool_version, cpu_s_sum, cpu_count)"
            " SELECT p.id, SUM(s.cpu_s), COUNT(s.cpu_s) FROM seats s"
            " JOIN matches m ON m.id = s.match_id"
            " JOIN pool_versions p ON p.pool = m.pool AND p.version_id = s.version_id"
            " WHERE s.cpu_s IS NOT NULL GROUP BY p.id"
        )
    for key, p50_count, p99_count in db.execute(
        "SELECT id, p50_count, p99_count FROM pool_versions"
    ).fetchall():
        p50 = _walk(db, key, P50, p50_count, rank_of_median(p50_count))
        p99 = _walk(db, key, P99, p99_count, rank_of_p95(p99_count))
        median = _median(_Histogram(db, key, P50), p50) if p50.at is not None else None
        db.execute(
            "UPDATE pool_versions SET faults_json = ?, p50_at = ?, p50_below = ?, p99_at = ?,"
            " p99_below = ?, think_ms_p50 = ?, think_ms_p99_p95 = ? WHERE id = ?",
            (
                json.dumps(faults.get(key, {})),
                p50.at,
                p50.below,
                p99.at,
                p99.below,
                median,
                p99.at,
                key,
            ),
        )


def _walk(db: Database, key: int, which: int, count: int, rank: int) -> Cursor:
    """The cursor at ``rank`` of a histogram, found by walking it in order."""
    below = 0
    for value, n in db.execute(
        "SELECT value, n FROM think_times WHERE pool_version = ? AND which = ? ORDER BY value",
        (key, which),
    ):
        if rank <= below + n:
            return Cursor(count, float(value), below)
        below += n
    return Cursor(0, None, 0)
