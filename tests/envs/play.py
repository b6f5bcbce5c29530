"""What the environment tests share: the games that have an encoder, their player counts,
and episodes played by simple seeded policies."""

from __future__ import annotations

import random
from typing import Any

from arena import games
from arena.envs.encoding import encoded_games


def game_counts() -> list[tuple[str, int]]:
    """Every (game, players) an environment exists for, found when the tests are collected."""
    return [
        (name, players)
        for name in encoded_games()
        for players in range(
            games.load(name).info.min_players, games.load(name).info.max_players + 1
        )
    ]


def random_action(obs: dict[str, Any], rng: random.Random) -> int:
    """A uniformly random legal action from the observation's mask."""
    legal = [i for i, allowed in enumerate(obs["action_mask"]) if allowed]
    return rng.choice(legal)


def greedy_action(kind: str, obs: dict[str, Any], rng: random.Random) -> int:
    """An eager attacker (first attack, most armies in, all reinforcements on the first
    territory), random elsewhere: classic games under it end within a few dozen rounds."""
    allowed = int(obs["action_mask"].sum())
    if kind in ("attack", "reinforce"):
        return 0
    if kind == "occupy":
        return allowed - 1
    return rng.randrange(allowed)


def play_episode(env: Any, seed: int, greedy: bool = False, limit: int = 100_000) -> list[Any]:
    """Play ``env`` (an AEC env) from ``reset(seed)`` to its end; the trace of every step:
    (agent, observation bytes, reward, terminated, truncated, info)."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    trace: list[Any] = []
    for agent in env.agent_iter(limit):
        obs, reward, terminated, truncated, info = env.last()
        trace.append(
            (agent, obs["observation"].tobytes(), reward, terminated, truncated, dict(info))
        )
        if terminated or truncated:
            env.step(None)
        elif greedy:
            env.step(greedy_action(env.table.kind, obs, rng))
        else:
            env.step(random_action(obs, rng))
    return trace
