"""The PettingZoo AEC environment: PettingZoo's own checker for every game with an encoder
and every player count, then what the checker cannot see (seeds, masks, secrets,
simultaneous decisions, rewards, eliminations, the narrator's text)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip(
    "pettingzoo", reason="the rl extra is not installed (pip install risk-arena[rl])"
)

import numpy as np
from pettingzoo.test import api_test

from arena.envs import aec_env
from arena.envs.rewards import place_rewards
from arena.errors import ArenaError, ConfigError
from tests.envs.play import game_counts, play_episode, random_action

ROUNDS = 3
"""A short round cap keeps every checker run to a fraction of a second."""


@pytest.mark.parametrize(("game", "players"), game_counts())
def test_pettingzoos_api_test_passes(game: str, players: int) -> None:
    env = aec_env(game, players=players, max_rounds=ROUNDS)
    with pytest.warns(UserWarning):  # a dict observation, as PettingZoo's own chess has
        api_test(env, num_cycles=200)


@pytest.mark.parametrize("game", sorted({g for g, _ in game_counts()}))
def test_the_same_seed_gives_the_same_episode(game: str) -> None:
    env = aec_env(game, players=3, max_rounds=ROUNDS)
    first = play_episode(env, seed=11)
    assert play_episode(env, seed=11) == first
    assert play_episode(aec_env(game, players=3, max_rounds=ROUNDS), seed=11) == first
    assert play_episode(env, seed=12) != first


def test_a_seeded_reset_makes_the_following_episodes_reproducible() -> None:
    env = aec_env("classic", players=2, max_rounds=2)
    env.reset(seed=5)
    seeds = [env.seed]
    for _ in range(2):
        env.reset()
        seeds.append(env.seed)
    env.reset(seed=5)
    again = [env.seed]
    for _ in range(2):
        env.reset()
        again.append(env.seed)
    assert seeds == again and seeds[0] == 5 and len(set(seeds)) == 3


@pytest.mark.parametrize(("game", "players"), [("classic", 3), ("classic", 4)])
def test_the_mask_opens_exactly_the_legal_choices(game: str, players: int) -> None:
    env = aec_env(game, players=players, max_rounds=4)
    env.reset(seed=3)
    rng = random.Random(3)
    table = env.table
    checked = 0
    for agent in env.agent_iter(3000):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.agent_seat[agent]
        listed = table.game.choices(table.game.legal_options(table.state, seat))
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.shape == (env.encoder.max_actions,)
        assert mask.sum() == min(len(listed), env.encoder.max_actions)
        assert not mask[min(len(listed), env.encoder.max_actions) :].any()
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        action = random_action(obs, rng)
        if not table.decision.simultaneous:
            table.game.check(table.state, seat, listed[action])  # legal: raises otherwise
        env.step(action)
        checked += 1
    assert checked > 200


def test_an_action_the_mask_closes_plays_the_default_and_one_outside_the_space_is_an_error() -> (
    None
):
    env = aec_env("classic", players=3, max_rounds=2)
    env.reset(seed=1)
    table = env.table
    agent, seat = env.agent_selection, table.seat
    default = table.game.default_action(table.state, seat)
    allowed = int(env.last()[0]["action_mask"].sum())
    env.step(allowed)  # closed by the mask: the seat's default claim
    assert env.infos[agent] == {"illegal_action": True}
    assert table.game.view(table.state, 0)["owner"][default.territory] == seat
    for outside in (env.encoder.max_actions, -1, None, 1.5, True, "0"):
        with pytest.raises(ArenaError, match="outside the action space"):
            env.step(outside)
    env.step(0)
    assert "illegal_action" not in env.infos[env.possible_agents[(seat + 1) % 3]]


def test_bad_settings_are_one_line_errors() -> None:
    with pytest.raises(ConfigError, match="unknown game"):
        aec_env("chequers")
    with pytest.raises(ConfigError, match="takes 2-6 players"):
        aec_env("classic", players=7)
    with pytest.raises(ConfigError, match="render_mode"):
        aec_env("classic", render_mode="rgb_array")
    with pytest.raises(ConfigError, match="round cap once"):
        aec_env("classic", rules={"max_rounds": 4}, max_rounds=5)


def _to_headquarters(env: object, seed: int) -> None:
    """Reset a capital game and play random actions until its secret headquarters choice."""
    env.reset(seed=seed)  # type: ignore[attr-defined]
    rng = random.Random(seed)
    while env.table.kind != "headquarters":  # type: ignore[attr-defined]
        env.step(random_action(env.last()[0], rng))  # type: ignore[attr-defined]


def test_a_simultaneous_decision_hides_the_first_seats_choice_from_the_next() -> None:
    env = aec_env("classic", players=3, rules={"mode": "capital"}, max_rounds=3)
    seen: dict[int, bytes] = {}
    for first_choice in (0, 5):
        _to_headquarters(env, seed=8)
        table = env.table
        assert table.decision.simultaneous and len(table.decision.seats) == 3
        first = env.agent_selection
        before = {a: env.observe(a)["observation"].tobytes() for a in env.agents}
        env.step(first_choice)
        second = env.agent_selection
        assert second != first and table.kind == "headquarters"
        after = env.observe(second)
        assert after["observation"].tobytes() == before[second]
        assert after["action_mask"].sum() > 0
        seen[first_choice] = after["observation"].tobytes()
        env.step(0)
        third = env.agent_selection
        assert env.observe(third)["observation"].tobytes() == before[third]
        env.step(0)
        assert table.kind != "headquarters"  # applied together after the last answer
        chosen = table.game.view(table.state, 0)["headquarters"]
        assert all(t >= 0 for t in chosen)
    assert seen[0] == seen[5]


def test_a_round_cap_truncates_every_seat_without_a_reward() -> None:
    env = aec_env("classic", players=3, max_rounds=2)
    trace = play_episode(env, seed=4)
    ends = [step for step in trace if step[3] or step[4]]
    assert sorted(step[0] for step in ends) == ["player_0", "player_1", "player_2"]
    assert all(step[4] and not step[3] and step[2] == 0.0 for step in ends)
    assert sorted(step[5]["place"] for step in ends) == [1, 2, 3]
    assert env.agents == []


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_places_give_the_rewards_and_a_seat_out_is_terminated_with_its_own(seed: int) -> None:
    env = aec_env("classic", players=3, max_rounds=60)
    trace = play_episode(env, seed=seed, greedy=True)
    outcome = env.table.outcome()
    assert outcome is not None and outcome.end_reason == "domination"
    ends = {step[0]: step for step in trace if step[3]}
    assert set(ends) == {"player_0", "player_1", "player_2"}
    expected = place_rewards(outcome.places)
    for agent, step in ends.items():
        seat = int(agent.removeprefix("player_"))
        assert step[2] == pytest.approx(expected[seat])
        assert step[5]["place"] == outcome.places[seat]
    # The first seat out learns its fate when it goes out, while the others play on.
    first_out = env.table.out[0]
    ended_at = next(i for i, s in enumerate(trace) if s[0] == f"player_{first_out}" and s[3])
    assert any(not s[3] for s in trace[ended_at + 1 :])
    assert ends[f"player_{first_out}"][2] == -1.0


def test_rewards_are_linear_in_the_place_and_ties_share() -> None:
    assert place_rewards([1, 2, 3]) == [1.0, 0.0, -1.0]
    assert place_rewards([2, 1]) == [-1.0, 1.0]
    assert place_rewards([1, 2, 2, 4]) == pytest.approx([1.0, 0.0, 0.0, -1.0])
    assert place_rewards([1, 1, 3]) == pytest.approx([0.5, 0.5, -1.0])


def test_render_tells_what_happened_since_the_last_render() -> None:
    env = aec_env("classic", players=3, render_mode="ansi", max_rounds=2)
    env.reset(seed=2)
    rng = random.Random(2)
    for _ in range(130):  # the claims, then the first placements
        env.step(random_action(env.last()[0], rng))
    told = env.render()
    assert "claims" in told and "player_0" in told
    assert env.render() == ""
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else random_action(obs, rng))
    rest = env.render()
    assert rest and not rest.startswith(told.splitlines()[0])
    assert "Game over" in rest.splitlines()[-1]


def test_render_without_a_mode_warns_and_returns_nothing() -> None:
    env = aec_env("classic", players=2, max_rounds=2)
    env.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert env.render() is None
