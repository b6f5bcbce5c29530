"""The classic board as immutable data: territory ids, names, adjacency, continents, card symbols.

Territory ids are small ints (python-chess style) indexing tuples, because the engine's hot
paths index by id. The data lives in ``data/classic_map.json`` so that maps stay data.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, TypeAlias

TerritoryId: TypeAlias = int
CardId: TypeAlias = int

INFANTRY, CAVALRY, ARTILLERY, WILD = 0, 1, 2, 3
SYMBOL_NAMES = ("infantry", "cavalry", "artillery", "wild")


@dataclass(frozen=True, slots=True)
class Continent:
    """A continent and the armies its holder gets each turn."""

    name: str
    bonus: int
    territories: tuple[TerritoryId, ...]


@dataclass(frozen=True, slots=True)
class Board:
    """Territories, adjacency, continents and the card deck of one map."""

    name: str
    names: tuple[str, ...]
    neighbours: tuple[tuple[TerritoryId, ...], ...]
    adjacent: tuple[frozenset[TerritoryId], ...]
    continents: tuple[Continent, ...]
    continent_of: tuple[int, ...]
    card_symbols: tuple[int, ...]
    """Symbol of each card; card ids 0..41 are the territory cards, the rest are wild."""

    @property
    def size(self) -> int:
        """Number of territories."""
        return len(self.names)

    @property
    def edges(self) -> list[tuple[TerritoryId, TerritoryId]]:
        """Every undirected edge once, as (lower id, higher id)."""
        return [(a, b) for a in range(self.size) for b in self.neighbours[a] if a < b]

    def territory(self, name_or_id: str | int) -> TerritoryId:
        """Resolve a territory given by id or by (case-insensitive) name."""
        if isinstance(name_or_id, int):
            if 0 <= name_or_id < self.size:
                return name_or_id
            raise ValueError(f"territory id {name_or_id!r} out of range 0..{self.size - 1}")
        lowered = name_or_id.strip().lower()
        for tid, name in enumerate(self.names):
            if name.lower() == lowered:
                return tid
        raise ValueError(f"unknown territory {name_or_id!r}")

    def to_dict(self) -> dict[str, object]:
        """The board as plain data (sent to bots at match start, kept in replays)."""
        return {
            "name": self.name,
            "territories": list(self.names),
            "neighbours": [list(n) for n in self.neighbours],
            "continents": [
                {"name": c.name, "bonus": c.bonus, "territories": list(c.territories)}
                for c in self.continents
            ],
            "card_symbols": [SYMBOL_NAMES[s] for s in self.card_symbols],
        }


def _build(data: dict[str, Any]) -> Board:
    names = tuple(data["territories"])
    index = {name: i for i, name in enumerate(names)}
    adjacent: list[set[int]] = [set() for _ in names]
    for a, b in data["adjacency"]:
        adjacent[index[a]].add(index[b])
        adjacent[index[b]].add(index[a])
    continents = tuple(
        Continent(c["name"], c["bonus"], tuple(index[t] for t in c["territories"]))
        for c in data["continents"]
    )
    continent_of = [-1] * len(names)
    for ci, continent in enumerate(continents):
        for t in continent.territories:
            continent_of[t] = ci
    symbol = {name: i for i, name in enumerate(SYMBOL_NAMES)}
    cards = tuple(symbol[data["cards"][n]] for n in names) + (WILD,) * data["wild_cards"]
    return Board(
        name=data["name"],
        names=names,
        neighbours=tuple(tuple(sorted(s)) for s in adjacent),
        adjacent=tuple(frozenset(s) for s in adjacent),
        continents=continents,
        continent_of=tuple(continent_of),
        card_symbols=cards,
    )


@cache
def classic_board() -> Board:
    """The 1993 world map (42 territories, 83 edges), loaded once."""
    text = resources.files("arena.games.classic").joinpath("data/classic_map.json").read_text()
    return _build(json.loads(text))
