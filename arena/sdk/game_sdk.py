"""Each game's SDK package, found by the game's name: ``arena.sdk.<game>``.

What a game adds for Python bots (its bot base class, the default answer of each of its
decision kinds, what a bot declares, its human seat) lives in the package named after it,
so the rest of the SDK names no game: it asks here, and a game without a package gets the
game-neutral behaviour.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
from types import ModuleType

from arena import games

SDK = "arena.sdk"
"""The package holding each game's SDK package, named after the game."""


@functools.cache
def package(game: str) -> ModuleType | None:
    """``arena.sdk.<game>``, or None if the game has no SDK package (a module of the SDK that
    shares the game's name, such as ``wire``, is not one)."""
    if not game.isidentifier():
        return None
    name = f"{SDK}.{game}"
    spec = importlib.util.find_spec(name)
    if spec is None or spec.submodule_search_locations is None:
        return None
    return importlib.import_module(name)


def module(game: str, part: str) -> ModuleType | None:
    """``arena.sdk.<game>.<part>`` (e.g. the game's ``human`` seat), or None without one."""
    if package(game) is None:
        return None
    return games.layer_module(f"{SDK}.{game}", part)
