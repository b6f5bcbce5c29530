"""Crosstable, replay show/export/verify by match id, and versus, through the CLI."""

from __future__ import annotations

import csv
import io
import json

from tests.scheduler.test_tournament import arena, ok


def small_tournament() -> str:
    out = ok(
        "tournament",
        "run",
        "--bot",
        "random",
        "--bot",
        "aggressive",
        "--seats",
        "2",
        "--rounds",
        "1",
        "--rules",
        "max_rounds=5",
        "--seed",
        "3",
        "--workers",
        "1",
        "--no-progress",
        "--json",
    )
    assert json.loads(out)["rows"]
    return json.loads(ok("tournament", "list", "--json"))[-1]["id"]


def test_crosstable_counts_every_pairing_and_matches_the_places():
    tid = small_tournament()
    table = json.loads(ok("tournament", "show", tid, "--json"))
    assert table["tournament"]["id"] == tid and table["tournament"]["recorded"] == 2
    pairs = {(p["a"], p["b"]): p for p in table["pairs"]}
    ab = pairs[("aggressive 1.0", "random 1.0")]
    ba = pairs[("random 1.0", "aggressive 1.0")]
    assert ab["games"] == ba["games"] == 2
    assert (ab["ahead"], ab["behind"], ab["level"]) == (ba["behind"], ba["ahead"], ba["level"])
    matches = json.loads(ok("matches", "--tournament", tid, "--json"))
    ahead = sum(
        1
        for m in matches
        if {s["bot"]: s["place"] for s in m["seats"]}["aggressive"]
        < {s["bot"]: s["place"] for s in m["seats"]}["random"]
    )
    assert ab["ahead"] == ahead
    rows = list(csv.reader(io.StringIO(ok("tournament", "show", tid, "--csv"))))
    assert rows[0] == ["a", "b", "games", "ahead", "behind", "level"] and len(rows) == 3
    text = ok("tournament", "show", tid)
    assert "crosstable" in text and "faults" in text
    assert arena("tournament", "show", "nope").returncode == 2


def test_replays_of_stored_matches_show_export_and_verify(tmp_path):
    tid = small_tournament()
    match_id = json.loads(ok("matches", "--tournament", tid, "--json"))[0]["id"]
    assert ok("replay", "verify", match_id).startswith("ok:")
    shown = ok("replay", "show", match_id)
    assert "round 1" in shown and "GAME OVER" in shown
    target = tmp_path / "out" / "match.jsonl"
    ok("replay", "export", match_id, str(target))
    header = json.loads(target.read_text().splitlines()[0])
    assert header["format"] == "risk-arena-replay" and header["match_id"] == match_id
    assert ok("replay", "verify", str(target)).startswith("ok:")
    assert arena("replay", "export", "nope", str(target)).returncode == 2
    assert arena("replay", "verify", "nope").returncode == 1


def test_versus_reports_a_rotated_series_and_the_sprt_stops_early():
    out = json.loads(
        ok(
            "versus",
            "aggressive",
            "random",
            "--games",
            "12",
            "--rules",
            "max_rounds=30",
            "--sprt",
            "0,100",
            "--seed",
            "4",
            "--json",
        )
    )
    assert out["a"] == "aggressive" and out["wins"] + out["draws"] + out["losses"] == out["games"]
    assert out["sprt"]["verdict"] == "H1" and out["games"] < 12
    seats = [tuple(r["seats"]) for r in out["results"][:2]]
    assert seats == [("A", "B"), ("B", "A")]
    assert out["results"][0]["seed"] == out["results"][1]["seed"]
    three = json.loads(
        ok(
            "versus",
            "aggressive",
            "random",
            "--seats",
            "3",
            "--filler",
            "random",
            "--games",
            "3",
            "--rules",
            "max_rounds=10",
            "--json",
        )
    )
    assert [tuple(r["seats"]) for r in three["results"]] == [
        ("A", "B", "filler"),
        ("B", "filler", "A"),
        ("filler", "A", "B"),
    ]
    assert arena("versus", "aggressive", "random", "--seats", "3").returncode == 2
    assert arena("versus", "aggressive", "random", "--sprt", "50,0").returncode == 2
