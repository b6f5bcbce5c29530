"""Playing a sampled world forward: every seat, and every Mercenary Army's controller, answers
as the reference policy would from its own view of that world."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arena.games.europe.actions import Action
from arena.games.europe.state import EuropeState
from arena.sdk import Request
from arena.sdk.europe.sim import Simulator

from .heuristic import EuropeHeuristic


def as_action(request: Request, answer: Any) -> Action:
    """An SDK answer (an index into the choices, or an action) as the action."""
    if isinstance(answer, int):
        chosen: Action = request.choices[answer]
        return chosen
    action: Action = answer
    return action


class Rollout:
    """The reference policy playing every seat of a sampled world."""

    def __init__(self, sim: Simulator, policy: EuropeHeuristic) -> None:
        self.sim = sim
        self.policy = policy

    def answer(self, state: EuropeState, seat: int) -> Action:
        request = self.sim.request(state, seat)
        return as_action(request, self.policy.choose(request))

    def answers(self, state: EuropeState, skip: int = -1) -> dict[int, Action]:
        """The policy's answer of every seat the open decision names, but ``skip``."""
        decision = self.sim.rules.decision(state)
        assert decision is not None
        return {s: self.answer(state, s) for s in decision.seats if s != skip}

    def play(
        self, state: EuropeState, until_round: int, stop: Callable[[], bool] | None = None
    ) -> bool:
        """Play on (in place) until round ``until_round`` starts or the game ends: True; or
        until ``stop`` says so, checked before every decision: False (cut short)."""
        rules = self.sim.rules
        while state.round < until_round:
            decision = rules.decision(state)
            if decision is None:
                return True
            if stop is not None and stop():
                return False
            if decision.simultaneous:
                rules.apply_joint_unchecked(state, self.answers(state))
            else:
                seat = decision.seats[0]
                rules.apply_unchecked(state, seat, self.answer(state, seat))
        return True
