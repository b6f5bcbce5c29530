"""RISK: Europe tournaments end to end through the ``arena`` console script.

Real bot subprocesses on a pool of worker processes, a real SQLite file under ``$ARENA_HOME``:
a 4-player tournament and a 3-player one (the Mercenary Army variant) record exactly their
plan under the pools ``europe/4p`` and ``europe/3p``, list their matches, verify their replays;
``kill -9`` of the scheduler loses nothing and resume plays exactly the rest, with the ratings
of an uninterrupted run (applied in plan order). The helpers are the classic tournament
tests'. The bots are the bundled ``random`` and copies of it under other names, so the tests
need no ``node``.
"""

from __future__ import annotations

import json
import shutil
import signal
from pathlib import Path

import pytest

from tests.scheduler.test_tournament import (
    Scheduler,
    arena,
    assert_no_survivors,
    assert_plan_recorded_once,
    assert_prefix,
    assert_rebuild_keeps_ratings,
    children,
    db_path,
    descendants,
    error_line,
    home,
    ok,
    only_tournament_id,
    query,
    recorded_count,
    stored_ratings,
    tournament_args,
    tournaments,
    using_home,
    wait_until,
)

RANDOM = Path(__file__).resolve().parents[2] / "bots" / "random"


def random_bots(folder: Path, count: int) -> list[str]:
    """``random`` and ``count - 1`` copies of it named random-2, random-3, … (a tournament of
    ``count`` seats needs as many different bots)."""
    bots = ["random"]
    for i in range(2, count + 1):
        copy = folder / f"random-{i}"
        copy.mkdir()
        shutil.copy(RANDOM / "bot.py", copy)
        manifest = (RANDOM / "bot.toml").read_text()
        assert 'name = "random"\n' in manifest
        (copy / "bot.toml").write_text(manifest.replace('name = "random"', f'name = "random-{i}"'))
        bots.append(str(copy))
    return bots


def europe_args(folder: Path, seats: int, **kwargs: object) -> list[str]:
    bots = random_bots(folder, seats)
    return [*tournament_args(bots=bots, seats=seats, **kwargs), "--game", "europe"]  # type: ignore[arg-type]


def _names(seats: int) -> list[str]:
    return ["random"] + [f"random-{i}" for i in range(2, seats + 1)]


@pytest.mark.parametrize(
    ("seats", "pool"),
    [(4, "europe/4p"), pytest.param(3, "europe/3p", marks=pytest.mark.slow)],  # 17 s more
)
def test_a_europe_tournament_records_its_plan_and_rates_its_pool(
    tmp_path: Path, seats: int, pool: str
) -> None:
    board = json.loads(ok(*europe_args(tmp_path, seats, max_rounds=4)))
    assert board["pool"] == pool
    tournament_id = only_tournament_id()
    assert board["tournament"] == tournament_id
    planned = assert_plan_recorded_once(tournament_id)
    rows = board["rows"]
    assert sorted(r["bot"] for r in rows) == sorted(_names(seats))
    assert sum(r["games"] for r in rows) == planned * seats
    assert all(r["faults"] == {} for r in rows)
    assert query("SELECT DISTINCT game, pool FROM matches") == [("europe", pool)]
    assert query("SELECT status FROM tournaments")[0][0] == "finished"

    # The leaderboard of the game's pool is the one the run printed.
    again = json.loads(ok("leaderboard", "--game", "europe", "--pool", pool, "--json"))
    assert [(r["bot"], r["mu"]) for r in again["rows"]] == [(r["bot"], r["mu"]) for r in rows]
    classic = arena("leaderboard", "--game", "classic", "--json")
    assert classic.returncode == 2
    assert f"no results of game 'classic' yet; pools: {pool}" in error_line(classic)

    matches = json.loads(ok("matches", "--game", "europe", "--json"))
    assert sorted(m["plan_index"] for m in matches) == list(range(planned))
    assert json.loads(ok("matches", "--game", "classic", "--json")) == []
    for match in matches:
        assert match["pool"] == pool and match["tournament"] == tournament_id
        assert sorted(s["bot"] for s in match["seats"]) == sorted(_names(seats))
        assert all(s["status"] == "OK" for s in match["seats"])
        check = json.loads(ok("replay", "verify", match["id"], "--json"))
        assert check["ok"], check
    shown = ok("replay", "show", matches[0]["id"])
    if seats == 3:  # the Mercenary Army variant: a fourth army bid for every round
        assert "Mercenary bids: army 3:" in shown
        assert "mercenary army 3" in shown
    else:
        assert "ercenary" not in shown
    assert_rebuild_keeps_ratings()
    assert not using_home(home())


@pytest.mark.slow  # 28 s; the game-neutral resume is also checked on classic in every run
def test_resume_after_kill_9_of_the_scheduler(tmp_path: Path, monkeypatch) -> None:
    args = europe_args(tmp_path, 4, rounds="4", max_rounds=12, seed=11)
    base = home()
    run = Scheduler(args, tmp_path)
    try:
        wait_until(lambda: recorded_count() >= 2, "2 recorded matches", process=run.process)
        family = descendants(run.pid)
        assert len(children(run.pid)) >= 2  # the workers
        family.update(descendants(run.pid))  # bots started meanwhile
        run.process.send_signal(signal.SIGKILL)
        assert run.wait() == -signal.SIGKILL
    finally:
        run.stop()
    assert_no_survivors(family)

    tournament_id = only_tournament_id()
    done = assert_prefix(tournament_id)
    listed = tournaments()[0]
    assert listed["status"] == "interrupted"
    assert listed["recorded"] == done < listed["planned"]

    out = ok("tournament", "resume", tournament_id, "--no-progress", "--json")
    assert json.loads(out)["pool"] == "europe/4p"
    planned = assert_plan_recorded_once(tournament_id)
    assert planned == listed["planned"]
    listed = tournaments()[0]
    assert (listed["status"], listed["recorded"]) == ("finished", planned)
    assert not using_home(home())
    resumed = stored_ratings()
    assert_rebuild_keeps_ratings()

    # The same tournament run without interruption rates every bot exactly the same: the
    # ratings are applied in plan order, whatever was recorded before the kill.
    monkeypatch.setenv("ARENA_HOME", str(base / "uninterrupted"))
    ok(*args)
    assert db_path() != base / "arena.db"
    assert stored_ratings().keys() == resumed.keys()
    for key, (mu, sigma, games) in stored_ratings().items():
        assert resumed[key][0] == pytest.approx(mu, abs=1e-9), key
        assert resumed[key][1] == pytest.approx(sigma, abs=1e-9), key
        assert resumed[key][2] == games, key
