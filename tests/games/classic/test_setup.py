"""Initial army placement: claiming in turn, random deals, the 2-player neutral piles.

Rule book (1993): 3 players 35 armies, 4 → 30, 5 → 25, 6 → 20; claim one empty territory at a
time in turn until all 42 are claimed, then place one army at a time in turn until all are
placed; the player who placed first moves first. Secret Mission RISK deals the 42 territory
cards (with 4 or 5 players two players get one extra); the 2-player game deals three piles of
14 (yours, the opponent's, neutral) and each placement turn is 2 own armies on 1 or 2
territories plus 1 neutral army.
"""

from __future__ import annotations

import random

import pytest

from arena.errors import IllegalActionError
from arena.games.classic import (
    NEUTRAL,
    UNCLAIMED,
    Claim,
    Phase,
    Place,
    PlaceNeutral,
    choices,
)
from tests.classic_helpers import BOARD, rules_for

SETUP_KINDS = ("claim", "place", "place_neutral", "headquarters")
STARTING = {2: 40, 3: 35, 4: 30, 5: 25, 6: 20}


def play_setup(rules, state, rng):
    """Play the setup with random legal choices. Returns (state, log, events) where log holds
    (kind, seat, action, reserve-before, neutral-reserve-before) per decision."""
    log, events = [], []
    while (decision := rules.decision(state)) is not None and decision.kind in SETUP_KINDS:
        seat = rng.choice(decision.seats)
        options = rules.legal_options(state, seat)
        if options.kind == "place" and options.armies == 2 and rng.random() < 0.5:
            if len(options.territories) >= 2:
                a, b = rng.sample(options.territories, 2)
                action = Place(((a, 1), (b, 1)))
            else:
                action = Place.on(options.territories[0], 2)
        else:
            action = rng.choice(choices(options))
        log.append((decision.kind, seat, action, state.reserve, state.neutral_reserve))
        step = rules.apply(state, seat, action)
        state = step.state
        events.extend(step.events)
    return state, log, events


def armies_of(state, holder):
    return sum(a for t, a in enumerate(state.armies) if state.owner[t] == holder)


# ------------------------------------------------------------------------- starting armies


@pytest.mark.parametrize(
    ("players", "armies"),
    [pytest.param(n, a, id=f"{n}p-{a}") for n, a in STARTING.items() if n > 2],
)
def test_claim_game_starts_with_full_reserves(players, armies):
    rules = rules_for(players)
    state = rules.new_game(3)
    assert state.reserve == (armies,) * players
    assert set(state.owner) == {UNCLAIMED}
    assert sum(state.armies) == 0
    assert state.phase == Phase.CLAIM
    assert state.seat == state.first
    assert 0 <= state.first < players


def test_first_player_varies_with_the_seed():
    rules = rules_for(4)
    firsts = {rules.new_game(seed).first for seed in range(40)}
    assert len(firsts) >= 3


def test_same_seed_same_deal():
    rules = rules_for(5, mode="mission")
    a, b = rules.new_game(11), rules.new_game(11)
    assert (a.owner, a.armies, a.first, a.missions) == (b.owner, b.armies, b.first, b.missions)


# --------------------------------------------------------------------------- claim setup


@pytest.mark.parametrize("players", [3, 4, 5, 6], ids=lambda n: f"{n}p")
@pytest.mark.parametrize("seed", [1, 2], ids=lambda s: f"seed{s}")
def test_claim_setup_sequence(players, seed):
    rules = rules_for(players)
    start = rules.new_game(seed)
    first = start.first
    state, log, events = play_setup(rules, start, random.Random(seed))
    total = STARTING[players]

    kinds = [kind for kind, *_ in log]
    assert kinds[:42] == ["claim"] * 42, "42 claims come first, one territory each"
    assert kinds[42:] == ["place"] * (players * total - 42)
    # Everybody has the same number of armies, so the turn simply rotates from the first
    # player through claims and placements alike.
    assert [seat for _, seat, *_ in log] == [(first + i) % players for i in range(len(log))]
    for kind, _seat, action, *_ in log:
        if kind == "place":
            assert isinstance(action, Place) and sum(n for _, n in action.placements) == 1
    claimed = [e["territory"] for e in events if e["type"] == "claimed"]
    assert sorted(claimed) == list(range(42))

    assert state.reserve == (0,) * players
    assert UNCLAIMED not in state.owner
    assert min(state.armies) >= 1
    for seat in range(players):
        assert armies_of(state, seat) == total
        assert state.owner.count(seat) in (42 // players, -(-42 // players))
    # The player who placed first moves first, in round 1.
    assert rules.decision(state).kind in ("trade", "reinforce")
    assert state.seat == first
    turns = [e for e in events if e["type"] == "turn"]
    assert len(turns) == 1 and turns[0]["seat"] == first and turns[0]["round"] == 1
    assert state.round == 1


def test_claim_options_shrink_one_at_a_time():
    rules = rules_for(3)
    state = rules.new_game(8)
    rng = random.Random(8)
    for claimed in range(42):
        decision = rules.decision(state)
        assert decision.kind == "claim"
        options = rules.legal_options(state, decision.seats[0])
        assert len(options.territories) == 42 - claimed
        assert set(options.territories) == {t for t, o in enumerate(state.owner) if o == UNCLAIMED}
        state = rules.apply(state, decision.seats[0], Claim(rng.choice(options.territories))).state
    assert rules.decision(state).kind == "place"


@pytest.mark.parametrize(
    ("case", "make_action"),
    [
        pytest.param("claimed-territory", lambda s, seat: Claim(s.owner.index(seat)), id="taken"),
        pytest.param("out-of-range", lambda s, seat: Claim(42), id="no-such-territory"),
        pytest.param("wrong-kind", lambda s, seat: Place.on(s.owner.index(seat)), id="place-early"),
    ],
)
def test_illegal_claims(case, make_action):
    rules = rules_for(3)
    state = rules.new_game(4)
    for _ in range(3):  # every seat claims one territory
        seat = rules.decision(state).seats[0]
        state = rules.apply(state, seat, Claim(state.owner.index(UNCLAIMED))).state
    seat = rules.decision(state).seats[0]
    assert seat == state.first
    with pytest.raises(IllegalActionError):
        rules.apply(state, seat, make_action(state, seat))


def test_claim_out_of_turn_is_illegal():
    rules = rules_for(4)
    state = rules.new_game(4)
    other = (state.first + 1) % 4
    with pytest.raises(IllegalActionError):
        rules.apply(state, other, Claim(0))


def _claimed_state(players=3, seed=6):
    """A claim game right after the 42 claims."""
    rules = rules_for(players)
    state = rules.new_game(seed)
    while rules.decision(state).kind == "claim":
        seat = rules.decision(state).seats[0]
        state = rules.apply(state, seat, Claim(state.owner.index(UNCLAIMED))).state
    return rules, state


@pytest.mark.parametrize(
    "placements_of",
    [
        pytest.param(lambda own, other: ((own[0], 2),), id="two-armies"),
        pytest.param(lambda own, other: ((own[0], 1), (own[1], 1)), id="two-territories"),
        pytest.param(lambda own, other: ((other, 1),), id="foreign-territory"),
        pytest.param(lambda own, other: ((own[0], 0),), id="zero-armies"),
        pytest.param(lambda own, other: (), id="nothing"),
    ],
)
def test_illegal_setup_placements(placements_of):
    rules, state = _claimed_state()
    seat = rules.decision(state).seats[0]
    own = state.territories_of(seat)
    other = next(t for t, o in enumerate(state.owner) if o != seat)
    with pytest.raises(IllegalActionError):
        rules.apply(state, seat, Place(placements_of(own, other)))


def test_setup_place_is_one_army_on_own_territory():
    rules, state = _claimed_state()
    seat = rules.decision(state).seats[0]
    options = rules.legal_options(state, seat)
    assert options.kind == "place"
    assert options.armies == 1
    assert set(options.territories) == set(state.territories_of(seat))
    before = state.reserve[seat]
    t = options.territories[0]
    after = rules.apply(state, seat, Place.on(t, 1)).state
    assert after.armies[t] == state.armies[t] + 1
    assert after.reserve[seat] == before - 1
    assert after.seat == (seat + 1) % 3


# --------------------------------------------------------------------------- random deal


@pytest.mark.parametrize(
    ("players", "options"),
    [
        pytest.param(3, {"deal": "random"}, id="3p-world"),
        pytest.param(4, {"deal": "random"}, id="4p-world"),
        pytest.param(5, {"deal": "random"}, id="5p-world"),
        pytest.param(6, {"deal": "random"}, id="6p-world"),
        pytest.param(3, {"mode": "mission"}, id="3p-mission"),
        pytest.param(4, {"mode": "mission"}, id="4p-mission"),
        pytest.param(5, {"mode": "mission"}, id="5p-mission"),
        pytest.param(6, {"mode": "mission"}, id="6p-mission"),
        pytest.param(4, {"mode": "capital", "deal": "random"}, id="4p-capital"),
    ],
)
@pytest.mark.parametrize("seed", [3, 17], ids=lambda s: f"seed{s}")
def test_random_deal(players, options, seed):
    rules = rules_for(players, **options)
    start = rules.new_game(seed)
    total = STARTING[players]

    # Every territory is dealt, each with 1 army.
    assert UNCLAIMED not in start.owner
    assert set(start.owner) == set(range(players))
    assert start.armies == [1] * 42
    counts = [start.owner.count(seat) for seat in range(players)]
    assert max(counts) - min(counts) <= 1
    assert sum(counts) == 42
    extra = sum(1 for c in counts if c == max(counts)) if max(counts) != min(counts) else 0
    assert extra == 42 % players  # with 4 or 5 players two get an extra territory
    for seat in range(players):
        assert start.reserve[seat] == total - counts[seat]

    # Then placement, one army at a time in turn from the first player, skipping seats
    # that have nothing left to place.
    assert rules.decision(start).kind == "place"
    assert start.seat == start.first
    state, log, _events = play_setup(rules, start, random.Random(seed))
    placing = [entry for entry in log if entry[0] == "place"]
    assert len(placing) == players * total - 42
    assert not [entry for entry in log if entry[0] == "claim"]
    previous = None
    for _kind, seat, action, reserve, _ in placing:
        assert sum(n for _, n in action.placements) == 1
        if previous is None:
            assert seat == start.first
        else:
            expected = next(
                (previous + k) % players
                for k in range(1, players + 1)
                if reserve[(previous + k) % players]
            )
            assert seat == expected
        previous = seat

    assert state.reserve == (0,) * players
    assert min(state.armies) >= 1
    for seat in range(players):
        assert armies_of(state, seat) == total
        assert state.owner.count(seat) == counts[seat], "placing never changes ownership"
    if options.get("mode") == "capital":
        assert [entry[0] for entry in log].count("headquarters") == players
        assert state.hq_revealed
    assert state.seat == start.first
    assert rules.decision(state).kind in ("trade", "reinforce")


def test_random_deal_differs_between_seeds():
    rules = rules_for(4, deal="random")
    deals = {tuple(rules.new_game(seed).owner) for seed in range(6)}
    assert len(deals) == 6


# ------------------------------------------------------------------------ 2-player setup


@pytest.mark.parametrize("seed", [1, 2, 3, 4], ids=lambda s: f"seed{s}")
@pytest.mark.parametrize("mode", ["world", "capital"])
def test_two_player_piles_and_placement(seed, mode):
    rules = rules_for(2, mode=mode)
    start = rules.new_game(seed)
    first = start.first

    # Three piles of 14 — seat 0, seat 1 and the neutral — one army on each territory.
    for holder in (0, 1, NEUTRAL):
        assert start.owner.count(holder) == 14
    assert start.armies == [1] * 42
    assert start.reserve == (26, 26)
    assert start.neutral_reserve == 26

    state, log, _events = play_setup(rules, start, random.Random(seed))
    setup = [entry for entry in log if entry[0] != "headquarters"]
    # Each placement turn: 'place' 2 own armies on 1 or 2 territories, then 'place_neutral'
    # 1 army on a neutral territory, by the same seat; the seats alternate from the first.
    assert len(setup) == 2 * 13 * 2
    for turn in range(26):
        (k1, s1, place, *_), (k2, s2, neutral, *_) = setup[2 * turn : 2 * turn + 2]
        assert (k1, k2) == ("place", "place_neutral")
        assert s1 == s2 == (first + turn) % 2
        assert isinstance(place, Place)
        assert sum(n for _, n in place.placements) == 2
        assert 1 <= len(place.placements) <= 2
        assert isinstance(neutral, PlaceNeutral)
    turns_by_seat = [sum(1 for e in setup if e[0] == "place" and e[1] == s) for s in (0, 1)]
    assert turns_by_seat == [13, 13]

    assert state.reserve == (0, 0)
    assert state.neutral_reserve == 0
    for holder in (0, 1, NEUTRAL):
        assert armies_of(state, holder) == 40
        assert state.owner.count(holder) == 14
    assert min(state.armies) >= 1
    if mode == "capital":
        assert state.hq_revealed
    assert rules.decision(state).kind in ("trade", "reinforce")
    assert state.seat == first


def _two_player_start(seed=5):
    rules = rules_for(2)
    state = rules.new_game(seed)
    return rules, state, state.seat


def test_two_player_place_options():
    rules, state, seat = _two_player_start()
    options = rules.legal_options(state, seat)
    assert options.kind == "place"
    assert options.armies == 2
    assert set(options.territories) == set(state.territories_of(seat))
    own = options.territories
    after = rules.apply(state, seat, Place(((own[0], 1), (own[1], 1)))).state
    assert rules.decision(after).kind == "place_neutral"
    assert rules.decision(after).seats == (seat,)
    neutral = rules.legal_options(after, seat)
    assert neutral.armies == 1
    assert set(neutral.territories) == {t for t, o in enumerate(state.owner) if o == NEUTRAL}
    t = neutral.territories[0]
    done = rules.apply(after, seat, PlaceNeutral(t)).state
    assert done.armies[t] == 2
    assert done.neutral_reserve == 25
    assert rules.decision(done).kind == "place"
    assert rules.decision(done).seats == (1 - seat,)


@pytest.mark.parametrize(
    "make_action",
    [
        pytest.param(lambda own, other, neutral: Place.on(own[0], 1), id="one-army"),
        pytest.param(lambda own, other, neutral: Place.on(own[0], 3), id="three-armies"),
        pytest.param(
            lambda own, other, neutral: Place(((own[0], 1), (own[1], 1), (own[2], 1))),
            id="three-territories",
        ),
        pytest.param(lambda own, other, neutral: Place.on(other, 2), id="opponent-territory"),
        pytest.param(lambda own, other, neutral: Place.on(neutral, 2), id="neutral-territory"),
        pytest.param(lambda own, other, neutral: PlaceNeutral(neutral), id="neutral-first"),
    ],
)
def test_two_player_illegal_placements(make_action):
    rules, state, seat = _two_player_start()
    own = state.territories_of(seat)
    other = state.territories_of(1 - seat)[0]
    neutral = state.owner.index(NEUTRAL)
    with pytest.raises(IllegalActionError):
        rules.apply(state, seat, make_action(own, other, neutral))


@pytest.mark.parametrize(
    "target",
    [pytest.param("own", id="own"), pytest.param("opponent", id="opponent")],
)
def test_two_player_neutral_army_goes_on_neutral_territory(target):
    rules, state, seat = _two_player_start()
    own = state.territories_of(seat)
    state = rules.apply(state, seat, Place.on(own[0], 2)).state
    t = own[1] if target == "own" else state.territories_of(1 - seat)[0]
    with pytest.raises(IllegalActionError):
        rules.apply(state, seat, PlaceNeutral(t))


def test_board_has_42_territories():
    assert BOARD.size == 42
