"""RISK: Europe orders and bonus actions pinned to the rules: Expand, Split Expand,
Manoeuvre, the card's orders and fields, Fortify, Siege Assault, King Me and Berlin's free
manoeuvre. Each case builds a position by hand, plays one turn and compares the whole
position afterwards with the one the rules give (or the reason an answer is refused)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from arena.errors import IllegalActionError
from arena.games.europe.actions import Cards, Casualties, Move, Turn, Units
from arena.games.europe.config import ARMIES
from arena.games.europe.game import EuropeGame
from arena.games.europe.rules import EuropeRules
from arena.games.europe.state import NOBODY, EuropeState
from tests.europe_helpers import empty, my_turn, put, rules, t

Placement = tuple[str, int, Units]
"""(territory, army, units): the first army put on a territory owns it, a second attacks."""

TAX_SPEND, KING_ME = 0, 2
EXPAND_FORTIFY, EXPAND_SIEGE, SPLIT = 3, 5, 6
WAITING = 3
"""An army whose card waits after the mover's, so that the round does not end mid-test."""


def game_of(game: EuropeRules) -> EuropeGame:
    return EuropeGame(game.config)


def position(
    game: EuropeRules,
    placements: Sequence[Placement],
    castles: Sequence[str] = (),
    dice: Sequence[int] = (),
    coins: dict[int, int] | None = None,
) -> EuropeState:
    state = empty(game, dice=dice)
    for where, army, units in placements:
        put(state, where, army, units)
    for where in castles:
        state.castle[t(where)] = True
        state.castles_left -= 1
    for army, n in (coins or {}).items():
        state.coins[army] = n
    return state


def staged(
    game: EuropeRules,
    placements: Sequence[Placement],
    card: int,
    castles: Sequence[str] = (),
    dice: Sequence[int] = (),
) -> EuropeState:
    """Army 0's turn with ``card``; army 3 waits with a Tax card after it."""
    state = position(game, placements, castles, dice)
    my_turn(state, game, 0, card)
    state.first[WAITING] = TAX_SPEND
    state.hand[WAITING] &= ~1
    state.queue = [0, WAITING]
    return state


def snapshot(state: EuropeState) -> dict[str, Any]:
    return {
        "owner": list(state.owner),
        "attacker": list(state.attacker),
        "units": {
            (tt, a): state.of(tt, a)
            for tt in range(len(state.owner))
            for a in range(ARMIES)
            if state.count(tt, a)
        },
        "castle": [i for i, c in enumerate(state.castle) if c],
        "reserve": list(state.reserve),
        "coins": list(state.coins),
        "disputes": sorted(state.disputes),
    }


def played(game: EuropeRules, state: EuropeState, turn: Turn) -> EuropeState:
    game.check(state, 0, turn)
    after = state.copy()
    game.apply_unchecked(after, 0, turn)
    assert after.queue == [WAITING] and after.revealed == WAITING
    return after


def m(source: str, target: str, units: Units, via: str | None = None) -> Move:
    return Move(t(source), t(target), units, -1 if via is None else t(via))


# --------------------------------------------------------------------------- Expand

EXPAND_START: list[Placement] = [("Lorraine", 0, (5, 0, 0, 1))]
EXPAND_LEGAL = [
    pytest.param(
        [],
        [],
        m("Lorraine", "Burgundy", (2, 0, 0, 0)),
        [("Lorraine", 0, (3, 0, 0, 1)), ("Burgundy", 0, (2, 0, 0, 0))],
        0,
        id="unclaimed-claimed",
    ),
    pytest.param(
        [],
        [],
        m("Lorraine", "France", (4, 0, 0, 1)),
        [("Lorraine", 0, (1, 0, 0, 0)), ("France", 0, (4, 0, 0, 1))],
        3,
        id="unclaimed-city-pays-its-tax",
    ),
    pytest.param(
        [],
        [],
        m("Lorraine", "England", (1, 0, 0, 0)),
        [("Lorraine", 0, (4, 0, 0, 1)), ("England", 0, (1, 0, 0, 0))],
        3,
        id="across-a-sea-line",
    ),
    pytest.param(
        [("Franconia", 1, (2, 0, 0, 0))],
        [],
        m("Lorraine", "Franconia", (3, 0, 0, 0)),
        [
            ("Lorraine", 0, (2, 0, 0, 1)),
            ("Franconia", 1, (2, 0, 0, 0)),
            ("Franconia", 0, (3, 0, 0, 0)),
        ],
        0,
        id="opponent-disputed-mover-attacks",
    ),
    pytest.param(
        [("Saxony", 1, (2, 0, 0, 0))],
        ["Saxony"],
        m("Lorraine", "Saxony", (1, 0, 0, 1)),
        [("Lorraine", 0, (4, 0, 0, 0)), ("Saxony", 1, (2, 0, 0, 0)), ("Saxony", 0, (1, 0, 0, 1))],
        0,
        id="opponent-castle-with-siege-weapon",
    ),
    pytest.param(
        [],
        ["Swabia"],
        m("Lorraine", "Swabia", (1, 0, 0, 0)),
        [("Lorraine", 0, (4, 0, 0, 1)), ("Swabia", 0, (1, 0, 0, 0))],
        2,
        id="unclaimed-castle-any-unit",
    ),
]


@pytest.mark.parametrize(("extra", "castles", "move", "after", "tax"), EXPAND_LEGAL)
def test_expand(
    extra: list[Placement], castles: list[str], move: Move, after: list[Placement], tax: int
) -> None:
    game = rules()
    state = staged(game, EXPAND_START + extra, EXPAND_FORTIFY, castles)
    result = played(game, state, Turn("expand", (move,)))
    expected = position(game, after, castles, coins={0: 5 + tax})
    assert snapshot(result) == snapshot(expected)


EXPAND_ILLEGAL = [
    pytest.param(
        [],
        [],
        Turn("expand", (m("Lorraine", "Burgundy", (5, 0, 0, 1)),)),
        "leave at least 1 unit",
        id="leave-one",
    ),
    pytest.param(
        [("Burgundy", 0, (1, 0, 0, 0))],
        [],
        Turn("expand", (m("Lorraine", "Burgundy", (1, 0, 0, 0)),)),
        "already yours",
        id="own",
    ),
    pytest.param(
        [("Franconia", 1, (1, 0, 0, 0)), ("Franconia", 2, (1, 0, 0, 0))],
        [],
        Turn("expand", (m("Lorraine", "Franconia", (1, 0, 0, 0)),)),
        "already disputed",
        id="disputed",
    ),
    pytest.param(
        [("Franconia", 1, (1, 0, 0, 0)), ("Franconia", 0, (1, 0, 0, 0))],
        [],
        Turn("expand", (m("Lorraine", "Franconia", (1, 0, 0, 0)),)),
        "already disputed",
        id="disputed-by-self",
    ),
    pytest.param(
        [],
        [],
        Turn("expand", (m("Lorraine", "Lombardy", (1, 0, 0, 0)),)),
        "not next to",
        id="not-adjacent",
    ),
    pytest.param(
        [("Saxony", 1, (1, 0, 0, 0))],
        ["Saxony"],
        Turn("expand", (m("Lorraine", "Saxony", (4, 0, 0, 0)),)),
        "castle: the expanding units need a siege weapon",
        id="opponent-castle-without-siege",
    ),
    pytest.param(
        [],
        [],
        Turn("expand", (m("Lorraine", "Burgundy", (6, 0, 0, 0)),)),
        "holds 5 footman, 6 cannot move",
        id="more-than-held",
    ),
    pytest.param(
        [],
        [],
        Turn("expand", (m("Lorraine", "Burgundy", (0, 0, 0, 0)),)),
        "moves no units",
        id="no-units",
    ),
    pytest.param(
        [],
        [],
        Turn("expand", (m("Lorraine", "Burgundy", (1, 0, 0, 0), via="France"),)),
        "no via",
        id="via",
    ),
    pytest.param(
        [],
        [],
        Turn(
            "expand",
            (m("Lorraine", "Burgundy", (1, 0, 0, 0)), m("Lorraine", "Swabia", (1, 0, 0, 0))),
        ),
        "expand takes one move, got 2",
        id="two-moves",
    ),
    pytest.param([], [], Turn("expand", ()), "expand takes one move, got 0", id="no-move"),
    pytest.param(
        [("Burgundy", 1, (3, 0, 0, 0))],
        [],
        Turn("expand", (m("Burgundy", "Lombardy", (1, 0, 0, 0)),)),
        "Burgundy is not yours",
        id="not-own-source",
    ),
    pytest.param(
        [("Burgundy", 1, (3, 0, 0, 0)), ("Burgundy", 0, (3, 0, 0, 0))],
        [],
        Turn("expand", (m("Burgundy", "Lombardy", (1, 0, 0, 0)),)),
        "only the defender may expand out of disputed Burgundy",
        id="attacker-out-of-dispute",
    ),
    pytest.param(
        [],
        [],
        Turn("tax", tax_city=t("Lorraine")),
        "card 3 offers expand or manoeuvre",
        id="order-not-on-card",
    ),
    pytest.param(
        [], [], Turn("spend"), "card 3 offers expand or manoeuvre", id="spend-not-on-card"
    ),
    pytest.param(
        [],
        [],
        Turn("expand", (m("Lorraine", "Burgundy", (1, 0, 0, 0)),), castles=(t("Lorraine"),)),
        "recruits, castles and crown go with spend",
        id="castles-field",
    ),
    pytest.param(
        [],
        [],
        Turn("expand", (m("Lorraine", "Burgundy", (1, 0, 0, 0)),), tax_city=t("France")),
        "tax_city goes with tax",
        id="tax-city-field",
    ),
    pytest.param(
        [],
        [],
        Turn("none", (m("Lorraine", "Burgundy", (1, 0, 0, 0)),)),
        "moves go with expand",
        id="moves-without-order",
    ),
    pytest.param(
        [],
        [],
        Turn("expand", (m("Lorraine", "Burgundy", (1, 0, 0, 0)),), bonus_target=t("Lorraine")),
        "go with a bonus action",
        id="bonus-target-without-bonus",
    ),
    pytest.param(
        [],
        [],
        Turn(
            "expand",
            (m("Lorraine", "Burgundy", (1, 0, 0, 0)),),
            bonus="siege_assault",
            bonus_source=t("Lorraine"),
            bonus_target=t("Franconia"),
        ),
        "card 3 has fortify bonus action to use, not 'siege_assault'",
        id="bonus-not-on-card",
    ),
    pytest.param(
        [],
        [],
        Turn("expand", (Move(t("Lorraine"), 49, (1, 0, 0, 0)),)),
        "no territory 49",
        id="no-such-territory",
    ),
]


@pytest.mark.parametrize(("extra", "castles", "turn", "reason"), EXPAND_ILLEGAL)
def test_expand_refused(
    extra: list[Placement], castles: list[str], turn: Turn, reason: str
) -> None:
    game = rules()
    state = staged(game, EXPAND_START + extra, EXPAND_FORTIFY, castles)
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match=reason):
        game.check(state, 0, turn)
    assert snapshot(state) == before


# Expand out of a disputed territory: only its defender, leaving as many as the attacker has.
DEFENDER = [
    pytest.param((2, 0, 0, 0), None, id="leaves-the-attackers-count"),
    pytest.param((3, 0, 0, 0), "leave at least 3 units in Burgundy", id="leaves-fewer"),
    pytest.param((1, 0, 0, 0), None, id="leaves-more"),
]


@pytest.mark.parametrize(("units", "reason"), DEFENDER)
def test_expand_out_of_dispute_as_defender(units: Units, reason: str | None) -> None:
    game = rules()
    start: list[Placement] = [("Burgundy", 0, (5, 0, 0, 0)), ("Burgundy", 1, (3, 0, 0, 0))]
    state = staged(game, start, EXPAND_FORTIFY)
    turn = Turn("expand", (m("Burgundy", "Lombardy", units),))
    if reason is not None:
        with pytest.raises(IllegalActionError, match=reason):
            game.check(state, 0, turn)
        return
    result = played(game, state, turn)
    left = (5 - units[0], 0, 0, 0)
    expected = position(
        game, [("Burgundy", 0, left), ("Burgundy", 1, (3, 0, 0, 0)), ("Lombardy", 0, units)]
    )
    assert snapshot(result) == snapshot(expected)


# --------------------------------------------------------------------------- Split Expand

SPLIT_START: list[Placement] = [("Lorraine", 0, (5, 1, 0, 0)), ("Franconia", 1, (2, 0, 0, 0))]
SPLIT_CASES = [
    pytest.param(
        (m("Lorraine", "Burgundy", (2, 0, 0, 0)), m("Lorraine", "Franconia", (2, 1, 0, 0))),
        [
            ("Lorraine", 0, (1, 0, 0, 0)),
            ("Burgundy", 0, (2, 0, 0, 0)),
            ("Franconia", 1, (2, 0, 0, 0)),
            ("Franconia", 0, (2, 1, 0, 0)),
        ],
        None,
        id="two-destinations",
    ),
    pytest.param(
        (m("Lorraine", "France", (3, 0, 0, 0)),),
        [
            ("Lorraine", 0, (2, 1, 0, 0)),
            ("France", 0, (3, 0, 0, 0)),
            ("Franconia", 1, (2, 0, 0, 0)),
        ],
        None,
        id="one-destination",
    ),
    pytest.param(
        (m("Lorraine", "Burgundy", (3, 0, 0, 0)), m("Lorraine", "Swabia", (2, 1, 0, 0))),
        None,
        "leave at least 1 unit in Lorraine",
        id="together-leave-one",
    ),
    pytest.param(
        (m("Lorraine", "Burgundy", (1, 0, 0, 0)), m("Lorraine", "Burgundy", (1, 0, 0, 0))),
        None,
        "two different targets",
        id="same-target",
    ),
    pytest.param(
        (m("Lorraine", "Burgundy", (1, 0, 0, 0)), m("Franconia", "Bavaria", (1, 0, 0, 0))),
        None,
        "from one territory into two",
        id="two-sources",
    ),
    pytest.param(
        (
            m("Lorraine", "Burgundy", (1, 0, 0, 0)),
            m("Lorraine", "Swabia", (1, 0, 0, 0)),
            m("Lorraine", "France", (1, 0, 0, 0)),
        ),
        None,
        "split_expand takes one or two moves, got 3",
        id="three-moves",
    ),
    pytest.param(
        (m("Lorraine", "Burgundy", (3, 0, 0, 0)), m("Lorraine", "Swabia", (3, 0, 0, 0))),
        None,
        "holds 5 footman, 6 cannot move",
        id="together-more-than-held",
    ),
]


@pytest.mark.parametrize(("moves", "after", "reason"), SPLIT_CASES)
def test_split_expand(
    moves: tuple[Move, ...], after: list[Placement] | None, reason: str | None
) -> None:
    game = rules()
    state = staged(game, SPLIT_START, SPLIT)
    turn = Turn("split_expand", moves)
    if after is None:
        with pytest.raises(IllegalActionError, match=reason):
            game.check(state, 0, turn)
        return
    result = played(game, state, turn)
    tax = 3 if any(mv.target == t("France") for mv in moves) else 0
    assert snapshot(result) == snapshot(position(game, after, coins={0: 5 + tax}))


def test_split_expand_is_not_an_expand_card() -> None:
    game = rules()
    state = staged(game, SPLIT_START, EXPAND_FORTIFY)
    with pytest.raises(IllegalActionError, match="card 3 offers expand or manoeuvre"):
        game.check(state, 0, Turn("split_expand", (m("Lorraine", "Burgundy", (1, 0, 0, 0)),)))


# --------------------------------------------------------------------------- Manoeuvre

HOME: list[Placement] = [
    ("Normandy", 0, (3, 0, 0, 0)),
    ("France", 0, (4, 0, 0, 0)),
    ("Lorraine", 0, (2, 0, 0, 0)),
    ("Burgundy", 0, (1, 0, 0, 0)),
    ("Lombardy", 0, (1, 0, 0, 0)),
]


def _without(placements: list[Placement], *names: str) -> list[Placement]:
    return [p for p in placements if p[0] not in names]


MANOEUVRE_LEGAL = [
    pytest.param(
        HOME,
        [],
        m("Normandy", "France", (2, 0, 0, 0)),
        [
            *_without(HOME, "Normandy", "France"),
            ("Normandy", 0, (1, 0, 0, 0)),
            ("France", 0, (6, 0, 0, 0)),
        ],
        id="one-step",
    ),
    pytest.param(
        HOME,
        [],
        m("Normandy", "Lorraine", (2, 0, 0, 0), via="France"),
        [
            *_without(HOME, "Normandy", "Lorraine"),
            ("Normandy", 0, (1, 0, 0, 0)),
            ("Lorraine", 0, (4, 0, 0, 0)),
        ],
        id="two-steps-via",
    ),
    pytest.param(
        HOME,
        [],
        m("Normandy", "Lorraine", (2, 0, 0, 0)),
        [
            *_without(HOME, "Normandy", "Lorraine"),
            ("Normandy", 0, (1, 0, 0, 0)),
            ("Lorraine", 0, (4, 0, 0, 0)),
        ],
        id="two-steps-engine-picks-the-way",
    ),
    pytest.param(
        [*HOME, ("England", 0, (1, 0, 0, 0))],
        [],
        m("Normandy", "England", (1, 0, 0, 0)),
        [*_without(HOME, "Normandy"), ("Normandy", 0, (2, 0, 0, 0)), ("England", 0, (2, 0, 0, 0))],
        id="by-sea",
    ),
    pytest.param(
        [*_without(HOME, "France"), ("England", 0, (1, 0, 0, 0))],
        [],
        m("Normandy", "Lorraine", (1, 0, 0, 0), via="England"),
        [
            *_without(HOME, "France", "Normandy", "Lorraine"),
            ("England", 0, (1, 0, 0, 0)),
            ("Normandy", 0, (2, 0, 0, 0)),
            ("Lorraine", 0, (3, 0, 0, 0)),
        ],
        id="two-steps-over-sea-lines",
    ),
    pytest.param(
        HOME,
        [],
        m("Normandy", "France", (3, 0, 0, 0)),
        [*_without(HOME, "Normandy", "France"), ("France", 0, (7, 0, 0, 0))],
        id="non-city-emptied-becomes-unclaimed",
    ),
    pytest.param(
        [*HOME, ("Franconia", 1, (2, 0, 0, 0)), ("Franconia", 0, (1, 0, 0, 0))],
        [],
        m("Lorraine", "Franconia", (1, 0, 0, 0)),
        [
            *_without(HOME, "Lorraine"),
            ("Lorraine", 0, (1, 0, 0, 0)),
            ("Franconia", 1, (2, 0, 0, 0)),
            ("Franconia", 0, (2, 0, 0, 0)),
        ],
        id="into-a-dispute-as-attacker",
    ),
    pytest.param(
        [*HOME, ("Franconia", 0, (1, 0, 0, 0)), ("Franconia", 1, (2, 0, 0, 0))],
        [],
        m("Lorraine", "Franconia", (1, 0, 0, 0)),
        [
            *_without(HOME, "Lorraine"),
            ("Lorraine", 0, (1, 0, 0, 0)),
            ("Franconia", 0, (2, 0, 0, 0)),
            ("Franconia", 1, (2, 0, 0, 0)),
        ],
        id="into-a-dispute-as-defender",
    ),
]


@pytest.mark.parametrize(("start", "castles", "move", "after"), MANOEUVRE_LEGAL)
def test_manoeuvre(
    start: list[Placement], castles: list[str], move: Move, after: list[Placement]
) -> None:
    game = rules()
    state = staged(game, start, EXPAND_FORTIFY, castles)
    result = played(game, state, Turn("manoeuvre", (move,)))
    assert snapshot(result) == snapshot(position(game, after, castles))


MANOEUVRE_ILLEGAL = [
    pytest.param(
        HOME,
        [],
        (m("Normandy", "Lombardy", (1, 0, 0, 0)),),
        "not within two steps",
        id="three-steps",
    ),
    pytest.param(
        HOME,
        [],
        (m("Normandy", "Brittany", (1, 0, 0, 0)),),
        "not within two steps",
        id="unclaimed-target",
    ),
    pytest.param(
        [*HOME, ("Brittany", 1, (1, 0, 0, 0))],
        [],
        (m("Normandy", "Brittany", (1, 0, 0, 0)),),
        "not within two steps",
        id="opponent-target",
    ),
    pytest.param(
        [*HOME, ("Franconia", 1, (1, 0, 0, 0)), ("Franconia", 2, (1, 0, 0, 0))],
        [],
        (m("Lorraine", "Franconia", (1, 0, 0, 0)),),
        "not within two steps",
        id="third-army-into-a-dispute",
    ),
    pytest.param(
        [*_without(HOME, "France"), ("France", 0, (4, 0, 0, 0)), ("France", 1, (1, 0, 0, 0))],
        [],
        (m("Normandy", "Lorraine", (1, 0, 0, 0)),),
        "not within two steps",
        id="disputed-middle-step",
    ),
    pytest.param(
        [*_without(HOME, "France"), ("France", 0, (4, 0, 0, 0)), ("France", 1, (1, 0, 0, 0))],
        [],
        (m("Normandy", "Lorraine", (1, 0, 0, 0), via="France"),),
        "not within two steps",
        id="disputed-middle-step-named",
    ),
    pytest.param(
        [*_without(HOME, "Lorraine"), ("Lorraine", 0, (2, 0, 0, 0)), ("Lorraine", 1, (1, 0, 0, 0))],
        [],
        (m("Lorraine", "France", (1, 0, 0, 0)),),
        "no manoeuvre out of disputed Lorraine",
        id="out-of-a-dispute",
    ),
    pytest.param(
        [*HOME, ("England", 0, (1, 0, 0, 0))],
        [],
        (m("Normandy", "Lorraine", (1, 0, 0, 0), via="Brittany"),),
        "Brittany is not a way from Normandy to Lorraine",
        id="via-not-own",
    ),
    pytest.param(
        [*HOME, ("Brittany", 0, (1, 0, 0, 0))],
        [],
        (m("Normandy", "Lorraine", (1, 0, 0, 0), via="Brittany"),),
        "Brittany is not a way from Normandy to Lorraine",
        id="via-not-between",
    ),
    pytest.param(
        HOME,
        [],
        (m("France", "Normandy", (4, 0, 0, 0)),),
        "leave at least 1 unit in France",
        id="city-keeps-one",
    ),
    pytest.param(
        HOME,
        ["Burgundy"],
        (m("Burgundy", "France", (1, 0, 0, 0)),),
        "leave at least 1 unit in Burgundy",
        id="castle-keeps-one",
    ),
    pytest.param(
        HOME,
        [],
        (m("Normandy", "France", (4, 0, 0, 0)),),
        "holds 3 footman, 4 cannot move",
        id="more-than-held",
    ),
    pytest.param(
        HOME,
        [],
        (m("Brittany", "France", (1, 0, 0, 0)),),
        "Brittany is not yours",
        id="source-not-own",
    ),
    pytest.param(
        HOME,
        [],
        (m("Normandy", "France", (1, 0, 0, 0)), m("Lorraine", "France", (1, 0, 0, 0))),
        "a manoeuvre is one move, got 2",
        id="two-moves",
    ),
]


@pytest.mark.parametrize(("start", "castles", "moves", "reason"), MANOEUVRE_ILLEGAL)
def test_manoeuvre_refused(
    start: list[Placement], castles: list[str], moves: tuple[Move, ...], reason: str
) -> None:
    game = rules()
    state = staged(game, start, EXPAND_FORTIFY, castles)
    with pytest.raises(IllegalActionError, match=reason):
        game.check(state, 0, Turn("manoeuvre", moves))


# --------------------------------------------------------------------------- Fortify

FORTIFY = [
    pytest.param(
        [("France", 0, (2, 0, 0, 0))], [], "France", 0, (5, 0, 0, 0), None, id="city-plus-3"
    ),
    pytest.param(
        [("Burgundy", 0, (1, 0, 0, 0))],
        ["Burgundy"],
        "Burgundy",
        0,
        (5, 0, 0, 0),
        None,
        id="castle-plus-4",
    ),
    pytest.param(
        [("France", 0, (1, 0, 0, 0))],
        ["France"],
        "France",
        0,
        (5, 0, 0, 0),
        None,
        id="city-with-castle-plus-4",
    ),
    pytest.param(
        [("France", 0, (1, 0, 0, 0)), ("Burgundy", 0, (32, 0, 0, 0))],
        [],
        "France",
        0,
        (3, 0, 0, 0),
        None,
        id="within-the-reserve",
    ),
    pytest.param(
        [("France", 0, (1, 0, 0, 0)), ("France", 1, (2, 0, 0, 0))],
        [],
        "France",
        0,
        (4, 0, 0, 0),
        None,
        id="disputed-as-defender",
    ),
    pytest.param(
        [("France", 1, (1, 0, 0, 0)), ("France", 0, (2, 0, 0, 0))],
        [],
        "France",
        0,
        None,
        "fortify one of your own territories",
        id="disputed-as-attacker",
    ),
    pytest.param(
        [("Burgundy", 0, (1, 0, 0, 0))],
        [],
        "Burgundy",
        0,
        None,
        "fortify a city or castle territory",
        id="plain-territory",
    ),
    pytest.param(
        [("France", 1, (1, 0, 0, 0))],
        [],
        "France",
        0,
        None,
        "fortify one of your own territories",
        id="opponents",
    ),
    pytest.param(
        [("France", 0, (1, 0, 0, 0))],
        [],
        "France",
        1,
        None,
        "fortify names bonus_target only",
        id="with-a-source",
    ),
]


@pytest.mark.parametrize(("start", "castles", "target", "source", "units", "reason"), FORTIFY)
def test_fortify(
    start: list[Placement],
    castles: list[str],
    target: str,
    source: int,
    units: Units | None,
    reason: str | None,
) -> None:
    game = rules()
    state = staged(game, start, EXPAND_FORTIFY, castles)
    turn = Turn(bonus="fortify", bonus_target=t(target), bonus_source=t("France") if source else -1)
    if units is None:
        with pytest.raises(IllegalActionError, match=reason):
            game.check(state, 0, turn)
        return
    result = played(game, state, turn)
    after = [p for p in start if not (p[0] == target and p[1] == 0)]
    expected = position(game, [(target, 0, units), *after], castles)
    # the territory's first army is its owner: keep the dispute's roles as they were
    expected.owner, expected.attacker = list(state.owner), list(state.attacker)
    expected.disputes = list(state.disputes)
    assert snapshot(result) == snapshot(expected)


def test_fortify_not_on_the_card() -> None:
    game = rules()
    state = staged(game, [("France", 0, (1, 0, 0, 0))], SPLIT)
    with pytest.raises(IllegalActionError, match="card 6 has no bonus action to use"):
        game.check(state, 0, Turn(bonus="fortify", bonus_target=t("France")))


# --------------------------------------------------------------------------- Siege Assault

SIEGE_START: list[Placement] = [("Lorraine", 0, (3, 0, 0, 2))]
SIEGE_CASES = [
    pytest.param(
        [("Franconia", 1, (2, 1, 0, 0))],
        [],
        [3, 2, 6, 1],
        "Franconia",
        [("Franconia", 1, (0, 1, 0, 0))],
        id="each-3-plus-removes-a-unit",
    ),
    pytest.param(
        [("Franconia", 1, (2, 1, 0, 0))],
        [],
        [1, 2, 2, 1],
        "Franconia",
        [("Franconia", 1, (2, 1, 0, 0))],
        id="no-hits",
    ),
    pytest.param(
        [("Saxony", 1, (2, 0, 0, 0))],
        ["Saxony"],
        [3, 4, 5, 6],
        "Saxony",
        [],
        id="emptied-city-unclaimed-castle-stays",
    ),
]


@pytest.mark.parametrize(("extra", "castles", "dice", "target", "after"), SIEGE_CASES)
def test_siege_assault(
    extra: list[Placement], castles: list[str], dice: list[int], target: str, after: list[Placement]
) -> None:
    game = rules()
    state = staged(game, SIEGE_START + extra, EXPAND_SIEGE, castles, dice=dice)
    turn = Turn(bonus="siege_assault", bonus_source=t("Lorraine"), bonus_target=t(target))
    result = played(game, state, turn)
    assert result.dice == 4  # 2 dice per siege weapon, no defence dice
    expected = position(game, SIEGE_START + after, castles)
    assert snapshot(result) == snapshot(expected)
    assert game.crowns(result, 1) == sum(game.board.crowns[t(p[0])] for p in after)


SIEGE_ILLEGAL = [
    pytest.param(
        [("England", 1, (1, 0, 0, 0))],
        "Lorraine",
        "England",
        "needs a land neighbour",
        id="across-a-sea-line",
    ),
    pytest.param(
        [("Lombardy", 1, (1, 0, 0, 0))],
        "Lorraine",
        "Lombardy",
        "needs a land neighbour",
        id="not-adjacent",
    ),
    pytest.param(
        [("Franconia", 1, (1, 0, 0, 0)), ("Franconia", 2, (1, 0, 0, 0))],
        "Lorraine",
        "Franconia",
        "no siege assault into disputed Franconia",
        id="into-a-dispute",
    ),
    pytest.param(
        [("Lorraine", 1, (1, 0, 0, 0)), ("Franconia", 1, (1, 0, 0, 0))],
        "Lorraine",
        "Franconia",
        "no siege assault from disputed Lorraine",
        id="from-a-dispute",
    ),
    pytest.param(
        [("Franconia", 0, (1, 0, 0, 0))],
        "Lorraine",
        "Franconia",
        "not an opponent's territory",
        id="own-target",
    ),
    pytest.param([], "Lorraine", "Franconia", "not an opponent's territory", id="unclaimed-target"),
    pytest.param(
        [("Burgundy", 0, (1, 0, 0, 0)), ("Lombardy", 1, (1, 0, 0, 0))],
        "Burgundy",
        "Lombardy",
        "Burgundy holds no siege weapon",
        id="source-without-siege",
    ),
    pytest.param(
        [("Franconia", 1, (1, 0, 0, 0))],
        "Franconia",
        "Lorraine",
        "from one of your own territories",
        id="opponents-source",
    ),
]


@pytest.mark.parametrize(("extra", "source", "target", "reason"), SIEGE_ILLEGAL)
def test_siege_assault_refused(
    extra: list[Placement], source: str, target: str, reason: str
) -> None:
    game = rules()
    state = staged(game, SIEGE_START + extra, EXPAND_SIEGE, dice=[6] * 4)
    turn = Turn(bonus="siege_assault", bonus_source=t(source), bonus_target=t(target))
    with pytest.raises(IllegalActionError, match=reason):
        game.check(state, 0, turn)


def test_siege_assault_refused_without_siege_weapons() -> None:
    game = rules()
    state = staged(
        game, [("Lorraine", 0, (3, 0, 0, 0)), ("Franconia", 1, (1, 0, 0, 0))], EXPAND_SIEGE
    )
    turn = Turn(bonus="siege_assault", bonus_source=t("Lorraine"), bonus_target=t("Franconia"))
    with pytest.raises(IllegalActionError, match="no siege weapon on the board"):
        game.check(state, 0, turn)
    # the order alone is fine
    result = played(game, state, Turn("expand", (m("Lorraine", "Burgundy", (1, 0, 0, 0)),)))
    assert result.owner[t("Burgundy")] == 0


# bonus before or after the order: each part is checked against the state the one before left
SEQUENCE = [
    pytest.param(
        True,
        m("Lorraine", "Franconia", (1, 0, 0, 0)),
        [("Lorraine", 0, (2, 0, 0, 2)), ("Franconia", 0, (1, 0, 0, 0))],
        None,
        id="assault-first-empties-then-expand-claims",
    ),
    pytest.param(
        False,
        m("Lorraine", "Franconia", (1, 0, 0, 0)),
        None,
        "no siege assault into disputed Franconia",
        id="expand-first-then-assault-into-the-dispute",
    ),
    pytest.param(
        False,
        m("Lorraine", "Burgundy", (0, 0, 0, 2)),
        None,
        "Lorraine holds no siege weapon",
        id="expand-moves-the-weapons-away-first",
    ),
    pytest.param(
        True,
        m("Lorraine", "Burgundy", (0, 0, 0, 2)),
        [("Lorraine", 0, (3, 0, 0, 0)), ("Burgundy", 0, (0, 0, 0, 2))],
        None,
        id="assault-then-the-weapons-move",
    ),
]


@pytest.mark.parametrize(("first", "move", "after", "reason"), SEQUENCE)
def test_siege_assault_before_or_after_the_order(
    first: bool, move: Move, after: list[Placement] | None, reason: str | None
) -> None:
    game = rules()
    start = [*SIEGE_START, ("Franconia", 1, (1, 0, 0, 0))]
    state = staged(game, start, EXPAND_SIEGE, dice=[6, 6, 6, 6])
    turn = Turn(
        "expand",
        (move,),
        bonus="siege_assault",
        bonus_first=first,
        bonus_source=t("Lorraine"),
        bonus_target=t("Franconia"),
    )
    if after is None:
        with pytest.raises(IllegalActionError, match=reason):
            game.check(state, 0, turn)
        return
    result = played(game, state, turn)
    assert snapshot(result) == snapshot(position(game, after))


# --------------------------------------------------------------------------- King Me

CITIES = ("England", "France", "Saxony", "Rome")


def round_of_cards(game: EuropeRules, ask: int = -1) -> EuropeState:
    """Round 1 at the card choice; every army holds a city (with a castle), seat ``ask``
    chooses the battle order."""
    declarations = [{"battle_order": "ask"} if s == ask else {} for s in range(4)]
    state = empty(game, declarations=declarations)
    for army, city in enumerate(CITIES):
        put(state, city, army, (3, 0, 0, 0))
    state.phase = "cards"
    return state


def play_out(game: EuropeRules, state: EuropeState, until: int) -> list[int]:
    """Every turn answered with nothing until ``until`` turns are played; the marker after
    each reveal."""
    markers = []
    while state.phase == "turn" and state.turns < until:
        markers.append(state.marker)
        decision = game.decision(state)
        assert decision is not None
        game.apply_unchecked(state, decision.seats[0], Turn())
    return markers


KING_ME_CASES = [
    pytest.param(
        {0: (0, 1), 1: (2, 0), 2: (0, 1), 3: (0, 1)}, [0, 1, 1, 1, 1, 1, 1, 1], 1, id="one-king-me"
    ),
    pytest.param(
        {0: (0, 1), 1: (2, 0), 2: (2, 0), 3: (0, 1)},
        [0, 1, 2, 2, 2, 2, 2, 2],
        2,
        id="last-of-turn-1",
    ),
    pytest.param(
        {0: (0, 1), 1: (2, 0), 2: (0, 1), 3: (1, 2)},
        [0, 1, 1, 1, 1, 1, 1, 3],
        3,
        id="turn-2-king-me-last",
    ),
    pytest.param(
        {0: (2, 0), 1: (0, 1), 2: (0, 1), 3: (0, 1)},
        [0, 0, 0, 0, 0, 0, 0, 0],
        0,
        id="own-marker-again",
    ),
    pytest.param({0: (0, 1), 1: (0, 1), 2: (0, 1), 3: (0, 1)}, [0] * 8, 0, id="nobody"),
]


@pytest.mark.parametrize(("cards", "markers", "holder"), KING_ME_CASES)
def test_king_me_takes_the_marker_on_reveal(
    cards: dict[int, tuple[int, int]], markers: list[int], holder: int
) -> None:
    game = rules()
    state = round_of_cards(game)
    state = game.apply_joint(state, {s: Cards(*c) for s, c in cards.items()}).state
    assert state.revealed == 0 and state.order == [0, 1, 2, 3]
    assert play_out(game, state, 8) == markers
    # the next round: turn order from the holder
    assert state.phase == "cards" and state.round == 2
    assert state.marker == holder
    assert state.order == [(holder + i) % 4 for i in range(4)]


def test_king_me_holder_after_all_cards_chooses_the_battle_order() -> None:
    game = rules()
    cards = {0: (2, 0), 1: (0, 1), 2: (0, 1), 3: (1, 2)}
    state = round_of_cards(game, ask=3)
    put(state, "Lorraine", 0, (1, 0, 0, 0))
    put(state, "Lorraine", 1, (1, 0, 0, 0))
    put(state, "Burgundy", 2, (1, 0, 0, 0))
    put(state, "Burgundy", 3, (1, 0, 0, 0))
    state = game.apply_joint(state, {s: Cards(*c) for s, c in cards.items()}).state
    play_out(game, state, 8)
    decision = game.decision(state)
    assert decision is not None
    assert (decision.kind, decision.seats, state.marker) == ("battle_order", (3,), 3)


# --------------------------------------------------------------------------- Berlin

BERLIN_START: list[Placement] = [("Saxony", 0, (5, 0, 0, 0))]
BERLIN = [
    pytest.param(
        BERLIN_START,
        Turn(
            "expand",
            (m("Saxony", "Friesland", (2, 0, 0, 0)),),
            free_manoeuvre=m("Saxony", "Friesland", (2, 0, 0, 0)),
        ),
        [("Saxony", 0, (1, 0, 0, 0)), ("Friesland", 0, (4, 0, 0, 0))],
        None,
        id="after-expand-into-the-claimed-territory",
    ),
    pytest.param(
        [*BERLIN_START, ("Franconia", 1, (2, 0, 0, 0))],
        Turn(
            "expand",
            (m("Saxony", "Franconia", (1, 0, 0, 0)),),
            free_manoeuvre=m("Saxony", "Franconia", (3, 0, 0, 0)),
        ),
        [
            ("Saxony", 0, (1, 0, 0, 0)),
            ("Franconia", 1, (2, 0, 0, 0)),
            ("Franconia", 0, (4, 0, 0, 0)),
        ],
        None,
        id="after-expand-into-the-new-dispute",
    ),
    pytest.param(
        BERLIN_START,
        Turn(
            "manoeuvre",
            (m("Saxony", "Friesland", (1, 0, 0, 0)),),
            free_manoeuvre=m("Saxony", "Friesland", (1, 0, 0, 0)),
        ),
        None,
        "the free manoeuvre follows an expand or split_expand only",
        id="not-after-manoeuvre",
    ),
    pytest.param(
        [("Friesland", 0, (5, 0, 0, 0)), ("Lorraine", 0, (1, 0, 0, 0))],
        Turn(
            "expand",
            (m("Friesland", "Denmark", (1, 0, 0, 0)),),
            free_manoeuvre=m("Friesland", "Lorraine", (1, 0, 0, 0)),
        ),
        None,
        "needs Berlin's tile",
        id="without-berlin",
    ),
    pytest.param(
        BERLIN_START,
        Turn(
            "expand",
            (m("Saxony", "Friesland", (2, 0, 0, 0)),),
            free_manoeuvre=m("Saxony", "Friesland", (3, 0, 0, 0)),
        ),
        None,
        "leave at least 1 unit in Saxony",
        id="checked-after-the-expand",
    ),
]


@pytest.mark.parametrize(("start", "turn", "after", "reason"), BERLIN)
def test_berlin_free_manoeuvre(
    start: list[Placement], turn: Turn, after: list[Placement] | None, reason: str | None
) -> None:
    game = rules()
    state = staged(game, start, EXPAND_FORTIFY)
    if after is None:
        with pytest.raises(IllegalActionError, match=reason):
            game.check(state, 0, turn)
        return
    result = played(game, state, turn)
    assert snapshot(result) == snapshot(position(game, after))


def test_berlin_free_manoeuvre_after_split_expand() -> None:
    game = rules()
    state = staged(game, BERLIN_START, SPLIT)
    turn = Turn(
        "split_expand",
        (m("Saxony", "Friesland", (1, 0, 0, 0)), m("Saxony", "Bohemia", (1, 0, 0, 0))),
        free_manoeuvre=m("Saxony", "Bohemia", (2, 0, 0, 0)),
    )
    result = played(game, state, turn)
    after = [
        ("Saxony", 0, (1, 0, 0, 0)),
        ("Friesland", 0, (1, 0, 0, 0)),
        ("Bohemia", 0, (3, 0, 0, 0)),
    ]
    assert snapshot(result) == snapshot(position(game, after))


def test_legal_options_are_for_the_revealed_card() -> None:
    game = rules()
    state = staged(game, EXPAND_START, EXPAND_FORTIFY)
    options = game_of(game).legal_options(state, 0)
    assert all(isinstance(a, Turn) for a in options.listed)
    assert {a.order for a in options.listed if isinstance(a, Turn)} <= {
        "expand",
        "manoeuvre",
        "none",
    }
    for action in options.listed:
        game.check(state, 0, action)


def test_siege_assault_first_waits_for_the_owners_casualties_then_the_order() -> None:
    game = rules()
    declarations = [{}, {"casualties": "ask"}, {}, {}]
    state = empty(game, dice=[6, 6, 1, 1], declarations=declarations)
    put(state, "Lorraine", 0, (3, 0, 0, 2))
    put(state, "Franconia", 1, (3, 1, 0, 0))
    my_turn(state, game, 0, EXPAND_SIEGE)
    state.first[WAITING], state.queue = TAX_SPEND, [0, WAITING]
    turn = Turn(
        "expand",
        (m("Lorraine", "Franconia", (1, 0, 0, 0)),),
        bonus="siege_assault",
        bonus_first=True,
        bonus_source=t("Lorraine"),
        bonus_target=t("Franconia"),
    )
    game.check(state, 0, turn)
    game.apply_unchecked(state, 0, turn)
    decision = game.decision(state)
    assert decision is not None and (decision.kind, decision.seats) == ("casualties", (1,))
    assert state.owner[t("Franconia")] == 1 and state.attacker[t("Franconia")] == NOBODY
    with pytest.raises(IllegalActionError, match="remove exactly 2 units"):
        game.check(state, 1, Casualties((1, 0, 0, 0)))
    with pytest.raises(IllegalActionError, match="only 0 cavalry to remove"):
        game.check(state, 1, Casualties((1, 0, 1, 0)))
    game.check(state, 1, Casualties((1, 1, 0, 0)))
    game.apply_unchecked(state, 1, Casualties((1, 1, 0, 0)))
    after = [
        ("Lorraine", 0, (2, 0, 0, 2)),
        ("Franconia", 1, (2, 0, 0, 0)),
        ("Franconia", 0, (1, 0, 0, 0)),
    ]
    assert snapshot(state) == snapshot(position(game, after))
    assert state.queue == [WAITING] and state.revealed == WAITING


def test_king_me_on_a_mercenarys_card_does_nothing() -> None:
    game = rules(3)
    state = empty(game)
    for army, city in enumerate(CITIES):
        put(state, city, army, (3, 0, 0, 0))
    state.controller[3] = 1
    state.phase = "cards"
    state = game.apply_joint(state, {s: Cards(0, 1) for s in range(3)}).state
    state = game.apply_joint(state, {1: Cards(KING_ME, 0)}).state
    play_out(game, state, 3)
    assert state.queue == [3] and state.revealed == 3 and state.marker == 0
    decision = game.decision(state)
    assert decision is not None and decision.seats == (1,)


CASTLE_ROLLS = [pytest.param([1, 1], id="no-hit"), pytest.param([3, 1], id="empties-the-castle")]
"""The next two dice: the Siege Assault (one weapon) misses, or empties Saxony's castle."""


def castle_assault(first: bool, units: Units) -> Turn:
    """A Siege Assault from Lorraine on Saxony (castle, 1 footman), with an Expand of
    ``units`` from Lorraine into Saxony."""
    return Turn(
        "expand",
        (m("Lorraine", "Saxony", units),),
        bonus="siege_assault",
        bonus_first=first,
        bonus_source=t("Lorraine"),
        bonus_target=t("Saxony"),
    )


def castle_position(game: EuropeRules, dice: list[int]) -> EuropeState:
    start = [("Lorraine", 0, (3, 0, 0, 1)), ("Saxony", 1, (1, 0, 0, 0))]
    return staged(game, start, EXPAND_SIEGE, ["Saxony"], dice=dice)


@pytest.mark.parametrize("dice", CASTLE_ROLLS)
@pytest.mark.parametrize("first", [True, False], ids=["assault-first", "expand-first"])
def test_what_follows_a_siege_assault_is_judged_before_its_dice(
    dice: list[int], first: bool
) -> None:
    """A footmen-only Expand into the castle the assault attacks is refused whatever the dice
    to come would do (judging it after them would let a refusal reveal the next dice), and a
    refused turn rolls nothing."""
    game = rules()
    state = castle_position(game, dice)
    with pytest.raises(IllegalActionError, match="Saxony has a castle: the expanding units"):
        game.check(state, 0, castle_assault(first, (1, 0, 0, 0)))
    assert state.dice == 0


@pytest.mark.parametrize(
    ("dice", "after"),
    [
        pytest.param(
            [1, 1],
            [
                ("Lorraine", 0, (2, 0, 0, 0)),
                ("Saxony", 1, (1, 0, 0, 0)),
                ("Saxony", 0, (1, 0, 0, 1)),
            ],
            id="no-hit-challenges",
        ),
        pytest.param(
            [3, 1],
            [("Lorraine", 0, (2, 0, 0, 0)), ("Saxony", 0, (1, 0, 0, 1))],
            id="emptied-then-claimed",
        ),
    ],
)
def test_siege_assault_then_expand_with_the_weapon(dice: list[int], after: list[Placement]) -> None:
    """With the weapon among the expanding units the turn is legal under any dice; the dice
    then decide whether the Expand challenges the castle or claims it emptied."""
    game = rules()
    state = castle_position(game, dice)
    result = played(game, state, castle_assault(True, (1, 0, 0, 1)))
    coins = {0: 5 + 4} if len(after) == 2 else {}
    assert snapshot(result) == snapshot(position(game, after, ["Saxony"], coins=coins))
