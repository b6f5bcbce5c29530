"""The encoders: fixed shapes and bounds for every game with one, their layouts documented,
and classic's observation blind to what its seat may not see."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed (pip install risk-arena[rl])")

import numpy as np

from arena import games
from arena.envs import encoder_for
from arena.errors import ConfigError
from arena.games.classic.game import ClassicGame
from tests.envs.play import game_counts

TRAINING = Path(__file__).resolve().parents[2] / "docs" / "training.md"


@pytest.mark.parametrize(("game", "players"), game_counts())
def test_every_observation_has_the_layouts_shape_and_stays_in_bounds(
    game: str, players: int
) -> None:
    configured = games.load(game).configure({"max_rounds": "4"}, players)
    encoder = encoder_for(configured)
    assert sum(length for _, length in encoder.layout()) == encoder.observation_size()
    rng = random.Random(players)
    state = configured.new_game(players)
    seen = 0
    while (decision := configured.decision(state)) is not None:
        answers = {}
        for seat in decision.seats:
            obs = encoder.encode(configured.view(state, seat), decision.kind)
            assert obs.dtype == np.float32 and obs.shape == (encoder.observation_size(),)
            assert obs.min() >= 0.0 and obs.max() <= 1.0
            seen += 1
            answers[seat] = rng.choice(configured.choices(configured.legal_options(state, seat)))
        state = configured.apply_joint(state, answers).state
    assert seen > 40  # every kind of the opening rounds, dozens of decisions


@pytest.mark.parametrize("game", sorted({g for g, _ in game_counts()}))
def test_docs_training_lists_every_block_of_the_layout(game: str) -> None:
    text = TRAINING.read_text()
    encoder = encoder_for(games.load(game).configure({}, 3))
    missing = [name for name, _ in encoder.layout() if f"`{name}`" not in text]
    assert not missing, f"docs/training.md does not document {game}'s blocks {missing}"
    assert f"`{encoder.max_actions}`" in text


def test_a_game_without_an_encoder_is_a_one_line_error() -> None:
    unknown = SimpleNamespace(info=SimpleNamespace(name="draughts"))
    with pytest.raises(ConfigError, match=r"game 'draughts' has no environment encoder .* classic"):
        encoder_for(unknown)  # type: ignore[arg-type]


def _classic(players: int, **rules: str) -> ClassicGame:
    game = games.load("classic").configure(rules, players)
    assert isinstance(game, ClassicGame)
    return game


def _played(game: ClassicGame, seed: int, until: Callable[[Any], bool]) -> Any:
    """A seeded random game's first state where ``until`` holds."""
    state = game.new_game(seed)
    rng = random.Random(seed)
    while not until(state):
        decision = game.decision(state)
        assert decision is not None, "the game ended first"
        answers = {
            s: rng.choice(game.choices(game.legal_options(state, s))) for s in decision.seats
        }
        state = game.apply_joint(state, answers).state
    return state


def test_another_seats_cards_never_change_an_observation() -> None:
    game = _classic(3, mode="mission")
    encoder = encoder_for(game)
    state = _played(game, 6, lambda s: len(s.hands[0]) >= 2 and len(s.hands[1]) >= 2)
    hands = state.hands
    before = encoder.encode(game.view(state, 0), "attack")
    other = state.copy()
    deck = list(other.deck)
    swapped = tuple(deck[: len(hands[1])])
    other.deck = tuple(sorted(set(deck) - set(swapped) | set(hands[1])))
    other.hands = (hands[0], swapped, hands[2])
    other.missions = (state.missions[0], (state.missions[1] + 1) % 6, state.missions[2])
    assert (encoder.encode(game.view(other, 0), "attack") == before).all()
    mine = state.copy()
    mine.hands = (swapped, hands[1], hands[2])  # the test can see a change where there is one
    assert (encoder.encode(game.view(mine, 0), "attack") != before).any()


def test_another_seats_secret_headquarters_never_change_an_observation() -> None:
    game = _classic(3, mode="capital")
    encoder = encoder_for(game)
    state = game.new_game(9)
    rng = random.Random(9)
    while (decision := game.decision(state)) is not None and decision.kind != "headquarters":
        seat = decision.seats[0]
        game.apply_unchecked(state, seat, rng.choice(game.choices(game.legal_options(state, seat))))
    owned = [t for t, o in enumerate(game.view(state, 1)["owner"]) if o == 1]
    seen = set()
    for hq in owned[:3]:
        chosen = state.copy()
        chosen.hq_pending = (-1, hq, -1)
        seen.add(encoder.encode(game.view(chosen, 0), "headquarters").tobytes())
    assert len(seen) == 1
    mine = state.copy()
    own = next(t for t, o in enumerate(game.view(state, 0)["owner"]) if o == 0)
    mine.hq_pending = (own, -1, -1)
    assert encoder.encode(game.view(mine, 0), "headquarters").tobytes() not in seen


def test_seats_are_seen_from_the_observer_so_one_policy_serves_every_seat() -> None:
    game = _classic(3)
    encoder = encoder_for(game)
    state = _played(game, 2, lambda s: s.turns > 5)
    layout = dict(encoder.layout())
    start = 0
    for name, length in encoder.layout():
        if name == "owner":
            break
        start += length
    owner = game.view(state, 0)["owner"]
    for seat in range(3):
        obs = encoder.encode(game.view(state, seat), "attack")
        rows = obs[start : start + layout["owner"]].reshape(len(owner), 4)
        for territory, holder in enumerate(owner):
            assert rows[territory].argmax() == (holder - seat) % 3 and rows[territory].sum() == 1


@pytest.mark.parametrize("rules", [{}, {"mode": "capital"}, {"mode": "mission"}])
def test_an_encoder_that_remembers_earlier_views_encodes_as_a_fresh_one(
    rules: dict[str, str],
) -> None:
    """The encoder keeps what seldom changes between a seat's observations; every
    observation must still be exactly what a new encoder makes of the same view."""
    game = _classic(4, max_rounds="12", **rules)
    kept = encoder_for(game)
    state = game.new_game(4)
    rng = random.Random(4)
    compared = 0
    while (decision := game.decision(state)) is not None:
        for seat in decision.seats:
            view = game.view(state, seat)
            fresh = encoder_for(game).encode(view, decision.kind)
            assert (kept.encode(view, decision.kind) == fresh).all(), (decision.kind, compared)
            compared += 1
        answers = {
            s: rng.choice(game.choices(game.legal_options(state, s))) for s in decision.seats
        }
        state = game.apply_joint(state, answers).state
    assert compared > 400
