"""The rule book's variants and the game's end: the 2-player neutral game, Secret Mission RISK,
Capital RISK, the round cap, final places, forfeits, hidden information in views, and golden
counts of legal options."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from arena.errors import IllegalActionError
from arena.games.classic import (
    NEUTRAL,
    UNCLAIMED,
    Attack,
    ChooseHeadquarters,
    Defend,
    EndAttack,
    EndTurn,
    Occupy,
    Phase,
    Place,
    choices,
)
from arena.games.classic.missions import MISSIONS
from arena.games.classic.rng import Streams
from tests.classic_helpers import BOARD, continent, make_state, rules_for, tid

SETUP_KINDS = ("claim", "place", "place_neutral", "headquarters")


# ------------------------------------------------------------------------------ helpers


def apply(rules, state, seat, action, log=None):
    step = rules.apply(state, seat, action)
    if log is not None:
        log.extend(step.events)
    return step.state


def capture(rules, state, src, dst, log=None):
    """The seat to move attacks ``dst`` from ``src`` with the most dice until it falls;
    defence decisions are answered with the most dice. Stops at the capture (before any
    occupation decision) or when the game ends."""
    seat = state.seat
    log = [] if log is None else log
    state = apply(rules, state, seat, Attack(src, dst, min(3, state.armies[src] - 1), 1), log)
    while (decision := rules.decision(state)) is not None and decision.kind == "defend":
        who = decision.seats[0]
        state = apply(rules, state, who, Defend(rules.legal_options(state, who).max_dice), log)
    assert state.owner[dst] == seat, "the attack should have captured the territory"
    return state


def occupy_min(rules, state, log=None):
    decision = rules.decision(state)
    if decision is not None and decision.kind == "occupy":
        seat = decision.seats[0]
        state = apply(rules, state, seat, Occupy(rules.legal_options(state, seat).min_armies), log)
    return state


def finish_turn(rules, state):
    """End the attack and the turn of the seat to move."""
    seat = state.seat
    if rules.decision(state).kind == "attack":
        state = apply(rules, state, seat, EndAttack())
    if rules.decision(state).kind == "fortify":
        state = apply(rules, state, seat, EndTurn())
    return state


def play_defaults(rules, state, log=None, limit=5000):
    """Answer every decision with the rules' default action (no attacks ever happen)."""
    for _ in range(limit):
        decision = rules.decision(state)
        if decision is None:
            return state
        seat = decision.seats[0]
        state = apply(rules, state, seat, rules.default_action(state, seat), log)
    raise AssertionError("game did not end")


def play_until(rules, state, stop, rng, log=None, limit=20000):
    """Random legal play until ``stop(state, decision)`` or the game ends."""
    for _ in range(limit):
        decision = rules.decision(state)
        if decision is None or stop(state, decision):
            return state
        seat = rng.choice(decision.seats)
        state = apply(
            rules, state, seat, rng.choice(choices(rules.legal_options(state, seat))), log
        )
    raise AssertionError("limit reached")


def in_play(state, decision):
    return decision.kind not in SETUP_KINDS


def events_of(log, kind):
    return [e for e in log if e["type"] == kind]


def edge_count_between(a, b):
    a, b = set(a), set(b)
    return sum(1 for x in a for y in BOARD.neighbours[x] if y in b)


# ======================================================================= 2-player game


def two_player_position(**fields):
    """Seat 0 and seat 1 face a neutral army: everything neutral unless listed."""
    rules = rules_for(2)
    owner = {tid("Peru"): 0, tid("Venezuela"): 0, tid("Argentina"): 1, tid("Brazil"): NEUTRAL}
    owner |= fields.pop("owner", {})
    armies = {tid("Peru"): 20, tid("Venezuela"): 20, tid("Brazil"): 3, tid("Argentina"): 3}
    armies |= fields.pop("armies", {})
    for t in (tid("Japan"), tid("Madagascar")):  # seat 1 holds more than one territory
        owner.setdefault(t, 1)
    return rules, make_state(rules, owner, default_owner=NEUTRAL, armies=armies, **fields)


@pytest.mark.parametrize(
    ("attacker", "src", "expected_defender"),
    [
        pytest.param(0, "Peru", 1, id="seat0-attacks-neutral-seat1-defends"),
        pytest.param(1, "Argentina", 0, id="seat1-attacks-neutral-seat0-defends"),
    ],
)
def test_neutral_territory_is_defended_by_the_other_seat(attacker, src, expected_defender):
    rules, state = two_player_position(seat=attacker, armies={tid("Argentina"): 10})
    state = apply(rules, state, attacker, Attack(tid(src), tid("Brazil"), 3))
    decision = rules.decision(state)
    assert decision.kind == "defend"
    assert decision.seats == (expected_defender,)
    assert rules.legal_options(state, expected_defender).max_dice == 2
    with pytest.raises(IllegalActionError):
        rules.apply(state, attacker, Defend(2))
    after = rules.apply(state, expected_defender, Defend(2))
    battle = events_of(after.events, "battle")[0]
    assert len(battle["defender_dice"]) == 2


def test_single_neutral_army_defends_without_a_decision():
    rules, state = two_player_position(armies={tid("Brazil"): 1})
    step = rules.apply(state, 0, Attack(tid("Peru"), tid("Brazil"), 3))
    assert rules.decision(step.state).kind != "defend"
    assert len(events_of(step.events, "battle")[0]["defender_dice"]) == 1


def test_two_player_game_ends_when_a_seat_is_eliminated_despite_neutrals():
    rules, state = two_player_position(
        owner={tid("Japan"): NEUTRAL, tid("Madagascar"): NEUTRAL}, armies={tid("Argentina"): 1}
    )
    log: list = []
    state = capture(rules, state, tid("Peru"), tid("Argentina"), log)
    assert NEUTRAL in state.owner
    assert rules.decision(state) is None
    outcome = rules.outcome(state)
    assert outcome.end_reason == "domination"
    assert outcome.winner == 0
    assert outcome.places == (1, 2)
    assert events_of(log, "eliminated")[0]["seat"] == 1


@pytest.mark.parametrize("seed", [2, 9], ids=lambda s: f"seed{s}")
def test_neutral_never_moves_nor_grows(seed):
    rules = rules_for(2, max_rounds="12")
    rng = random.Random(seed)
    log: list = []
    state = play_until(rules, rules.new_game(seed), in_play, rng, log)
    neutral = sum(a for t, a in enumerate(state.armies) if state.owner[t] == NEUTRAL)
    assert neutral == 40
    start = len(log)
    while (decision := rules.decision(state)) is not None:
        assert NEUTRAL not in decision.seats
        seat = rng.choice(decision.seats)
        state = apply(
            rules, state, seat, rng.choice(choices(rules.legal_options(state, seat))), log
        )
        now = sum(a for t, a in enumerate(state.armies) if state.owner[t] == NEUTRAL)
        assert now <= neutral, "neutral armies never receive reinforcements"
        neutral = now
    turns = events_of(log[start:], "turn")
    assert {e["seat"] for e in turns} <= {0, 1}
    assert all(a["seat"] != b["seat"] for a, b in itertools.pairwise(turns))


# ================================================================= Secret Mission RISK


@pytest.mark.parametrize("players", [3, 4, 5, 6], ids=lambda n: f"{n}p")
def test_missions_dealt_from_cards_in_play(players):
    rules = rules_for(players, mode="mission")
    allowed = set(range(6)) | {6 + seat for seat in range(players)}
    seen: set[int] = set()
    for seed in range(40):
        missions = rules.new_game(seed).missions
        assert len(missions) == players
        assert len(set(missions)) == players, "each card is dealt once"
        assert set(missions) <= allowed
        seen |= set(missions)
    assert seen == allowed


@pytest.mark.parametrize("mode", ["world", "capital"])
def test_no_missions_outside_mission_mode(mode):
    assert rules_for(4, mode=mode).new_game(1).missions == ()


def test_mission_cards_match_the_rule_book():
    assert len(MISSIONS) == 12
    pairs = {
        frozenset(("Asia", "South America")),
        frozenset(("Asia", "Africa")),
        frozenset(("North America", "Africa")),
        frozenset(("North America", "Australia")),
    }
    assert {frozenset(m.continents) for m in MISSIONS if m.kind == "continents"} == pairs
    assert [m.target for m in MISSIONS[6:]] == list(range(6))


def mission_position(players=3, owner=None, armies=None, missions=None, **fields):
    rules = rules_for(players, mode="mission")
    missions = missions or tuple([5] * players)
    owner = owner or {}
    default = {t: 1 + t % (players - 1) for t in range(42)}  # seats 1.. share the rest
    state = make_state(rules, default | owner, armies=armies, missions=missions, **fields)
    return rules, state


PAIRS = {0: ("Asia", "South America"), 1: ("Asia", "Africa")}
PAIRS |= {2: ("North America", "Africa"), 3: ("North America", "Australia")}


@pytest.mark.parametrize("mission", [0, 1, 2, 3], ids=lambda m: "+".join(PAIRS[m]))
@pytest.mark.parametrize(
    ("held", "done"),
    [
        pytest.param("both", True, id="both"),
        pytest.param("first", False, id="only-first"),
        pytest.param("second", False, id="only-second"),
        pytest.param("all-but-one", False, id="all-but-one"),
    ],
)
def test_continent_missions(mission, held, done):
    first, second = (continent(name) for name in PAIRS[mission])
    own = {"both": first + second, "first": first, "second": second}.get(held)
    if own is None:
        own = (first + second)[1:]
    rules, state = mission_position(owner={t: 0 for t in own}, missions=(mission, 5, 5))
    assert rules.mission_done(state, 0) is done


def _territories(n, armies_each=1, extra=()):
    """Seat 0 holds the first ``n`` territory ids with ``armies_each`` armies each, then the
    territories ``extra`` (armies per territory) after them."""
    owner = {t: 0 for t in range(n + len(extra))}
    armies = {t: armies_each for t in range(n)}
    armies |= {n + i: a for i, a in enumerate(extra)}
    return owner, armies


@pytest.mark.parametrize(
    ("mission", "n", "each", "extra", "done"),
    [
        pytest.param(4, 18, 2, (), True, id="18x2"),
        pytest.param(4, 18, 3, (), True, id="18x3"),
        pytest.param(4, 17, 2, (), False, id="17x2"),
        pytest.param(4, 17, 2, (1,), False, id="17x2-plus-one-single"),
        pytest.param(4, 17, 2, (1, 1, 1, 1, 1, 1, 1), False, id="17x2-plus-singles"),
        pytest.param(4, 17, 5, (2,), True, id="17x5-plus-one-double"),
        pytest.param(4, 25, 1, (), False, id="25x1"),
        pytest.param(5, 24, 1, (), True, id="24"),
        pytest.param(5, 23, 1, (), False, id="23"),
        pytest.param(5, 23, 3, (), False, id="23-strong"),
        pytest.param(5, 30, 1, (), True, id="30"),
    ],
)
def test_territory_missions(mission, n, each, extra, done):
    owner, armies = _territories(n, each, extra)
    rules, state = mission_position(owner=owner, armies=armies, missions=(mission, 4, 4))
    assert rules.mission_done(state, 0) is done


@pytest.mark.parametrize(
    ("eliminated", "done"),
    [
        pytest.param((), False, id="target-alive"),
        pytest.param((1,), True, id="target-eliminated"),
        pytest.param((2,), False, id="someone-else-eliminated"),
        pytest.param((2, 1), True, id="both-eliminated"),
    ],
)
def test_destroy_mission(eliminated, done):
    owner = {t: 0 for t in range(30)} | {t: 3 for t in range(30, 42)}
    owner |= {t: 1 for t in range(30, 42) if 1 not in eliminated and t < 33}
    owner |= {t: 2 for t in range(33, 42) if 2 not in eliminated}
    rules, state = mission_position(4, owner=owner, missions=(7, 4, 4, 4), eliminated=eliminated)
    assert rules.mission_done(state, 0) is done


@pytest.mark.parametrize(
    ("n", "done"),
    [pytest.param(24, True, id="24"), pytest.param(23, False, id="23")],
)
@pytest.mark.parametrize("seat", [0, 1, 2], ids=lambda s: f"seat{s}")
def test_destroy_own_colour_means_24_territories(seat, n, done):
    others = [p for p in range(3) if p != seat]
    owner = {t: seat if t < n else others[t % 2] for t in range(42)}
    missions = [5, 5, 5]
    missions[seat] = 6 + seat
    rules, state = mission_position(owner=owner, missions=tuple(missions))
    assert rules.mission_done(state, seat) is done


def _pair_capture_position(mission):
    """Seat 0 holds both continents of ``mission`` except one, held by seat 1 with 1 army,
    next to a strong seat-0 territory of the pair."""
    union = [t for name in PAIRS[mission] for t in continent(name)]
    target = continent(PAIRS[mission][1])[0]
    src = next(t for t in BOARD.neighbours[target] if t in union)
    owner = {t: 0 for t in union} | {target: 1}
    rules, state = mission_position(
        owner=owner, armies={src: 30}, missions=(mission, 4, 4), phase=Phase.ATTACK
    )
    return rules, state, src, target


@pytest.mark.parametrize("mission", [0, 1, 2, 3], ids=lambda m: "+".join(PAIRS[m]))
def test_capture_completing_a_continent_pair_wins(mission):
    rules, state, src, target = _pair_capture_position(mission)
    assert not rules.mission_done(state, 0)
    log: list = []
    state = capture(rules, state, src, target, log)
    assert rules.decision(state) is None
    outcome = rules.outcome(state)
    assert (outcome.end_reason, outcome.winner) == ("mission", 0)
    assert outcome.places[0] == 1
    revealed = events_of(log, "mission_revealed")
    assert revealed == [{"type": "mission_revealed", "seat": 0, "mission": mission}]
    assert log.index(revealed[0]) < log.index(events_of(log, "game_over")[0])


def test_capture_that_does_not_complete_the_mission_goes_on():
    rules, state, src, target = _pair_capture_position(0)
    state.owner[tid("Japan")] = 2  # Asia is no longer complete after the capture
    log: list = []
    state = capture(rules, state, src, target, log)
    assert rules.decision(state) is not None
    assert not events_of(log, "mission_revealed")


def test_reinforcement_completing_18_doubles_wins():
    owner, armies = _territories(17, 2, (1,))
    rules, state = mission_position(
        owner=owner, armies=armies, missions=(4, 5, 5), phase=Phase.REINFORCE, to_place=3
    )
    assert not rules.mission_done(state, 0)
    step = rules.apply(state, 0, Place.on(17, 3))
    assert rules.outcome(step.state).end_reason == "mission"
    assert rules.outcome(step.state).winner == 0
    assert events_of(step.events, "mission_revealed")[0]["seat"] == 0


def test_capture_reaching_24_territories_wins():
    owner = {t: 0 for t in range(23)}  # Alaska … East Africa
    assert tid("Congo") == 23
    rules, state = mission_position(
        owner=owner, armies={tid("North Africa"): 10}, missions=(5, 4, 4), phase=Phase.ATTACK
    )
    assert not rules.mission_done(state, 0)
    state = capture(rules, state, tid("North Africa"), tid("Congo"))
    assert rules.outcome(state).end_reason == "mission"
    assert rules.outcome(state).winner == 0


@pytest.mark.parametrize(
    ("attacker", "missions", "winner"),
    [
        pytest.param(0, (7, 4, 4), 0, id="holder-destroys-target"),
        pytest.param(2, (7, 4, 4), 0, id="another-player-destroys-target"),
    ],
)
def test_destroy_mission_completed_by_elimination(attacker, missions, winner):
    """Rule book: if your mission is to destroy yellow and another player removes the last
    yellow army, your mission is accomplished."""
    src = tid("Peru")
    owner = {t: 0 if t % 2 else 2 for t in range(42)} | {tid("Argentina"): 1, src: attacker}
    rules, state = mission_position(
        owner=owner, armies={src: 30}, missions=missions, seat=attacker, phase=Phase.ATTACK
    )
    log: list = []
    state = capture(rules, state, src, tid("Argentina"), log)
    assert events_of(log, "eliminated")[0]["seat"] == 1
    outcome = rules.outcome(state)
    assert (outcome.end_reason, outcome.winner) == ("mission", winner)
    assert events_of(log, "mission_revealed")[0]["seat"] == winner


def test_mission_view_shows_only_own_mission():
    rules = rules_for(4, mode="mission")
    state = rules.new_game(12)
    for seat in range(4):
        view = rules.view(state, seat)
        assert view["mission"]["id"] == state.missions[seat]
        assert view["mission"]["text"] == MISSIONS[state.missions[seat]].text()
        for other in range(4):
            if state.missions[other] != state.missions[seat]:
                assert MISSIONS[state.missions[other]].text() not in json.dumps(view)


# ======================================================================== Capital RISK


def _hq_phase(players=4, seed=3, **options):
    rules = rules_for(players, mode="capital", **options)
    state = play_until(
        rules, rules.new_game(seed), lambda s, d: d.kind == "headquarters", random.Random(seed)
    )
    assert rules.decision(state).kind == "headquarters"
    return rules, state


@pytest.mark.parametrize(
    ("players", "options"),
    [
        pytest.param(2, {}, id="2p"),
        pytest.param(3, {}, id="3p-claim"),
        pytest.param(4, {"deal": "random"}, id="4p-random"),
        pytest.param(6, {"capital_goal": "short"}, id="6p-short"),
    ],
)
def test_headquarters_are_chosen_simultaneously_and_secretly(players, options):
    rules, state = _hq_phase(players, **options)
    assert state.reserve == (0,) * players
    assert rules.decision(state).seats == tuple(range(players))
    order = list(range(players))[::-1]
    chosen: dict[int, int] = {}
    log: list = []
    for k, seat in enumerate(order):
        options_ = rules.legal_options(state, seat)
        assert set(options_.territories) == set(state.territories_of(seat))
        hq = options_.territories[-1]
        state = apply(rules, state, seat, ChooseHeadquarters(hq), log)
        chosen[seat] = hq
        if k < players - 1:
            decision = rules.decision(state)
            assert decision.kind == "headquarters"
            assert decision.seats == tuple(p for p in range(players) if p not in chosen)
            assert not events_of(log, "headquarters_revealed")
            for viewer in range(players):
                shown = rules.view(state, viewer)["headquarters"]
                for p in range(players):
                    expected = chosen[p] if (p == viewer and p in chosen) else -1
                    assert shown[p] == expected
            with pytest.raises(IllegalActionError):  # one choice per seat
                rules.apply(state, seat, ChooseHeadquarters(hq))
    revealed = events_of(log, "headquarters_revealed")
    assert revealed == [
        {"type": "headquarters_revealed", "headquarters": [chosen[p] for p in range(players)]}
    ]
    for viewer in range(players):
        assert rules.view(state, viewer)["headquarters"] == [chosen[p] for p in range(players)]
    # HQ cards leave the deck: they can never be drawn or traded.
    assert not set(chosen.values()) & set(state.deck)
    assert len(state.deck) == 44 - players
    assert rules.decision(state).kind in ("trade", "reinforce")
    assert state.seat == state.first


def test_headquarters_must_be_own_territory():
    rules, state = _hq_phase()
    foreign = next(t for t, o in enumerate(state.owner) if o != 0)
    with pytest.raises(IllegalActionError):
        rules.apply(state, 0, ChooseHeadquarters(foreign))


def capital_position(players, goal="full", owner=None, hqs=None, **fields):
    options = {"mode": "capital"} | ({"capital_goal": goal} if goal != "full" else {})
    rules = rules_for(players, **options)
    hqs = hqs or tuple(range(players))  # seat p's HQ is territory p (Alaska, NWT, …)
    state = make_state(rules, owner, hq=hqs, hq_pending=hqs, hq_revealed=True, deck=(), **fields)
    return rules, state


@pytest.mark.parametrize(
    ("players", "goal", "held", "done"),
    [
        pytest.param(2, "full", (0, 1), True, id="2p-full-both"),
        pytest.param(2, "full", (1,), False, id="2p-full-only-opposing"),
        pytest.param(3, "full", (0, 1, 2), True, id="3p-full-all"),
        pytest.param(3, "full", (0, 1), False, id="3p-full-one-missing"),
        pytest.param(4, "full", (0, 1, 2, 3), True, id="4p-full-all"),
        pytest.param(4, "full", (0, 1, 2), False, id="4p-full-two-of-three"),
        pytest.param(4, "full", (1, 2, 3), False, id="4p-full-without-own"),
        pytest.param(4, "short", (0, 1, 2), True, id="4p-short-two"),
        pytest.param(4, "short", (0, 3), False, id="4p-short-one"),
        pytest.param(4, "short", (1, 2), False, id="4p-short-two-without-own"),
        pytest.param(4, "short", (1, 2, 3), False, id="4p-short-three-without-own"),
        pytest.param(5, "short", (0, 2, 3, 4), True, id="5p-short-three"),
        pytest.param(5, "short", (0, 1, 2), False, id="5p-short-two"),
        pytest.param(5, "full", (0, 1, 2, 3), False, id="5p-full-three-of-four"),
        pytest.param(6, "short", (0, 1, 3, 5), True, id="6p-short-three"),
        pytest.param(6, "short", (0, 4, 5), False, id="6p-short-two"),
        pytest.param(6, "full", tuple(range(6)), True, id="6p-full-all"),
    ],
)
def test_capitals_done(players, goal, held, done):
    # Seat 0 holds the HQ territories in ``held``; the other HQs stay with their owners.
    owner = {p: 0 if p in held else max(p, 1) for p in range(players)}
    owner |= {t: (t % (players - 1)) + 1 for t in range(players, 42) if t % 3 == 0}
    rules, state = capital_position(players, goal, owner, default_owner=0)
    for p in range(1, players):
        if p not in state.owner:
            state.owner[41 - p] = p
    assert rules.capitals_done(state, 0) is done


def _capital_attack(players, goal, before, target_seat, own_hq_holder=0):
    """Seat 0 attacks seat ``target_seat``'s HQ (1 army) from a 30-army territory; it already
    holds the HQs of the seats in ``before``; its own HQ is held by ``own_hq_holder``."""
    hqs = (tid("Peru"), tid("Argentina"), tid("Japan"), tid("Iceland"), tid("Congo"), tid("Siam"))
    hqs = hqs[:players]
    owner = {t: p for p, t in enumerate(hqs)}
    owner |= {hqs[p]: 0 for p in before} | {hqs[0]: own_hq_holder}
    for p in range(1, players):  # everybody keeps some territory
        owner[tid("Alaska") + p] = p
    owner[tid("Brazil")] = 0
    rules, state = capital_position(
        players, goal, owner, hqs=hqs, default_owner=0, armies={tid("Brazil"): 30}
    )
    return rules, state, tid("Brazil"), hqs[target_seat]


@pytest.mark.parametrize(
    ("players", "goal", "before", "target", "own_holder", "wins"),
    [
        pytest.param(3, "full", (2,), 1, 0, True, id="3p-last-hq"),
        pytest.param(3, "full", (), 1, 0, False, id="3p-first-hq"),
        pytest.param(4, "short", (2,), 1, 0, True, id="4p-short-second-hq"),
        pytest.param(4, "short", (), 1, 0, False, id="4p-short-first-hq"),
        pytest.param(4, "full", (2,), 1, 0, False, id="4p-full-second-of-three"),
        pytest.param(4, "full", (2, 3), 1, 0, True, id="4p-full-third-of-three"),
        pytest.param(3, "full", (2,), 1, 2, False, id="3p-all-opposing-but-own-lost"),
        pytest.param(2, "full", (), 1, 0, True, id="2p-only-opposing-hq"),
    ],
)
def test_capturing_headquarters(players, goal, before, target, own_holder, wins):
    rules, state, src, dst = _capital_attack(players, goal, before, target, own_holder)
    log: list = []
    state = capture(rules, state, src, dst, log)
    assert target not in state.eliminated, "losing the HQ does not eliminate"
    if wins:
        outcome = rules.outcome(state)
        assert (outcome.end_reason, outcome.winner) == ("capitals", 0)
    else:
        assert rules.decision(state) is not None
        assert rules.outcome(state) is None
        # The HQ's former holder plays on: its next turn comes.
        state = finish_turn(rules, occupy_min(rules, state))
        assert state.seat == 1
        assert rules.decision(state).seats == (1,)


def test_headquarters_card_not_drawn_after_capture():
    rules, state, src, dst = _capital_attack(3, "full", (), 1)
    state.deck = tuple(c for c in range(44) if c not in state.hq)
    state = capture(rules, state, src, dst)
    state = finish_turn(rules, occupy_min(rules, state))
    drawn = state.hands[0]
    assert len(drawn) == 1 and drawn[0] not in state.hq


# =========================================================================== round cap


@pytest.mark.parametrize(
    ("players", "rounds", "options"),
    [
        pytest.param(3, 1, {}, id="3p-1"),
        pytest.param(3, 4, {}, id="3p-4"),
        pytest.param(4, 2, {"deal": "random"}, id="4p-2"),
        pytest.param(2, 3, {}, id="2p-3"),
        pytest.param(6, 2, {}, id="6p-2"),
        pytest.param(5, 2, {"mode": "mission"}, id="5p-mission-2"),
        pytest.param(4, 2, {"mode": "capital"}, id="4p-capital-2"),
    ],
)
def test_round_limit(players, rounds, options):
    rules = rules_for(players, max_rounds=str(rounds), **options)
    log: list = []
    state = play_defaults(rules, rules.new_game(rounds), log)
    outcome = rules.outcome(state)
    assert outcome.end_reason == "round_limit"
    assert state.round == rounds
    turns = events_of(log, "turn")
    assert len(turns) == rounds * players
    first = turns[0]["seat"]
    assert [t["seat"] for t in turns] == [(first + i) % players for i in range(len(turns))]
    assert [t["round"] for t in turns] == [1 + i // players for i in range(len(turns))]
    _check_places_by_territories(state, outcome)


def _check_places_by_territories(state, outcome):
    strength = {
        p: (state.owner.count(p), sum(a for t, a in enumerate(state.armies) if state.owner[t] == p))
        for p in range(state.n)
    }
    for p in range(state.n):
        better = sum(1 for q in range(state.n) if strength[q] > strength[p])
        assert outcome.places[p] == 1 + better
    assert outcome.winner == (outcome.places.index(1) if outcome.places.count(1) == 1 else None)


def _ranked_position(counts, extra, eliminated=(), rounds=3):
    """Seat p holds counts[p] territories with 1 army each plus extra[p] on one of them; it is
    the last seat's turn in the last round."""
    players = len(counts)
    rules = rules_for(players, max_rounds=str(rounds))
    owner, armies, t = {}, {}, 0
    for p, c in enumerate(counts):
        for k in range(c):
            owner[t] = p
            if k == 0:
                armies[t] = 1 + extra[p]
            t += 1
    assert t == 42
    last = max(p for p in range(players) if p not in eliminated)
    state = make_state(
        rules,
        owner,
        armies=armies,
        seat=last,
        phase=Phase.FORTIFY,
        round=rounds,
        eliminated=tuple(eliminated),
    )
    return rules, state


@pytest.mark.parametrize(
    ("counts", "extra", "eliminated", "places", "winner"),
    [
        pytest.param((14, 14, 14), (0, 0, 0), (), (1, 1, 1), None, id="all-tied"),
        pytest.param((14, 14, 14), (5, 5, 0), (), (1, 1, 3), None, id="two-tied-first"),
        pytest.param((14, 14, 14), (0, 3, 3), (), (3, 1, 1), None, id="two-tied-first-b"),
        pytest.param((14, 14, 14), (1, 2, 3), (), (3, 2, 1), 2, id="armies-break-ties"),
        pytest.param((15, 14, 13), (0, 10, 20), (), (1, 2, 3), 0, id="territories-first"),
        pytest.param((13, 15, 14), (9, 0, 0), (), (3, 1, 2), 1, id="territories-first-b"),
        pytest.param((20, 11, 11), (0, 4, 4), (), (1, 2, 2), 0, id="tied-second"),
        pytest.param((10, 16, 16, 0), (0, 0, 0, 0), (3,), (3, 1, 1, 4), None, id="eliminated-last"),
        pytest.param((20, 11, 0, 11), (0, 2, 0, 1), (2,), (1, 2, 4, 3), 0, id="eliminated-seat-2"),
    ],
)
def test_round_limit_places(counts, extra, eliminated, places, winner):
    rules, state = _ranked_position(counts, extra, eliminated)
    log: list = []
    state = apply(rules, state, state.seat, EndTurn(), log)
    outcome = rules.outcome(state)
    assert outcome.end_reason == "round_limit"
    assert outcome.places == places
    assert outcome.winner == winner
    over = events_of(log, "game_over")[0]
    assert over["places"] == list(places)
    assert over["winner"] == winner


@pytest.mark.parametrize(
    ("mover", "forfeiter", "rounds", "expected"),
    [
        pytest.param(1, 0, 2, [(2, 1), (1, 2), (2, 2)], id="first-seat-out-mid-round"),
        pytest.param(0, 2, 2, [(1, 1), (0, 2), (1, 2)], id="last-seat-out"),
        pytest.param(0, 0, 2, [(1, 1), (2, 1), (1, 2), (2, 2)], id="mover-out"),
        pytest.param(2, 2, 1, [], id="last-mover-out-in-last-round"),
    ],
)
def test_rounds_count_live_seats_after_a_forfeit(mover, forfeiter, rounds, expected):
    rules = rules_for(3, max_rounds=str(rounds))
    state = make_state(rules, default_armies=2, seat=mover, phase=Phase.ATTACK)
    step = rules.forfeit(state, forfeiter)
    log = list(step.events)
    state = play_defaults(rules, step.state, log)
    assert [(e["seat"], e["round"]) for e in events_of(log, "turn")] == expected
    assert rules.outcome(state).end_reason == "round_limit"
    assert state.round == rounds
    assert rules.outcome(state).places[forfeiter] == 3


def test_round_limit_waits_for_the_end_of_the_round():
    rules, state = _ranked_position((14, 14, 14), (0, 0, 0))
    state.seat = 1
    state = apply(rules, state, 1, EndTurn())
    assert rules.outcome(state) is None
    assert state.seat == 2


# ========================================================================= domination


def _four_player_endgame(**fields):
    """Seat 0 holds almost everything; seat 1 holds Argentina, seat 3 holds Japan."""
    rules = rules_for(4)
    owner = {tid("Argentina"): 1, tid("Japan"): 3}
    armies = {tid("Peru"): 40, tid("Kamchatka"): 40}
    return rules, make_state(rules, owner, default_owner=0, armies=armies, **fields)


@pytest.mark.parametrize(
    "order",
    [
        pytest.param(("Japan", "Argentina"), id="3-then-1"),
        pytest.param(("Argentina", "Japan"), id="1-then-3"),
    ],
)
def test_domination_places(order):
    rules, state = _four_player_endgame(eliminated=(2,))
    source = {"Japan": "Kamchatka", "Argentina": "Peru"}
    holder = {"Japan": 3, "Argentina": 1}
    log: list = []
    state = capture(rules, state, tid(source[order[0]]), tid(order[0]), log)
    assert rules.outcome(state) is None
    state = occupy_min(rules, state, log)
    state = capture(rules, state, tid(source[order[1]]), tid(order[1]), log)
    outcome = rules.outcome(state)
    assert (outcome.end_reason, outcome.winner) == ("domination", 0)
    expected = [1, 0, 4, 0]
    expected[holder[order[1]]] = 2  # eliminated last → best of the losers
    expected[holder[order[0]]] = 3
    assert outcome.places == tuple(expected)
    assert state.eliminated == (2, holder[order[0]], holder[order[1]])


# ============================================================================ forfeit


def test_forfeit_keeps_territories_and_discards_cards():
    rules = rules_for(3)
    state = make_state(rules, hands={1: (3, 4)}, default_armies=2, seat=0)
    step = rules.forfeit(state, 1)
    after = step.state
    assert step.events[0] == {"type": "forfeited", "seat": 1}
    assert 1 in after.eliminated
    assert after.forfeited[1] and not after.alive(1)
    assert after.owner == state.owner and after.armies == state.armies
    assert after.hands[1] == ()
    assert rules.view(after, 0)["forfeited"] == [1]
    assert state.eliminated == () and 1 not in state.eliminated, "input state untouched"


@pytest.mark.parametrize(
    "case",
    [
        pytest.param("already-out", id="already-out"),
        pytest.param("no-such-seat", id="no-such-seat"),
        pytest.param("game-over", id="game-over"),
    ],
)
def test_forfeit_rejected(case):
    rules = rules_for(3)
    state = make_state(rules, eliminated=(2,))
    seat = {"already-out": 2, "no-such-seat": 3, "game-over": 0}[case]
    if case == "game-over":
        state.phase = Phase.OVER
    with pytest.raises(IllegalActionError):
        rules.forfeit(state, seat)


@pytest.mark.parametrize("forfeiter", [0, 1, 2], ids=lambda s: f"seat{s}")
def test_forfeited_seat_never_gets_a_turn(forfeiter):
    rules = rules_for(3, max_rounds="3")
    state = make_state(rules, default_armies=2, seat=0, phase=Phase.ATTACK)
    step = rules.forfeit(state, forfeiter)
    log = list(step.events)
    state = play_defaults(rules, step.state, log)
    turns = events_of(log, "turn")
    assert turns, "the game went on"
    assert forfeiter not in {e["seat"] for e in turns}
    if forfeiter == 0:  # its turn ended at once; the next live seat moved
        assert turns[0]["seat"] == 1
    outcome = rules.outcome(state)
    assert outcome.end_reason == "round_limit"
    assert outcome.places[forfeiter] == 3
    assert state.owner.count(forfeiter) == 14, "its territories stay"


def test_forfeited_seat_is_behind_seats_alive_at_that_time():
    rules, state = _four_player_endgame()
    state.owner[tid("Brazil")] = 2
    state.armies[tid("Brazil")] = 5
    state = rules.forfeit(state, 2).state
    log: list = []
    state = capture(rules, state, tid("Kamchatka"), tid("Japan"), log)
    state = occupy_min(rules, state)
    state = capture(rules, state, tid("Peru"), tid("Argentina"), log)
    outcome = rules.outcome(state)
    assert (outcome.end_reason, outcome.winner) == ("domination", 0)
    # Seat 3 was eliminated after seat 2 forfeited, so it places ahead of seat 2.
    assert outcome.places == (1, 2, 4, 3)
    assert state.owner[tid("Brazil")] == 2, "a forfeited seat's armies need not be destroyed"


def test_forfeited_seat_with_most_territories_still_places_last():
    rules, state = _ranked_position((30, 6, 6), (0, 0, 0), rounds=1)
    state = rules.forfeit(state, 0).state
    state = apply(rules, state, 2, EndTurn())
    outcome = rules.outcome(state)
    assert outcome.end_reason == "round_limit"
    assert outcome.places[0] == 3


@pytest.mark.parametrize("pending_defence", [False, True], ids=["attacked-later", "mid-defence"])
def test_forfeited_seat_defends_with_max_dice(pending_defence):
    rules = rules_for(3)
    target, src = tid("Argentina"), tid("Peru")
    state = make_state(
        rules, {target: 1, src: 0}, armies={target: 5, src: 10}, seat=0, phase=Phase.ATTACK
    )
    if pending_defence:
        state = apply(rules, state, 0, Attack(src, target, 3))
        assert rules.decision(state) == type(rules.decision(state))("defend", (1,))
        step = rules.forfeit(state, 1)
    else:
        state = rules.forfeit(state, 1).state
        step = rules.apply(state, 0, Attack(src, target, 3))
    battles = events_of(step.events, "battle")
    assert len(battles) == 1
    assert len(battles[0]["defender_dice"]) == 2
    assert rules.decision(step.state).kind != "defend"


def test_forfeit_completes_a_destroy_mission():
    rules, state = mission_position(missions=(8, 4, 5), phase=Phase.ATTACK)
    assert not rules.mission_done(state, 0)
    step = rules.forfeit(state, 2)
    assert rules.mission_done(step.state, 0)
    outcome = rules.outcome(step.state)
    assert (outcome.end_reason, outcome.winner) == ("mission", 0)


@pytest.mark.parametrize("mode", ["world", "capital"])
@pytest.mark.parametrize("forfeiter", [0, 1], ids=lambda s: f"seat{s}")
def test_two_player_forfeit_ends_the_game(mode, forfeiter):
    rules = rules_for(2, mode=mode)
    state = rules.new_game(4)
    step = rules.forfeit(state, forfeiter)
    outcome = rules.outcome(step.state)
    assert outcome is not None
    assert outcome.winner == 1 - forfeiter
    assert outcome.end_reason == "domination"
    assert outcome.places[1 - forfeiter] == 1 and outcome.places[forfeiter] == 2
    assert rules.decision(step.state) is None


@pytest.mark.parametrize(
    ("options", "who", "at", "seed"),
    [
        pytest.param({}, "first", 0, 21, id="claim-first-seat-at-start"),
        pytest.param({}, "second", 0, 21, id="claim-second-seat-at-start"),
        pytest.param({}, "first", 20, 21, id="claim-first-seat-mid-claims"),
        pytest.param({}, "second", 60, 21, id="claim-second-seat-placing"),
        pytest.param({"deal": "random"}, "first", 0, 21, id="random-first-seat"),
        pytest.param({"deal": "random"}, "third", 5, 21, id="random-third-seat"),
        # seed 22: nobody holds the card 'destroy' the forfeiting seat (that would end the game)
        pytest.param({"mode": "mission"}, "second", 3, 22, id="mission-second-seat"),
        pytest.param({"mode": "mission"}, "first", 3, 22, id="mission-first-seat"),
    ],
)
def test_forfeit_during_setup_plays_default_setup(options, who, at, seed):
    players = 4
    rules = rules_for(players, **options)
    rng = random.Random(at)
    state = rules.new_game(seed)
    first = state.first
    for _ in range(at):
        seat = rules.decision(state).seats[0]
        state = apply(rules, state, seat, rng.choice(choices(rules.legal_options(state, seat))))
    out = (first + {"first": 0, "second": 1, "third": 2}[who]) % players
    step = rules.forfeit(state, out)
    log = list(step.events)
    state = step.state
    state = play_until(
        rules, state, lambda s, d: (d.kind not in SETUP_KINDS) or out in d.seats, rng, log
    )
    decision = rules.decision(state)
    assert out not in decision.seats
    assert decision.kind not in SETUP_KINDS
    # It never gets a turn, not even as the first player…
    assert out not in {e["seat"] for e in events_of(log, "turn")}
    assert state.seat != out
    # …but its setup was played for it: everything claimed and all armies placed.
    assert UNCLAIMED not in state.owner
    assert state.reserve == (0,) * players
    assert sum(a for t, a in enumerate(state.armies) if state.owner[t] == out) == 30
    assert state.owner.count(out) >= 10


@pytest.mark.parametrize("who", [0, 1, 2], ids=lambda s: f"seat{s}")
def test_forfeit_in_headquarters_phase(who):
    rules, state = _hq_phase(3)
    state = apply(
        rules, state, (who + 1) % 3, ChooseHeadquarters(state.territories_of((who + 1) % 3)[0])
    )
    step = rules.forfeit(state, who)
    state = step.state
    assert state.hq_pending[who] in state.territories_of(who)
    most = max(state.armies[t] for t in state.territories_of(who))
    assert state.armies[state.hq_pending[who]] == most
    decision = rules.decision(state)
    assert decision.kind == "headquarters"
    assert who not in decision.seats
    last = decision.seats[0]
    log: list = []
    state = apply(rules, state, last, ChooseHeadquarters(state.territories_of(last)[0]), log)
    assert events_of(log, "headquarters_revealed")
    assert state.hq[who] in state.territories_of(who)
    assert who not in {e["seat"] for e in events_of(log, "turn")}
    assert state.seat != who


# ============================================================================== views

FORBIDDEN_KEYS = {
    "deck",
    "seed",
    "streams",
    "dice_i",
    "card_i",
    "hands",
    "missions",
    "hq_pending",
    "discard",
}
SEED = 8_675_309_123


def _keys(value):
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _keys(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _keys(v)


def _sample_states(rules, seed, every=23, limit=40):
    rng = random.Random(seed)
    state = rules.new_game(SEED + seed)
    found, count = [], 0
    while (decision := rules.decision(state)) is not None and len(found) < limit:
        seat = rng.choice(decision.seats)
        state = rules.apply(
            state, seat, rng.choice(choices(rules.legal_options(state, seat)))
        ).state
        count += 1
        if count % every == 0 or decision.kind == "headquarters":
            found.append(state)
    found.append(state)
    return found


def _perturbed(rules, state, seat, rng):
    """The same position with every secret of the other seats changed."""
    s = state.copy()
    others = [p for p in range(s.n) if p != seat]
    pool = [c for p in others for c in s.hands[p]] + list(s.deck)
    rng.shuffle(pool)
    hands = list(s.hands)
    for p in others:
        hands[p], pool = tuple(pool[: len(hands[p])]), pool[len(hands[p]) :]
    s.hands = tuple(hands)
    s.deck = tuple(pool)
    if s.missions:
        own = s.missions[seat]
        spare = [m for m in range(6) if m != own]
        s.missions = tuple(own if p == seat else rng.choice(spare) for p in range(s.n))
    if s.hq and not s.hq_revealed:
        s.hq_pending = tuple(
            h if p == seat or h < 0 else rng.choice(s.territories_of(p))
            for p, h in enumerate(s.hq_pending)
        )
    s.dice_i += 7
    s.card_i += 3
    s.streams = Streams(SEED + 1)
    return s


@pytest.mark.parametrize(
    ("players", "options"),
    [
        pytest.param(2, {}, id="2p"),
        pytest.param(3, {}, id="3p-world"),
        pytest.param(4, {"mode": "mission"}, id="4p-mission"),
        pytest.param(4, {"mode": "capital"}, id="4p-capital"),
        pytest.param(5, {"mode": "capital", "capital_goal": "short", "sets": "fixed"}, id="5p-cap"),
    ],
)
def test_views_hide_secrets(players, options):
    rules = rules_for(players, max_rounds="8", **options)
    rng = random.Random(players)
    checked_cards = False
    for state in _sample_states(rules, players):
        for seat in range(players):
            view = rules.view(state, seat)
            text = json.dumps(view)
            assert not FORBIDDEN_KEYS & set(_keys(view))
            assert str(SEED + players) not in text
            assert view["hand"] == list(state.hands[seat])
            assert view["card_counts"] == [len(h) for h in state.hands]
            if state.missions:
                assert view["mission"]["id"] == state.missions[seat]
            else:
                assert view["mission"] is None
            if state.hq and not state.hq_revealed:
                assert [h for p, h in enumerate(view["headquarters"]) if p != seat] == [-1] * (
                    players - 1
                )
            assert rules.view(_perturbed(rules, state, seat, rng), seat) == view
            checked_cards |= any(state.hands[p] for p in range(players) if p != seat)
    assert checked_cards, "some sampled position had cards in another seat's hand"


# ================================================================ golden option counts


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6], ids=lambda n: f"{n}p")
def test_claim_options_at_start(players):
    options = {"deal": "random"} if players == 2 else {}
    rules = rules_for(players, **options)
    if players == 2:
        assert rules.decision(rules.new_game(1)).kind == "place"
        return
    state = rules.new_game(1)
    claim = rules.legal_options(state, state.first)
    assert claim.kind == "claim"
    assert claim.territories == tuple(range(42))
    assert len(choices(claim)) == 42


def test_board_edge_count():
    assert len(BOARD.edges) == 83
    assert sum(len(n) for n in BOARD.neighbours) == 166


# (continent, inter-continental edges, intra-continental edges, territories) — fact sheet §1.2
CONTINENTS = [
    ("North America", 3, 16, 9),
    ("South America", 2, 5, 4),
    ("Europe", 8, 12, 7),
    ("Africa", 6, 9, 6),
    ("Asia", 8, 22, 12),
    ("Australia", 1, 5, 4),
]


@pytest.mark.parametrize(
    ("name", "outward", "inner", "size"), CONTINENTS, ids=[c[0] for c in CONTINENTS]
)
@pytest.mark.parametrize("fortify", ["adjacent", "connected"])
def test_golden_counts_one_continent(name, outward, inner, size, fortify):
    rules = rules_for(3, fortify=fortify)
    own = continent(name)
    assert len(own) == size
    assert edge_count_between(own, own) == 2 * inner
    assert edge_count_between(own, set(range(42)) - set(own)) == outward
    state = make_state(rules, {t: 0 for t in own}, default_owner=1, armies=dict.fromkeys(own, 2))
    attacks = rules.legal_options(state, 0).attacks
    assert len(attacks) == outward
    assert all(dice == 1 for _, _, dice in attacks)
    state.phase = Phase.FORTIFY
    fortifies = rules.legal_options(state, 0).fortifies
    expected = 2 * inner if fortify == "adjacent" else size * (size - 1)
    assert len(fortifies) == expected
    assert all(m == 1 for _, _, m in fortifies)


@pytest.mark.parametrize(
    ("owned", "fortify", "expected"),
    [
        pytest.param(("Australia", "South America"), "adjacent", 20, id="two-islands-adjacent"),
        pytest.param(("Australia", "South America"), "connected", 24, id="two-islands-connected"),
        pytest.param(("North America", "South America"), "connected", 13 * 12, id="joined"),
        pytest.param(("Europe", "Africa", "Asia"), "adjacent", 2 * (12 + 9 + 22 + 9), id="eurasia"),
    ],
)
def test_golden_fortify_counts_several_continents(owned, fortify, expected):
    rules = rules_for(3, fortify=fortify)
    own = [t for name in owned for t in continent(name)]
    state = make_state(
        rules,
        {t: 0 for t in own},
        default_owner=1,
        armies=dict.fromkeys(own, 2),
        phase=Phase.FORTIFY,
    )
    assert len(rules.legal_options(state, 0).fortifies) == expected


@pytest.mark.parametrize(
    ("armies", "dice"),
    [
        pytest.param(1, None, id="1-army"),
        pytest.param(2, 1, id="2"),
        pytest.param(3, 2, id="3"),
        pytest.param(4, 3, id="4"),
        pytest.param(25, 3, id="25"),
    ],
)
def test_attack_dice_and_single_source(armies, dice):
    rules = rules_for(3)
    na = continent("North America")
    alaska = tid("Alaska")
    state = make_state(rules, {t: 0 for t in na}, default_owner=1, armies={alaska: armies})
    attacks = rules.legal_options(state, 0).attacks if rules.decision(state) else ()
    if dice is None:
        assert attacks == ()
        return
    assert attacks == ((alaska, tid("Kamchatka"), dice),)
    state.phase = Phase.FORTIFY
    fortifies = rules.legal_options(state, 0).fortifies
    assert sorted(fortifies) == sorted(
        (alaska, t, armies - 1) for t in (tid("Northwest Territory"), tid("Alberta"))
    )


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6], ids=lambda n: f"{n}p")
def test_counts_round_robin_ownership(players):
    """Territory t belongs to seat t % players, 2 armies each: counts from the adjacency."""
    rules = rules_for(players)
    conn = rules_for(players, fortify="connected")
    state = make_state(rules, default_armies=2)
    for seat in range(players):
        own = [t for t in range(42) if t % players == seat]
        enemy = set(range(42)) - set(own)
        state.seat, state.phase = seat, Phase.ATTACK
        assert len(rules.legal_options(state, seat).attacks) == edge_count_between(own, enemy)
        state.phase = Phase.FORTIFY
        adjacent = edge_count_between(own, own)
        if adjacent:
            assert len(rules.legal_options(state, seat).fortifies) == adjacent
            # connected: every ordered pair inside one connected group of own territories
            groups, seen = [], set()
            for start in own:
                if start in seen:
                    continue
                group, stack = set(), [start]
                while stack:
                    t = stack.pop()
                    if t in group:
                        continue
                    group.add(t)
                    stack.extend(u for u in BOARD.neighbours[t] if u % players == seat)
                seen |= group
                groups.append(len(group))
            expected = sum(g * (g - 1) for g in groups)
            assert len(conn.legal_options(state, seat).fortifies) == expected


def test_golden_round_robin_three_players():
    """Hard-coded: seat 0 of the t % 3 pattern (2 armies everywhere)."""
    rules = rules_for(3)
    state = make_state(rules, default_armies=2)
    assert len(rules.legal_options(state, 0).attacks) == 44
    state.phase = Phase.FORTIFY
    assert len(rules.legal_options(state, 0).fortifies) == 10
    assert len(rules_for(3, fortify="connected").legal_options(state, 0).fortifies) == 14
