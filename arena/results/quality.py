"""Match quality: how even a table was, by the ratings its seats brought to it.

A match's quality is TrueSkill's ``quality()`` of the seats' ratings *before* it (every seat
its own team): the probability of a draw relative to the most even match possible, 1 for
equal ratings known exactly, near 0 for a mismatch. It is computed here in closed form for
one-player teams (the same value as the ``trueskill`` library, which builds general matrices
and is some fifty times slower): with ``A`` the (n − 1) × n matrix of neighbouring seats'
differences, ``M = β²·AAᵀ + A·diag(σ²)·Aᵀ`` and ``d = A·μ``,
``quality = sqrt(det(β²·AAᵀ) / det(M)) · exp(−½·dᵀM⁻¹d)``, where ``det(AAᵀ) = n``.

A tournament's quality is summarized per pool: the mean, and the mean of each third of its
matches in plan order, so one can see matchmaking tighten as a ladder learns the ratings.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from arena.results.ratings import BETA

Rating = tuple[float, float]
"""(mu, sigma)."""


def _cholesky(matrix: list[list[float]]) -> list[list[float]]:
    """The lower triangle L with L·Lᵀ = matrix (symmetric positive definite)."""
    size = len(matrix)
    lower = [[0.0] * size for _ in range(size)]
    for i in range(size):
        for j in range(i + 1):
            total = matrix[i][j] - sum(lower[i][k] * lower[j][k] for k in range(j))
            lower[i][j] = math.sqrt(total) if i == j else total / lower[j][j]
    return lower


def match_quality(ratings: Sequence[Rating], beta: float = BETA) -> float:
    """TrueSkill's quality of a match of one-player teams with these (mu, sigma) ratings."""
    n = len(ratings)
    if n < 2:
        raise ValueError(f"a match needs at least 2 seats, got {n}")
    beta2 = beta * beta
    if n == 2:
        (mu_a, sigma_a), (mu_b, sigma_b) = ratings
        spread = 2 * beta2 + sigma_a**2 + sigma_b**2
        return math.sqrt(2 * beta2 / spread) * math.exp(-((mu_a - mu_b) ** 2) / (2 * spread))
    variances = [sigma * sigma for _, sigma in ratings]
    size = n - 1
    m = [[0.0] * size for _ in range(size)]
    for i in range(size):
        m[i][i] = 2 * beta2 + variances[i] + variances[i + 1]
        if i + 1 < size:
            m[i][i + 1] = m[i + 1][i] = -beta2 - variances[i + 1]
    lower = _cholesky(m)
    # forward substitution: y = L⁻¹d, so dᵀM⁻¹d = |y|²
    y: list[float] = []
    for i in range(size):
        d = ratings[i][0] - ratings[i + 1][0]
        y.append((d - sum(lower[i][k] * y[k] for k in range(i))) / lower[i][i])
    log_det_m = 2 * sum(math.log(lower[i][i]) for i in range(size))
    log_ratio = size * math.log(beta2) + math.log(n) - log_det_m
    return math.exp(0.5 * log_ratio - 0.5 * sum(v * v for v in y))


def thirds(values: Sequence[float]) -> list[list[float]]:
    """The values split into three consecutive parts as equal as can be (earlier parts take
    the remainder): ``[1..7]`` → ``[1, 2, 3], [4, 5], [6, 7]``."""
    n = len(values)
    cuts = [0, (n + 2) // 3, (n + 2) // 3 + (n + 1) // 3, n]
    return [list(values[cuts[i] : cuts[i + 1]]) for i in range(3)]


def summary(qualities: Sequence[float]) -> dict[str, Any]:
    """Mean, extremes and the mean of each third of the matches (in plan order); None where
    there is nothing to average."""

    def mean(values: Sequence[float]) -> float | None:
        return statistics.fmean(values) if values else None

    return {
        "matches": len(qualities),
        "mean": mean(qualities),
        "min": min(qualities) if qualities else None,
        "max": max(qualities) if qualities else None,
        "thirds": [{"matches": len(part), "mean": mean(part)} for part in thirds(qualities)],
    }
