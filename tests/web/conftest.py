"""A results database filled by real small tournaments (classic, and RISK: Europe), shared by
the web tests, and a client of the web application serving it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from arena.cli import main
from arena.results.store import open_store
from arena.web.app import create_app

TOURNAMENTS = (
    ["--bot", "random", "--bot", "aggressive", "--bot", "continent", "--seats", "3",
     "--rules", "max_rounds=8", "--seed", "11", "--name", "web-classic"],
    ["--game", "europe", "--bot", "random", "--bot", "europe-heuristic", "--seats", "2",
     "--rounds", "2", "--rules", "max_rounds=6", "--seed", "12", "--name", "web-europe"],
)  # fmt: skip


def fill(db: Path) -> None:
    """Play the tournaments into ``db`` (in-process bots: quick, and no subprocess logs)."""
    for args in TOURNAMENTS:
        code = main(["tournament", "run", *args, "--in-process", "--db", str(db), "--no-progress"])
        assert code == 0


@pytest.fixture(scope="session")
def results_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("web-home")
    db = home / "arena.db"
    before = os.environ.get("ARENA_HOME")
    os.environ["ARENA_HOME"] = str(home)
    try:
        fill(db)
    finally:
        if before is None:
            del os.environ["ARENA_HOME"]
        else:
            os.environ["ARENA_HOME"] = before
    db.chmod(0o444)  # the server must manage with a file it cannot write
    yield db


@pytest.fixture(scope="session")
def client(results_db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(results_db)) as test_client:
        yield test_client


@pytest.fixture
def faulty_db(results_db: Path, tmp_path: Path) -> Path:
    """A copy of ``results_db`` where random's seat of the first classic match timed out and
    its seat of the first Europe match crashed (the bundled bots never fault on their own)."""
    import shutil
    import sqlite3

    db = tmp_path / "faulty.db"
    shutil.copy(results_db, db)
    db.chmod(0o644)
    with sqlite3.connect(db) as conn:
        for game, status in (("classic", "TIMEOUT"), ("europe", "CRASH")):
            (match,) = conn.execute(
                "SELECT id FROM matches WHERE game = ? ORDER BY plan_index LIMIT 1", (game,)
            ).fetchone()
            conn.execute(
                "UPDATE seats SET status = ? WHERE match_id = ? AND bot = 'random'", (status, match)
            )
    with open_store(db) as store:  # seats edited by hand: the pools' totals recomputed
        store.rebuild_totals()
    db.chmod(0o444)
    return db
