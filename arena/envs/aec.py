"""Any registered game with an encoder as a PettingZoo AEC environment: one step is one
decision of one seat (agents ``player_0`` … ``player_{n-1}``).

Turns are sequential, so this is an AEC environment only (PettingZoo's parallel API, and
its ``parallel_api_test``, are for games where every agent acts at every step). A
simultaneous decision (classic's secret headquarters, Europe's bids and order cards) is the
AEC convention's: each seat it names acts in turn on the same position from before the
decision, and nothing of one seat's choice reaches another's observation until the game
applies all of them together (:meth:`Game.apply_joint`) after the last.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from gymnasium import spaces
from pettingzoo import AECEnv

from arena.envs.encoding import encoder_for, observation_space
from arena.envs.narration import Narration
from arena.envs.rewards import out_place, place_reward, place_rewards
from arena.envs.table import ROUND_LIMIT, Table, configured
from arena.errors import ConfigError

RENDER_MODES = ("ansi", "human")
SEED_BITS = 62
"""Episode seeds drawn after a seeded reset come from a generator seeded by it."""


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class ArenaAECEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """A game's seats as agents; each observes its own view only (see docs/training.md)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "risk_arena_v0",
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str,
        *,
        players: int = 2,
        rules: Mapping[str, object] | None = None,
        render_mode: str | None = None,
        max_rounds: int | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None")
        self.game = configured(game, players, rules, max_rounds)
        self.encoder = encoder_for(self.game)
        self.render_mode = render_mode
        self.possible_agents = [agent_name(s) for s in range(players)]
        self.agent_seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.table = Table(self.game, self.encoder, list(self.possible_agents))
        self.table.recording = render_mode is not None
        self.narration = Narration(self.game, list(self.possible_agents))
        actions = self.encoder.max_actions
        self.observation_spaces = {a: observation_space(self.encoder) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._seeds = random.Random()
        self.seed = 0
        """The game seed of the current episode."""
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: seeded by ``seed``, or by the next seed drawn from the last seed
        given (so a seeded reset makes every following episode reproducible too)."""
        if seed is not None:
            self._seeds = random.Random(seed)
            self.seed = seed
        else:
            self.seed = self._seeds.getrandbits(SEED_BITS)
        self.table.reset(self.seed)
        self.narration.start(self.seed, [{} for _ in self.possible_agents])
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._gone = 0
        self._rewarded = False
        """Whether the last step gave a reward or ended an agent (the rare steps: the
        others skip clearing and adding up rewards)."""
        self.agent_selection = self.possible_agents[self.table.seat]
        self._settle()

    def observe(self, agent: str) -> dict[str, Any]:
        return self.table.observe(self.agent_seat[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        chosen, legal = table.action(action)
        self._cumulative_rewards[agent] = 0.0
        table.play(chosen)
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        info = self.infos[agent]
        if not legal:
            info["illegal_action"] = True
        elif info:
            info.pop("illegal_action", None)
        self._settle()
        if self.render_mode == "human":
            self.render()

    def _settle(self) -> None:
        """After an answer: rewards and terminations for seats that went out or a game
        that ended, the next agent to act, and the dead agents first, as AEC prescribes."""
        table = self.table
        out = table.out
        if not table.over and len(out) == self._gone:  # the common step: nobody went out
            self.agent_selection = self.possible_agents[table.seat]
            return
        self._rewarded = True
        if len(out) > self._gone:
            for order in range(self._gone, len(out)):
                agent = self.possible_agents[out[order]]
                if agent in self.terminations and not self.terminations[agent]:
                    place = out_place(order, table.players)
                    self.rewards[agent] = place_reward(place, table.players)
                    self.terminations[agent] = True
                    self.infos[agent]["place"] = place
            self._gone = len(out)
        if table.over:
            outcome = table.outcome()
            assert outcome is not None
            truncated = outcome.end_reason == ROUND_LIMIT
            earned = place_rewards(outcome.places)
            for agent in self.agents:
                if self.terminations[agent]:
                    continue
                seat = self.agent_seat[agent]
                self.infos[agent]["place"] = outcome.places[seat]
                if truncated:
                    self.truncations[agent] = True
                else:
                    self.rewards[agent] = earned[seat]
                    self.terminations[agent] = True
        else:
            self.agent_selection = self.possible_agents[table.seat]
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self) -> str | None:
        """The narrator's text of what happened since the last render: returned in "ansi"
        mode, printed in "human" mode (where each step renders)."""
        return self.narration.render(self.render_mode, self.table.records)

    def close(self) -> None:
        """Nothing to release: the game is in this process's memory."""


def aec_env(
    game: str,
    *,
    players: int = 2,
    rules: Mapping[str, object] | None = None,
    render_mode: str | None = None,
    max_rounds: int | None = None,
) -> ArenaAECEnv:
    """The PettingZoo AEC environment of ``game`` (a registered name) for ``players`` seats
    under ``rules`` (``--rules`` options); ``max_rounds`` caps the rounds (a truncation)."""
    return ArenaAECEnv(
        game, players=players, rules=rules, render_mode=render_mode, max_rounds=max_rounds
    )
