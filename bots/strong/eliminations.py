"""Eliminations under way: the next attack along a kill path or of a sweep, how many armies
move on, and sweeps played out in sampled worlds to judge their odds before committing."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from arena.games.classic.state import ClassicState, Phase
from arena.sdk import Attack, Defend, Occupy, Place, Reroll
from arena.sdk.classic.sim import Simulator

from .geometry import Geometry
from .kills import KILL_ODDS, KILL_STEPS, ROLL_KILL_STEPS, holdings, kill_plan, path_step
from .search import Budget
from .sweeps import SWEEP_SIZE, sweep_attack, sweep_occupy

SWEEP_SOURCES = 3
"""Own stacks next to the rival tried as the place for the reinforcements of a sweep."""
SWEEP_WORLDS = 16
"""Sampled worlds (dice) in which a sweep is played out to judge its odds."""
SWEEP_STEPS = 120
"""Engine steps a played-out sweep may take (a bound, never reached in practice)."""


def kill_step(
    g: Geometry,
    owner: Sequence[int],
    armies: Sequence[int],
    me: int,
    victim: int,
    path: list[int] | None,
    exact: bool = True,
) -> tuple[tuple[int, int] | None, list[int] | None]:
    """The next attack of an elimination of ``victim`` under way, and the path it follows
    from then on: along ``path`` while its stack holds, else the sweep's, else along a new
    path found now (through others' territories, where the rival's last ones are out of
    reach of every stack); ``(None, None)`` once none is likely."""
    if victim not in owner:
        return None, None
    if path is not None:
        move = path_step(owner, armies, me, path)
        if move is not None:
            return move, path
    move = sweep_attack(g, owner, armies, me, victim)
    if move is not None:
        return move, None
    steps = KILL_STEPS if exact else ROLL_KILL_STEPS
    plan = kill_plan(g, owner, armies, me, size=SWEEP_SIZE, steps=steps, exact=exact, rival=victim)
    if plan is None or plan[0] < KILL_ODDS:
        return None, None
    return path_step(owner, armies, me, plan[1]), plan[1]


def kill_occupy(
    g: Geometry,
    owner: Sequence[int],
    armies: Sequence[int],
    victim: int,
    path: Sequence[int] | None,
    src: int,
    dst: int,
    least: int,
    most: int,
) -> int:
    """Armies to move on in an elimination under way: all of them along its path, else as
    the sweep moves (:func:`sweep_occupy`)."""
    if path is not None and dst in path[1:-1]:
        return most
    return sweep_occupy(g, owner, armies, victim, src, dst, least, most)


class Sweeps:
    """Sweeps on this match's engine from one seat, played out in worlds sampled with the
    bot's own generator."""

    def __init__(self, sim: Simulator, geometry: Geometry, seat: int, rng: random.Random) -> None:
        self.sim = sim
        self.g = geometry
        self.seat = seat
        self.rng = rng

    def likely(
        self, view: dict[str, Any], extra: int, sources: Sequence[int] | None, budget: Budget
    ) -> tuple[int, int] | None:
        """``(rival, where the reinforcements go)`` of the likeliest sweep, when its odds
        reach :data:`KILL_ODDS`; the reinforcements go on one stack next to the rival.
        ``budget`` bounds the worlds played out (see :meth:`odds`)."""
        owner, armies = view["owner"], view["armies"]
        me, g = self.seat, self.g
        allowed = None if sources is None else set(sources)
        held = holdings(owner, me)
        plans: list[tuple[int, int]] = []
        for victim, targets in sorted(held.items()):
            if len(targets) > SWEEP_SIZE:
                continue
            stacks = sorted(
                {n for v in targets for n in g.neighbours[v] if owner[n] == me},
                key=lambda t: (-armies[t], t),
            )
            fighting = sum(armies[t] - 1 for t in stacks) + extra
            if not stacks or fighting < sum(armies[v] + 1 for v in targets):
                continue
            if not extra:
                plans.append((victim, -1))
                continue
            places = [t for t in stacks if allowed is None or t in allowed][:SWEEP_SOURCES]
            plans.extend((victim, t) for t in places)
        if not plans:
            return None
        odds = self.odds(view, plans, extra, budget)
        best = max(range(len(plans)), key=lambda i: (odds[i], -i))
        return plans[best] if odds[best] >= KILL_ODDS else None

    def odds(
        self, view: dict[str, Any], plans: Sequence[tuple[int, int]], extra: int, budget: Budget
    ) -> list[float]:
        """Each plan's share of wins played out in the same sampled worlds (at most
        :data:`SWEEP_WORLDS`, fewer if ``budget``'s time runs out first)."""
        sim, rng = self.sim, self.rng
        wins = [0] * len(plans)
        worlds = 0
        for _ in range(SWEEP_WORLDS):
            if worlds and budget.nodes is None and budget.spent():
                break
            base = sim.sample(view, rng)
            for i, (victim, place) in enumerate(plans):
                wins[i] += self.play(base.copy(), victim, place, extra)
            worlds += 1
        return [w / worlds for w in wins]

    def play(self, s: ClassicState, victim: int, place: int, extra: int) -> bool:
        """Play a sweep on ``victim`` out on the engine: True if it is eliminated."""
        apply, me, g = self.sim.rules.apply_unchecked, self.seat, self.g
        if extra:
            apply(s, me, Place(((place, extra),)))
        path: list[int] | None = None
        for _ in range(SWEEP_STEPS):
            if victim not in s.owner:
                return True
            phase = s.phase
            if phase == Phase.DEFEND:
                assert s.attack is not None
                apply(s, s.owner[s.attack[1]], Defend(min(2, s.armies[s.attack[1]])))
            elif phase == Phase.ATTACK and s.seat == me:
                move, path = kill_step(g, s.owner, s.armies, me, victim, path, exact=False)
                if move is None:
                    return False
                apply(s, me, Attack(move[0], move[1], 3, until=1, reroll="auto"))
            elif phase == Phase.OCCUPY:
                assert s.occupy is not None
                src, dst, least = s.occupy
                most = s.armies[src] + s.armies[dst] - 1
                n = kill_occupy(g, s.owner, s.armies, victim, path, src, dst, least, most)
                apply(s, me, Occupy(n))
            elif phase == Phase.REROLL:
                apply(s, me, Reroll(None))
            else:
                return False
        return False
