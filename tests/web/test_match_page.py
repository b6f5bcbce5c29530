"""A match page's extras against the engine and the stored data: each step's attacks in the
viewer's frames, the per-player plots of territories and armies, the API's documentation page,
and timestamps shown to the second."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from arena.replays import files as replay
from arena.replays.compact import expand
from arena.results.store import open_store


def _match_of(db: Path, game: str) -> dict[str, Any]:
    with open_store(db, read_only=True) as store:
        return next(m for m in reversed(store.matches()) if m["game"] == game)


def _records(db: Path, match_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    with open_store(db, read_only=True) as store:
        return replay.parse(expand(store.replay(match_id)).decode("utf-8"))


def _frames(client: TestClient, match_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    while True:
        page = client.get(f"/api/matches/{match_id}/frames?start={len(found)}&count=1000").json()
        found += page["frames"]
        if len(found) >= page["total"]:
            return found


def test_each_classic_step_lists_its_records_battles_as_attacks_and_arrows(
    client: TestClient, results_db: Path
) -> None:
    match = _match_of(results_db, "classic")
    _, records = _records(results_db, match["id"])
    frames = _frames(client, match["id"])
    assert frames[0]["attacks"] == []
    battles = 0
    for frame, record in zip(frames[1:], records, strict=True):
        expected = [e for e in record.get("events", []) if e["type"] == "battle"]
        assert len(frame["attacks"]) == len(expected), frame["step"]
        for attack, event in zip(frame["attacks"], expected, strict=True):
            assert attack["from"] == event["from"] and attack["to"] == event["to"]
            assert attack["seat"] == event["seat"]
            assert attack["attacker_dice"] == event["attacker_dice"]
            assert attack["defender_dice"] == event["defender_dice"]
            assert attack["attacker_losses"] == event["attacker_losses"]
        battles += len(expected)
        assert [(a["from"], a["to"], a["side"]) for a in frame["arrows"]] == [
            (a["from"], a["to"], a["seat"]) for a in frame["attacks"]
        ]
        for arrow, event in zip(frame["arrows"], expected, strict=True):
            dice = [
                "·".join(map(str, sorted(event[side], reverse=True)))
                for side in ("attacker_dice", "defender_dice")
            ]
            losses = f"(−{event['attacker_losses']} / −{event['defender_losses']})"
            assert arrow["label"] == f"⚔ {dice[0]} vs {dice[1]} {losses}"
            assert arrow["title"].endswith(f": {dice[0]} vs {dice[1]} {losses}")
    assert battles > 0


def _engine_final(db: Path, match_id: str, game_name: str) -> list[tuple[int, int]]:
    """(territories held, armies on the board) per seat after the last record, re-played."""
    header, records = _records(db, match_id)
    game, state = replay.start(header)
    for record in records:
        step = replay.apply_record(game, state, record)
        state = state if step is None else step.state
    view = game.view(state, 0)
    seats = len(header["seats"])
    if game_name == "classic":
        return [
            (
                sum(1 for o in view["owner"] if o == seat),
                sum(a for o, a in zip(view["owner"], view["armies"], strict=True) if o == seat),
            )
            for seat in range(seats)
        ]
    return [
        (
            sum(1 for t in view["territories"] if t["owner"] == seat),
            sum(
                sum(t["units"].get(seat, t["units"].get(str(seat), ())))
                for t in view["territories"]
            ),
        )
        for seat in range(seats)
    ]


def _plot_lines(page: str, kind: str) -> dict[int, tuple[float, int]]:
    """{seat: (last value, points)} of the plot whose title starts with ``kind``."""
    plots = re.findall(r'<svg class="plot lines".*?</svg>', page, re.S)
    plot = next(p for p in plots if re.search(rf"<title>{kind}", p))
    return {
        int(seat): (float(last), int(points))
        for seat, last, points in re.findall(
            r'<polyline class="series[^"]*"[^>]*data-seat="(\d+)" data-last="([\d.]+)" '
            r'data-points="(\d+)"',
            plot,
        )
    }


@pytest.mark.parametrize("game", ["classic", "europe"])
def test_the_match_page_plots_each_players_territories_and_armies(
    client: TestClient, results_db: Path, game: str
) -> None:
    match = _match_of(results_db, game)
    page = client.get(f"/matches/{match['id']}").text
    final = _engine_final(results_db, match["id"], game)
    territories = _plot_lines(page, "Territories held")
    armies = _plot_lines(page, "Armies on the board")
    assert sorted(territories) == sorted(armies) == list(range(match["seat_count"]))
    for seat, (held, on_board) in enumerate(final):
        assert territories[seat][0] == held, seat
        assert armies[seat][0] == on_board, seat
        assert territories[seat][1] > 10  # a point per step (thinned on long matches)


def test_the_api_docs_page_lists_every_route_offline(client: TestClient) -> None:
    for url in ("/api/", "/api"):
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert answer.headers["content-type"].startswith("text/html")
    page = client.get("/api/").text
    schema = client.get("/api/openapi.json").json()
    for path, item in schema["paths"].items():
        for method in item:
            assert f'data-method="{method.upper()}" data-path="{path}"' in page, (method, path)
    frames = page.split('data-path="/api/matches/{match_id}/frames"')[1].split("</section>")[0]
    assert 'data-parameter="start"' in frames and 'data-parameter="count"' in frames
    assert "≤ 1000" in frames  # the count's limit, from the schema
    assert "array of" in page  # response schemas are described
    host = "http://testserver"
    for attribute in re.findall(r'(?:src|href)="(https?://[^"]*)"', page):
        assert attribute.startswith(host + "/"), attribute  # nothing from another host
    assert 'href="/api/"' in client.get("/").text  # the nav's API link
    assert client.get("/api/nope").status_code == 404


TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?")


def test_pages_show_times_to_the_second(client: TestClient, results_db: Path) -> None:
    match = _match_of(results_db, "classic")
    tournament = match["tournament_id"]
    for url in ("/matches", f"/matches/{match['id']}", "/tournaments", f"/tournaments/{tournament}",
                "/bots/random"):  # fmt: skip
        shown = [m.group(0) for m in TIMESTAMP.finditer(client.get(url).text)]
        assert shown, url
        assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", s) for s in shown), (url, shown)
    assert match["finished_at"][:19].replace("T", " ") in client.get(f"/matches/{match['id']}").text
