"""RISK: Europe's wire mapping round-trips: the board, every seat's view, every decision's
constraints and representative choices, every action and the Hello's standing policies come
back from protobuf bytes exactly as the engine made them."""

from __future__ import annotations

import random

import pytest

from arena.errors import MalformedActionError
from arena.games.europe.actions import Bid, Move, Recruit, Turn
from arena.games.europe.game import ASK_ALL, GAME
from arena.protocol import europe as codec
from arena.protocol._pb.riskarena.europe.v1 import europe_pb2 as epb
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb


def _wire(message):  # type: ignore[no-untyped-def]
    return type(message).FromString(message.SerializeToString())


def test_the_board_round_trips() -> None:
    board = GAME.configure({}, 4).board()
    assert codec.board_from_pb(_wire(codec.board_to_pb(board))) == board


@pytest.mark.parametrize(
    ("players", "options"),
    [(4, {}), (3, {"missions": "true"}), (2, {})],
    ids=["4p", "3p-missions", "2p"],
)
def test_views_options_and_choices_round_trip_over_whole_games(players: int, options: dict) -> None:
    game = GAME.configure({**options, "max_rounds": "12"}, players)
    kinds: set[str] = set()
    for seed in range(3):
        state = game.new_game(seed, [ASK_ALL] * players)
        rng = random.Random(seed)
        while (decision := game.decision(state)) is not None:
            picks = {}
            for seat in decision.seats:
                view = game.view(state, seat)
                assert codec.view_from_pb(_wire(codec.view_to_pb(view))) == view
                legal = game.legal_options(state, seat)
                constraints, listed = codec.options_from_pb(_wire(codec.options_to_pb(legal)))
                assert constraints == legal.constraints
                assert listed == list(legal.listed)
                kinds.add(decision.kind)
                picks[seat] = rng.choice(listed)
            state = game.apply_joint(state, picks).state
    assert {"bid", "kingdom", "cards", "turn", "casualties"} <= kinds


def test_structured_actions_round_trip_with_their_absent_fields() -> None:
    turns = [
        Turn(),
        Turn("tax", tax_city=0),  # territory 0 is not "unset"
        Turn("manoeuvre", moves=(Move(3, 5, (1, 0, 0, 0), via=0),)),
        Turn("spend", recruits=(Recruit(0, (1, 2, 3, 1)),), castles=(0, 7), crown=True),
        Turn(
            "expand",
            moves=(Move(0, 1, (2, 0, 0, 1)),),
            bonus="siege_assault",
            bonus_first=True,
            bonus_source=0,
            bonus_target=2,
            free_manoeuvre=Move(1, 4, (1, 0, 0, 0)),
        ),
    ]
    for turn in turns:
        assert codec.action_from_pb(_wire(codec.action_to_pb(turn))) == turn


def test_a_bot_may_answer_with_an_action_dict_and_bad_values_are_malformed() -> None:
    message = pb.Action(request_id=1)
    codec.CODEC.put_action(message, {"kind": "bid", "coins": 3})
    assert codec.CODEC.action_from_pb(_wire(message), GAME.configure({}, 4)) == Bid(3)
    for bad in (Bid(-1), "bid", {"kind": "dance"}):
        with pytest.raises(MalformedActionError):
            codec.CODEC.put_action(pb.Action(), bad)
    with pytest.raises(MalformedActionError, match="unknown europe action kind"):
        codec.action_from_pb(epb.EuropeAction(kind="dance"))


def test_standing_policies_travel_in_the_hello() -> None:
    hello = pb.Hello()
    codec.CODEC.put_declarations(hello, {"casualties": "ask", "battle_order": "ask"})
    assert codec.CODEC.declarations_from_hello(_wire(hello)) == {
        "casualties": "ask",
        "battle_order": "ask",
    }
    assert codec.CODEC.declarations_from_hello(pb.Hello()) == {}
