"""Game registry: each game is a pure rules package (no I/O, clocks, processes or gRPC)
behind the contract of :mod:`arena.games.api`; ``load(name)`` gives its registry entry.

Games load on first use, so listing them costs nothing and a game's import errors stay its
own."""

from __future__ import annotations

import importlib

from arena.errors import ConfigError
from arena.games.api import GameType

_ENTRIES: dict[str, str] = {"classic": "arena.games.classic.game"}
"""Game name → module whose ``GAME`` is its :class:`~arena.games.api.GameType`."""


def names() -> tuple[str, ...]:
    """Registered game names, in listing order."""
    return tuple(_ENTRIES)


GAMES = names()
"""The games this package ships (registered at import), in listing order."""


def register(name: str, module: str) -> None:
    """Register a game whose module ``module`` defines ``GAME`` (e.g. a game of one's own,
    or a test's); ``name`` must match that game's :attr:`GameInfo.name`."""
    if not name or "/" in name:
        raise ConfigError(f"a game name must be non-empty and without '/', got {name!r}")
    _ENTRIES[name] = module


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
