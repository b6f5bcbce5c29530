"""Eliminations by one stack: the likeliest chain of captures that takes every territory of
a rival this turn, by its exact odds, and the next capture along it."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from arena.sdk.tactics import capture_odds, chain_odds

from .geometry import Geometry

KILL_ODDS = 0.6
"""A plan to eliminate a rival this turn is followed without a search once its exact odds of
taking every one of the rival's territories reach this: in 3-player games against two
``planner``, whoever made the first elimination went on to win 95% of the time."""
KILL_SIZE = 8
"""Rivals holding more territories than this are not planned against (the path search grows
exponentially with them)."""
KILL_DETOURS = 2
"""Territories of other seats a kill path may pass through on the way."""
KILL_PATHS = 12
"""Complete paths a kill search scores by their exact odds before it stops."""
KILL_STEPS = 3000
"""Territories a kill search may step onto before it stops: without a bound, a rival whose
territories one path cannot join makes it try every detour (tens of milliseconds)."""
ROLL_KILL_STEPS = 200
"""The same bound inside a rollout, where every seat looks each turn."""
EXACT_ARMIES = 40
"""Exact chain odds only up to this many rolling armies: each new pair of stack sizes costs
a whole battle's distribution (milliseconds for big stacks, and a chain meets dozens), and
big stacks' odds are near certain anyway; beyond it, the one-battle estimate."""


def kill_plan(
    g: Geometry,
    owner: Sequence[int],
    armies: Sequence[int],
    me: int,
    extra: int = 0,
    sources: Sequence[int] | None = None,
    size: int = KILL_SIZE,
    steps: int = KILL_STEPS,
    exact: bool = True,
    rival: int | None = None,
    detours: int = KILL_DETOURS,
) -> tuple[float, list[int]] | None:
    """The likeliest chain of captures that takes every territory of some rival this turn,
    one stack moving on after each capture: ``(exact odds, [source, target, ...])``, or
    None. ``extra`` new armies join the source first (reinforcements still to place, on one
    of ``sources``). Only rivals holding at most ``size`` territories (only ``rival``, if
    given) are planned against, through at most ``detours`` territories of others; each path
    search stops after ``steps`` (see :func:`_kill_paths`); inexact odds (and those of stacks
    above :data:`EXACT_ARMIES`) are estimated as one battle against all the defenders (a
    little low, and much cheaper). Only a single path is
    planned: a rival whose territories need two stacks is left to the sweep."""
    held = holdings(owner, me)
    allowed = None if sources is None else set(sources)
    neighbours = g.neighbours
    mine = {t for t, o in enumerate(owner) if o == me}
    best: tuple[float, list[int]] | None = None
    for seat, targets in held.items():
        if len(targets) > size or rival not in (None, seat):
            continue
        wanted = set(targets)
        need = sum(armies[t] + 1 for t in targets)
        starts = _within(neighbours, targets, detours + 1) & mine
        if allowed is not None:
            starts &= allowed
        for source in sorted(starts):
            fighting = armies[source] - 1 + extra
            if fighting < need:
                continue
            paths = _kill_paths(
                neighbours, owner, armies, me, source, fighting, wanted, steps, detours
            )
            for path in paths:
                if exact and fighting <= EXACT_ARMIES:
                    odds = chain_odds(fighting, [armies[t] for t in path])
                else:  # as one battle against all the defenders, less those left behind
                    odds = capture_odds(fighting + 1 - len(path), sum(armies[t] for t in path))
                if best is None or odds > best[0]:
                    best = (odds, [source, *path])
    return best


def holdings(owner: Sequence[int], me: int) -> dict[int, list[int]]:
    """Every rival's territories (the neutral's and ``me``'s left out)."""
    held: dict[int, list[int]] = {}
    for t, o in enumerate(owner):
        if o >= 0 and o != me:
            held.setdefault(o, []).append(t)
    return held


def _within(neighbours: Sequence[Sequence[int]], origins: Sequence[int], steps: int) -> set[int]:
    """Territories at most ``steps`` moves from any of ``origins`` (not the origins)."""
    seen = set(origins)
    frontier = list(origins)
    for _ in range(steps):
        frontier = [n for t in frontier for n in neighbours[t] if n not in seen]
        seen.update(frontier)
    return seen - set(origins)


def _kill_paths(
    neighbours: Sequence[Sequence[int]],
    owner: Sequence[int],
    armies: Sequence[int],
    me: int,
    source: int,
    fighting: int,
    wanted: set[int],
    steps: int,
    detours: int = KILL_DETOURS,
) -> list[list[int]]:
    """Up to :data:`KILL_PATHS` paths from ``source`` through every territory of ``wanted``
    (and at most ``detours`` others), each step a neighbour of the last, pruned
    where the armies left (each capture costs its defenders and the one left behind) would
    run out; the rival's own territories and the weakest are tried first. It stops after
    ``steps`` territories stepped onto."""
    paths: list[list[int]] = []
    path: list[int] = []
    budget = [steps]

    def step(here: int, strength: float, left: int, detours: int) -> None:
        if left == 0:
            paths.append(path[:])
            return
        budget[0] -= 1
        if budget[0] < 0:
            return
        ahead = [nb for nb in neighbours[here] if owner[nb] != me and nb not in path]
        ahead.sort(key=lambda nb: (nb not in wanted, armies[nb], nb))
        for nb in ahead:
            if len(paths) >= KILL_PATHS or budget[0] < 0:
                return
            hit = nb in wanted
            if not hit and detours == 0:
                continue
            after = strength - armies[nb] - 1
            if after < 1:
                continue
            path.append(nb)
            step(nb, after, left - hit, detours - (not hit))
            path.pop()

    step(source, float(fighting), len(wanted), detours)
    return paths


def path_step(
    owner: Sequence[int], armies: Sequence[int], me: int, path: Sequence[int]
) -> tuple[int, int] | None:
    """The next capture along a kill path, or None once it is taken or its stack is spent."""
    for src, dst in itertools.pairwise(path):
        if owner[dst] != me:
            if owner[src] != me or armies[src] < 2:
                return None
            return src, dst
    return None


def likely_kill(
    g: Geometry,
    owner: Sequence[int],
    armies: Sequence[int],
    me: int,
    extra: int = 0,
    sources: Sequence[int] | None = None,
) -> list[int] | None:
    """The path of :func:`kill_plan` when its odds reach :data:`KILL_ODDS`, else None."""
    plan = kill_plan(g, owner, armies, me, extra, sources)
    return plan[1] if plan is not None and plan[0] >= KILL_ODDS else None
