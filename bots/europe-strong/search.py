"""The search: a budget of rollouts or of time, and successive halving over candidate
answers scored in shared sampled worlds."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from arena.sdk import Request

THINK_SHARE = 0.4
"""Share of the decision's move time the search may use; the rest absorbs the last rollout's
overrun and scheduler noise."""
CUT_SHARE = 0.55
"""Share of the move time past which a rollout under way is abandoned (a loaded machine can
stretch one rollout many times over)."""
BANK_STOP = 0.6
"""Share of the bank below which the bot no longer searches and answers as the policy does,
in a fraction of a millisecond."""
NO_CLOCK_NODES = 24
"""Rollouts per search when the match has no clock and no node budget is set."""

World = TypeVar("World")
Candidate = TypeVar("Candidate")


class Budget:
    """When a search must stop: a node count (replayable), or a clock deadline."""

    def __init__(
        self, nodes: int | None, seconds: float | None, since: float | None = None
    ) -> None:
        self.nodes = nodes
        start = time.perf_counter() if since is None else since
        self.deadline = start + seconds if seconds is not None else None
        self.cut = start + seconds * CUT_SHARE / THINK_SHARE if seconds is not None else None
        """When a rollout under way is abandoned (None: never, under a node budget)."""
        self.used = 0

    def overdue(self) -> bool:
        """Whether a rollout under way must be abandoned."""
        return self.cut is not None and time.perf_counter() >= self.cut

    def spent(self) -> bool:
        if self.nodes is not None:
            return self.used >= self.nodes
        assert self.deadline is not None
        return time.perf_counter() >= self.deadline


def halving_search(
    candidates: Sequence[Candidate],
    world: Callable[[], World],
    play: Callable[[World, Candidate], float | None],
    budget: Budget,
) -> tuple[int, list[int]]:
    """Index of the candidate with the best mean score over shared sampled worlds, and the
    rollouts each got.

    Each pass samples one world and scores every live candidate in it (``play`` copies it;
    it returns None for a rollout abandoned past the budget's cut, which ends the search);
    after passes 2, 4, 8, ... the worse half of the live candidates is dropped (two stay at
    least). The budget is checked after every rollout, so a pass may be cut short; the
    candidates come best-first by their prior (the reference policy's own answer first), so
    a candidate never scored is never chosen and a search with no time left answers as the
    reference would.
    """
    counts = [0] * len(candidates)
    if len(candidates) == 1:
        return 0, counts
    totals = [0.0] * len(candidates)
    live = list(range(len(candidates)))
    score: float | None = 0.0
    passes = 0
    next_cut = 2
    while not budget.spent():
        base = world()
        for i in live:
            score = play(base, candidates[i])
            if score is None:
                break
            totals[i] += score
            counts[i] += 1
            budget.used += 1
            if budget.spent():
                break
        if score is None:
            break
        passes += 1
        if passes >= next_cut and len(live) > 2:
            live.sort(key=lambda i: (-totals[i] / counts[i], i))
            live = live[: max(2, (len(live) + 1) // 2)]
            next_cut *= 2
    scored = [i for i in live if counts[i]]
    if not scored:
        return 0, counts
    return max(scored, key=lambda i: (totals[i] / counts[i], -i)), counts


def budget_for(
    request: Request,
    nodes: int | None,
    move_time: float,
    bank_ms: int,
    since: float | None,
    share: float = THINK_SHARE,
    load: float = 1.0,
) -> Budget:
    """``nodes`` rollouts when set; else ``share`` of the move time from ``since``, when the
    decision was asked, less as the bank drains and times ``load`` (the share of the CPU the
    last searches got: on a loaded machine a rollout takes longer and a pause of the process
    can come at any time); :data:`NO_CLOCK_NODES` without a clock."""
    if nodes is not None:
        return Budget(nodes, None)
    allowed = (request.deadline_ms - request.time_bank_ms) / 1000 or move_time
    if allowed <= 0:
        return Budget(NO_CLOCK_NODES, None)
    factor = bank_factor(request.time_bank_ms, bank_ms) * load
    return Budget(None, share * factor * allowed, since)


def bank_factor(time_bank_ms: int, bank_ms: int) -> float:
    """Think less as the bank drains: from half the bank down the share shrinks with it, and
    below :data:`BANK_STOP` of it the search stops (one more overrun could be a strike)."""
    if bank_ms <= 0:
        return 1.0
    left = time_bank_ms / bank_ms
    if left < BANK_STOP:
        return 0.0
    return min(1.0, 2.0 * left)
