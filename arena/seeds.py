"""Seeds derived from a match or run seed, shared by every game and by the arena.

The derivation is part of every replay and test: a key always yields the same 64-bit value,
whichever game, referee or runner asks. Games derive their random streams from it (classic:
:mod:`arena.games.streams`); the referee derives each seat's ``bot_seed``; ``arena
versus`` and the ladder benchmark derive their match seeds.
"""

from __future__ import annotations

import hashlib


def derive(seed: int, *key: object) -> int:
    """A 64-bit integer derived from the seed and a key (used for streams and bot seeds)."""
    text = "/".join([str(seed), *map(str, key)]).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def bot_seed(seed: int, seat: int) -> int:
    """The per-seat seed a bot may use for reproducible randomness of its own."""
    return derive(seed, "bot", seat)
