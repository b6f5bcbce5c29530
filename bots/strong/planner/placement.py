"""Where new armies go: first to the threatened borders of what it holds (at most half of
them, all of them for its own headquarters), the rest in one stack on the source of the
best chain they make possible."""

from __future__ import annotations

import math

from .chains import Plan
from .position import Position
from .worth import importance


def defence_needs(pos: Position) -> list[tuple[float, int, int]]:
    """(importance, territory, armies short) for own territories worth defending."""
    needs = []
    for t in pos.mine:
        weight = importance(pos, t)
        if weight <= 0:
            continue
        short = math.ceil(pos.danger(t) * (1.1 if weight >= 6 else 0.9)) - pos.armies[t]
        if short > 0:
            needs.append((weight, t, short))
    return sorted(needs, reverse=True)


def guards(pos: Position, count: int, allowed: set[int]) -> dict[int, int]:
    """The share of ``count`` new armies that guards what matters, by territory."""
    share: dict[int, int] = {}
    needs = defence_needs(pos)
    guard = min(sum(n for _, _, n in needs), count // 2 if needs else 0)
    if needs and needs[0][0] >= 6:
        guard = min(sum(n for _, _, n in needs), count)  # the headquarters comes first
    for _, t, missing in needs:
        if guard <= 0:
            break
        if t in allowed:
            give = min(missing, guard)
            share[t] = share.get(t, 0) + give
            guard -= give
    return share


def stack(pos: Position, plan: Plan | None, allowed: set[int]) -> int:
    """Where the rest goes in one stack: the plan's source, else the most threatened
    territory it may place on."""
    if plan is not None:
        return plan.source
    candidates = [t for t in allowed if pos.exposed(t)] or sorted(allowed)
    return max(candidates, key=lambda t: (pos.danger(t) - pos.armies[t], -t))
