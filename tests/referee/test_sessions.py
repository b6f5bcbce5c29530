"""A bot process across matches: what a tournament worker hands the next match.

A worker keeps bot processes for their next match. One that let a request go unanswered past
its time (still busy with it, or frozen) must not start that match as it is, and a late answer
to a request of an earlier match must never count in a later one. Seats that forfeit after
the game is already over still leave in the out order, so the match can be rated.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.catalog.entries import Entry, plan_entry
from arena.games.classic.game import ClassicGame
from arena.referee.match import TimeControl, play_match, run_match
from arena.replays.compact import expand
from arena.results.ratings import OrderedRater, RatingBook, ranks_from_result
from arena.scheduler.records import MatchRecord, MatchSpec
from arena.scheduler.worker import WorkerHost
from arena.sdk import Answer, Bot, Request
from arena.statuses import SeatStatus
from tests.referee import RANDOM, assert_all_gone, broken, rules_for

SLOW = {"move_time": 0.2, "time_bank": 1.0, "startup_time": 60.0}
"""Tight clocks, 0.2 s a move and a 1 s bank, for the match a bot loses on time (startup is
not under test here)."""
EASY = {"move_time": 1.0, "time_bank": 5.0, "startup_time": 60.0}
"""Clocks a bot that answers at once never comes near, even on a loaded machine."""


def _job(index: int, seats: list[Entry], control: dict[str, float]) -> MatchSpec:
    return MatchSpec(
        tournament_id="t",
        plan_index=index,
        seed=7 + index,
        game="classic",
        rules=rules_for(len(seats), max_rounds=6).config.to_dict(),
        seats=tuple(seats),
        control=TimeControl(**control),
    )


def _statuses(outcome: MatchRecord) -> list[str]:
    return outcome.statuses


@pytest.fixture
def out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The test bots' output folder; their pids go to ``out/pids``."""
    folder = tmp_path / "out"
    (folder / "pids").mkdir(parents=True)
    monkeypatch.setenv("ARENA_TEST_OUT", str(folder))
    monkeypatch.setenv("ARENA_TEST_PIDS", str(folder / "pids"))
    monkeypatch.setenv("ARENA_TEST_PHASE", "")
    return folder


@pytest.fixture
def worker() -> Iterator[WorkerHost]:
    host = WorkerHost()
    try:
        yield host
    finally:
        host.close()


def _pids(out: Path) -> list[int]:
    return sorted(int(p.name) for p in (out / "pids").iterdir())


@pytest.mark.parametrize(("mode", "sleep"), [("flagged", "0.6"), ("freeze", "0")])
def test_a_bot_that_timed_out_starts_its_next_match_afresh(out, worker, monkeypatch, mode, sleep):
    # Match 1: the sleeper answers 0.6 s late every time (or freezes itself with SIGSTOP)
    # and forfeits TIMEOUT; then it is quick again. Kept as it was, it would still be busy
    # with (or frozen in) match 1's requests in match 2: TIMEOUT again, or PROTOCOL when
    # its late answers to match 1 arrive.
    monkeypatch.setenv("ARENA_TEST_MODE", mode)
    monkeypatch.setenv("ARENA_TEST_SLEEP", sleep)
    (out / "slow").touch()
    seats = [plan_entry(broken("sleeper"), "sleeper"), plan_entry(RANDOM, "random")]
    first = worker.play(_job(0, seats, SLOW))
    assert _statuses(first) == ["TIMEOUT", "OK"]
    (out / "slow").unlink(missing_ok=True)
    second = worker.play(_job(1, seats, EASY))
    assert _statuses(second) == ["OK", "OK"], second
    assert b"PROTOCOL" not in expand(second.replay.decompressed())
    assert len(_pids(out)) == 2, "the sleeper's process was restarted for match 2"
    worker.close()  # SIGKILL ends a frozen process too
    assert_all_gone(_pids(out))


def test_a_bot_that_kept_its_clock_keeps_its_process(out, worker, monkeypatch):
    monkeypatch.setenv("ARENA_TEST_MODE", "flagged")
    seats = [plan_entry(broken("sleeper"), "sleeper"), plan_entry(RANDOM, "random")]
    relaxed = {"move_time": 30.0, "time_bank": 30.0, "startup_time": 60.0}
    for index in range(2):
        assert _statuses(worker.play(_job(index, seats, relaxed))) == ["OK", "OK"]
    assert len(_pids(out)) == 1


# ------------------------------------------------------------- forfeits after the end


def test_seats_absent_together_all_leave_in_the_out_order_and_are_rated():
    # Both seats of a 2-player match absent: the first forfeit ends the game, the second
    # comes after the end. The rater refused such a match ("forfeited seats [1] are missing
    # from out_order [0]").
    rules = rules_for(2)
    absent = {0: (SeatStatus.INIT_FAIL, "late"), 1: (SeatStatus.INIT_FAIL, "late")}
    result = asyncio.run(run_match(ClassicGame(rules.config), [None, None], 3, absent=absent))
    statuses = [s.status for s in result.seats]
    places = [s.place for s in result.seats]
    assert statuses == ["INIT_FAIL", "INIT_FAIL"]
    assert result.out_order == (0, 1)
    assert places == [2, 1], "who left later places better, as for any forfeit"
    changes = RatingBook().rate_match("pool", ["a", "b"], places, statuses, list(result.out_order))
    assert [c.seat for c in changes] == [0, 1]


class _CrashesAtHeadquarters(Bot):
    """Raises when asked for its headquarters: every seat at once, in one decision."""

    def choose(self, request: Request) -> Answer:
        if request.kind == "headquarters":
            raise RuntimeError("no headquarters today")
        return 0


def test_forfeits_in_one_simultaneous_decision_all_leave_in_order():
    # Capital RISK asks every seat for its headquarters at once. All three crash: the
    # second forfeit ends the game, the third comes after the end.
    rules = rules_for(3, mode="capital")
    bots = [_CrashesAtHeadquarters() for _ in range(3)]
    result = play_match(ClassicGame(rules.config), bots, 5)
    statuses = [s.status for s in result.seats]
    places = [s.place for s in result.seats]
    assert statuses == ["CRASH"] * 3
    assert result.out_order == (0, 1, 2)
    assert places == [3, 2, 1]
    ranks = ranks_from_result(places, statuses, list(result.out_order))
    assert ranks == [2, 1, 0]


def test_a_worker_match_whose_seats_all_fail_to_connect_is_rated(out, worker, monkeypatch):
    monkeypatch.setenv("ARENA_TEST_MODE", "")
    seats = [plan_entry(broken("never_connects"), "n0"), plan_entry(broken("never_connects"), "n1")]
    quick = {"move_time": 1.0, "time_bank": 1.0, "startup_time": 0.5}
    outcome = worker.play(_job(0, seats, quick))
    statuses = _statuses(outcome)
    assert statuses == ["INIT_FAIL", "INIT_FAIL"]
    places = outcome.places
    # What the scheduler does with every outcome (it raised ValueError here).
    rater = OrderedRater()
    applied = rater.submit(
        0, "pool", ["n0", "n1"], places, statuses, out_order=list(outcome.out_order)
    )
    assert [index for index, _ in applied] == [0]
    assert outcome.out_order == (0, 1)
    worker.close()
    assert_all_gone(_pids(out))
