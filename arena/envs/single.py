"""One seat of a game as a Gymnasium environment: every other seat is a bundled bot, loaded
in this process by name and asked as the referee asks an in-process seat
(:mod:`arena.envs.opponents`). A step is one decision of the agent's seat: the bots play
until the agent decides again, and the step returns that decision's observation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from arena.envs.encoding import encoder_for, observation_space
from arena.envs.narration import Narration
from arena.envs.opponents import Opponent
from arena.envs.rewards import out_place, place_reward, place_rewards
from arena.envs.table import ROUND_LIMIT, Table, configured
from arena.errors import ArenaError, ConfigError

RENDER_MODES = ("ansi", "human")
SEED_BITS = 62
AGENT = "agent"
"""The agent's seat's name in the narrator's text."""


class SingleAgentEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """The agent's seat against bots (see docs/training.md for observations and rewards)."""

    metadata = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012 (Gymnasium's own attribute)

    def __init__(
        self,
        game: str,
        *,
        opponents: Sequence[str] = ("random",),
        seat: int = 0,
        rules: Mapping[str, object] | None = None,
        max_rounds: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ConfigError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None")
        if isinstance(opponents, str) or not opponents:
            raise ConfigError("opponents must be a list of one or more bot names")
        players = len(opponents) + 1
        if not 0 <= seat < players:
            raise ConfigError(f"seat must be 0..{players - 1} with {len(opponents)} opponents")
        self.game = configured(game, players, rules, max_rounds)
        self.encoder = encoder_for(self.game)
        self.render_mode = render_mode
        self.seat = seat
        others = [s for s in range(players) if s != seat]
        self.opponents = {
            s: Opponent(name, self.game, s) for s, name in zip(others, opponents, strict=True)
        }
        self.names = [AGENT if s == seat else self.opponents[s].name for s in range(players)]
        self.table = Table(self.game, self.encoder, self.names)
        self.table.recording = render_mode is not None
        self.narration = Narration(self.game, self.names)
        self.observation_space = observation_space(self.encoder)
        self.action_space = spaces.Discrete(self.encoder.max_actions)
        self.episode_seed = 0
        """The game seed of the current episode."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game, seeded by ``seed`` or by the next draw of the generator the last
        seed given started (Gymnasium's convention), played up to the agent's decision."""
        super().reset(seed=seed)
        self.episode_seed = (
            seed if seed is not None else int(self.np_random.integers(0, 2**SEED_BITS))
        )
        declarations = [
            self.opponents[s].declarations if s in self.opponents else {}
            for s in range(self.game.players)
        ]
        self.table.reset(self.episode_seed, declarations)
        self.narration.start(self.episode_seed, declarations)
        for opponent in self.opponents.values():
            opponent.start(self.episode_seed, self.names)
        self._others_play()
        if self.render_mode == "human":
            self.render()
        return self.table.observe(self.seat), {}

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        table = self.table
        if table.seat != self.seat:
            raise ArenaError("the episode is over: call reset() before another step")
        chosen, legal = table.action(action)
        self._tell(table.play(chosen))
        self._others_play()
        if self.render_mode == "human":
            self.render()
        observation = table.observe(self.seat)
        info: dict[str, Any] = {} if legal else {"illegal_action": True}
        if self.seat in table.out:
            place = out_place(table.out.index(self.seat), table.players)
            info["place"] = place
            return observation, place_reward(place, table.players), True, False, info
        if table.over:
            outcome = table.outcome()
            assert outcome is not None
            info["place"] = outcome.places[self.seat]
            if outcome.end_reason == ROUND_LIMIT:
                return observation, 0.0, False, True, info
            return observation, place_rewards(outcome.places)[self.seat], True, False, info
        return observation, 0.0, False, False, info

    def _others_play(self) -> None:
        """The bots answer until the agent's seat decides, goes out, or the game ends."""
        table, seat = self.table, self.seat
        while not table.over and table.seat != seat and seat not in table.out:
            self._tell(table.play(self.opponents[table.seat].choose(table)))

    def _tell(self, events: list[dict[str, Any]]) -> None:
        if events:
            for opponent in self.opponents.values():
                opponent.tell(events)

    def render(self) -> str | None:
        """The narrator's text since the last render: returned ("ansi") or printed ("human")."""
        return self.narration.render(self.render_mode, self.table.records)


def single_agent_env(
    game: str,
    *,
    opponents: Sequence[str] = ("random",),
    seat: int = 0,
    rules: Mapping[str, object] | None = None,
    max_rounds: int | None = None,
    render_mode: str | None = None,
) -> SingleAgentEnv:
    """The Gymnasium environment of ``game``'s seat ``seat`` against ``opponents`` (bundled
    bot names, one per other seat, in seat order); ``max_rounds`` caps the rounds."""
    return SingleAgentEnv(
        game,
        opponents=opponents,
        seat=seat,
        rules=rules,
        max_rounds=max_rounds,
        render_mode=render_mode,
    )
