"""The setup phase, without a search: armies placed where the value likes them best (no
dice: one sampled world), neutral armies where they block the opponent (2 players), and the
headquarters where armies outweigh the threat (Capital RISK)."""

from __future__ import annotations

import random

from arena.games.classic.state import ClassicState
from arena.sdk import ChooseHeadquarters, Place, PlaceNeutral, Request
from arena.sdk.classic.sim import Simulator

from .geometry import Geometry
from .value import Evaluator


def place(
    sim: Simulator, evaluate: Evaluator, g: Geometry, me: int, rng: random.Random, request: Request
) -> Place:
    """Setup armies go where the evaluation likes them best (no dice: one world)."""
    s = sim.sample(request.view, rng)
    count = request.options.armies
    best_value, best_t = -1.0, request.options.territories[0]
    for t in request.options.territories:
        s.armies[t] += count
        value = evaluate(s) + 0.002 * attack_potential(g, me, s, t)
        s.armies[t] -= count
        if value > best_value:
            best_value, best_t = value, t
    return Place(((best_t, count),))


def attack_potential(g: Geometry, me: int, s: ClassicState, t: int) -> float:
    """How close own ``t`` is to taking its weakest foreign neighbour."""
    foes = [s.armies[n] for n in g.neighbours[t] if s.owner[n] != me]
    if not foes:
        return -5.0
    return min(5.0, s.armies[t] - min(foes))


def place_neutral(g: Geometry, me: int, request: Request) -> PlaceNeutral:
    """A neutral army where it blocks the opponent's continents most (and ours least)."""
    view = request.view
    owner, armies = view["owner"], view["armies"]
    rival = next((p for p in range(view["players"]) if p != me), -1)

    def score(t: int) -> tuple[float, int]:
        c = g.continent_of[t]
        members = g.members[c]
        theirs = sum(1 for m in members if owner[m] == rival) / len(members)
        ours = sum(1 for m in members if owner[m] == me) / len(members)
        near = sum(armies[n] for n in g.neighbours[t] if owner[n] == rival)
        return 3 * (theirs - ours) * g.bonus[c] + 0.2 * near, -t

    return PlaceNeutral(max(request.options.territories, key=score))


def headquarters(g: Geometry, me: int, request: Request) -> ChooseHeadquarters:
    """The territory with the most armies against the least threat around it."""
    view = request.view
    owner, armies = view["owner"], view["armies"]

    def score(t: int) -> tuple[float, int]:
        danger = sum(armies[n] for n in g.neighbours[t] if owner[n] != me)
        return armies[t] - danger - 0.5 * len(g.neighbours[t]), -t

    return ChooseHeadquarters(max(request.options.territories, key=score))
