"""Hidden information of RISK: Europe on the wire, seat by seat.

Every seat is the ``recorder`` test bot: it plays randomly over gRPC and writes every
RefereeMessage it receives, byte for byte. The match is then re-played from its replay and
every request a seat received is held against the true engine state it was asked in: the view
is exactly that seat's view, a simultaneous decision is asked of every seat in the same state
(nobody sees another's bid or cards before they are applied together), others' cards chosen
this round stay -1 until each is revealed (a Mercenary Army's are seen by its controller),
nobody receives another's hand, missions held or missions drawn, and the ``cards_chosen`` and
``mission_kept`` events of others carry -1.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from arena.games.europe.view import HIDDEN, SECRET_EVENTS, revealed
from arena.protocol import envelope
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.protocol.europe import view_from_pb
from arena.referee.match import TimeControl
from tests.referee import broken
from tests.referee.europe_arena import EuropeArena, EuropePlayed, apply_record, europe

RECORDED = TimeControl(move_time=5.0, time_bank=10.0, startup_time=60.0)
SIMULTANEOUS = ("bid", "mercenary_bid", "cards")


@pytest.fixture
def arena(tmp_path, monkeypatch) -> EuropeArena:
    return EuropeArena(tmp_path, monkeypatch)


def _recordings(played: EuropePlayed) -> dict[int, list[tuple[bytes, pb.RefereeMessage]]]:
    """Every message each recorder seat received, in order, by seat."""
    by_pid: dict[str, list[Path]] = defaultdict(list)
    for path in sorted(played.out.glob("*.bin")):
        by_pid[path.name.split("-")[0]].append(path)
    seats: dict[int, list[tuple[bytes, pb.RefereeMessage]]] = {}
    for paths in by_pid.values():
        received = [(p.read_bytes(), pb.RefereeMessage.FromString(p.read_bytes())) for p in paths]
        assert received[0][1].HasField("welcome")
        assert received[1][1].HasField("match_start")
        assert received[-1][1].HasField("match_end")
        seats[received[1][1].match_start.seat] = received
    assert sorted(seats) == list(range(played.rules.n))
    return seats


def _check_view(view: dict[str, Any], state: Any, seat: int, kind: str, counts: dict) -> None:
    """What ``seat`` may see of the armies it does not control, by the rules."""
    n = state.n
    for army in view["armies"]:
        a = army["army"]
        mine = a == seat or (a >= n and state.controller[a] == seat)
        chosen = (state.first[a], state.second[a])
        if mine:
            assert "hand" in army
            if a != seat and any(c >= 0 for c in chosen):
                assert army["cards"] == [c if c >= 0 else HIDDEN for c in chosen]
                counts["mercenary cards seen by their controller"] += 1
        else:
            assert "hand" not in army, f"seat {seat} received army {a}'s hand"
            assert "missions" not in army, f"seat {seat} received army {a}'s missions"
            for turn, card in ((1, chosen[0]), (2, chosen[1])):
                shown = army["cards"][turn - 1]
                if kind in ("cards", "mercenary_cards") or not revealed(state, a, turn):
                    assert shown == HIDDEN, f"seat {seat} saw army {a}'s card {turn} unrevealed"
                    if card >= 0:
                        counts["cards chosen and hidden"] += 1
                        if a >= n:
                            counts["mercenary cards hidden from others"] += 1
                else:
                    assert shown == card
                    counts["cards seen once revealed"] += 1
        if state.missions and a == seat:
            assert army["missions"] == list(state.missions[a])
            counts["own missions seen"] += 1
    if "drawn" in view:
        assert state.revealed == seat and kind == "mission"
        counts["own drawn missions seen"] += 1
    elif state.drawn is not None:
        counts["drawn missions hidden"] += 1


def _check_events(events: list[dict[str, Any]], seat: int, kind: str, counts: dict) -> None:
    for event in events:
        secret = SECRET_EVENTS.get(event["type"])
        if secret is not None:
            mine = event["seat"] == seat
            assert all((event[k] != HIDDEN) == mine for k in secret), (seat, event)
            counts[f"{event['type']} {'own' if mine else 'hidden'}"] += 1
        # Bids are revealed together once every seat's is in: never with a bid request.
        if kind == "bid":
            assert event["type"] != "bids"
        if kind == "mercenary_bid":
            assert event["type"] != "mercenary_bids"


def _check_hidden_information(played: EuropePlayed) -> dict[str, int]:
    """Re-play the match; hold every request each seat received against the true state."""
    game = played.game
    assert game is not None
    requests = {
        message.decision.request_id: (seat, message.decision)
        for seat, received in _recordings(played).items()
        for _, message in received
        if message.HasField("decision")
    }
    counts: dict[str, int] = defaultdict(int)
    state = played.state_before(0)
    for record in played.records:
        if record["type"] in ("decision", "joint"):
            decision = game.decision(state)
            assert decision is not None
            answers = record["answers"] if record["type"] == "joint" else [record]
            assert (record["type"] == "joint") == (decision.kind in SIMULTANEOUS)
            assert sorted(a["seat"] for a in answers) == sorted(decision.seats)
            for answer in answers:  # a joint decision's seats are all asked in one state
                seat_of, request = requests.pop(answer["request_id"])
                assert seat_of == answer["seat"] and request.kind == decision.kind
                view = view_from_pb(request.europe_view)
                assert view == game.view(state, seat_of), "exactly the engine's view"
                _check_view(view, state, seat_of, decision.kind, counts)
                events = envelope.events_from_pb(request.events)
                _check_events(events, seat_of, decision.kind, counts)
                counts[f"{decision.kind} requests"] += 1
        state = apply_record(game, state, record)
    assert not requests, "every request was answered by a recorded decision"
    return dict(counts)


@pytest.mark.parametrize(
    ("players", "options", "seed"),
    [(2, {}, 3), (3, {}, 5), (4, {}, 7), (4, {"missions": "true"}, 9)],
)
def test_no_seat_receives_another_seats_hidden_information(arena, players, options, seed):
    played = arena.play_europe(
        [broken("recorder")] * players,
        game=europe(players, max_rounds=5, **options),
        seed=seed,
        control=RECORDED,
    )
    assert played.statuses == ["OK"] * players
    counts = _check_hidden_information(played)
    expected = {
        "bid requests",
        "cards requests",
        "cards chosen and hidden",
        "cards seen once revealed",
        "cards_chosen own",
        "cards_chosen hidden",
    }
    if players < 4:  # the Mercenary Army variant
        expected |= {
            "mercenary_bid requests",
            "mercenary_cards requests",
            "mercenary cards seen by their controller",
            "mercenary cards hidden from others",
        }
    if options:
        expected |= {
            "mission requests",
            "own missions seen",
            "own drawn missions seen",
            "mission_kept own",
            "mission_kept hidden",
        }
    assert expected <= {k for k, v in counts.items() if v}, counts
