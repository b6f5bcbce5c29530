"""Card rules (classic.md §2, §3, §7): which triples are sets and what a set is worth.

These test :mod:`arena.games.classic.cards` directly; the engine-level trades (through
``ClassicRules.apply``) are in ``test_turn_rules.py``.
"""

from __future__ import annotations

from itertools import permutations

import pytest

from arena.games.classic import cards as cardlib
from arena.games.classic.board import ARTILLERY, CAVALRY, INFANTRY, WILD
from tests.classic_helpers import BOARD, tid

Inf, Cav, Art, Wild = INFANTRY, CAVALRY, ARTILLERY, WILD

# classic.md §2: the per-territory symbols of the deck the engine ships.
FACT_SHEET_SYMBOLS = {
    INFANTRY: (
        "Alaska|Venezuela|Peru|Argentina|Iceland|Egypt|East Africa|Congo|Kamchatka|Mongolia|"
        "China|Middle East|Siam|New Guinea"
    ),
    CAVALRY: (
        "Greenland|Alberta|Ontario|Quebec|Scandinavia|Ukraine|North Africa|Madagascar|Ural|"
        "Siberia|Yakutsk|Irkutsk|Afghanistan|India"
    ),
    ARTILLERY: (
        "Northwest Territory|Western United States|Eastern United States|Central America|Brazil|"
        "Great Britain|Northern Europe|Western Europe|Southern Europe|South Africa|Japan|"
        "Indonesia|Western Australia|Eastern Australia"
    ),
}


def test_deck_is_42_territory_cards_with_14_of_each_symbol_and_2_wilds():
    symbols = BOARD.card_symbols
    assert len(symbols) == 44
    assert symbols[42:] == (WILD, WILD)
    for symbol in (INFANTRY, CAVALRY, ARTILLERY):
        assert symbols[:42].count(symbol) == 14


@pytest.mark.parametrize("symbol", [INFANTRY, CAVALRY, ARTILLERY], ids=["inf", "cav", "art"])
def test_card_symbols_match_the_fact_sheet(symbol):
    names = FACT_SHEET_SYMBOLS[symbol].split("|")
    assert len(names) == 14
    for name in names:
        assert BOARD.card_symbols[tid(name)] == symbol, name


SET_TABLE = [
    ((Inf, Inf, Inf), True),
    ((Cav, Cav, Cav), True),
    ((Art, Art, Art), True),
    ((Inf, Cav, Art), True),
    ((Inf, Inf, Cav), False),
    ((Inf, Inf, Art), False),
    ((Cav, Cav, Inf), False),
    ((Cav, Cav, Art), False),
    ((Art, Art, Inf), False),
    ((Art, Art, Cav), False),
    ((Inf, Inf, Wild), True),
    ((Cav, Cav, Wild), True),
    ((Art, Art, Wild), True),
    ((Inf, Cav, Wild), True),
    ((Inf, Art, Wild), True),
    ((Cav, Art, Wild), True),
    ((Inf, Wild, Wild), True),
    ((Cav, Wild, Wild), True),
    ((Art, Wild, Wild), True),
]


@pytest.mark.parametrize(
    ("symbols", "expected"),
    SET_TABLE,
    ids=["".join("icaw"[s] for s in trio) for trio, _ in SET_TABLE],
)
def test_is_set_for_every_symbol_triple_in_any_order(symbols, expected):
    for order in permutations(symbols):
        assert cardlib.is_set(order) is expected


def test_set_table_covers_every_multiset_of_symbols_with_at_most_two_wilds():
    from itertools import combinations_with_replacement

    every = {
        t for t in combinations_with_replacement((Inf, Cav, Art, Wild), 3) if t.count(Wild) <= 2
    }
    assert {tuple(sorted(t)) for t, _ in SET_TABLE} == every


INF = [tid(n) for n in ("Alaska", "Venezuela", "Peru", "Argentina")]
CAV = [tid(n) for n in ("Greenland", "Alberta", "Ontario")]
ART = [tid(n) for n in ("Northwest Territory", "Brazil", "Japan")]
WILDS = [42, 43]


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ((), []),
        ((INF[0], INF[1]), []),
        ((INF[0], INF[1], CAV[0]), []),
        ((INF[0], INF[1], CAV[0], CAV[1]), []),
        ((INF[0], INF[1], INF[2]), [(INF[0], INF[1], INF[2])]),
        ((ART[0], INF[0], CAV[0]), [tuple(sorted((INF[0], CAV[0], ART[0])))]),
        (
            (INF[0], INF[1], CAV[0], ART[0]),
            sorted(
                [tuple(sorted((INF[0], CAV[0], ART[0]))), tuple(sorted((INF[1], CAV[0], ART[0])))]
            ),
        ),
        ((INF[0], CAV[0], WILDS[0]), [tuple(sorted((INF[0], CAV[0], WILDS[0])))]),
    ],
    ids=["empty", "two", "ii-c", "ii-cc", "iii", "one-each", "ii-c-a", "wild"],
)
def test_valid_sets(hand, expected):
    assert sorted(cardlib.valid_sets(hand, BOARD.card_symbols)) == sorted(expected)
    assert cardlib.has_set(hand, BOARD.card_symbols) is bool(expected)


@pytest.mark.parametrize(
    "hand",
    [
        (INF[0], INF[1], CAV[0], CAV[1], ART[0]),
        (INF[0], INF[1], CAV[0], CAV[1], INF[2]),
        (INF[0], CAV[0], CAV[1], ART[0], ART[1]),
    ],
    ids=["iicca", "iicci", "iccaa"],
)
def test_five_cards_always_hold_a_set(hand):
    assert cardlib.valid_sets(hand, BOARD.card_symbols)
    assert cardlib.has_set(hand, BOARD.card_symbols)


@pytest.mark.parametrize(
    ("n", "value"),
    [(1, 4), (2, 6), (3, 8), (4, 10), (5, 12), (6, 15), (7, 20), (8, 25), (9, 30), (12, 45)],
    ids=lambda v: str(v),
)
def test_increasing_values(n, value):
    assert cardlib.increasing_value(n) == value
    assert cardlib.set_value("increasing", n, (Inf, Inf, Inf)) == value


@pytest.mark.parametrize(
    ("n", "value"), [(1, 4), (2, 5), (3, 6), (4, 7), (10, 13)], ids=lambda v: str(v)
)
def test_progressive_values(n, value):
    assert cardlib.progressive_value(n) == value
    assert cardlib.set_value("progressive", n, (Cav, Cav, Cav)) == value


@pytest.mark.parametrize(
    ("symbols", "value"),
    [
        ((Inf, Inf, Inf), 4),
        ((Cav, Cav, Cav), 6),
        ((Art, Art, Art), 8),
        ((Inf, Cav, Art), 10),
        ((Art, Inf, Cav), 10),
        # A wild counts as whatever gives the set its best value (cards.py's documented reading).
        ((Inf, Inf, Wild), 4),
        ((Art, Art, Wild), 8),
        ((Inf, Cav, Wild), 10),
        ((Inf, Wild, Wild), 10),
    ],
    ids=["iii", "ccc", "aaa", "ica", "aic", "iiw", "aaw", "icw", "iww"],
)
def test_fixed_house_table(symbols, value):
    for n in (1, 5, 9):
        assert cardlib.set_value("fixed", n, symbols) == value
