"""The tournament page's standings, pairwise matrix, cycles, gauntlet and live part, and
their JSON routes, on synthetic stores and on the real test database."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from arena.results.store import open_store
from arena.results.tournament_report import pairwise_report, tournament_report
from arena.web.app import create_app
from tests.synthetic_tournament import build


def test_the_standings_routes_answer_the_report(client: TestClient, results_db: Path):
    with open_store(results_db, read_only=True) as store:
        ids = [t["id"] for t in store.tournaments()]
        wanted = {tid: tournament_report(store, tid) for tid in ids}
    for tid in ids:
        got = client.get(f"/api/tournaments/{tid}/standings").json()
        assert got == wanted[tid]
        assert client.get(f"/api/tournaments/{tid}/pairwise").json() == pairwise_report(got)
        page = client.get(f"/tournaments/{tid}").text
        for view in got["pools"]:
            assert f'data-pool="{view["pool"]}"' in page
            for row in view["standings"]:
                assert f'<tr data-version="{row["version_id"]}"><td>{row["rank"]}</td>' in page
    for url in ("/api/tournaments/nope/standings", "/api/tournaments/nope/pairwise"):
        answer = client.get(url)
        assert answer.status_code == 404 and answer.json()["error"] == "no tournament 'nope'"
    assert client.get("/fragments/tournaments/nope/live").status_code == 404


def test_the_matrix_cycles_and_gauntlet_on_the_page(tmp_path: Path):
    db = tmp_path / "arena.db"
    build(db, versions=8, matches=3000, cycle=(3, 4, 5), fmt="gauntlet", challengers=["bot-07"])
    with TestClient(create_app(db)) as client:
        report = client.get("/api/tournaments/synth/standings").json()
        page = client.get("/tournaments/synth").text
    view = report["pools"][0]
    shown = re.findall(r'<td class="cell[^"]*"[^>]*data-a="(\w+)" data-b="(\w+)"', page)
    assert sorted(shown) == sorted((c["a"], c["b"]) for c in view["pairwise"]["cells"])
    for cell in view["pairwise"]["cells"]:
        tag = re.search(rf'<td class="([^"]*)"[^>]*data-a="{cell["a"]}" data-b="{cell["b"]}"', page)
        assert tag is not None and ("significant" in tag.group(1)) == cell["significant"]
    significant = [c for c in view["cycles"] if c["significant"]]
    assert significant, view["cycles"]
    for cycle in significant:
        assert (
            f'<li class="cycle significant" data-versions="{" ".join(cycle["versions"])}">' in page
        )
        ring = cycle["versions"]
        for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
            assert re.search(
                rf'<td class="cell[^"]*on-cycle[^"]*"[^>]*data-a="{a}" data-b="{b}"', page
            )
    (gauntlet,) = report["gauntlet"]
    assert gauntlet["bot"] == "bot-07" and len(gauntlet["opponents"]) == 7
    assert f'<table class="gauntlet" data-challenger="{gauntlet["challenger"]}">' in page
    assert page.count('<tr data-version="', page.index('class="gauntlet"')) == 7


def test_a_running_ladder_shows_its_queued_matches_and_refreshes_in_place(tmp_path: Path):
    db = tmp_path / "arena.db"
    build(db, versions=5, matches=40, unrecorded=6)
    with TestClient(create_app(db)) as client:
        page = client.get("/tournaments/synth").text
        fragment = client.get("/fragments/tournaments/synth/live").text
        script = client.get("/static/tournament.js").text
    assert 'id="tournament-live" data-fragment="/fragments/tournaments/synth/live"' in page
    assert "tournament.js" in page and "data-live" in page
    for text in (page, fragment):
        assert "Queued or playing" in text and "6 matches" in text
        assert text.count("<tr data-live-plan-index=") == 6
        assert text.count("<tr data-recent-match=") == 10
    assert "<html" not in fragment and 'class="pairwise"' in fragment
    assert "innerHTML" in script and target_fragment_fetch(script)


def target_fragment_fetch(script: str) -> bool:
    """The page's script swaps the live part in from its fragment."""
    return "target.dataset.fragment" in script
