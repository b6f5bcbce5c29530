"""europe-strong: determinized Monte-Carlo search over the real RISK: Europe engine, from its
own view only (see README.md).

The two secret order cards of each round (its own, and a Mercenary Army's it controls) are
a small search (the bid, the kingdoms, the mercenary bids and the turns can be searched the
same way, :attr:`EuropeStrong.kinds`, but that lost games): a handful of candidate answers
(:mod:`.candidates`, the reference policy's own first), each played on the engine in sampled
worlds (:class:`arena.sdk.europe.sim.Simulator`: the view, with what it hides drawn from the
bot's own generator, the others' cards guessed as the reference policy would have chosen
them), then the game rolled out to the end of the round with the reference policy
(:mod:`.heuristic`, a frozen copy of europe-heuristic) answering for every seat
(:mod:`.rollout`), and the position valued (:mod:`.value`). The others' answers to a
simultaneous decision are the policy's from their own view of the world. Candidates share
each world and its dice, and successive halving drops the worse half as evidence grows
(:mod:`.search`). The search is anytime: it stops at a share of the move time, or after a
fixed number of rollouts (``nodes``), which makes a game replayable from the bot's seed.
Every decision not searched follows the policy.
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any

from arena.games.europe.actions import Action
from arena.games.europe.state import EuropeState
from arena.sdk import Answer, MatchInfo, Request
from arena.sdk.europe import EuropeBot
from arena.sdk.europe.sim import Simulator

from .candidates import candidates
from .heuristic import EuropeHeuristic
from .rollout import Rollout
from .search import budget_for, halving_search
from .value import value

CANDIDATES = 6
"""Answers compared per search."""
LOAD_FLOOR = 0.2
"""Least share of its thinking time a search keeps on a loaded machine."""
SIMULTANEOUS = frozenset({"bid", "mercenary_bid", "cards"})
SEARCHED_KINDS = frozenset({"cards", "mercenary_cards"})
"""Decision kinds searched by default; the others follow the policy (searching the bid, the
kingdoms and the turns lost games against europe-heuristic: see the README)."""
HORIZON = 1
"""Rounds a rollout plays (the current one included); a setup decision's round 1 too."""


class EuropeStrong(EuropeBot):
    """Searches its decisions on the engine in sampled worlds; see the module docstring."""

    name = "europe-strong"
    version = "1.0"
    games = ("europe",)

    def __init__(self, nodes: int | None = None) -> None:
        self.nodes = nodes
        """Rollouts per search; None: as many as the clock allows."""
        self.policy = EuropeHeuristic()
        """The reference policy: rollouts, candidates, and every decision not searched."""
        self.guess: dict[int, tuple[int, int]] = {}
        """The cards each other army is expected to have chosen this round."""
        self.kinds = SEARCHED_KINDS
        """Decision kinds searched (the others follow the policy)."""
        self.horizon = HORIZON
        """Rounds a rollout plays: the current one, and as many more less one."""
        self.width = CANDIDATES
        self.load = 1.0
        """The share of the CPU recent searches got (wall time against process time): the
        thinking time shrinks with it on a loaded machine."""
        self.searched = 0
        self.rollouts = 0

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.policy.start(match)
        self.guess = {}
        if match.game != "europe":
            return
        self.sim = Simulator(match)
        self.rollout = Rollout(self.sim, self.policy)
        self.rng = random.Random(match.bot_seed)
        self.move_time = match.move_time_ms / 1000
        self.bank_ms = match.time_bank_ms

    def declarations(self, game: str) -> dict[str, Any]:
        return self.policy.declarations(game)

    def choose(self, request: Request) -> Answer:
        asked = time.perf_counter()
        if request.game != "europe" or request.kind not in self.kinds:
            return self.policy.choose(request)
        try:
            return self._search(request, asked)
        except Exception as exc:  # never raise: the policy's answer is always there
            self.debug(f"search fallback: {exc!r}")
            return self.policy.choose(request)

    def _search(self, request: Request, asked: float) -> Answer:
        cpu, began = time.process_time(), time.perf_counter()
        found = candidates(self.policy, request, self.width)
        budget = budget_for(
            request, self.nodes, self.move_time, self.bank_ms, asked, load=self.load
        )
        if len(found) == 1 or budget.spent():
            return found[0]  # type: ignore[no-any-return]
        me = request.seat
        kind = request.kind
        rules = self.sim.rules
        view = request.view
        horizon = max(int(view["round"]), 1) + self.horizon
        joint = kind in SIMULTANEOUS

        def world() -> tuple[EuropeState, dict[int, Action]]:
            state = self.sim.sample(view, self.rng, self.guess)
            return state, self.rollout.answers(state, skip=me) if joint else {}

        shared = [world()]
        state, others = shared[0]
        # a built answer the engine refuses is dropped (the policy's own, first, stays)
        found = [found[0]] + [c for c in found[1:] if _legal(rules, state, me, c)]
        if kind == "cards":
            self.guess = {a: (c.first, c.second) for a, c in others.items()}

        def next_world() -> tuple[EuropeState, dict[int, Action]]:
            return shared.pop() if shared else world()

        def play(base: tuple[EuropeState, dict[int, Action]], answer: Action) -> float | None:
            state = base[0].copy()
            if joint:
                rules.apply_joint_unchecked(state, {**base[1], me: answer})
            else:
                rules.apply_unchecked(state, me, answer)
            if not self.rollout.play(state, horizon, budget.overdue):
                return None
            return value(rules, state, me)

        best, counts = halving_search(found, next_world, play, budget)
        if budget.deadline is not None:
            wall = time.perf_counter() - began
            got = min(1.0, (time.process_time() - cpu) / wall) if wall > 0 else 1.0
            self.load = max(LOAD_FLOOR, 0.5 * self.load + 0.5 * got)
        self.searched += 1
        self.rollouts += sum(counts)
        return found[best]  # type: ignore[no-any-return]


def _legal(rules: Any, state: EuropeState, seat: int, action: Action) -> bool:
    try:
        rules.check(state, seat, action)
    except Exception:
        return False
    return True


if __name__ == "__main__":
    nodes = int(sys.argv[sys.argv.index("--nodes") + 1]) if "--nodes" in sys.argv else None
    EuropeStrong(nodes).run()
