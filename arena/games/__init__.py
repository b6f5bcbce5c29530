"""Game registry: each game is a pure rules package (no I/O, clocks, processes or gRPC)."""

from __future__ import annotations

from arena.errors import ConfigError

GAMES = ("classic",)


def check_game(name: str) -> str:
    """Return ``name`` if it is a known game, else raise a one-line error naming the choices."""
    if name not in GAMES:
        raise ConfigError(f"unknown game {name!r}; choose one of: {', '.join(GAMES)}")
    return name
