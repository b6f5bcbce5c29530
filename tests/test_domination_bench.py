"""benchmarks/domination without Domination: the board mapping and the mirror of a recorded
Domination position (CI has no Domination; the benchmark itself is not a test)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from arena import games
from arena.games.classic.actions import Attack, Occupy, Trade
from arena.games.classic.board import classic_board
from arena.games.classic.state import Phase

HERE = Path(__file__).resolve().parent.parent / "benchmarks" / "domination"


def _module(name: str) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


board_files = _module("board_files")
adapter = _module("adapter")

# Domination's risk.map countries section, as its source has it (names and numbers only).
COUNTRIES = [
    "Alaska",
    "North-West-Territory",
    "Alberta",
    "Western-United-States",
    "Central-America",
    "Greenland",
    "Ontario",
    "Quebec",
    "Eastern-United-States",
    "Venezuela",
    "Peru",
    "Brazil",
    "Argentina",
    "Iceland",
    "Scandinavia",
    "Ukraine",
    "Great-Britain",
    "Northern-Europe",
    "Western-Europe",
    "Southern-Europe",
    "North-Africa",
    "Egypt",
    "Congo",
    "East-Africa",
    "South-Africa",
    "Madagascar",
    "Siberia",
    "Ural",
    "China",
    "Afghanistan",
    "Middle-East",
    "India",
    "Siam",
    "Yakutsk",
    "Irkutsk",
    "Mongolia",
    "Japan",
    "Kamchatka",
    "Indonesia",
    "New-Guinea",
    "Western-Australia",
    "Eastern-Australia",
]


def _map() -> object:
    lines = ["[files]", "crd risk.cards", "[countries]"]
    lines += [f"{n} {name} 1 0 0" for n, name in enumerate(COUNTRIES, 1)]
    lines += ["[borders]", "1 2"]
    return board_files.DominationMap(lines, dict(enumerate(COUNTRIES, 1)))


def test_domination_countries_map_onto_the_arena_board_one_to_one():
    board = classic_board()
    ids = board_files.territory_ids(_map(), board)
    assert sorted(ids) == list(range(1, 43))
    assert sorted(ids.values()) == list(range(42))
    assert board.names[ids[2]] == "Northwest Territory"


def test_the_written_map_has_the_arena_borders_and_cards_its_symbols():
    board = classic_board()
    dmap = _map()
    ids = board_files.territory_ids(dmap, board)
    text = board_files.map_text(dmap, ids, board)
    assert "crd arena-classic.cards" in text
    borders = text.split("[borders]")[1].strip().splitlines()
    edges = {
        frozenset((ids[int(a)], ids[int(b)]))
        for row in borders
        for a, *near in [row.split()]
        for b in near
    }
    assert edges == {frozenset(e) for e in board.edges}
    cards = board_files.cards_text(ids, board).splitlines()
    assert cards.count("wildcard") == 2
    iceland = COUNTRIES.index("Iceland") + 1
    symbol = board.card_symbols[ids[iceland]]
    assert f"{board_files.SYMBOL_WORDS[symbol]} {iceland}" in cards


def _snapshot(**change: object) -> dict[str, object]:
    """A 3-player Domination position: seat 1 holds the Americas, seat 0 Europe and Africa,
    seat 2 Asia and Oceania; 3 armies everywhere."""
    owner = [1] * 13 + [0] * 13 + [2] * 16
    snap: dict[str, object] = {
        "state": adapter.ATTACKING,
        "over": False,
        "setup_done": True,
        "current": 1,
        "me": 1,
        "winner": -1,
        "owner": owner,
        "armies": [3] * 42,
        "players": [
            {"territories": 13, "extra": 0, "cards": 2, "turns": 4},
            {"territories": 13, "extra": 0, "cards": 3, "turns": 4},
            {"territories": 16, "extra": 0, "cards": 1, "turns": 3},
        ],
        "hand": ["1", "*1", "14"],
        "deck": 30,
        "used": 8,
        "card_state": 6,
        "trade_cap": False,
        "captured": False,
        "attacker": -1,
        "defender": -1,
        "must_move": 0,
        "messages": [],
    }
    snap.update(change)
    return snap


def _mirror() -> object:
    game = games.load("classic").configure({}, 3)
    ids = board_files.territory_ids(_map(), game.rules.board)
    return game, ids, adapter.Mirror(game, 1, ids, (True, True, True))


def test_a_recorded_attack_position_becomes_the_arena_view_and_options():
    game, ids, mirror = _mirror()
    snap = _snapshot()
    phase = mirror.phase(snap)
    assert phase == Phase.ATTACK
    state = mirror.state(snap, phase)
    view = game.view(state, 1)
    assert view["phase"] == "attack" and view["turn_seat"] == 1 and view["round"] == 3
    assert view["card_counts"] == [2, 3, 1] and view["deck_size"] == 30
    assert view["sets_traded"] == 2 and view["next_set_value"] == 8
    alaska, kamchatka = ids[1], ids[38]
    assert sorted(view["hand"]) == sorted([alaska, 43, ids[14]])
    options = game.legal_options(state, 1)
    assert (alaska, kamchatka, 2) in options.attacks
    assert all(state.owner[src] == 1 for src, _, _ in options.attacks)
    assert mirror.commands(Attack(alaska, kamchatka, 2), phase) == ["attack 1 38"]


def test_trades_offer_no_territory_bonus_and_name_domination_cards():
    game, _, mirror = _mirror()
    snap = _snapshot(state=adapter.TRADE)
    snap["players"][1]["extra"] = 7  # type: ignore[index]
    state = mirror.state(snap, mirror.phase(snap))
    options = game.legal_options(state, 1)
    assert options.kind == "trade" and options.bonus_territories == ()
    assert state.to_place == 7
    trio = options.sets[0]
    words = mirror.commands(Trade(trio), Phase.TRADE)[0].split()
    assert words[0] == "trade" and sorted(words[1:]) == ["1", "14", "wildcard"]


def test_an_occupation_counts_the_dice_armies_as_moved():
    game, _, mirror = _mirror()
    owner = _snapshot()["owner"]
    snap = _snapshot(state=adapter.BATTLE_WON, attacker=1, defender=38, must_move=3)
    snap["owner"] = [1 if n == 37 else o for n, o in enumerate(owner)]  # type: ignore[union-attr]
    snap["armies"] = [9 if n == 0 else 0 if n == 37 else 3 for n in range(42)]
    state = mirror.state(snap, mirror.phase(snap))
    options = game.legal_options(state, 1)
    assert (options.min_armies, options.max_armies) == (3, 8)
    assert mirror.commands(Occupy(5), Phase.OCCUPY) == ["move 5"]


def test_the_sets_traded_follow_dominations_increasing_values():
    assert [adapter.sets_traded(v) for v in (0, 4, 6, 8, 10, 12, 15, 20, 25)] == list(range(9))
