"""Training environments' speed: are they fast enough to train on?

For each game with an encoder (3 players by default), on one core: the engine loop's
decisions per second with a view built each decision (``legal_options``, ``choices``, a
seeded random pick, checked ``apply``, then ``view`` for the seat that decides next), and the
PettingZoo AEC environment's steps per second making the same random choices from its
action mask (``last()`` then ``step()``: the observation and mask built each decision).
Both play the same seeded games, so their decisions are the same. Times are the process's
CPU seconds.

Then the vectorized runner: ``gymnasium.vector.AsyncVectorEnv`` of the one-seat environment
(against ``random`` bots) over 1 and 2 processes, random masked actions, steps per wall
second. The last line is ``ratio R``: the worst game's environment/engine ratio (the target
is at least 0.7).

    python benchmarks/envs.py [--players N] [--decisions D] [--seconds S] [--game NAME]
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import time
from typing import Any

import numpy as np
from gymnasium.vector import AsyncVectorEnv

from arena.envs import ArenaAECEnv, aec_env, single_agent_env
from arena.envs.encoding import encoded_games
from arena.errors import ArenaError
from arena.games.api import Game


def engine_game(game: Game[Any, Any, Any], seed: int, limit: int, max_actions: int) -> int:
    """One seeded game of the engine loop (checked apply + view), up to ``limit``
    decisions; how many it made."""
    rng = random.Random(seed)
    state = game.new_game(seed)
    decision = game.decision(state)
    done = 0
    while decision is not None and done < limit:
        answers = {}
        for seat in decision.seats:
            listed = game.choices(game.legal_options(state, seat))
            answers[seat] = listed[rng.randrange(min(len(listed), max_actions))]
            done += 1
        if decision.simultaneous:
            state = game.apply_joint(state, answers).state
        else:
            seat = decision.seats[0]
            state = game.apply(state, seat, answers[seat]).state
        decision = game.decision(state)
        if decision is not None:
            game.view(state, decision.seats[0])
    return done


def env_game(env: ArenaAECEnv, seed: int, limit: int) -> int:
    """The same game through the AEC environment (random legal actions from the mask,
    which opens a prefix of the action space), up to ``limit`` decisions."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    done = 0
    while env.agents and done < limit:
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(rng.randrange(np.count_nonzero(obs["action_mask"])))
        done += 1
    return done


def loop_rates(name: str, players: int, decisions: int) -> tuple[float, float]:
    """Decisions per CPU second of the engine loop and of the AEC environment, game by game
    in turn (so a machine's changing load weighs on both alike)."""
    env = aec_env(name, players=players)
    game = env.game
    counts, seconds = [0, 0], [0.0, 0.0]
    seed = 0
    while counts[1] < decisions:
        seed += 1
        limit = decisions - counts[1]
        started = time.process_time()
        counts[0] += engine_game(game, seed, limit, env.encoder.max_actions)
        seconds[0] += time.process_time() - started
        started = time.process_time()
        counts[1] += env_game(env, seed, limit)
        seconds[1] += time.process_time() - started
    return counts[0] / seconds[0], counts[1] / seconds[1]


def vector_rate(name: str, players: int, processes: int, seconds: float) -> float:
    """Steps per wall second of an AsyncVectorEnv of one-seat environments."""
    make = functools.partial(single_agent_env, name, opponents=["random"] * (players - 1))
    vector = AsyncVectorEnv([make] * processes)
    try:
        obs, _ = vector.reset(seed=1)
        rng = np.random.default_rng(1)
        steps = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            masks = obs["action_mask"]
            actions = np.array(
                [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks], dtype=np.int64
            )
            obs, *_ = vector.step(actions)
            steps += processes
        return steps / (time.perf_counter() - started)
    finally:
        vector.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--players", type=int, default=3, help="seats per game (default 3)")
    parser.add_argument("--decisions", type=int, default=30_000, help="decisions per figure")
    parser.add_argument("--seconds", type=float, default=8.0, help="wall seconds per vector run")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args(argv)
    names = args.game or list(encoded_games())
    ratios: dict[str, float] = {}
    try:
        for name in names:
            engine, env = loop_rates(name, args.players, args.decisions)
            ratios[name] = env / engine
            print(
                f"{name} {args.players}p: engine loop (checked apply + view) {engine:,.0f} decisions/s"
            )
            print(
                f"{name} {args.players}p: AEC environment {env:,.0f} steps/s ({env / engine:.2f}x)"
            )
        for name in names:
            rates: list[float] = []
            for processes in (1, 2):
                rates.append(vector_rate(name, args.players, processes, args.seconds))
                print(
                    f"{name} {args.players}p: AsyncVectorEnv of the one-seat env against random, "
                    f"{processes} process{'es' if processes > 1 else ''}: {rates[-1]:,.0f} steps/s"
                )
            print(
                f"{name} {args.players}p: vector scaling 1 → 2 processes {rates[1] / rates[0]:.2f}x"
            )
    except ArenaError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    worst = min(ratios.values())
    print(f"ratio {worst:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
