"""The fault flag on the web: a badge (with a title saying why) beside a flagged version on the
leaderboards and the bot page, and the flag keys in the JSON API."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from arena.results import reports
from arena.results.store import open_store
from arena.web.app import create_app
from tests.scheduler.test_fault_flags import BOUNDARIES, FLAGGED, POOL, boundary_db


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return boundary_db(tmp_path / "arena.db")


@pytest.fixture
def client(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db)) as test_client:
        yield test_client


def bot_cells(page: str) -> dict[str, str]:
    """{bot: its leaderboard row's HTML}."""
    return dict(re.findall(r'<tr data-bot="([^"]+)">(.*?)</tr>', page, re.S))


def test_the_leaderboards_badge_flagged_versions_with_the_reason(client: TestClient) -> None:
    for path in ("/", f"/pools/{POOL}", "/fragments/leaderboards"):
        answer = client.get(path)
        assert answer.status_code == 200
        rows = bot_cells(answer.text)
        assert set(rows) == {vid.split("@")[0] for vid in BOUNDARIES} | {"steady"}
        for bot, cells in rows.items():
            assert ('class="flag"' in cells) == (f"{bot}@1" in FLAGGED), (path, bot)
        title = html.unescape(re.search(r'class="flag"[^>]*title="([^"]*)"', rows["five"])[1])
        assert "1 of its 5 recorded matches ended with its seat not OK (20%)" in title
        assert "more than 10% of at least 5 matches" in title and "--allow-flagged" in title
        assert "⚑ flagged" in rows["above"]


def test_the_api_gives_the_flag_keys(client: TestClient, db: Path) -> None:
    board = client.get(f"/api/leaderboards/{POOL}").json()
    with open_store(db, read_only=True) as store:
        assert board == reports.leaderboard(store, POOL)  # the same as `arena leaderboard`
    assert board["fault_limit"] == {"percent": 10.0, "min_matches": 5}
    assert {r["version_id"] for r in board["rows"] if r["flagged"]} == FLAGGED
    every = client.get("/api/leaderboards").json()
    assert [b["rows"] for b in every] == [board["rows"]]


def test_the_bot_page_badges_its_flagged_version(client: TestClient) -> None:
    page = client.get("/bots/above")
    assert page.status_code == 200
    versions = re.search(r'<table class="versions">(.*?)</table>', page.text, re.S)[1]
    (row,) = re.findall(r'<tr data-version="above@1">(.*?)</tr>', versions, re.S)
    assert 'class="flag"' in row and "3 of its 29 recorded matches" in html.unescape(row)
    calm = client.get("/bots/even").text
    assert 'class="flag"' not in calm  # exactly 10%: not flagged
    detail = client.get("/api/bots/above").json()
    (version,) = detail["versions"]
    assert version["flagged"] and version["faulted_matches"] == 3
    assert version["recorded_matches"] == 29 and detail["fault_limit"]["percent"] == 10.0
    assert not client.get("/api/bots/few").json()["versions"][0]["flagged"]  # 4 matches
