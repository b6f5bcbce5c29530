"""RISK: Europe helpers for Python bots, computed from the ``view`` and ``board`` dicts alone.

A bot gets ``request.view`` (its seat's view), ``request.options`` (the decision's
constraints) and ``self.match.board`` (the board at match start); nothing here needs the
engine's state. Facts: an army's units, its supply-line networks (own undisputed territories
linked by land borders or sea lines), the tax value of a network, its crowns; and the exact
odds of a ranked battle (:func:`battle_odds`).

The odds are **exact** (a dynamic programme over the battle's states, not a simulation):
casualties are always taken cheapest first (footmen, archers, cavalry, siege weapons), so a
side's units follow from how many it has lost, and every repetition of the ranked order
removes at least one unit, so the battle's states form a finite acyclic graph. The castle
re-roll follows the engine's ``auto`` policy (re-roll the defender's dice of the first rank
of a repetition where they scored fewer hits than the attacker's) or ``never``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import product
from math import comb
from typing import Any

from arena.games.europe.actions import (
    NO_UNITS,
    NONE,
    BattleOrder,
    Bid,
    Cards,
    Casualties,
    KeepMission,
    Kingdom,
    MercenaryBid,
    Move,
    Recruit,
    Reroll,
    Turn,
    Units,
)
from arena.games.europe.board import (
    ARCHER,
    CASTLE_COST,
    CAVALRY,
    CROWN_CARD_COST,
    FOOTMAN,
    SIEGE,
    UNIT_COSTS,
)

__all__ = [
    "ARCHER",
    "CASTLE_COST",
    "CAVALRY",
    "CROWN_CARD_COST",
    "FOOTMAN",
    "NOBODY",
    "NONE",
    "NO_UNITS",
    "SIEGE",
    "UNIT_COSTS",
    "BattleOdds",
    "BattleOrder",
    "Bid",
    "Cards",
    "Casualties",
    "EuropeMap",
    "KeepMission",
    "Kingdom",
    "MercenaryBid",
    "Move",
    "Recruit",
    "Reroll",
    "Turn",
    "Units",
    "army_crowns",
    "battle_odds",
    "cheapest_casualties",
    "largest_network",
    "network",
    "networks",
    "owned",
    "tax_value",
    "units_of",
]

NOBODY = -1
"""The owner (or attacker) of a territory nobody holds (or nobody disputes)."""


@dataclass(frozen=True, slots=True)
class EuropeMap:
    """The static board from ``MatchInfo.board`` in handy lists (territory ids index them)."""

    names: tuple[str, ...]
    land: tuple[frozenset[int], ...]
    adjacent: tuple[tuple[int, ...], ...]
    """Land and sea neighbours together (Expand, Manoeuvre, supply lines)."""
    tax: tuple[int, ...]
    """A city's tax value; 0 for a territory without a city."""
    crowns: tuple[int, ...]
    gold: tuple[bool, ...]
    tiles: dict[str, int]
    """City Bonus Tile name (``"berlin"``, ...) → its territory."""

    @property
    def size(self) -> int:
        return len(self.names)

    @property
    def cities(self) -> tuple[int, ...]:
        return tuple(t for t, tax in enumerate(self.tax) if tax)

    @classmethod
    def of(cls, board: Mapping[str, Any] | EuropeMap) -> EuropeMap:
        """The map of a board dict (built once per dict and cached), or the map itself."""
        if isinstance(board, EuropeMap):
            return board
        cached = _MAPS.get(id(board))
        if cached is not None and cached[0] is board:
            return cached[1]
        entries = board["territories"]
        made = cls(
            names=tuple(e["name"] for e in entries),
            land=tuple(frozenset(e["land"]) for e in entries),
            adjacent=tuple(tuple(sorted(set(e["land"]) | set(e["sea"]))) for e in entries),
            tax=tuple(int(e["tax"]) for e in entries),
            crowns=tuple(int(e["crowns"]) for e in entries),
            gold=tuple(bool(e["gold"]) for e in entries),
            tiles={e["tile"]: e["id"] for e in entries if e.get("tile")},
        )
        if len(_MAPS) >= MAPS_KEPT:
            _MAPS.clear()
        _MAPS[id(board)] = (board, made)
        return made


_MAPS: dict[int, tuple[Any, EuropeMap]] = {}
MAPS_KEPT = 16
"""Board dicts whose maps are kept (one per match a process plays at once is plenty)."""
BoardLike = Mapping[str, Any] | EuropeMap


def units_of(view: Mapping[str, Any], territory: int, army: int) -> Units:
    """``army``'s units on ``territory`` (footmen, archers, cavalry, siege weapons)."""
    units = view["territories"][territory]["units"].get(str(army))
    return NO_UNITS if units is None else (units[0], units[1], units[2], units[3])


def owned(view: Mapping[str, Any], army: int) -> list[int]:
    """The territories ``army`` holds (as their owner, disputed ones included)."""
    return [t for t, e in enumerate(view["territories"]) if e["owner"] == army]


def _undisputed_own(view: Mapping[str, Any], army: int) -> set[int]:
    return {
        t
        for t, e in enumerate(view["territories"])
        if e["owner"] == army and e["attacker"] == NOBODY
    }


def network(view: Mapping[str, Any], board: BoardLike, army: int, start: int) -> list[int]:
    """The territories linked to ``start`` by ``army``'s supply lines (``start`` included,
    ascending), or [] if ``start`` is not its own undisputed territory."""
    own = _undisputed_own(view, army)
    if start not in own:
        return []
    return _component(EuropeMap.of(board), own, start)


def _component(board: EuropeMap, own: set[int], start: int) -> list[int]:
    seen, frontier = {start}, [start]
    while frontier:
        t = frontier.pop()
        for u in board.adjacent[t]:
            if u in own and u not in seen:
                seen.add(u)
                frontier.append(u)
    return sorted(seen)


def networks(view: Mapping[str, Any], board: BoardLike, army: int) -> list[list[int]]:
    """Every supply-line network of ``army``, the richest (by tax value) first."""
    board = EuropeMap.of(board)
    own = _undisputed_own(view, army)
    found: list[list[int]] = []
    left = set(own)
    while left:
        part = _component(board, own, min(left))
        left -= set(part)
        found.append(part)
    found.sort(key=lambda part: (-tax_value(board, part), part[0]))
    return found


def tax_value(board: BoardLike, territories: Iterable[int]) -> int:
    """Coins a Tax over ``territories`` brings: each city's tax value, 1 per other territory."""
    tax = EuropeMap.of(board).tax
    return sum(tax[t] or 1 for t in territories)


def largest_network(view: Mapping[str, Any], board: BoardLike, army: int) -> tuple[int, int]:
    """(the city to Tax for the most coins, those coins), or (-1, 0) with no city to tax."""
    board = EuropeMap.of(board)
    best = (NOBODY, 0)
    for part in networks(view, board, army):
        cities = [t for t in part if board.tax[t]]
        value = tax_value(board, part)
        if cities and value > best[1]:
            best = (cities[0], value)
    return best


def army_crowns(view: Mapping[str, Any], board: BoardLike, army: int) -> int:
    """``army``'s crowns: its cities' crowns (Rome 2), crown cards and completed missions."""
    crowns = EuropeMap.of(board).crowns
    entry = view["armies"][army]
    held = sum(crowns[t] for t, e in enumerate(view["territories"]) if e["owner"] == army)
    return held + entry["crown_cards"] + len(entry.get("missions_completed", ()))


def cheapest_casualties(units: Sequence[int], count: int) -> Units:
    """The standing ``cheapest`` policy: footmen first, then archers, cavalry, siege weapons."""
    taken = [0, 0, 0, 0]
    for kind in range(4):
        take = min(count, units[kind])
        taken[kind] = take
        count -= take
    return (taken[0], taken[1], taken[2], taken[3])


# ------------------------------------------------------------------ battle odds

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
