"""Every registered game keeps the game contract (:mod:`arena.games.api`), played through the
contract alone: seeded random games where every step checks what the arena relies on.

The games are the registry's (classic) plus the test-only guessing game, which has nothing
of RISK in it: what passes here for both is all the arena may assume of a game.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from arena import games
from arena.errors import ConfigError, IllegalActionError
from arena.games.api import Game, GameType


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


GAME_NAMES = (*games.GAMES, "guessing")
"""Every game the package ships (from the registry) and the test-only guessing game."""


def _configurations() -> list[tuple[str, int, dict[str, Any]]]:
    """(game, players, configuration) of every game: the configurations its check-bot
    positions come from (short games over which every decision kind is met)."""
    import tests.games.guessing as guessing

    found: list[tuple[str, int, dict[str, Any]]] = []
    for name in GAME_NAMES:
        game_type = guessing.GAME if name == "guessing" else games.load(name)
        configs = {_json(p.game.config()): p.game for p in game_type.positions(seed=1)}
        found.extend((name, g.players, g.config()) for g in configs.values())
    return found


CONFIGS = _configurations()


def _views(game: Game[Any, Any, Any], state: Any) -> list[str]:
    return [_json(game.view(state, seat)) for seat in range(game.players)]


def _answers(
    game: Game[Any, Any, Any], state: Any, seats: tuple[int, ...], rng: random.Random
) -> dict[int, Any]:
    return {s: rng.choice(list(game.choices(game.legal_options(state, s)))) for s in seats}


def play(game: Game[Any, Any, Any], seed: int, forfeit_at: int | None = None) -> Any:
    """A seeded random game through the contract, checking each step; returns the end."""
    rng = random.Random(seed)
    state = game.new_game(seed)
    out: list[int] = []
    for step_number in range(20_000):
        decision = game.decision(state)
        if decision is None:
            break
        assert game.outcome(state) is None
        assert decision.seats and all(0 <= s < game.players for s in decision.seats)
        assert decision.simultaneous or len(decision.seats) == 1
        if step_number == forfeit_at:
            seat = decision.seats[0]
            before = _views(game, state)
            step = game.forfeit(state, seat)
            assert _views(game, state) == before, "forfeit changed the state it was given"
            state = step.state
            out.append(seat)
            continue
        answers = _answers(game, state, decision.seats, rng)
        for seat, action in answers.items():
            game.check(state, seat, action)
            default = game.default_action(state, seat)
            game.check(state, seat, default)
            data = game.action_to_dict(action)
            assert game.action_from_dict(json.loads(_json(data))) == action
        before = _views(game, state)
        step = game.apply_joint(state, answers)
        assert _views(game, state) == before, "apply_joint changed the state it was given"
        if not decision.simultaneous:
            ((seat, action),) = answers.items()
            single = game.apply(state, seat, action)
            assert _json(single.events) == _json(step.events)
            fast = game.copy(state)
            assert _json(game.apply_unchecked(fast, seat, action)) == _json(step.events)
            assert _views(game, fast) == _views(game, step.state)
        for event in step.events:
            assert isinstance(event.get("type"), str)
            for seat in range(game.players):
                _json(game.redact(event, seat))
        state = step.state
    else:
        raise AssertionError("the game did not end within 20,000 decisions")
    outcome = game.outcome(state)
    assert outcome is not None
    assert len(outcome.places) == game.players and min(outcome.places) == 1
    if outcome.winner is not None:
        assert outcome.places[outcome.winner] == 1 and outcome.places.count(1) == 1
    order = game.out_order(state)
    assert set(out) <= set(order), "every forfeited seat is in the out order"
    for earlier, later in itertools.pairwise(order):
        assert outcome.places[earlier] >= outcome.places[later], "who left first places worst"
    return state


@pytest.mark.parametrize(
    ("name", "players", "config"),
    CONFIGS,
    ids=[f"{n}-{p}p-{i}" for i, (n, p, _) in enumerate(CONFIGS)],
)
def test_random_games_keep_the_contract(name: str, players: int, config: dict[str, Any]) -> None:
    game_type = games.load(name)
    game = game_type.from_config(config)
    assert game.players == players and game.info.name == name
    again = game_type.from_config(json.loads(_json(game.config())))
    assert again.config() == game.config() and again.rating_format() == game.rating_format()
    assert "/" in game.rating_format() or game.rating_format()
    _json(game.board())
    end = play(game, 0)
    assert _views(game, play(game, 0)) == _views(game, end), "same seed, same game"
    play(game, 1)
    play(game, 7, forfeit_at=3)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_metadata_describes_every_option_and_its_default_configures(name: str) -> None:
    game_type: GameType = games.load(name)
    info = game_type.info
    assert info.min_players <= info.max_players and info.options
    for option in info.options:
        assert option.description and (not option.choices or option.default in option.choices)
    defaults = {o.key: o.default for o in info.options}
    players = max(info.min_players, 3) if info.max_players >= 3 else info.min_players
    game_type.configure(defaults if name == "guessing" else {}, players)
    with pytest.raises(ConfigError, match="unknown rules key"):
        game_type.configure({"no_such_key": "1"}, players)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_check_bot_positions_are_real_decisions(name: str) -> None:
    positions = games.load(name).positions(seed=1)
    assert positions
    for position in positions:
        decision = position.game.decision(position.state)
        assert decision is not None and decision.kind == position.kind
        assert position.seat in decision.seats


def test_classic_positions_meet_every_decision_kind() -> None:
    from arena.games.classic.game import KINDS

    assert [p.kind for p in games.load("classic").positions()] == list(KINDS)


def test_a_joint_answer_is_checked_whole_before_anything_is_applied() -> None:
    """Capital RISK's headquarters: every answer is checked against the same position; a
    bad one names its seat and nothing is applied."""
    game = games.load("classic").configure({"mode": "capital"}, 3)
    state = game.new_game(5)
    rng = random.Random(5)
    while (decision := game.decision(state)) is not None and decision.kind != "headquarters":
        state = game.apply_joint(state, _answers(game, state, decision.seats, rng)).state
    assert decision is not None and decision.simultaneous and len(decision.seats) == 3
    answers = _answers(game, state, decision.seats, rng)
    theirs = next(t for t, o in enumerate(state.owner) if o != 1)
    bad = dict(answers) | {1: type(answers[1])(theirs)}
    before = _views(game, state)
    with pytest.raises(IllegalActionError, match=r"^seat 1: "):
        game.apply_joint(state, bad)
    assert _views(game, state) == before
    after = game.apply_joint(state, answers).state
    assert game.decision(after) is not None and game.decision(after).kind != "headquarters"


def test_the_registry_names_its_games_and_refuses_unknown_ones() -> None:
    assert "classic" in games.names() and "guessing" in games.names()
    with pytest.raises(ConfigError, match="unknown game 'chess'; choose one of: classic"):
        games.load("chess")
    with pytest.raises(ConfigError):
        games.register("a/b", "tests.games.guessing")
