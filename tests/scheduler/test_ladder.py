"""Ladders, gauntlets and finals: matchmaking statistics, exact resume after ``kill -9``,
entries that change while a ladder runs, flagged versions, finals cut as scheduled.

Matches are real (bundled bots in-process, short games); databases are real SQLite files.
"""

from __future__ import annotations

import contextlib
import importlib.util
import itertools
import json
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from arena.results.ratings import SIGMA
from arena.results.settling import SETTLED_SIGMA
from arena.results.store import open_store
from arena.scheduler.ladder import decision_prefix, parse_cuts
from arena.scheduler.matchmaking import window_size
from tests.cli_run import Capsys, run
from tests.waiting import wait_until

ARENA = str(Path(sys.executable).with_name("arena"))
FIVE = ("random", "aggressive", "continent", "defensive", "planner")
SHORT = "max_rounds=6"
"""Short games: a ladder test is about who meets whom, not about play."""


def ladder(db: Path, *extra: str, bots: tuple[str, ...] = FIVE, seed: int = 7) -> list[str]:
    """``arena tournament run --format ladder`` over ``bots``, in-process, 2 workers."""
    args = ["tournament", "run", "--format", "ladder", "--rules", SHORT, "--in-process"]
    args += ["--workers", "2", "--seed", str(seed), "--no-progress", "--db", str(db)]
    for bot in bots:
        args += ["--bot", bot]
    return args + list(extra)


def ok(capsys: Capsys, *args: str) -> str:
    code, out, err = run(capsys, *args)
    assert code == 0, err
    return out


def one_error(capsys: Capsys, *args: str) -> str:
    code, out, err = run(capsys, *args)
    assert code == 2, (code, out, err)
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("arena: error:")]
    assert len(lines) == 1, err
    return lines[0]


def only_tournament(db: Path) -> str:
    with open_store(db) as store:
        (row,) = store.tournaments()
        return str(row["id"])


def played(db: Path, tournament_id: str) -> list[tuple[int, tuple[str, ...], int, tuple[int, ...]]]:
    """Each recorded match: plan index, seated versions, seed, places."""
    with open_store(db) as store:
        plan = {p["plan_index"]: p for p in store.planned(tournament_id)}
        rows = []
        for match in store.matches(tournament_id):
            seats = sorted(store.seats_of(match["id"]), key=lambda s: s["seat"])
            index = match["plan_index"]
            assert [s["version_id"] for s in seats] == plan[index]["seats"]
            assert match["seed"] == plan[index]["seed"]
            rows.append(
                (
                    index,
                    tuple(plan[index]["seats"]),
                    match["seed"],
                    tuple(s["place"] for s in seats),
                )
            )
        return sorted(rows)


def ratings(db: Path) -> dict[tuple[str, str], tuple[float, float, int]]:
    with open_store(db) as store:
        return {
            (r["pool"], r["version_id"]): (r["mu"], r["sigma"], r["games"]) for r in store.ratings()
        }


def entries(db: Path, tournament_id: str) -> dict[str, dict[str, Any]]:
    with open_store(db) as store:
        return {
            row["bot"] + "@" + row["version_id"]: row for row in store.ladder_entries(tournament_id)
        }


def assert_rebuild_keeps_ratings(capsys: Capsys, db: Path) -> None:
    before = ratings(db)
    ok(capsys, "ratings", "rebuild", "--db", str(db))
    after = ratings(db)
    assert after.keys() == before.keys()
    for key, (mu, sigma, games) in before.items():
        assert after[key][2] == games
        assert after[key][0] == pytest.approx(mu, abs=1e-9)
        assert after[key][1] == pytest.approx(sigma, abs=1e-9)


# ---------------------------------------------------------------- matchmaking, pure


def test_the_window_is_heavy_tailed_as_documented() -> None:
    """P(window >= seats - 1 + x) = 1 / (1 + x): half the tables are the nearest, one in ten
    reaches 9 further."""
    rng = random.Random(1)
    draws = [window_size(3, rng) - 2 for _ in range(20_000)]
    assert min(draws) == 0
    for x, expected in ((1, 1 / 2), (4, 1 / 5), (9, 1 / 10), (99, 1 / 100)):
        share = sum(d >= x for d in draws) / len(draws)
        assert share == pytest.approx(expected, abs=0.01), x


def _benchmark() -> ModuleType:
    """``benchmarks/matchmaking.py``, whose simulated ladders these tests check."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "matchmaking.py"
    spec = importlib.util.spec_from_file_location("matchmaking_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


simulate = _benchmark().simulate


@pytest.mark.parametrize("seed", range(20))
def test_games_per_version_stay_within_one_and_a_half(seed: int) -> None:
    """The issue's case: 60 matches, 3 seats, 5 versions: the most-played at most 1.5x the
    least-played (in fact within 1.3x on these seeds)."""
    games, _, _ = simulate(5, 60, 3, batch=2, seed=seed)
    assert sum(games.values()) == 180
    assert max(games.values()) <= 1.5 * min(games.values())


def test_tables_close_in_on_rating_as_the_ladder_learns() -> None:
    """In the last third of a long ladder, tables are closer in skill than random tables."""
    games, tables, skill = simulate(12, 450, 3, batch=2, seed=5)
    assert max(games.values()) <= 1.1 * min(games.values())
    spread = [max(skill[v] for v in t) - min(skill[v] for v in t) for t in tables[300:]]
    random_spread = [
        max(skill[v] for v in t) - min(skill[v] for v in t)
        for t in itertools.combinations(sorted(skill), 3)
    ]
    assert sum(spread) / len(spread) < 0.6 * sum(random_spread) / len(random_spread)
    met = {frozenset(p) for t in tables for p in itertools.combinations(t, 2)}
    assert len(met) >= 0.9 * 12 * 11 // 2  # the heavy tail: far versions meet too


def test_everyone_meets_everyone() -> None:
    """Eight versions spread over 21 points of skill: every pair met within 300 matches."""
    _, tables, _ = simulate(8, 300, 3, batch=2, seed=0)
    met = {frozenset(p) for t in tables for p in itertools.combinations(t, 2)}
    assert len(met) == 8 * 7 // 2


def test_finals_steps_are_parsed_and_checked() -> None:
    assert parse_cuts("20:16,40:8,80:4") == [(20, 16), (40, 8), (80, 4)]
    for bad in ("20", "20:x", "0:4", "20:4,10:2", "20:4,40:4", ""):
        with pytest.raises(Exception, match=r"finals steps?"):
            parse_cuts(bad)


# ---------------------------------------------------------------- a ladder end to end


def test_a_ladder_plays_even_games_and_rebuilds_to_the_same_ratings(
    tmp_path: Path, capsys: Capsys
) -> None:
    db = tmp_path / "a.db"
    out = ok(capsys, *ladder(db, "--seats", "3", "--matches", "60", "--json"))
    board = json.loads(out)
    games = {row["bot"]: row["recorded_matches"] for row in board["rows"]}
    assert sum(games.values()) == 180 and set(games) == set(FIVE)
    assert max(games.values()) <= 1.5 * min(games.values())
    tournament_id = only_tournament(db)
    matches = json.loads(
        ok(capsys, "matches", "--tournament", tournament_id, "--json", "--db", str(db))
    )
    assert sorted(m["plan_index"] for m in matches) == list(range(60))
    listed = json.loads(ok(capsys, "tournament", "list", "--json", "--db", str(db)))
    assert (listed[0]["status"], listed[0]["recorded"], listed[0]["planned"]) == (
        "finished",
        60,
        60,
    )
    assert_rebuild_keeps_ratings(capsys, db)
    # Resuming with a higher target extends it; the same matches are not played again.
    before = played(db, tournament_id)
    ok(
        capsys,
        "tournament",
        "resume",
        tournament_id,
        "--matches",
        "70",
        "--no-progress",
        "--db",
        str(db),
    )
    after = played(db, tournament_id)
    assert after[:60] == before and len(after) == 70
    assert "at least that" in one_error(
        capsys, "tournament", "resume", tournament_id, "--matches", "5", "--db", str(db)
    )


def test_kill_9_and_resume_plays_exactly_the_uninterrupted_ladder(
    tmp_path: Path, capsys: Capsys
) -> None:
    whole, broken = tmp_path / "whole.db", tmp_path / "broken.db"
    settings = ("--seats", "3", "--matches", "120")
    ok(capsys, *ladder(whole, *settings, seed=11))
    process = subprocess.Popen(
        [ARENA, *ladder(broken, *settings, seed=11)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_until(lambda: peek(broken, "SELECT COUNT(*) FROM matches") >= 10, 120)
        process.send_signal(signal.SIGKILL)
        assert process.wait(60) == -signal.SIGKILL
    finally:
        if process.poll() is None:
            process.kill()
    cut = peek(broken, "SELECT COUNT(*) FROM matches")
    assert 10 <= cut < 120, "the run ended before it could be killed"
    tournament_id = only_tournament(broken)
    ok(capsys, "tournament", "resume", tournament_id, "--no-progress", "--db", str(broken))
    assert played(broken, tournament_id) == played(whole, only_tournament(whole))
    assert ratings(broken) == ratings(whole)


def test_entries_change_while_the_ladder_runs(tmp_path: Path, capsys: Capsys) -> None:
    """A bot added enters at the next decision and plays within two batches; a removed one is
    not seated after it left; the changes are stored at the index they took effect."""
    db = tmp_path / "a.db"
    ok(capsys, *ladder(db, "--seats", "2", "--matches", "20", bots=FIVE[:4]))
    tournament_id = only_tournament(db)
    out = ok(capsys, "tournament", "add", tournament_id, "--bot", "planner", "--db", str(db))
    assert "planner" in out and "next decision" in out
    ok(capsys, "tournament", "remove", tournament_id, "--bot", "random", "--db", str(db))
    ok(
        capsys,
        "tournament",
        "resume",
        tournament_id,
        "--matches",
        "40",
        "--no-progress",
        "--db",
        str(db),
    )
    rows = {row["bot"]: row for row in entries(db, tournament_id).values()}
    assert rows["planner"]["joined_index"] == 20
    assert (rows["random"]["left_index"], rows["random"]["leave_reason"]) == (20, "removed")
    matches = played(db, tournament_id)
    names = {row["version_id"]: bot for bot, row in rows.items()}
    first = min(i for i, seats, _, _ in matches if "planner" in {names[v] for v in seats})
    assert 20 <= first < 20 + 2 * 2  # a new entry has fewest games: seeded at once
    assert all("random" not in {names[v] for v in seats} for i, seats, _, _ in matches if i >= 20)
    shown = json.loads(ok(capsys, "tournament", "show", tournament_id, "--json", "--db", str(db)))
    status = {row["bot"]: row["status"] for row in shown["entries"]}
    assert status == {
        "random": "removed",
        "aggressive": "active",
        "continent": "active",
        "defensive": "active",
        "planner": "active",
    }
    assert "removed" in ok(capsys, "tournament", "show", tournament_id, "--db", str(db))
    assert "already in ladder" in one_error(
        capsys, "tournament", "add", tournament_id, "--bot", "planner", "--db", str(db)
    )
    assert "is not in ladder" in one_error(
        capsys, "tournament", "remove", tournament_id, "--bot", "strong", "--db", str(db)
    )


def test_a_running_ladder_takes_entries_and_waits_when_too_few_remain(
    tmp_path: Path, capsys: Capsys
) -> None:
    """A ladder without a target runs until stopped: a bot added meanwhile is seated; with
    fewer entries than a table it waits, and goes on when one arrives."""
    db, err = tmp_path / "a.db", tmp_path / "err"
    with err.open("w") as errors:
        process = subprocess.Popen(
            [ARENA, *ladder(db, "--seats", "2", bots=FIVE[:3])],
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )
    try:
        assert wait_until(lambda: peek(db, "SELECT COUNT(*) FROM matches") >= 4, 120)
        tournament_id = only_tournament(db)
        ok(capsys, "tournament", "add", tournament_id, "--bot", "planner", "--db", str(db))
        seated = "SELECT COUNT(*) FROM seats WHERE bot = ?"
        assert wait_until(lambda: peek(db, seated, ("planner",)) >= 3, 120)
        retire = [flag for bot in FIVE[:3] for flag in ("--bot", bot)]
        ok(capsys, "tournament", "remove", tournament_id, *retire, "--db", str(db))
        left = "SELECT COUNT(*) FROM ladder_entries WHERE left_index IS NOT NULL"
        assert wait_until(lambda: peek(db, left) == 3, 120)  # planner alone: it waits
        ok(capsys, "tournament", "add", tournament_id, "--bot", "defensive", "--db", str(db))
        assert wait_until(lambda: peek(db, seated, ("defensive",)) >= 2, 120)
        process.send_signal(signal.SIGINT)
        assert process.wait(60) == 130
    finally:
        if process.poll() is None:
            process.kill()
    assert "stopped after" in err.read_text() and "resume with" in err.read_text()
    rows = {row["bot"]: row for row in entries(db, tournament_id).values()}
    gone = max(row["left_index"] for bot, row in rows.items() if bot in FIVE[:3])
    names = {row["version_id"]: bot for bot, row in rows.items()}
    after = [{names[v] for v in seats} for i, seats, _, _ in played(db, tournament_id) if i >= gone]
    assert after and all(table == {"planner", "defensive"} for table in after)
    with open_store(db) as store:
        assert store.tournament(tournament_id)["status"] == "stopped"


def peek(db: Path, sql: str, params: tuple[Any, ...] = ()) -> int:
    """A count read straight from the file, read-only (0 until the file and its tables exist):
    opening it as a store while the scheduler creates it would race its schema migration."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
            return int(conn.execute(sql, params).fetchone()[0])
    except sqlite3.Error:
        return 0


def test_a_new_version_keeps_its_predecessors_mu_with_the_prior_sigma(
    tmp_path: Path, capsys: Capsys
) -> None:
    folder = tmp_path / "mine"
    shutil.copytree(Path("bots/random"), folder)
    toml = folder / "bot.toml"
    toml.write_text(toml.read_text().replace('name = "random"', 'name = "mine"'))
    db = tmp_path / "a.db"
    ok(capsys, *ladder(db, "--seats", "2", "--matches", "16", bots=(str(folder), *FIVE[1:4])))
    tournament_id = only_tournament(db)
    (folder / "bot.py").write_text((folder / "bot.py").read_text() + "\n# version 2\n")
    ok(
        capsys,
        "tournament",
        "resume",
        tournament_id,
        "--matches",
        "30",
        "--no-progress",
        "--db",
        str(db),
    )
    mine = [row for row in entries(db, tournament_id).values() if row["bot"] == "mine"]
    old, new = sorted(mine, key=lambda row: row["joined_index"])
    assert (old["left_index"], old["leave_reason"]) == (16, "replaced")
    assert new["joined_index"] == 16
    prefix = decision_prefix(16, 2)
    with open_store(db) as store:
        index_of = {m["id"]: m["plan_index"] for m in store.matches(tournament_id)}
        history = store.rating_history()
    before = [h for h in history if h["version_id"] == old["version_id"]]
    carried = [h["mu_after"] for h in before if index_of[h["match_id"]] < prefix][-1]
    (pool,) = new["start"]
    assert new["start"][pool] == [pytest.approx(carried), pytest.approx(SIGMA)]
    first = next(h for h in history if h["version_id"] == new["version_id"])
    assert (first["mu_before"], first["sigma_before"]) == (
        pytest.approx(carried),
        pytest.approx(SIGMA),
    )
    assert carried != pytest.approx(25.0)
    assert_rebuild_keeps_ratings(capsys, db)


def test_a_bot_repointed_to_another_folder_enters_its_new_version(
    tmp_path: Path, capsys: Capsys
) -> None:
    """``arena bots add --replace`` points the name at another folder: the ladder takes the
    version there as the bot's new version."""
    first, second = tmp_path / "v1" / "mine", tmp_path / "v2" / "mine"
    shutil.copytree(Path("bots/random"), first)
    toml = first / "bot.toml"
    toml.write_text(toml.read_text().replace('name = "random"', 'name = "mine"'))
    db = tmp_path / "a.db"
    ok(capsys, *ladder(db, "--seats", "2", "--matches", "8", bots=(str(first), *FIVE[1:3])))
    tournament_id = only_tournament(db)
    shutil.copytree(first, second)
    (second / "bot.py").write_text((second / "bot.py").read_text() + "\n# version 2\n")
    ok(capsys, "bots", "add", "--replace", str(second), "--db", str(db))
    ok(
        capsys,
        "tournament",
        "resume",
        tournament_id,
        "--matches",
        "16",
        "--no-progress",
        "--db",
        str(db),
    )
    mine = sorted(
        (row for row in entries(db, tournament_id).values() if row["bot"] == "mine"),
        key=lambda row: row["joined_index"],
    )
    assert [row["leave_reason"] for row in mine] == ["replaced", None]
    assert mine[1]["entry"]["path"] == str(second.resolve())
    assert any(mine[1]["version_id"] in seats for _, seats, _, _ in played(db, tournament_id))


CRASHER = """\
name = "crasher"
version = "1.0"
language = "Python"
description = "Exits at once: every match a crash."
command = "python crash.py"
"""


def test_a_flagged_version_stops_being_seated(tmp_path: Path, capsys: Capsys) -> None:
    folder = tmp_path / "crasher"
    folder.mkdir()
    (folder / "bot.toml").write_text(CRASHER)
    (folder / "crash.py").write_text("raise SystemExit(3)\n")
    db = tmp_path / "a.db"
    ok(capsys, *ladder(db, "--seats", "2", "--matches", "40", bots=(str(folder), *FIVE[:3])))
    tournament_id = only_tournament(db)
    rows = {row["bot"]: row for row in entries(db, tournament_id).values()}
    left = rows["crasher"]["left_index"]
    assert rows["crasher"]["leave_reason"] == "flagged"
    matches = played(db, tournament_id)
    crasher = rows["crasher"]["version_id"]
    seated = [i for i, seats, _, _ in matches if crasher in seats]
    assert len(seated) >= 5  # the limit's minimum before a flag
    assert max(seated) < left < 40
    # Flagged from the results before the decision prefix: 5 faulted matches, then at most two
    # batches of decisions made before they were known.
    assert len(seated) <= 5 + 2 * 2 + 2


def test_finals_cut_the_field_as_scheduled_without_rating_drift(
    tmp_path: Path, capsys: Capsys
) -> None:
    db = tmp_path / "a.db"
    ok(capsys, *ladder(db, "--seats", "2", "--matches", "12"))
    tournament_id = only_tournament(db)
    code, _, err = run(
        capsys, "tournament", "finals", tournament_id, "--cut", "4:3,8:2", "--no-progress",
        "--json", "--db", str(db),
    )  # fmt: skip
    assert code == 0, err
    rows = entries(db, tournament_id).values()
    cut = sorted((row["left_index"], row["bot"]) for row in rows if row["leave_reason"] == "cut")
    assert len(cut) == 3  # 5 -> 3 -> 2
    first_cut, second_cut = sorted({index for index, _ in cut})
    survivors = {row["version_id"] for row in rows if row["left_index"] is None}
    cut_at = {row["version_id"]: row["left_index"] for row in rows if row["leave_reason"] == "cut"}
    assert len(survivors) == 2
    with open_store(db) as store:
        settings = store.tournament(tournament_id)["settings"]
        assert settings["finals"]["cuts"] == [first_cut, second_cut]
        start = settings["finals"]["start"]
        assert start == 12
        finals_games: Counter[str] = Counter()
        for index, seats, _, _ in played(db, tournament_id):
            if index >= start:
                finals_games.update(seats)
                assert all(v not in cut_at or index < cut_at[v] for v in seats)
        # Every finalist played up to 8 finals games; the first cut ones up to 4.
        assert all(finals_games[v] in (7, 8) for v in survivors)
        history = store.rating_history()
        finals_ids = {m["id"] for m in store.matches(tournament_id) if m["plan_index"] >= start}
        frozen = [h for h in history if h["match_id"] in finals_ids]
        assert frozen and all(h["sigma_after"] <= h["sigma_before"] for h in frozen)
        assert store.tournament(tournament_id)["status"] == "finished"
    shown = json.loads(ok(capsys, "tournament", "show", tournament_id, "--json", "--db", str(db)))
    assert shown["finals"]["cuts"] == [first_cut, second_cut]
    assert Counter(row["status"] for row in shown["entries"]) == {"cut": 3, "active": 2}
    assert_rebuild_keeps_ratings(capsys, db)
    assert "already has its finals" in one_error(
        capsys, "tournament", "finals", tournament_id, "--cut", "2:1", "--db", str(db)
    )


def test_until_settled_stops_once_every_sigma_is_under_the_threshold(
    tmp_path: Path, capsys: Capsys
) -> None:
    db = tmp_path / "a.db"
    ok(capsys, *ladder(db, "--seats", "3", "--until-settled", bots=FIVE[:4]))
    tournament_id = only_tournament(db)
    with open_store(db) as store:
        found = store.tournament(tournament_id)
        assert found["status"] == "finished"
        decided = len(store.planned(tournament_id))
        assert found["recorded"] == decided
        # Settled at the last decision's prefix: every rating after the match two batches
        # before the end is under the threshold.
        last = {}
        for h in store.rating_history():
            last[h["version_id"]] = h["sigma_after"]
        assert all(sigma <= SETTLED_SIGMA for sigma in last.values())


def test_mixed_table_sizes_each_rate_in_their_own_pool(tmp_path: Path, capsys: Capsys) -> None:
    db = tmp_path / "a.db"
    board = json.loads(ok(capsys, *ladder(db, "--seats", "2,3", "--matches", "20", "--json")))
    assert set(board["pools"]) == {"classic/2p/world", "classic/3p/world"}
    with open_store(db) as store:
        sizes = Counter(m["seat_count"] for m in store.matches())
        pools = {m["seat_count"]: m["pool"] for m in store.matches()}
    assert sizes == {2: 10, 3: 10}
    assert pools == {2: "classic/2p/world", 3: "classic/3p/world"}


# ---------------------------------------------------------------- gauntlets


def test_a_gauntlet_seats_its_challenger_in_every_match(tmp_path: Path, capsys: Capsys) -> None:
    db = tmp_path / "a.db"
    args = ["tournament", "run", "--format", "gauntlet", "--challenger", "planner"]
    args += ["--bot", "random", "--bot", "aggressive", "--bot", "continent", "--seats", "3"]
    args += ["--rules", SHORT, "--in-process", "--seed", "3", "--no-progress", "--db", str(db)]
    ok(capsys, *args)
    tournament_id = only_tournament(db)
    with open_store(db) as store:
        entries_ = store.tournament(tournament_id)["settings"]["entries"]
        planner = next(v for v, e in entries_.items() if e["name"] == "planner")
        matches = played(db, tournament_id)
    assert len(matches) == 3 * 3  # C(3, 2) field tables, each in 3 rotations
    assert all(planner in seats for _, seats, _, _ in matches)
    assert Counter(seats.index(planner) for _, seats, _, _ in matches) == {0: 3, 1: 3, 2: 3}


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        (["--challenger", "planner"], "challengers are for a gauntlet"),
        (["--format", "gauntlet"], "a gauntlet needs a challenger"),
        (["--matches", "5"], "are for a ladder"),
        (["--seats", "2,3"], "mixed table sizes"),
        (["--seats", "2,x"], "--seats"),
        (["--format", "ladder", "--seats", "2,2"], "distinct table sizes"),
        (["--format", "gauntlet", "--challenger", "random"], "both challenger and field"),
    ],
)
def test_format_flags_refuse_what_does_not_apply(
    tmp_path: Path, capsys: Capsys, flags: list[str], expected: str
) -> None:
    args = ["tournament", "run", "--bot", "random", "--bot", "aggressive", "--bot", "continent"]
    assert expected in one_error(capsys, *args, *flags, "--db", str(tmp_path / "a.db"))


def test_ladder_commands_refuse_a_round_robin(tmp_path: Path, capsys: Capsys) -> None:
    db = tmp_path / "a.db"
    ok(capsys, "tournament", "run", "--bot", "random", "--bot", "aggressive", "--rules", SHORT,
       "--in-process", "--no-progress", "--db", str(db))  # fmt: skip
    tournament_id = only_tournament(db)
    for command in (
        ["add", "--bot", "planner"],
        ["remove", "--bot", "random"],
        ["finals", "--cut", "2:1"],
    ):
        assert "is not a ladder" in one_error(
            capsys, "tournament", command[0], tournament_id, *command[1:], "--db", str(db)
        )
    assert "is for a ladder" in one_error(
        capsys, "tournament", "resume", tournament_id, "--matches", "9", "--db", str(db)
    )
