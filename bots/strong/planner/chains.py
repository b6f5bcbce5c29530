"""Chains of captures: what each capture gains this turn, the best chain from a territory
by a bounded depth-first search, cut where its exact odds fail, and the best chain of all.

From a territory the search walks through foreign neighbours, carrying the stack's expected
survivors, and scores every prefix of the walk: each territory's worth, a continent
completed, a rival eliminated (and its cards), the turn's first capture (a card), less the
exact expected losses and the army left behind at each step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from arena.games.classic.combat import battle_odds
from arena.sdk.tactics import chain_prefix_odds

from .position import Position
from .worth import breaks, card_worth, continent_value, keep, mission

GO_ODDS = 0.5
"""A chain is cut where the odds of getting that far fall below this."""
EXACT_ARMIES = 60
"""Chains with more fighting armies than this use a normal approximation (see prefix_odds)."""


@lru_cache(maxsize=512)
def expected_loss(defenders: int) -> float:
    """Armies an ample attacker expects to lose capturing ``defenders`` armies (exact)."""
    if defenders < 1:
        return 0.0
    if defenders > 40:  # the loss rate is steady by then; save the large exact tables
        return expected_loss(40) * defenders / 40
    attackers = max(60, 3 * defenders)
    outcomes = battle_odds(attackers, defenders).outcomes
    return float(sum(p * (attackers - a) for (a, d), p in outcomes.items() if d == 0))


def prefix_odds(fighting: int, defenders: list[int]) -> list[float]:
    """Odds of getting through each part of a chain: exact, or a normal law for big stacks.

    Armies beyond any plausible need are left out first (within about 1e-4 of the odds).
    Up to ``EXACT_ARMIES`` fighting armies the odds are exact
    (:func:`arena.sdk.tactics.chain_prefix_odds`); bigger battles use the sum of each
    capture's exact expected losses with a variance of about 2.1 per defender, since the
    exact tables grow with the square of the armies and a late-game stack has hundreds.
    """
    fighting = min(fighting, 2 * sum(defenders) + 2 * len(defenders) + 8)
    if fighting <= EXACT_ARMIES:
        return chain_prefix_odds(fighting, defenders)
    odds, mean, variance = [], 0.0, 0.0
    for i, d in enumerate(defenders, start=1):
        mean += expected_loss(d)
        variance += 2.1 * d
        z = (fighting - i + 0.5 - mean) / math.sqrt(max(variance, 1e-9))
        odds.append(0.5 * math.erfc(-z / math.sqrt(2)))
    return odds


@dataclass(frozen=True, slots=True)
class Gains:
    """Worth of captures, in armies: per territory, per completed continent, per elimination."""

    territory: list[float]
    continent: list[float]
    rival_bonus: dict[int, float]
    """Eliminating the seat: a rival fewer, and its cards."""
    first: float
    """The turn's first capture earns a card."""


@dataclass(slots=True)
class Plan:
    """Captures to make this turn from ``source``, in order along ``path``, and their worth."""

    value: float
    source: int
    path: list[int]


def gains(pos: Position) -> Gains:
    """What each capture is worth to this seat now (see :class:`Gains`)."""
    board, view = pos.board, pos.view
    card = card_worth(view)
    goal = mission(view)
    territory = [0.0] * board.size
    for t in range(board.size):
        if not pos.foreign(t):
            continue
        value = 1.0 - 0.04 * pos.danger_to_holder(t)
        if breaks(pos, t):
            value += 1.5 * board.bonus(board.continent_of[t])
        if goal is not None and goal.kind == "territories":
            value += 0.8
        territory[t] = value
    continent = [continent_value(pos, c) for c in range(len(board.continents))]
    rival_bonus = {}
    for p in pos.rivals:
        bonus = 5.0 + view["card_counts"][p] * card * 1.5
        if goal and goal.kind == "destroy" and goal.target == p:
            bonus += 60
        rival_bonus[p] = bonus
    hq = view.get("headquarters") or []
    for p, t in enumerate(hq):
        if p != pos.seat and t >= 0 and pos.owner[t] != pos.seat:
            territory[t] += 14.0
    first = 0.0 if view.get("conquered_this_turn") else card + 1.0
    return Gains(territory, continent, rival_bonus, first)


def search(
    pos: Position, gains: Gains, source: int, fighting: int, budget: int = 300
) -> tuple[float, list[int]]:
    """Best chain of captures from ``source`` with ``fighting`` armies: (score, path).

    A bounded depth-first search; armies are carried as their expected survivors, and the
    chosen chain is then cut where its exact odds (:func:`prefix_odds`) fall too low.
    """
    board, owner, armies = pos.board, pos.owner, pos.armies
    missing = [
        sum(1 for t in board.members(c) if owner[t] != pos.seat)
        for c in range(len(board.continents))
    ]
    left = {p: pos.count[p] for p in gains.rival_bonus}
    best: tuple[float, list[int]] = (0.0, [])
    path: list[int] = []
    taken: set[int] = set()
    expansions = 0

    def step(here: int, strength: float, score: float) -> None:
        nonlocal best, expansions
        options = [n for n in board.neighbours[here] if owner[n] != pos.seat and n not in taken]
        options.sort(key=lambda n: (armies[n] - gains.territory[n], n))
        for n in options[:4]:
            if expansions >= budget:
                return
            defenders = armies[n]
            if strength < defenders + 1.5:
                continue
            expansions += 1
            value = gains.territory[n] - 0.6 * expected_loss(defenders) - 0.35
            if not path:
                value += gains.first
            c = board.continent_of[n]
            missing[c] -= 1
            if missing[c] == 0:
                value += gains.continent[c]
            victim = owner[n]
            if victim in left:
                left[victim] -= 1
                if left[victim] == 0:
                    value += gains.rival_bonus[victim]
            path.append(n)
            taken.add(n)
            total = score + value
            if total > best[0]:
                best = (total, list(path))
            step(n, strength - expected_loss(defenders) - 1, total)
            path.pop()
            taken.discard(n)
            missing[c] += 1
            if victim in left:
                left[victim] += 1

    step(source, float(fighting), 0.0)
    score, chain = best
    # Cut the chain where the exact odds of getting that far are too low.
    odds = prefix_odds(fighting, [armies[t] for t in chain])
    while chain and odds[len(chain) - 1] < GO_ODDS:
        chain = chain[:-1]
    return (score if chain else 0.0), chain


def best_plan(pos: Position, extra: int = 0, allowed: set[int] | None = None) -> Plan | None:
    """The best chain from any own territory, with ``extra`` new armies placed there."""
    worth = gains(pos)
    best: Plan | None = None
    sources = [
        t
        for t in pos.mine
        if (allowed is None or t in allowed)
        and any(pos.foreign(n) for n in pos.board.neighbours[t])
    ]
    sources.sort(key=lambda t: -pos.armies[t])
    for s in sources[:8]:
        fighting = pos.armies[s] - keep(pos, s, -1) + extra
        if fighting < 2:
            continue
        score, chain = search(pos, worth, s, fighting)
        if chain and (best is None or score > best.value):
            best = Plan(score, s, chain)
    return best
