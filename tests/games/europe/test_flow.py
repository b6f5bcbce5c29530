"""RISK: Europe's flow pinned to the rules: the secret bid, kingdom placement, the Mercenary
Armies, cards and hands, the win and its tie-breaks, elimination and the crown's rescue, the
Kingdom Missions variant, what each seat may see, default actions and forfeits."""

from __future__ import annotations

from typing import Any

import pytest

from arena.errors import IllegalActionError
from arena.games.europe.actions import (
    Action,
    BattleOrder,
    Bid,
    Cards,
    Casualties,
    KeepMission,
    Kingdom,
    MercenaryBid,
    Move,
    Reroll,
    Turn,
)
from arena.games.europe.board import ARMY_UNITS
from arena.games.europe.config import ARMIES, EuropeConfig
from arena.games.europe.game import EuropeGame
from arena.games.europe.rules import FULL_HAND, EuropeRules
from arena.games.europe.state import NOBODY, EuropeState
from arena.games.europe.view import HIDDEN
from tests.europe_helpers import BOARD, ScriptedDice, empty, my_turn, put, rules, t

GOLD = [BOARD.names[c] for c in BOARD.gold_cities]


def contract(players: int = 4, **options: str) -> EuropeGame:
    return EuropeGame(EuropeConfig.parse(options, players))


def answer_defaults(game: EuropeGame, state: EuropeState) -> EuropeState:
    """One decision answered by every seat it names with its default action."""
    decision = game.decision(state)
    assert decision is not None
    picks = {s: game.default_action(state, s) for s in decision.seats}
    return game.apply_joint(state, picks).state


def to_phase(game: EuropeGame, state: EuropeState, phase: str, round_: int) -> EuropeState:
    """Default answers until ``phase`` of round ``round_`` (or the end)."""
    while state.phase != "over" and not (state.phase == phase and state.round == round_):
        state = answer_defaults(game, state)
    return state


def bid_state(players: int = 4, ties: list[int] | None = None, **options: str) -> EuropeState:
    game = rules(players, **options)
    state = game.new_game(7)
    if ties is not None:
        state.streams = ScriptedDice((), ties)
    return state


# --------------------------------------------------------------------------- bid

BIDS = [
    pytest.param({0: 1, 1: 0, 2: 4, 3: 0}, [], 2, [5, 5, 1, 5], id="highest-pays"),
    pytest.param(
        {0: 3, 1: 5, 2: 0, 3: 5}, [2, 6], 3, [5, 5, 5, 0], id="tie-by-dice-among-the-tied"
    ),
    pytest.param(
        {0: 2, 1: 2, 2: 2, 3: 2}, [4, 4, 1, 3, 2, 5], 1, [5, 3, 5, 5], id="tied-highest-roll-again"
    ),
    pytest.param({0: 0, 1: 0, 2: 0, 3: 0}, [1, 1, 1, 6], 3, [5, 5, 5, 5], id="nobody-bids"),
]


@pytest.mark.parametrize(("bids", "ties", "winner", "coins"), BIDS)
def test_bid(bids: dict[int, int], ties: list[int], winner: int, coins: list[int]) -> None:
    game = rules()
    state = bid_state(ties=ties)
    decision = game.decision(state)
    assert decision is not None
    assert (decision.kind, decision.seats, decision.simultaneous) == ("bid", (0, 1, 2, 3), True)
    step = game.apply_joint(state, {s: Bid(c) for s, c in bids.items()})
    after = step.state
    assert (after.marker, after.coins, after.ties) == (winner, coins, len(ties))
    assert after.phase == "kingdom"
    assert after.queue == [(winner + i) % 4 for i in range(4)]
    assert [e for e in step.events if e["type"] == "bids"] == [
        {"type": "bids", "bids": [bids[s] for s in range(4)]}
    ]
    next_up = game.decision(after)
    assert next_up is not None and (next_up.kind, next_up.seats) == ("kingdom", (winner,))


BAD_BIDS = [
    pytest.param(5, 6, "bid 0-5 coins, not 6", id="over-five"),
    pytest.param(5, -1, "bid 0-5 coins, not -1", id="negative"),
    pytest.param(3, 4, "bid 0-3 coins, not 4", id="over-the-coins"),
]


@pytest.mark.parametrize(("coins", "bid", "reason"), BAD_BIDS)
def test_bid_refused(coins: int, bid: int, reason: str) -> None:
    game = rules()
    state = bid_state()
    state.coins[1] = coins
    with pytest.raises(IllegalActionError, match=reason):
        game.check(state, 1, Bid(bid))
    with pytest.raises(IllegalActionError, match=f"seat 1: {reason}"):
        game.apply_joint(state, {0: Bid(0), 1: Bid(bid), 2: Bid(0), 3: Bid(0)})


def test_bid_needs_every_seat() -> None:
    game = rules()
    with pytest.raises(IllegalActionError, match="every seat of the bid answers"):
        game.apply_joint(bid_state(), {0: Bid(1), 1: Bid(0), 2: Bid(0)})
    with pytest.raises(IllegalActionError, match="apply_joint"):
        game.apply_unchecked(bid_state(), 0, Bid(1))


# --------------------------------------------------------------------------- kingdoms


def kingdom_state(players: int = 4, winner: int = 2) -> tuple[EuropeRules, EuropeState]:
    game = rules(players)
    state = game.new_game(7)
    bids = {s: Bid(1 if s == winner else 0) for s in range(players)}
    return game, game.apply_joint(state, bids).state


def test_kingdom_placement_exact() -> None:
    game, state = kingdom_state()
    game.check(state, 2, Kingdom(t("Rome"), t("Kingdom of Sicily"), 7))
    game.apply_unchecked(state, 2, Kingdom(t("Rome"), t("Kingdom of Sicily"), 7))
    assert state.owner[t("Rome")] == 2 and state.owner[t("Kingdom of Sicily")] == 2
    assert state.of(t("Rome"), 2) == (7, 0, 0, 0)
    assert state.of(t("Kingdom of Sicily"), 2) == (3, 0, 0, 0)
    assert state.castle[t("Rome")] and state.castles_left == 7
    assert state.coins[2] == 5 - 1 + 4  # paid the bid, collected Rome's tax value
    assert game.crowns(state, 2) == 2  # Rome is worth two crowns
    assert state.reserve[8:12] == [25, 12, 12, 4]
    assert state.queue == [3, 0, 1]
    # by sea: England with Normandy
    game.apply_unchecked(state, 3, Kingdom(t("England"), t("Normandy"), 1))
    assert state.of(t("Normandy"), 3) == (9, 0, 0, 0) and state.coins[3] == 8
    assert game.crowns(state, 3) == 1
    game.apply_unchecked(state, 0, Kingdom(t("France"), -1, 10))
    assert state.of(t("France"), 0) == (10, 0, 0, 0)
    game.apply_unchecked(state, 1, Kingdom(t("Saxony"), t("Friesland"), 9))
    # all placed: round 1 starts, turn order from the first player
    assert (state.round, state.phase, state.order) == (1, "cards", [2, 3, 0, 1])
    assert [state.home[a] for a in range(4)] == [t("France"), t("Saxony"), t("Rome"), t("England")]


BAD_KINGDOMS = [
    pytest.param(Kingdom(t("Ireland"), -1, 10), "choose a free Gold Crown City", id="not-gold"),
    pytest.param(Kingdom(t("Lorraine"), -1, 10), "choose a free Gold Crown City", id="no-city"),
    pytest.param(Kingdom(t("France"), -1, 10), "choose a free Gold Crown City", id="taken"),
    pytest.param(
        Kingdom(t("England"), t("Ireland"), 5),
        "not a non-city territory next to London",
        id="city-neighbour",
    ),
    pytest.param(
        Kingdom(t("England"), t("Denmark"), 5),
        "not a non-city territory next to London",
        id="not-adjacent",
    ),
    pytest.param(
        Kingdom(t("England"), t("Normandy"), 5),
        "Normandy is already claimed",
        id="claimed-neighbour",
    ),
    pytest.param(
        Kingdom(t("England"), t("Scotland"), 10), "1-9 in the city", id="all-ten-with-a-neighbour"
    ),
    pytest.param(Kingdom(t("England"), t("Scotland"), 0), "1-9 in the city", id="none-in-the-city"),
    pytest.param(Kingdom(t("England"), -1, 9), "all 10 footmen go in the city", id="nine-alone"),
]


@pytest.mark.parametrize(("kingdom", "reason"), BAD_KINGDOMS)
def test_kingdom_refused(kingdom: Kingdom, reason: str) -> None:
    game, state = kingdom_state()
    game.apply_unchecked(state, 2, Kingdom(t("France"), t("Normandy"), 5))
    with pytest.raises(IllegalActionError, match=reason):
        game.check(state, 3, kingdom)
    with pytest.raises(IllegalActionError, match="seat 0 is not to decide now"):
        game.check(state, 0, Kingdom(t("England"), -1, 10))


# --------------------------------------------------------------------------- mercenaries

MERCENARIES = [pytest.param(3, id="3-players"), pytest.param(2, id="2-players")]


@pytest.mark.parametrize("players", MERCENARIES)
def test_mercenary_armies_and_two_kingdoms(players: int) -> None:
    game = rules(players)
    state = game.new_game(11)
    mercs = list(range(players, ARMIES))
    for merc in mercs:
        held = [c for c in BOARD.gold_cities if state.owner[c] == merc]
        assert len(held) == 2 and state.home[merc] in held
        assert [state.castle[c] for c in held].count(True) == 1
        assert all(state.of(c, merc) == (10, 0, 0, 0) for c in held)
        assert state.coins[merc] == 5 + sum(BOARD.tax[c] for c in held)
        assert game.crowns(state, merc) == sum(BOARD.crowns[c] for c in held)
    assert state.castles_left == 8 - len(mercs)
    state = game.apply_joint(state, {s: Bid(0 if s else 1) for s in range(players)}).state
    assert state.queue == list(range(players)) * 2
    for _ in range(2 * players):
        seat = state.queue[0]
        city = next(c for c in BOARD.gold_cities if state.owner[c] == NOBODY)
        game.apply_unchecked(state, seat, Kingdom(city, -1, 10))
    assert all(state.owner[c] != NOBODY for c in BOARD.gold_cities)  # all 8 in play
    for seat in range(players):
        held = [c for c in BOARD.gold_cities if state.owner[c] == seat]
        assert len(held) == 2 and [state.castle[c] for c in held] == [True, False]
        assert state.home[seat] == held[0]
    assert state.castles_left == 8 - 4
    assert (state.round, state.phase) == (1, "mercenary_bid")
    assert state.order == [*range(players), *mercs]  # the mercenaries act last
    decision = game.decision(state)
    assert decision is not None
    assert (decision.kind, decision.seats, decision.simultaneous) == (
        "mercenary_bid",
        tuple(range(players)),
        True,
    )


def merc_round(players: int = 3) -> tuple[EuropeGame, EuropeState]:
    game = contract(players)
    state = to_phase(game, game.new_game(5), "mercenary_bid", 1)
    return game, state


MERC_BIDS = [
    pytest.param({0: (3,), 1: (2,), 2: (0,)}, [], 0, 3, id="highest-pays-the-treasury"),
    pytest.param({0: (2,), 1: (2,), 2: (1,)}, [3, 5], 1, 2, id="tie-by-dice"),
    pytest.param({0: (0,), 1: (0,), 2: (0,)}, [], NOBODY, 0, id="no-bid-no-controller"),
]


@pytest.mark.parametrize(("bids", "ties", "controller", "paid"), MERC_BIDS)
def test_mercenary_bid(
    bids: dict[int, tuple[int, ...]], ties: list[int], controller: int, paid: int
) -> None:
    game, state = merc_round()
    state.coins[:3] = [6, 6, 6]
    merc_coins = state.coins[3]
    if ties:
        state.streams, state.ties = ScriptedDice((), ties), 0
    state = game.apply_joint(state, {s: MercenaryBid(b) for s, b in bids.items()}).state
    assert state.controller[3] == controller
    expected = [6, 6, 6, merc_coins + paid]
    if controller != NOBODY:
        expected[controller] -= paid
    assert state.coins == expected
    state = answer_defaults(game, state)  # the seats' cards
    if controller == NOBODY:
        assert state.first[3] == -1 and state.phase == "turn"
        assert 3 not in state.queue  # it plays no cards this round
        return
    decision = game.decision(state)
    assert decision is not None
    assert (decision.kind, decision.seats) == ("mercenary_cards", (controller,))
    game.rules.check(state, controller, Cards(5, 6))
    state = game.apply(state, controller, Cards(5, 6)).state
    assert (state.first[3], state.second[3]) == (5, 6)
    assert state.queue[-1] == 3  # acting last
    while state.queue and state.queue[0] != 3:
        state = answer_defaults(game, state)
    decision = game.decision(state)
    assert decision is not None and decision.seats == (controller,)


BAD_MERC_BIDS = [
    pytest.param((6,), "totalling at most your 5 coins", id="over-the-coins"),
    pytest.param((-1,), "bids ≥ 0", id="negative"),
    pytest.param((1, 1), "bid once for each Mercenary Army", id="too-many"),
]


@pytest.mark.parametrize(("bid", "reason"), BAD_MERC_BIDS)
def test_mercenary_bid_refused(bid: tuple[int, ...], reason: str) -> None:
    game, state = merc_round()
    state.coins[1] = 5
    with pytest.raises(IllegalActionError, match=reason):
        game.check(state, 1, MercenaryBid(bid))


def test_two_players_bid_for_each_mercenary() -> None:
    game, state = merc_round(2)
    state.coins[:2] = [9, 9]
    state.streams = ScriptedDice((), [])
    bids = {0: MercenaryBid((4, 1)), 1: MercenaryBid((3, 5))}
    with pytest.raises(IllegalActionError, match="totalling at most your 9 coins"):
        game.check(state, 1, MercenaryBid((5, 5)))
    coins = state.coins[2:]
    state = game.apply_joint(state, bids).state
    assert state.controller[2:] == [0, 1]
    assert state.coins == [5, 4, coins[0] + 4, coins[1] + 5]


# --------------------------------------------------------------------------- cards

BAD_CARDS = [
    pytest.param(Cards(3, 3), "two different cards", id="same-card"),
    pytest.param(Cards(2, 8), "card 8 is not in the hand", id="no-such-card"),
    pytest.param(Cards(1, 4), "card 1 is not in the hand", id="played-before"),
]


@pytest.mark.parametrize(("cards", "reason"), BAD_CARDS)
def test_cards_refused(cards: Cards, reason: str) -> None:
    game = contract()
    state = to_phase(game, game.new_game(3), "cards", 1)
    state.hand[2] = FULL_HAND & ~0b11
    with pytest.raises(IllegalActionError, match=reason):
        game.check(state, 2, cards)


def test_hand_returns_when_empty_every_fifth_round() -> None:
    game = contract()
    state = game.new_game(3)
    sizes = []
    for round_ in range(1, 7):
        state = to_phase(game, state, "cards", round_)
        sizes.append([bin(h).count("1") for h in state.hand])
    assert sizes == [[8] * 4, [6] * 4, [4] * 4, [2] * 4, [8] * 4, [6] * 4]


def test_cards_played_in_turn_order() -> None:
    game = contract()
    state = to_phase(game, game.new_game(3), "cards", 1)
    start = state.marker
    cards = {s: Cards(0, 1) for s in range(4)}
    step = game.apply_joint(state, cards)
    state = step.state
    assert [e["army"] for e in step.events if e["type"] == "revealed"] == [start]
    revealed = [start]
    while state.phase == "turn":
        step = game.apply_joint(state, {state.queue[0]: Turn()})
        state = step.state
        revealed += [e["army"] for e in step.events if e["type"] == "revealed"]
    order = [(start + i) % 4 for i in range(4)]
    assert revealed == order + order
    assert all(state.hand[s] == FULL_HAND & ~0b11 for s in range(4))


# --------------------------------------------------------------------------- the win


def last_turn(game: EuropeRules, holdings: dict[int, list[str]]) -> EuropeState:
    """Army 0 about to play the round's last turn (card 0, nothing to do); each army holds
    the territories given (one footman each)."""
    state = empty(game)
    for army, names in holdings.items():
        for name in names:
            put(state, name, army, (1, 0, 0, 0))
    my_turn(state, game, 0, 0, turn=2)
    return state


WINS = [
    pytest.param({}, {0: 6}, {}, 0, "crowns", (1, 2, 2, 2), 0, id="seven-crowns-wins"),
    pytest.param({}, {0: 5}, {}, NOBODY, None, None, None, id="six-crowns-play-on"),
    pytest.param({}, {0: 6, 1: 5}, {}, 0, "crowns", (1, 2, 3, 3), 0, id="more-crowns"),
    pytest.param(
        {1: ["Rome"]}, {0: 6, 1: 3}, {}, 0, "crowns", (1, 2, 3, 3), 0, id="rome-two-crowns"
    ),
    pytest.param(
        {1: ["Normandy"]}, {0: 6, 1: 6}, {}, 0, "crowns", (2, 1, 3, 3), 1, id="then-territories"
    ),
    pytest.param({}, {0: 6, 1: 6}, {0: 9, 1: 8}, 3, "crowns", (1, 2, 4, 3), 0, id="then-coins"),
    pytest.param(
        {}, {0: 6, 1: 6}, {0: 9, 1: 8}, 1, "crowns", (2, 1, 3, 3), 1, id="marker-counts-ten"
    ),
    pytest.param(
        {}, {0: 6, 1: 6}, {0: 8, 1: 8}, 2, "crowns", (1, 1, 3, 4), None, id="shared-place"
    ),
]

HOLDINGS = {0: ["England"], 1: ["France"], 2: ["Saxony"], 3: ["Sweden"]}


@pytest.mark.parametrize(
    ("more", "crown_cards", "coins", "marker", "end", "places", "winner"), WINS
)
def test_win_at_the_end_of_a_round(
    more: dict[int, list[str]],
    crown_cards: dict[int, int],
    coins: dict[int, int],
    marker: int,
    end: str | None,
    places: tuple[int, ...] | None,
    winner: int | None,
) -> None:
    game = rules()
    holdings = {a: HOLDINGS[a] + more.get(a, []) for a in range(4)}
    state = last_turn(game, holdings)
    for army, n in crown_cards.items():
        state.crown_cards[army] = n
    for army, n in coins.items():
        state.coins[army] = n
    state.marker = marker
    game.apply_unchecked(state, 0, Turn())
    assert state.end == end
    outcome = game_of(game).outcome(state)
    if end is None:
        assert outcome is None and (state.round, state.phase) == (2, "cards")
        return
    assert outcome is not None
    assert (outcome.places, outcome.winner, outcome.end_reason) == (places, winner, end)


def game_of(game: EuropeRules) -> EuropeGame:
    return EuropeGame(game.config)


def test_crowns_to_win_one_ends_after_round_one() -> None:
    game = contract(crowns_to_win="1")
    state = to_phase(game, game.new_game(9), "never", 99)
    assert state.end == "crowns" and state.round == 1
    assert game.progress(state) == {"rounds": 1, "turns": 8}
    outcome = game.outcome(state)
    assert outcome is not None and outcome.end_reason == "crowns"
    keys = {s: game.rules.standing_key(state, s) for s in range(4)}
    best = max(keys.values())
    assert {s for s in range(4) if outcome.places[s] == 1} == {
        s for s in range(4) if keys[s] == best
    }


def test_round_limit() -> None:
    game = contract(max_rounds="2")
    state = to_phase(game, game.new_game(9), "never", 99)
    assert (state.end, state.round) == ("round_limit", 2)
    assert game.progress(state) == {"rounds": 2, "turns": 16}
    outcome = game.outcome(state)
    assert outcome is not None and outcome.end_reason == "round_limit"


# --------------------------------------------------------------------------- elimination


def round_end_state(game: EuropeRules, army_two: list[str], crown_cards: int) -> EuropeState:
    state = empty(game)
    for army, name in ((0, "England"), (1, "France"), (3, "Sweden")):
        put(state, name, army, (2, 0, 0, 0))
    for name in army_two:
        put(state, name, 2, (3, 1, 0, 1))
    state.castle[t("Burgundy")] = True
    state.coins[2] = 7
    state.crown_cards[2] = crown_cards
    state.crown_cards_left = 8 - crown_cards
    my_turn(state, game, 0, 0, turn=2)
    return state


def test_eliminated_without_a_city() -> None:
    game = rules()
    state = round_end_state(game, ["Burgundy", "Lombardy"], 0)
    events = game.apply_unchecked(state, 0, Turn())
    assert not state.alive[2] and state.out == [2]
    assert state.reserve[8:12] == list(ARMY_UNITS)
    assert all(state.count(tt, 2) == 0 for tt in range(BOARD.size))
    assert state.owner[t("Burgundy")] == NOBODY and state.owner[t("Lombardy")] == NOBODY
    assert state.castle[t("Burgundy")]  # a castle stays
    assert state.coins[2] == 0
    assert {"type": "eliminated", "army": 2, "why": "no city"} in events
    assert state.order == [0, 1, 3]
    decision = game.decision(state)
    assert decision is not None and decision.seats == (0, 1, 3)


SAVED = [
    pytest.param([], False, id="still-without-a-city-next-round"),
    pytest.param(["Rome"], True, id="reclaims-a-city"),
]


@pytest.mark.parametrize(("claims", "survives"), SAVED)
def test_saved_by_the_crown_for_one_round(claims: list[str], survives: bool) -> None:
    game = rules()
    state = round_end_state(game, ["Burgundy"], 1)
    events = game.apply_unchecked(state, 0, Turn())
    assert {"type": "saved_by_the_crown", "army": 2} in events
    assert state.alive[2] and state.cityless[2] == 1 and state.round == 2
    assert state.owner[t("Burgundy")] == 2 and state.coins[2] == 7
    for name in claims:
        put(state, name, 2, (1, 0, 0, 0))
    contract_game = game_of(game)
    state = to_phase(contract_game, state, "cards", 3)
    assert state.alive[2] == survives
    if survives:
        assert state.cityless[2] == -1 and state.crown_cards[2] == 1
        return
    assert state.out == [2] and state.crown_cards[2] == 0
    assert state.crown_cards_left == 7  # it left the game, not back to the bank
    assert state.owner[t("Burgundy")] == NOBODY


def test_mercenary_without_a_city_is_eliminated() -> None:
    game = rules(3)
    state = empty(game)
    for army, name in ((0, "England"), (1, "France"), (2, "Saxony")):
        put(state, name, army, (2, 0, 0, 0))
    put(state, "Lombardy", 3, (2, 0, 0, 0))
    my_turn(state, game, 0, 0, turn=2)
    game.apply_unchecked(state, 0, Turn())
    assert not state.alive[3] and state.out == [] and state.owner[t("Lombardy")] == NOBODY
    assert (state.round, state.phase) == (2, "cards")  # no mercenary left to bid for


# --------------------------------------------------------------------------- missions


def king_me_reveal(game: EuropeRules) -> EuropeState:
    state = empty(game)
    for army, name in enumerate(("England", "France", "Saxony", "Sweden")):
        put(state, name, army, (2, 0, 0, 0))
    state.phase = "cards"
    cards = {0: Cards(0, 1), 1: Cards(2, 0), 2: Cards(0, 1), 3: Cards(0, 1)}
    state = game.apply_joint(state, cards).state
    game.apply_unchecked(state, 0, Turn())
    return state


@pytest.mark.parametrize("keep", [0, 1])
def test_king_me_draws_two_missions(keep: int) -> None:
    game = rules(missions="true")
    state = king_me_reveal(game)
    deck = list(state.deck)
    assert state.crown_cards_left == 0 and len(state.deck) == 6
    drawn = state.drawn
    assert drawn is not None and state.marker == 1
    decision = game.decision(state)
    assert decision is not None and (decision.kind, decision.seats) == ("mission", (1,))
    with pytest.raises(IllegalActionError, match="keep mission 0 or 1, not 2"):
        game.check(state, 1, KeepMission(2))
    events = game.apply_unchecked(state, 1, KeepMission(keep))
    assert state.missions[1] == [drawn[keep]]
    assert state.deck == [*deck, drawn[1 - keep]]  # the other to the bottom
    kept = [e for e in events if e["type"] == "mission_kept"]
    assert kept == [{"type": "mission_kept", "army": 1, "seat": 1, "mission": drawn[keep]}]
    assert game_of(game).redact(kept[0], 0)["mission"] == HIDDEN
    assert game_of(game).redact(kept[0], 1)["mission"] == drawn[keep]
    views = [game_of(game).view(state, s) for s in range(4)]
    assert views[1]["armies"][1]["missions"] == [drawn[keep]]
    assert all("missions" not in views[s]["armies"][1] for s in (0, 2, 3))
    assert all(views[s]["armies"][1]["missions_held"] == 1 for s in range(4))
    decision = game.decision(state)
    assert decision is not None and (decision.kind, decision.seats) == ("turn", (1,))


def test_completed_mission_gives_a_crown() -> None:
    game = rules(missions="true")
    state = empty(game)
    for name in ("Scotland", "England", "Wales"):
        put(state, name, 0, (2, 0, 0, 0))
    put(state, "France", 1, (1, 0, 0, 0))
    state.missions[0] = [6]  # the British Isles
    state.deck.remove(6)
    my_turn(state, game, 0, 3)
    state.first[3], state.queue = 0, [0, 3]
    before = game.crowns(state, 0)
    turn = Turn("expand", (Move(t("Wales"), t("Ireland"), (1, 0, 0, 0)),))
    events = game.apply_unchecked(state, 0, turn)
    assert state.missions[0] == [] and state.completed[0] == [(6, 1)]
    assert game.crowns(state, 0) == before + 2  # Dublin's crown and the mission's
    assert any(e["type"] == "mission_completed" and e["mission"] == 6 for e in events)


def test_no_crown_cards_for_sale_with_missions() -> None:
    game = rules(missions="true")
    state = empty(game)
    put(state, "England", 0, (2, 0, 0, 0))
    state.coins[0] = 20
    my_turn(state, game, 0, 0)
    with pytest.raises(IllegalActionError, match="not for sale in the Kingdom Missions variant"):
        game.check(state, 0, Turn("spend", crown=True))


# --------------------------------------------------------------------------- secrecy


def test_chosen_cards_hidden_until_revealed() -> None:
    game = contract()
    state = to_phase(game, game.new_game(3), "cards", 1)
    start = state.marker
    other = (start + 1) % 4
    step = game.apply_joint(state, {s: Cards(s % 2, 3 + s % 2) for s in range(4)})
    state = step.state
    chosen = [e for e in step.events if e["type"] == "cards_chosen"]
    assert len(chosen) == 4
    for event in chosen:
        for seat in range(4):
            seen = game.redact(event, seat)
            mine = event["seat"] == seat
            assert (seen["first"], seen["second"]) == (
                (event["first"], event["second"]) if mine else (HIDDEN, HIDDEN)
            )
    view = game.view(state, other)
    assert view["armies"][start]["cards"] == [start % 2, HIDDEN]  # the first is face up
    assert view["armies"][(start + 2) % 4]["cards"] == [HIDDEN, HIDDEN]
    assert view["armies"][other]["cards"] == [other % 2, 3 + other % 2]
    assert "hand" not in view["armies"][start] and view["armies"][start]["hand_size"] == 6
    while state.phase == "turn" and state.turn == 1:
        state = game.apply_joint(state, {state.queue[0]: Turn()}).state
    view = game.view(state, other)
    assert view["armies"][start]["cards"] == [start % 2, 3 + start % 2]  # turn 2: face up
    assert view["armies"][(start + 2) % 4]["cards"] == [(start + 2) % 2, HIDDEN]


def test_mercenary_cards_seen_by_its_controller_only() -> None:
    game, state = merc_round()
    state.coins[:3] = [5, 5, 5]
    state = game.apply_joint(
        state, {0: MercenaryBid((0,)), 1: MercenaryBid((2,)), 2: MercenaryBid((0,))}
    ).state
    state = answer_defaults(game, state)
    step = game.apply_joint(state, {1: Cards(6, 7)})
    state = step.state
    event = next(e for e in step.events if e["type"] == "cards_chosen")
    assert (event["army"], event["seat"]) == (3, 1)
    assert game.redact(event, 1)["first"] == 6 and game.redact(event, 0)["first"] == HIDDEN
    assert game.view(state, 1)["armies"][3]["cards"] == [6, 7]
    assert game.view(state, 1)["armies"][3]["hand"] == [0, 1, 2, 3, 4, 5]
    for seat in (0, 2):
        assert game.view(state, seat)["armies"][3]["cards"] == [HIDDEN, HIDDEN]
        assert "hand" not in game.view(state, seat)["armies"][3]


def test_bids_are_revealed_together_after_all() -> None:
    game = contract()
    state = game.new_game(3)
    assert all(game.view(state, s)["phase"] == "bid" for s in range(4))
    step = game.apply_joint(state, {0: Bid(2), 1: Bid(1), 2: Bid(0), 3: Bid(0)})
    assert [e["type"] for e in step.events][:2] == ["bids", "marker"]


# --------------------------------------------------------------------------- defaults


def at_kind(kind: str) -> tuple[EuropeGame, EuropeState]:
    if kind in ("bid", "kingdom"):
        game = contract()
        state = game.new_game(3)
        return game, state if kind == "bid" else answer_defaults(game, state)
    if kind in ("mercenary_bid", "mercenary_cards"):
        game, state = merc_round()
        if kind == "mercenary_cards":
            state.coins[0] = 5
            picks: dict[int, Action] = {s: MercenaryBid((1 if s == 0 else 0,)) for s in range(3)}
            state = game.apply_joint(state, picks).state
            state.hand[3] = FULL_HAND & ~0b101
            state = answer_defaults(game, state)
        return game, state
    if kind in ("cards", "turn"):
        game = contract()
        state = to_phase(game, game.new_game(3), "cards", 1)
        if kind == "turn":
            state = answer_defaults(game, state)
        else:
            state.hand[0] = FULL_HAND & ~0b11
        return game, state
    if kind == "mission":
        game = contract(missions="true")
        return game, king_me_reveal(game.rules)
    game = contract()
    declarations = [{"battle_order": "ask", "castle_reroll": "ask", "casualties": "ask"}] * 4
    state = empty(game.rules, dice=[6, 1, 2, 3], declarations=declarations)
    for army, name in enumerate(("England", "France", "Saxony", "Sweden")):
        put(state, name, army, (2, 0, 0, 0))
    if kind == "battle_order":
        for name in ("Rome", "Lombardy"):
            put(state, name, 0, (1, 0, 0, 0))
            put(state, name, 1, (1, 0, 0, 0))
        state.disputes = [t("Rome"), t("Lombardy")]
        state.phase = "battle_order"
        return game, state
    if kind == "reroll":
        put(state, "Burgundy", 0, (3, 0, 0, 0))
        put(state, "Burgundy", 1, (4, 0, 0, 0))
        state.castle[t("Burgundy")] = True
        state.streams = ScriptedDice([6, 1, 2, 3, 4])
        state.phase = "battle_order"
        game.rules._advance(state, [])
        return game, state
    put(state, "Burgundy", 1, (4, 1, 0, 0))
    put(state, "Lorraine", 0, (1, 0, 0, 2))
    state.streams = ScriptedDice([6, 6, 6, 6])
    my_turn(state, game.rules, 0, 5)
    state.queue = [0, 3]
    state.first[3] = 0
    turn = Turn(bonus="siege_assault", bonus_source=t("Lorraine"), bonus_target=t("Burgundy"))
    game.rules.apply_unchecked(state, 0, turn)
    return game, state


DEFAULTS: list[Any] = [
    pytest.param("bid", lambda s: Bid(0), id="bid"),
    pytest.param("kingdom", lambda s: Kingdom(t("England"), -1, 10), id="kingdom"),
    pytest.param("mercenary_bid", lambda s: MercenaryBid((0,)), id="mercenary_bid"),
    pytest.param("cards", lambda s: Cards(2, 3), id="cards"),
    pytest.param("mercenary_cards", lambda s: Cards(1, 3), id="mercenary_cards"),
    pytest.param("turn", lambda s: Turn(), id="turn"),
    pytest.param("mission", lambda s: KeepMission(0), id="mission"),
    pytest.param(
        "battle_order", lambda s: BattleOrder((t("Lombardy"), t("Rome"))), id="battle_order"
    ),
    pytest.param("reroll", lambda s: Reroll(0), id="reroll"),
    pytest.param("casualties", lambda s: Casualties((4, 0, 0, 0)), id="casualties"),
]


@pytest.mark.parametrize(("kind", "expected"), DEFAULTS)
def test_default_action(kind: str, expected: Any) -> None:
    game, state = at_kind(kind)
    decision = game.decision(state)
    assert decision is not None and decision.kind == kind
    seat = decision.seats[0]
    action = game.default_action(state, seat)
    assert action == expected(state)
    game.check(state, seat, action)


# --------------------------------------------------------------------------- forfeits


def test_forfeit_mid_game_the_game_goes_on() -> None:
    game = contract()
    state = to_phase(game, game.new_game(3), "cards", 2)
    step = game.forfeit(state, 1)
    after = step.state
    assert not after.alive[1] and after.out == [1]
    assert all(after.count(tt, 1) == 0 for tt in range(BOARD.size))
    assert 1 not in after.owner
    decision = game.decision(after)
    assert decision is not None and decision.seats == (0, 2, 3)
    after = to_phase(game, after, "cards", 3)
    assert after.order == [s for s in after.order if s != 1] and 1 not in after.order
    assert game.outcome(after) is None


def test_forfeit_leaving_one_seat_ends_by_elimination() -> None:
    game = contract(2)
    state = to_phase(game, game.new_game(3), "cards", 1)
    after = game.forfeit(state, 0).state
    assert after.phase == "over" and after.end == "elimination"
    outcome = game.outcome(after)
    assert outcome is not None
    assert (outcome.places, outcome.winner, outcome.end_reason) == ((2, 1), 1, "elimination")
    assert all(after.count(tt, 0) == 0 for tt in range(BOARD.size))


def test_forfeit_during_own_turn() -> None:
    game = contract()
    state = to_phase(game, game.new_game(3), "cards", 1)
    state = answer_defaults(game, state)
    first = state.queue[0]
    after = game.forfeit(state, first).state
    assert after.revealed == after.queue[0] != first
    decision = game.decision(after)
    assert decision is not None and decision.kind == "turn" and first not in decision.seats
    assert all(after.count(tt, first) == 0 for tt in range(BOARD.size))


def test_a_mercenarys_crowns_never_end_the_game() -> None:
    game = rules(3)
    state = empty(game)
    for army, name in enumerate(("England", "France", "Saxony", "Rome")):
        put(state, name, army, (1, 0, 0, 0))
    state.crown_cards[3] = 8
    my_turn(state, game, 0, 0, turn=2)
    game.apply_unchecked(state, 0, Turn())
    assert state.end is None and (state.round, state.phase) == (2, "mercenary_bid")
    assert game.crowns(state, 3) == 10


def test_drawn_missions_seen_by_the_drawer_only() -> None:
    game = contract(missions="true")
    state = king_me_reveal(game.rules)
    assert state.drawn is not None
    assert game.view(state, 1)["drawn"] == list(state.drawn)
    assert all("drawn" not in game.view(state, s) for s in (0, 2, 3))


def test_places_of_seats_out_later_out_first() -> None:
    game = contract()
    state = to_phase(game, game.new_game(3), "cards", 1)
    state = game.forfeit(state, 2).state
    state = game.forfeit(state, 0).state
    state = game.forfeit(state, 3).state
    outcome = game.outcome(state)
    assert outcome is not None
    assert (outcome.places, outcome.winner, outcome.end_reason) == ((3, 1, 4, 2), 1, "elimination")
    assert game.out_order(state) == (2, 0, 3)


MISSION_BONUSES = [
    pytest.param(
        1,
        1,
        Turn(bonus="fortify", bonus_target=t("England")),
        (4, 0, 0, 0),
        0,
        id="fortify-same-round",
    ),
    pytest.param(
        1,
        2,
        Turn(bonus="fortify", bonus_target=t("England")),
        (5, 0, 0, 0),
        0,
        id="fortify-next-round",
    ),
    pytest.param(
        0,
        2,
        Turn(bonus="fortify", bonus_target=t("England")),
        (4, 0, 0, 0),
        0,
        id="even-no-fortify",
    ),
    pytest.param(0, 1, Turn("tax", tax_city=t("England")), (1, 2, 0, 0), 4, id="tax-same-round"),
    pytest.param(0, 2, Turn("tax", tax_city=t("England")), (1, 2, 0, 0), 6, id="tax-next-round"),
    pytest.param(1, 2, Turn("tax", tax_city=t("England")), (1, 2, 0, 0), 4, id="odd-no-tax"),
]


@pytest.mark.parametrize(("mission", "now", "turn", "england", "coins"), MISSION_BONUSES)
def test_mission_bonus_from_the_next_round(
    mission: int, now: int, turn: Turn, england: tuple[int, int, int, int], coins: int
) -> None:
    game = rules(missions="true")
    state = empty(game)
    put(state, "England", 0, (1, 0, 0, 0))
    put(state, "Scotland", 0, (1, 0, 0, 0))
    state.completed[0] = [(mission, 1)]
    state.round = now
    card = 3 if turn.bonus == "fortify" else 0
    my_turn(state, game, 0, card)
    state.first[3], state.queue = 0, [0, 3]
    game.check(state, 0, turn)
    game.apply_unchecked(state, 0, turn)
    assert state.of(t("England"), 0) == england  # London's tile: 2 archers on a Tax
    assert state.coins[0] == 5 + coins  # London 3 + Scotland 1 (+2)
    assert game.crowns(state, 0) == 2


def test_a_completed_mission_saves_by_the_crown() -> None:
    game = rules(missions="true")
    state = empty(game)
    for army, name in ((0, "England"), (1, "France"), (3, "Sweden")):
        put(state, name, army, (2, 0, 0, 0))
    put(state, "Burgundy", 2, (2, 0, 0, 0))
    state.completed[2] = [(5, 1)]
    my_turn(state, game, 0, 0, turn=2)
    events = game.apply_unchecked(state, 0, Turn())
    assert {"type": "saved_by_the_crown", "army": 2} in events
    assert state.alive[2] and state.cityless[2] == 1


def test_eliminated_defender_leaves_the_dispute_to_its_attacker() -> None:
    game = rules()
    state = round_end_state(game, ["Burgundy"], 0)
    put(state, "Burgundy", 0, (2, 0, 0, 0))  # army 0 attacks army 2 there
    state.battles = []
    state.disputes = []  # the battle is not fought: army 2 leaves before it
    events = game.apply_unchecked(state, 0, Turn())
    assert {"type": "eliminated", "army": 2, "why": "no city"} in events
    assert state.owner[t("Burgundy")] == 0 and state.attacker[t("Burgundy")] == NOBODY


def test_forfeit_of_a_mercenarys_controller_skips_its_turn() -> None:
    game, state = merc_round()
    state.coins[:3] = [5, 5, 5]
    bids: dict[int, Action] = {s: MercenaryBid((2 if s == 1 else 0,)) for s in range(3)}
    state = game.apply_joint(state, bids).state
    state = answer_defaults(game, state)
    state = game.apply_joint(state, {1: Cards(0, 1)}).state
    while state.queue and state.queue[0] != 3:
        state = answer_defaults(game, state)
    decision = game.decision(state)
    assert decision is not None and (decision.kind, decision.seats) == ("turn", (1,))
    after = game.forfeit(state, 1).state
    assert after.controller[3] == NOBODY and after.alive[3]
    decision = game.decision(after)
    assert decision is not None and decision.kind == "turn" and 3 not in after.queue[:1]
    assert decision.seats[0] in (0, 2)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_default_play_to_the_round_limit(players: int) -> None:
    game = contract(players, max_rounds="6")
    state = to_phase(game, game.new_game(21), "never", 99)
    assert (state.end, state.round) == ("round_limit", 6)
    assert game.progress(state)["rounds"] == 6
    assert all(state.alive[s] for s in range(players))
    assert [bin(h).count("1") for h in state.hand[:players]] == [4] * players
