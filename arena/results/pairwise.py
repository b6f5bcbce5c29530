"""Pairwise scores: how one version fares against another over the matches where both sat.

A match scores 1 for A against B when A ranked ahead of B, ½ when level, 0 when behind. The
ranks are the ratings' own (:func:`arena.results.ratings.ranks_from_result`): a seat that
forfeited never ranks above a seat still playing when it went out, so a forfeit is a loss
against every opponent alive then, and two seats that both forfeited compare by place. In a
table of more than two seats every pair of seats is one comparison; all of a match's pairs
come from the same game, so they are not independent of each other, and the interval below
treats each as if it were.

The 95 % interval is the *score interval of a three-outcome mean*: the values of the true
score s at which the score test does not reject, ``(ŝ − s)² ≤ z²·v(s)/n``, with the per-game
variance ``v(s) = s(1 − s) − t(s)/4`` where ``t(s)`` is the tie rate that best explains the
games given a true score s (its maximum likelihood under that constraint, a quadratic's
root). Without ties ``t(s) = 0`` and this is exactly Wilson's interval. With ties it is
narrower, as it should be: a tie carries less doubt than a coin flip between a win and a
loss, which is what Wilson's interval with a tie counted as half a win assumes. Like
Wilson's it stays within [0, 1] and keeps its coverage near the edges, and unlike a plug-in
of the observed tie rate it does not collapse to a point when every game was a tie (ten ties
give 0.36–0.64).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from arena.results.stats import Z95

Pair = tuple[str, str]


@dataclass(frozen=True, slots=True)
class PairScore:
    """A's record against B: wins (ahead), ties (level) and losses (behind)."""

    wins: int = 0
    ties: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.ties + self.losses

    @property
    def score(self) -> float | None:
        """The mean score (a tie counts ½); None before any game."""
        n = self.games
        return (self.wins + self.ties / 2) / n if n else None

    def interval(self, z: float = Z95) -> tuple[float, float]:
        """The score's interval (95 % by default; see the module); (0, 1) before any game."""
        return score_interval(self.wins, self.ties, self.losses, z)

    def reversed(self) -> PairScore:
        """B's record against A."""
        return PairScore(self.losses, self.ties, self.wins)


def constrained_tie_rate(wins: int, ties: int, losses: int, score: float) -> float:
    """The tie rate of highest likelihood among outcome rates whose mean score is ``score``.

    With win rate ``w = s − t/2`` and loss rate ``l = 1 − s − t/2``, setting the derivative of
    ``W·ln w + T·ln t + L·ln l`` to zero gives ``(n/2)·t² − (T + W(1 − s) + L·s)·t +
    2T·s(1 − s) = 0``, whose smaller root is the one where w and l stay at or above 0.
    """
    n = wins + ties + losses
    if n == 0 or ties == 0:
        return 0.0
    s, r = score, 1.0 - score
    b = ties + wins * r + losses * s
    discriminant = max(0.0, b * b - 4.0 * ties * s * r * n)
    return (b - math.sqrt(discriminant)) / n


def score_variance(wins: int, ties: int, losses: int, score: float) -> float:
    """A game's score variance if the true mean score were ``score`` (see the module)."""
    tie_rate = constrained_tie_rate(wins, ties, losses, score)
    return max(0.0, score * (1.0 - score) - tie_rate / 4.0)


_BISECTIONS = 60
"""Halvings that pin an interval's end well below any digit shown (2⁻⁶⁰)."""


def score_interval(wins: int, ties: int, losses: int, z: float = Z95) -> tuple[float, float]:
    """(low, high): the score test's interval of the mean score (see the module)."""
    for count in (wins, ties, losses):
        if count < 0:
            raise ValueError(f"counts of games cannot be negative: {(wins, ties, losses)}")
    n = wins + ties + losses
    if n == 0:
        return 0.0, 1.0
    observed = (wins + ties / 2) / n
    k = z * z / n

    def outside(s: float) -> bool:
        """Whether the score test rejects a true score of ``s``."""
        return (observed - s) ** 2 > k * score_variance(wins, ties, losses, s)

    def edge(inside: float, out: float) -> float:
        if not outside(out):
            return out
        for _ in range(_BISECTIONS):
            middle = (inside + out) / 2
            if outside(middle):
                out = middle
            else:
                inside = middle
        return inside

    return edge(observed, 0.0), edge(observed, 1.0)


@dataclass(frozen=True, slots=True)
class Cell:
    """One ordered pair of the matrix, its interval computed once."""

    a: str
    b: str
    record: PairScore
    low: float
    high: float

    @property
    def score(self) -> float:
        value = self.record.score
        assert value is not None  # a cell exists only for pairs that met
        return value

    @property
    def beats(self) -> bool:
        """A scored above ½ against B."""
        return self.score > 0.5

    @property
    def significant(self) -> bool:
        """The interval lies wholly on one side of ½."""
        return self.low > 0.5 or self.high < 0.5

    def to_dict(self) -> dict[str, object]:
        return {
            "a": self.a,
            "b": self.b,
            "games": self.record.games,
            "wins": self.record.wins,
            "ties": self.record.ties,
            "losses": self.record.losses,
            "score": self.score,
            "low": self.low,
            "high": self.high,
            "significant": self.significant,
        }


Ranked = tuple[Sequence[str], Sequence[int]]
"""A match as the matrix reads it: the versions in seat order and their ranks (0 = best)."""


def tally(matches: Iterable[Ranked]) -> dict[Pair, list[int]]:
    """{(a, b) with a < b: [a ahead, level, b ahead]} in one pass over the matches' seats
    (a version holding two seats of one match is compared with its opponents only)."""
    counts: dict[Pair, list[int]] = {}
    for versions, ranks in matches:
        seats = len(versions)
        for i in range(seats):
            a, rank_a = versions[i], ranks[i]
            for j in range(i + 1, seats):
                b, rank_b = versions[j], ranks[j]
                if a == b:
                    continue
                if a > b:
                    a_first, b_first, ahead = b, a, rank_b < rank_a
                    behind = rank_b > rank_a
                else:
                    a_first, b_first, ahead = a, b, rank_a < rank_b
                    behind = rank_a > rank_b
                counts.setdefault((a_first, b_first), [0, 0, 0])[
                    0 if ahead else 2 if behind else 1
                ] += 1
    return counts


def matrix(matches: Iterable[Ranked], z: float = Z95) -> dict[Pair, Cell]:
    """Every ordered pair of versions that met: its record, score and interval."""
    cells: dict[Pair, Cell] = {}
    for (a, b), (ahead, level, behind) in tally(matches).items():
        record = PairScore(ahead, level, behind)
        low, high = record.interval(z)
        cells[(a, b)] = Cell(a, b, record, low, high)
        cells[(b, a)] = Cell(b, a, record.reversed(), 1.0 - high, 1.0 - low)
    return cells
