"""The attacks of its turn: the next capture of the best chain, rolled while the source
keeps what it must, and how many armies move on after a capture."""

from __future__ import annotations

from collections.abc import Sequence

from arena.sdk import Attack, EndAttack, Occupy
from arena.sdk.classic import Answer

from .chains import Plan, gains, search
from .position import Position
from .worth import importance, keep


def attack(pos: Position, plan: Plan | None, attacks: Sequence[tuple[int, int, int]]) -> Answer:
    """The first capture of ``plan`` (rolled until the source is down to what it keeps), or
    the end of the attacks when there is no plan worth it."""
    if plan is None or plan.value <= 0:
        return EndAttack()
    target = plan.path[0]
    kept = keep(pos, plan.source, target)
    for source, to, dice in attacks:
        if (source, to) == (plan.source, target):
            return Attack(source, target, dice, until=kept, reroll="auto")
    return EndAttack()


def occupy(pos: Position, battle: tuple[int, int, int], low: int, high: int) -> Occupy:
    """Move on when a chain goes on from the captured territory (stay when it goes on from
    the source); with nothing more to take, split the armies by what each side faces."""
    source, target, _ = battle
    total = pos.armies[source] + pos.armies[target]
    kept = keep(pos, source, target)
    worth = gains(pos)
    ahead, _ = search(pos, worth, target, total - kept - 1, budget=120)
    behind, _ = search(pos, worth, source, total - low - 1, budget=120)
    if ahead > 0 and ahead >= behind:
        return Occupy(max(low, min(high, total - kept)))
    if behind > 0:
        return Occupy(low)
    # Nothing more to take from either: split by what each side faces.
    d_source = pos.danger(source) + 3 * importance(pos, source)
    d_target = pos.danger(target) + 3 * importance(pos, target)
    if d_source + d_target <= 0:
        return Occupy(low)
    moved = round(total * d_target / (d_source + d_target))
    return Occupy(max(low, min(high, moved, total - 1)))
