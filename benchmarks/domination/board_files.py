"""The classic board on both sides: Domination's ``risk.map`` names its 42 countries 1..42
(``North-West-Territory``), the arena numbers the same territories 0..41
(``Northwest Territory``). This module maps one onto the other and writes the map and cards
files Domination plays the benchmark on: ``risk.map`` with the arena's 83 borders (Domination's
lacks Iceland-Scandinavia and Great Britain-Scandinavia) and a cards file with the arena's card
symbols (Domination's ``risk.cards`` assigns other symbols), so both programs play one board."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from arena.games.classic.board import ARTILLERY, CAVALRY, INFANTRY, Board

MAP_NAME = "arena-classic.map"
CARDS_NAME = "arena-classic.cards"
SYMBOL_WORDS = {INFANTRY: "Infantry", CAVALRY: "Cavalry", ARTILLERY: "Cannon"}
"""Domination's card words for the arena's symbols (wild cards are ``wildcard``)."""
RENAMED = {"North West Territory": "Northwest Territory"}
"""Domination names whose words differ from the arena's beyond the hyphens."""


class BoardMismatch(Exception):
    """Domination's map is not the arena's classic board (one line says how)."""


@dataclass(frozen=True)
class DominationMap:
    """Domination's map file, parsed: its lines by section and its countries' names."""

    lines: list[str]
    countries: dict[int, str]
    """Country number (Domination calls it the colour) to its name."""


def read_map(path: Path) -> DominationMap:
    """Domination's ``risk.map``: every line, and the countries section."""
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    countries: dict[int, str] = {}
    section = ""
    for raw in lines:
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("["):
            section = line
        elif section == "[countries]":
            number, name = line.split()[:2]
            countries[int(number)] = name
    return DominationMap(lines, countries)


def arena_name(domination_name: str) -> str:
    """The arena's name of a Domination country name."""
    spaced = domination_name.replace("-", " ")
    return RENAMED.get(spaced, spaced)


def territory_ids(dmap: DominationMap, board: Board) -> dict[int, int]:
    """Domination country number -> arena territory id; a bijection onto the board, or
    :class:`BoardMismatch`."""
    index = {name: i for i, name in enumerate(board.names)}
    mapped: dict[int, int] = {}
    for number, name in dmap.countries.items():
        if arena_name(name) not in index:
            raise BoardMismatch(f"Domination's country {name!r} is not on the arena's board")
        mapped[number] = index[arena_name(name)]
    if sorted(mapped.values()) != list(range(board.size)):
        raise BoardMismatch(
            f"Domination's map has {len(mapped)} countries, not the arena's {board.size}"
        )
    return mapped


def map_text(dmap: DominationMap, ids: dict[int, int], board: Board) -> str:
    """Domination's map with its borders replaced by the arena's (both directions listed)."""
    number_of = {t: n for n, t in ids.items()}
    kept: list[str] = []
    section = ""
    for raw in dmap.lines:
        line = raw.strip()
        if line.startswith("["):
            section = line
            kept.append(raw)
            if section == "[borders]":
                for n in sorted(ids):
                    near = sorted(number_of[t] for t in board.neighbours[ids[n]])
                    kept.append(" ".join(str(x) for x in (n, *near)))
            continue
        if section == "[borders]" and line and not line.startswith(";"):
            continue
        if section == "[files]" and line.startswith("crd "):
            raw = f"crd {CARDS_NAME}"
        kept.append(raw)
    return "\n".join(kept) + "\n"


def cards_text(ids: dict[int, int], board: Board) -> str:
    """A cards file: one card per country with the arena's symbol, then the wild cards."""
    rows = ["[cards]"]
    for number in sorted(ids):
        rows.append(f"{SYMBOL_WORDS[board.card_symbols[ids[number]]]} {number}")
    rows.extend("wildcard" for _ in range(len(board.card_symbols) - board.size))
    rows.append("")
    rows.append("[missions]")
    return "\n".join(rows) + "\n"


def write_files(maps: Path, into: Path, board: Board) -> dict[int, int]:
    """Write the benchmark's map and cards files into ``into`` from Domination's ``maps``
    folder; the country mapping."""
    dmap = read_map(maps / "risk.map")
    ids = territory_ids(dmap, board)
    into.mkdir(parents=True, exist_ok=True)
    (into / MAP_NAME).write_text(map_text(dmap, ids, board), encoding="utf-8")
    (into / CARDS_NAME).write_text(cards_text(ids, board), encoding="utf-8")
    return ids
