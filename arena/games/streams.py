"""Keyed random streams derived from the match seed, shared by every game's engine.

Each stream (classic: ``deal``, ``dice``, ``cards``) is an endless sequence whose *i*-th
value depends only on ``(seed, stream, i)``. States keep only counters into the streams, so copying a state is
cheap, ``(rules, seed, actions)`` replays a match exactly, two matches with the same seed roll
the same dice even when play diverges, and nothing a seat can see reveals a future value.
Values are produced in blocks by a Mersenne Twister seeded from a SHA-256 of the key; the
blocks are cached on the shared :class:`Streams` object, which is never copied. The key
derivation is the arena's (:func:`arena.seeds.derive`), shared with the bots' seeds.
"""

from __future__ import annotations

import random

from arena.seeds import derive

BLOCK = 1024


class Streams:
    """The random streams of one match. Shared (not copied) between states of that match."""

    __slots__ = ("_blocks", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._blocks: dict[tuple[str, int], list[float]] = {}

    def _block(self, stream: str, index: int) -> list[float]:
        key = (stream, index)
        block = self._blocks.get(key)
        if block is None:
            rnd = random.Random(derive(self.seed, stream, index)).random
            block = [rnd() for _ in range(BLOCK)]
            self._blocks[key] = block
        return block

    def unit(self, stream: str, i: int) -> float:
        """The *i*-th value of ``stream``, uniform in [0, 1)."""
        return self._block(stream, i // BLOCK)[i % BLOCK]

    def die(self, i: int) -> int:
        """The *i*-th die of the match, 1..6."""
        return int(self._block("dice", i // BLOCK)[i % BLOCK] * 6) + 1

    def dice(self, i: int, n: int) -> tuple[int, ...]:
        """Dice ``i .. i+n-1`` of the match (the same values as :meth:`die` one by one)."""
        start = i % BLOCK
        if start + n <= BLOCK:
            block = self._block("dice", i // BLOCK)
            return tuple([int(u * 6) + 1 for u in block[start : start + n]])
        return tuple([self.die(k) for k in range(i, i + n)])

    def pick(self, stream: str, i: int, n: int) -> int:
        """A uniform index in ``range(n)`` taken from the *i*-th value of ``stream``."""
        return int(self.unit(stream, i) * n)

    def rng(self, stream: str) -> random.Random:
        """A private generator for a one-off use of ``stream`` (the initial deal)."""
        return random.Random(derive(self.seed, stream, "rng"))
