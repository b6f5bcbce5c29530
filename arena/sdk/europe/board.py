"""RISK: Europe facts from the ``view`` and ``board`` dicts alone: the board in handy lists
(:class:`EuropeMap`), an army's units and territories, its supply-line networks (own
undisputed territories linked by land borders or sea lines), the tax value of a network, its
crowns. Nothing here needs the engine's state."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from arena.games.europe.actions import NO_UNITS, Units

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
    return int(held + entry["crown_cards"] + len(entry.get("missions_completed", ())))
