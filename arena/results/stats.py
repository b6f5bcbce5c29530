"""Head-to-head statistics: Elo difference with an interval, likelihood of superiority, SPRT.

A game between A and B scores 1 when A finishes ahead of B, 0 when behind, ½ when level.
The Elo model maps a mean score s to ``-400·log10(1/s − 1)``. The SPRT is the usual
approximation used by engine testers (cutechess-cli, fishtest): with per-game scores of mean
x̄ and variance σ² over N games, ``LLR ≈ N·(s1 − s0)·(2x̄ − s0 − s1) / (2σ²)`` for the
hypotheses Elo = elo0 (H0) and Elo = elo1 (H1); it stops at ``ln(β/(1−α))`` (accept H0) or
``ln((1−β)/α)`` (accept H1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054


def score_of_elo(elo: float) -> float:
    """Expected score of a player ``elo`` points stronger."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of_score(score: float) -> float:
    """Elo difference for a mean score in (0, 1); ±inf at the edges."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


@dataclass(frozen=True, slots=True)
class Tally:
    """Wins, draws and losses of A against B."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5

    def variance(self) -> float:
        """Per-game variance of the score."""
        if not self.games:
            return 0.0
        mean = self.score
        n = self.games
        return (
            self.wins * (1 - mean) ** 2 + self.draws * (0.5 - mean) ** 2 + self.losses * mean**2
        ) / n

    def add(self, result: float) -> Tally:
        """The tally with one more game scored 1, ½ or 0."""
        if result == 1:
            return Tally(self.wins + 1, self.draws, self.losses)
        if result == 0:
            return Tally(self.wins, self.draws, self.losses + 1)
        return Tally(self.wins, self.draws + 1, self.losses)


def elo_interval(tally: Tally) -> tuple[float, float, float]:
    """(Elo, low, high): the estimate and its 95% interval from the score's standard error."""
    if not tally.games:
        return 0.0, -math.inf, math.inf
    error = math.sqrt(tally.variance() / tally.games)
    low = elo_of_score(tally.score - Z95 * error)
    high = elo_of_score(tally.score + Z95 * error)
    return elo_of_score(tally.score), low, high


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default); fractional successes allowed.

    Unlike the normal approximation it stays within [0, 1] and keeps its coverage near 0 and
    1, where the win rates of very weak or very strong bots lie. No trials: (0, 1).
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    spread = z * z / trials
    centre = (p + spread / 2) / (1 + spread)
    half = z * math.sqrt(p * (1 - p) / trials + spread / (4 * trials)) / (1 + spread)
    return max(0.0, centre - half), min(1.0, centre + half)


def likelihood_of_superiority(tally: Tally) -> float:
    """Probability that A is stronger than B, from wins and losses (draws carry no signal)."""
    decisive = tally.wins + tally.losses
    if not decisive:
        return 0.5
    return 0.5 * (1 + math.erf((tally.wins - tally.losses) / math.sqrt(2 * decisive)))


def sprt_llr(tally: Tally, elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0)."""
    if not tally.games:
        return 0.0
    variance = tally.variance()
    if variance == 0:
        # All games alike: use the variance of the tally with one more win and one more loss.
        variance = Tally(tally.wins + 1, tally.draws, tally.losses + 1).variance()
    s0, s1 = score_of_elo(elo0), score_of_elo(elo1)
    return tally.games * (s1 - s0) * (2 * tally.score - s0 - s1) / (2 * variance)


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """(lower, upper) LLR bounds: below lower accept H0, above upper accept H1."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def sprt_decision(
    tally: Tally, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05
) -> str | None:
    """``"H0"``, ``"H1"`` or None (keep playing)."""
    llr = sprt_llr(tally, elo0, elo1)
    lower, upper = sprt_bounds(alpha, beta)
    if llr <= lower:
        return "H0"
    if llr >= upper:
        return "H1"
    return None
