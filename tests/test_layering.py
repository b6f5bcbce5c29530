"""Layering: the arena above the engine goes through the game contract, not classic RISK.

A module of ``arena/`` may import ``arena.games.classic`` (absolutely or relatively) only if
its path contains ``classic`` or it sits directly in ``arena/games/`` (the registry); the
generated protocol code aside. A second game then needs no edit of any other layer.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from arena import games

ARENA = Path(__file__).resolve().parent.parent / "arena"
CLASSIC = "arena.games.classic"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ARENA.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package(path: Path) -> list[str]:
    """The package a module at ``path`` belongs to (what its relative imports start from)."""
    parts = _module_name(path).split(".")
    return parts if path.name == "__init__.py" else parts[:-1]


def _imports_of(source: str, package: list[str]) -> set[str]:
    """Absolute names a module of ``package`` imports in ``source`` (relative ones resolved;
    ``from X import y`` counts both ``X`` and ``X.y``, since ``y`` may be a module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, node.module] if node.module else base)
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def _imports_classic(names: set[str]) -> bool:
    return any(name == CLASSIC or name.startswith(CLASSIC + ".") for name in names)


def _allowed(path: Path) -> bool:
    relative = path.relative_to(ARENA)
    return (
        "classic" in str(relative)
        or relative.parent == Path("games")
        or relative.parts[:2] == ("protocol", "_pb")
    )


def classic_importers() -> set[str]:
    """Modules of arena/ outside the allowed places that import the classic game."""
    return {
        _module_name(path)
        for path in ARENA.rglob("*.py")
        if not _allowed(path) and _imports_classic(_imports_of(path.read_text(), _package(path)))
    }


def test_no_module_outside_classic_paths_imports_the_classic_game() -> None:
    found = classic_importers()
    assert not found, f"these import {CLASSIC}; go through arena.games instead: {sorted(found)}"


def test_the_protocol_imports_nothing_from_the_sdk() -> None:
    """The SDK builds its objects from what the protocol decodes, never the other way round."""
    found = {
        _module_name(path)
        for path in (ARENA / "protocol").rglob("*.py")
        if any(
            name == "arena.sdk" or name.startswith("arena.sdk.")
            for name in _imports_of(path.read_text(), _package(path))
        )
    }
    assert not found, f"these import arena.sdk: {sorted(found)}"


def test_the_import_scan_sees_absolute_and_relative_imports() -> None:
    """The scan is what the rule rests on: it must catch every spelling of the import."""
    spellings = {
        "import arena.games.classic.rules": True,
        "from arena.games.classic import ClassicRules": True,
        "from arena.games import classic": True,
        "from ..games.classic.state import Phase": True,
        "from ..games import classic": True,
        "from ..games import api": False,
        "from . import seats": False,
        "import arena.games": False,
    }
    for source, expected in spellings.items():
        assert _imports_classic(_imports_of(source, ["arena", "referee"])) is expected, source


def _importers(package: str, forbidden: tuple[str, ...]) -> set[str]:
    """Modules of ``arena/<package>`` that import (lazily too) any of ``forbidden``."""
    return {
        _module_name(path)
        for path in (ARENA / package).rglob("*.py")
        if any(
            name == f or name.startswith(f + ".")
            for name in _imports_of(path.read_text(), _package(path))
            for f in forbidden
        )
    }


def test_the_sandbox_is_below_the_referee_and_the_catalogue() -> None:
    """Bots and bot setups both run in the sandbox: it imports neither, so neither imports
    the other to start a process."""
    above = ("arena.referee", "arena.catalog", "arena.scheduler", "arena.remote", "arena.cli")
    found = _importers("sandbox", above)
    assert not found, f"these import a layer above the sandbox: {sorted(found)}"


def test_the_catalogue_does_not_import_the_referee() -> None:
    found = _importers("catalog", ("arena.referee", "arena.scheduler", "arena.remote"))
    assert not found, f"these import a layer above the catalogue: {sorted(found)}"


def test_the_engines_import_nothing_that_does_io() -> None:
    """The games are pure: of the arena they import only the contract, the errors and the
    seed derivation (not the installation key, which is a file)."""
    pure = ("arena.games", "arena.errors", "arena.seeds")
    found = {
        f"{_module_name(path)} imports {name}"
        for path in (ARENA / "games").rglob("*.py")
        for name in _imports_of(path.read_text(), _package(path))
        if name.startswith("arena.")
        and not any(name == p or name.startswith(p + ".") for p in pure)
    }
    assert not found, sorted(found)


def test_nothing_outside_the_cli_imports_it() -> None:
    """The command line is the top layer: the library below it never reaches up into it."""
    found = {
        _module_name(path)
        for path in ARENA.rglob("*.py")
        if path.relative_to(ARENA).parts[0] != "cli"
        and any(
            name == "arena.cli" or name.startswith("arena.cli.")
            for name in _imports_of(path.read_text(), _package(path))
        )
    }
    assert not found, f"these import arena.cli: {sorted(found)}"


# -- docs/architecture.md: the layers and what each may import --------------------------------

ARCHITECTURE = ARENA.parent / "docs" / "architecture.md"


def _unit(name: str) -> str | None:
    """The layer an ``arena.*`` import belongs to: its top-level package or module."""
    parts = name.split(".")
    if len(parts) < 2 or parts[0] != "arena" or not parts[1]:
        return None
    top = ARENA / parts[1]
    return f"arena.{parts[1]}" if top.is_dir() or top.with_suffix(".py").is_file() else None


def _layer_imports() -> dict[str, set[str]]:
    """Each layer's imports of other layers (lazy ones included)."""
    found: dict[str, set[str]] = {}
    for path in ARENA.rglob("*.py"):
        if path.relative_to(ARENA).parts[:2] == ("protocol", "_pb"):
            continue
        unit = _unit(_module_name(path))
        if unit is None:
            continue
        for name in _imports_of(path.read_text(), _package(path)):
            other = _unit(name)
            if other is not None and other != unit:
                found.setdefault(unit, set()).add(other)
    return found


def _documented() -> tuple[dict[str, set[str]], set[str]]:
    """The table of docs/architecture.md (layer → what it may import) and its core modules."""
    text = ARCHITECTURE.read_text()
    table: dict[str, set[str]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`arena."):
            allowed = cells[2]
            table[cells[0].strip("`")] = (
                {"*"} if allowed == "everything" else set(re.findall(r"`(arena\.\w+)`", allowed))
            )
    core_text = text[text.index("The core:") :].split("\n\n")[0]
    return table, set(re.findall(r"`(arena\.\w+)`", core_text))


def test_every_layer_imports_only_what_the_architecture_page_allows() -> None:
    table, core = _documented()
    layers = {u for u in (_unit(_module_name(p)) for p in ARENA.rglob("*.py")) if u}
    layers.discard("arena.__init__")
    assert layers - {"arena"} == set(table) | core, "docs/architecture.md lists every layer"
    wrong = []
    for unit, imported in sorted(_layer_imports().items()):
        allowed = core if unit in core else table[unit] | core
        if "*" in allowed:
            continue
        wrong += [f"{unit} imports {other}" for other in sorted(imported - allowed)]
    assert not wrong, wrong


def test_there_are_no_cycles_between_layers() -> None:
    graph = _layer_imports()

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, ()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    cycles = sorted(u for u in graph if reaches(u, u, {u}))
    assert not cycles, f"layers on an import cycle: {cycles}"


# -- the SDK: one package per game, found by the game's name ----------------------------------

SDK = ARENA / "sdk"
SDK_COMPATIBILITY = {"arena.sdk", "arena.sdk.tactics"}
"""The documented exception (docs/architecture.md, the in-process bot API): ``arena.sdk``
re-exports classic's actions and ``arena.sdk.tactics`` classic's helpers, as they did when
the SDK knew only classic, so bots written then keep working."""
SDK_LEAVING = {"arena.sdk.classic_sim"}
"""Classic search code that is to leave the SDK for the bot packages that use it."""
FINDERS = {"import_module", "__import__", "find_spec"}
"""Calls whose string argument names a module to load."""


def _game_modules() -> tuple[str, ...]:
    """Every module named after a registered game, in each layer that has one per game."""
    return tuple(
        f"arena.{layer}.{name}" for name in games.names() for layer in ("games", "protocol", "sdk")
    )


def _named_modules(source: str) -> set[str]:
    """Modules named by string in ``source``'s import_module / __import__ / find_spec calls."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            if called in FINDERS and isinstance(first, ast.Constant):
                found.add(str(first.value))
    return found


def _names_a_game(names: set[str]) -> set[str]:
    modules = _game_modules()
    return {n for n in names for m in modules if n == m or n.startswith(m + ".")}


def sdk_game_namers() -> dict[str, set[str]]:
    """Modules of arena/sdk outside its game packages that import or name a game's modules."""
    found: dict[str, set[str]] = {}
    for path in SDK.rglob("*.py"):
        relative = path.relative_to(SDK)
        if len(relative.parts) > 1 and relative.parts[0] in games.names():
            continue  # the game's own package: arena/sdk/<game>/
        module = _module_name(path)
        if module in SDK_COMPATIBILITY | SDK_LEAVING:
            continue
        source = path.read_text()
        named = _names_a_game(_imports_of(source, _package(path)) | _named_modules(source))
        if named:
            found[module] = named
    return found


def test_the_sdk_names_a_game_only_in_that_games_package() -> None:
    """What a game adds to the SDK is found by its name (``arena.sdk.<game>``); the rest of
    the SDK stays game-neutral, so a new game needs no edit of it."""
    found = sdk_game_namers()
    assert not found, f"these name a game outside arena/sdk/<game>/: {found}"


def test_the_sdk_scan_sees_imports_and_module_names() -> None:
    package = ["arena", "sdk"]
    for source, expected in {
        "from arena.sdk.classic import ClassicBot": True,
        "from . import europe": True,
        "from .europe.human import HumanBot": True,
        "import arena.games.europe.actions": True,
        "from arena.protocol import classic": True,
        "importlib.import_module('arena.sdk.europe.human')": True,
        "find_spec('arena.games.classic')": True,
        "from arena.games import names": False,
        "importlib.import_module(f'arena.sdk.{game}')": False,
        "from arena.sdk import game_sdk": False,
    }.items():
        names = _imports_of(source, package) | _named_modules(source)
        assert bool(_names_a_game(names)) is expected, source
