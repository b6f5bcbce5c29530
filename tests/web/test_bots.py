"""The bot pages and their API, checked against the store and the reports: every bot of both
games, the rating history plot's points, places, crosstable rows, versions, recent matches,
and unknown bots answered with a 404 page or JSON error."""

from __future__ import annotations

import html
import re
from pathlib import Path

from fastapi.testclient import TestClient

from arena.results import reports
from arena.results.store import open_store
from arena.web import plots
from arena.web.app import create_app

BOTS = ["aggressive", "continent", "europe-heuristic", "random"]


def _section(page: str, pool: str) -> str:
    start = page.index(f'<section class="bot-pool" data-pool="{pool}">')
    return page[start : page.index("</section>", start)]


def test_the_store_gives_a_bots_seats_in_one_query(results_db: Path):
    with open_store(results_db, read_only=True) as store:
        seats = store.bot_seats("random")
        table = reports.matches_table(store, None)
        mine = [m for m in table if any(s["bot"] == "random" for s in m["seats"])]
        assert list(dict.fromkeys(s["match_id"] for s in seats)) == [m["id"] for m in mine]
        assert len(seats) == sum(len(m["seats"]) for m in mine)
        assert {s["pool"] for s in seats} == {"classic/3p/world", "europe/2p"}
        assert store.bot_seats("nobody") == []
        assert store.matches_per_bot() == {
            "aggressive": 3, "continent": 3, "europe-heuristic": 4, "random": 7,
        }  # fmt: skip
        pools = store.tournament_pools()
        assert sorted(pools.values()) == ["classic/3p/world", "europe/2p"]


def test_the_bot_list_shows_language_versions_matches_and_pools(client: TestClient, results_db):
    listed = client.get("/api/bots").json()
    assert [b["name"] for b in listed] == BOTS
    page = client.get("/bots")
    assert page.status_code == 200
    with open_store(results_db, read_only=True) as store:
        rated = [(r["version_id"], r["pool"]) for r in store.ratings()]
        for bot in listed:
            versions = store.versions(bot["name"])
            assert bot["versions"] == len(versions)
            assert bot["pools"] == sorted(
                {p for vid, p in rated if vid in {v["id"] for v in versions}}
            )
            assert bot["language"] == "Python"
            assert f'data-bot="{bot["name"]}"' in page.text
    by_name = {b["name"]: b for b in listed}
    assert by_name["random"]["pools"] == ["classic/3p/world", "europe/2p"]
    assert by_name["random"]["matches"] == 7 and by_name["europe-heuristic"]["matches"] == 4


def test_the_rating_plot_has_a_point_per_rating_change(client: TestClient, results_db: Path):
    with open_store(results_db, read_only=True) as store:
        for name in BOTS:
            changes = [c for v in store.versions(name) for c in store.rating_history(v["id"])]
            points = client.get(f"/api/bots/{name}/history").json()
            assert len(points) == len(changes) > 0
            assert sorted(p["mu"] for p in points) == sorted(c["mu_after"] for c in changes)
            page = client.get(f"/bots/{name}").text
            for pool in {c["pool"] for c in changes}:
                mine = [p for p in points if p["pool"] == pool]
                assert [p["n"] for p in mine] == list(range(1, len(mine) + 1))
                svg = _section(page, pool)
                plot = svg[svg.index('<svg class="plot rating-history"') :]
                plot = plot[: plot.index("</svg>")]
                assert plot.count('<circle class="point"') == len(mine)
                assert "match number" in plot and "μ ± 3σ" in plot and "<polygon" in plot
                drawn = [float(m) for m in re.findall(r'data-mu="([-\d.]+)"', plot)]
                assert drawn == [round(p["mu"], 4) for p in mine]


def test_places_crosstable_and_think_times_match_the_reports(client: TestClient, results_db):
    with open_store(results_db, read_only=True) as store:
        table = reports.matches_table(store, None)
        for name in BOTS:
            detail = client.get(f"/api/bots/{name}").json()
            page = client.get(f"/bots/{name}").text
            mine = [m for m in table if any(s["bot"] == name for s in m["seats"])]
            assert detail["matches"] == len(mine)
            for entry in detail["pools"]:
                pool = entry["pool"]
                places = [
                    s["place"]
                    for m in mine
                    if m["pool"] == pool
                    for s in m["seats"]
                    if s["bot"] == name
                ]
                for place, count in entry["places"].items():
                    assert count == places.count(int(place))
                section = _section(page, pool)
                bars = [int(n) for n in re.findall(r'class="bar"[^>]*data-count="(\d+)"', section)]
                assert sum(bars) == len(places)
                board = [r for r in store.leaderboard_rows(pool) if r["bot"] == name]
                assert entry["rows"] == board
                assert f"{board[0]['think_ms_p50']:.3f}" in section
            # one tournament per pool here: the bot's row equals that tournament's crosstable
            pools = store.tournament_pools()
            for tournament in store.tournaments():
                cross = reports.crosstable(store, tournament["id"])
                entries = tournament["settings"]["entries"].values()
                names = {f"{e['name']} {e['label']}": e["name"] for e in entries}
                for pair in cross["pairs"]:
                    if names[pair["a"]] != name:
                        continue
                    (row,) = [
                        c
                        for c in detail["crosstable"]
                        if c["opponent"] == names[pair["b"]]
                        and c["pool"] == pools[tournament["id"]]
                    ]
                    assert (row["ahead"], row["behind"], row["level"], row["games"]) == (
                        pair["ahead"], pair["behind"], pair["level"], pair["games"],
                    )  # fmt: skip
                    want = round(100 * (row["ahead"] + row["level"] / 2) / row["games"], 1)
                    assert row["score_pct"] == want
                    assert f'data-opponent="{row["opponent"]}"' in page


def test_versions_faults_and_recent_matches(client: TestClient, results_db: Path):
    detail = client.get("/api/bots/random").json()
    page = client.get("/bots/random").text
    with open_store(results_db, read_only=True) as store:
        versions = store.versions("random")
        assert [v["version_id"] for v in detail["versions"]] == [v["id"] for v in versions]
        for v in versions:
            assert v["id"] in page
        finished = [s["finished_at"] for s in store.bot_seats("random") if s["bot"] == "random"]
        assert detail["versions"][0]["first_seen"] == min(finished)
        assert detail["versions"][0]["last_seen"] == max(finished)
        ids = [m["id"] for m in store.matches() if store.seats_of(m["id"])]
        mine = [i for i in ids if any(s["bot"] == "random" for s in store.seats_of(i))]
    assert [m["id"] for m in detail["recent"]] == list(reversed(mine))  # newest first
    for match_id in mine:
        assert f'href="/matches/{match_id}"' in page
    by_tournament = {f["name"]: f["matches"] for f in detail["faults"]}
    assert by_tournament == {"web-classic": 3, "web-europe": 4}
    assert all(f["faults"] == {} for f in detail["faults"])  # the bundled bots play cleanly


def test_faults_are_counted_per_tournament_and_status(faulty_db: Path):
    with TestClient(create_app(faulty_db)) as client:
        detail = client.get("/api/bots/random").json()
        page = client.get("/bots/random").text
        clean = client.get("/api/bots/aggressive").json()
    faults = {f["name"]: f["faults"] for f in detail["faults"]}
    assert faults == {"web-classic": {"TIMEOUT": 1}, "web-europe": {"CRASH": 1}}
    assert all(f["faults"] == {} for f in clean["faults"])
    table = page[page.index('<table class="bot-faults">') :]
    table = table[: table.index("</table>")]
    assert "<th>CRASH</th><th>TIMEOUT</th>" in table
    with open_store(faulty_db, read_only=True) as store:
        tournaments = {t["name"]: t["id"] for t in store.tournaments()}
    row = table[table.index(f'data-tournament="{tournaments["web-classic"]}"') :]
    row = row[: row.index("</tr>")]
    assert re.findall(r"<td>(\d+)</td>", row) == ["3", "0", "1"]  # matches, CRASH, TIMEOUT
    plot = page[page.index('<svg class="plot stacked-bars"') :]
    plot = plot[: plot.index("</svg>")]
    drawn = re.findall(r'data-label="([^"]+)" data-key="([^"]+)" data-count="(\d+)"', plot)
    assert drawn == [("web-classic", "TIMEOUT", "1"), ("web-europe", "CRASH", "1")]
    assert "tournament (oldest first)" in plot and "faulty seats" in plot


def test_unknown_bots_get_404_pages_and_json(client: TestClient):
    for path in ("/bots/nobody", "/bots/%3Cb%3Ebold%3C%2Fb%3E"):
        answer = client.get(path)
        assert answer.status_code == 404 and "text/html" in answer.headers["content-type"]
        assert "<b>bold" not in answer.text and "Traceback" not in answer.text
    assert "no bot 'nobody'" in html.unescape(client.get("/bots/nobody").text)
    for path in ("/api/bots/nobody", "/api/bots/nobody/history"):
        answer = client.get(path)
        assert answer.status_code == 404 and answer.json() == {
            "error": "no bot 'nobody'",
            "status": 404,
        }


def test_ticks_are_round_and_cover_the_range():
    assert plots.ticks(0, 10) == [0, 2, 4, 6, 8, 10]
    assert plots.ticks(-3.2, 41.7) == [0, 10, 20, 30, 40]
    assert plots.ticks(5, 5) == [5]
    empty = plots.rating_history([], "nothing")
    assert empty.startswith('<svg class="plot rating-history"') and "<circle" not in empty
