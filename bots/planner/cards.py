"""Card trades: a set as soon as one can be traded (the most valuable with fixed set values),
its +2 territory bonus where it is needed most."""

from __future__ import annotations

from collections.abc import Sequence

from arena.games.classic.cards import fixed_value

from .position import Position
from .worth import importance

Cards = tuple[int, int, int]


def best_set(sets: Sequence[Cards], symbols: Sequence[int], sets_rule: str) -> Cards:
    """The set to trade: the first offered, or with fixed set values the most valuable."""
    cards = sets[0]
    if sets_rule == "fixed" and symbols:
        cards = max(sets, key=lambda s: fixed_value((symbols[s[0]], symbols[s[1]], symbols[s[2]])))
    return cards


def bonus_territory(
    pos: Position, cards: Cards, bonus_territories: Sequence[int], plan_source: int
) -> int | None:
    """The territory of the set that gets the +2 armies: the planned chain's source first,
    then the most important and threatened; None when no card of the set is one it holds."""
    eligible = [c for c in cards if c in bonus_territories]
    if not eligible:
        return None

    def useful(t: int) -> tuple[float, int]:
        return (t == plan_source) * 5 + importance(pos, t) + pos.danger(t) / 10, -t

    return max(eligible, key=useful)
