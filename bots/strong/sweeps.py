"""Sweeps, eliminations by several stacks in one turn: which stack attacks next (the widest
margin over the rival's weakest territory next to it) and how many armies move on."""

from __future__ import annotations

from collections.abc import Sequence

from .geometry import Geometry

SWEEP_SIZE = 14
"""Rivals holding more territories than this are not swept (several stacks, one turn)."""


def sweep_attack(
    g: Geometry, owner: Sequence[int], armies: Sequence[int], me: int, victim: int
) -> tuple[int, int] | None:
    """The next attack of a sweep, an elimination by several stacks: the one of ``me``'s
    stacks next to ``victim`` with the most armies to spare over its weakest territory
    there (at least as many rolling armies as defenders); None when there is none."""
    best: tuple[tuple[int, int], int, int] | None = None
    for v in range(g.size):
        if owner[v] != victim:
            continue
        for src in g.neighbours[v]:
            if owner[src] != me or armies[src] < 2:
                continue
            margin = armies[src] - 1 - armies[v]
            if margin < 0:
                continue
            key = (margin, -src)
            if best is None or key > best[0]:
                best = (key, src, v)
    return None if best is None else (best[1], best[2])


def sweep_occupy(
    g: Geometry,
    owner: Sequence[int],
    armies: Sequence[int],
    victim: int,
    src: int,
    dst: int,
    least: int,
    most: int,
) -> int:
    """Armies to move on in a sweep: all of them when the captured territory borders every
    territory of the rival's that the source does, none when the source borders all that it
    does, else split by the rival's armies that only one side borders."""
    ahead = {n for n in g.neighbours[dst] if owner[n] == victim}
    behind = {n for n in g.neighbours[src] if owner[n] == victim and n != dst}
    if behind <= ahead:
        return most
    if ahead <= behind:
        return least
    only_ahead = sum(armies[n] + 1 for n in ahead - behind)
    only_behind = sum(armies[n] + 1 for n in behind - ahead)
    total = armies[src] + armies[dst]
    return max(least, min(most, round(total * only_ahead / (only_ahead + only_behind))))
