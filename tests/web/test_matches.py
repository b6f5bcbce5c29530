"""Match pages, their API and the replay viewer's frames, against a database filled by real
small tournaments (classic and RISK: Europe); frames are checked against an independent
re-play of the stored replay through the game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arena.games import load
from arena.replays.compact import expand
from arena.replays.files import declarations_from_header, game_from_header, read, verify
from arena.results.store import open_store
from arena.web import frames as frames_module
from arena.web.app import create_app
from arena.web.routes.matches import PAGE_SIZE, layout


def _matches(db: Path) -> list[dict[str, Any]]:
    with open_store(db, read_only=True) as store:
        return store.matches()


def _match_of(db: Path, game: str) -> dict[str, Any]:
    return next(m for m in reversed(_matches(db)) if m["game"] == game)


def _engine_states(db: Path, match_id: str, tmp_path: Path) -> list[Any]:
    """The game's state before every record and after each, re-played from the replay file
    as ``arena replay verify`` reads it."""
    with open_store(db, read_only=True) as store:
        data = expand(store.replay(match_id))
    path = tmp_path / f"{match_id}.jsonl"
    path.write_bytes(data)
    assert verify(path).ok
    header, records = read(path)
    game = game_from_header(header)
    state = game.new_game(header["seed"], declarations_from_header(header))
    states = [(game, state)]
    for record in records:
        if record["type"] == "decision":
            state = game.apply(state, record["seat"], game.action_from_dict(record["action"])).state
        elif record["type"] == "joint":
            answers = {a["seat"]: game.action_from_dict(a["action"]) for a in record["answers"]}
            state = game.apply_joint(state, answers).state
        elif record["type"] == "forfeit":
            state = game.forfeit(state, record["seat"]).state
        states.append((game, state))
    return states


def _all_frames(client: TestClient, match_id: str, count: int = 37) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    while True:
        answer = client.get(f"/api/matches/{match_id}/frames?start={len(found)}&count={count}")
        assert answer.status_code == 200, answer.text
        page = answer.json()
        found += page["frames"]
        if len(found) >= page["total"]:
            return found


def test_the_match_list_is_newest_first_and_filtered_by_game(
    client: TestClient, results_db: Path
) -> None:
    recorded = _matches(results_db)
    answer = client.get("/api/matches").json()
    assert answer["total"] == len(recorded) and answer["page"] == 1
    assert [m["id"] for m in answer["matches"]] == [m["id"] for m in reversed(recorded)][:PAGE_SIZE]
    assert all(len(m["seats"]) == m["seat_count"] for m in answer["matches"])
    europe = client.get("/api/matches?game=europe").json()
    assert europe["total"] == sum(m["game"] == "europe" for m in recorded) > 0
    assert {m["game"] for m in europe["matches"]} == {"europe"}
    page = client.get("/matches")
    assert page.status_code == 200
    assert all(f'href="/matches/{m["id"]}"' in page.text for m in recorded[-PAGE_SIZE:])
    classic = client.get("/matches?game=classic")
    assert classic.status_code == 200
    assert not any(m["id"] in classic.text for m in recorded if m["game"] == "europe")


@pytest.mark.parametrize("url", ["/matches?page=0", "/matches?page=x", "/matches?page=99999999999"])
def test_a_malformed_page_number_is_a_400_page(client: TestClient, url: str) -> None:
    answer = client.get(url)
    assert answer.status_code == 400 and "Bad request" in answer.text
    assert "Traceback" not in answer.text


def test_a_page_past_the_last_is_empty(client: TestClient) -> None:
    answer = client.get("/api/matches?page=999")
    assert answer.status_code == 200
    assert answer.json()["matches"] == [] and answer.json()["pages"] == 1
    page = client.get("/matches?page=999")
    assert page.status_code == 200 and "No matches on this page" in page.text


@pytest.mark.parametrize("game", ["classic", "europe"])
def test_a_match_page_shows_its_header_seats_and_viewer(
    client: TestClient, results_db: Path, game: str
) -> None:
    match = _match_of(results_db, game)
    page = client.get(f"/matches/{match['id']}")
    assert page.status_code == 200
    assert str(match["seed"]) in page.text and match["end_reason"] in page.text
    assert 'id="step"' in page.text and 'id="map"' in page.text
    assert "web-classic" in page.text or "web-europe" in page.text  # the tournament's name
    detail = client.get(f"/api/matches/{match['id']}").json()
    assert detail["game"] == game and detail["seed"] == match["seed"]
    assert len(detail["seats"]) == match["seat_count"]
    for seat in detail["seats"]:
        assert {"bot", "place", "status", "strikes", "think_ms_p50", "think_ms_p99"} <= set(seat)
        assert f'href="/bots/{seat["bot"]}"' in page.text
    assert detail["frames"] == len(_all_frames(client, match["id"]))
    shown = page.text.split('<script type="application/json" id="layout">')[1].split("</script>")[0]
    assert json.loads(shown) == layout(game)


@pytest.mark.parametrize(
    "url", ["/matches/nope", "/api/matches/nope", "/api/matches/nope/frames?start=0"]
)
def test_an_unknown_match_is_not_found(client: TestClient, url: str) -> None:
    answer = client.get(url)
    assert answer.status_code == 404
    if url.startswith("/api/"):
        assert answer.json() == {"error": "no match 'nope'", "status": 404}
    else:
        assert "no match" in answer.text and "Not found" in answer.text


@pytest.mark.parametrize(
    "query", ["start=-1", "start=x", "count=0", "count=5000", "count=2.5", "start=100000"]
)
def test_bad_frame_ranges_are_400(client: TestClient, results_db: Path, query: str) -> None:
    match = _match_of(results_db, "classic")
    answer = client.get(f"/api/matches/{match['id']}/frames?{query}")
    assert answer.status_code == 400
    assert answer.json()["status"] == 400


def test_classic_frames_equal_the_engine_state_at_every_step(
    client: TestClient, results_db: Path, tmp_path: Path
) -> None:
    match = _match_of(results_db, "classic")
    states = _engine_states(results_db, match["id"], tmp_path)
    shown = _all_frames(client, match["id"])
    assert len(shown) == len(states)
    assert [f["step"] for f in shown] == list(range(len(states)))
    for step in (0, 1, len(states) // 3, len(states) // 2, len(states) - 1):
        game, state = states[step]
        view = game.view(state, 0)
        assert shown[step]["board"]["owner"] == view["owner"], step
        assert shown[step]["board"]["armies"] == view["armies"], step
    assert any("attacks" in line for f in shown for line in f["lines"])  # narrated
    assert {s for f in shown for s in f["seats"]} == set(range(match["seat_count"]))


def test_europe_frames_equal_the_engine_state_at_every_step(
    client: TestClient, results_db: Path, tmp_path: Path
) -> None:
    match = _match_of(results_db, "europe")
    states = _engine_states(results_db, match["id"], tmp_path)
    shown = _all_frames(client, match["id"])
    assert len(shown) == len(states)
    for step in (0, 2, len(states) // 2, len(states) - 1):
        game, state = states[step]
        view = game.view(state, 1)
        board = shown[step]["board"]
        for t, (mine, engine) in enumerate(
            zip(board["territories"], view["territories"], strict=True)
        ):
            assert (mine["owner"], mine["attacker"], mine["castle"]) == (
                engine["owner"], engine["attacker"], engine["castle"]
            ), (step, t)  # fmt: skip
            assert mine["units"] == engine["units"], (step, t)
        assert [(a["coins"], a["crowns"]) for a in board["armies"]] == [
            (a["coins"], a["crowns"]) for a in view["armies"]
        ]
    assert any(line.startswith("Round 1") for f in shown for line in f["lines"])


@pytest.mark.parametrize("game", ["classic", "europe"])
def test_hidden_information_is_shown_only_after_the_match(
    client: TestClient, results_db: Path, game: str
) -> None:
    match = _match_of(results_db, game)
    shown = _all_frames(client, match["id"])
    for frame in shown[:-1]:
        assert "revealed" not in frame
        board = frame["board"]
        if game == "classic":  # card counts only, never the cards
            assert set(board) == {"owner", "armies", "cards", "reserve", "eliminated"}
            assert all(isinstance(n, int) for n in board["cards"])
        else:
            assert set(board) == {"territories", "armies"}
            assert all("hand" not in a and "missions" not in a for a in board["armies"])
    revealed = shown[-1]["revealed"]
    assert [r["seat"] for r in revealed] == list(range(match["seat_count"]))
    assert all(r["label"] == "revealed after the match" for r in revealed)
    assert all(isinstance(r["hand"], list) for r in revealed)


@pytest.mark.parametrize("game", ["classic", "europe"])
def test_a_layout_places_every_territory_once_and_links_the_board(game: str) -> None:
    shown = layout(game)
    assert shown is not None
    board = load(game).configure({}, 3 if game == "classic" else 2).board()
    ids = [t["id"] for t in shown["territories"]]
    assert sorted(ids) == list(range(len(board["territories"]))) and len(ids) == len(set(ids))
    assert all(
        0 <= t["x"] <= shown["width"] and 0 <= t["y"] <= shown["height"]
        for t in shown["territories"]
    )
    links = {tuple(link) for link in shown["links"]}
    assert all(a < b for a, b in links) and len(links) == len(shown["links"])
    if game == "classic":
        assert len(ids) == 42
        names = {t["id"]: t["name"] for t in shown["territories"]}
        assert names == dict(enumerate(board["territories"]))
        adjacency = {tuple(sorted((a, b))) for a, ns in enumerate(board["neighbours"]) for b in ns}
        assert links == adjacency
        grouped = sorted(t for c in shown["continents"] for t in c["territories"])
        assert grouped == list(range(42))
        assert {tuple(w) for w in shown["wrap"]} <= links
    else:
        assert len(ids) == 49
        land = {tuple(sorted((t["id"], b))) for t in board["territories"] for b in t["land"]}
        sea = {tuple(sorted((t["id"], b))) for t in board["territories"] for b in t["sea"]}
        assert links == land and {tuple(s) for s in shown["sea"]} == sea
        cities = {t["id"]: t["city"] for t in board["territories"] if t["city"]}
        assert {t["id"]: t.get("city") for t in shown["territories"] if t.get("city")} == cities


def test_a_damaged_replay_is_an_error_page_not_a_traceback(
    results_db: Path, tmp_path: Path
) -> None:
    import shutil
    import sqlite3

    db = tmp_path / "damaged.db"
    shutil.copy(results_db, db)
    db.chmod(0o644)
    match = _match_of(db, "classic")
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE matches SET replay = ? WHERE id = ?", (b"nonsense", match["id"]))
    connection.close()
    with TestClient(create_app(db)) as client:
        answer = client.get(f"/api/matches/{match['id']}/frames")
        assert answer.status_code == 500 and "damaged" in answer.json()["error"]
        page = client.get(f"/matches/{match['id']}")
        assert page.status_code == 200 and "damaged" in page.text  # header and seats shown
        assert str(match["seed"]) in page.text and 'id="map"' not in page.text
        assert client.get(f"/api/matches/{match['id']}").json()["frames"] == 0


def test_frames_of_a_replay_are_reused(results_db: Path) -> None:
    with open_store(results_db, read_only=True) as store:
        data = expand(store.replay(_match_of(results_db, "classic")["id"]))
    assert frames_module.replay_frames(data) is frames_module.replay_frames(data)


def test_a_replay_that_is_not_one_is_refused() -> None:
    from arena.errors import ReplayError

    with pytest.raises(ReplayError, match="not a Risk Arena replay"):
        frames_module.parse(b'{"type": "header"}\n')
    with pytest.raises(ReplayError, match="not JSON"):
        frames_module.parse(b"{oops\n")


@pytest.mark.parametrize(
    ("game", "bots"),
    [
        ("classic", ["random", "aggressive", "continent"]),
        ("europe", ["random", "europe-heuristic"]),
    ],
)
def test_missions_are_revealed_after_the_match(
    game: str, bots: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from arena.cli import main

    monkeypatch.setenv("ARENA_HOME", str(tmp_path))
    rules = ["mode=mission"] if game == "classic" else ["missions=true"]
    args = ["match", "--game", game, "--in-process", "--seed", "3", "--rules", "max_rounds=4"]
    for bot in bots:
        args += ["--bot", bot]
    assert main([*args, "--rules", rules[0]]) == 0
    (path,) = (tmp_path / "replays").glob("*.jsonl")
    shown = frames_module.frames(*read(path))
    assert all("revealed" not in f for f in shown[:-1])
    assert all(r["mission"] for r in shown[-1]["revealed"])
    assert all(r["label"] == "revealed after the match" for r in shown[-1]["revealed"])


def _crosses(
    p: tuple[int, int], q: tuple[int, int], r: tuple[int, int], s: tuple[int, int]
) -> bool:
    def side(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> int:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    return side(p, q, r) * side(p, q, s) < 0 and side(r, s, p) * side(r, s, q) < 0


@pytest.mark.parametrize("game", ["classic", "europe"])
def test_no_two_drawn_lines_of_a_layout_cross(game: str) -> None:
    shown = layout(game)
    assert shown is not None
    at = {t["id"]: (t["x"], t["y"]) for t in shown["territories"]}
    wrap = {tuple(w) for w in shown.get("wrap", [])}  # drawn off the map's edges instead
    lines = [
        tuple(link) for link in shown["links"] + shown.get("sea", []) if tuple(link) not in wrap
    ]
    crossing = [
        (a, b, c, d)
        for i, (a, b) in enumerate(lines)
        for c, d in lines[i + 1 :]
        if len({a, b, c, d}) == 4 and _crosses(at[a], at[b], at[c], at[d])
    ]
    assert crossing == []
