"""Layering: the arena above the engine goes through the game contract, not classic RISK.

A module of ``arena/`` may import ``arena.games.classic`` (absolutely or relatively) only if
its path contains ``classic`` or it sits directly in ``arena/games/`` (the registry); the
generated protocol code aside. A second game then needs no edit of any other layer.
"""

from __future__ import annotations

import ast
import re
import tomllib
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


RL_LIBRARIES = ("numpy", "gymnasium", "pettingzoo")
"""The optional extra ``risk-arena[rl]``: only the training environments use it."""


def test_only_the_training_environments_use_the_rl_extra_and_nothing_imports_them() -> None:
    """``arena.envs`` is a leaf: the arena imports and runs without numpy, Gymnasium and
    PettingZoo, and nothing in it reaches into the environments (tests, benchmarks and
    examples do)."""
    found = set()
    for path in ARENA.rglob("*.py"):
        in_envs = path.relative_to(ARENA).parts[0] == "envs"
        for name in _imports_of(path.read_text(), _package(path)):
            top = name.split(".")[0]
            if not in_envs and (top in RL_LIBRARIES or name.startswith("arena.envs")):
                found.add(f"{_module_name(path)} imports {name}")
    assert not found, sorted(found)


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


# -- arena/web: each game in one place, its spectator, found by name -------------------------

WEB = ARENA / "web"
WEB_ASSETS = ("js", "html", "css")
"""The viewer's scripts, the page templates and the stylesheet."""


def _game_words(text: str, names: tuple[str, ...]) -> set[str]:
    """The game names ``text`` holds as a word (any case; ``_x``, ``x_y`` and ``a.x`` count)."""
    return {
        name
        for name in names
        if re.search(rf"(?<![A-Za-z0-9]){re.escape(name)}(?![A-Za-z0-9])", text, re.IGNORECASE)
    }


def python_game_names(source: str, names: tuple[str, ...]) -> list[str]:
    """Where Python ``source`` names a game in code: an import, a string (a dict key, an
    ``import_module`` argument, a default), a name or attribute; docstrings and comments
    aside."""
    tree = ast.parse(source)
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = "" if id(node) in docstrings else node.value
        elif isinstance(node, ast.ImportFrom):
            text = " ".join([node.module or "", *(a.name for a in node.names)])
        elif isinstance(node, ast.Import):
            text = " ".join(a.name for a in node.names)
        elif isinstance(node, ast.Name):
            text = node.id
        elif isinstance(node, ast.Attribute):
            text = node.attr
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            text = node.name
        elif isinstance(node, ast.arg | ast.keyword):
            text = node.arg or ""
        else:
            continue
        found += [f"line {node.lineno}: {name}" for name in sorted(_game_words(text, names))]
    return found


_COMMENTS = {
    "js": r"//[^\n]*|/\*.*?\*/",
    "css": r"/\*.*?\*/",
    "html": r"\{#.*?#\}|<!--.*?-->",
}
_STRING = r"\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`"


def asset_game_names(text: str, kind: str, names: tuple[str, ...]) -> list[str]:
    """Where a script, template or stylesheet names a game outside its comments (a
    comment's opening inside a script's string is string, not comment)."""
    strings = _STRING if kind == "js" else r"(?!)"
    code = re.sub(
        rf"({strings})|{_COMMENTS[kind]}", lambda m: m.group(1) or " ", text, flags=re.DOTALL
    )
    return [
        f"line {n}: {name}"
        for n, line in enumerate(code.splitlines(), 1)
        for name in sorted(_game_words(line, names))
    ]


def test_the_viewer_scripts_templates_and_styles_name_no_game() -> None:
    """The viewer draws what the frames say: no script or template branches on a game."""

    names = games.names()
    assets = [p for kind in WEB_ASSETS for p in WEB.rglob(f"*.{kind}")]
    assert {p.suffix for p in assets} == {f".{kind}" for kind in WEB_ASSETS}
    found = {
        f"{path.relative_to(ARENA.parent)} {where}"
        for path in assets
        for where in asset_game_names(path.read_text(), path.suffix[1:], names)
    }
    assert not found, f"these name a game; put it in the frames instead: {sorted(found)}"


def test_the_game_name_scan_sees_code_and_skips_docstrings_and_comments() -> None:
    """The scans the two rules rest on: every spelling in code is caught, no prose is."""
    names = ("chess", "go")
    python = {
        '"""A chess board."""\nx = 1\n"""About x: chess."""': [],
        "# chess\nx = 1": [],
        "import arena.games.chess": ["line 1: chess"],
        "from ..games import chess": ["line 1: chess"],
        "from .spectators.go import standing": ["line 1: go"],
        'importlib.import_module("arena.web.spectators.chess")': ["line 1: chess"],
        'STANDINGS = {"chess": f}': ["line 1: chess"],
        'game = settings.get("game") or "Chess"': ["line 1: chess"],
        "def _chess(board): ...": ["line 1: chess"],
        'pool = f"chess/{n}p"': ["line 1: chess"],
        "gone = going = 1": [],
    }
    for source, expected in python.items():
        assert python_game_names(source, names) == expected, source
    assets = {
        ('if (game === "chess") draw();', "js"): ["line 1: chess"],
        ("draw(); // chess's board is drawn the same way", "js"): [],
        ("/* a chess\nboard */ draw();", "js"): [],
        ('const svg = "http://example.org/chess";', "js"): ["line 1: chess"],
        ("{# chess #}<p>{{ game }}</p>", "html"): [],
        ('<div class="chess">', "html"): ["line 1: chess"],
        ("/* chess */ .board { }", "css"): [],
        (".go .disc { }", "css"): ["line 1: go"],
    }
    for (text, kind), expected in assets.items():
        assert asset_game_names(text, kind, names) == expected, text


COMPATIBILITY_RE_EXPORTS = {ARENA / "sdk" / "__init__.py", ARENA / "sdk" / "tactics.py"}
"""Python bots import classic's actions and helpers from ``arena.sdk`` and
``arena.sdk.tactics``, as they did before games had packages of their own: these two keep
re-exporting them (docs/architecture.md, "The in-process bot API")."""


def _a_games_own(path: Path, names: tuple[str, ...]) -> bool:
    """Whether ``path`` is one of a game's own files: a folder or module named after it in
    any layer (``games/classic/``, ``protocol/classic.py``, ``sdk/europe/``,
    ``web/spectators/europe.py``), the registry itself, or code generated from the protos."""
    relative = path.relative_to(ARENA)
    parts = {*relative.parts[:-1], relative.stem}
    generated = relative.parts[:2] == ("protocol", "_pb")  # the protos' own code
    return bool(parts & set(names)) or relative == Path("games", "__init__.py") or generated


def test_no_module_names_a_game_outside_that_games_own_files() -> None:
    """Adding a game means adding files named after it: every layer finds its per-game
    module by the game's name, so no other module names a game (in an import, a string, a
    name; docstrings and comments aside), the compatibility re-exports excepted."""

    names = games.names()
    found = {
        f"{path.relative_to(ARENA.parent)} {where}"
        for path in ARENA.rglob("*.py")
        if not _a_games_own(path, names) and path not in COMPATIBILITY_RE_EXPORTS
        for where in python_game_names(path.read_text(), names)
    }
    assert not found, f"these name a game; find it by name instead: {sorted(found)}"


def test_the_type_checker_is_strict_over_the_arena() -> None:
    """``make lint`` (and so CI) runs mypy with every strict check over arena/."""
    settings = tomllib.loads((ARENA.parent / "pyproject.toml").read_text())["tool"]["mypy"]
    assert settings.get("strict") is True and "arena" in settings["files"]


def test_the_match_loop_knows_no_wire_format() -> None:
    """The referee's loop and its messages speak the game's terms; only the seats encode
    protobuf (a remote seat) or hand the SDK's objects over (an in-process seat)."""
    for module in ("match", "messages"):
        path = ARENA / "referee" / f"{module}.py"
        found = {
            name
            for name in _imports_of(path.read_text(), _package(path))
            if name.startswith(("arena.protocol", "grpc", "google.protobuf"))
        }
        assert not found, f"arena.referee.{module} imports the wire: {sorted(found)}"
