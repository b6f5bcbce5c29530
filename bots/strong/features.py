"""The learned value's features: per seat, shares of the table's armies, territories and
income, cards in armies, armies at risk next round, seats until its turn, territories on a
front and continent bonuses (``train_value.py`` fits their weights from them)."""

from __future__ import annotations

from collections.abc import Sequence

from arena.games.classic.state import NEUTRAL
from arena.sdk.tactics import capture_odds

from .geometry import Geometry

FEATURES = (
    "armies",
    "territories",
    "income",
    "cards",
    "at_risk",
    "turn_distance",
    "frontier",
    "bonus",
)
"""Per-seat features of the learned value, each a share or a fraction (see seat_features)."""


def seat_features(
    g: Geometry,
    owner: Sequence[int],
    armies: Sequence[int],
    hands: Sequence[int],
    card_worth: float,
    n: int,
    to_move: int,
    to_place: int,
) -> dict[int, list[float]]:
    """:data:`FEATURES` of every seat still holding territories, at the start of
    ``to_move``'s turn (its ``to_place`` new armies counted as its own): shares of the
    players' armies, territories and income; cards in armies over all armies; the share of
    its armies likely lost next round (exact odds against the strongest hostile neighbour
    and half its income); seats until its turn over seats; the share of its territories on
    a front; its continent bonuses over all income."""
    count = [0] * n
    total = [0] * n
    frontier = [0] * n
    for t in range(g.size):
        o = owner[t]
        if o >= 0:
            count[o] += 1
            total[o] += armies[t]
    if 0 <= to_move < n:
        total[to_move] += to_place
    income = [max(3, c // 3) if c else 0 for c in count]
    bonus = [0] * n
    for c, members in enumerate(g.members):
        first = owner[members[0]]
        if first >= 0 and all(owner[t] == first for t in members):
            income[first] += g.bonus[c]
            bonus[first] += g.bonus[c]
    risk = [0.0] * n
    for t in range(g.size):
        o = owner[t]
        if o < 0:
            continue
        best = 0.0
        for e in g.neighbours[t]:
            foe = owner[e]
            if foe != o:
                if foe >= 0 and armies[e] - 1 + 0.5 * income[foe] > best:
                    best = armies[e] - 1 + 0.5 * income[foe]
                elif foe == NEUTRAL and best == 0.0:
                    best = 0.001
        if best > 0:
            frontier[o] += 1
            if best >= 1:
                risk[o] += capture_odds(int(best), armies[t]) * (armies[t] + 1)
    all_armies = max(1, sum(total))
    all_count = max(1, sum(count))
    all_income = max(1, sum(income))
    features: dict[int, list[float]] = {}
    for p in range(n):
        if not count[p]:
            continue
        features[p] = [
            total[p] / all_armies,
            count[p] / all_count,
            income[p] / all_income,
            hands[p] * card_worth / all_armies,
            min(1.0, risk[p] / max(1, total[p])),
            ((p - to_move) % n) / n,
            frontier[p] / count[p],
            bonus[p] / all_income,
        ]
    return features
