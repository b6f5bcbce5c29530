"""End-of-round battles pinned to the rules with scripted dice: each rank's dice and hit
numbers, the general attack, simultaneous hits, castle re-rolls, casualty choices, the
battle order, simultaneous elimination, taking a city, and Stockholm's raid."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from arena.errors import IllegalActionError
from arena.games.api import Event
from arena.games.europe.actions import (
    Action,
    BattleOrder,
    Casualties,
    Reroll,
    Turn,
    Units,
)
from arena.games.europe.board import ARMY_UNITS
from arena.games.europe.game import EuropeGame
from arena.games.europe.rules import EuropeRules
from arena.games.europe.state import NOBODY, EuropeState
from tests.europe_helpers import empty, my_turn, put, rules, t

ATTACKER, DEFENDER, IDLE = 0, 1, 3
HOMES = ("Ireland", "Greece", "Algeria", "Swabia")
"""One footman in a city for each army, so that nobody is eliminated when the round ends."""
STOCKHOLM_HOMES = ("Sweden", "Greece", "Algeria", "Swabia")
NOTHING: Units = (0, 0, 0, 0)


def play(game: EuropeRules, state: EuropeState, seat: int, action: Action) -> list[Event]:
    """Check, then apply, as the arena does."""
    game.check(state, seat, action)
    return game.apply_unchecked(state, seat, action)


def setup(
    game: EuropeRules,
    dice: Iterable[int],
    attacker: Units,
    defender: Units,
    where: str = "Bohemia",
    castle: bool = False,
    declarations: Sequence[Mapping[str, Any]] = (),
    homes: Sequence[str] = HOMES,
) -> EuropeState:
    """Army 1 defends ``where`` against army 0; every army has a home city."""
    state = empty(game, dice, declarations)
    for army, home in enumerate(homes):
        put(state, home, army, (1, 0, 0, 0))
    put(state, where, DEFENDER, defender)
    put(state, where, ATTACKER, attacker)
    if castle:
        state.castle[t(where)] = True
        state.castles_left -= 1
    return state


def fight(game: EuropeRules, state: EuropeState) -> list[Event]:
    """The round's last turn (army 3 doing nothing): the battles follow."""
    my_turn(state, game, IDLE, card=0, turn=2)
    return play(game, state, IDLE, Turn())


def ranks(events: list[Event]) -> list[tuple[int, list[int], list[int], int, int]]:
    return [
        (e["rank"], e["attacker_dice"], e["defender_dice"], e["attacker_hits"], e["defender_hits"])
        for e in events
        if e["type"] == "rank"
    ]


def rerolls(events: list[Event]) -> list[tuple[int, list[int], list[int]]]:
    return [(e["rank"], e["old"], e["dice"]) for e in events if e["type"] == "reroll"]


def winner(events: list[Event]) -> int:
    (end,) = [e for e in events if e["type"] == "battle_end"]
    return int(end["winner"])


def over(state: EuropeState, dice: Sequence[int]) -> None:
    """The battles are over (the next round's cards are open) and used exactly the dice."""
    assert state.battle is None and not state.disputes and not state.losses
    assert state.phase == "cards"
    assert state.dice == len(dice)


RANK_CASES = [
    pytest.param(
        (0, 0, 0, 1),
        (1, 0, 0, 0),
        [3, 2],
        [(1, [3, 2], [], 1, 0)],
        (0, 0, 0, 1),
        NOTHING,
        ATTACKER,
        id="siege-2-dice-each-3-hits",
    ),
    pytest.param(
        (0, 0, 0, 1),
        (1, 0, 0, 0),
        [2, 2, 4, 4],
        [(1, [2, 2], [], 0, 0), (4, [4], [4], 0, 1)],
        NOTHING,
        (1, 0, 0, 0),
        DEFENDER,
        id="siege-2-misses-then-general-attack",
    ),
    pytest.param(
        (0, 2, 0, 0),
        (2, 0, 0, 0),
        [5, 4, 6, 1, 3],
        [(2, [5, 4], [], 1, 0), (4, [6, 1], [3], 1, 0)],
        (0, 2, 0, 0),
        NOTHING,
        ATTACKER,
        id="archers-1-die-each-5-hits-4-misses",
    ),
    pytest.param(
        (0, 0, 2, 0),
        (0, 0, 1, 0),
        [3, 2, 3],
        [(3, [3, 2], [3], 1, 1)],
        (0, 0, 1, 0),
        NOTHING,
        ATTACKER,
        id="cavalry-1-die-each-3-hits-2-misses-both-sides-hit",
    ),
    pytest.param(
        (3, 0, 0, 0),
        (2, 0, 0, 0),
        [6, 1, 1, 5, 5, 2, 2, 3, 6, 1],
        [(4, [6, 1, 1], [5, 5], 1, 1), (4, [2, 2], [3], 0, 1), (4, [6], [1], 1, 0)],
        (1, 0, 0, 0),
        NOTHING,
        ATTACKER,
        id="footmen-only-general-attack-3-2-1-dice-against-2-1",
    ),
    pytest.param(
        (5, 0, 0, 0),
        (4, 0, 0, 0),
        [6, 6, 6, 1, 1, 6, 6, 6, 1, 1],
        [(4, [6, 6, 6], [1, 1], 2, 0), (4, [6, 6, 6], [1, 1], 2, 0)],
        (5, 0, 0, 0),
        NOTHING,
        ATTACKER,
        id="general-attack-at-most-3-and-2-dice-at-most-2-hits",
    ),
    pytest.param(
        (2, 0, 0, 0),
        (2, 0, 0, 0),
        [5, 2, 4, 3, 1, 1],
        [(4, [5, 2], [4, 3], 1, 1), (4, [1], [1], 0, 1)],
        NOTHING,
        (1, 0, 0, 0),
        DEFENDER,
        id="two-against-two-both-comparisons",
    ),
    pytest.param(
        (3, 0, 0, 0),
        (2, 0, 0, 0),
        [4, 4, 1, 4, 4, 6, 5, 1, 1, 1],
        [(4, [4, 4, 1], [4, 4], 0, 2), (4, [6], [5, 1], 1, 0), (4, [1], [1], 0, 1)],
        NOTHING,
        (1, 0, 0, 0),
        DEFENDER,
        id="ties-to-the-defender-one-comparison-with-one-attack-die",
    ),
    pytest.param(
        (3, 0, 0, 0),
        (1, 0, 0, 0),
        [2, 1, 1, 3, 6, 6, 6, 6, 5],
        [(4, [2, 1, 1], [3], 0, 1), (4, [6, 6], [6], 0, 1), (4, [6], [5], 1, 0)],
        (1, 0, 0, 0),
        NOTHING,
        ATTACKER,
        id="one-defence-die-one-comparison",
    ),
    pytest.param(
        (3, 0, 0, 0),
        (2, 0, 0, 0),
        [1, 6, 2, 5, 3, 6, 6, 1],
        [(4, [1, 6, 2], [5, 3], 1, 1), (4, [6, 6], [1], 1, 0)],
        (2, 0, 0, 0),
        NOTHING,
        ATTACKER,
        id="highest-against-highest-then-second-against-second",
    ),
    pytest.param(
        (1, 1, 1, 1),
        (2, 1, 0, 0),
        [3, 3, 1, 5, 2, 1, 1, 1, 2, 1, 2, 6, 6, 1],
        [
            (1, [3, 3], [], 2, 0),
            (2, [1], [5], 0, 1),
            (3, [2], [], 0, 0),
            (4, [1, 1, 1], [2], 0, 1),
            (1, [1, 2], [], 0, 0),
            (2, [], [6], 0, 1),
            (4, [6], [1], 1, 0),
        ],
        (0, 0, 0, 1),
        NOTHING,
        ATTACKER,
        id="ranked-order-repeated-ranks-without-units-skipped-cheapest-casualties",
    ),
    pytest.param(
        (0, 0, 0, 2),
        (1, 1, 1, 2),
        [6, 6, 6, 6, 1, 1, 1, 1, 6, 6, 1],
        [(1, [6, 6, 6, 6], [1, 1, 1, 1], 4, 0), (4, [6, 6], [1], 1, 0)],
        (0, 0, 0, 2),
        NOTHING,
        ATTACKER,
        id="cheapest-removes-footman-archer-cavalry-then-siege",
    ),
    pytest.param(
        (1, 0, 0, 0),
        (0, 3, 0, 0),
        [5, 6, 6],
        [(2, [], [5, 6, 6], 0, 3)],
        NOTHING,
        (0, 3, 0, 0),
        DEFENDER,
        id="hits-beyond-the-units-are-lost",
    ),
]


@pytest.mark.parametrize(
    ("attacker", "defender", "dice", "expected", "attacker_left", "defender_left", "won"),
    RANK_CASES,
)
def test_ranked_attack_order(
    attacker: Units,
    defender: Units,
    dice: list[int],
    expected: list[tuple[int, list[int], list[int], int, int]],
    attacker_left: Units,
    defender_left: Units,
    won: int,
) -> None:
    game = rules()
    state = setup(game, dice, attacker, defender)
    events = fight(game, state)
    assert ranks(events) == expected
    assert winner(events) == won
    where = t("Bohemia")
    assert state.of(where, ATTACKER) == attacker_left
    assert state.of(where, DEFENDER) == defender_left
    assert state.owner[where] == won
    assert state.attacker[where] == NOBODY
    for army in (ATTACKER, DEFENDER):  # lost units are back in the army reserve
        on_board = [sum(state.units[(x * 4 + army) * 4 + k] for x in range(49)) for k in range(4)]
        reserve = state.reserve[army * 4 : army * 4 + 4]
        assert [a + b for a, b in zip(on_board, reserve, strict=True)] == list(ARMY_UNITS)
    assert state.of(where, won) == (attacker_left if won == ATTACKER else defender_left)
    over(state, dice)


def test_lost_units_return_to_the_reserve() -> None:
    game = rules()
    dice = [5, 6, 6]
    state = setup(game, dice, (1, 0, 0, 0), (0, 3, 0, 0))
    fight(game, state)
    assert state.reserve[ATTACKER * 4 : ATTACKER * 4 + 4] == [34, 12, 12, 4]
    assert state.reserve[DEFENDER * 4 : DEFENDER * 4 + 4] == [34, 9, 12, 4]


# ----------------------------------------------------------------- castle re-roll

REROLL_CASES = [
    pytest.param(
        "auto",
        (1, 0, 0, 0),
        (1, 0, 0, 0),
        [6, 1, 6],
        [(4, [6], [6], 0, 1)],
        [(4, [1], [6])],
        DEFENDER,
        id="auto-rank-4-counts-rerolled-into-a-tie",
    ),
    pytest.param(
        "auto",
        (0, 1, 1, 0),
        (0, 1, 1, 0),
        [5, 1, 2, 3, 1],
        [(2, [5], [2], 1, 0), (3, [3], [1], 1, 0)],
        [(2, [1], [2])],
        ATTACKER,
        id="auto-once-per-repetition",
    ),
    pytest.param(
        "auto",
        (3, 0, 0, 0),
        (2, 0, 0, 0),
        [6, 1, 1, 5, 5, 6, 6, 2, 6, 6, 1, 1],
        [(4, [6, 1, 1], [5, 5], 1, 1), (4, [6, 6], [6], 0, 1), (4, [6], [1], 1, 0)],
        [(4, [2], [6]), (4, [1], [1])],
        ATTACKER,
        id="auto-not-on-equal-hits-again-each-repetition",
    ),
    pytest.param(
        "auto",
        (0, 0, 1, 0),
        (1, 0, 0, 0),
        [3],
        [(3, [3], [], 1, 0)],
        [],
        ATTACKER,
        id="auto-nothing-to-reroll-when-the-defender-rolled-no-dice",
    ),
    pytest.param(
        "never",
        (1, 0, 0, 0),
        (1, 0, 0, 0),
        [6, 1],
        [(4, [6], [1], 1, 0)],
        [],
        ATTACKER,
        id="never",
    ),
]


@pytest.mark.parametrize(
    ("policy", "attacker", "defender", "dice", "expected", "rerolled", "won"), REROLL_CASES
)
def test_castle_reroll_policies(
    policy: str,
    attacker: Units,
    defender: Units,
    dice: list[int],
    expected: list[tuple[int, list[int], list[int], int, int]],
    rerolled: list[tuple[int, list[int], list[int]]],
    won: int,
) -> None:
    game = rules()
    declarations = [{}, {"castle_reroll": policy}]
    state = setup(game, dice, attacker, defender, castle=True, declarations=declarations)
    events = fight(game, state)
    assert rerolls(events) == rerolled
    assert ranks(events) == expected
    assert winner(events) == won
    assert state.castle[t("Bohemia")]
    over(state, dice)


def test_no_reroll_without_a_castle() -> None:
    game = rules()
    dice = [6, 1]
    state = setup(game, dice, (1, 0, 0, 0), (1, 0, 0, 0))
    events = fight(game, state)
    assert rerolls(events) == []
    assert winner(events) == ATTACKER
    over(state, dice)


def test_castle_reroll_ask_decision() -> None:
    """``ask``: the defender decides after seeing the dice; only the rank just rolled (or 0)."""
    game = rules()
    dice = [6, 1, 6]
    state = setup(
        game,
        dice,
        (1, 0, 0, 0),
        (1, 0, 0, 0),
        castle=True,
        declarations=[{}, {"castle_reroll": "ask"}],
    )
    fight(game, state)
    decision = game.decision(state)
    assert decision is not None and decision.kind == "reroll" and decision.seats == (DEFENDER,)
    options = EuropeGame(game.config).legal_options(state, DEFENDER)
    assert options.constraints["rank"] == 4
    assert options.constraints["attacker_dice"] == [6]
    assert options.constraints["defender_dice"] == [1]
    assert list(options.listed) == [Reroll(0), Reroll(4)]
    for bad in (Reroll(1), Reroll(3), Reroll(5)):
        with pytest.raises(IllegalActionError, match=r"re-roll rank 4 .*or 0"):
            game.check(state, DEFENDER, bad)
    with pytest.raises(IllegalActionError, match="seat 0 is not to decide now"):
        game.check(state, ATTACKER, Reroll(4))
    events = play(game, state, DEFENDER, Reroll(4))
    assert rerolls(events) == [(4, [1], [6])]
    assert ranks(events) == [(4, [6], [6], 0, 1)]
    assert winner(events) == DEFENDER
    assert state.of(t("Bohemia"), DEFENDER) == (1, 0, 0, 0)
    over(state, dice)


def test_castle_reroll_declined_stays_open_for_a_later_rank() -> None:
    game = rules()
    dice = [5, 1, 3, 1, 4]
    state = setup(
        game,
        dice,
        (0, 1, 1, 0),
        (0, 1, 1, 0),
        castle=True,
        declarations=[{}, {"castle_reroll": "ask"}],
    )
    fight(game, state)
    assert state.battle is not None and state.battle.rank == 2
    events = play(game, state, DEFENDER, Reroll(0))
    assert rerolls(events) == []
    assert ranks(events) == [(2, [5], [1], 1, 0)]
    decision = game.decision(state)
    assert decision is not None and decision.kind == "reroll"
    assert state.battle is not None and state.battle.rank == 3
    assert state.of(t("Bohemia"), DEFENDER) == (0, 0, 1, 0)
    events = play(game, state, DEFENDER, Reroll(3))
    assert rerolls(events) == [(3, [1], [4])]
    assert ranks(events) == [(3, [3], [4], 1, 1)]
    assert winner(events) == ATTACKER
    assert state.of(t("Bohemia"), ATTACKER) == (0, 0, 1, 0)  # the archer goes first
    over(state, dice)


def test_castle_reroll_spent_is_not_offered_again_in_the_repetition() -> None:
    """Re-rolled at rank 2: rank 4 of the same repetition asks nothing; the next one asks."""
    game = rules()
    dice = [1, 1, 6, 6, 6, 1, 5, 5]
    state = setup(
        game,
        dice,
        (3, 0, 0, 0),
        (2, 1, 0, 0),
        castle=True,
        declarations=[{}, {"castle_reroll": "ask"}],
    )
    fight(game, state)
    assert state.battle is not None and state.battle.rank == 2
    events = play(game, state, DEFENDER, Reroll(2))
    # rank 2: 1 → re-rolled 1 (no hit); rank 4: [6, 6, 6] against [1, 5]: 2 hits, no question
    assert rerolls(events) == [(2, [1], [1])]
    assert ranks(events) == [(2, [], [1], 0, 0), (4, [6, 6, 6], [1, 5], 2, 0)]
    assert state.of(t("Bohemia"), DEFENDER) == (0, 1, 0, 0)
    decision = game.decision(state)  # the next repetition's rank 2 asks again
    assert decision is not None and decision.kind == "reroll"
    assert state.battle is not None and (state.battle.repetition, state.battle.rank) == (2, 2)
    assert state.battle.defender_dice == (5,)


# -------------------------------------------------------------------- casualties


def test_casualties_ask_gives_the_owner_a_decision() -> None:
    game = rules()
    dice = [1, 5, 5, 6, 1, 1, 1, 6, 1]
    state = setup(game, dice, (2, 1, 0, 0), (0, 2, 0, 0), declarations=[{"casualties": "ask"}, {}])
    fight(game, state)
    decision = game.decision(state)
    assert decision is not None and decision.kind == "casualties"
    assert decision.seats == (ATTACKER,)
    options = EuropeGame(game.config).legal_options(state, ATTACKER)
    assert options.constraints == {
        "territory": t("Bohemia"),
        "count": 2,
        "units": [2, 1, 0, 0],
        "army": ATTACKER,
    }
    assert Casualties((2, 0, 0, 0)) in options.listed
    for bad, reason in (
        ((0, 0, 0, 0), "remove exactly 2 units"),
        ((3, 0, 0, 0), "remove exactly 2 units"),
        ((0, 2, 0, 0), "only 1 archer to remove"),
        ((1, 0, 1, 0), "only 0 cavalry to remove"),
        ((3, -1, 0, 0), "remove exactly 2 units"),
    ):
        with pytest.raises(IllegalActionError, match=reason):
            game.check(state, ATTACKER, Casualties(bad))
    events = play(game, state, ATTACKER, Casualties((1, 1, 0, 0)))
    assert state.of(t("Bohemia"), ATTACKER) == (1, 0, 0, 0)
    assert ranks(events) == [(4, [6], [1, 1], 1, 0), (2, [], [1], 0, 0), (4, [6], [1], 1, 0)]
    assert winner(events) == ATTACKER
    assert state.of(t("Bohemia"), ATTACKER) == (1, 0, 0, 0)
    assert state.reserve[ATTACKER * 4 : ATTACKER * 4 + 2] == [33, 12]
    over(state, dice)


def test_casualties_ask_attacker_first_then_defender() -> None:
    game = rules()
    dice = [3, 3, 3, 3, 6, 1]
    ask = {"casualties": "ask"}
    state = setup(game, dice, (1, 0, 2, 0), (1, 0, 2, 0), declarations=[ask, ask])
    events = fight(game, state)
    assert ranks(events) == [(3, [3, 3], [3, 3], 2, 2)]
    decision = game.decision(state)
    assert decision is not None and (decision.kind, decision.seats) == ("casualties", (0,))
    play(game, state, ATTACKER, Casualties((0, 0, 2, 0)))
    assert state.of(t("Bohemia"), ATTACKER) == (1, 0, 0, 0)
    assert state.of(t("Bohemia"), DEFENDER) == (1, 0, 2, 0)
    decision = game.decision(state)
    assert decision is not None and (decision.kind, decision.seats) == ("casualties", (1,))
    options = EuropeGame(game.config).legal_options(state, DEFENDER)
    assert options.constraints["count"] == 2
    events = play(game, state, DEFENDER, Casualties((1, 0, 1, 0)))
    assert [e["units"] for e in events if e["type"] == "casualties"] == [
        [1, 0, 1, 0],
        [0, 0, 1, 0],
    ]
    assert ranks(events) == [(4, [6], [1], 1, 0)]
    assert winner(events) == ATTACKER
    assert state.of(t("Bohemia"), ATTACKER) == (1, 0, 0, 0)
    over(state, dice)


def test_casualties_ask_not_asked_when_every_unit_is_lost() -> None:
    game = rules()
    dice = [5, 6, 6]
    state = setup(game, dice, (1, 0, 0, 0), (0, 3, 0, 0), declarations=[{"casualties": "ask"}, {}])
    events = fight(game, state)
    assert winner(events) == DEFENDER
    over(state, dice)


# ------------------------------------------------------- elimination and the winner


def test_simultaneous_elimination_leaves_the_territory_unclaimed() -> None:
    game = rules()
    dice = [5, 6]
    state = setup(
        game,
        dice,
        (0, 1, 0, 0),
        (0, 1, 0, 0),
        where="Rome",
        castle=True,
        declarations=[{}, {"castle_reroll": "never"}],
    )
    assert game.crowns(state, DEFENDER) == 3
    events = fight(game, state)
    assert ranks(events) == [(2, [5], [6], 1, 1)]
    assert winner(events) == NOBODY
    rome = t("Rome")
    assert state.owner[rome] == NOBODY and state.attacker[rome] == NOBODY
    assert state.of(rome, ATTACKER) == NOTHING and state.of(rome, DEFENDER) == NOTHING
    assert state.castle[rome] and state.castles_left == 7
    assert game.crowns(state, DEFENDER) == 1
    assert game.crowns(state, ATTACKER) == 1
    over(state, dice)


def test_the_winner_takes_city_and_castle_without_tax() -> None:
    game = rules()
    dice = [6, 1, 1, 2]  # auto re-roll of the defender's 1 (a 2): still beaten
    state = setup(game, dice, (2, 0, 0, 0), (1, 0, 0, 0), where="Rome", castle=True)
    assert (game.crowns(state, ATTACKER), game.crowns(state, DEFENDER)) == (1, 3)
    events = fight(game, state)
    assert rerolls(events) == [(4, [1], [2])]
    assert ranks(events) == [(4, [6, 1], [2], 1, 0)]
    assert winner(events) == ATTACKER
    rome = t("Rome")
    assert state.owner[rome] == ATTACKER and state.castle[rome]
    assert state.of(rome, ATTACKER) == (2, 0, 0, 0)
    assert (game.crowns(state, ATTACKER), game.crowns(state, DEFENDER)) == (3, 1)
    assert state.coins[ATTACKER] == 5 and state.coins[DEFENDER] == 5
    over(state, dice)


def test_the_defender_keeps_its_city() -> None:
    game = rules()
    dice = [1, 6]
    state = setup(game, dice, (1, 0, 0, 0), (1, 0, 0, 0), where="Rome")
    events = fight(game, state)
    assert winner(events) == DEFENDER
    assert state.owner[t("Rome")] == DEFENDER
    assert (game.crowns(state, ATTACKER), game.crowns(state, DEFENDER)) == (1, 3)
    over(state, dice)


# ----------------------------------------------------------------- battle order


def two_battles(
    game: EuropeRules,
    dice: list[int],
    marker_asks: bool,
    marker: int = 0,
    homes: Sequence[str] = HOMES,
) -> EuropeState:
    """Army 0 attacks army 1 in Franconia and in Bohemia; seat 1 would like to be asked."""
    declarations = [{"battle_order": "ask"} if marker_asks else {}, {"battle_order": "ask"}]
    state = setup(game, dice, (1, 0, 0, 0), (1, 0, 0, 0), declarations=declarations, homes=homes)
    put(state, "Franconia", DEFENDER, (1, 0, 0, 0))
    put(state, "Franconia", ATTACKER, (1, 0, 0, 0))
    state.marker = marker
    return state


def battle_territories(events: list[Event]) -> list[int]:
    return [e["territory"] for e in events if e["type"] == "battle"]


@pytest.mark.parametrize(
    ("marker_asks", "marker"),
    [
        pytest.param(False, 0, id="listed-by-default"),
        pytest.param(True, 2, id="ask-of-a-seat-without-the-marker"),
    ],
)
def test_battle_order_ascending(marker_asks: bool, marker: int) -> None:
    game = rules()
    dice = [6, 1, 1, 6]
    state = two_battles(game, dice, marker_asks, marker)
    events = fight(game, state)
    assert battle_territories(events) == [t("Franconia"), t("Bohemia")]
    assert state.owner[t("Franconia")] == ATTACKER and state.owner[t("Bohemia")] == DEFENDER
    over(state, dice)


def test_battle_order_ask_gives_the_marker_holder_a_decision() -> None:
    game = rules()
    dice = [6, 1, 1, 6]
    state = two_battles(game, dice, marker_asks=True)
    fight(game, state)
    decision = game.decision(state)
    assert decision is not None and (decision.kind, decision.seats) == ("battle_order", (0,))
    bohemia, franconia = t("Bohemia"), t("Franconia")
    options = EuropeGame(game.config).legal_options(state, 0)
    assert options.constraints == {"territories": [franconia, bohemia], "army": 0}
    for bad in ((bohemia,), (bohemia, bohemia), (bohemia, franconia, t("Rome"))):
        with pytest.raises(IllegalActionError, match="order every disputed territory once"):
            game.check(state, 0, BattleOrder(bad))
    with pytest.raises(IllegalActionError, match="not to decide now"):
        game.check(state, 1, BattleOrder((bohemia, franconia)))
    events = play(game, state, 0, BattleOrder((bohemia, franconia)))
    assert battle_territories(events) == [bohemia, franconia]
    assert state.owner[bohemia] == ATTACKER and state.owner[franconia] == DEFENDER
    over(state, dice)


def test_battle_order_ask_with_one_battle_asks_nothing() -> None:
    game = rules()
    dice = [6, 1]
    state = setup(game, dice, (1, 0, 0, 0), (1, 0, 0, 0), declarations=[{"battle_order": "ask"}])
    events = fight(game, state)
    assert winner(events) == ATTACKER
    over(state, dice)


# ---------------------------------------------------------------------- Stockholm


@pytest.mark.parametrize(
    ("homes", "dice", "coins"),
    [
        pytest.param(STOCKHOLM_HOMES, [6, 1], [9, 5], id="holder-wins-as-attacker-plus-4"),
        pytest.param(STOCKHOLM_HOMES, [1, 6], [5, 5], id="holder-loses-nothing"),
        pytest.param(HOMES, [6, 1], [5, 5], id="no-tile-nothing"),
        pytest.param(
            ("Ireland", "Sweden", "Algeria", "Swabia"),
            [1, 6],
            [5, 5],
            id="holder-wins-as-defender-nothing",
        ),
    ],
)
def test_stockholm_raid(homes: Sequence[str], dice: list[int], coins: list[int]) -> None:
    game = rules()
    state = setup(game, dice, (1, 0, 0, 0), (1, 0, 0, 0), homes=homes)
    fight(game, state)
    assert state.coins[:2] == coins
    over(state, dice)


def test_stockholm_raid_per_battle_won() -> None:
    game = rules()
    dice = [6, 1, 6, 1]
    state = two_battles(game, dice, marker_asks=False, homes=STOCKHOLM_HOMES)
    events = fight(game, state)
    assert [e["raid"] for e in events if e["type"] == "battle_end"] == [4, 4]
    assert state.coins[ATTACKER] == 13
    over(state, dice)


def test_stockholm_raid_not_for_a_siege_assault() -> None:
    game = rules()
    dice = [3, 4]
    state = empty(game, dice)
    for army, home in enumerate(STOCKHOLM_HOMES):
        put(state, home, army, (1, 0, 0, 0))
    put(state, "Denmark", ATTACKER, (1, 0, 0, 1))
    put(state, "Pomerania", DEFENDER, (2, 0, 0, 0))
    my_turn(state, game, ATTACKER, card=5, turn=2)
    turn = Turn(bonus="siege_assault", bonus_source=t("Denmark"), bonus_target=t("Pomerania"))
    events = play(game, state, ATTACKER, turn)
    assert [e["hits"] for e in events if e["type"] == "siege_assault"] == [2]
    assert state.owner[t("Pomerania")] == NOBODY
    assert state.of(t("Pomerania"), DEFENDER) == NOTHING
    assert state.coins[ATTACKER] == 5
    over(state, dice)


def test_castle_reroll_ask_not_asked_for_a_rank_the_defender_did_not_roll() -> None:
    game = rules()
    dice = [3, 2, 1, 2]
    state = setup(
        game,
        dice,
        (0, 0, 1, 0),
        (2, 0, 0, 0),
        castle=True,
        declarations=[{}, {"castle_reroll": "ask"}],
    )
    events = fight(game, state)
    assert ranks(events) == [(3, [3], [], 1, 0)]
    assert state.battle is not None and state.battle.rank == 4
    decision = game.decision(state)
    assert decision is not None and (decision.kind, decision.seats) == ("reroll", (DEFENDER,))
    events = play(game, state, DEFENDER, Reroll(4))
    assert rerolls(events) == [(4, [1], [2])]
    assert ranks(events) == [(4, [2], [2], 0, 1)]
    assert winner(events) == DEFENDER
    assert state.of(t("Bohemia"), DEFENDER) == (1, 0, 0, 0)
    over(state, dice)


def test_casualties_chosen_in_one_rank_do_not_roll_in_the_next() -> None:
    """The defender gives up its archer to the siege weapon: rank 2 is then skipped."""
    game = rules()
    dice = [3, 1, 6, 1]
    state = setup(game, dice, (0, 0, 0, 1), (1, 1, 0, 0), declarations=[{}, {"casualties": "ask"}])
    fight(game, state)
    decision = game.decision(state)
    assert decision is not None and (decision.kind, decision.seats) == ("casualties", (1,))
    events = play(game, state, DEFENDER, Casualties((0, 1, 0, 0)))
    assert ranks(events) == [(4, [6], [1], 1, 0)]
    assert winner(events) == ATTACKER
    assert state.reserve[DEFENDER * 4 : DEFENDER * 4 + 4] == [34, 12, 12, 4]
    over(state, dice)


def test_battle_order_ask_of_another_marker_holder() -> None:
    game = rules()
    dice = [6, 1, 1, 6]
    state = two_battles(game, dice, marker_asks=False, marker=1)
    fight(game, state)
    decision = game.decision(state)
    assert decision is not None and (decision.kind, decision.seats) == ("battle_order", (1,))
    events = play(game, state, 1, BattleOrder((t("Bohemia"), t("Franconia"))))
    assert battle_territories(events) == [t("Bohemia"), t("Franconia")]
    over(state, dice)


def test_the_tile_goes_with_a_city_taken_in_battle() -> None:
    """Saxony (Berlin) taken in battle: its holder's castles cost 9 from then on."""
    game = rules()
    dice = [6, 1]
    state = setup(
        game,
        dice,
        (1, 0, 0, 0),
        (1, 0, 0, 0),
        where="Saxony",
        castle=True,
        declarations=[{}, {"castle_reroll": "never"}],
        homes=("England", "Greece", "Algeria", "Swabia"),
    )
    fight(game, state)
    assert state.owner[t("Saxony")] == ATTACKER and state.castle[t("Saxony")]
    my_turn(state, game, ATTACKER, card=0)
    constraints = EuropeGame(game.config).legal_options(state, ATTACKER).constraints
    assert constraints["berlin"] and constraints["castle_cost"] == 9
    assert (game.crowns(state, ATTACKER), game.crowns(state, DEFENDER)) == (2, 1)
