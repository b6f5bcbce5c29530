"""The Gymnasium one-seat environment: Gymnasium's own checker for every game with an
encoder and every player count, then the bots, the steps, the rewards and the text."""

from __future__ import annotations

import random
import warnings

import pytest

pytest.importorskip(
    "gymnasium", reason="the rl extra is not installed (pip install risk-arena[rl])"
)

from gymnasium.utils.env_checker import check_env

from arena.envs import single_agent_env
from arena.envs.rewards import place_reward
from arena.errors import ArenaError, ConfigError
from tests.envs.play import game_counts, greedy_action, random_action


@pytest.mark.parametrize(("game", "players"), game_counts())
def test_gymnasiums_check_env_passes(game: str, players: int) -> None:
    env = single_agent_env(game, opponents=["random"] * (players - 1), max_rounds=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # every complaint of the checker fails the test
        check_env(env, skip_render_check=True)


def _episode(env: object, seed: int, greedy: bool = False) -> list[object]:
    obs, _ = env.reset(seed=seed)  # type: ignore[attr-defined]
    rng = random.Random(seed)
    trace: list[object] = [obs["observation"].tobytes()]
    while True:
        kind = env.table.kind  # type: ignore[attr-defined]
        action = greedy_action(kind, obs, rng) if greedy else random_action(obs, rng)
        obs, reward, terminated, truncated, info = env.step(action)  # type: ignore[attr-defined]
        trace.append((obs["observation"].tobytes(), reward, terminated, truncated, info))
        if terminated or truncated:
            return trace


@pytest.mark.parametrize("game", sorted({g for g, _ in game_counts()}))
def test_the_same_seed_gives_the_same_episode_against_random(game: str) -> None:
    env = single_agent_env(game, opponents=["random", "random"], max_rounds=4)
    first = _episode(env, seed=21)
    assert _episode(env, seed=21) == first
    assert _episode(env, seed=22) != first


def test_bundled_bots_answer_legally_and_reproducibly_as_the_other_seats() -> None:
    env = single_agent_env("classic", opponents=["planner", "aggressive"], seat=1, max_rounds=6)
    first = _episode(env, seed=5)
    assert [o.name for o in env.opponents.values()] == ["planner", "aggressive"]
    assert all(o.asked > 20 and o.defaults == 0 for o in env.opponents.values())
    assert _episode(env, seed=5) == first


def test_a_step_returns_the_agents_next_decision() -> None:
    env = single_agent_env("classic", opponents=["random", "random"], seat=2, max_rounds=5)
    obs, _ = env.reset(seed=3)
    rng = random.Random(3)
    table = env.table
    for _ in range(300):
        assert table.seat == 2
        listed = table.game.choices(table.game.legal_options(table.state, 2))
        assert obs["action_mask"].sum() == min(len(listed), env.encoder.max_actions)
        assert (obs["observation"] == table.encode(2)).all()
        obs, _, terminated, truncated, _ = env.step(random_action(obs, rng))
        if terminated or truncated:
            break
    with pytest.raises(ArenaError, match="call reset"):
        env.step(0)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_last_step_rewards_the_agents_place(seed: int) -> None:
    env = single_agent_env("classic", opponents=["aggressive", "aggressive"], max_rounds=80)
    *_, (_, reward, terminated, truncated, info) = _episode(env, seed, greedy=True)
    assert terminated and not truncated
    assert reward == place_reward(info["place"], 3)
    assert not env.table.mask(0).any()  # the last observation offers no action
    outcome = env.table.outcome()
    if outcome is not None:  # the game ended; else the agent went out and it plays on
        assert info["place"] == outcome.places[0]
    else:
        assert 0 in env.table.out


def test_a_round_cap_is_a_truncation_without_reward() -> None:
    env = single_agent_env("classic", opponents=["random"], max_rounds=2)
    *_, (_, reward, terminated, truncated, info) = _episode(env, seed=1)
    assert truncated and not terminated and reward == 0.0 and info["place"] in (1, 2)


def test_an_action_the_mask_closes_plays_the_default() -> None:
    env = single_agent_env("classic", opponents=["random", "random"], max_rounds=2)
    obs, _ = env.reset(seed=4)
    *_, info = env.step(int(obs["action_mask"].sum()))
    assert info == {"illegal_action": True}
    with pytest.raises(ArenaError, match="outside the action space"):
        env.step(env.encoder.max_actions)


def test_bad_opponents_and_seats_are_one_line_errors() -> None:
    with pytest.raises(ConfigError, match="no-such-bot"):
        single_agent_env("classic", opponents=["no-such-bot"])
    with pytest.raises(ConfigError, match="plays europe, not classic"):
        single_agent_env("classic", opponents=["europe-heuristic"])
    with pytest.raises(ConfigError, match=r"seat must be 0\.\.1"):
        single_agent_env("classic", opponents=["random"], seat=2)
    with pytest.raises(ConfigError, match="list of one or more"):
        single_agent_env("classic", opponents="random")


def test_render_tells_the_game_with_the_bots_names() -> None:
    env = single_agent_env("classic", opponents=["aggressive"], render_mode="ansi", max_rounds=3)
    _episode(env, seed=2)
    text = env.render()
    assert "aggressive" in text and "agent" in text and "Game over" in text
    assert env.render() == ""
