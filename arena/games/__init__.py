"""Game registry: each game is a pure rules package (no I/O, clocks, processes or gRPC)
behind the contract of :mod:`arena.games.api`; ``load(name)`` gives its registry entry.

Games load on first use, so listing them costs nothing and a game's import errors stay its
own."""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from arena.errors import ConfigError
from arena.games.api import Game, GameType

_ENTRIES: dict[str, str] = {
    "classic": "arena.games.classic.game",
    "europe": "arena.games.europe.game",
}
"""Game name → module whose ``GAME`` is its :class:`~arena.games.api.GameType`."""

_COMMANDS: dict[str, str] = {}
"""Game name → module whose ``add_commands(subparsers)`` adds the game's own ``arena``
commands, for a game registered from elsewhere; the games shipped here keep theirs in
``arena.cli.NAME`` (classic: ``arena odds``), where the command line finds them by name, so
the registry names nothing above the games."""

_NARRATORS: dict[str, str] = {}
"""Game name → module whose ``replay_blocks(header, records)`` tells a replay in words
(blocks of lines, see :func:`narrator`), for a game registered from elsewhere; a shipped
game's narrator is ``arena.games.NAME.narrate``, found by name. A game without one is shown
as JSON events."""

ReplayBlocks = Callable[[dict[str, Any], list[dict[str, Any]]], Iterator[list[str]]]
"""A game's replay narrator: the header and records of a replay → blocks of lines."""


DEFAULT_GAME = "classic"
"""The game of whatever names none: a ``bot.toml`` without ``games``, a command without
``--game``, a database row or replay from before games were declared."""


def names() -> tuple[str, ...]:
    """Registered game names, in listing order."""
    return tuple(_ENTRIES)


GAMES = names()
"""The games this package ships (registered at import), in listing order."""


def register(
    name: str, module: str, *, commands: str | None = None, narrator: str | None = None
) -> None:
    """Register a game whose module ``module`` defines ``GAME`` (e.g. a game of one's own,
    or a test's); ``name`` must match that game's :attr:`GameInfo.name`. ``commands`` and
    ``narrator`` optionally name its CLI-commands and replay-narrator modules."""
    if not name or "/" in name:
        raise ConfigError(f"a game name must be non-empty and without '/', got {name!r}")
    _ENTRIES[name] = module
    if commands is not None:
        _COMMANDS[name] = commands
    if narrator is not None:
        _NARRATORS[name] = narrator


def command_module(name: str) -> str | None:
    """The module game ``name`` was registered with to add its own CLI commands, if any."""
    return _COMMANDS.get(name)


def layer_module(package: str, name: str) -> ModuleType | None:
    """The module ``package.name``: a layer's own module for game ``name`` (the protocol's
    ``arena.protocol.classic``, the CLI's ``arena.cli.classic``), or None if that layer has
    none for it. This is how each layer finds its per-game code by the game's name alone,
    so that no module outside a game's own files names the game."""
    if not name.isidentifier():
        return None
    try:
        found = importlib.util.find_spec(f"{package}.{name}")
    except ModuleNotFoundError:  # the package itself is missing
        return None
    return None if found is None else importlib.import_module(f"{package}.{name}")


def narrator(name: str) -> ReplayBlocks | None:
    """The replay narrator of game ``name``, or None if it has none (or is not registered)."""
    registered = _NARRATORS.get(name)
    if registered is not None:
        module: ModuleType | None = importlib.import_module(registered)
    elif name in _ENTRIES:
        module = layer_module(f"{__name__}.{name}", "narrate")
    else:
        module = None
    blocks: ReplayBlocks | None = getattr(module, "replay_blocks", None)
    return blocks


def check_game(name: str) -> str:
    """Return ``name`` if it is a known game, else raise a one-line error naming the choices."""
    if name not in _ENTRIES:
        raise ConfigError(f"unknown game {name!r}; choose one of: {', '.join(names())}")
    return name


def load(name: str) -> GameType:
    """The registered game ``name`` (a one-line :class:`ConfigError` if there is none)."""
    game: GameType = importlib.import_module(_ENTRIES[check_game(name)]).GAME
    if game.info.name != name:
        raise ConfigError(
            f"game module {_ENTRIES[name]} registered as {name!r} is {game.info.name!r}"
        )
    return game


def parse_rules(items: list[str], name: str) -> dict[str, str]:
    """Repeated ``KEY=VALUE`` command-line items as a dict (later items win); a malformed
    item is a one-line error naming the keys of game ``name``."""
    options: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            info = load(name).info
            keys = ", ".join(sorted(o.key for o in info.options))
            example = f", e.g. {info.options[0].key}={info.options[0].default}" if keys else ""
            raise ConfigError(
                f"rules option {item!r} is not KEY=VALUE{example}; valid keys: {keys or 'none'}"
            )
        options[key.strip().lower()] = value
    return options


def configure(name: str, items: list[str], players: int) -> Game[Any, Any, Any]:
    """Game ``name`` configured from ``--rules KEY=VALUE`` items for ``players`` seats."""
    return load(name).configure(parse_rules(items, name), players)
