"""A ladder's matchmaking: which versions sit at the next table (Halite's coordinator).

Pure: the standings in, the table out, with randomness only from the ``random.Random`` it is
given (and only its ``random()`` method, whose sequence Python keeps across versions), so a
ladder's matches are a function of its seed and what it has recorded.

The rule, per match:

1. **The seed version.** With probability :data:`IDLE_SHARE` the version idle longest (the
   most matches decided since it last sat, or since it entered), otherwise the one with the
   fewest games (decided ladder games, every table size counted). Counting games, not sigma,
   is Halite's lesson: sigma can stall, so a version seeded by sigma may never be seeded again;
   a count always catches up. A new version has none, so it is seeded at once and climbs to
   its level in its first games.
2. **The neighbourhood.** The other versions sorted by distance in mu from the seed (in the
   pool of the table's size); a window of the nearest ``k`` of them, ``k`` drawn heavy-tailed:
   ``k = seats - 1 + floor(WINDOW_SCALE * (1/u - 1))`` with ``u`` uniform in (0, 1], a Pareto
   tail of index 1, so ``P(k >= seats - 1 + x) = 1 / (1 + x / WINDOW_SCALE)``. Half the tables
   are the seed's nearest neighbours; one in ten reaches 9 versions further, one in a hundred
   99: everyone eventually meets everyone, and most games are between near equals, which is
   where a game says most about a rating.
3. **The table.** From the window, the ``seats - 1`` versions with the fewest games, counted
   with a random slack of up to :data:`GAMES_SLACK` games (``games + GAMES_SLACK * u``).
   Drawing by games inside the window is what keeps the games per version close (the seed
   rule alone would let the middle of the table play more than its ends); the slack keeps a
   wide window from always taking the same near-equals, so far versions do meet.
4. **Seats** in a random order (the seed shuffle of the table).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

IDLE_SHARE = 0.1
"""Share of matches seeded by the version idle longest rather than the one with fewest games:
enough that a version stuck behind equals in games still plays every few batches, small
enough that games stay even."""
WINDOW_SCALE = 1.0
"""Scale of the heavy-tailed neighbourhood (see the module docstring)."""
GAMES_SLACK = 2.0
"""Games within which window members compete equally for a seat. Measured on simulated
ladders (``tests/scheduler/test_ladder.py``): without slack the most-played of 5 versions had
1.27x the games of the least-played over 60 3-seat matches but only 55-60 of 12 versions' 66
pairs had met after 450; with 2 games of slack, 1.3x and 63-66 pairs; more slack bought no
more meetings."""


@dataclass(frozen=True, slots=True)
class Standing:
    """What matchmaking knows of an entered version when a match is decided."""

    version: str
    mu: float
    """Its mean skill in the pool of the table being filled."""
    games: int
    """Its ladder games decided so far (every table size)."""
    idle: int
    """Matches decided since it last sat (or since it entered)."""


def window_size(seats: int, rng: random.Random) -> int:
    """How many of the seed's nearest versions the table is drawn from (at least seats - 1)."""
    u = 1.0 - rng.random()  # in (0, 1]
    extra = WINDOW_SCALE * (1.0 / u - 1.0)
    return seats - 1 + (math.floor(extra) if extra < 1e9 else 10**9)


def choose_table(standings: Sequence[Standing], seats: int, rng: random.Random) -> list[str]:
    """The versions of one match, in seat order (rule in the module docstring)."""
    if seats < 2 or len(standings) < seats:
        raise ValueError(f"{seats} seats need at least {seats} versions, got {len(standings)}")
    ordered = sorted(standings, key=lambda s: s.version)
    key = {s.version: rng.random() for s in ordered}  # a seeded tie-break per version
    if rng.random() < IDLE_SHARE:
        seed = max(ordered, key=lambda s: (s.idle, key[s.version]))
    else:
        seed = min(ordered, key=lambda s: (s.games, key[s.version]))
    others = sorted(
        (s for s in ordered if s is not seed),
        key=lambda s: (abs(s.mu - seed.mu), s.games, key[s.version]),
    )
    window = others[: window_size(seats, rng)]
    chosen = sorted(window, key=lambda s: s.games + GAMES_SLACK * key[s.version])
    table = [seed.version] + [s.version for s in chosen[: seats - 1]]
    order = sorted(range(seats), key=lambda _: rng.random())
    return [table[i] for i in order]
