"""The results store on real SQLite files: migrations, one-transaction writes, refusals and
the errors a person sees when the file is unusable."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlite_utils import Database
from sqlite_utils.db import Table
from sqlite_utils.migrations import Migrations

import arena.results.store.connect
import arena.results.store.matches
from arena.errors import ArenaError
from arena.results.store import (
    MIGRATIONS,
    DamagedReplayError,
    DuplicateMatchError,
    Store,
    StoreBusyError,
    StoreError,
    open_store,
)

TABLES = {
    "bots",
    "versions",
    "tournaments",
    "plan",
    "matches",
    "seats",
    "ratings",
    "rating_history",
}


def replay_text(lines: int = 200) -> bytes:
    """A replay-like JSONL: repetitive, as real replays are, so gzip shrinks it."""
    records = [{"type": "header", "format": "risk-arena-replay", "version": 1, "seed": 7}]
    records += [
        {"type": "decision", "seat": i % 3, "kind": "attack", "think_ms": 1.5, "events": []}
        for i in range(lines)
    ]
    return "".join(json.dumps(r) + "\n" for r in records).encode()


def match_dict(
    match_id: str, plan_index: int | None, tournament: str | None = "t1", **extra: Any
) -> dict[str, Any]:
    return {
        "id": match_id,
        "tournament_id": tournament,
        "plan_index": plan_index,
        "game": "classic",
        "pool": "classic-3p",
        "rules": {"players": 3, "cards": "escalating"},
        "seed": 100 + (plan_index or 0),
        "end_reason": "conquest",
        "winner_seat": 0,
        "turns": 40,
        "rounds": 14,
        "decisions": 321,
        "started_at": "2026-01-01T10:00:00+00:00",
        "finished_at": "2026-01-01T10:00:05+00:00",
        **extra,
    }


def seat(
    n: int,
    version: str,
    place: int,
    status: str = "OK",
    p50: float | None = 1.0,
    p99: float | None = 5.0,
) -> dict[str, Any]:
    return {
        "seat": n,
        "version_id": version,
        "bot": version.split("@")[0],
        "place": place,
        "status": status,
        "strikes": 0 if status == "OK" else 3,
        "think_ms_p50": p50,
        "think_ms_p99": p99,
    }


def change(version: str, mu_after: float) -> dict[str, Any]:
    return {
        "pool": "classic-3p",
        "version_id": version,
        "mu_before": 25.0,
        "sigma_before": 8.333,
        "mu_after": mu_after,
        "sigma_after": 7.0,
    }


def rating(version: str, mu: float, sigma: float = 7.0, games: int = 1) -> dict[str, Any]:
    return {"pool": "classic-3p", "version_id": version, "mu": mu, "sigma": sigma, "games": games}


def plan(n: int) -> list[dict[str, Any]]:
    return [
        {
            "plan_index": i,
            "round": i // 3,
            "rotation_group": i // 3,
            "seed": 100 + i,
            "seats": ["a@1", "b@1", "c@1"],
        }
        for i in range(n)
    ]


def three_seats() -> list[dict[str, Any]]:
    return [seat(0, "a@1", 1), seat(1, "b@1", 2), seat(2, "c@1", 3)]


def record(
    store: Store, match_id: str, plan_index: int | None, tournament: str | None = "t1"
) -> None:
    store.record_match(
        match_dict(match_id, plan_index, tournament),
        three_seats(),
        replay_text(),
        [change("a@1", 27.0), change("b@1", 25.0), change("c@1", 23.0)],
        [rating("a@1", 27.0), rating("b@1", 25.0), rating("c@1", 23.0)],
    )


def count(store: Store, table: str) -> int:
    return store.db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]


def nothing_of(store: Store, match_id: str) -> None:
    """Assert no trace of a match anywhere."""
    assert store.match(match_id) is None
    assert store.seats_of(match_id) == []
    assert count(store, "rating_history") == 0
    assert count(store, "ratings") == 0
    assert store.recorded_indices("t1") == set()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "results" / "arena.db"


@pytest.fixture
def store(db_path: Path) -> Iterator[Store]:
    with open_store(db_path) as opened:
        for bot in ("a", "b", "c"):
            opened.add_bot(bot, "python", f"bot {bot}", f"bots/{bot}")
            opened.add_version(f"{bot}@1", bot, "1.0")
        opened.create_tournament("t1", "first", {"players": 3}, 42, plan(6))
        yield opened


# -- migrations and connection settings ------------------------------------------------------


def test_open_creates_folder_file_and_schema_by_migration(db_path: Path) -> None:
    with open_store(db_path) as store:
        assert db_path.is_file()
        assert set(store.db.table_names()) >= TABLES
        applied = store.db.execute("SELECT migration_set, name FROM _sqlite_migrations").fetchall()
        assert applied == [("arena", name) for name in SHIPPED]
        assert SHIPPED[:2] == ["0001_initial", "0002_out_order"]
        assert MIGRATIONS.pending(store.db) == []


def test_connection_uses_wal_busy_timeout_and_foreign_keys(db_path: Path) -> None:
    with open_store(db_path, busy_timeout_ms=1234) as store:
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.db.execute("PRAGMA busy_timeout").fetchone()[0] == 1234
        assert store.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_reopening_applies_nothing_twice_and_keeps_data(db_path: Path) -> None:
    with open_store(db_path) as store:
        store.add_bot("a", "python", "first", "bots/a")
        first = store.db.execute("SELECT * FROM _sqlite_migrations").fetchall()
    with open_store(db_path) as store:
        assert store.db.execute("SELECT * FROM _sqlite_migrations").fetchall() == first
        assert [b["name"] for b in store.bots()] == ["a"]


def shipped_migrations() -> list[Any]:
    """Every migration this arena ships, in order (all are pending on an empty database)."""
    return MIGRATIONS.pending(Database(memory=True))


SHIPPED = [m.name for m in shipped_migrations()]


def later_migrations() -> Migrations:
    """The shipped migrations plus a later one that adds a column."""
    later = Migrations("arena")
    for shipped in shipped_migrations():
        later(name=shipped.name)(shipped.fn)

    @later(name="0099_match_notes")
    def _notes(db: Database) -> None:
        db.table("matches").add_column("notes", str)

    return later


def test_older_database_is_upgraded_by_a_later_migration(store: Store, db_path: Path) -> None:
    record(store, "m0", 0)
    store.close()
    later = later_migrations()
    older = Database(db_path)
    assert [m.name for m in later.pending(older)] == ["0099_match_notes"]
    older.close()
    with open_store(db_path, migrations=later) as upgraded:
        assert "notes" in upgraded.db.table("matches").columns_dict
        assert later.pending(upgraded.db) == []
        assert upgraded.match("m0") is not None
        assert upgraded.replay("m0") == replay_text()
    with open_store(db_path, migrations=later) as again:
        assert count(again, "_sqlite_migrations") == len(SHIPPED) + 1


# -- a database made by the first arena ------------------------------------------------------

OLDEST_SCHEMA = (
    """CREATE TABLE bots (
        name TEXT PRIMARY KEY,
        language TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        path TEXT NOT NULL,
        added_at TEXT NOT NULL
    )""",
    """CREATE TABLE versions (
        id TEXT PRIMARY KEY,
        bot TEXT NOT NULL REFERENCES bots(name),
        label TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (id, bot)
    )""",
    """CREATE TABLE tournaments (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        settings_json TEXT NOT NULL,
        seed INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'planned'
            CHECK (status IN ('planned', 'running', 'stopped', 'finished')),
        created_at TEXT NOT NULL,
        finished_at TEXT,
        planned INTEGER NOT NULL
    )""",
    """CREATE TABLE plan (
        tournament_id TEXT NOT NULL REFERENCES tournaments(id),
        plan_index INTEGER NOT NULL,
        round INTEGER NOT NULL,
        rotation_group INTEGER,
        seed INTEGER NOT NULL,
        seats_json TEXT NOT NULL,
        PRIMARY KEY (tournament_id, plan_index)
    )""",
    """CREATE TABLE matches (
        id TEXT PRIMARY KEY,
        tournament_id TEXT REFERENCES tournaments(id),
        plan_index INTEGER,
        game TEXT NOT NULL,
        pool TEXT NOT NULL,
        seat_count INTEGER NOT NULL,
        rules_json TEXT NOT NULL,
        seed INTEGER NOT NULL,
        end_reason TEXT NOT NULL,
        winner_seat INTEGER,
        turns INTEGER NOT NULL,
        rounds INTEGER NOT NULL,
        decisions INTEGER NOT NULL,
        started_at TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        replay BLOB NOT NULL,
        UNIQUE (tournament_id, plan_index),
        CHECK ((tournament_id IS NULL) = (plan_index IS NULL)),
        FOREIGN KEY (tournament_id, plan_index) REFERENCES plan(tournament_id, plan_index)
    )""",
    """CREATE TABLE seats (
        match_id TEXT NOT NULL REFERENCES matches(id),
        seat INTEGER NOT NULL,
        version_id TEXT NOT NULL,
        bot TEXT NOT NULL,
        place INTEGER NOT NULL,
        status TEXT NOT NULL,
        strikes INTEGER NOT NULL DEFAULT 0,
        think_ms_p50 REAL,
        think_ms_p99 REAL,
        PRIMARY KEY (match_id, seat),
        FOREIGN KEY (version_id, bot) REFERENCES versions(id, bot)
    )""",
    "CREATE INDEX seats_version ON seats(version_id)",
    """CREATE TABLE ratings (
        pool TEXT NOT NULL,
        version_id TEXT NOT NULL REFERENCES versions(id),
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (pool, version_id)
    )""",
    """CREATE TABLE rating_history (
        match_id TEXT NOT NULL REFERENCES matches(id),
        pool TEXT NOT NULL,
        version_id TEXT NOT NULL REFERENCES versions(id),
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu_after REAL NOT NULL,
        sigma_after REAL NOT NULL,
        PRIMARY KEY (match_id, version_id)
    )""",
    "CREATE INDEX rating_history_version ON rating_history(version_id)",
)
"""The tables of the first arena that had a results database (migration 0001_initial, as it
ran then): kept here verbatim, so a later edit of the shipped migration cannot hide that old
files would not match it."""

OLDEST_BOOKKEEPING = {
    "id-keyed": (
        "CREATE TABLE [_sqlite_migrations] ([id] INTEGER PRIMARY KEY, [migration_set] TEXT,"
        " [name] TEXT, [applied_at] TEXT)",
        "CREATE UNIQUE INDEX [idx__sqlite_migrations_migration_set_name]"
        " ON [_sqlite_migrations] ([migration_set], [name])",
    ),
    "keyed-by-set-and-name": (
        "CREATE TABLE [_sqlite_migrations] ([migration_set] TEXT, [name] TEXT,"
        " [applied_at] TEXT, PRIMARY KEY ([migration_set], [name]))",
    ),
}
"""sqlite-utils's record of applied migrations: its current form, and one keyed by set and
name, which it converts on the next migration."""


def make_oldest_database(path: Path, bookkeeping: tuple[str, ...]) -> None:
    """A results file as the first arena left it: schema 0001 only, with a bot, a version, a
    running tournament with a plan, one recorded match (seats, gzipped replay) and its ratings."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    with conn:
        for statement in (*OLDEST_SCHEMA, *bookkeeping):
            conn.execute(statement)
        conn.execute(
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at)"
            " VALUES ('arena', '0001_initial', '2026-11-29 12:00:00.000000+00:00')"
        )
        for bot in ("a", "b", "c"):
            conn.execute(
                "INSERT INTO bots VALUES (?, 'python', '', ?, '2026-11-29T12:00:00.000000+00:00')",
                (bot, f"bots/{bot}"),
            )
            conn.execute(
                "INSERT INTO versions VALUES (?, ?, '1.0', '2026-11-29T12:00:01.000000+00:00')",
                (f"{bot}@1", bot),
            )
        conn.execute(
            "INSERT INTO tournaments (id, name, settings_json, seed, status, created_at, planned)"
            " VALUES ('t1', 'first', '{\"players\": 3}', 42, 'running',"
            " '2026-11-29T12:00:02.000000+00:00', 2)"
        )
        for index in (0, 1):
            conn.execute(
                'INSERT INTO plan VALUES (\'t1\', ?, 0, 0, ?, \'["a@1", "b@1", "c@1"]\')',
                (index, 100 + index),
            )
        conn.execute(
            "INSERT INTO matches VALUES ('m0', 't1', 0, 'classic', 'classic-3p', 3,"
            " '{\"players\": 3}', 100, 'conquest', 0, 40, 14, 321,"
            " '2026-11-29T12:00:03+00:00', '2026-11-29T12:00:04+00:00', ?)",
            (gzip.compress(replay_text()),),
        )
        for n, (version, mu) in enumerate([("a@1", 27.0), ("b@1", 25.0), ("c@1", 23.0)]):
            conn.execute(
                "INSERT INTO seats VALUES ('m0', ?, ?, ?, ?, 'OK', 0, 1.0, 5.0)",
                (n, version, version[0], n + 1),
            )
            conn.execute(
                "INSERT INTO ratings VALUES ('classic-3p', ?, ?, 7.0, 1,"
                " '2026-11-29T12:00:04.000000+00:00')",
                (version, mu),
            )
            conn.execute(
                "INSERT INTO rating_history VALUES ('m0', 'classic-3p', ?, 25.0, 8.333, ?, 7.0)",
                (version, mu),
            )
    conn.close()


def arena_schema(db: Database) -> list[tuple[str, str]]:
    """The arena's tables and indexes as SQLite keeps them (not sqlite-utils's bookkeeping)."""
    return db.execute(
        "SELECT name, sql FROM sqlite_master WHERE name NOT LIKE '%sqlite%' ORDER BY name"
    ).fetchall()


@pytest.mark.parametrize("bookkeeping", OLDEST_BOOKKEEPING.values(), ids=OLDEST_BOOKKEEPING)
def test_a_database_made_by_the_first_arena_opens_and_migrates(
    tmp_path: Path, bookkeeping: tuple[str, ...]
) -> None:
    old = tmp_path / "old" / "arena.db"
    make_oldest_database(old, bookkeeping)
    with open_store(tmp_path / "fresh.db") as fresh:
        wanted = arena_schema(fresh.db)
    with open_store(old) as store:
        applied = store.db.execute(
            "SELECT migration_set, name FROM _sqlite_migrations ORDER BY rowid"
        ).fetchall()
        assert applied == [("arena", name) for name in SHIPPED]
        assert arena_schema(store.db) == wanted  # exactly the tables of a new database
        # What the first arena recorded reads back, with the later columns empty.
        match = store.match("m0")
        assert match is not None
        assert (match["rules"], match["out_order"], match["seat_count"]) == (
            {"players": 3},
            None,
            3,
        )
        assert store.replay("m0") == replay_text()
        assert [s["version_id"] for s in store.seats_of("m0")] == ["a@1", "b@1", "c@1"]
        tournament = store.tournament("t1")
        assert tournament is not None
        assert (tournament["stored_status"], tournament["status"]) == ("running", "interrupted")
        assert store.recorded_indices("t1") == {0}
        board = store.leaderboard_rows("classic-3p")
        assert [(r["bot"], r["mu"], r["matches"]) for r in board] == [
            ("a", 27.0, 1),
            ("b", 25.0, 1),
            ("c", 23.0, 1),
        ]
        assert store.faulted_seats("t1") == []
        # And it takes what later arenas write: out order, seat logs, remote bots, serves.
        store.record_match(
            match_dict("m1", 1, out_order=[2, 1]),
            [{**s, "log": f"logs/{s['seat']}.log"} for s in three_seats()],
            replay_text(),
            [change("a@1", 28.0), change("b@1", 25.0), change("c@1", 22.0)],
            [
                rating("a@1", 28.0, games=2),
                rating("b@1", 25.0, games=2),
                rating("c@1", 22.0, games=2),
            ],
        )
        assert store.match("m1")["out_order"] == [2, 1]  # type: ignore[index]
        assert store.seat_logs("t1")[("m1", 2)] == "logs/2.log"
        store.add_remote_bot("far", ["classic"], "1", "dials in")
        assert store.remote_bot_named("far")
        store.start_serve("s1", os.getpid(), "here", "127.0.0.1:0")
        assert [s["id"] for s in store.serves()] == ["s1"]
    with open_store(old, read_only=True) as reader:
        assert MIGRATIONS.pending(reader.db) == []
        assert [m["id"] for m in reader.matches("t1")] == ["m0", "m1"]


# -- recording matches -------------------------------------------------------------------------


def test_record_match_round_trip(store: Store) -> None:
    raw = replay_text()
    record(store, "m0", 0)
    match = store.match("m0")
    assert match is not None
    assert match["rules"] == {"players": 3, "cards": "escalating"}
    assert (match["tournament_id"], match["plan_index"], match["seat_count"]) == ("t1", 0, 3)
    assert (match["winner_seat"], match["turns"], match["decisions"]) == (0, 40, 321)
    stored = store.db.execute("SELECT replay FROM matches WHERE id = 'm0'").fetchone()[0]
    assert len(stored) < len(raw)
    assert gzip.decompress(stored) == raw
    assert store.replay("m0") == raw
    assert [(s["seat"], s["version_id"], s["place"]) for s in store.seats_of("m0")] == [
        (0, "a@1", 1),
        (1, "b@1", 2),
        (2, "c@1", 3),
    ]
    assert {r["version_id"]: r["mu"] for r in store.ratings("classic-3p")} == {
        "a@1": 27.0,
        "b@1": 25.0,
        "c@1": 23.0,
    }
    assert [h["version_id"] for h in store.rating_history("a@1")] == ["a@1"]
    assert store.recorded_indices("t1") == {0}
    assert store.pools() == ["classic-3p"]
    tournament = store.tournament("t1")
    assert tournament is not None
    assert (tournament["recorded"], tournament["planned"]) == (1, 6)


def test_later_ratings_are_upserted(store: Store) -> None:
    record(store, "m0", 0)
    store.record_match(
        match_dict("m1", 1),
        three_seats(),
        b"{}\n",
        [change("a@1", 29.0)],
        [rating("a@1", 29.0, sigma=6.0, games=2)],
    )
    current = {r["version_id"]: (r["mu"], r["games"]) for r in store.ratings()}
    assert current == {"a@1": (29.0, 2), "b@1": (25.0, 1), "c@1": (23.0, 1)}
    assert len(store.rating_history("a@1")) == 2


def test_a_failing_row_mid_write_leaves_nothing_of_the_match(store: Store) -> None:
    # The match and its seats go in first; the unknown version in the history then fails.
    with pytest.raises(StoreError, match="constraint"):
        store.record_match(
            match_dict("m0", 0),
            three_seats(),
            replay_text(),
            [change("a@1", 27.0), change("nobody@9", 1.0)],
            [rating("a@1", 27.0)],
        )
    nothing_of(store, "m0")


def test_an_exception_after_the_match_insert_rolls_everything_back(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    inserted: list[str] = []
    real_insert_all = Table.insert_all

    def spy(self: Table, records: Any, *args: Any, **kwargs: Any) -> Table:
        inserted.append(self.name)
        return real_insert_all(self, records, *args, **kwargs)

    def boom(self: Table, *args: Any, **kwargs: Any) -> Table:
        raise RuntimeError("power cut")

    monkeypatch.setattr(Table, "insert_all", spy)
    monkeypatch.setattr(Table, "upsert_all", boom)
    with pytest.raises(RuntimeError, match="power cut"):
        record(store, "m0", 0)
    assert inserted[:3] == ["matches", "seats", "rating_history"]
    nothing_of(store, "m0")
    monkeypatch.undo()
    record(store, "m0", 0)  # the connection is usable afterwards
    assert store.recorded_indices("t1") == {0}


def test_a_planned_match_is_recorded_exactly_once(store: Store) -> None:
    record(store, "m0", 0)
    with pytest.raises(DuplicateMatchError, match="plan index 0"):
        store.record_match(
            match_dict("m0-again", 0),
            three_seats(),
            b"x",
            [change("a@1", 99.0)],
            [rating("a@1", 99.0)],
        )
    assert store.match("m0-again") is None
    assert store.seats_of("m0-again") == []
    assert {r["version_id"]: r["mu"] for r in store.ratings()}["a@1"] == 27.0
    assert count(store, "rating_history") == 3


def test_the_schema_itself_refuses_a_duplicate_plan_index(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    record(store, "m0", 0)
    monkeypatch.setattr(arena.results.store.matches, "_refuse_duplicate", lambda db, match: None)
    with pytest.raises(StoreError, match="UNIQUE"):
        record(store, "m0-again", 0)
    assert store.match("m0-again") is None
    assert count(store, "matches") == 1


def test_match_outside_the_plan_or_with_unknown_versions_is_refused(store: Store) -> None:
    with pytest.raises(StoreError, match="no plan entry 99"):
        record(store, "m99", 99)
    with pytest.raises(StoreError, match="no version 'z@1'"):
        store.record_match(match_dict("m0", 0), [seat(0, "z@1", 1)], b"", [], [])
    nothing_of(store, "m0")


def test_ad_hoc_matches_need_no_tournament(store: Store) -> None:
    record(store, "adhoc", None, tournament=None)
    record(store, "adhoc2", None, tournament=None)
    assert [m["id"] for m in store.matches()] == ["adhoc", "adhoc2"]


def test_malformed_rows_are_refused_with_the_expected_keys(store: Store) -> None:
    with pytest.raises(StoreError, match=r"unknown \['colour'\]"):
        store.record_match(match_dict("m0", 0, colour="red"), three_seats(), b"", [], [])
    with pytest.raises(StoreError, match=r"missing \['place'\]"):
        store.record_match(
            match_dict("m0", 0),
            [{"seat": 0, "version_id": "a@1", "bot": "a", "status": "OK"}],
            b"",
            [],
            [],
        )
    nothing_of(store, "m0")


# -- bots, versions, tournaments ------------------------------------------------------------


def test_add_version_is_idempotent_and_keeps_its_bot(store: Store) -> None:
    store.add_version("a@1", "a", "1.0")
    assert len(store.versions("a")) == 1
    with pytest.raises(StoreError, match="already belongs to bot 'a'"):
        store.add_version("a@1", "b", "1.0")
    with pytest.raises(StoreError, match="unknown bot 'ghost'"):
        store.add_version("g@1", "ghost", "0.1")


def test_tournament_plan_round_trip_and_status(store: Store) -> None:
    assert store.planned("t1") == plan(6)
    store.set_tournament_status("t1", "running")
    assert store.tournament("t1")["finished_at"] is None  # type: ignore[index]
    store.set_tournament_status("t1", "finished")
    finished = store.tournament("t1")
    assert finished is not None
    assert (finished["status"], finished["settings"], finished["seed"]) == (
        "finished",
        {"players": 3},
        42,
    )
    assert finished["finished_at"] is not None
    with pytest.raises(StoreError, match="unknown tournament status"):
        store.set_tournament_status("t1", "paused")
    with pytest.raises(StoreError, match="no tournament 'nope'"):
        store.set_tournament_status("nope", "running")
    assert store.tournament("nope") is None


def test_a_bad_plan_writes_no_tournament(store: Store) -> None:
    with pytest.raises(StoreError):
        store.create_tournament("t2", "broken", {}, 1, plan(2) + plan(1))
    assert store.tournament("t2") is None
    assert store.planned("t2") == []
    with pytest.raises(StoreError, match="already exists"):
        store.create_tournament("t1", "again", {}, 1, [])


def test_all_match_records_follow_tournament_creation_then_plan_order(store: Store) -> None:
    store.create_tournament("t2", "second", {}, 7, plan(3))
    for match_id, index, tournament in [
        ("x", 2, "t2"),
        ("y", 4, "t1"),
        ("z", 0, "t2"),
        ("w", 1, "t1"),
    ]:
        record(store, match_id, index, tournament)
    records = store.all_match_records()
    assert [(r["tournament_id"], r["plan_index"]) for r in records] == [
        ("t1", 1),
        ("t1", 4),
        ("t2", 0),
        ("t2", 2),
    ]
    assert [len(r["seats"]) for r in records] == [3, 3, 3, 3]
    assert [m["id"] for m in store.matches("t2")] == ["z", "x"]
    assert [h["match_id"] for h in store.rating_history("a@1")] == ["w", "y", "z", "x"]


def test_replace_ratings_rewrites_history_and_refuses_a_partial_rebuild(store: Store) -> None:
    record(store, "m0", 0)
    record(store, "m1", 1)
    rebuilt = [
        rating("a@1", 30.0, games=2),
        rating("b@1", 24.0, games=2),
        rating("c@1", 20.0, games=2),
    ]
    history = [
        {"match_id": m, **change(v, 26.0)} for m in ("m0", "m1") for v in ("a@1", "b@1", "c@1")
    ]
    with pytest.raises(StoreError, match="lacks current ratings"):
        store.replace_ratings(rebuilt[:2], history)
    assert count(store, "rating_history") == 6
    store.replace_ratings(rebuilt, history)
    assert {r["version_id"]: r["mu"] for r in store.ratings()} == {
        "a@1": 30.0,
        "b@1": 24.0,
        "c@1": 20.0,
    }
    assert {h["mu_after"] for h in store.rating_history()} == {26.0}
    assert count(store, "matches") == 2


# -- leaderboard --------------------------------------------------------------------------------


def test_leaderboard_rows(store: Store) -> None:
    store.create_tournament("t2", "second", {}, 7, plan(1))
    games = [
        (
            "m0",
            0,
            "t1",
            [
                seat(0, "a@1", 1, p50=1.0, p99=4.0),
                seat(1, "b@1", 2, p50=10.0, p99=50.0),
                seat(2, "c@1", 3, "TIMEOUT", p50=None, p99=None),
            ],
        ),
        (
            "m1",
            1,
            "t1",
            [
                seat(0, "b@1", 1, p50=20.0, p99=80.0),
                seat(1, "a@1", 2, p50=3.0, p99=9.0),
                seat(2, "c@1", 3, "CRASH", p50=2.0, p99=2.0),
            ],
        ),
        (
            "m2",
            2,
            "t1",
            [
                seat(0, "a@1", 1, p50=2.0, p99=6.0),
                seat(1, "c@1", 2, "TIMEOUT", p50=4.0, p99=30.0),
                seat(2, "b@1", 3, p50=30.0, p99=60.0),
            ],
        ),
        (
            "m3",
            0,
            "t2",
            [
                seat(0, "c@1", 1, p50=1.0, p99=1.0),
                seat(1, "a@1", 2, p50=1.0, p99=1.0),
                seat(2, "b@1", 3, p50=1.0, p99=1.0),
            ],
        ),
    ]
    for match_id, index, tournament, seats in games:
        store.record_match(match_dict(match_id, index, tournament), seats, b"{}\n", [], [])
    store.replace_ratings([rating("a@1", 30.0, 2.0, 4), rating("b@1", 29.0, 1.0, 4)], [])

    rows = {r["version_id"]: r for r in store.leaderboard_rows("classic-3p")}
    a, b, c = rows["a@1"], rows["b@1"], rows["c@1"]
    assert (a["bot"], a["label"], a["mu"], a["sigma"], a["games"]) == ("a", "1.0", 30.0, 2.0, 4)
    assert (a["matches"], a["wins"], a["avg_place"]) == (4, 2, 1.5)
    assert a["faults"] == {}
    assert a["think_ms_p50"] == 1.5  # median of 1, 3, 2, 1
    assert a["think_ms_p99_p95"] == a["think_ms_p99"] == 9.0  # < 20 matches: the worst p99
    assert (b["wins"], b["avg_place"], b["think_ms_p50"], b["think_ms_p99"]) == (
        1,
        2.25,
        15.0,
        80.0,
    )
    assert (c["mu"], c["games"], c["wins"], c["avg_place"]) == (None, 0, 1, 2.25)
    assert c["faults"] == {"CRASH": 1, "TIMEOUT": 2}
    assert c["think_ms_p50"] == 2.0  # the None p50 of a seat that never decided is skipped
    # Ordered by mu - 3 sigma, not mu: b (26) before a (24); unrated c last.
    assert [r["version_id"] for r in store.leaderboard_rows("classic-3p")] == ["b@1", "a@1", "c@1"]

    t2 = {r["version_id"]: r for r in store.leaderboard_rows("classic-3p", tournament_id="t2")}
    assert (t2["c@1"]["wins"], t2["c@1"]["matches"], t2["c@1"]["faults"]) == (1, 1, {})
    # No rating history in t2: its table shows no rating as of its end, not today's.
    assert (t2["a@1"]["mu"], t2["a@1"]["games"]) == (None, 0)
    assert store.leaderboard_rows("other-pool") == []


def test_think_p99_is_the_95th_percentile_once_there_are_enough_matches(store: Store) -> None:
    store.create_tournament("big", "big", {}, 1, plan(20))
    for i in range(20):
        p99 = 1000.0 if i == 0 else float(i)
        seats = [seat(0, "a@1", 1, p50=1.0, p99=p99), seat(1, "b@1", 2), seat(2, "c@1", 3)]
        store.record_match(match_dict(f"b{i}", i, "big"), seats, b"", [], [])
    (a,) = [r for r in store.leaderboard_rows("classic-3p") if r["version_id"] == "a@1"]
    assert a["think_ms_p99_p95"] == 19.0  # the one freak match (1000 ms) does not set the tail
    assert a["think_ms_p99"] == a["think_ms_p99_p95"]  # the older name, kept


# -- unusable files -------------------------------------------------------------------------------


def test_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "arena.db"
    path.write_bytes(b"this is a text file, not SQLite " * 100)
    with pytest.raises(StoreError, match="not a SQLite database") as caught:
        open_store(path)
    assert isinstance(caught.value, ArenaError)
    assert str(path) in str(caught.value)


def test_a_folder_in_place_of_the_file_or_its_parent(tmp_path: Path) -> None:
    (tmp_path / "arena.db").mkdir()
    with pytest.raises(StoreError, match="cannot be opened"):
        open_store(tmp_path / "arena.db")
    (tmp_path / "plain").write_text("a file")
    with pytest.raises(StoreError, match="is not a folder"):
        open_store(tmp_path / "plain" / "arena.db")
    with pytest.raises(StoreError, match="no folder"):  # a typo: nothing is made
        open_store(tmp_path / "typo" / "arena.db")
    assert not (tmp_path / "typo").exists()


def test_a_read_only_database_file_refuses_writes_clearly(
    store: Store, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.close()
    db_path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    if os.access(db_path, os.W_OK):
        # root ignores permission bits; open the way SQLite falls back for everyone else.
        real_connect = sqlite3.connect

        def read_only(database: str, **kwargs: Any) -> sqlite3.Connection:
            return real_connect(f"file:{database}?mode=ro", uri=True, **kwargs)

        monkeypatch.setattr(arena.results.store.connect.sqlite3, "connect", read_only)
    with open_store(db_path) as read_only_store:
        assert [b["name"] for b in read_only_store.bots()] == ["a", "b", "c"]
        with pytest.raises(StoreError, match="read-only"):
            read_only_store.add_bot("d", "python", "", "bots/d")
        with pytest.raises(StoreError, match="read-only"):
            record(read_only_store, "m0", 0)


def test_a_held_write_lock_is_reported_as_busy_after_the_timeout(db_path: Path) -> None:
    with open_store(db_path, busy_timeout_ms=200) as store:
        other = sqlite3.connect(db_path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        started = time.monotonic()
        try:
            with pytest.raises(StoreBusyError, match="busy") as caught:
                store.add_bot("a", "python", "", "bots/a")
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert time.monotonic() - started >= 0.15
        assert isinstance(caught.value, StoreError)
        store.add_bot("a", "python", "", "bots/a")  # free again once the lock is gone
        assert [b["name"] for b in store.bots()] == ["a"]


# -- a tournament's own leaderboard ----------------------------------------------------------------


def rated(store: Store, match_id: str, index: int, tournament: str, mus: dict[str, Any]) -> None:
    """Record a match whose seats finish in the order of ``mus`` ({version: (mu, sigma)})."""
    seats = [seat(n, version, n + 1) for n, version in enumerate(mus)]
    changes = [{**change(v, mu), "sigma_after": sigma} for v, (mu, sigma) in mus.items()]
    ratings = [rating(v, mu, sigma) for v, (mu, sigma) in mus.items()]
    store.record_match(match_dict(match_id, index, tournament), seats, b"", changes, ratings)


def test_a_tournament_leaderboard_shows_the_ratings_at_its_end(store: Store) -> None:
    store.create_tournament("t2", "second", {}, 7, plan(1))
    rated(store, "m0", 0, "t1", {"a@1": (27.0, 7.0), "b@1": (25.0, 7.0), "c@1": (23.0, 7.0)})
    # A later tournament's match may finish before an earlier one's: the record order counts.
    rated(store, "n0", 0, "t2", {"b@1": (35.0, 5.0), "c@1": (30.0, 5.0), "a@1": (20.0, 5.0)})
    rated(store, "m1", 1, "t1", {"a@1": (28.0, 6.0), "c@1": (22.0, 6.0), "b@1": (24.0, 6.0)})

    def figures(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
        return [(r["version_id"], r["mu"], r["sigma"], r["games"], r["matches"]) for r in rows]

    assert figures(store.leaderboard_rows("classic-3p", "t1")) == [
        ("a@1", 28.0, 6.0, 2, 2),
        ("b@1", 24.0, 6.0, 2, 2),
        ("c@1", 22.0, 6.0, 2, 2),
    ]
    # The ratings table holds whatever was written last (m1); t2 ended after three games each.
    assert figures(store.leaderboard_rows("classic-3p", "t2")) == [
        ("b@1", 35.0, 5.0, 3, 1),
        ("c@1", 30.0, 5.0, 3, 1),
        ("a@1", 20.0, 5.0, 3, 1),
    ]
    current = {r["version_id"]: r["mu"] for r in store.leaderboard_rows("classic-3p")}
    assert current == {"a@1": 28.0, "b@1": 24.0, "c@1": 22.0}


# -- reading without writing ------------------------------------------------------------------------


def test_readers_never_create_a_database(tmp_path: Path) -> None:
    typo = tmp_path / "typo" / "arena.db"
    for options in ({"read_only": True}, {"create": False}):
        with pytest.raises(StoreError) as caught:
            open_store(typo, **options)
        assert str(caught.value) == f"no results database at {typo}"
        assert not typo.parent.exists()


@pytest.fixture
def take_write_access(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Make folders (and the files in them) not writable; root ignores permission bits, so
    for root the store's one question to the system is answered as it would be for others."""
    taken: list[Path] = []

    def take(folder: Path) -> None:
        for file in folder.iterdir():
            file.chmod(0o444)
        folder.chmod(0o555)
        taken.append(folder.resolve())

    real = arena.results.store.connect._may_write
    monkeypatch.setattr(
        arena.results.store.connect,
        "_may_write",
        lambda path: real(path) and not any(path.resolve().is_relative_to(t) for t in taken),
    )
    yield take
    for folder in taken:
        folder.chmod(0o755)
        for file in folder.iterdir():
            file.chmod(0o644)


def test_a_database_in_a_read_only_folder_is_read_without_writing(
    store: Store, db_path: Path, take_write_access: Any
) -> None:
    record(store, "m0", 0)
    store.close()
    assert sorted(p.name for p in db_path.parent.iterdir()) == ["arena.db"]  # log checkpointed
    before = db_path.read_bytes()
    take_write_access(db_path.parent)
    with open_store(db_path, read_only=True) as reader:
        assert [b["name"] for b in reader.bots()] == ["a", "b", "c"]
        assert reader.replay("m0") == replay_text()
        assert reader.leaderboard_rows("classic-3p")
        with pytest.raises(StoreError, match="read-only"):
            reader.add_bot("d", "python", "", "bots/d")
    # Opened immutable: not even a -shm or -wal was made (SQLite's mode=ro alone makes both).
    assert sorted(p.name for p in db_path.parent.iterdir()) == ["arena.db"]
    assert db_path.read_bytes() == before


def test_a_reader_sees_a_running_writer_s_log_or_refuses_to_read_stale(
    store: Store, db_path: Path, tmp_path: Path, take_write_access: Any
) -> None:
    record(store, "m0", 0)  # committed to the -wal, not yet into the file
    wal = db_path.with_name("arena.db-wal")
    assert wal.stat().st_size > 0
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in ("arena.db", "arena.db-wal"):  # the log without its -shm
        shutil.copy(db_path.with_name(name), copy / name)
    take_write_access(copy)
    with pytest.raises(StoreError, match=r"arena\.db-shm is missing") as caught:
        open_store(copy / "arena.db", read_only=True)
    assert "\n" not in str(caught.value)
    # With the -shm present, the log is read: the match committed a moment ago is there.
    with open_store(db_path, read_only=True) as reader:
        assert reader.match("m0") is not None
        record(store, "m1", 1)
        assert reader.match("m1") is not None


def test_an_older_schema_is_upgraded_by_a_reader_that_may_write_else_refused(
    db_path: Path, take_write_access: Any
) -> None:
    with open_store(db_path) as store:
        store.add_bot("a", "python", "", "bots/a")
    later = later_migrations()
    other = db_path.parent.parent / "other"
    shutil.copytree(db_path.parent, other)
    take_write_access(other)
    with pytest.raises(StoreError, match="schema is older than this arena") as caught:
        open_store(other / "arena.db", read_only=True, migrations=later)
    assert "0099_match_notes" in str(caught.value)
    with open_store(db_path, read_only=True, migrations=later) as reader:
        assert "notes" in reader.db.table("matches").columns_dict
        assert [b["name"] for b in reader.bots()] == ["a"]


# -- damaged files and files that turn read-only ------------------------------------------------------


def corrupt_a_page(path: Path) -> None:
    """Overwrite part of the seats table's root page (the file's header stays intact)."""
    conn = sqlite3.connect(path)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'seats'").fetchone()[0]
    conn.close()
    with path.open("r+b") as file:
        file.seek((root - 1) * page_size + 8)
        file.write(b"\xff\x00" * 64)


def test_a_corrupt_database_is_not_written_to(store: Store, db_path: Path) -> None:
    for i in range(6):
        record(store, f"m{i}", i)
    store.close()
    corrupt_a_page(db_path)
    before = db_path.read_bytes()
    with pytest.raises(StoreError, match="is corrupt") as caught:
        open_store(db_path)
    assert "\n" not in str(caught.value) and "will not be written to" in str(caught.value)
    assert str(db_path) in str(caught.value)
    assert db_path.read_bytes() == before


def test_a_damaged_stored_replay_is_a_store_error(store: Store) -> None:
    record(store, "m0", 0)
    good = store.db.execute("SELECT replay FROM matches WHERE id = 'm0'").fetchone()[0]
    damaged = good[:12] + b"\xff" * 8 + good[20:]  # the gzip header holds, the deflate data not
    store.db.execute("UPDATE matches SET replay = ? WHERE id = 'm0'", (damaged,))
    store.db.conn.commit()
    with pytest.raises(DamagedReplayError, match="stored replay of match 'm0' is damaged"):
        store.replay("m0")


def test_an_io_error_on_a_file_turned_read_only_says_read_only(
    db_path: Path, take_write_access: Any
) -> None:
    with open_store(db_path) as store:
        store.add_bot("a", "python", "", "bots/a")
        io_error = sqlite3.OperationalError("disk I/O error")
        io_error.sqlite_errorname = "SQLITE_IOERR_WRITE"  # type: ignore[attr-defined]

        def fail() -> None:
            with arena.results.store.connect.translated(db_path, "record match 'm0'"):
                raise io_error

        with pytest.raises(StoreError, match="disk I/O error"):
            fail()  # a writable file: a real I/O error, said as SQLite says it
        take_write_access(db_path.parent)
        with pytest.raises(StoreError, match="the database is read-only") as caught:
            fail()
        assert str(caught.value).startswith(f"results database {db_path}: cannot record match")


def test_a_write_log_made_immutable_under_a_running_writer_is_called_read_only(
    store: Store, db_path: Path
) -> None:
    """For real where the system allows it: ``chattr +i`` fails the writer's next write with
    SQLITE_IOERR_WRITE ("disk I/O error"), as a read-only remount does."""
    chattr = shutil.which("chattr")
    record(store, "m0", 0)
    wal = db_path.with_name("arena.db-wal")
    if chattr is None or subprocess.run([chattr, "+i", str(wal)], check=False).returncode:
        pytest.skip("no chattr +i here (needs root on a filesystem with the immutable flag)")
    try:
        with pytest.raises(StoreError, match="the database is read-only"):
            for i in range(1, 6):
                record(store, f"m{i}", i)
    finally:
        subprocess.run([chattr, "-i", str(wal)], check=True)


def test_a_reader_in_a_read_only_folder_follows_a_writer_that_has_not_written_yet(
    store: Store, db_path: Path, take_write_access: Any
) -> None:
    record(store, "m0", 0)
    store.close()
    with open_store(db_path) as writer:
        wal = db_path.with_name("arena.db-wal")
        assert wal.stat().st_size == 0  # connected, nothing logged yet
        take_write_access(db_path.parent)
        with open_store(db_path, read_only=True) as reader:
            assert reader.match("m0") is not None
            record(writer, "m1", 1)
            assert reader.match("m1") is not None  # an immutable open would not see it


def test_a_replay_compressed_by_a_worker_is_stored_as_it_is(store: Store) -> None:
    """A worker gzips the replay in parallel; the scheduler stores those bytes unchanged,
    and they read back as the replay (the same bytes as compressing in the store)."""
    from arena.results.store import CompressedReplay, compress_replay

    text = replay_text()
    packed = compress_replay(text)
    assert isinstance(packed, CompressedReplay) and packed.data != text
    store.record_match(match_dict("w0", 0), three_seats(), packed, [], [])
    store.record_match(match_dict("w1", 1), three_seats(), text, [], [])
    assert store.replay("w0") == store.replay("w1") == text
    stored = store.db.execute("SELECT replay FROM matches WHERE id = 'w0'").fetchone()[0]
    assert stored == packed.data and packed.decompressed() == text
