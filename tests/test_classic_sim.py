"""The SDK's determinized worlds: every sample agrees with the view it was built from and
depends on nothing the view hides."""

from __future__ import annotations

import random

import pytest

from arena.games.classic import ClassicConfig, ClassicRules, choices
from arena.games.classic.game import ClassicGame
from arena.games.classic.state import ClassicState
from arena.protocol import envelope
from arena.sdk import wire
from arena.sdk.bot import MatchInfo
from arena.sdk.classic.sim import Simulator

VARIANTS = [
    (2, {}),
    (3, {}),
    (4, {"mode": "mission"}),
    (4, {"mode": "capital"}),
    (5, {"sets": "fixed", "fortify": "connected"}),
    (3, {"sets": "progressive", "advantage_reroll": "true"}),
]


def _match(rules: ClassicRules, seat: int, bot_seed: int = 5) -> MatchInfo:
    start = envelope.match_start_to_pb(
        ClassicGame(rules.config),
        match_id="sim",
        seat=seat,
        names=["x"] * rules.n,
        bot_seed=bot_seed,
        move_time_ms=50,
        time_bank_ms=0,
    )
    return wire.match_info(start)


def _positions(rules: ClassicRules, seed: int, every: int = 7) -> list[tuple[ClassicState, int]]:
    """(state, deciding seat) at every ``every``-th decision of a seeded random game."""
    rng = random.Random(seed)
    state = rules.new_game(seed)
    found = []
    for step in range(3000):
        decision = rules.decision(state)
        if decision is None:
            break
        seat = decision.seats[0]
        if step % every == 0:
            found.append((state.copy(), seat))
        rules.apply_unchecked(state, seat, rng.choice(choices(rules.legal_options(state, seat))))
    return found


@pytest.mark.parametrize(("players", "options"), VARIANTS)
def test_a_sample_shows_its_seat_exactly_the_view_it_came_from(players, options):
    rules = ClassicRules(ClassicConfig.parse(options, players))
    checked = 0
    for state, seat in _positions(rules, seed=players * 31):
        view = rules.view(state, seat)
        sim = Simulator(_match(rules, seat))
        sample = sim.sample(view, random.Random(checked))
        assert rules.view(sample, seat) == view
        held = [c for hand in sample.hands for c in hand]
        assert sorted([*held, *sample.deck, *sample.discard]) == list(range(sim.cards))
        checked += 1
    assert checked > 20


def test_a_sample_depends_only_on_what_the_seat_may_see():
    rules = ClassicRules(ClassicConfig.parse({"mode": "mission"}, 4))
    state, seat = next((s, p) for s, p in _positions(rules, seed=3) if any(map(len, s.hands)))
    other = state.copy()
    # Another world with the same view: others' cards and missions swapped, dice elsewhere.
    others = [p for p in range(4) if p != seat]
    hands = list(other.hands)
    pool = [c for p in others for c in hands[p]] + list(other.deck)
    random.Random(9).shuffle(pool)
    for p in others:
        hands[p], pool = tuple(sorted(pool[: len(hands[p])])), pool[len(hands[p]) :]
    other.hands, other.deck = tuple(hands), tuple(sorted(pool))
    missions = list(other.missions)
    missions[others[0]], missions[others[1]] = missions[others[1]], missions[others[0]]
    other.missions = tuple(missions)
    other.dice_i += 12345
    assert rules.view(other, seat) == rules.view(state, seat)
    sim = Simulator(_match(rules, seat))
    first = sim.sample(rules.view(state, seat), random.Random(1))
    second = sim.sample(rules.view(other, seat), random.Random(1))
    assert (first.hands, first.deck, first.missions, first.dice_i) == (
        second.hands,
        second.deck,
        second.missions,
        second.dice_i,
    )


def test_samples_vary_the_hidden_cards_and_keep_the_own_hand():
    rules = ClassicRules(ClassicConfig.parse({}, 3))
    state, seat = next(
        (s, p)
        for s, p in _positions(rules, seed=8)
        if len(s.hands[p]) and sum(map(len, s.hands)) > 3
    )
    view = rules.view(state, seat)
    sim = Simulator(_match(rules, seat))
    rng = random.Random(2)
    samples = [sim.sample(view, rng) for _ in range(20)]
    assert all(s.hands[seat] == state.hands[seat] for s in samples)
    assert len({s.hands for s in samples}) > 1
    assert len({s.dice_i for s in samples}) > 1
