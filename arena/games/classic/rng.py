"""Classic's random streams (``deal``, ``dice``, ``cards``): the shared keyed streams of
:mod:`arena.games.streams`, under the name classic's code and tests import."""

from arena.games.streams import BLOCK, Streams

__all__ = ["BLOCK", "Streams"]
