"""Seeds derived from a match or run seed, shared by every game and by the arena: pure, no I/O.

The derivation is part of every replay and test: a key always yields the same 64-bit value,
whichever game, referee or runner asks. Games derive their random streams from it (classic:
:mod:`arena.games.streams`); ``arena versus`` and the ladder benchmark derive their match
seeds. Default seeds are drawn from 63 bits (they are stored as SQLite integers), out of
reach of a brute-force search. What a seat receives is keyed by the installation's secret
instead (:mod:`arena.keys`).
"""

from __future__ import annotations

import hashlib
import secrets

SEED_BITS = 63


def derive(seed: int, *key: object) -> int:
    """A 64-bit integer derived from the seed and a key (used for streams and match seeds)."""
    text = "/".join([str(seed), *map(str, key)]).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def new_seed() -> int:
    """A fresh random seed for a match, series or tournament given none."""
    return secrets.randbelow(2**SEED_BITS)
