"""A results database made before match rules were stored once (migration 0008) and before
replays were deflated with a dictionary: opened by this arena it migrates, and every match,
replay and rating reads back exactly as from a database this arena made itself."""

from __future__ import annotations

import gzip
import json
import sqlite3
from pathlib import Path

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from arena.replays.compact import MARKER, compact, expand
from arena.replays.deflated import is_deflated
from arena.results.store import MIGRATIONS, open_store
from tests.cli_run import Capsys, run

FIRST_NEW = "0008_match_rules"
"""The first migration an arena storing replays compact and gzipped did not have."""


def before_match_rules() -> Migrations:
    """The migrations of the arena that stored each match's rules and gzipped its replay."""
    shipped = MIGRATIONS.pending(Database(memory=True))
    names = [m.name for m in shipped]
    older = Migrations("arena")
    for migration in shipped[: names.index(FIRST_NEW)]:
        older(name=migration.name)(migration.fn)
    return older


def tournaments(capsys: Capsys, db: Path) -> None:
    """Real matches of both games at default rules, recorded by this arena."""
    for args in (
        ("--bot", "random", "--bot", "aggressive", "--bot", "continent", "--seats", "3",
         "--rounds", "1", "--seed", "5"),
        ("--game", "europe", "--bot", "random", "--bot", "europe-heuristic", "--seats", "2",
         "--rounds", "2", "--seed", "6"),
    ):  # fmt: skip
        code, _, err = run(
            capsys, "tournament", "run", *args, "--in-process", "--no-progress", "--db", str(db)
        )
        assert code == 0, err


def older_copy(new: Path, old: Path) -> dict[str, bytes]:
    """``new``'s rows in a database made by the older arena, as it stored them: the rules in
    each match row, the replay compact and gzipped (the first match's in full, as the arena
    before compact replays stored it). Returns each match's full replay."""
    with open_store(old, migrations=before_match_rules()):
        pass
    replays: dict[str, bytes] = {}
    with sqlite3.connect(old) as conn:
        conn.execute("ATTACH DATABASE ? AS new", (str(new),))
        tables = [
            name
            for (name,) in conn.execute("SELECT name FROM main.sqlite_master WHERE type = 'table'")
            if not name.startswith(("sqlite_", "_sqlite"))
        ]
        for table in tables:
            columns = [row[1] for row in conn.execute(f"PRAGMA main.table_info({table})")]
            chosen = ", ".join(
                "COALESCE(r.rules_json, t.rules_json)" if c == "rules_json" else f"t.{c}"
                for c in columns
            )
            rules = "LEFT JOIN new.match_rules r ON r.id = t.rules_id" if table == "matches" else ""
            conn.execute(
                f"INSERT OR REPLACE INTO main.{table} ({', '.join(columns)})"
                f" SELECT {chosen} FROM new.{table} t {rules}"
            )
        rows = conn.execute("SELECT id, replay FROM main.matches ORDER BY rowid").fetchall()
        for index, (match_id, blob) in enumerate(rows):
            full = expand(blob)
            replays[match_id] = full
            stored = full if index == 0 else compact(full)
            conn.execute(
                "UPDATE main.matches SET replay = ? WHERE id = ?",
                (gzip.compress(stored, mtime=0), match_id),
            )
        conn.commit()
        conn.execute("DETACH DATABASE new")
    return replays


def test_an_older_database_migrates_and_reads_back_identically(
    tmp_path: Path, capsys: Capsys
) -> None:
    new, old = tmp_path / "new.db", tmp_path / "old.db"
    tournaments(capsys, new)
    replays = older_copy(new, old)
    with sqlite3.connect(old) as conn:
        (rules_in_rows,) = conn.execute("SELECT COUNT(*) FROM matches WHERE rules_json != ''")
        assert rules_in_rows[0] == len(replays) >= 4
    outputs = {}
    for db in (new, old):  # the old one migrates on its first open
        code, listed, err = run(capsys, "matches", "--json", "--db", str(db))
        assert code == 0, err
        exported = {}
        for match_id in replays:
            out = tmp_path / f"{db.stem}-{match_id}.jsonl"
            assert run(capsys, "replay", "export", match_id, str(out), "--db", str(db))[0] == 0
            exported[match_id] = out.read_bytes()
            code, text, _ = run(capsys, "replay", "verify", match_id, "--db", str(db))
            assert code == 0, text
        with open_store(db, read_only=True) as store:
            rows = store.all_match_records()
            tournament_rows = [store.match_slice(m["tournament_id"], 0, 100) for m in rows]
        ratings = current_ratings(db)
        assert run(capsys, "ratings", "rebuild", "--db", str(db))[0] == 0
        outputs[db] = (
            json.loads(listed),
            rows,
            tournament_rows,
            exported,
            ratings,
            current_ratings(db),
        )
    assert outputs[old] == outputs[new]
    _, rows, _, exported, ratings, rebuilt = outputs[old]
    assert exported == replays
    assert ratings == rebuilt and ratings
    assert {(m["game"], m["rules"]["players"]) for m in rows} == {("classic", 3), ("europe", 2)}
    with open_store(old) as store:
        assert MIGRATIONS.pending(store.db) == []
        first, *others = replays
        assert store.replay(first) == replays[first]  # stored in full: read as it is
        assert all(store.replay(m).startswith(MARKER) for m in others)  # compact, gzipped
    with open_store(new) as store:
        assert all(is_deflated(store.replay(m)) for m in replays)


def current_ratings(db: Path) -> list[tuple[object, ...]]:
    """Every current rating and rating change, without the time it was written."""
    with open_store(db, read_only=True) as store:
        ratings = [
            (r["pool"], r["version_id"], r["mu"], r["sigma"], r["games"]) for r in store.ratings()
        ]
        history = [tuple(h.values()) for h in store.rating_history()]
    return sorted(ratings) + history
