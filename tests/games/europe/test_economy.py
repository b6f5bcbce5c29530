"""The economy pinned to the rules: Tax over supply lines (disputed territories, sea lines,
the tiles of connected gold cities), Spend (unit and castle costs, where recruits go, the
army reserve, crown cards), Constantinople's and Kiev's tiles, and claiming cities."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from arena.errors import IllegalActionError
from arena.games.api import Event
from arena.games.europe.actions import Action, Move, Recruit, Turn, Units
from arena.games.europe.game import EuropeGame
from arena.games.europe.rules import EuropeRules
from arena.games.europe.state import NOBODY, EuropeState
from tests.europe_helpers import empty, my_turn, put, rules, t

ME, OTHER, WAITING = 0, 1, 2
OTHER_HOMES = {1: "Algeria", 2: "Republic of Novgorod", 3: "Sweden"}
"""A city for each other army, so that nobody is eliminated when the round ends."""
ONE: Units = (1, 0, 0, 0)
TAX_CARD, SPEND_CARD, EXPAND_CARD, MANOEUVRE_CARD = 0, 1, 3, 6


def play(game: EuropeRules, state: EuropeState, seat: int, action: Action) -> list[Event]:
    """Check, then apply, as the arena does."""
    game.check(state, seat, action)
    return game.apply_unchecked(state, seat, action)


def position(
    game: EuropeRules,
    mine: Sequence[str],
    attacked: Sequence[str] = (),
    castles: Sequence[str] = (),
    coins: int = 5,
    card: int = TAX_CARD,
) -> EuropeState:
    """Army 0 holds ``mine`` (a footman each), army 1 attacks ``attacked`` of them; army 0's
    turn with ``card``, army 2's after it."""
    state = empty(game)
    for army, home in OTHER_HOMES.items():
        put(state, home, army, ONE)
    for name in mine:
        put(state, name, ME, ONE)
    for name in attacked:
        put(state, name, OTHER, ONE)
    for name in castles:
        state.castle[t(name)] = True
        state.castles_left -= 1
    state.coins[ME] = coins
    my_turn(state, game, ME, card)
    state.first[WAITING] = TAX_CARD  # army 2 plays next: the round (and its battles) waits
    state.queue.append(WAITING)
    return state


def pass_turn(game: EuropeRules, state: EuropeState) -> None:
    """Army 2's turn, doing nothing."""
    play(game, state, WAITING, Turn())


def units(state: EuropeState, names: Sequence[str]) -> dict[str, Units]:
    return {name: state.of(t(name), ME) for name in names}


def reserve(state: EuropeState, army: int = ME) -> list[int]:
    return state.reserve[army * 4 : army * 4 + 4]


# ---------------------------------------------------------------------------- Tax

TAX_CASES = [
    pytest.param(["Poland"], [], "Poland", 2, {}, id="lone-city-its-tax-value"),
    pytest.param(
        ["Poland", "Bohemia", "Galicia"], [], "Poland", 4, {}, id="plus-1-per-non-city-territory"
    ),
    pytest.param(
        ["Poland", "Hungary", "Galicia"], [], "Hungary", 6, {}, id="every-linked-city-tax-value"
    ),
    pytest.param(
        ["Poland", "Bohemia", "Franconia", "Lorraine"],
        [],
        "Poland",
        5,
        {},
        id="territories-several-steps-away",
    ),
    pytest.param(["Poland", "Rome"], [], "Poland", 2, {}, id="unlinked-city-not-counted"),
    pytest.param(["Poland", "Rome"], [], "Rome", 4, {}, id="the-other-network"),
    pytest.param(
        ["Ireland", "Wales", "Brittany"],
        [],
        "Ireland",
        4,
        {},
        id="across-sea-lines",
    ),
    pytest.param(
        ["England", "Normandy", "France"],
        [],
        "England",
        7,
        {"England": (1, 2, 0, 0), "France": (2, 0, 1, 0), "Normandy": ONE},
        id="england-normandy-sea-line-london-and-paris-tiles",
    ),
    pytest.param(
        ["England", "Normandy", "France"],
        [],
        "France",
        7,
        {"England": (1, 2, 0, 0), "France": (2, 0, 1, 0)},
        id="taxing-paris-fires-london-too",
    ),
    pytest.param(
        ["England", "Normandy", "France"],
        ["Normandy"],
        "England",
        3,
        {"England": (1, 2, 0, 0), "France": ONE},
        id="disputed-sea-link-cuts-paris-off",
    ),
    pytest.param(
        ["Swabia", "Lombardy", "Rome"],
        [],
        "Swabia",
        7,
        {},
        id="swabia-lombardy-rome",
    ),
    pytest.param(
        ["Swabia", "Lombardy", "Rome"],
        ["Lombardy"],
        "Swabia",
        2,
        {},
        id="disputed-territory-gives-nothing-and-cuts",
    ),
    pytest.param(
        ["Swabia", "Lombardy", "Rome", "Kingdom of Sicily"],
        ["Lombardy"],
        "Rome",
        5,
        {},
        id="disputed-territory-cuts-the-other-side",
    ),
    pytest.param(
        ["Poland", "Hungary"],
        ["Hungary"],
        "Poland",
        2,
        {},
        id="disputed-city-gives-nothing",
    ),
    pytest.param(
        ["León-Castile"],
        [],
        "León-Castile",
        3,
        {"León-Castile": (5, 0, 0, 0)},
        id="madrid-tile",
    ),
    pytest.param(
        ["France", "Navarre", "León-Castile"],
        [],
        "France",
        7,
        {"France": (2, 0, 1, 0), "León-Castile": (5, 0, 0, 0)},
        id="every-connected-gold-city-tile-fires",
    ),
    pytest.param(
        ["France", "León-Castile"],
        [],
        "France",
        3,
        {"France": (2, 0, 1, 0), "León-Castile": ONE},
        id="unconnected-tile-does-not-fire",
    ),
]


@pytest.mark.parametrize(("mine", "attacked", "city", "gain", "after"), TAX_CASES)
def test_tax(
    mine: list[str], attacked: list[str], city: str, gain: int, after: dict[str, Units]
) -> None:
    game = rules()
    state = position(game, mine, attacked)
    before = reserve(state)
    options = EuropeGame(game.config).legal_options(state, ME)
    offered = {e["territory"]: e["coins"] for e in options.constraints["tax_cities"]}
    assert offered[t(city)] == gain
    assert not set(offered) & {t(name) for name in attacked}
    play(game, state, ME, Turn(order="tax", tax_city=t(city)))
    assert state.coins[ME] == 5 + gain
    assert units(state, list(after)) == after
    given = [sum(after[n][k] for n in after) - sum(ONE[k] for n in after) for k in range(4)]
    assert reserve(state) == [b - g for b, g in zip(before, given, strict=True)]
    for name in mine:
        assert state.owner[t(name)] == ME


def test_tax_tiles_within_the_army_reserve() -> None:
    game = rules()
    state = position(game, ["León-Castile"])
    put(state, "León-Castile", ME, (32, 0, 0, 0))
    assert reserve(state) == [2, 12, 12, 4]
    play(game, state, ME, Turn(order="tax", tax_city=t("León-Castile")))
    assert state.of(t("León-Castile"), ME) == (35, 0, 0, 0)
    assert reserve(state) == [0, 12, 12, 4]
    assert state.coins[ME] == 8


@pytest.mark.parametrize(
    ("mine", "attacked", "city", "reason"),
    [
        pytest.param(
            ["Poland", "Hungary"],
            ["Hungary"],
            "Hungary",
            "Buda is disputed: it gives nothing",
            id="disputed-city",
        ),
        pytest.param(["Poland"], [], "Rome", "Rome is not yours", id="unclaimed-city"),
        pytest.param(["Poland"], [], "Algeria", "Bejaia is not yours", id="opponents-city"),
        pytest.param(
            ["Poland", "Bohemia"],
            [],
            "Bohemia",
            "tax names one of your cities",
            id="not-a-city",
        ),
        pytest.param(
            ["Galicia"], [], "Galicia", "tax names one of your cities", id="no-city-no-tax"
        ),
    ],
)
def test_tax_illegal(mine: list[str], attacked: list[str], city: str, reason: str) -> None:
    game = rules()
    state = position(game, mine, attacked)
    with pytest.raises(IllegalActionError, match=reason):
        game.check(state, ME, Turn(order="tax", tax_city=t(city)))


def test_tax_names_a_city() -> None:
    game = rules()
    state = position(game, ["Poland"])
    with pytest.raises(IllegalActionError, match="tax names one of your cities"):
        game.check(state, ME, Turn(order="tax"))
    with pytest.raises(IllegalActionError, match="tax_city goes with tax, not spend"):
        game.check(state, ME, Turn(order="spend", tax_city=t("Poland")))


# -------------------------------------------------------------------------- Spend

SPEND_LAND = ["Poland", "Bohemia", "Galicia", "Hungary"]
"""Warsaw, a plain territory, a castle territory (Galicia) and Buda, attacked by army 1."""


def spend_position(
    game: EuropeRules, coins: int, also: Sequence[str] = (), **fields: Any
) -> EuropeState:
    state = position(game, [*SPEND_LAND, *also], ["Hungary"], ["Galicia"], coins, SPEND_CARD)
    for name, value in fields.items():
        if name == "bought_crown":
            state.bought_crown[ME] = value
        else:
            setattr(state, name, value)
    return state


def spend(
    recruits: Mapping[str, Units] | None = None,
    castles: Sequence[str] = (),
    crown: bool = False,
) -> Turn:
    return Turn(
        order="spend",
        recruits=tuple(Recruit(t(name), u) for name, u in (recruits or {}).items()),
        castles=tuple(t(name) for name in castles),
        crown=crown,
    )


SPEND_CASES = [
    pytest.param(3, spend({"Poland": (3, 0, 0, 0)}), {"Poland": (4, 0, 0, 0)}, 0, id="footman-1"),
    pytest.param(2, spend({"Poland": (0, 1, 0, 0)}), {"Poland": (1, 1, 0, 0)}, 0, id="archer-2"),
    pytest.param(3, spend({"Poland": (0, 0, 1, 0)}), {"Poland": (1, 0, 1, 0)}, 0, id="cavalry-3"),
    pytest.param(10, spend({"Poland": (0, 0, 0, 1)}), {"Poland": (1, 0, 0, 1)}, 0, id="siege-10"),
    pytest.param(
        20, spend({"Poland": (1, 1, 1, 1)}), {"Poland": (2, 1, 1, 1)}, 4, id="one-of-each-16"
    ),
    pytest.param(
        4,
        spend({"Galicia": (0, 2, 0, 0)}),
        {"Galicia": (1, 2, 0, 0)},
        0,
        id="into-a-castle-territory",
    ),
    pytest.param(
        5,
        spend({"Poland": ONE, "Galicia": (0, 1, 0, 0)}),
        {"Poland": (2, 0, 0, 0), "Galicia": (1, 1, 0, 0)},
        2,
        id="dispersed",
    ),
    pytest.param(
        14,
        spend({"Bohemia": (2, 0, 0, 0)}, castles=["Bohemia"]),
        {"Bohemia": (3, 0, 0, 0)},
        0,
        id="castle-12-built-before-its-recruits",
    ),
    pytest.param(
        24,
        spend(castles=["Bohemia", "Poland"]),
        {"Bohemia": ONE, "Poland": ONE},
        0,
        id="two-castles",
    ),
    pytest.param(10, spend(crown=True), {"Poland": ONE}, 0, id="crown-card-10"),
    pytest.param(
        30,
        spend({"Poland": (0, 0, 1, 0)}, castles=["Bohemia"], crown=True),
        {"Poland": (1, 0, 1, 0), "Bohemia": ONE},
        5,
        id="castle-recruits-and-crown",
    ),
]


@pytest.mark.parametrize(("coins", "turn", "after", "left"), SPEND_CASES)
def test_spend(coins: int, turn: Turn, after: dict[str, Units], left: int) -> None:
    game = rules()
    state = spend_position(game, coins)
    before = reserve(state)
    crowns = game.crowns(state, ME)
    play(game, state, ME, turn)
    assert state.coins[ME] == left
    assert units(state, list(after)) == after
    bought = [sum(r.units[k] for r in turn.recruits) for k in range(4)]
    assert reserve(state) == [b - n for b, n in zip(before, bought, strict=True)]
    assert state.castles_left == 7 - len(turn.castles)
    assert all(state.castle[c] for c in turn.castles)
    assert state.castle[t("Galicia")]
    assert state.crown_cards[ME] == int(turn.crown)
    assert state.crown_cards_left == 8 - int(turn.crown)
    assert game.crowns(state, ME) == crowns + int(turn.crown)
    assert crowns == 2  # Warsaw and Buda (Buda disputed, still held)


def test_berlins_holder_builds_castles_for_9() -> None:
    game = rules()
    state = spend_position(game, 18, also=["Saxony"])
    play(game, state, ME, spend(castles=["Bohemia", "Saxony"]))
    assert state.coins[ME] == 0
    assert state.castle[t("Bohemia")] and state.castle[t("Saxony")]
    assert state.castles_left == 5


@pytest.mark.parametrize(
    ("coins", "turn", "reason", "extra"),
    [
        pytest.param(
            10,
            spend({"Bohemia": ONE}),
            "recruits go on your own undisputed city or castle territories, not Bohemia",
            {},
            id="plain-territory",
        ),
        pytest.param(
            10,
            spend({"Hungary": ONE}),
            "castle territories, not Hungary",
            {},
            id="disputed-city",
        ),
        pytest.param(10, spend({"Algeria": ONE}), "not Algeria", {}, id="opponents-city"),
        pytest.param(10, spend({"Rome": ONE}), "not Rome", {}, id="unclaimed-city"),
        pytest.param(
            100,
            spend({"Poland": (32, 0, 0, 0)}),
            "reserve holds 31 footman, not 32",
            {},
            id="beyond-the-footmen-reserve",
        ),
        pytest.param(
            100,
            spend({"Poland": (0, 0, 0, 3), "Galicia": (0, 0, 0, 2)}),
            "reserve holds 4 siege, not 5",
            {},
            id="beyond-the-reserve-across-places",
        ),
        pytest.param(
            9,
            spend({"Poland": (0, 0, 0, 1)}),
            "this spend costs 10 coins; you have 9",
            {},
            id="cost-above-coins",
        ),
        pytest.param(
            15,
            spend({"Poland": (0, 1, 1, 0)}, castles=["Bohemia"]),
            "this spend costs 17 coins; you have 15",
            {},
            id="castle-and-recruits-above-coins",
        ),
        pytest.param(
            11,
            spend(castles=["Bohemia"]),
            "costs 12 coins; you have 11",
            {},
            id="castle-12-without-berlin",
        ),
        pytest.param(
            20,
            spend(castles=["Galicia"]),
            "Galicia already has a castle",
            {},
            id="second-castle-on-a-territory",
        ),
        pytest.param(
            30,
            spend(castles=["Bohemia", "Bohemia"]),
            "one castle per territory",
            {},
            id="one-castle-per-territory",
        ),
        pytest.param(
            20,
            spend(castles=["Hungary"]),
            "a castle goes on your own undisputed territory, not Hungary",
            {},
            id="castle-on-a-disputed-territory",
        ),
        pytest.param(
            20,
            spend(castles=["Rome"]),
            "own undisputed territory, not Rome",
            {},
            id="castle-on-an-unclaimed-territory",
        ),
        pytest.param(
            20,
            spend(castles=["Bohemia"]),
            "the bank has 0 castles left",
            {"castles_left": 0},
            id="no-castle-left",
        ),
        pytest.param(
            30,
            spend(castles=["Bohemia", "Poland"]),
            "the bank has 1 castles left",
            {"castles_left": 1},
            id="more-castles-than-the-bank-holds",
        ),
        pytest.param(
            9, spend(crown=True), "costs 10 coins; you have 9", {}, id="crown-above-coins"
        ),
        pytest.param(
            20,
            spend(crown=True),
            "one crown card per player per round",
            {"bought_crown": True},
            id="second-crown-in-a-round",
        ),
        pytest.param(
            20,
            spend(crown=True),
            "the bank has no crown card left",
            {"crown_cards_left": 0},
            id="eight-crown-cards-in-all",
        ),
        pytest.param(
            10,
            spend({"Poland": ONE, "Galicia": (0, 0, 0, 0)}),
            "must be 4 counts",
            {},
            id="empty-recruit",
        ),
        pytest.param(
            10,
            Turn(order="spend", recruits=(Recruit(t("Poland"), ONE),) * 2),
            "listed twice",
            {},
            id="recruits-listed-twice",
        ),
    ],
)
def test_spend_illegal(coins: int, turn: Turn, reason: str, extra: dict[str, Any]) -> None:
    game = rules()
    state = spend_position(game, coins, **extra)
    with pytest.raises(IllegalActionError, match=reason):
        game.check(state, ME, turn)


def test_a_mercenary_army_never_buys_crown_cards() -> None:
    """Its crowns never count, so a crown card bought for it would only take one of the
    eight from the players: refused, and never offered; a seat with the same coins may."""
    game = rules(3)
    state = empty(game)
    for army, home in enumerate(("Poland", "Algeria", "Republic of Novgorod", "Sweden")):
        put(state, home, army, ONE)
    state.coins[3] = state.coins[OTHER] = 20
    state.controller[3] = OTHER
    my_turn(state, game, 3, SPEND_CARD)
    with pytest.raises(IllegalActionError, match="a Mercenary Army never buys crown cards"):
        game.check(state, OTHER, Turn("spend", crown=True))
    options = EuropeGame(game.config).legal_options(state, OTHER)
    assert options.army == 3 and options.constraints["crown_card"] is False
    assert not any(isinstance(a, Turn) and a.crown for a in options.listed)
    game.check(state, OTHER, Turn("spend", recruits=(Recruit(t("Sweden"), ONE),)))
    my_turn(state, game, OTHER, SPEND_CARD)
    game.check(state, OTHER, Turn("spend", crown=True))


def test_recruits_into_a_new_castle_need_the_castle() -> None:
    game = rules()
    state = spend_position(game, 14)
    with pytest.raises(IllegalActionError, match="not Bohemia"):
        game.check(state, ME, spend({"Bohemia": (2, 0, 0, 0)}))
    play(game, state, ME, spend({"Bohemia": (2, 0, 0, 0)}, castles=["Bohemia"]))
    assert state.of(t("Bohemia"), ME) == (3, 0, 0, 0)


def test_without_a_city_recruits_only_into_castles() -> None:
    game = rules()
    state = position(game, ["Galicia", "Bohemia"], castles=["Galicia"], coins=10, card=SPEND_CARD)
    with pytest.raises(IllegalActionError, match="not Bohemia"):
        game.check(state, ME, spend({"Bohemia": ONE}))
    play(game, state, ME, spend({"Galicia": (2, 0, 0, 0)}))
    assert state.of(t("Galicia"), ME) == (3, 0, 0, 0)
    assert state.coins[ME] == 8


def test_crown_card_once_per_round_with_two_spend_turns() -> None:
    game = rules()
    state = spend_position(game, 30)
    state.second[ME] = TAX_CARD
    state.hand[ME] &= ~(1 << TAX_CARD)
    play(game, state, ME, spend(crown=True))
    pass_turn(game, state)
    decision = game.decision(state)
    assert decision is not None and decision.seats == (ME,) and state.turn == 2
    with pytest.raises(IllegalActionError, match="one crown card per player per round"):
        game.check(state, ME, spend(crown=True))
    assert not EuropeGame(game.config).legal_options(state, ME).constraints["crown_card"]
    play(game, state, ME, Turn())
    assert state.round == 2 and state.phase == "cards"
    assert state.crown_cards[ME] == 1 and state.coins[ME] == 20
    my_turn(state, game, ME, SPEND_CARD)  # the next round: a crown card may be bought again
    play(game, state, ME, spend(crown=True))
    assert state.crown_cards[ME] == 2 and state.crown_cards_left == 6 and state.coins[ME] == 10


def test_the_last_crown_card() -> None:
    game = rules()
    state = spend_position(game, 10, crown_cards_left=1)
    state.coins[OTHER] = 10
    state.first[OTHER] = SPEND_CARD
    state.queue = [ME, OTHER]
    play(game, state, ME, spend(crown=True))
    assert state.crown_cards_left == 0 and state.crown_cards[ME] == 1
    decision = game.decision(state)
    assert decision is not None and decision.seats == (OTHER,)
    with pytest.raises(IllegalActionError, match="the bank has no crown card left"):
        game.check(state, OTHER, Turn(order="spend", crown=True))


def test_no_crown_cards_for_sale_with_missions() -> None:
    game = rules(missions="true")
    state = spend_position(game, 20)
    assert state.crown_cards_left == 0
    assert not EuropeGame(game.config).legal_options(state, ME).constraints["crown_card"]
    with pytest.raises(IllegalActionError, match="not for sale in the Kingdom Missions variant"):
        game.check(state, ME, spend(crown=True))


# ------------------------------------------------------------------ Constantinople

CONSTANTINOPLE_CASES = [
    pytest.param(
        ["Turkey", "Greece"],
        10,
        {"Turkey": (0, 0, 0, 1)},
        0,
        {"Turkey": (5, 0, 0, 1), "Greece": ONE},
        id="4-footmen-with-a-siege-weapon",
    ),
    pytest.param(
        ["Turkey", "Greece"],
        20,
        {"Greece": (0, 0, 0, 2)},
        0,
        {"Turkey": ONE, "Greece": (9, 0, 0, 2)},
        id="placed-with-it-4-each",
    ),
    pytest.param(
        ["Turkey", "Greece"],
        22,
        {"Turkey": (0, 0, 0, 1), "Greece": (2, 0, 0, 1)},
        0,
        {"Turkey": (5, 0, 0, 1), "Greece": (7, 0, 0, 1)},
        id="each-recruit-its-own",
    ),
    pytest.param(
        ["Turkey", "Greece"],
        9,
        {"Greece": (0, 0, 3, 0)},
        0,
        {"Turkey": ONE, "Greece": (1, 0, 3, 0)},
        id="nothing-without-a-siege-weapon",
    ),
    pytest.param(
        ["Greece"],
        10,
        {"Greece": (0, 0, 0, 1)},
        0,
        {"Greece": (1, 0, 0, 1)},
        id="not-without-the-tile",
    ),
    pytest.param(
        ["Turkey", "Greece"],
        10,
        {"Turkey": (0, 0, 0, 1)},
        30,
        {"Turkey": (34, 0, 0, 1), "Greece": ONE},
        id="within-the-reserve",
    ),
]


@pytest.mark.parametrize(("mine", "coins", "recruits", "extra", "after"), CONSTANTINOPLE_CASES)
def test_constantinople(
    mine: list[str], coins: int, recruits: dict[str, Units], extra: int, after: dict[str, Units]
) -> None:
    game = rules()
    state = position(game, mine, coins=coins, card=SPEND_CARD)
    if extra:
        put(state, "Turkey", ME, (extra, 0, 0, 0))
    play(game, state, ME, spend(recruits))
    assert state.coins[ME] == 0
    assert units(state, list(after)) == after
    on_board = [sum(u[k] for u in after.values()) for k in range(4)]
    assert [a + b for a, b in zip(on_board, reserve(state), strict=True)] == [35, 12, 12, 4]


# ---------------------------------------------------------------------------- Kiev

KIEV_LAND = ["Rusland", "Galicia", "Polotsk", "Lithuania", "Smolensk", "Denmark"]
"""Kiev with its network (Galicia, Polotsk, Lithuania two steps away), Smolensk attacked,
Denmark not linked."""


@pytest.mark.parametrize(
    ("holds_kiev", "where", "reason"),
    [
        pytest.param(True, "Galicia", None, id="next-to-kiev"),
        pytest.param(True, "Lithuania", None, id="two-steps-along-the-network"),
        pytest.param(True, "Rusland", None, id="kiev-itself"),
        pytest.param(True, "Denmark", "not Denmark", id="not-linked"),
        pytest.param(True, "Smolensk", "not Smolensk", id="disputed"),
        pytest.param(True, "Poland", "not Poland", id="not-own"),
        pytest.param(False, "Galicia", "not Galicia", id="without-the-tile"),
    ],
)
def test_kiev_recruits_into_linked_territories(
    holds_kiev: bool, where: str, reason: str | None
) -> None:
    game = rules()
    mine = KIEV_LAND if holds_kiev else [n for n in KIEV_LAND if n != "Rusland"] + ["Hungary"]
    state = position(game, mine, ["Smolensk"], coins=4, card=SPEND_CARD)
    turn = spend({where: (0, 2, 0, 0)})
    options = EuropeGame(game.config).legal_options(state, ME)
    assert (t(where) in options.constraints["recruit_to"]) == (reason is None)
    if reason is not None:
        with pytest.raises(IllegalActionError, match=reason):
            game.check(state, ME, turn)
        return
    play(game, state, ME, turn)
    assert state.of(t(where), ME) == (1, 2, 0, 0)
    assert state.coins[ME] == 0


# ------------------------------------------------------------------------ claiming


@pytest.mark.parametrize(
    ("source", "target", "owner", "castle", "coins", "crowns", "disputed"),
    [
        pytest.param("Poland", "Hungary", NOBODY, False, 8, 2, False, id="unclaimed-city-pays-3"),
        pytest.param("Lombardy", "Rome", NOBODY, False, 9, 3, False, id="rome-pays-4-two-crowns"),
        pytest.param("Poland", "Bohemia", NOBODY, False, 5, 1, False, id="non-city-pays-nothing"),
        pytest.param("Poland", "Bohemia", NOBODY, True, 5, 1, False, id="unclaimed-castle-claimed"),
        pytest.param("Poland", "Hungary", OTHER, False, 5, 1, True, id="opponents-city-disputed"),
        pytest.param(
            "Lombardy",
            "Rome",
            NOBODY,
            True,
            9,
            3,
            False,
            id="unclaimed-castle-city-claimed-without-siege",
        ),
    ],
)
def test_claiming(
    source: str,
    target: str,
    owner: int,
    castle: bool,
    coins: int,
    crowns: int,
    disputed: bool,
) -> None:
    game = rules()
    mine = ["Poland", source] if source != "Poland" else ["Poland"]
    state = position(game, mine, castles=[target] if castle else [], card=EXPAND_CARD)
    put(state, source, ME, (2, 0, 0, 0))
    if owner != NOBODY:
        put(state, target, owner, ONE)
    move = Move(t(source), t(target), (2, 0, 0, 0))
    play(game, state, ME, Turn(order="expand", moves=(move,)))
    assert state.coins[ME] == coins
    assert game.crowns(state, ME) == crowns
    assert state.of(t(target), ME) == (2, 0, 0, 0)
    assert state.castle[t(target)] == castle
    if disputed:
        assert state.owner[t(target)] == OTHER and state.attacker[t(target)] == ME
    else:
        assert state.owner[t(target)] == ME and state.attacker[t(target)] == NOBODY


def test_a_claimed_city_pays_once() -> None:
    game = rules()
    state = position(game, ["Poland"], card=EXPAND_CARD)
    put(state, "Poland", ME, (4, 0, 0, 0))
    state.second[ME] = MANOEUVRE_CARD
    state.hand[ME] &= ~(1 << MANOEUVRE_CARD)
    move = Move(t("Poland"), t("Hungary"), (2, 0, 0, 0))
    play(game, state, ME, Turn(order="expand", moves=(move,)))
    assert state.coins[ME] == 8
    pass_turn(game, state)
    play(game, state, ME, Turn(order="manoeuvre", moves=(move,)))
    assert state.of(t("Hungary"), ME) == (4, 0, 0, 0)
    assert state.coins[ME] == 8
    assert game.crowns(state, ME) == 2


def test_split_expand_claims_each_city_once() -> None:
    game = rules()
    state = position(game, ["Bavaria"], card=MANOEUVRE_CARD)
    put(state, "Bavaria", ME, (4, 0, 0, 0))
    moves = (
        Move(t("Bavaria"), t("Swabia"), (2, 0, 0, 0)),
        Move(t("Bavaria"), t("Hungary"), (2, 0, 0, 0)),
    )
    play(game, state, ME, Turn(order="split_expand", moves=moves))
    assert state.coins[ME] == 5 + 2 + 3
    assert game.crowns(state, ME) == 2
    assert units(state, ["Bavaria", "Swabia", "Hungary"]) == {
        "Bavaria": ONE,
        "Swabia": (2, 0, 0, 0),
        "Hungary": (2, 0, 0, 0),
    }


@pytest.mark.parametrize(
    "build",
    [
        pytest.param(lambda g: spend_position(g, 40, also=["Saxony"]), id="spend-with-berlin"),
        pytest.param(lambda g: spend_position(g, 9), id="spend-few-coins"),
        pytest.param(
            lambda g: position(g, KIEV_LAND, ["Smolensk"], coins=30, card=SPEND_CARD),
            id="spend-with-kiev",
        ),
        pytest.param(
            lambda g: position(g, ["Turkey", "Greece"], coins=25, card=SPEND_CARD),
            id="spend-with-constantinople",
        ),
        pytest.param(
            lambda g: position(g, ["Swabia", "Lombardy", "Rome"], ["Lombardy"]),
            id="tax-cut-network",
        ),
    ],
)
def test_listed_choices_are_legal(build: Any) -> None:
    """The representative choices a rules-free bot picks from all pass the check."""
    game = rules()
    state = build(game)
    options = EuropeGame(game.config).legal_options(state, ME)
    assert options.kind == "turn" and len(options.listed) > 1
    for action in options.listed:
        game.check(state, ME, action)
    if options.constraints["berlin"]:
        assert options.constraints["castle_cost"] == 9
