"""Exact odds of a RISK: Europe battle, and the standing casualties policy they assume.

The odds are **exact** (a dynamic programme over the battle's states, not a simulation):
casualties are always taken cheapest first (footmen, archers, cavalry, siege weapons), so a
side's units follow from how many it has lost, and every repetition of the ranked order
removes at least one unit, so the battle's states form a finite acyclic graph. The castle
re-roll follows the engine's ``auto`` policy (re-roll the defender's dice of the first rank
of a repetition where they scored fewer hits than the attacker's) or ``never``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import product
from math import comb

from arena.games.europe.actions import Units
from arena.games.europe.board import ARCHER, CAVALRY, SIEGE


def cheapest_casualties(units: Sequence[int], count: int) -> Units:
    """The standing ``cheapest`` policy: footmen first, then archers, cavalry, siege weapons."""
    taken = [0, 0, 0, 0]
    for kind in range(4):
        take = min(count, units[kind])
        taken[kind] = take
        count -= take
    return (taken[0], taken[1], taken[2], taken[3])


GENERAL = 4
RANKS = ((SIEGE, 2, 4 / 6), (ARCHER, 1, 2 / 6), (CAVALRY, 1, 4 / 6))
"""Ranks 1-3: (unit type, dice per unit, chance one die hits: 3+, 5+, 3+)."""
Dist = tuple[tuple[int, int, float], ...]
"""(attacker's hits, defender's hits, probability) of one rank."""


@dataclass(frozen=True, slots=True)
class BattleOdds:
    """How an end-of-round battle ends (the three add up to 1)."""

    attacker: float
    """The attacker wins: the defender has no units left, the attacker has some."""
    both: float
    """Both sides are eliminated together: the territory becomes unclaimed."""
    defender: float
    """The defender keeps the territory."""


def battle_odds(
    attacker: Sequence[int], defender: Sequence[int], castle: bool = False, reroll: str = "auto"
) -> BattleOdds:
    """Exact odds of the ranked battle between ``attacker`` and ``defender`` (units by type),
    with casualties cheapest first and, if the defender holds a ``castle``, its re-roll
    policy ``auto`` (as the engine plays it and as every Mercenary Army plays it) or
    ``never``. Results are cached, so repeated calls are free."""
    if reroll not in ("auto", "never"):
        raise ValueError(f"reroll must be 'auto' or 'never', got {reroll!r}")
    a = (attacker[0], attacker[1], attacker[2], attacker[3])
    d = (defender[0], defender[1], defender[2], defender[3])
    return _odds(a, d, castle and reroll == "auto")


@lru_cache(maxsize=1 << 16)
def _odds(a: Units, d: Units, castle: bool) -> BattleOdds:
    if sum(d) == 0:
        return BattleOdds(float(sum(a) > 0), float(sum(a) == 0), 0.0)
    if sum(a) == 0:
        return BattleOdds(0.0, 0.0, 1.0)
    a_left = _after_losses(a)
    d_left = _after_losses(d)
    na, nd = len(a_left) - 1, len(d_left) - 1
    memo: dict[tuple[int, int, int, bool], tuple[float, float, float]] = {}

    def value(la: int, ld: int, rank: int, rerolled: bool) -> tuple[float, float, float]:
        """Outcome chances with ``la``/``ld`` units lost, about to roll ``rank``."""
        if la >= na or ld >= nd:
            if la >= na and ld >= nd:
                return (0.0, 1.0, 0.0)
            return (0.0, 0.0, 1.0) if la >= na else (1.0, 0.0, 0.0)
        if rank > GENERAL:
            rank, rerolled = 1, False
        key = (la, ld, rank, rerolled)
        found = memo.get(key)
        if found is not None:
            return found
        ua, ud = a_left[la], d_left[ld]
        if rank == GENERAL:
            dice_a, dice_d = min(3, na - la), min(2, nd - ld)
        else:
            kind, per_unit, _ = RANKS[rank - 1]
            dice_a, dice_d = ua[kind] * per_unit, ud[kind] * per_unit
        if dice_a == 0 and dice_d == 0:
            result = value(la, ld, rank + 1, rerolled)
        else:
            may_reroll = castle and not rerolled and dice_d > 0
            won, both, lost = 0.0, 0.0, 0.0
            for by_a, by_d, p, did in _rank_dist(rank, dice_a, dice_d, may_reroll):
                w, b, lo = value(min(na, la + by_d), min(nd, ld + by_a), rank + 1, rerolled or did)
                won += p * w
                both += p * b
                lost += p * lo
            result = (won, both, lost)
        memo[key] = result
        return result

    won, both, lost = value(0, 0, 1, False)
    return BattleOdds(won, both, lost)


def _after_losses(units: Units) -> list[Units]:
    """The side's units after 0, 1, ... losses taken cheapest first (last: none left)."""
    return [
        tuple(n - k for n, k in zip(units, cheapest_casualties(units, lost), strict=True))  # type: ignore[misc]
        for lost in range(sum(units) + 1)
    ]


@cache
def _binomial(n: int, p: float) -> tuple[float, ...]:
    return tuple(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1))


@cache
def _rank_dist(
    rank: int, dice_a: int, dice_d: int, may_reroll: bool
) -> tuple[tuple[int, int, float, bool], ...]:
    """(attacker's hits, defender's hits, probability, whether the defender re-rolled)."""
    if rank == GENERAL:
        return _general_dist(dice_a, dice_d, may_reroll)
    p_hit = RANKS[rank - 1][2]
    pa, pd = _binomial(dice_a, p_hit), _binomial(dice_d, p_hit)
    out: dict[tuple[int, int, bool], float] = {}
    for ha, qa in enumerate(pa):
        below = sum(pd[:ha]) if may_reroll else 0.0
        for hd, qd in enumerate(pd):
            kept = qa * qd * (0.0 if may_reroll and hd < ha else 1.0)
            if kept:
                out[(ha, hd, False)] = out.get((ha, hd, False), 0.0) + kept
            if below:
                key = (ha, hd, True)
                out[key] = out.get(key, 0.0) + qa * below * qd
    return tuple((ha, hd, p, did) for (ha, hd, did), p in out.items() if p > 0)


def _general_hits(roll_a: tuple[int, ...], roll_d: tuple[int, ...]) -> tuple[int, int]:
    by_a = by_d = 0
    for x, y in zip(sorted(roll_a, reverse=True), sorted(roll_d, reverse=True), strict=False):
        if x > y:
            by_a += 1
        else:
            by_d += 1
    return by_a, by_d


@cache
def _general_dist(
    dice_a: int, dice_d: int, may_reroll: bool
) -> tuple[tuple[int, int, float, bool], ...]:
    """Rank 4 (highest against highest, ties to the defender), by enumerating the dice."""
    if dice_d == 0:  # cannot happen while both sides have units; kept total
        return ((0, 0, 1.0, False),)
    faces = range(1, 7)
    rolls_d = list(product(faces, repeat=dice_d))
    weight = 1 / (6**dice_a * len(rolls_d))
    out: dict[tuple[int, int, bool], float] = {}
    for roll_a in product(faces, repeat=dice_a):
        fresh: dict[tuple[int, int], int] = {}
        for roll_d in rolls_d:
            pair = _general_hits(roll_a, roll_d)
            fresh[pair] = fresh.get(pair, 0) + 1
        for (ha, hd), n in fresh.items():
            if may_reroll and hd < ha:  # re-rolled: the defender's dice are drawn afresh
                for (ra, rd), m in fresh.items():
                    key = (ra, rd, True)
                    out[key] = out.get(key, 0.0) + weight * n * m / len(rolls_d)
            else:
                key = (ha, hd, False)
                out[key] = out.get(key, 0.0) + weight * n
    return tuple((ha, hd, p, did) for (ha, hd, did), p in out.items())
