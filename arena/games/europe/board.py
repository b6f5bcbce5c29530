"""The RISK: Europe board: 49 territories, land borders and sea lines, 15 cities, and the
King's Orders deck, read from the data file in this package (``data/europe_board.json``).

Territories are numbered 0-48 in the data file's order; everything the engine keeps per
territory is a list indexed by that number. The board is built once and shared.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

FOOTMAN, ARCHER, CAVALRY, SIEGE = range(4)
UNIT_TYPES = ("footman", "archer", "cavalry", "siege")
"""Unit types in the engine's order (also the order of every per-type tuple)."""
UNIT_COSTS = (1, 2, 3, 10)
"""Coins per recruited unit, by type."""
ARMY_UNITS = (35, 12, 12, 4)
"""What one army holds of each type (board + army reserve + nothing else)."""
CASTLES = 8
CROWN_CARDS = 8
CASTLE_COST = 12
CROWN_CARD_COST = 10
START_COINS = 5
START_FOOTMEN = 10

ORDERS = ("expand", "split_expand", "manoeuvre", "spend", "tax")
BONUSES = ("king_me", "fortify", "siege_assault")

TILE_CITIES = {
    "london": "England",
    "paris": "France",
    "madrid": "León-Castile",
    "stockholm": "Sweden",
    "berlin": "Saxony",
    "constantinople": "Turkey",
    "kiev": "Rusland",
    "rome": "Rome",
}
"""City Bonus Tile name (the city, lower case) → its territory."""


@dataclass(frozen=True, slots=True)
class Card:
    """One King's Orders card: its two orders (choose one) and its bonus action (or None)."""

    id: int
    orders: tuple[str, str]
    bonus: str | None


@dataclass(frozen=True, slots=True)
class Board:
    """The static board (shared, never changed)."""

    names: tuple[str, ...]
    keys: tuple[str, ...]
    land: tuple[frozenset[int], ...]
    """Land neighbours of each territory."""
    sea: tuple[frozenset[int], ...]
    """Neighbours across a sea line."""
    adjacent: tuple[tuple[int, ...], ...]
    """Land and sea neighbours together, ascending (Expand, Manoeuvre and supply lines use
    both; Siege Assault only land)."""
    city: tuple[str | None, ...]
    gold: tuple[bool, ...]
    tax: tuple[int, ...]
    crowns: tuple[int, ...]
    """Crowns a city is worth to its holder (Rome 2); 0 for a territory without a city."""
    cities: tuple[int, ...]
    gold_cities: tuple[int, ...]
    tiles: dict[str, int]
    """City Bonus Tile → its territory."""
    deck: tuple[Card, ...]
    """The eight King's Orders cards every army has, ids 0-7."""
    numbers: dict[str, int]
    """Every territory's name, key and aliases (lower case) → its number."""
    data: dict[str, Any]

    @property
    def size(self) -> int:
        return len(self.names)

    def index(self, name: str) -> int:
        """The number of the territory named ``name`` (its name, key or an alias)."""
        return self.numbers[name.lower()]

    def tile(self, territory: int) -> str | None:
        """The City Bonus Tile that comes with the gold city on ``territory``, if any."""
        for tile, where in self.tiles.items():
            if where == territory:
                return tile
        return None

    def to_dict(self) -> dict[str, Any]:
        """The board a bot receives at match start (plain JSON)."""
        return {
            "territories": [
                {
                    "id": t,
                    "name": self.names[t],
                    "key": self.keys[t],
                    "land": sorted(self.land[t]),
                    "sea": sorted(self.sea[t]),
                    "city": self.city[t],
                    "gold": self.gold[t],
                    "tax": self.tax[t],
                    "crowns": self.crowns[t],
                    "tile": self.tile(t),
                }
                for t in range(self.size)
            ],
            "deck": [{"id": c.id, "orders": list(c.orders), "bonus": c.bonus} for c in self.deck],
            "unit_types": list(UNIT_TYPES),
            "unit_costs": list(UNIT_COSTS),
            "army_units": list(ARMY_UNITS),
            "castle_cost": CASTLE_COST,
            "crown_card_cost": CROWN_CARD_COST,
        }


def _order_name(text: str) -> str:
    return text.lower().replace(" ", "_")


@cache
def europe_board() -> Board:
    """The board from the package's data file (built once)."""
    text = resources.files("arena.games.europe").joinpath("data/europe_board.json").read_text()
    data = json.loads(text)
    entries = data["territories"]
    number = {e["name"]: t for t, e in enumerate(entries)}
    land = tuple(frozenset(number[n] for n in e["neighbours"]) for e in entries)
    sea = tuple(frozenset(number[n] for n in e["sea_lines"]) for e in entries)
    deck: list[Card] = []
    for group in data["kings_orders_deck_per_player"]:
        orders = tuple(_order_name(o) for o in group["orders"])
        bonus = _order_name(group["bonus"]) if group["bonus"] else None
        for _ in range(group["count"]):
            deck.append(Card(len(deck), (orders[0], orders[1]), bonus))
    cities = tuple(t for t, e in enumerate(entries) if e["is_city"])
    return Board(
        names=tuple(e["name"] for e in entries),
        keys=tuple(e["key"] for e in entries),
        land=land,
        sea=sea,
        adjacent=tuple(tuple(sorted(a | s)) for a, s in zip(land, sea, strict=True)),
        city=tuple(e["city"] for e in entries),
        gold=tuple(bool(e["gold"]) for e in entries),
        tax=tuple(int(e["tax"]) for e in entries),
        crowns=tuple(int(e["crowns"]) for e in entries),
        cities=cities,
        gold_cities=tuple(t for t in cities if entries[t]["gold"]),
        tiles={tile: number[name] for tile, name in TILE_CITIES.items()},
        deck=tuple(deck),
        numbers={
            name.lower(): t
            for t, e in enumerate(entries)
            for name in (e["name"], e["key"], *e.get("aliases", ()))
        },
        data=data,
    )
