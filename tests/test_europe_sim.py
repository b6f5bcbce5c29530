"""arena.sdk.europe.sim: a state sampled from a seat's view shows that seat exactly the view
it was sampled from, with the same decision and legal options, in every variant and at every
decision a search looks at; hidden cards follow a guess the view allows."""

from __future__ import annotations

import random

import pytest

from arena.games.europe import options as europe_options
from arena.games.europe import view as europe_view
from arena.games.europe.game import GAME
from arena.sdk import MatchInfo
from arena.sdk.europe.sim import Simulator

SEARCHED = ("bid", "kingdom", "mercenary_bid", "cards", "mercenary_cards", "turn", "mission")


@pytest.mark.parametrize(
    ("players", "options"),
    [(4, {}), (3, {}), (2, {}), (4, {"missions": "true"}), (3, {"missions": "true"})],
)
def test_a_sample_agrees_with_the_view_it_came_from(players, options):
    game = GAME.configure({**options, "max_rounds": "4"}, players)
    board = game.board()
    sims = [
        Simulator(MatchInfo("europe", game.config(), s, players, 50 + s, board))
        for s in range(players)
    ]
    rng = random.Random(players)
    state = game.new_game(11, [{}] * players)
    checked = 0
    while (decision := game.decision(state)) is not None:
        picks = {}
        for seat in decision.seats:
            opts = game.legal_options(state, seat)
            if opts.kind in SEARCHED:
                view = game.view(state, seat)
                sim = sims[seat]
                world = sim.sample(view, rng)
                assert europe_view.view_for(sim.rules, world, seat) == view
                again = europe_options.legal_options(sim.rules, world, seat)
                assert (again.constraints, again.listed) == (opts.constraints, opts.listed)
                assert sim.rules.decision(world) == decision
                checked += 1
            picks[seat] = rng.choice(list(game.choices(opts)))
        state = game.apply_joint(state, picks).state
    assert checked > 20


def test_hidden_cards_follow_a_guess_the_view_allows():
    game = GAME.configure({}, 4)
    sim = Simulator(MatchInfo("europe", game.config(), 0, 4, 3, game.board()))
    state = game.new_game(5, [{}] * 4)
    rng = random.Random(1)
    while (decision := game.decision(state)) is not None and decision.kind != "turn":
        picks = {s: game.choices(game.legal_options(state, s))[0] for s in decision.seats}
        state = game.apply_joint(state, picks).state
    view = game.view(state, 0)
    other = next(a for a in range(1, 4) if view["armies"][a]["cards"] == [-1, -1])
    truth = (state.first[other], state.second[other])
    assert sim.sample(view, rng, {other: truth}).first[other] == truth[0]
    world = sim.sample(view, rng, {other: truth})
    assert (world.first[other], world.second[other]) == truth
    discarded = view["armies"][other]["discards"]
    impossible = (discarded[0], truth[1]) if discarded else None
    if impossible is not None:  # a guess the view rules out is not followed
        world = sim.sample(view, rng, {other: impossible})
        assert world.first[other] not in discarded
