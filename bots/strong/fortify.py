"""The fortify, judged by the value alone (no dice): of every move, all the armies it may
or half of them, the one the value likes best in one sampled world, or none."""

from __future__ import annotations

import random

from arena.sdk import EndTurn, Fortify, Request
from arena.sdk.classic import Answer
from arena.sdk.classic.sim import Simulator

from .search import Budget
from .value import Evaluator


def fortify(
    sim: Simulator, evaluate: Evaluator, rng: random.Random, request: Request, budget: Budget
) -> Answer:
    """The move that raises the value most, tried until ``budget`` is spent."""
    s = sim.sample(request.view, rng)
    armies = s.armies
    best_value = evaluate(s)
    best: Answer = EndTurn()
    for source, target, most in request.options.fortifies:
        for move in {most, max(1, most // 2)}:
            armies[source] -= move
            armies[target] += move
            value = evaluate(s)
            armies[source] += move
            armies[target] -= move
            budget.used += 1
            if value > best_value + 1e-9:
                best_value, best = value, Fortify(source, target, move)
        if budget.spent():
            break
    return best
