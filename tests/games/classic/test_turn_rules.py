"""Turn rules of classic RISK through the engine (``ClassicRules``), table-driven.

Every expected number here comes from the rule fact sheet (/work/shared/rules/classic.md) or
the 1993 rule book, not from the engine. Dice are random but keyed by ``state.dice_i``; where a
test needs a particular dice outcome it searches dice indexes with :func:`first_step` (apply is
pure, so trying an index costs nothing) and asserts on the outcome found, never on raw faces.

Seats: 0 is the player to move unless said otherwise; 1 is the usual defender; 2 holds the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import product

import pytest

from arena.errors import IllegalActionError
from arena.games.api import Step
from arena.games.classic import (
    NEUTRAL,
    Attack,
    ClassicRules,
    ClassicState,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    Occupy,
    Phase,
    Place,
    Reroll,
    Trade,
)
from arena.games.classic.combat import compare, roll_distribution
from tests.classic_helpers import BOARD, continent, make_state, rules_for, tid

RULES = rules_for(3)

# classic.md §2 card symbols (card id == territory id; 42 and 43 are the wilds).
INF = tuple(tid(n) for n in ("Alaska", "Venezuela", "Peru", "Argentina", "Iceland", "Egypt"))
CAV = tuple(tid(n) for n in ("Greenland", "Alberta", "Ontario", "Quebec", "Scandinavia", "Ural"))
ART = tuple(
    tid(n)
    for n in ("Northwest Territory", "Western United States", "Eastern United States", "Brazil")
)
WILD1, WILD2 = 42, 43

# classic.md §1.1
BONUS = {
    "North America": 5,
    "South America": 2,
    "Europe": 5,
    "Africa": 3,
    "Asia": 7,
    "Australia": 2,
}


# --------------------------------------------------------------------------- helpers


def events_of(step_or_events: Step | list[dict], kind: str) -> list[dict]:
    events = step_or_events.events if isinstance(step_or_events, Step) else step_or_events
    return [e for e in events if e["type"] == kind]


def first_step(
    rules: ClassicRules,
    state: ClassicState,
    seat: int,
    action: object,
    wanted: Callable[[Step], bool],
    tries: int = 3000,
) -> Step:
    """Apply ``action`` with dice indexes 0, 1, 2, … and return the first step ``wanted``."""
    for k in range(tries):
        trial = state.copy()
        trial.dice_i = k
        step = rules.apply(trial, seat, action)
        if wanted(step):
            return step
    raise AssertionError(f"no dice index < {tries} gives the wanted outcome of {action}")


def captured(step: Step) -> bool:
    return bool(events_of(step, "conquered"))


def snapshot(state: ClassicState) -> tuple:
    return (
        list(state.owner),
        list(state.armies),
        state.hands,
        state.deck,
        state.discard,
        state.phase,
        state.seat,
        state.to_place,
        state.sets_traded,
        state.dice_i,
        state.card_i,
        state.attack,
        state.roll,
        state.occupy,
        state.bonus_given,
        state.conquered,
        state.forced_trade,
        state.eliminated,
        state.round,
        state.turns,
    )


def start_turn_of_seat0(state: ClassicState, rules: ClassicRules = RULES) -> Step:
    """Seat 2 (the last seat) ends its turn in FORTIFY, so seat 0's turn starts."""
    state.seat = 2
    state.phase = Phase.FORTIFY
    step = rules.apply(state, 2, EndTurn())
    assert step.state.seat == 0
    return step


def battle_position(
    rules: ClassicRules = RULES,
    *,
    src: str = "Alaska",
    dst: str = "Kamchatka",
    src_armies: int = 10,
    dst_armies: int = 1,
    **fields: object,
) -> ClassicState:
    """Seat 0 attacks seat 1's ``dst`` from ``src``; seat 0 also holds China (5 armies) so it
    can still attack after a capture, seat 1 also holds Argentina so it is not eliminated."""
    owner = {tid(src): 0, tid("China"): 0, tid(dst): 1, tid("Argentina"): 1}
    armies = {tid(src): src_armies, tid(dst): dst_armies, tid("China"): 5}
    fields.setdefault("phase", Phase.ATTACK)
    return make_state(rules, owner, default_owner=2, armies=armies, seat=0, **fields)


# ------------------------------------------------------ 1. reinforcements (§3)


def _pool_without_continents() -> list[int]:
    """36 territories, all but one of every continent, interleaved across continents."""
    parts = [continent(name)[:-1] for name in BONUS]
    pool = []
    for i in range(max(map(len, parts))):
        pool.extend(p[i] for p in parts if i < len(p))
    return pool


POOL = _pool_without_continents()


def seat0_owns(owned: list[int], rules: ClassicRules = RULES, **fields: object) -> ClassicState:
    """Seat 0 owns exactly ``owned``; seat 2 one other territory; seat 1 the rest."""
    owner = dict.fromkeys(owned, 0)
    others = [t for t in range(BOARD.size) if t not in owner]
    if others:
        owner[others[-1]] = 2
    return make_state(rules, owner, default_owner=1, **fields)


@pytest.mark.parametrize(("name", "bonus"), list(BONUS.items()), ids=list(BONUS))
def test_continent_bonus_values_match_the_fact_sheet(name, bonus):
    (found,) = [c for c in BOARD.continents if c.name == name]
    assert found.bonus == bonus


# The rule book's examples (11→3, 14→4, 17→5, fewer than 9 → 3) and a few more.
TERRITORY_COUNTS = [
    (1, 3),
    (2, 3),
    (8, 3),
    (9, 3),
    (11, 3),
    (12, 4),
    (14, 4),
    (17, 5),
    (20, 6),
    (23, 7),
    (36, 12),
]


@pytest.mark.parametrize(
    ("count", "expected"), TERRITORY_COUNTS, ids=[f"{c}->{e}" for c, e in TERRITORY_COUNTS]
)
def test_reinforcements_territories_div_3_min_3(count, expected):
    assert len(POOL) == 36
    state = seat0_owns(POOL[:count])
    assert RULES.reinforcements(state, 0) == expected


def _union(*names: str) -> list[int]:
    return [t for name in names for t in continent(name)]


def _minus(ids: list[int], *names: str) -> list[int]:
    drop = {tid(n) for n in names}
    return [t for t in ids if t not in drop]


CONTINENT_CASES = [
    # (id, territories, expected armies) — base max(3, n//3) + §1.1 bonuses, by hand.
    ("NA", _union("North America"), 3 + 5),
    ("SA", _union("South America"), 3 + 2),
    ("EU", _union("Europe"), 3 + 5),
    ("AF", _union("Africa"), 3 + 3),
    ("AS", _union("Asia"), 4 + 7),
    ("AU", _union("Australia"), 3 + 2),
    ("NA+SA", _union("North America", "South America"), 4 + 5 + 2),
    ("EU+AF", _union("Europe", "Africa"), 4 + 5 + 3),
    ("AS+AU", _union("Asia", "Australia"), 5 + 7 + 2),
    ("SA+AF+AU", _union("South America", "Africa", "Australia"), 4 + 2 + 3 + 2),
    (
        "AU+8-loose",
        [*_union("Australia"), *[t for t in POOL if t not in continent("Australia")][:8]],
        4 + 2,
    ),
    ("NA-minus-Alaska", _minus(_union("North America"), "Alaska"), 3),
    ("AS-minus-Siam", _minus(_union("Asia"), "Siam"), 3),
    ("all-but-Argentina", _minus(list(range(42)), "Argentina"), 13 + 5 + 5 + 3 + 7 + 2),
    ("all-42", list(range(42)), 14 + 5 + 2 + 5 + 3 + 7 + 2),
]


@pytest.mark.parametrize(
    ("owned", "expected"),
    [c[1:] for c in CONTINENT_CASES],
    ids=[c[0] for c in CONTINENT_CASES],
)
def test_reinforcements_continent_bonuses(owned, expected):
    state = seat0_owns(owned)
    assert RULES.reinforcements(state, 0) == expected


TURN_CASES = [
    ("11", POOL[:11], 3),
    ("14", POOL[:14], 4),
    ("17", POOL[:17], 5),
    ("2", POOL[:2], 3),
    ("NA", _union("North America"), 8),
    ("AS", _union("Asia"), 11),
    ("EU+AF", _union("Europe", "Africa"), 12),
    ("AS+AU", _union("Asia", "Australia"), 14),
    ("AS-minus-Siam", _minus(_union("Asia"), "Siam"), 3),
]


@pytest.mark.parametrize(
    ("owned", "expected"), [c[1:] for c in TURN_CASES], ids=[c[0] for c in TURN_CASES]
)
def test_reinforcements_at_turn_start(owned, expected):
    step = start_turn_of_seat0(seat0_owns(owned))
    turn = events_of(step, "turn")
    assert [e["seat"] for e in turn] == [0]
    assert turn[0]["reinforcements"] == expected
    s = step.state
    assert s.to_place == expected
    assert s.phase == Phase.REINFORCE
    decision = RULES.decision(s)
    assert (decision.kind, decision.seats) == ("reinforce", (0,))
    options = RULES.legal_options(s, 0)
    assert options.armies == expected
    assert set(options.territories) == set(owned)


def test_reinforce_must_place_exactly_the_new_armies_on_own_territories():
    step = start_turn_of_seat0(seat0_owns(POOL[:14]))
    s, mine, other = step.state, POOL[0], POOL[13]
    with pytest.raises(IllegalActionError, match="place exactly 4"):
        RULES.apply(s, 0, Place.on(mine, 3))
    with pytest.raises(IllegalActionError, match="place exactly 4"):
        RULES.apply(s, 0, Place.on(mine, 5))
    with pytest.raises(IllegalActionError, match="own territories"):
        RULES.apply(s, 0, Place.on(tid("Eastern Australia"), 4))
    with pytest.raises(IllegalActionError, match="listed twice"):
        RULES.apply(s, 0, Place(((mine, 2), (mine, 2))))
    done = RULES.apply(s, 0, Place(((mine, 1), (other, 3)))).state
    assert done.armies[mine] == s.armies[mine] + 1
    assert done.armies[other] == s.armies[other] + 3
    assert done.to_place == 0


# ---------------------------------------------------- 2. trade values (§3, §7)

VALUE_CASES = [
    # (id, sets rule, sets traded before, trio, expected armies)
    ("inc-1st", "increasing", 0, (INF[0], INF[1], INF[2]), 4),
    ("inc-2nd", "increasing", 1, (INF[0], INF[1], INF[2]), 6),
    ("inc-3rd", "increasing", 2, (CAV[0], CAV[1], CAV[2]), 8),
    ("inc-4th", "increasing", 3, (ART[0], ART[1], ART[2]), 10),
    ("inc-5th", "increasing", 4, (INF[0], CAV[0], ART[0]), 12),
    ("inc-6th", "increasing", 5, (INF[0], INF[1], INF[2]), 15),
    ("inc-7th", "increasing", 6, (INF[0], INF[1], WILD1), 20),
    ("inc-8th", "increasing", 7, (INF[0], INF[1], INF[2]), 25),
    ("inc-11th", "increasing", 10, (INF[0], INF[1], INF[2]), 40),
    ("prog-1st", "progressive", 0, (INF[0], INF[1], INF[2]), 4),
    ("prog-2nd", "progressive", 1, (INF[0], INF[1], INF[2]), 5),
    ("prog-6th", "progressive", 5, (ART[0], ART[1], ART[2]), 9),
    ("prog-10th", "progressive", 9, (INF[0], CAV[0], ART[0]), 13),
    ("fixed-iii", "fixed", 7, (INF[0], INF[1], INF[2]), 4),
    ("fixed-ccc", "fixed", 0, (CAV[0], CAV[1], CAV[2]), 6),
    ("fixed-aaa", "fixed", 3, (ART[0], ART[1], ART[2]), 8),
    ("fixed-ica", "fixed", 12, (INF[0], CAV[0], ART[0]), 10),
]

# Seat 0's own territories in the trade tests: no card used above shows one of them.
ASIA_HOME = [tid(n) for n in ("Siam", "China", "India", "Mongolia")]


@pytest.mark.parametrize(
    ("sets", "before", "trio", "expected"),
    [c[1:] for c in VALUE_CASES],
    ids=[c[0] for c in VALUE_CASES],
)
def test_trade_adds_the_set_value_to_to_place(sets, before, trio, expected):
    rules = rules_for(3, sets=sets)
    owner = dict.fromkeys(ASIA_HOME, 0)
    state = make_state(
        rules,
        owner,
        default_owner=1,
        phase=Phase.TRADE,
        hands={0: trio},
        sets_traded=before,
        to_place=7,
    )
    assert rules.decision(state).kind == "trade"
    assert tuple(sorted(trio)) in rules.legal_options(state, 0).sets
    step = rules.apply(state, 0, Trade(trio))
    s = step.state
    assert s.sets_traded == before + 1
    assert s.to_place == 7 + expected
    (traded,) = events_of(step, "traded")
    assert traded["armies"] == expected
    assert traded["sets_traded"] == before + 1
    assert traded["bonus_territory"] is None
    assert s.hands[0] == ()
    assert set(trio) <= set(s.discard)
    assert s.armies == state.armies
    assert s.phase == Phase.REINFORCE


@pytest.mark.parametrize(
    ("hand", "trio", "message"),
    [
        ((INF[0], INF[1], CAV[0]), (INF[0], INF[1], CAV[0]), "not a set"),
        ((INF[0], INF[1], INF[2]), (INF[0], INF[1], INF[3]), "from your hand"),
        ((INF[0], INF[1], INF[2]), (INF[0], INF[0], INF[1]), "three different"),
    ],
    ids=["not-a-set", "not-held", "repeated-card"],
)
def test_trade_rejects_bad_sets(hand, trio, message):
    state = make_state(
        RULES, dict.fromkeys(ASIA_HOME, 0), default_owner=1, phase=Phase.TRADE, hands={0: hand}
    )
    with pytest.raises(IllegalActionError, match=message):
        RULES.apply(state, 0, Trade(trio))


# ------------------------------------------------------ 3. the +2 card bonus (§3)


def bonus_position(hand: tuple[int, ...], owned: tuple[str, ...], **fields: object) -> ClassicState:
    owner = {tid(n): 0 for n in owned}
    owner.update(dict.fromkeys(ASIA_HOME, 0))
    return make_state(
        RULES, owner, default_owner=1, phase=Phase.TRADE, hands={0: hand}, to_place=3, **fields
    )


ALASKA, VENEZUELA, PERU = INF[0], INF[1], INF[2]

BONUS_CASES = [
    # (id, owned card territories, bonus_territory asked, where the 2 armies go or None)
    ("default-first-owned", ("Alaska", "Venezuela"), None, "Alaska"),
    ("chosen-second", ("Alaska", "Venezuela"), VENEZUELA, "Venezuela"),
    ("only-one-owned", ("Peru",), None, "Peru"),
    ("chosen-only-owned", ("Peru",), PERU, "Peru"),
    ("none-owned", (), None, None),
]


@pytest.mark.parametrize(
    ("owned", "asked", "where"), [c[1:] for c in BONUS_CASES], ids=[c[0] for c in BONUS_CASES]
)
def test_trade_bonus_puts_exactly_two_armies_on_an_owned_card_territory(owned, asked, where):
    state = bonus_position((ALASKA, VENEZUELA, PERU), owned)
    step = RULES.apply(state, 0, Trade((ALASKA, VENEZUELA, PERU), asked))
    s = step.state
    (traded,) = events_of(step, "traded")
    assert s.to_place == 3 + 4  # the +2 never goes to to_place
    diff = {
        t: s.armies[t] - state.armies[t]
        for t in range(BOARD.size)
        if s.armies[t] != state.armies[t]
    }
    if where is None:
        assert diff == {}
        assert traded["bonus_territory"] is None
        assert s.bonus_given is False
    else:
        assert diff == {tid(where): 2}
        assert traded["bonus_territory"] == tid(where)
        assert s.bonus_given is True
    options_bonus = set(RULES.legal_options(state, 0).bonus_territories)
    assert options_bonus == {tid(n) for n in owned}


@pytest.mark.parametrize(
    ("asked", "message"),
    [(PERU, "bonus territory"), (tid("Siam"), "bonus territory"), (99, "bonus territory")],
    ids=["card-not-owned", "owned-not-on-card", "no-such-territory"],
)
def test_trade_bonus_territory_must_be_an_owned_territory_of_the_set(asked, message):
    state = bonus_position((ALASKA, VENEZUELA, PERU), ("Alaska", "Venezuela"))
    with pytest.raises(IllegalActionError, match=message):
        RULES.apply(state, 0, Trade((ALASKA, VENEZUELA, PERU), asked))


def test_trade_bonus_territory_without_a_set_is_rejected():
    state = bonus_position((ALASKA, VENEZUELA, PERU), ("Alaska",))
    with pytest.raises(IllegalActionError, match="needs a traded set"):
        RULES.apply(state, 0, Trade(None, ALASKA))


def test_trade_bonus_at_most_once_per_turn():
    # Six cards, two sets, each showing an owned territory: only the first trade pays +2.
    first = (ALASKA, VENEZUELA, PERU)
    second = (CAV[0], CAV[1], CAV[2])  # Greenland, Alberta, Ontario
    state = bonus_position((*first, *second), ("Alaska", "Greenland", "Alberta"))
    one = RULES.apply(state, 0, Trade(first)).state
    assert one.armies[ALASKA] == state.armies[ALASKA] + 2
    assert one.phase == Phase.TRADE  # a second set is left and may be traded
    with pytest.raises(IllegalActionError, match="already given"):
        RULES.apply(one, 0, Trade(second, CAV[0]))
    step = RULES.apply(one, 0, Trade(second))
    two = step.state
    assert two.armies == one.armies
    assert events_of(step, "traded")[0]["bonus_territory"] is None
    assert two.to_place == 3 + 4 + 6
    assert RULES.legal_options(one, 0).bonus_territories == ()


def test_trade_bonus_resets_at_the_next_turn():
    state = seat0_owns(POOL[:12], hands={0: (ALASKA, VENEZUELA, PERU)}, bonus_given=True)
    state.owner[ALASKA] = 0
    s = start_turn_of_seat0(state).state
    assert s.bonus_given is False
    after = RULES.apply(s, 0, Trade((ALASKA, VENEZUELA, PERU))).state
    assert after.armies[ALASKA] == s.armies[ALASKA] + 2


def test_wild_cards_give_no_territory_bonus():
    state = bonus_position((WILD1, WILD2, PERU), ("Alaska",))
    s = RULES.apply(state, 0, Trade((WILD1, WILD2, PERU))).state
    assert s.armies == state.armies
    assert s.bonus_given is False


# ---------------------------------------------- 4. when a trade is required (§3)

HAND_CASES = [
    # (id, hand at turn start, phase entered, trade required)
    ("0-cards", (), Phase.REINFORCE, False),
    ("3-no-set", (INF[0], INF[1], CAV[0]), Phase.REINFORCE, False),
    ("4-no-set", (INF[0], INF[1], CAV[0], CAV[1]), Phase.REINFORCE, False),
    ("3-set", (INF[0], INF[1], INF[2]), Phase.TRADE, False),
    ("3-one-each", (INF[0], CAV[0], ART[0]), Phase.TRADE, False),
    ("3-wild", (INF[0], CAV[0], WILD1), Phase.TRADE, False),
    ("4-set", (INF[0], INF[1], INF[2], CAV[0]), Phase.TRADE, False),
    ("5-cards", (INF[0], INF[1], CAV[0], CAV[1], ART[0]), Phase.TRADE, True),
    ("6-cards", (INF[0], INF[1], INF[2], CAV[0], CAV[1], CAV[2]), Phase.TRADE, True),
]


@pytest.mark.parametrize(
    ("hand", "phase", "required"), [c[1:] for c in HAND_CASES], ids=[c[0] for c in HAND_CASES]
)
def test_trade_phase_at_turn_start(hand, phase, required):
    state = seat0_owns(POOL[:12], hands={0: hand})
    s = start_turn_of_seat0(state).state
    assert s.phase == phase
    assert RULES.decision(s).kind == phase.name.lower()
    if phase != Phase.TRADE:
        return
    options = RULES.legal_options(s, 0)
    assert options.required is required
    if required:
        with pytest.raises(IllegalActionError, match="must trade"):
            RULES.apply(s, 0, Trade(None))
    else:
        declined = RULES.apply(s, 0, Trade(None)).state
        assert declined.phase == Phase.REINFORCE
        assert declined.hands[0] == hand
        assert declined.to_place == s.to_place == 4
        assert declined.sets_traded == s.sets_traded


def test_five_cards_must_trade_once_then_may_stop():
    hand = (INF[0], INF[1], INF[2], CAV[0], CAV[1])
    s = start_turn_of_seat0(seat0_owns(POOL[:12], hands={0: hand})).state
    after = RULES.apply(s, 0, Trade((INF[0], INF[1], INF[2]))).state
    assert len(after.hands[0]) == 2
    assert after.phase == Phase.REINFORCE
    assert after.to_place == 4 + 4


def test_six_cards_must_trade_one_set_and_may_trade_a_second():
    hand = (INF[0], INF[1], INF[2], CAV[0], CAV[1], CAV[2])
    s = start_turn_of_seat0(seat0_owns(POOL[:12], hands={0: hand}, sets_traded=2)).state
    one = RULES.apply(s, 0, Trade((CAV[0], CAV[1], CAV[2]))).state
    assert one.phase == Phase.TRADE
    assert RULES.legal_options(one, 0).required is False
    stop = RULES.apply(one, 0, Trade(None)).state
    assert stop.phase == Phase.REINFORCE
    assert stop.to_place == 4 + 8
    two = RULES.apply(one, 0, Trade((INF[0], INF[1], INF[2]))).state
    assert two.phase == Phase.REINFORCE
    assert two.to_place == 4 + 8 + 10
    assert two.sets_traded == 4


# ------------------------------------------------ 5. elimination takeover (§3)

TAKEOVER_HAND_0 = (INF[0], INF[1], INF[2], INF[3], INF[4])
TAKEOVER_HAND_1 = (CAV[0], CAV[1], CAV[2], CAV[3], CAV[4])

TAKEOVER_CASES = [
    # (id, attacker's cards, victim's cards, trades forced, cards left)
    ("0+0", 0, 0, 0, 0),
    ("1+0", 1, 0, 0, 1),
    ("0+3", 0, 3, 0, 3),
    ("2+3", 2, 3, 0, 5),
    ("3+3", 3, 3, 1, 3),
    ("2+4", 2, 4, 1, 3),
    ("4+3", 4, 3, 1, 4),
    ("4+4", 4, 4, 2, 2),
    ("5+4", 5, 4, 2, 3),
    ("5+5", 5, 5, 2, 4),
]


def takeover_position(mine: int, theirs: int, sets_traded: int = 0) -> ClassicState:
    """Seat 1 holds only Kamchatka (1 army); seat 0 attacks it from Alaska (30 armies)."""
    owner = {tid("Alaska"): 0, tid("China"): 0, tid("Kamchatka"): 1}
    armies = {tid("Alaska"): 30, tid("China"): 5, tid("Kamchatka"): 1}
    return make_state(
        RULES,
        owner,
        default_owner=2,
        armies=armies,
        seat=0,
        phase=Phase.ATTACK,
        hands={0: TAKEOVER_HAND_0[:mine], 1: TAKEOVER_HAND_1[:theirs]},
        sets_traded=sets_traded,
    )


@pytest.mark.parametrize(
    ("mine", "theirs", "trades", "left"),
    [c[1:] for c in TAKEOVER_CASES],
    ids=[c[0] for c in TAKEOVER_CASES],
)
def test_elimination_takes_the_cards_and_forces_trades_from_six(mine, theirs, trades, left):
    state = takeover_position(mine, theirs, sets_traded=3)
    alaska, kamchatka = tid("Alaska"), tid("Kamchatka")
    step = RULES.apply(state, 0, Attack(alaska, kamchatka, 3, until=1))
    assert captured(step), "30 armies against 1 should capture"
    s = step.state
    (elim,) = events_of(step, "eliminated")
    assert (elim["seat"], elim["by"], elim["cards"]) == (1, 0, theirs)
    taken = events_of(step, "cards_taken")
    if theirs:
        assert [(e["seat"], e["from"], e["cards"]) for e in taken] == [
            (0, 1, list(TAKEOVER_HAND_1[:theirs]))
        ]
    else:
        assert taken == []
    assert s.eliminated == (1,)
    assert s.hands[1] == ()
    assert sorted(s.hands[0]) == sorted(TAKEOVER_HAND_0[:mine] + TAKEOVER_HAND_1[:theirs])

    # Alaska still has spare armies: the occupation comes first.
    assert s.phase == Phase.OCCUPY
    s = RULES.apply(s, 0, Occupy(RULES.legal_options(s, 0).min_armies)).state

    traded_values = []
    for _ in range(trades):
        decision = RULES.decision(s)
        assert (decision.kind, decision.seats) == ("trade", (0,))
        options = RULES.legal_options(s, 0)
        assert options.required is True
        with pytest.raises(IllegalActionError, match="must trade"):
            RULES.apply(s, 0, Trade(None))
        step = RULES.apply(s, 0, Trade(options.sets[0]))
        traded_values.append(events_of(step, "traded")[0]["armies"])
        s = step.state
    assert len(s.hands[0]) == left
    assert traded_values == [10, 12][:trades]  # the 4th and 5th sets of the game
    if trades:
        # Stop at 4, 3 or 2 cards even when a set is left (the 4-card cases still hold one).
        assert s.phase == Phase.REINFORCE
        assert RULES.decision(s).kind == "reinforce"
        assert s.to_place == sum(traded_values)
        s = RULES.apply(s, 0, Place.on(alaska, s.to_place)).state
    assert s.phase == Phase.ATTACK
    assert s.seat == 0
    assert s.forced_trade is False


def test_elimination_without_spare_armies_goes_straight_to_the_forced_trade():
    # Alaska has 4 armies and captures with 3 dice: all 3 move in, no occupy decision.
    state = takeover_position(3, 4)
    state.armies[tid("Alaska")] = 4
    step = first_step(RULES, state, 0, Attack(tid("Alaska"), tid("Kamchatka"), 3), captured)
    s = step.state
    assert s.armies[tid("Alaska")] == 1
    assert s.phase == Phase.TRADE
    assert RULES.legal_options(s, 0).required is True


def test_eliminated_seat_gets_no_more_turns():
    step = RULES.apply(
        takeover_position(0, 0), 0, Attack(tid("Alaska"), tid("Kamchatka"), 3, until=1)
    )
    s = RULES.apply(step.state, 0, Occupy(3)).state
    s = RULES.apply(s, 0, EndAttack()).state
    step = RULES.apply(s, 0, EndTurn())
    assert [e["seat"] for e in events_of(step, "card_drawn")] == [0]
    assert [e["seat"] for e in events_of(step, "turn")] == [2]
    assert step.state.seat == 2


def test_card_drawn_at_turn_end_reaching_six_does_not_force_a_trade():
    # Seat 0 holds 5 cards and captured this turn: the 6th card waits for its next turn.
    state = battle_position(phase=Phase.FORTIFY, conquered=True, hands={0: TAKEOVER_HAND_0})
    step = RULES.apply(state, 0, EndTurn())
    s = step.state
    assert [e["seat"] for e in events_of(step, "card_drawn")] == [0]
    assert len(s.hands[0]) == 6
    assert s.seat == 1
    assert RULES.decision(s).seats == (1,)


# ------------------------------------------------------------- 6. capture (§3)


@pytest.mark.parametrize("dice", [1, 2, 3], ids=["1-die", "2-dice", "3-dice"])
def test_capture_moves_the_dice_rolled_and_offers_the_rest(dice):
    state = battle_position(src_armies=10, dst_armies=1)
    alaska, kamchatka = tid("Alaska"), tid("Kamchatka")
    step = first_step(RULES, state, 0, Attack(alaska, kamchatka, dice), captured)
    s = step.state
    (conquered,) = events_of(step, "conquered")
    last = events_of(step, "battle")[-1]
    assert len(last["attacker_dice"]) == dice
    assert conquered["armies"] == dice
    assert conquered["previous_owner"] == 1
    assert s.owner[kamchatka] == 0
    assert s.armies[kamchatka] == dice
    assert s.armies[alaska] == 10 - dice
    decision = RULES.decision(s)
    assert (decision.kind, decision.seats) == ("occupy", (0,))
    options = RULES.legal_options(s, 0)
    assert (options.min_armies, options.max_armies) == (dice, 9)
    for bad in (dice - 1, 10, 0):
        with pytest.raises(IllegalActionError, match=f"occupy with {dice}-9"):
            RULES.apply(s, 0, Occupy(bad))
    most = RULES.apply(s, 0, Occupy(9))
    assert (most.state.armies[alaska], most.state.armies[kamchatka]) == (1, 9)
    assert events_of(most, "occupied")[0]["armies"] == 9
    least = RULES.apply(s, 0, Occupy(dice)).state
    assert (least.armies[alaska], least.armies[kamchatka]) == (10 - dice, dice)
    assert least.phase == Phase.ATTACK


def test_capture_minimum_is_the_dice_of_the_last_roll_not_of_the_order():
    # Ordered 3 dice, but by the capturing roll Alaska had only 3 armies, so 2 dice were rolled.
    state = battle_position(src_armies=5, dst_armies=2, always_max=(False, True, False))
    alaska, kamchatka = tid("Alaska"), tid("Kamchatka")

    def two_dice_capture(step: Step) -> bool:
        return captured(step) and len(events_of(step, "battle")[-1]["attacker_dice"]) == 2

    step = first_step(RULES, state, 0, Attack(alaska, kamchatka, 3, until=1), two_dice_capture)
    assert events_of(step, "conquered")[0]["armies"] == 2
    assert step.state.armies[kamchatka] == 2
    assert step.state.armies[alaska] == 1
    assert step.state.phase == Phase.ATTACK  # nothing left to move: no occupy decision


@pytest.mark.parametrize(
    ("src_armies", "dice"), [(2, 1), (3, 2), (4, 3)], ids=["2-armies-1-die", "3-2", "4-3"]
)
def test_no_occupy_decision_when_no_extra_army_can_move(src_armies, dice):
    state = battle_position(src_armies=src_armies, dst_armies=1)
    alaska, kamchatka = tid("Alaska"), tid("Kamchatka")
    step = first_step(RULES, state, 0, Attack(alaska, kamchatka, dice), captured)
    s = step.state
    assert s.armies[alaska] == 1
    assert s.armies[kamchatka] == dice
    assert s.occupy is None
    assert s.phase == Phase.ATTACK
    assert RULES.decision(s).kind == "attack"


# -------------------------------------------------------- 7. attack checks (§3)


def attack_checks_position() -> ClassicState:
    # Seat 0: Alaska 5, Northwest Territory 1, Alberta 3.  Seat 1: Kamchatka 2, Greenland 1.
    owner = {
        tid("Alaska"): 0,
        tid("Northwest Territory"): 0,
        tid("Alberta"): 0,
        tid("Kamchatka"): 1,
        tid("Greenland"): 1,
    }
    armies = {tid("Alaska"): 5, tid("Alberta"): 3, tid("Kamchatka"): 2}
    return make_state(RULES, owner, default_owner=2, armies=armies, seat=0)


def _t(name: str) -> int:
    return tid(name)


ATTACK_ERRORS = [
    ("from-enemy", 0, Attack(_t("Kamchatka"), _t("Alaska"), 1), "not you"),
    ("not-adjacent", 0, Attack(_t("Alaska"), _t("Greenland"), 1), "not adjacent"),
    ("not-adjacent-2", 0, Attack(_t("Alberta"), _t("Greenland"), 1), "not adjacent"),
    ("own-target", 0, Attack(_t("Alaska"), _t("Northwest Territory"), 1), "your own"),
    ("one-army", 0, Attack(_t("Northwest Territory"), _t("Greenland"), 1), "at least 2 armies"),
    ("zero-dice", 0, Attack(_t("Alaska"), _t("Kamchatka"), 0), "1-3 dice"),
    ("four-dice", 0, Attack(_t("Alaska"), _t("Kamchatka"), 4), "1-3 dice"),
    ("3-dice-from-3", 0, Attack(_t("Alberta"), _t("Ontario"), 3), "1-2 dice"),
    ("until-0", 0, Attack(_t("Alaska"), _t("Kamchatka"), 3, until=0), "'until'"),
    ("until-all", 0, Attack(_t("Alaska"), _t("Kamchatka"), 3, until=5), "'until'"),
    ("bad-id", 0, Attack(_t("Alaska"), 99, 1), "does not exist"),
    ("bad-policy", 0, Attack(_t("Alaska"), _t("Kamchatka"), 1, reroll="often"), "reroll policy"),
    ("wrong-seat", 1, Attack(_t("Kamchatka"), _t("Alaska"), 1), "not to decide"),
    ("wrong-kind", 0, Fortify(_t("Alaska"), _t("Alberta"), 1), "expected Attack or EndAttack"),
    ("trade-now", 0, Trade(None), "expected Attack or EndAttack"),
]


@pytest.mark.parametrize(
    ("seat", "action", "message"), [c[1:] for c in ATTACK_ERRORS], ids=[c[0] for c in ATTACK_ERRORS]
)
def test_illegal_attacks_are_rejected_saying_why(seat, action, message):
    state = attack_checks_position()
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=message):
        RULES.apply(state, seat, action)
    assert not RULES.is_legal(state, seat, action)
    assert snapshot(state) == before


@pytest.mark.parametrize(
    "action",
    [
        Attack(_t("Alaska"), _t("Kamchatka"), 1),
        Attack(_t("Alaska"), _t("Kamchatka"), 3),
        Attack(_t("Alaska"), _t("Kamchatka"), 3, until=4),
        Attack(_t("Alaska"), _t("Kamchatka"), 2, until=1, reroll="never"),
        Attack(_t("Alberta"), _t("Ontario"), 2),
        Attack(_t("Alberta"), _t("Western United States"), 1),
        EndAttack(),
    ],
    ids=["1-die", "3-dice", "until-4", "until-1", "alberta-2", "alberta-wus", "end"],
)
def test_legal_attacks_are_accepted(action):
    assert RULES.is_legal(attack_checks_position(), 0, action)


def test_attack_options_list_every_adjacent_enemy_with_the_most_dice():
    options = RULES.legal_options(attack_checks_position(), 0)
    assert set(options.attacks) == {
        (_t("Alaska"), _t("Kamchatka"), 3),
        (_t("Alberta"), _t("Ontario"), 2),
        (_t("Alberta"), _t("Western United States"), 2),
    }


def _replay_battles(step: Step, src: int, dst: int, src0: int, dst0: int) -> list[tuple]:
    """(attacker dice, defender dice, src before, dst before) per battle, checking the losses."""
    rows, a, d = [], src0, dst0
    for b in events_of(step, "battle"):
        assert (b["from"], b["to"]) == (src, dst)
        assert (b["attacker_losses"], b["defender_losses"]) == compare(
            b["attacker_dice"], b["defender_dice"]
        )
        rows.append((len(b["attacker_dice"]), len(b["defender_dice"]), a, d))
        a -= b["attacker_losses"]
        d -= b["defender_losses"]
    return rows


@pytest.mark.parametrize(
    ("dice", "until"),
    [(3, 4), (3, 1), (2, 3), (1, 6)],
    ids=["3-to-4", "3-to-1", "2-to-3", "1-to-6"],
)
def test_attack_until_repeats_rolls_until_the_source_is_down_to_k(dice, until):
    state = battle_position(src_armies=10, dst_armies=40, always_max=(False, True, False))
    alaska, kamchatka = tid("Alaska"), tid("Kamchatka")
    step = RULES.apply(state, 0, Attack(alaska, kamchatka, dice, until=until))
    s = step.state
    rows = _replay_battles(step, alaska, kamchatka, 10, 40)
    assert not captured(step)
    assert len(rows) >= 2
    for n_att, n_def, a, d in rows:
        assert n_att == min(dice, a - 1)
        assert n_def == min(2, d)
    # Every roll but the last left the source above K; the last brought it to K or below.
    afters = [r[2] for r in rows[1:]] + [s.armies[alaska]]
    assert all(a > until for a in afters[:-1])
    assert afters[-1] <= until
    assert s.armies[kamchatka] == 40 - sum(b["defender_losses"] for b in events_of(step, "battle"))
    assert s.attack is None


def test_attack_without_until_is_one_roll():
    state = battle_position(src_armies=10, dst_armies=40, always_max=(False, True, False))
    step = RULES.apply(state, 0, Attack(tid("Alaska"), tid("Kamchatka"), 3))
    assert len(events_of(step, "battle")) == 1
    assert step.state.phase == Phase.ATTACK


def test_attack_until_stops_at_the_capture():
    state = battle_position(src_armies=20, dst_armies=3, always_max=(False, True, False))
    step = first_step(
        RULES,
        state,
        0,
        Attack(tid("Alaska"), tid("Kamchatka"), 3, until=1),
        lambda st: captured(st) and len(events_of(st, "battle")) >= 2,
    )
    assert step.events[-1]["type"] == "conquered"
    assert step.state.phase == Phase.OCCUPY


# ------------------------------------------------------- 8. defender's dice (§3)


def test_defender_chooses_one_or_two_dice():
    state = battle_position(dst_armies=3)
    alaska, kamchatka = tid("Alaska"), tid("Kamchatka")
    asked = RULES.apply(state, 0, Attack(alaska, kamchatka, 3)).state
    assert asked.phase == Phase.DEFEND
    decision = RULES.decision(asked)
    assert (decision.kind, decision.seats) == ("defend", (1,))
    options = RULES.legal_options(asked, 1)
    assert options.max_dice == 2
    assert options.battle == (alaska, kamchatka, 3)
    for bad in (0, 3):
        with pytest.raises(IllegalActionError, match="defend with 1-2 dice"):
            RULES.apply(asked, 1, Defend(bad))
    with pytest.raises(IllegalActionError, match="not to decide"):
        RULES.apply(asked, 0, Defend(2))
    with pytest.raises(IllegalActionError, match="not to decide"):
        RULES.apply(asked, 2, Defend(2))
    for dice in (1, 2):
        step = RULES.apply(asked, 1, Defend(dice))
        (battle,) = events_of(step, "battle")
        assert len(battle["defender_dice"]) == dice
        assert len(battle["attacker_dice"]) == 3


def test_defender_is_asked_even_against_one_attacking_die():
    state = battle_position(src_armies=2, dst_armies=2)
    asked = RULES.apply(state, 0, Attack(tid("Alaska"), tid("Kamchatka"), 1)).state
    assert (RULES.decision(asked).kind, RULES.decision(asked).seats) == ("defend", (1,))
    assert RULES.legal_options(asked, 1).battle == (tid("Alaska"), tid("Kamchatka"), 1)


@pytest.mark.parametrize(
    ("dst_armies", "always_max", "def_dice"),
    [
        (1, (False, False, False), 1),
        (1, (False, True, False), 1),
        (2, (False, True, False), 2),
        (7, (False, True, False), 2),
    ],
    ids=["one-army", "one-army-always-max", "always-max-2", "always-max-7"],
)
def test_defender_is_not_asked_with_one_army_or_always_max(dst_armies, always_max, def_dice):
    state = battle_position(dst_armies=dst_armies, always_max=always_max)
    step = RULES.apply(state, 0, Attack(tid("Alaska"), tid("Kamchatka"), 3))
    (battle,) = events_of(step, "battle")
    assert len(battle["defender_dice"]) == def_dice
    assert step.state.phase != Phase.DEFEND


def test_always_max_of_another_seat_does_not_spare_the_defender_the_question():
    state = battle_position(dst_armies=4, always_max=(True, False, True))
    s = RULES.apply(state, 0, Attack(tid("Alaska"), tid("Kamchatka"), 3)).state
    assert s.phase == Phase.DEFEND


@pytest.mark.parametrize(
    ("declared", "expected"),
    [((), (False, False, False)), ([False, True], (False, True, False)), ([True] * 3, (True,) * 3)],
    ids=["none", "seat-1", "all"],
)
def test_new_game_records_always_max(declared, expected):
    assert RULES.new_game(5, always_max=declared).always_max == expected


def test_defend_until_asks_the_defender_each_roll():
    state = battle_position(src_armies=10, dst_armies=30)
    asked = RULES.apply(state, 0, Attack(tid("Alaska"), tid("Kamchatka"), 3, until=1)).state
    step = RULES.apply(asked, 1, Defend(2))
    assert len(events_of(step, "battle")) == 1
    assert step.state.phase == Phase.DEFEND  # the next roll waits for the defender again


def test_two_player_neutral_territory_is_defended_by_the_opponent():
    rules = rules_for(2)
    owner = {tid("Alaska"): 0, tid("China"): 0, tid("Kamchatka"): NEUTRAL, tid("Argentina"): 1}
    armies = {tid("Alaska"): 10, tid("Kamchatka"): 3}
    state = make_state(rules, owner, default_owner=1, armies=armies, seat=0)
    asked = rules.apply(state, 0, Attack(tid("Alaska"), tid("Kamchatka"), 3)).state
    decision = rules.decision(asked)
    assert (decision.kind, decision.seats) == ("defend", (1,))
    assert rules.legal_options(asked, 1).max_dice == 2


# ------------------------------------------------------ 9. one roll, exactly (§8.1)

ROLL_TABLE = [
    # (attacker dice, defender dice, {(attacker losses, defender losses): probability})
    (1, 1, {(0, 1): Fraction(15, 36), (1, 0): Fraction(21, 36)}),
    (1, 2, {(0, 1): Fraction(55, 216), (1, 0): Fraction(161, 216)}),
    (2, 1, {(0, 1): Fraction(125, 216), (1, 0): Fraction(91, 216)}),
    (
        2,
        2,
        {(0, 2): Fraction(295, 1296), (1, 1): Fraction(420, 1296), (2, 0): Fraction(581, 1296)},
    ),
    (3, 1, {(0, 1): Fraction(855, 1296), (1, 0): Fraction(441, 1296)}),
    (
        3,
        2,
        {(0, 2): Fraction(2890, 7776), (1, 1): Fraction(2611, 7776), (2, 0): Fraction(2275, 7776)},
    ),
]


@pytest.mark.parametrize(
    ("att", "dfn", "expected"), ROLL_TABLE, ids=[f"{a}v{d}" for a, d, _ in ROLL_TABLE]
)
def test_single_roll_odds_by_enumeration(att, dfn, expected):
    counts: dict[tuple[int, int], int] = {}
    outcomes = 0
    for faces in product(range(1, 7), repeat=att + dfn):
        key = compare(list(faces[:att]), list(faces[att:]))
        counts[key] = counts.get(key, 0) + 1
        outcomes += 1
    assert outcomes == 6 ** (att + dfn)
    assert {k: Fraction(v, outcomes) for k, v in counts.items()} == expected
    assert roll_distribution(att, dfn) == expected
    assert sum(expected.values()) == 1


@pytest.mark.parametrize(
    ("att", "dfn", "losses"),
    [
        ([6], [6], (1, 0)),
        ([1, 2, 3], [3], (1, 0)),
        ([6, 6], [6, 5], (1, 1)),
        ([5, 4, 1], [4, 4], (1, 1)),
        ([2], [1, 6], (1, 0)),
        ([1, 6, 2], [5, 1], (0, 2)),
        ([3, 3, 3], [3, 3], (2, 0)),
        ([4, 2], [3], (0, 1)),
    ],
    ids=[
        "tie",
        "tie-high",
        "tie-then-win",
        "win-then-tie",
        "vs-highest",
        "sorted",
        "all-ties",
        "2v1",
    ],
)
def test_compare_highest_against_highest_ties_to_defender(att, dfn, losses):
    assert compare(att, dfn) == losses


# -------------------------------------------------- 10. advantage re-roll (§7)

REROLL_RULES = rules_for(3, advantage_reroll="true")


def reroll_position(hand: tuple[int, ...], rules: ClassicRules = REROLL_RULES) -> ClassicState:
    return battle_position(
        rules, src_armies=10, dst_armies=20, always_max=(False, True, False), hands={0: hand}
    )


@pytest.mark.parametrize("card", ["Alaska", "Kamchatka"], ids=["card-of-source", "card-of-target"])
@pytest.mark.parametrize("die", [0, 1, 2, None], ids=["die-0", "die-1", "die-2", "keep"])
def test_reroll_ask_lets_the_attacker_reroll_one_die(card, die):
    state = reroll_position((tid(card), INF[3]))
    alaska, kamchatka = tid("Alaska"), tid("Kamchatka")
    step = REROLL_RULES.apply(state, 0, Attack(alaska, kamchatka, 3, reroll="ask"))
    s = step.state
    assert events_of(step, "battle") == []
    assert s.phase == Phase.REROLL
    decision = REROLL_RULES.decision(s)
    assert (decision.kind, decision.seats) == ("reroll", (0,))
    options = REROLL_RULES.legal_options(s, 0)
    att, dfn = list(options.attacker_dice), list(options.defender_dice)
    assert (len(att), len(dfn)) == (3, 2)
    assert options.battle == (alaska, kamchatka, 3)
    with pytest.raises(IllegalActionError, match="re-roll one of your 3 dice"):
        REROLL_RULES.apply(s, 0, Reroll(3))
    with pytest.raises(IllegalActionError, match="not to decide"):
        REROLL_RULES.apply(s, 1, Reroll(None))

    after = REROLL_RULES.apply(s, 0, Reroll(die))
    rerolled = events_of(after, "rerolled")
    (battle,) = events_of(after, "battle")
    assert battle["defender_dice"] == dfn
    if die is None:
        assert rerolled == []
        assert battle["attacker_dice"] == att
    else:
        (r,) = rerolled
        assert (r["seat"], r["die"], r["old"]) == (0, die, att[die])
        assert 1 <= r["new"] <= 6
        expected = att.copy()
        expected[die] = r["new"]
        assert battle["attacker_dice"] == expected
    assert (battle["attacker_losses"], battle["defender_losses"]) == compare(
        battle["attacker_dice"], battle["defender_dice"]
    )
    assert after.state.phase == Phase.ATTACK
    assert after.state.hands[0] == state.hands[0]  # the card goes back into the hand


def test_reroll_actually_uses_a_new_die_sometimes():
    # Across dice indexes, re-rolling die 0 must sometimes change its face (a fresh roll).
    state = reroll_position((tid("Alaska"),))
    action = Attack(tid("Alaska"), tid("Kamchatka"), 3)
    changed = 0
    for k in range(60):
        trial = state.copy()
        trial.dice_i = k
        s = REROLL_RULES.apply(trial, 0, action).state
        r = events_of(REROLL_RULES.apply(s, 0, Reroll(0)), "rerolled")[0]
        changed += r["new"] != r["old"]
    assert 30 < changed < 60  # a fresh die repeats the old face 1 time in 6


def test_reroll_asks_in_every_roll_of_an_until_attack():
    state = reroll_position((tid("Alaska"),))
    s = REROLL_RULES.apply(state, 0, Attack(tid("Alaska"), tid("Kamchatka"), 3, until=1)).state
    assert s.phase == Phase.REROLL
    s = REROLL_RULES.apply(s, 0, Reroll(None)).state
    assert s.phase == Phase.REROLL


@pytest.mark.parametrize(
    ("rules", "hand", "policy"),
    [
        (REROLL_RULES, (tid("Alaska"),), "never"),
        (REROLL_RULES, (tid("Alaska"),), "auto"),
        (REROLL_RULES, (tid("Siam"), tid("China")), "ask"),
        (REROLL_RULES, (), "ask"),
        (RULES, (tid("Alaska"), tid("Kamchatka")), "ask"),
    ],
    ids=["never", "auto", "unrelated-cards", "no-cards", "option-off"],
)
def test_reroll_not_asked(rules, hand, policy):
    state = reroll_position(hand, rules)
    for k in range(20):
        trial = state.copy()
        trial.dice_i = k
        step = rules.apply(trial, 0, Attack(tid("Alaska"), tid("Kamchatka"), 3, reroll=policy))
        assert step.state.phase == Phase.ATTACK
        assert len(events_of(step, "battle")) == 1
        if policy != "auto":
            assert events_of(step, "rerolled") == []


def test_reroll_auto_rerolls_only_a_losing_or_tied_die():
    state = reroll_position((tid("Alaska"),))
    for k in range(40):
        trial = state.copy()
        trial.dice_i = k
        step = REROLL_RULES.apply(
            trial, 0, Attack(tid("Alaska"), tid("Kamchatka"), 3, reroll="auto")
        )
        rerolled = events_of(step, "rerolled")
        assert len(rerolled) <= 1
        if rerolled:
            (battle,) = events_of(step, "battle")
            before = list(battle["attacker_dice"])
            before[rerolled[0]["die"]] = rerolled[0]["old"]
            assert compare(before, battle["defender_dice"])[0] >= 1


# -------------------------------------------------------------- 11. fortify (§3)


def fortify_position(rules: ClassicRules = RULES) -> ClassicState:
    # Seat 0: Alaska 5 - Northwest Territory - Ontario - Quebec (a chain), and Siam 4 (apart).
    # Alberta (next to Alaska, NWT and Ontario) is seat 1's.
    mine = ("Alaska", "Northwest Territory", "Ontario", "Quebec", "Siam")
    owner = {tid(n): 0 for n in mine}
    owner[tid("Alberta")] = 1
    armies = {tid("Alaska"): 5, tid("Siam"): 4}
    return make_state(rules, owner, default_owner=2, armies=armies, seat=0, phase=Phase.FORTIFY)


@pytest.mark.parametrize(
    ("fortify", "src", "dst", "armies"),
    [
        ("adjacent", "Alaska", "Northwest Territory", 4),
        ("adjacent", "Alaska", "Northwest Territory", 1),
        ("connected", "Alaska", "Quebec", 4),
        ("connected", "Alaska", "Ontario", 2),
        ("connected", "Alaska", "Northwest Territory", 3),
    ],
    ids=["adj-all", "adj-one", "chain-3-steps", "chain-2-steps", "connected-adjacent"],
)
def test_fortify_moves_armies_and_ends_the_turn(fortify, src, dst, armies):
    rules = rules_for(3, fortify=fortify)
    state = fortify_position(rules)
    s_id, d_id = tid(src), tid(dst)
    assert (s_id, d_id, state.armies[s_id] - 1) in rules.legal_options(state, 0).fortifies
    step = rules.apply(state, 0, Fortify(s_id, d_id, armies))
    s = step.state
    assert s.armies[s_id] == state.armies[s_id] - armies
    assert s.armies[d_id] == state.armies[d_id] + armies
    assert sum(s.armies) == sum(state.armies)
    (fortified,) = events_of(step, "fortified")
    assert (fortified["from"], fortified["to"], fortified["armies"]) == (s_id, d_id, armies)
    assert [e["seat"] for e in events_of(step, "turn")] == [1]
    assert s.seat == 1
    with pytest.raises(IllegalActionError, match="not to decide"):
        rules.apply(s, 0, Fortify(d_id, s_id, 1))


FORTIFY_ERRORS = [
    ("adjacent", "Alaska", "Northwest Territory", 5, "one must stay"),
    ("adjacent", "Alaska", "Northwest Territory", 0, "fortify 1-4"),
    ("adjacent", "Northwest Territory", "Alaska", 1, "fortify 1-0"),
    ("adjacent", "Alaska", "Ontario", 2, "not adjacent"),
    ("adjacent", "Alaska", "Quebec", 2, "not adjacent"),
    ("adjacent", "Alaska", "Alberta", 1, "your own"),
    ("adjacent", "Alberta", "Alaska", 1, "your own"),
    ("adjacent", "Alaska", "Alaska", 1, "two different"),
    ("connected", "Alaska", "Siam", 1, "no chain"),
    ("connected", "Siam", "Quebec", 1, "no chain"),
    ("connected", "Alaska", "Quebec", 5, "one must stay"),
    ("connected", "Alaska", "Alberta", 1, "your own"),
]


@pytest.mark.parametrize(
    ("fortify", "src", "dst", "armies", "message"),
    FORTIFY_ERRORS,
    ids=[f"{f[:3]}-{s}-{d}-{a}".replace(" ", "") for f, s, d, a, _ in FORTIFY_ERRORS],
)
def test_illegal_fortify_is_rejected_saying_why(fortify, src, dst, armies, message):
    rules = rules_for(3, fortify=fortify)
    with pytest.raises(IllegalActionError, match=message):
        rules.apply(fortify_position(rules), 0, Fortify(tid(src), tid(dst), armies))


def test_fortify_options_by_mode():
    adjacent = set(RULES.legal_options(fortify_position(), 0).fortifies)
    assert adjacent == {
        (tid("Alaska"), tid("Northwest Territory"), 4),
    }
    rules = rules_for(3, fortify="connected")
    connected = set(rules.legal_options(fortify_position(rules), 0).fortifies)
    assert connected == {
        (tid("Alaska"), tid(n), 4) for n in ("Northwest Territory", "Ontario", "Quebec")
    }


def test_end_turn_skips_the_fortify():
    state = fortify_position()
    step = RULES.apply(state, 0, EndTurn())
    assert step.state.armies == state.armies
    assert events_of(step, "fortified") == []
    assert [e["seat"] for e in events_of(step, "turn")] == [1]


def test_end_attack_goes_to_fortify():
    state = fortify_position()
    state.phase = Phase.ATTACK
    s = RULES.apply(state, 0, EndAttack()).state
    assert (s.phase, s.seat) == (Phase.FORTIFY, 0)
    assert RULES.decision(s).kind == "fortify"


# --------------------------------------------------- 12. one card per turn (§3)


def test_one_card_per_turn_however_many_captures():
    owner = {
        tid("Alaska"): 0,
        tid("China"): 0,
        tid("Kamchatka"): 1,
        tid("Mongolia"): 1,
        tid("Argentina"): 1,
    }
    armies = {tid("Alaska"): 10, tid("China"): 10, tid("Kamchatka"): 1, tid("Mongolia"): 1}
    state = make_state(RULES, owner, default_owner=2, armies=armies, seat=0, hands={0: (INF[3],)})
    deck = state.deck
    captures = 0
    for src, dst in (("Alaska", "Kamchatka"), ("China", "Mongolia")):
        step = RULES.apply(state, 0, Attack(tid(src), tid(dst), 3, until=1))
        assert captured(step)
        captures += 1
        assert events_of(step, "card_drawn") == []
        state = RULES.apply(step.state, 0, Occupy(3)).state
    assert captures == 2
    state = RULES.apply(state, 0, EndAttack()).state
    step = RULES.apply(state, 0, EndTurn())
    drawn = events_of(step, "card_drawn")
    assert [e["seat"] for e in drawn] == [0]
    card = drawn[0]["card"]
    s = step.state
    assert s.hands[0] == (INF[3], card)
    assert card in deck
    assert card not in s.deck
    assert len(s.deck) == len(deck) - 1
    # The card comes before the next player's turn starts.
    types = [e["type"] for e in step.events]
    assert types.index("card_drawn") < types.index("turn")


@pytest.mark.parametrize("attacked", [False, True], ids=["no-attack", "attack-without-capture"])
def test_no_card_without_a_capture(attacked):
    state = battle_position(src_armies=4, dst_armies=30, always_max=(False, True, False))
    if attacked:
        step = RULES.apply(state, 0, Attack(tid("Alaska"), tid("Kamchatka"), 3, until=1))
        assert not captured(step)
        state = step.state
    if state.phase == Phase.ATTACK:
        state = RULES.apply(state, 0, EndAttack()).state
    if state.seat == 0:
        step = RULES.apply(state, 0, EndTurn())
        assert events_of(step, "card_drawn") == []
        state = step.state
    assert state.seat == 1
    assert state.hands[0] == ()


def test_deck_reshuffles_the_discard_when_empty():
    discard = (INF[0], CAV[0], ART[0])
    state = battle_position(phase=Phase.FORTIFY, conquered=True, deck=(), discard=discard)
    step = RULES.apply(state, 0, EndTurn())
    (drawn,) = events_of(step, "card_drawn")
    s = step.state
    assert drawn["card"] in discard
    assert s.hands[0] == (drawn["card"],)
    assert sorted((*s.deck, drawn["card"])) == sorted(discard)
    assert s.discard == ()


def test_no_card_when_deck_and_discard_are_empty():
    state = battle_position(phase=Phase.FORTIFY, conquered=True, deck=(), discard=())
    step = RULES.apply(state, 0, EndTurn())
    assert events_of(step, "card_drawn") == []
    assert step.state.seat == 1


def test_traded_cards_go_to_the_discard_pile():
    state = bonus_position((ALASKA, VENEZUELA, PERU, CAV[0]), ())
    s = RULES.apply(state, 0, Trade((ALASKA, VENEZUELA, PERU))).state
    assert sorted(s.discard) == sorted((ALASKA, VENEZUELA, PERU))
    assert s.hands[0] == (CAV[0],)
    assert s.deck == state.deck


# ---------------------------------------------------- 13. purity and errors


def _purity_cases() -> list[tuple[str, ClassicRules, ClassicState, int, object]]:
    alaska, kamchatka = tid("Alaska"), tid("Kamchatka")
    occupy = first_step(RULES, battle_position(), 0, Attack(alaska, kamchatka, 3), captured).state
    reroll = REROLL_RULES.apply(reroll_position((alaska,)), 0, Attack(alaska, kamchatka, 3)).state
    defend = RULES.apply(battle_position(dst_armies=3), 0, Attack(alaska, kamchatka, 3)).state
    return [
        ("attack-capture", RULES, battle_position(), 0, Attack(alaska, kamchatka, 3, until=1)),
        (
            "attack-until",
            RULES,
            battle_position(dst_armies=30, always_max=(False, True, False)),
            0,
            Attack(alaska, kamchatka, 3, until=2),
        ),
        ("elimination", RULES, takeover_position(4, 4), 0, Attack(alaska, kamchatka, 3, until=1)),
        ("defend", RULES, defend, 1, Defend(2)),
        ("reroll", REROLL_RULES, reroll, 0, Reroll(1)),
        ("occupy", RULES, occupy, 0, Occupy(5)),
        (
            "trade-bonus",
            RULES,
            bonus_position((ALASKA, VENEZUELA, PERU), ("Alaska",)),
            0,
            Trade((ALASKA, VENEZUELA, PERU)),
        ),
        ("fortify", RULES, fortify_position(), 0, Fortify(alaska, tid("Northwest Territory"), 2)),
        (
            "end-turn-draw",
            RULES,
            battle_position(phase=Phase.FORTIFY, conquered=True),
            0,
            EndTurn(),
        ),
        (
            "reinforce",
            RULES,
            start_turn_of_seat0(seat0_owns(POOL[:12])).state,
            0,
            Place.on(POOL[0], 4),
        ),
    ]


PURITY_IDS = [
    "attack-capture",
    "attack-until",
    "elimination",
    "defend",
    "reroll",
    "occupy",
    "trade-bonus",
    "fortify",
    "end-turn-draw",
    "reinforce",
]


@pytest.mark.parametrize("index", range(len(PURITY_IDS)), ids=PURITY_IDS)
def test_apply_never_mutates_its_input(index):
    name, rules, state, seat, action = _purity_cases()[index]
    assert name == PURITY_IDS[index]
    before = snapshot(state)
    step = rules.apply(state, seat, action)
    assert snapshot(state) == before
    assert step.state is not state
    assert step.state.owner is not state.owner
    assert step.state.armies is not state.armies
    assert snapshot(step.state) != before
    # Applying again from the untouched input gives the same result (determinism).
    again = rules.apply(state, seat, action)
    assert snapshot(again.state) == snapshot(step.state)
    assert again.events == step.events


WRONG_PHASE = [
    # (id, phase, seat, action, message)
    ("place-in-attack", Phase.ATTACK, 0, Place.on(0, 1), "expected Attack or EndAttack"),
    ("attack-in-fortify", Phase.FORTIFY, 0, Attack(0, 29, 1), "expected Fortify or EndTurn"),
    ("endturn-in-attack", Phase.ATTACK, 0, EndTurn(), "expected Attack or EndAttack"),
    ("trade-in-reinforce", Phase.REINFORCE, 0, Trade(None), "expected Place"),
    ("attack-in-trade", Phase.TRADE, 0, Attack(0, 29, 1), "expected Trade"),
    ("occupy-in-attack", Phase.ATTACK, 0, Occupy(1), "expected Attack or EndAttack"),
    ("other-seat", Phase.ATTACK, 2, EndAttack(), "not to decide"),
]


@pytest.mark.parametrize(
    ("phase", "seat", "action", "message"),
    [c[1:] for c in WRONG_PHASE],
    ids=[c[0] for c in WRONG_PHASE],
)
def test_actions_out_of_turn_or_phase_raise_illegal_action(phase, seat, action, message):
    state = battle_position(phase=phase, hands={0: (INF[0], INF[1], INF[2])}, to_place=3)
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=message) as info:
        RULES.apply(state, seat, action)
    assert info.value.reason
    assert snapshot(state) == before
