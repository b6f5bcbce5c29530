"""A tournament's report on synthetic stores: standings per pool, the pairwise matrix against
the seats, a planted cycle, forfeits, gauntlet scores, live and latest matches, and
``arena tournament show`` (its text at twenty versions, its JSON keys only added to)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from arena.results import reports
from arena.results.pairwise import PairScore
from arena.results.store import open_store
from arena.results.tournament_report import pairwise_report, tournament_report
from tests.cli_run import run
from tests.synthetic_tournament import build


def _report(db: Path, tid: str = "synth") -> dict:
    with open_store(db, read_only=True) as store:
        return tournament_report(store, tid)


def test_standings_per_pool_count_each_versions_seats(tmp_path: Path):
    db = tmp_path / "a.db"
    build(db, versions=6, matches=300, seats=(2, 3))
    report = _report(db)
    assert report["format"] == "ladder" and [v["pool"] for v in report["pools"]] == [
        "classic/2p/world",
        "classic/3p/world",
    ]
    with sqlite3.connect(db) as conn:
        for view in report["pools"]:
            counted = dict(
                conn.execute(
                    "SELECT s.version_id, COUNT(*) FROM seats s JOIN matches m ON m.id = s.match_id"
                    " WHERE m.pool = ? GROUP BY s.version_id",
                    (view["pool"],),
                ).fetchall()
            )
            assert {r["version_id"]: r["games"] for r in view["standings"]} == counted
            assert view["matches"] == 150 and view["quality"]["matches"] == 150
            assert sum(t["matches"] for t in view["quality"]["thirds"]) == 150
            last = {}
            for vid, mu, sigma in conn.execute(
                "SELECT h.version_id, h.mu_after, h.sigma_after FROM rating_history h"
                " JOIN matches m ON m.id = h.match_id WHERE m.pool = ? ORDER BY m.plan_index",
                (view["pool"],),
            ):
                last[vid] = (mu, sigma)
            for row in view["standings"]:
                assert (row["mu"], row["sigma"]) == last[row["version_id"]]
                assert row["settled"] == (row["sigma"] <= 1.5)
                assert (row["games_needed"] == 0) == row["settled"]
            scores = [r["mu_minus_3sigma"] for r in view["standings"]]
            assert scores == sorted(scores, reverse=True)
            assert [r["rank"] for r in view["standings"]] == list(range(1, 7))


def test_the_matrix_agrees_with_the_seats(tmp_path: Path):
    db = tmp_path / "a.db"
    build(db, versions=5, matches=200, seats=(3,))
    view = _report(db)["pools"][0]
    cells = {(c["a"], c["b"]): c for c in view["pairwise"]["cells"]}
    with sqlite3.connect(db) as conn:
        seats = conn.execute("SELECT match_id, version_id, place FROM seats").fetchall()
    by_match: dict[str, list[tuple[str, int]]] = {}
    for match, vid, place in seats:
        by_match.setdefault(match, []).append((vid, place))
    want: dict[tuple[str, str], list[int]] = {}
    for lineup in by_match.values():
        for a, pa in lineup:
            for b, pb in lineup:
                if a != b:
                    want.setdefault((a, b), [0, 0, 0])[0 if pa < pb else 2 if pa > pb else 1] += 1
    assert set(cells) == set(want)
    for pair, (w, t, lost) in want.items():
        cell = cells[pair]
        assert (cell["wins"], cell["ties"], cell["losses"]) == (w, t, lost)
        assert (cell["low"], cell["high"]) == pytest.approx(PairScore(w, t, lost).interval())


def test_a_planted_cycle_is_found_and_significant(tmp_path: Path):
    db = tmp_path / "a.db"
    build(db, versions=8, matches=3000, seats=(2,), cycle=(3, 4, 5), seed=4)
    view = _report(db)["pools"][0]
    ring = [f"v0{i}" + "0" * 14 for i in (3, 4, 5)]
    found = [(c["versions"], c["significant"]) for c in view["cycles"]]
    assert ([ring[0], ring[1], ring[2]], True) in found
    assert any(set(ring) <= set(group) for group in view["cyclic_groups"])
    plain = tmp_path / "b.db"
    build(plain, versions=8, matches=3000, seats=(2,), seed=4)
    assert _report(plain)["pools"][0]["cycles"] == []


def test_a_forfeit_is_a_loss_even_when_placed_ahead(tmp_path: Path):
    db = tmp_path / "a.db"
    build(db, versions=3, matches=1, seats=(3,), seed=2)
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT seat, version_id, place FROM seats ORDER BY seat").fetchall()
        first = next(r for r in rows if r[2] == 1)
        # the winner crashed first: the ratings' rule ranks it behind the seats still playing
        conn.execute("UPDATE seats SET status = 'CRASH' WHERE seat = ?", (first[0],))
        conn.execute("UPDATE matches SET out_order_json = ?", (json.dumps([first[0]]),))
    cells = {(c["a"], c["b"]): c for c in _report(db)["pools"][0]["pairwise"]["cells"]}
    for other in (r[1] for r in rows if r[1] != first[1]):
        assert cells[(first[1], other)]["losses"] == 1 and cells[(first[1], other)]["score"] == 0.0


def test_gauntlet_scores_each_challenger_against_each_opponent(tmp_path: Path):
    db = tmp_path / "a.db"
    build(db, versions=5, matches=400, seats=(2,), fmt="gauntlet", challengers=["bot-00", "bot-04"])
    report = _report(db)
    assert report["format"] == "gauntlet" and report["challengers"] == ["bot-00", "bot-04"]
    cells = {(c["a"], c["b"]): c for c in report["pools"][0]["pairwise"]["cells"]}
    assert sorted(g["bot"] for g in report["gauntlet"]) == ["bot-00", "bot-04"]
    for row in report["gauntlet"]:
        opponents = [o["bot"] for o in row["opponents"]]
        assert sorted(opponents) == ["bot-01", "bot-02", "bot-03"]  # never the other challenger
        for o in row["opponents"]:
            cell = cells[(row["challenger"], o["version_id"])]
            assert {k: o[k] for k in cell} == cell
    assert pairwise_report(report)["gauntlet"] == report["gauntlet"]
    assert _report(tmp_path / "a.db")["gauntlet"]  # stable on a second read


@pytest.mark.parametrize("fmt,shown", [("round-robin", 4), ("ladder", 12)])
def test_live_matches_are_the_unrecorded_plan(tmp_path: Path, fmt: str, shown: int):
    db = tmp_path / "a.db"
    build(db, versions=4, matches=20, unrecorded=12, fmt=fmt)  # settings: 2 workers
    report = _report(db)
    live = report["live"]
    assert live["running"] and live["unrecorded"] == 12
    assert [m["plan_index"] for m in live["matches"]] == list(range(20, 20 + shown))
    assert all(s["name"].startswith("bot-") for m in live["matches"] for s in m["seats"])
    recent = report["recent"]
    assert [m["plan_index"] for m in recent] == list(range(19, 9, -1))
    assert all(m["quality"] is not None and 0 < m["quality"] <= 1 for m in recent)


def test_tournament_show_adds_the_report_and_keeps_its_keys(tmp_path: Path, capsys):
    db = tmp_path / "a.db"
    build(db, versions=20, matches=2000, seats=(2, 3), cycle=(3, 4, 5), unrecorded=3)
    code, out, _ = run(capsys, "tournament", "show", "synth", "--db", str(db), "--json")
    assert code == 0
    shown = json.loads(out)
    with open_store(db, read_only=True) as store:
        old = reports.crosstable(store, "synth")
        new = tournament_report(store, "synth")
    assert {k: shown[k] for k in old} == json.loads(json.dumps(old))  # existing keys unchanged
    assert {k: shown[k] for k in new} == json.loads(json.dumps(new))
    code, text, _ = run(capsys, "tournament", "show", "synth", "--db", str(db))
    assert code == 0
    for words in ("standings · classic/2p/world", "pairwise · classic/3p/world", "match quality",
                  "non-transitive cycle", "latest results", "queued or playing · 3 matches"):  # fmt: skip
        assert words in text
    assert max(len(line) for line in text.splitlines()) <= 160  # piped: 160 columns at most
    code, csv_out, _ = run(capsys, "tournament", "show", "synth", "--db", str(db), "--csv")
    assert code == 0 and csv_out.splitlines()[0] == "a,b,games,ahead,behind,level"


def test_tournament_show_of_an_unknown_tournament(tmp_path: Path, capsys):
    db = tmp_path / "a.db"
    build(db, versions=3, matches=5)
    code, _out, err = run(capsys, "tournament", "show", "nope", "--db", str(db))
    assert code == 2 and "no tournament 'nope'" in err and "Traceback" not in err
