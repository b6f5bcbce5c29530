"""The fortify: idle interior armies to the most threatened border (borders of held
continents and the headquarters weigh most), or spare armies from one border to another."""

from __future__ import annotations

import math
from collections.abc import Sequence

from arena.sdk import EndTurn, Fortify
from arena.sdk.classic import Answer

from .position import Position
from .worth import importance


def fortify(pos: Position, fortifies: Sequence[tuple[int, int, int]]) -> Answer:
    """The best-scoring move of ``fortifies`` (source, target, most armies), or none."""
    best: tuple[float, tuple[int, int, int]] | None = None
    for source, target, most in fortifies:
        if not pos.exposed(target):
            continue
        need = pos.danger(target) - pos.armies[target]
        weight = 1.0 + importance(pos, target)
        if pos.exposed(source):
            spare = pos.armies[source] - 1 - math.ceil(pos.danger(source))
            if spare <= 0 or need <= 0 or importance(pos, source) > weight - 1:
                continue
            move = min(most, spare, math.ceil(need))
            score = weight * move
        else:
            move = most
            score = 1000.0 + weight * (need + most)
        if move >= 1 and (best is None or score > best[0]):
            best = (score, (source, target, move))
    if best is None:
        return EndTurn()
    return Fortify(*best[1])
