"""Bot folders: a bot is a folder with a ``bot.toml``; finding one by name or path.

``bot.toml`` keys: ``name``, ``version`` (a label), ``language``, ``description``,
``command`` (how to start it: a string split like a shell line but run without a shell, or a
list; the working directory is the bot folder), optional ``setup`` (run before first use and
again whenever the bot's files change, e.g. ``npm ci``) and, for a Python bot that can also
run in-process, ``entry = "module:Class"``, and ``games``, the games it plays (a list of game
names; ``["classic"]`` when absent): a bot entered in any other game is refused before the
match starts (:func:`check_plays`). A bot is named by its folder name under
``bots/``, by the name it was registered under (``arena bots add``, per results database)
or by a path to its folder. Nothing is ever written into a bot's folder except by its own
``setup``.

``setup`` and ``command`` run in the arena's Python environment: a leading ``python`` or
``python3`` is the arena's interpreter (``sys.executable``), a leading ``pip`` or ``pip3``
is ``sys.executable -m pip``, and that interpreter's ``bin`` folder comes first on ``PATH``
(as an activated virtual environment would have it), so what ``setup`` installs is what
the bot imports. A ``python`` command running a script of the folder's own runs it as a
module of the folder's package (:func:`arena.catalog.commands.command_argv`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from arena.errors import BotError
from arena.games import DEFAULT_GAME
from arena.games import names as registered_games
from arena.paths import bundled_bots_dir

DEFAULT_GAMES = (DEFAULT_GAME,)
"""What a ``bot.toml`` without ``games`` plays: every bot written before there were other
games is a classic bot."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot folder and what its ``bot.toml`` says."""

    name: str
    path: Path
    version: str
    language: str
    description: str
    entry: str | None
    command: str | list[str] | None = None
    setup: str | list[str] | None = None
    games: tuple[str, ...] = DEFAULT_GAMES
    """The games the bot plays (``bot.toml`` ``games``)."""


def bundled_bots() -> list[BotSpec]:
    """Every bot folder under the bundled ``bots/`` directory, by name."""
    root = bundled_bots_dir()
    if not root.is_dir():
        return []
    return [read_spec(p) for p in sorted(root.iterdir()) if (p / "bot.toml").is_file()]


def read_spec(folder: Path) -> BotSpec:
    """Read and check a bot folder's ``bot.toml``."""
    manifest = folder / "bot.toml"
    try:
        data = tomllib.loads(manifest.read_text())
    except FileNotFoundError:
        raise BotError(f"{folder} is not a bot folder: it has no bot.toml") from None
    except tomllib.TOMLDecodeError as exc:
        raise BotError(f"{manifest}: invalid TOML: {exc}") from None
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise BotError(f"{manifest}: 'name' must be a non-empty string")
    entry = data.get("entry")
    if entry is not None and (not isinstance(entry, str) or ":" not in entry):
        raise BotError(f"{manifest}: 'entry' must look like 'module:Class', got {entry!r}")
    for key in ("command", "setup"):
        value = data.get(key)
        if value is not None and not (
            (isinstance(value, str) and value.strip())
            or (isinstance(value, list) and value and all(isinstance(a, str) for a in value))
        ):
            raise BotError(f"{manifest}: {key!r} must be a command string or a list of strings")
    games = data.get("games", list(DEFAULT_GAMES))
    if not (isinstance(games, list) and games and all(isinstance(g, str) and g for g in games)):
        raise BotError(
            f"{manifest}: 'games' must be a list of game names like [\"{DEFAULT_GAME}\"], got {games!r}"
        )
    if data.get("command") is None and entry is None:
        raise BotError(f"{manifest}: give a 'command' to start the bot (or an in-process 'entry')")
    return BotSpec(
        name=name,
        path=folder.resolve(),
        version=str(data.get("version", "0")),
        language=str(data.get("language", "")),
        description=str(data.get("description", "")),
        entry=entry,
        command=data.get("command"),
        setup=data.get("setup"),
        games=tuple(dict.fromkeys(games)),
    )


def check_plays(spec: BotSpec, game: str, known: Iterable[str] | None = None) -> None:
    """Refuse a bot entered in a game its ``bot.toml`` does not list, before anything starts:
    a classic bot would only strike out of a match of another game. The one-line error names
    the games it lists, marking those not registered here (``known``, default the registry)."""
    if game in spec.games:
        return
    registered = set(registered_games() if known is None else known)
    listed = ", ".join(g if g in registered else f"{g} (unknown here)" for g in spec.games)
    raise BotError(f"bot {spec.name!r} plays {listed}, not {game}")


def is_bundled(spec: BotSpec) -> bool:
    """Whether ``spec`` is one of the bundled bots (its folder is under ``bots/``)."""
    return spec.path.parent == bundled_bots_dir().resolve()


def find_bot(
    name_or_path: str, registered: dict[str, Path] | None = None, registry: str | None = None
) -> BotSpec:
    """Resolve ``--bot`` text: a bundled bot's name, a registered bot's name (``registered``
    maps names to folders, from ``arena bots add``), or a path to a bot folder.

    ``registry`` says where the registrations come from (a database path), for the error.
    """
    candidate = Path(name_or_path)
    if ("/" in name_or_path or name_or_path.startswith(".")) and candidate.is_dir():
        return read_spec(candidate)
    bundled = bundled_bots()
    for spec in bundled:
        if spec.name == name_or_path or spec.path.name == name_or_path:
            return spec
    folder = (registered or {}).get(name_or_path)
    if folder is not None:
        if not (folder / "bot.toml").is_file():
            raise BotError(f"registered bot {name_or_path!r}: its folder {folder} is gone")
        return read_spec(folder)
    names = ", ".join(s.name for s in bundled) or "(none found)"
    # A tournament records the bundled bots it plays too: they are not "registered" ones.
    taken = {s.name for s in bundled} | {s.path.name for s in bundled}
    paths = {s.path for s in bundled}
    others = ", ".join(
        sorted(
            name
            for name, path in (registered or {}).items()
            if name not in taken and path.resolve() not in paths
        )
    )
    where = f" in {registry}" if registry else ""
    extra = (
        f"; registered{where}: {others}"
        if others
        else (f"; none registered{where}" if registry else "")
    )
    raise BotError(
        f"unknown bot {name_or_path!r}; bundled bots: {names}{extra}; or give a bot folder path"
    )
