"""The front page and the leaderboard routes: every pool of both games, filters, the live
token, and bad input answered with a proper page or JSON error."""

from __future__ import annotations

import html
import shutil
import sqlite3
from pathlib import Path

from fastapi.testclient import TestClient

from arena.cli import main
from arena.results import reports
from arena.results.store import open_store
from arena.web.app import create_app


def test_the_front_page_shows_every_pools_leaderboard(client: TestClient, results_db: Path):
    answer = client.get("/")
    assert answer.status_code == 200 and "text/html" in answer.headers["content-type"]
    with open_store(results_db, read_only=True) as store:
        pools = store.pools()
        assert pools == ["classic/3p/world", "europe/2p"]
        for pool in pools:
            assert f'data-pool="{pool}"' in answer.text
            for row in reports.leaderboard(store, pool)["rows"]:
                assert f'data-bot="{row["bot"]}"' in answer.text


def test_filters_by_game_and_pool(client: TestClient):
    europe = client.get("/", params={"game": "europe"}).text
    assert 'data-pool="europe/2p"' in europe and 'data-pool="classic/3p/world"' not in europe
    one = client.get("/", params={"pool": "classic/3p/world"}).text
    assert 'data-pool="classic/3p/world"' in one and 'data-pool="europe/2p"' not in one


def test_the_api_gives_the_same_boards_as_arena_leaderboard(client: TestClient, results_db):
    pools = client.get("/api/pools").json()
    assert [p["pool"] for p in pools] == ["classic/3p/world", "europe/2p"]
    assert pools[1] == {"pool": "europe/2p", "game": "europe", "format": "2p"}
    with open_store(results_db, read_only=True) as store:
        for pool in ("classic/3p/world", "europe/2p"):
            want = reports.leaderboard(store, pool)
            assert client.get(f"/api/leaderboards/{pool}").json() == want
    boards = client.get("/api/leaderboards", params={"game": "europe"}).json()
    assert [b["pool"] for b in boards] == ["europe/2p"]


def test_the_last_change_token_counts_matches_and_tournament_progress(client: TestClient):
    token = client.get("/api/last-change").json()
    assert token["matches"] == 3 + 4  # 3 seat rotations of one trio; 2 rounds × 2 rotations
    names = {t["name"]: t for t in token["tournaments"]}
    assert names["web-europe"]["recorded"] == names["web-europe"]["planned"] == 4
    assert names["web-europe"]["game"] == "europe" and names["web-classic"]["game"] == "classic"
    assert {t["status"] for t in token["tournaments"]} == {"finished"}


def test_unknown_pools_and_bad_parameters_get_404_and_400(client: TestClient):
    assert client.get("/pools/nope").status_code == 404
    assert "no rating pool 'nope'" in html.unescape(client.get("/pools/nope").text)
    answer = client.get("/api/leaderboards/nope")
    assert answer.status_code == 404 and answer.json()["error"] == "no rating pool 'nope'"
    answer = client.get("/api/leaderboards", params={"game": "x" * 100})
    assert answer.status_code == 400 and "game" in answer.json()["error"]
    assert client.get("/no/such/page").status_code == 404
    assert "Traceback" not in client.get("/no/such/page").text


def test_the_server_never_writes(results_db: Path):
    with sqlite3.connect(f"{results_db.resolve().as_uri()}?mode=ro", uri=True) as conn:
        assert conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0] == 7
    assert not (results_db.stat().st_mode & 0o222)  # read-only file: every page above read it


def test_boards_are_kept_between_requests_but_never_stale(results_db: Path, tmp_path: Path):
    """A board is computed again as soon as a match is recorded (its change marks move)."""
    db = tmp_path / "arena.db"
    shutil.copy(results_db, db)
    db.chmod(0o644)
    with TestClient(create_app(db)) as client:
        first = client.get("/api/leaderboards/europe/2p").json()
        assert client.get("/api/leaderboards/europe/2p").json() == first  # kept
        games = {row["bot"]: row["games"] for row in first["rows"]}
        code = main(
            ["tournament", "run", "--game", "europe", "--bot", "random", "--bot",
             "europe-heuristic", "--rules", "max_rounds=3", "--in-process", "--db", str(db),
             "--no-progress", "--seed", "4"]
        )  # fmt: skip
        assert code == 0
        after = client.get("/api/leaderboards/europe/2p").json()
        assert {row["bot"]: row["games"] for row in after["rows"]} == {
            bot: n + 2 for bot, n in games.items()
        }
        boards = client.get("/api/leaderboards").json()  # the kept seats, plus the new ones
        with open_store(db, read_only=True) as store:
            assert boards == [
                {**reports.leaderboard(store, pool), "game": pool.split("/")[0]}
                for pool in store.pools()
            ]
