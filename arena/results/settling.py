"""When a rating has settled: its sigma is under :data:`SETTLED_SIGMA`; and how many more
games a version needs to get there.

TrueSkill's sigma shrinks with every game and, because of the dynamics ``TAU``, levels off
near 0.8 for a bot that plays steadily; 1.5 is well above that floor, so every version that
keeps playing gets there (about 30 two-player games, fewer in larger tables, from the prior
8.33), and it is a fifth of the prior: the version's ``mu`` is known to about ±3 points, less
than the gap that gives one bot a 70 % edge over another (``BETA`` = 4.17). A ladder run with
``--until-settled`` stops once every entered version is settled.

**Games still needed** (:func:`games_needed`). Each game first widens a rating by the
dynamics (``σ² + τ²``) and then adds what the game told about it to its precision
(``1/σ²``). The model takes that information per game, ``r``, as constant: the mean of
``1/σ_after² − 1/(σ_before² + τ²)`` over the version's last :data:`RECENT_GAMES` games (the
recent games are the ones like those to come: opponents as well known as now, the same
table size). Then ``σ²`` follows ``x → 1 / (1/(x + τ²) + r)`` game after game, which levels
off at the floor ``x*`` where ``1/x* = 1/(x* + τ²) + r``. A version whose floor is above
:data:`SETTLED_SIGMA` never settles at its rate (:data:`NEVER`); otherwise the estimate is
the number of steps to reach it, counted up to :data:`MAX_ESTIMATE` (beyond which it says
"more than" that).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from arena.results.ratings import TAU

SETTLED_SIGMA: float = 1.5
"""A rating whose sigma is at most this has settled."""
RECENT_GAMES: int = 10
"""The games whose information per game the estimate averages (the version's latest)."""
MAX_ESTIMATE: int = 1000
"""Games counted before the estimate gives up and says "more than" this."""
NEVER: str = "never"
"""The estimate of a version whose sigma levels off above :data:`SETTLED_SIGMA`."""


def is_settled(sigma: float) -> bool:
    """Whether a rating with this uncertainty has settled."""
    return sigma <= SETTLED_SIGMA


@dataclass(frozen=True, slots=True)
class Change:
    """One game's rating change of one version: sigma before and after."""

    sigma_before: float
    sigma_after: float


def information_per_game(changes: Sequence[Change], tau: float = TAU) -> float | None:
    """The mean precision a game added, over the last :data:`RECENT_GAMES` games (None
    without any)."""
    recent = changes[-RECENT_GAMES:]
    if not recent:
        return None
    gains = [1 / c.sigma_after**2 - 1 / (c.sigma_before**2 + tau * tau) for c in recent]
    return sum(gains) / len(gains)


def sigma_floor(rate: float, tau: float = TAU) -> float:
    """The sigma a version levels off at when every game adds ``rate`` of precision:
    the positive root of ``r·x² + r·τ²·x − τ² = 0`` (x = σ²); infinite when ``rate`` ≤ 0."""
    if rate <= 0:
        return math.inf
    t2 = tau * tau
    x = (-rate * t2 + math.sqrt((rate * t2) ** 2 + 4 * rate * t2)) / (2 * rate)
    return math.sqrt(x)


def games_to_settle(
    sigma: float, rate: float, tau: float = TAU, settled: float = SETTLED_SIGMA
) -> int | str:
    """Games until ``sigma`` is at most ``settled`` at ``rate`` per game: 0 if it already is,
    :data:`NEVER` if its floor is above it, at most ``MAX_ESTIMATE + 1`` (read: more than
    :data:`MAX_ESTIMATE`)."""
    if sigma <= settled:
        return 0
    if sigma_floor(rate, tau) >= settled:
        return NEVER
    variance, target, t2 = sigma * sigma, settled * settled, tau * tau
    for games in range(1, MAX_ESTIMATE + 1):
        variance = 1 / (1 / (variance + t2) + rate)
        if variance <= target:
            return games
    return MAX_ESTIMATE + 1


def games_needed(changes: Sequence[Change], tau: float = TAU) -> int | str | None:
    """The games a version still needs to settle, from its own rating history in one pool
    (oldest first): 0 when settled, :data:`NEVER`, a count (above :data:`MAX_ESTIMATE`: more
    than that), or None when it has played no game yet."""
    rate = information_per_game(changes, tau)
    if rate is None:
        return None
    return games_to_settle(changes[-1].sigma_after, rate, tau)
