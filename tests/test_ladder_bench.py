"""benchmarks/ladder.py: its schedule, scoring and verdicts (the timings are never asserted)."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

_FILE = Path(__file__).resolve().parent.parent / "benchmarks" / "ladder.py"


@pytest.fixture(scope="module")
def ladder():
    spec = importlib.util.spec_from_file_location("ladder_bench", _FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["ladder_bench"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    yield module
    del sys.modules["ladder_bench"]


def test_every_seed_is_played_in_every_rotation(ladder):
    table = ladder.Table("six", ("a", "b", "c", "d", "e", "a"), 7)
    games = ladder.schedule(table, seed=1)
    assert len(games) == 12  # rounded up to whole rotations
    for group in (games[:6], games[6:]):
        assert len({seed for seed, _ in group}) == 1
        for seat in range(6):
            assert Counter(seats[seat] for _, seats in group) == Counter(table.lineup)
    assert games[0][0] != games[6][0]
    assert ladder.schedule(table, seed=1) == games
    assert ladder.schedule(table, seed=2)[0][0] != games[0][0]


def _outcome(places, think=((1.0,),) * 3, statuses=("OK",) * 3, out_order=()):
    return {
        "places": list(places),
        "out_order": list(out_order),
        "statuses": list(statuses),
        "strikes": [0, 0, 0],
        "think_ms": [list(t) for t in think],
        "end": "round_limit",
        "rounds": 150,
        "seconds": 1.0,
    }


def test_shared_first_place_splits_the_win_and_duplicates_add_up(ladder):
    table = ladder.Table("three", ("x", "y", "x"), 3)
    games = ladder.schedule(table, seed=1)
    outcomes = [
        _outcome([1, 2, 3], out_order=(2, 1)),  # seats x, y, x: x wins, the other x out first
        _outcome([1, 1, 3], statuses=("OK", "OK", "TIMEOUT")),  # y, x, x: y and x share
        _outcome([2, 1, 3], think=((1.0,), (100.0,), (2.0,)), out_order=(2,)),  # x, x, y: x wins
    ]
    summary = ladder.summarize(table, games, outcomes, wall=3.0, move_ms=50.0)
    rows = {r["bot"]: r for r in summary["bots"]}
    assert rows["x"]["games"] == 6 and rows["y"]["games"] == 3
    assert rows["x"]["wins"] == pytest.approx(2.5) and rows["y"]["wins"] == pytest.approx(0.5)
    assert rows["x"]["par_pct"] == pytest.approx(100 / 3)
    assert rows["x"]["win_low_pct"] < rows["x"]["win_pct"] < rows["x"]["win_high_pct"]
    assert rows["x"]["over_move_time"] == 1 and rows["x"]["statuses"] == {"TIMEOUT": 1}
    assert rows["x"]["first_out_pct"] == pytest.approx(100 / 6)  # 1 of its 6 seat-games
    assert rows["y"]["first_out_pct"] == pytest.approx(100 / 3)
    assert summary["games_per_min"] == pytest.approx(60.0)
    assert [p["places"] for p in summary["played"]] == [o["places"] for o in outcomes]


def _pair(ladder, upper_wins: float, games: int = 200) -> dict:
    table = ladder.Table("ladder", ("up", "down"), games)
    seats = ladder.schedule(table, seed=1)
    outcomes = []
    for i, (_, lineup) in enumerate(seats):
        up_first = i < upper_wins
        places = [1, 2] if (lineup[0] == "up") == up_first else [2, 1]
        outcomes.append({**_outcome(places), "statuses": ["OK"] * 2, "strikes": [0, 0]})
        outcomes[-1]["think_ms"] = [[1.0], [1.0]]
    return ladder.summarize(table, seats, outcomes, wall=1.0, move_ms=50.0)


def test_ladder_verdict_needs_the_interval(ladder):
    assert ladder.ladder_verdict(_pair(ladder, 130)) == "holds"
    assert ladder.ladder_verdict(_pair(ladder, 105)) == "unresolved"
    assert ladder.ladder_verdict(_pair(ladder, 70)) == "reversed"


def test_ladder_rungs_pair_every_bot_with_the_rung_below_and_its_own_rung(ladder):
    rungs = ladder.parse_ladder("a, b=c ,d")
    assert rungs == [("a",), ("b", "c"), ("d",)]
    tables = ladder.ladder_tables(rungs, 10)
    pairs = {(t.lineup, t.expect) for t in tables}
    assert pairs == {
        (("b", "a"), "holds"),
        (("c", "a"), "holds"),
        (("d", "b"), "holds"),
        (("d", "c"), "holds"),
        (("b", "c"), "level"),
    }
    with pytest.raises(ladder.ConfigError):
        ladder.parse_ladder("a=b")


def test_a_shared_rung_is_as_documented_only_while_level(ladder):
    level = {**_pair(ladder, 105), "expect": "level"}
    apart = {**_pair(ladder, 130), "expect": "level"}
    assert ladder.ladder_as_documented(level)
    assert not ladder.ladder_as_documented(apart)
    assert ladder.ladder_as_documented({**apart, "expect": "holds"})
    assert not ladder.ladder_as_documented({**level, "expect": "holds"})


def test_targets_report_met_not_met_and_not_measured(ladder):
    summary = _pair(ladder, 130)
    summary["kind"] = "h2h"
    found = {t["target"]: t["met"] for t in ladder.targets([summary], "up", move_ms=50.0)}
    assert found["up ≥ 60% head-to-head against down"] is True
    ladder_target = (
        "the documented ladder order holds for every pair of adjacent rungs "
        "(and bots sharing a rung stay level)"
    )
    assert found[ladder_target] is None
    assert any("6-player" in k and v is None for k, v in found.items())
    assert found["every bot's p99 decision time ≤ 30% of the move time (15.0 ms)"] is True


def test_europe_scores_only_the_winner_alone_in_first_place(ladder):
    table = ladder.Table("three", ("x", "y", "z"), 3)
    games = ladder.schedule(table, seed=1)
    outcomes = [
        {**_outcome([1, 2, 3]), "winner": 0},  # x, y, z: x wins
        {**_outcome([1, 1, 3]), "winner": None},  # y, z, x: a shared first place is no win
        {**_outcome([2, 1, 3]), "winner": 1},  # z, x, y: x wins
    ]
    summary = ladder.summarize(table, games, outcomes, wall=3.0, move_ms=100.0, winner_only=True)
    rows = {r["bot"]: r for r in summary["bots"]}
    assert (rows["x"]["wins"], rows["y"]["wins"], rows["z"]["wins"]) == (2, 0, 0)


def test_europe_tables_and_targets_run_end_to_end(ladder, tmp_path, capsys):
    report = tmp_path / "europe.json"
    code = ladder.main(
        [
            "--game",
            "europe",
            "--tables",
            "four,h2h",
            "--four-games",
            "4",
            "--h2h-games",
            "2",
            "--h2h",
            "random:random",
            "--four",
            "random,random,random,random",
            "--max-rounds",
            "3",
            "--workers",
            "1",
            "--subject",
            "random",
            "--json",
            str(report),
        ]
    )
    assert code == 0
    data = json.loads(report.read_text())
    assert [t["kind"] for t in data["tables"]] == ["four", "h2h"]
    assert data["settings"]["game"] == "europe" and data["settings"]["max_rounds"] == 3
    for table in data["tables"]:
        assert set(table["ends"]) <= {"crowns", "round_limit", "elimination"}
        wins = sum(row["wins"] for row in table["bots"])
        assert wins <= table["games"]  # shared first places score nothing
    assert len(data["targets"]) == 4 and "80%" in data["targets"][0]["target"]
    assert "Python bots in-process" in capsys.readouterr().out


def test_europe_search_tables_seat_europe_strong_against_the_reference(ladder):
    args = _args(ladder, "--game", "europe", "--tables", "search4,search2", "--h2h-games", "10")
    tables = ladder._europe_tables(args)
    assert [(t.kind, t.lineup, t.games) for t in tables] == [
        ("search4", ("europe-strong",) + ("europe-heuristic",) * 3, args.four_games),
        ("search2", ("europe-strong", "europe-heuristic"), 10),
    ]
    summaries = [
        _search_summary(ladder, "search4", 4, win_pct=45.0, p99=55.0),
        _search_summary(ladder, "search3", 3, win_pct=40.0, p99=65.0),
    ]
    found = ladder.targets(summaries, "europe-strong", move_ms=100.0, game="europe")
    assert [(t["target"], t["met"]) for t in found] == [
        ("europe-strong ≥ 2× par (50.0%) of 4-player games against europe-heuristic", False),
        ("europe-strong ≥ par (33.3%) of 3-player games against europe-heuristic", True),
        ("europe-strong's p99 decision time ≤ 60% of the move time (60.0 ms)", False),
    ]


def _search_summary(ladder, kind: str, seats: int, win_pct: float, p99: float) -> dict:
    lineup = ["europe-strong"] + ["europe-heuristic"] * (seats - 1)
    row = {"bot": "europe-strong", "games": 100, "win_pct": win_pct, "win_low_pct": 1.0}
    row |= {"win_high_pct": 99.0, "think_ms_p99": p99}
    other = {"bot": "europe-heuristic", "games": 300, "win_pct": 10.0, "think_ms_p99": 1.0}
    return {"kind": kind, "label": kind, "lineup": lineup, "bots": [row, other]}


def test_europe_refuses_a_table_of_classic_only(ladder, capsys):
    assert ladder.main(["--game", "europe", "--tables", "six"]) == 2
    assert ladder.main(["--game", "europe", "--four", "strong,random,random,random"]) == 2
    err = capsys.readouterr().err
    assert "four, mixed, three and h2h" in err and "plays classic, not europe" in err


def _args(ladder, *argv: str):
    args = ladder.parse_args(list(argv))
    args.subject = args.subject or ladder.SUBJECT
    return args


def test_reference_tables_seat_the_subject_against_the_frozen_reference(ladder):
    args = _args(ladder, "--tables", "ref2,ref6,ref3", "--ref6-games", "10")
    tables = ladder.build_tables(args)
    assert [(t.kind, t.lineup, t.games) for t in tables] == [
        ("ref3", ("strong", "planner", "planner"), 400),
        ("ref6", ("strong",) + ("planner",) * 5, 10),
        ("ref2", ("strong", "planner"), 400),
    ]
    assert len(ladder.schedule(tables[1], seed=1)) == 12  # whole rotations
    assert tables[0].label == "ref3 strong vs 2× planner"
    assert tables[2].label == "ref2 strong vs planner"
    default = ladder.build_tables(_args(ladder))
    assert [t.kind for t in default] == ["six", "three", "h2h"]


def test_reference_tables_refuse_the_reference_as_subject_and_unknown_kinds(ladder):
    with pytest.raises(ladder.ConfigError, match="--subject other than --reference"):
        ladder.build_tables(_args(ladder, "--tables", "ref2", "--subject", "planner"))
    with pytest.raises(ladder.ConfigError, match="ref3, ref6 and ref2, got ref4"):
        ladder.build_tables(_args(ladder, "--tables", "ref4"))


def _reference_summary(ladder, kind: str, subject_wins: int, think: float) -> dict:
    """A reference table where the subject wins ``subject_wins`` games and thinks ``think`` ms
    a decision (the reference 1 ms)."""
    seats = ladder.REFERENCE_KINDS[kind]
    table = ladder.Table(kind, ("up",) + ("ref",) * (seats - 1), 60)
    games = ladder.schedule(table, seed=1)
    outcomes = []
    for i, (_, lineup) in enumerate(games):
        winner = lineup.index("up") if i < subject_wins else (lineup.index("up") + 1) % seats
        places = [1 if s == winner else 2 for s in range(seats)]
        think_ms = [[think] if name == "up" else [1.0] for name in lineup]
        outcomes.append(
            {
                **_outcome(places),
                "statuses": ["OK"] * seats,
                "strikes": [0] * seats,
                "think_ms": think_ms,
            }
        )
    return ladder.summarize(table, games, outcomes, wall=1.0, move_ms=50.0)


def test_reference_targets_and_their_own_p99_share(ladder):
    summaries = [
        _reference_summary(ladder, "ref3", 31, 25.0),  # 51.7%
        _reference_summary(ladder, "ref6", 19, 25.0),  # 31.7% < 2× par
        _reference_summary(ladder, "ref2", 40, 25.0),  # 66.7%
    ]
    found = ladder.targets(summaries, "up", move_ms=50.0, reference_bot="ref")
    met = {t["target"]: t["met"] for t in found}
    assert met == {
        "up ≥ 50% (par 33.3%) of 3-player games against two ref": True,
        "up ≥ 2× par (33.3%) of 6-player games against five ref": False,
        "up ≥ 65% head-to-head (2-player neutral game) against ref": True,
        "up's p99 decision time ≤ 60% of the move time (30.0 ms) in the reference tables": True,
    }  # only reference tables ran: the ladder's own targets are left out
    slow = [_reference_summary(ladder, "ref2", 40, 31.0)]
    found = ladder.targets([*slow, _pair(ladder, 130)], "up", move_ms=50.0, reference_bot="ref")
    p99 = {t["target"][:12]: t["met"] for t in found if "p99" in t["target"]}
    assert p99["up's p99 dec"] is False  # 31 ms > 60% of 50 ms in the reference table
    # the 30% target covers the other tables only: a 31 ms subject there would fail it
    assert p99["every bot's "] is True
    assert any("6-player table" in t["target"] for t in found)


def test_move_times_must_be_positive_seconds(ladder, capsys):
    assert ladder.parse_move_times("0.05, 0.25,1") == [0.05, 0.25, 1.0]
    for bad in ("", "0.05,x", "0.05,0", "-1", "nan"):
        with pytest.raises(ladder.ConfigError, match="--move-times takes seconds > 0"):
            ladder.parse_move_times(bad)
    assert ladder.main(["--move-times", "0.05,fast"]) == 2
    assert ladder.main(["--move-time", "0.05", "--move-times", "0.05,0.1"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("ladder: --move-times takes seconds > 0")
    assert err[1] == "ladder: give --move-time or --move-times, not both"


def test_reference_tables_at_several_move_times_end_to_end(ladder, tmp_path, capsys):
    report = tmp_path / "ref.json"
    code = ladder.main(
        [
            "--tables",
            "ref2,ref3",
            "--ref2-games",
            "2",
            "--ref3-games",
            "3",
            "--subject",
            "random",
            "--reference",
            "aggressive",
            "--max-rounds",
            "3",
            "--workers",
            "1",
            "--move-times",
            "0.2,0.1",
            "--json",
            str(report),
        ]
    )
    assert code == 0
    data = json.loads(report.read_text())
    assert data["settings"]["move_times_s"] == [0.2, 0.1]
    assert data["settings"]["reference"] == "aggressive"
    assert [(t["kind"], t["move_time_s"]) for t in data["tables"]] == [
        ("ref3", 0.2),
        ("ref2", 0.2),
        ("ref3", 0.1),
        ("ref2", 0.1),
    ]
    assert [t["lineup"] for t in data["tables"][:2]] == [
        ["random", "aggressive", "aggressive"],
        ["random", "aggressive"],
    ]
    assert {t["move_time_s"] for t in data["targets"]} == {0.2, 0.1}
    assert [row["move_time_s"] for row in data["strength"]] == [0.2, 0.1]
    for row, tables in zip(data["strength"], (data["tables"][:2], data["tables"][2:]), strict=True):
        scores = [(t["label"], t["win_pct"]) for t in row["tables"]]
        assert scores == [(t["label"], t["bots"][0]["win_pct"]) for t in tables]
        assert row["decisions"] == sum(t["bots"][0]["decisions"] for t in tables)
        assert row["think_ms_p99"] is not None
    out = capsys.readouterr().out
    assert "move times 200, 100 ms" in out and "== strength vs move time (random" in out


def test_rules_options_reach_every_table_and_bad_ones_exit_2(ladder, tmp_path, capsys):
    report = tmp_path / "rules.json"
    argv = ["--tables", "ref3", "--ref3-games", "3", "--subject", "random"]
    argv += ["--reference", "aggressive", "--workers", "1", "--json", str(report)]
    assert ladder.main([*argv, "--rules", "deal=random", "--rules", "max_rounds=2"]) == 0
    settings = json.loads(report.read_text())["settings"]
    assert settings["rules"] == ["deal=random", "max_rounds=2"]
    assert settings["max_rounds"] == 2  # read back from the configured game
    assert "max_rounds 2, deal=random, max_rounds=2, seed 1" in capsys.readouterr().out
    assert ladder.main([*argv, "--rules", "deal=shuffled"]) == 2
    assert ladder.main(["--tables", "ref2", "--rules", "deal=claim"]) == 2
    assert ladder.main([*argv, "--rules", "nonsense"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and all(line.startswith("ladder: ") for line in err)
    assert "deal" in err[0] and "2-player game deals" in err[1]


@pytest.mark.parametrize("page", ["README.md", "docs/bots.md"])
def test_the_ladder_is_the_documented_bundled_bot_rungs(ladder, page):
    """LADDER states the bundled-bot table of the README and of docs/bots.md: each rung on
    the next row of it."""
    text = (_FILE.parent.parent / page).read_text()
    rows = re.findall(r"^\| (\d+) \| (`[^|]+`) \| ", text, flags=re.MULTILINE)
    rung_of = {name: int(n) for n, cell in rows for name in re.findall(r"`([\w-]+)`", cell)}
    rungs = ladder.parse_ladder(ladder.LADDER)
    assert [{rung_of[name] for name in rung} for rung in rungs] == [
        {i} for i in range(1, len(rungs) + 1)
    ]
    assert rungs[-2:] == [("planner",), ("strong",)]
