"""The engine's fast paths give exactly what the plain code they replace gives.

State copies are compiled from the slots, option lists hand out shared immutable actions,
a roll reads its dice from the stream block at once and decisions are shared per (phase,
seat): each is checked here against a straightforward reference, over seeded random play of
every variant.
"""

from __future__ import annotations

import random

import pytest

from arena.games.classic import (
    Action,
    Attack,
    ChooseHeadquarters,
    Claim,
    ClassicState,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    Occupy,
    Options,
    Place,
    PlaceNeutral,
    Reroll,
    Trade,
    choices,
)
from arena.games.classic import options as optionlib
from arena.games.classic.rng import BLOCK, Streams
from tests.classic_helpers import rules_for

VARIANTS = (
    (2, {}),
    (3, {"mode": "mission"}),
    (4, {"mode": "capital"}),
    (5, {"advantage_reroll": "true", "fortify": "connected"}),
    (6, {"sets": "fixed", "deal": "random"}),
)


def fresh_choices(options: Options) -> list[Action]:
    """Every option built anew, the plain way (the reference for :func:`choices`)."""
    kind = options.kind
    if kind == "claim":
        return [Claim(t) for t in options.territories]
    if kind in ("place", "reinforce"):
        return [Place.on(t, options.armies) for t in options.territories]
    if kind == "place_neutral":
        return [PlaceNeutral(t) for t in options.territories]
    if kind == "headquarters":
        return [ChooseHeadquarters(t) for t in options.territories]
    if kind == "trade":
        found: list[Action] = [Trade(s) for s in options.sets]
        return found if options.required else [*found, Trade(None)]
    if kind == "attack":
        return [*(Attack(f, t, d) for f, t, d in options.attacks), EndAttack()]
    if kind == "defend":
        return [Defend(d) for d in range(1, options.max_dice + 1)]
    if kind == "reroll":
        return [*(Reroll(i) for i in range(len(options.attacker_dice))), Reroll(None)]
    if kind == "occupy":
        return [Occupy(n) for n in range(options.min_armies, options.max_armies + 1)]
    return [*(Fortify(f, t, m) for f, t, m in options.fortifies), EndTurn()]


def played_positions(players: int, options: dict[str, str], seed: int) -> list[ClassicState]:
    """Copies of every position of one seeded random game."""
    rules = rules_for(players, max_rounds="25", **options)
    rng = random.Random(seed)
    state = rules.new_game(seed)
    seen = []
    while (decision := rules.decision(state)) is not None:
        seen.append(state.copy())
        seat = decision.seats[0]
        rules.apply_unchecked(state, seat, rng.choice(choices(rules.legal_options(state, seat))))
    seen.append(state)
    return seen


@pytest.mark.parametrize(("players", "options"), VARIANTS)
def test_choices_equal_freshly_built_actions(players: int, options: dict[str, str]) -> None:
    rules = rules_for(players, max_rounds="25", **options)
    kinds = set()
    for state in played_positions(players, options, seed=players):
        decision = rules.decision(state)
        if decision is None:
            continue
        for seat in decision.seats:
            listed = rules.legal_options(state, seat)
            got = choices(listed)
            assert got == fresh_choices(listed)
            assert [type(a) for a in got] == [type(a) for a in fresh_choices(listed)]
            kinds.add(listed.kind)
    assert {"attack", "fortify", "reinforce", "occupy"} <= kinds


def test_shared_actions_cover_any_range_and_stay_bounded() -> None:
    big = Options("occupy", 0, min_armies=3, max_armies=900)
    assert choices(big) == [Occupy(n) for n in range(3, 901)]
    listed = choices(big)
    listed.clear()  # a caller may change its list; the next one is whole
    assert choices(big)[0] == Occupy(3)
    shared = optionlib._Shared(lambda k: Attack(*k), limit=4)
    for k in range(10):
        assert shared.many([(k, k + 1, 3)]) == [Attack(k, k + 1, 3)]
        assert len(shared) <= 4


@pytest.mark.parametrize(("players", "options"), VARIANTS)
def test_copy_equals_and_shares_nothing_mutable(players: int, options: dict[str, str]) -> None:
    for state in played_positions(players, options, seed=7)[::50]:
        copy = state.copy()
        assert type(copy) is ClassicState
        for name in ClassicState.__slots__:
            assert getattr(copy, name) == getattr(state, name), name
        assert copy.owner is not state.owner and copy.armies is not state.armies
        assert copy.streams is state.streams
        copy.armies[0] += 5
        copy.owner[1] = -1
        assert copy.armies != state.armies and copy.owner != state.owner


def test_dice_read_at_once_equal_dice_one_by_one() -> None:
    streams = Streams(12345)
    starts = [*range(0, 12), *range(BLOCK - 6, BLOCK + 3), 3 * BLOCK - 2]
    for start in starts:
        for count in range(6):
            assert streams.dice(start, count) == tuple(
                streams.die(k) for k in range(start, start + count)
            )


@pytest.mark.parametrize(("players", "options"), VARIANTS)
def test_shared_decisions_equal_fresh_ones(players: int, options: dict[str, str]) -> None:
    rules = rules_for(players, max_rounds="25", **options)
    other = rules_for(players, max_rounds="25", **options)
    for state in played_positions(players, options, seed=3):
        assert rules.decision(state) == other.decision(state)
        found = rules.decision(state)
        if found is not None and found.kind != "headquarters":
            kind = state.phase.name.lower()
            seat = state.seat if kind != "defend" else found.seats[0]
            assert (found.kind, found.seats) == (kind, (seat,))
