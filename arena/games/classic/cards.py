"""RISK cards: which triples form a set, and what a set is worth under each trade-value rule."""

from __future__ import annotations

from itertools import combinations

from arena.games.classic.board import ARTILLERY, CAVALRY, INFANTRY, WILD

INCREASING = (4, 6, 8, 10, 12, 15)
FIXED_BY_TYPE = {INFANTRY: 4, CAVALRY: 6, ARTILLERY: 8}
FIXED_MIXED = 10
"""House table for ``sets=fixed`` (RISK: Global Domination's fixed bonus): three infantry 4,
three cavalry 6, three artillery 8, one of each 10. A wild stands for whatever symbol gives the
set its best value."""


def is_set(symbols: tuple[int, int, int]) -> bool:
    """Three of a symbol, one of each, or any two plus a wild."""
    if WILD in symbols:
        return True
    distinct = len(set(symbols))
    return distinct in (1, 3)


def valid_sets(hand: tuple[int, ...], symbols: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """Every set in ``hand`` (card ids, ascending), as sorted card-id triples."""
    cards = sorted(hand)
    return [
        trio
        for trio in combinations(cards, 3)
        if is_set((symbols[trio[0]], symbols[trio[1]], symbols[trio[2]]))
    ]


def has_set(hand: tuple[int, ...], symbols: tuple[int, ...]) -> bool:
    """Whether ``hand`` holds at least one set (five or more cards always do)."""
    if len(hand) >= 5:
        return True
    return bool(len(hand) >= 3 and valid_sets(hand, symbols))


def increasing_value(n: int) -> int:
    """Value of the n-th set traded in the game (1-based): 4, 6, 8, 10, 12, 15, then +5."""
    return INCREASING[n - 1] if n <= 6 else 15 + 5 * (n - 6)


def progressive_value(n: int) -> int:
    """The rule book's optional '+1' values: 4, 5, 6, 7, …"""
    return 3 + n


def fixed_value(symbols: tuple[int, int, int]) -> int:
    """Value of a set by its type (house table, see :data:`FIXED_MIXED`).

    A set may read as "three alike" when its plain symbols agree, and as "one of each" when
    they all differ; wilds fill the gaps and the better reading counts.
    """
    plain = [s for s in symbols if s != WILD]
    readings: list[int] = []
    if len(set(plain)) <= 1:
        readings.extend(FIXED_BY_TYPE[s] for s in (set(plain) or FIXED_BY_TYPE))
    if len(set(plain)) == len(plain):
        readings.append(FIXED_MIXED)
    return max(readings)


def set_value(rule: str, n: int, symbols: tuple[int, int, int]) -> int:
    """Armies for the n-th set traded in the game under trade-value ``rule``."""
    if rule == "increasing":
        return increasing_value(n)
    if rule == "progressive":
        return progressive_value(n)
    return fixed_value(symbols)
