"""What things are worth to the planner: the secret mission it plays for, a card, a
continent held, an own territory to defend, the armies a source keeps back."""

from __future__ import annotations

import math
from typing import Any

from arena.games.classic.missions import FALLBACK, MISSIONS, Mission

from .position import Position


def mission(view: dict[str, Any]) -> Mission | None:
    """The seat's secret mission (the fallback when it would have to destroy itself)."""
    if not view.get("mission"):
        return None
    found: Mission = MISSIONS[view["mission"]["id"]]
    if found.kind == "destroy" and found.target == view["seat"]:
        return FALLBACK
    return found


def card_worth(view: dict[str, Any]) -> float:
    """Armies one card is worth, about a third of the next set."""
    value = view.get("next_set_value") or 8
    return value / 3


def continent_value(pos: Position, c: int) -> float:
    """Worth of holding continent ``c``: its bonus, less what its borders would cost."""
    board = pos.board
    value = 2.5 * board.bonus(c)
    outside_threat = 0.0
    for b in board.continent_borders(c):
        for n in board.neighbours[b]:
            if board.continent_of[n] != c and pos.enemy(n):
                outside_threat += pos.armies[n] - 1
    value -= 0.15 * outside_threat + 0.6 * len(board.continent_borders(c))
    goal = mission(pos.view)
    if goal and goal.kind == "continents" and board.continents[c].name in goal.continents:
        value += 12
    return max(value, 0.5)


def importance(pos: Position, t: int) -> float:
    """How much own territory ``t`` matters to defend (continent bonus, headquarters)."""
    board = pos.board
    c = board.continent_of[t]
    weight = 0.0
    if pos.holder[c] == pos.seat and t in board.continent_borders(c):
        weight = 1.0 + board.bonus(c) / 2
    hq = pos.view.get("headquarters") or []
    if pos.seat < len(hq) and hq[pos.seat] == t:
        weight = max(weight, 6.0)
    return weight


def keep(pos: Position, source: int, target: int) -> int:
    """Armies to leave in ``source`` when it attacks ``target``."""
    weight = importance(pos, source)
    if weight <= 0:
        return 1
    need = pos.danger(source, ignore=target) * (1.2 if weight >= 6 else 0.8)
    return max(1, min(pos.armies[source] - 1, math.ceil(need)))


def breaks(pos: Position, t: int) -> bool:
    """Whether capturing ``t`` breaks a rival's whole continent."""
    h = pos.holder[pos.board.continent_of[t]]
    return h is not None and h != pos.seat
