"""The tournament pages and their API, checked against the store and the reports: both games'
tournaments, plan, progress and ETA, crosstable counts, faults, the match list's paging, and
unknown ids or bad pages answered with a 404/400 page or JSON error."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import socket
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from arena import games
from arena.results import reports
from arena.results.store import open_store
from arena.web.app import create_app
from arena.web.routes import tournaments as tournaments_web


def _ids(results_db: Path) -> dict[str, str]:
    with open_store(results_db, read_only=True) as store:
        return {t["name"]: t["id"] for t in store.tournaments()}


def test_the_tournament_list_shows_status_game_and_progress(client: TestClient, results_db):
    listed = client.get("/api/tournaments").json()
    page = client.get("/tournaments")
    assert page.status_code == 200
    with open_store(results_db, read_only=True) as store:
        stored = store.tournaments()
    assert [t["id"] for t in listed] == [t["id"] for t in stored]
    by_name = {t["name"]: t for t in listed}
    assert by_name["web-classic"]["game"] == "classic"
    assert by_name["web-classic"]["pool"] == "classic/3p/world"
    assert (
        by_name["web-europe"]["game"] == "europe" and by_name["web-europe"]["pool"] == "europe/2p"
    )
    for t in listed:
        assert t["status"] == "finished" and t["recorded"] == t["planned"] > 0
        assert f'data-tournament="{t["id"]}"' in page.text
        assert f'<progress max="{t["planned"]}" value="{t["recorded"]}">' in page.text


def test_the_tournament_page_shows_settings_plan_progress_and_the_pool_link(
    client: TestClient, results_db: Path
):
    for name, tid in _ids(results_db).items():
        detail = client.get(f"/api/tournaments/{tid}").json()
        page = client.get(f"/tournaments/{tid}")
        assert page.status_code == 200
        with open_store(results_db, read_only=True) as store:
            plan = store.planned(tid)
            matches = store.matches(tid)
            stored = store.tournament(tid)
        assert stored is not None and detail["settings"] == stored["settings"]
        assert detail["name"] == name and detail["pool"] == matches[0]["pool"]
        assert [e["plan_index"] for e in detail["plan"]] == [e["plan_index"] for e in plan]
        for shown, entry in zip(detail["plan"], plan, strict=True):
            assert [s["version_id"] for s in shown["seats"]] == entry["seats"]
            assert shown["match"] == next(
                m["id"] for m in matches if m["plan_index"] == entry["plan_index"]
            )
        assert page.text.count("<tr data-plan-index=") == len(plan)
        link = f"/pools/{detail['pool']}?tournament={tid}"
        assert detail["leaderboard"] == link and f'href="{link}"' in page.text
        assert client.get(link).status_code == 200
        progress = detail["progress"]
        assert progress["recorded"] == progress["planned"] == len(plan)
        assert progress["percent"] == 100.0 and progress["eta_seconds"] is None  # finished
        assert f"{len(plan)}/{len(plan)}</span> matches" in page.text
        assert html.escape(f"{stored['settings']['seed']}") in page.text


def test_the_eta_while_running_is_the_pace_so_far_times_the_matches_left():
    running = {"planned": 10, "status": "running"}
    matches = [
        {"started_at": "2026-01-01T10:00:00", "finished_at": "2026-01-01T10:00:20"},
        {"started_at": "2026-01-01T10:00:05", "finished_at": "2026-01-01T10:00:40"},
    ]
    got = tournaments_web.progress(running, matches)
    assert got["seconds_per_match"] == 20.0 and got["eta_seconds"] == 160
    assert got["recorded"] == 2 and got["percent"] == 20.0
    assert (
        tournaments_web.progress({**running, "status": "stopped"}, matches)["eta_seconds"] is None
    )
    nothing = tournaments_web.progress(running, [])
    assert nothing["eta_seconds"] is None and nothing["recorded"] == 0


def test_a_running_tournament_shows_its_eta_and_refreshes_itself(results_db: Path, tmp_path: Path):
    db = tmp_path / "running.db"
    shutil.copy(results_db, db)
    db.chmod(0o644)
    tid = _ids(results_db)["web-classic"]
    with sqlite3.connect(db) as conn:  # as if the last planned match were still to be played
        (last,) = conn.execute(
            "SELECT id FROM matches WHERE tournament_id = ? ORDER BY plan_index DESC", (tid,)
        ).fetchone()
        for table, key in (
            ("rating_history", "match_id"),
            ("seats", "match_id"),
            ("matches", "id"),
        ):
            conn.execute(f"DELETE FROM {table} WHERE {key} = ?", (last,))
        conn.execute(
            "UPDATE tournaments SET status = 'running', finished_at = NULL, runner_pid = ?,"
            " runner_host = ?, heartbeat_at = ? WHERE id = ?",
            (os.getpid(), socket.gethostname(), datetime.now(UTC).isoformat(), tid),
        )
    with TestClient(create_app(db)) as client:
        detail = client.get(f"/api/tournaments/{tid}").json()
        progress = detail["progress"]
        assert detail["status"] == "running" and progress["recorded"] == 2
        assert progress["eta_seconds"] == round(progress["seconds_per_match"] * 1)
        page = client.get(f"/tournaments/{tid}").text
        assert 'class="eta"' in page and "2/3</span> matches" in page
        assert "tournament.js" in page and "data-live" in page
        assert client.get("/static/tournament.js").status_code == 200
        listed = {t["id"]: t for t in client.get("/api/tournaments").json()}
        assert listed[tid]["status"] == "running" and listed[tid]["recorded"] == 2
    finished = TestClient(create_app(results_db)).get(f"/tournaments/{tid}").text
    assert "tournament.js" not in finished and 'class="eta"' not in finished


def test_the_crosstable_counts_equal_the_matches(client: TestClient, results_db: Path):
    for tid in _ids(results_db).values():
        table = client.get(f"/api/tournaments/{tid}/crosstable").json()
        page = client.get(f"/tournaments/{tid}").text
        with open_store(results_db, read_only=True) as store:
            want = reports.crosstable(store, tid)
            rows = reports.matches_table(store, tid)
            stored = store.tournament(tid)
        assert stored is not None
        names = {
            f"{e['name']} {e['label']}": e["name"] for e in stored["settings"]["entries"].values()
        }
        assert [{k: v for k, v in p.items() if k != "score_pct"} for p in table["pairs"]] == want[
            "pairs"
        ]
        for pair in table["pairs"]:
            a, b = names[pair["a"]], names[pair["b"]]
            both = [m for m in rows if {a, b} <= {s["bot"] for s in m["seats"]}]
            place = {m["id"]: {s["bot"]: s["place"] for s in m["seats"]} for m in both}
            assert pair["games"] == len(both)
            assert pair["ahead"] == sum(1 for p in place.values() if p[a] < p[b])
            assert pair["behind"] == sum(1 for p in place.values() if p[a] > p[b])
            score = round(100 * (pair["ahead"] + pair["level"] / 2) / pair["games"], 1)
            assert pair["score_pct"] == score
            cell = re.search(
                rf'data-a="{re.escape(pair["a"])}" data-b="{re.escape(pair["b"])}" '
                rf'data-games="(\d+)"[^>]*>(\d+)–(\d+)–(\d+)',
                page,
            )
            assert cell is not None
            assert [int(g) for g in cell.groups()] == [
                pair["games"], pair["ahead"], pair["behind"], pair["level"],
            ]  # fmt: skip
        assert table["faults"] == want["faults"]
        assert "No faults" in page if not want["faults"] else "tournament-faults" in page


def test_the_fault_table_counts_statuses_per_bot(faulty_db: Path):
    tid = _ids(faulty_db)["web-classic"]
    with TestClient(create_app(faulty_db)) as client:
        table = client.get(f"/api/tournaments/{tid}/crosstable").json()
        page = client.get(f"/tournaments/{tid}").text
    assert table["faults"] == {"random 1.0": {"TIMEOUT": 1}}
    faults = page[page.index('<table class="tournament-faults">') :]
    faults = faults[: faults.index("</table>")]
    assert "<th>TIMEOUT</th>" in faults and "CRASH" not in faults  # the Europe one is elsewhere
    cells = {
        bot: re.findall(r"<td>(\d+)</td>", row)
        for bot, row in re.findall(r'<tr data-bot="([^"]+)">(.*?)</tr>', faults, re.S)
    }
    assert cells == {"aggressive 1.0": ["0"], "continent 1.0": ["0"], "random 1.0": ["1"]}


def test_the_match_list_pages_through_the_tournaments_matches(
    client: TestClient, results_db: Path, monkeypatch: pytest.MonkeyPatch
):
    tid = _ids(results_db)["web-classic"]
    with open_store(results_db, read_only=True) as store:
        rows = reports.matches_table(store, tid)
    first = client.get(f"/api/tournaments/{tid}/matches").json()
    assert first == {
        "page": 1, "pages": 1, "per_page": 50, "total": len(rows), "matches": rows, "message": None,
    }  # fmt: skip
    page = client.get(f"/tournaments/{tid}").text
    for row in rows:
        assert f'href="/matches/{row["id"]}"' in page
    monkeypatch.setattr(tournaments_web, "PER_PAGE", 2)
    pages = [
        client.get(f"/api/tournaments/{tid}/matches", params={"page": n}).json() for n in (1, 2)
    ]
    assert [p["pages"] for p in pages] == [2, 2]
    assert pages[0]["matches"] + pages[1]["matches"] == rows and len(pages[0]["matches"]) == 2
    second = client.get(f"/tournaments/{tid}", params={"page": 2}).text
    assert second.count("<tr data-match=") == 1 and 'rel="prev"' in second
    assert second.count("<tr data-plan-index=") == 1 and '<tr data-plan-index="2">' in second
    assert "plan indices 2–2 on this page" in second  # the plan is paged alike
    past = client.get(f"/api/tournaments/{tid}/matches", params={"page": 3}).json()
    assert past["matches"] == [] and "past the last page (2)" in past["message"]
    shown = client.get(f"/tournaments/{tid}", params={"page": 3})
    assert shown.status_code == 200 and "past the last page (2)" in shown.text


@pytest.mark.parametrize(
    "bad", ["0", "-1", "x", "1.5", str(10**30), str(tournaments_web.MAX_PAGE + 1)]
)
def test_bad_pages_get_400(client: TestClient, results_db: Path, bad: str):
    tid = _ids(results_db)["web-europe"]
    answer = client.get(f"/api/tournaments/{tid}/matches", params={"page": bad})
    assert answer.status_code == 400 and "page" in answer.json()["error"]
    shown = client.get(f"/tournaments/{tid}", params={"page": bad})
    assert shown.status_code == 400 and "text/html" in shown.headers["content-type"]
    assert "Traceback" not in shown.text and "page" in html.unescape(shown.text)


def test_unknown_tournaments_get_404_pages_and_json(client: TestClient):
    answer = client.get("/tournaments/nope")
    assert answer.status_code == 404 and "no tournament 'nope'" in html.unescape(answer.text)
    for path in ("", "/crosstable", "/matches", "/matches?page=2"):
        answer = client.get(f"/api/tournaments/nope{path}")
        assert answer.status_code == 404
        assert answer.json() == {"error": "no tournament 'nope'", "status": 404}


def test_a_planned_tournament_and_a_bot_that_never_played(results_db: Path, tmp_path: Path):
    db = tmp_path / "planned.db"
    shutil.copy(results_db, db)
    db.chmod(0o644)
    with open_store(db) as store:
        store.add_bot("idle", "Python", "Waits.", "/nowhere")
        store.add_version("idle-v1", "idle", "0.1")
        entries = {"idle-v1": {"name": "idle", "label": "0.1"}}
        plan = [{"plan_index": 0, "round": 0, "seed": 5, "seats": ["idle-v1", "idle-v1"]}]
        store.create_tournament("t-idle", "later", {"entries": entries}, 5, plan)
    with TestClient(create_app(db)) as client:
        detail = client.get("/api/tournaments/t-idle").json()
        assert detail["status"] == "planned" and detail["pool"] is None
        assert detail["leaderboard"] is None and detail["progress"]["recorded"] == 0
        assert detail["plan"][0]["seats"][0] == {
            "version_id": "idle-v1",
            "bot": "idle",
            "label": "0.1",
        }
        page = client.get("/tournaments/t-idle")
        assert page.status_code == 200 and "No matches recorded yet" in page.text
        assert client.get("/api/tournaments/t-idle/matches").json()["matches"] == []
        assert client.get("/api/tournaments/t-idle/crosstable").json()["pairs"] == []
        idle = client.get("/api/bots/idle").json()
        assert idle["matches"] == 0 and idle["pools"] == [] and idle["recent"] == []
        assert idle["versions"][0]["first_seen"] is None
        assert client.get("/api/bots/idle/history").json() == []
        assert client.get("/bots/idle").status_code == 200
        listed = {b["name"]: b for b in client.get("/api/bots").json()}
        assert listed["idle"]["matches"] == 0 and listed["idle"]["pools"] == []
        assert 'data-tournament="t-idle"' in client.get("/tournaments").text


def test_a_tournament_whose_settings_name_no_game_is_of_the_registrys_first(
    results_db: Path, tmp_path: Path
) -> None:
    """Settings recorded before a tournament named its game are read as the first game."""
    db = tmp_path / "unnamed.db"
    shutil.copy(results_db, db)
    db.chmod(0o644)
    conn = sqlite3.connect(db)
    with conn:
        for tid, text in conn.execute("SELECT id, settings_json FROM tournaments").fetchall():
            settings = {k: v for k, v in json.loads(text).items() if k != "game"}
            conn.execute(
                "UPDATE tournaments SET settings_json = ? WHERE id = ?", (json.dumps(settings), tid)
            )
    conn.close()
    with TestClient(create_app(db)) as client:
        listed = client.get("/api/tournaments").json()
        shown = {t["id"]: client.get(f"/api/tournaments/{t['id']}").json() for t in listed}
    assert listed and {t["game"] for t in listed} == {games.names()[0]}
    assert {d["game"] for d in shown.values()} == {games.names()[0]}
