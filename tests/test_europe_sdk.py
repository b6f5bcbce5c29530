"""The SDK's RISK: Europe helper against the engine: facts from views of real positions, and
exact battle odds against closed forms and the engine's own battles."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from arena.games.europe import battle
from arena.games.europe.game import GAME
from arena.games.europe.network import network as engine_network
from arena.games.europe.network import tax_value as engine_tax_value
from arena.games.streams import Streams
from arena.sdk import europe
from arena.sdk.europe import EuropeMap, battle_odds
from tests.europe_helpers import BOARD, empty, put, rules, t


def positions(players: int, seed: int, every: int = 7):
    """States met in a seeded random game (every ``every``-th decision)."""
    game = GAME.configure({}, players)
    state = game.new_game(seed)
    rng = random.Random(seed)
    n = 0
    while (decision := game.decision(state)) is not None:
        if n % every == 0:
            yield game, state
        n += 1
        picks = {
            s: rng.choice(list(game.choices(game.legal_options(state, s)))) for s in decision.seats
        }
        state = game.apply_joint(state, picks).state


def test_the_map_is_the_engines_board() -> None:
    m = EuropeMap.of(BOARD.to_dict())
    assert m.adjacent == BOARD.adjacent
    assert m.land == BOARD.land
    assert (m.tax, m.crowns, m.cities) == (BOARD.tax, BOARD.crowns, BOARD.cities)
    assert m.tiles == BOARD.tiles
    assert EuropeMap.of(m) is m


@pytest.mark.parametrize("players", [2, 3, 4])
def test_facts_from_views_match_the_engine(players: int) -> None:
    board = BOARD.to_dict()
    checked = 0
    for game, state in positions(players, seed=players):
        view = game.view(state, 0)
        for army in range(4):
            parts = europe.networks(view, board, army)
            own = sorted(x for part in parts for x in part)
            assert own == [
                x for x in range(BOARD.size) if state.owner[x] == army and state.attacker[x] == -1
            ]
            for part in parts:
                assert europe.network(view, board, army, part[-1]) == part
                assert part == engine_network(state, BOARD, army, part[0])
                assert europe.tax_value(board, part) == engine_tax_value(BOARD, part)
            values = [europe.tax_value(board, p) for p in parts]
            assert values == sorted(values, reverse=True)
            city, coins = europe.largest_network(view, board, army)
            taxable = [
                engine_tax_value(BOARD, engine_network(state, BOARD, army, c))
                for c in BOARD.cities
                if state.owner[c] == army and state.attacker[c] == -1
            ]
            assert coins == max(taxable, default=0)
            assert (city == -1) == (not taxable)
            assert europe.army_crowns(view, board, army) == game.rules.crowns(state, army)
            assert europe.army_crowns(view, board, army) == view["armies"][army]["crowns"]
            assert europe.owned(view, army) == [
                x for x in range(BOARD.size) if state.owner[x] == army
            ]
            for x in range(BOARD.size):
                assert europe.units_of(view, x, army) == state.of(x, army)
        checked += 1
    assert checked > 10


def test_a_network_of_a_territory_not_held_undisputed_is_empty() -> None:
    game = rules(4)
    state = empty(game)
    put(state, "Saxony", 0, (3, 0, 0, 0))
    put(state, "Poland", 0, (2, 0, 0, 0))
    put(state, "Poland", 1, (2, 0, 0, 0))  # disputed: cuts the line
    put(state, "Bohemia", 0, (1, 0, 0, 0))
    view = GAME.configure({}, 4).view(state, 0)
    board = BOARD.to_dict()
    assert europe.network(view, board, 0, t("Poland")) == []
    assert europe.network(view, board, 0, t("Rome")) == []
    assert europe.network(view, board, 0, t("Saxony")) == sorted([t("Saxony"), t("Bohemia")])
    assert europe.tax_value(board, [t("Saxony"), t("Bohemia")]) == 4 + 1


def test_cheapest_casualties_keep_siege_weapons_and_cavalry_longest() -> None:
    assert europe.cheapest_casualties((2, 1, 1, 1), 3) == (2, 1, 0, 0)
    assert europe.cheapest_casualties((0, 0, 2, 1), 2) == (0, 0, 2, 0)
    assert europe.cheapest_casualties((1, 0, 0, 1), 5) == (1, 0, 0, 1)


def close(odds: europe.BattleOdds, attacker: Fraction, both: Fraction = Fraction(0)) -> bool:
    defender = 1 - attacker - both
    got = (odds.attacker, odds.both, odds.defender)
    return all(
        math.isclose(g, float(w), abs_tol=1e-12)
        for g, w in zip(got, (attacker, both, defender), strict=True)
    )


def test_odds_of_small_battles_in_closed_form() -> None:
    # one footman each: only the general attack, the attacker must roll higher
    assert close(battle_odds((1, 0, 0, 0), (1, 0, 0, 0)), Fraction(15, 36))
    # a castle re-rolls the defender's die whenever it lost: the attacker must win twice
    assert close(
        battle_odds((1, 0, 0, 0), (1, 0, 0, 0), castle=True),
        sum(Fraction(1, 6) * Fraction(a - 1, 6) ** 2 for a in range(1, 7)),
    )
    assert close(battle_odds((1, 0, 0, 0), (1, 0, 0, 0), True, reroll="never"), Fraction(15, 36))
    # an archer hits first on 5+; else the general attack as above
    assert close(
        battle_odds((0, 1, 0, 0), (1, 0, 0, 0)), Fraction(1, 3) + Fraction(2, 3) * Fraction(15, 36)
    )
    # two cavalry, one each: both hit (3+) at once half of the time they both hit
    p = Fraction(2, 3)
    both = p * p
    attacker = p * (1 - p) + (1 - p) ** 2 * Fraction(15, 36)
    assert close(battle_odds((0, 0, 1, 0), (0, 0, 1, 0)), attacker, both)
    assert battle_odds((3, 0, 0, 0), (0, 0, 0, 0)).attacker == 1.0
    assert battle_odds((0, 0, 0, 0), (3, 0, 0, 0)).defender == 1.0
    with pytest.raises(ValueError):
        battle_odds((1, 0, 0, 0), (1, 0, 0, 0), reroll="ask")


def test_odds_add_up_and_grow_with_the_attack() -> None:
    last = 0.0
    for footmen in range(1, 12):
        odds = battle_odds((footmen, 0, 0, 1), (4, 1, 0, 0), castle=True)
        assert math.isclose(odds.attacker + odds.both + odds.defender, 1.0, abs_tol=1e-9)
        assert odds.attacker >= last
        last = odds.attacker
    assert (
        battle_odds((5, 0, 0, 0), (5, 0, 0, 0), True).attacker
        < battle_odds((5, 0, 0, 0), (5, 0, 0, 0), False).attacker
    )


BATTLES = [
    ((3, 0, 0, 0), (2, 0, 0, 0), False),
    ((5, 1, 1, 0), (4, 0, 0, 0), True),
    ((6, 0, 0, 1), (5, 1, 0, 0), True),
    ((2, 2, 2, 0), (3, 1, 1, 0), True),
    ((1, 0, 2, 0), (0, 1, 1, 0), False),
    ((4, 0, 1, 1), (6, 2, 0, 0), True),
]
TRIALS = 1500


def engine_battles(attacker, defender, castle: bool) -> tuple[int, int, int]:
    """(attacker wins, both gone, defender holds) over TRIALS seeded engine battles, with
    the engine's own battle code and its default policies (cheapest, auto re-roll)."""
    game = rules(4)
    where = t("Poland")
    counts = [0, 0, 0]
    for seed in range(TRIALS):
        state = empty(game, seed=seed)
        state.streams = Streams(seed)
        put(state, where, 1, defender)
        put(state, where, 0, attacker)
        state.castle[where] = castle
        battle.start(state, where)
        battle.run(state, BOARD, [])
        assert state.battle is None
        a, d = state.count(where, 0), state.count(where, 1)
        counts[0 if a and not d else 1 if not a and not d else 2] += 1
    return counts[0], counts[1], counts[2]


@pytest.mark.parametrize(("attacker", "defender", "castle"), BATTLES)
def test_exact_odds_match_the_engines_battles(attacker, defender, castle) -> None:
    odds = battle_odds(attacker, defender, castle)
    won, both, held = engine_battles(attacker, defender, castle)
    for p, n in ((odds.attacker, won), (odds.both, both), (odds.defender, held)):
        sigma = math.sqrt(max(p * (1 - p), 0.0) / TRIALS)
        # the seeds are fixed, so this never flakes; the bound is 5 standard deviations
        assert abs(n / TRIALS - p) <= 5 * sigma + 0.005, (odds, won, both, held)
