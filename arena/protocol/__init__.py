"""The bot protocol: one envelope for every game (:mod:`arena.protocol.envelope`) and one
mapping module per game, ``arena.protocol.NAME``, found by the game's name (:func:`codec_for`).

Mappings load on first use, like the games themselves. The protocol imports nothing from
the SDK: the SDK builds its objects from what the envelope decodes.
"""

from __future__ import annotations

import importlib

from arena.games import layer_module
from arena.protocol.api import GameCodec

_CODECS: dict[str, str] = {}
"""Game name → module whose ``CODEC`` maps that game's messages, for a game whose mapping
lives elsewhere (:func:`register_codec`); a shipped game's is ``arena.protocol.NAME``."""

GENERIC = "arena.protocol.generic"
"""The mapping of every game without a module of its own: JSON in the ``*_json`` fields."""


_LOADED: dict[str, GameCodec] = {}
"""Each game's mapping once imported (asked for on every message)."""


def register_codec(game: str, module: str) -> None:
    """Give ``game`` its own mapping module (one that defines ``CODEC``)."""
    _CODECS[game] = module
    _LOADED.pop(game, None)


def codec_for(game: str) -> GameCodec:
    """The wire mapping of ``game``: its own module's, else the JSON one of
    :mod:`arena.protocol.generic`."""
    codec = _LOADED.get(game)
    if codec is None:
        registered = _CODECS.get(game)
        own = importlib.import_module(registered) if registered else layer_module(__name__, game)
        found = getattr(own, "CODEC", None)  # a module named like a game but no mapping
        codec = found if found is not None else importlib.import_module(GENERIC).CODEC
        _LOADED[game] = codec
    return codec
