"""The bot protocol: one envelope for every game (:mod:`arena.protocol.envelope`) and one
mapping module per game, registered here by game name (:func:`codec_for`).

Mappings load on first use, like the games themselves. The protocol imports nothing from
the SDK: the SDK builds its objects from what the envelope decodes.
"""

from __future__ import annotations

import importlib

from arena.protocol.api import GameCodec

_CODECS: dict[str, str] = {
    "classic": "arena.protocol.classic",
    "europe": "arena.protocol.europe",
}
"""Game name → module whose ``CODEC`` maps that game's messages."""

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
        codec = _LOADED[game] = importlib.import_module(_CODECS.get(game, GENERIC)).CODEC
    return codec
