"""The deliberately broken bots of the referee suite against RISK: Europe over gRPC.

Europe asks its simultaneous decisions (``bid``, ``mercenary_bid``, ``cards``) of every seat at
once under one deadline; a seat that fails one of them, or a turn, forfeits with the documented
status and strikes, and the match goes on without it to its end. Each test checks the broken
seat's status, that every other seat is OK and kept deciding after the forfeit, that the replay
verifies, and that no bot process outlived the match.
"""

from __future__ import annotations

import pytest

from arena.referee.match import TimeControl
from tests.referee import RANDOM, STARTUP, broken, kept_playing
from tests.referee.europe_arena import EuropeArena, EuropePlayed


@pytest.fixture
def arena(tmp_path, monkeypatch) -> EuropeArena:
    return EuropeArena(tmp_path, monkeypatch)


def _joint_of(played: EuropePlayed, request_id: int) -> dict:
    """The joint record answering ``request_id`` (a simultaneous decision)."""
    (record,) = [
        r
        for r in played.records
        if r["type"] == "joint" and request_id in {a["request_id"] for a in r["answers"]}
    ]
    return record


def forfeited(played: EuropePlayed, seat: int, status: str) -> None:
    """``seat`` forfeited with ``status`` and the match went on without it; with two players
    the one left wins at once (the Mercenary Armies never win)."""
    if played.rules.n > 2:
        kept_playing(played, seat, status)
        return
    other = 1 - seat
    assert played.statuses[seat] == status, played.result.to_dict()
    assert played.statuses[other] == "OK" and played.result.seats[other].strikes == 0
    index = played.forfeit_index(seat)
    assert played.records[index]["status"] == status
    assert played.result.winner == other and played.result.end_reason == "elimination"
    assert [s.place for s in played.result.seats] == ([2, 1] if seat == 0 else [1, 2])


# ------------------------------------------------------------------------- time


def _default_in_joint(played: EuropePlayed, request_id: int, kind: str) -> None:
    """The timed-out request was part of one joint ``kind`` record of every living seat, and
    the seat's default action was applied there with the others' answers."""
    record = _joint_of(played, request_id)
    assert record["kind"] == kind
    index = played.records.index(record)
    state = played.state_before(index)
    assert played.game is not None
    decision = played.game.decision(state)
    assert decision is not None and decision.simultaneous
    assert sorted(a["seat"] for a in record["answers"]) == sorted(decision.seats)
    (mine,) = [a for a in record["answers"] if a["request_id"] == request_id]
    expected = played.game.default_action(state, mine["seat"])
    assert mine["action"] == played.game.action_to_dict(expected)


@pytest.mark.parametrize(("players", "kind"), [(4, "cards"), (3, "cards"), (2, "mercenary_bid")])
def test_a_seat_that_sleeps_through_a_simultaneous_decision_times_out(arena, players, kind):
    # The sleeper is late from its first decision of ``kind`` on: the others' answers and its
    # default are applied together; after three strikes it forfeits.
    played = arena.play_europe(
        [broken("sleeper")] + [RANDOM] * (players - 1),
        control=TimeControl(move_time=0.3, time_bank=0.0, startup_time=STARTUP),
        mode="always",
        phase=kind,
        env={"ARENA_TEST_SLEEP": "0.6"},
    )
    forfeited(played, 0, "TIMEOUT")
    assert played.result.seats[0].strikes == 3
    timeouts = played.of("timeout", 0)
    assert len(timeouts) == 3
    _default_in_joint(played, timeouts[0]["request_id"], kind)


def test_one_late_bid_is_one_strike_and_the_default_bid(arena):
    # The bid arrives after the deadline, while the next request is open: ignored as stale.
    played = arena.play_europe(
        [broken("sleeper"), RANDOM, RANDOM, RANDOM],
        control=TimeControl(move_time=2.0, time_bank=0.0, startup_time=STARTUP),
        mode="once",
        phase="bid",
        env={"ARENA_TEST_SLEEP": "2.3"},
    )
    assert played.statuses == ["OK"] * 4
    assert played.result.seats[0].strikes == 1
    (timeout,) = played.of("timeout", 0)
    _default_in_joint(played, timeout["request_id"], "bid")
    assert len(played.of("decision", 0)) > 3, "it went on playing its turns"


# ------------------------------------------------------------------------ crash


@pytest.mark.parametrize(
    ("players", "phase", "mode"),
    [(4, "bid", "exit"), (3, "cards", "raise"), (4, "turn", "kill"), (2, "turn", "exit")],
)
def test_a_bot_that_dies_mid_match_is_a_crash(arena, players, phase, mode):
    played = arena.play_europe(
        [broken("crasher")] + [RANDOM] * (players - 1), mode=mode, phase=phase
    )
    forfeited(played, 0, "CRASH")
    assert played.lines("died.jsonl") == [{"where": phase, "mode": mode}]
    assert played.result.seats[0].detail, "the forfeit says what happened"


# ---------------------------------------------------------------------- illegal


@pytest.mark.parametrize(("players", "phase"), [(4, "bid"), (3, "cards"), (3, "turn")])
def test_illegal_answers_are_rejected_with_the_reason_then_forfeit(arena, players, phase):
    played = arena.play_europe(
        [broken("illegal")] + [RANDOM] * (players - 1), mode="index", phase=phase
    )
    forfeited(played, 0, "ILLEGAL")
    assert played.result.seats[0].strikes == 3
    rejected = played.of("rejected", 0)
    assert len(rejected) == 3
    assert len({r["request_id"] for r in rejected}) == 1, "retried within one request"
    assert f"option index 9999 out of range: this {phase} decision has" in rejected[0]["reason"]
    received = [r["reason"] for r in played.lines("rejections-0.jsonl")]
    assert received == [r["reason"] for r in rejected]


def test_a_rejected_card_choice_may_be_retried(arena):
    played = arena.play_europe([broken("illegal"), RANDOM, RANDOM], mode="retry", phase="cards")
    assert played.statuses == ["OK"] * 3
    assert played.result.seats[0].strikes == 1
    (rejected,) = played.of("rejected", 0)
    _joint_of(played, rejected["request_id"])  # the retried answer joined the others'


# --------------------------------------------------------------------- protocol


@pytest.mark.parametrize(
    ("players", "mode", "phase"), [(4, "bytes", "cards"), (3, "empty", "turn")]
)
def test_garbage_on_the_stream_is_a_protocol_fault(arena, players, mode, phase):
    played = arena.play_europe(
        [RANDOM, broken("garbage")] + [RANDOM] * (players - 2), mode=mode, phase=phase
    )
    forfeited(played, 1, "PROTOCOL")
    assert len(played.lines("sent.jsonl")) == 1


def test_answering_another_seats_open_request_is_a_protocol_fault(arena):
    # In a joint decision the previous request id went to another seat and is open at the
    # same time: the answer must not count for that seat.
    played = arena.play_europe(
        [RANDOM, broken("stray"), RANDOM, RANDOM], mode="other_seat", phase="cards"
    )
    forfeited(played, 1, "PROTOCOL")
    (stray,) = played.lines("stray.jsonl")
    answered = {a["request_id"]: a for r in played.of("joint") for a in r["answers"]}
    assert answered[stray["request_id"] - 1]["seat"] == 0


def test_stale_and_duplicate_answers_are_ignored(arena):
    played = arena.play_europe([RANDOM, broken("stray"), RANDOM], mode="stale")
    assert played.statuses == ["OK"] * 3
    assert played.result.seats[1].strikes == 0


@pytest.mark.parametrize(("players", "mode"), [(4, "debug"), (3, "actions"), (2, "idle")])
def test_floods_are_a_protocol_fault(arena, players, mode):
    played = arena.play_europe([RANDOM, broken("flood")] + [RANDOM] * (players - 2), mode=mode)
    forfeited(played, 1, "PROTOCOL")
    assert "flood" in played.result.seats[1].detail
