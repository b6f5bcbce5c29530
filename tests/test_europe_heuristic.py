"""The europe-heuristic bot plays whole RISK: Europe games legally and beats random.

The harness plays the engine directly: each decision becomes the ``Request`` an SDK bot gets
(the seat's view, the constraints, the listed choices), and every answer is checked with the
game's own ``check`` before it is applied.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from arena.bots import find_bot, load_bot
from arena.games.europe.game import GAME, EuropeGame
from arena.sdk import Bot, MatchInfo, Request

HEURISTIC = "europe-heuristic"


@dataclass
class Played:
    """One harness game: the outcome and every decision time of the watched seats."""

    winner: int | None
    end: str
    rounds: int
    times: dict[int, list[float]] = field(default_factory=dict)


def bots(names: Sequence[str]) -> list[Bot]:
    return [load_bot(find_bot(name)) for name in names]


def play(
    players: Sequence[Bot],
    seed: int,
    options: dict[str, str] | None = None,
    game_: EuropeGame | None = None,
) -> Played:
    """Play one game of ``len(players)`` seats through SDK requests; every answer must pass
    ``game.check`` (an illegal answer fails the test)."""
    game = game_ or GAME.configure(options or {}, len(players))
    board = game.board()
    for seat, bot in enumerate(players):
        bot.start(MatchInfo("europe", game.config(), seat, len(players), seed * 10 + seat, board))
    state = game.new_game(seed, [bot.declarations("europe") for bot in players])
    times: dict[int, list[float]] = {seat: [] for seat in range(len(players))}
    while (decision := game.decision(state)) is not None:
        answers = {}
        for seat in decision.seats:
            options = game.legal_options(state, seat)
            listed = list(game.choices(options))
            request = Request(
                options.kind,
                seat,
                game.view(state, seat),
                options.constraints,
                choices=listed,
                game="europe",
            )
            started = time.perf_counter()
            answer = players[seat].choose(request)
            times[seat].append(time.perf_counter() - started)
            action = listed[answer] if isinstance(answer, int) else answer
            game.check(state, seat, action)
            answers[seat] = action
        state = game.apply_joint(state, answers).state
    outcome = game.outcome(state)
    assert outcome is not None
    return Played(outcome.winner, outcome.termination, game.progress(state)["rounds"], times)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_plays_whole_games_legally(players):
    for seed in (1, 2):
        names = [HEURISTIC] + ["random"] * (players - 1)
        played = play(bots(names), seed)
        assert played.end in ("crowns", "round_limit", "elimination")
        assert played.times[0]


def test_plays_legally_against_itself_with_missions():
    played = play(bots([HEURISTIC] * 3), 5, {"missions": "true"})
    assert played.end in ("crowns", "round_limit", "elimination")


SEEDS = range(20)
WINS_AT_LEAST = 14
"""Measured: 20 of 20 four-player games against three random bots; 14 leaves a wide margin."""


def test_beats_three_random_bots():
    wins = 0
    for seed in SEEDS:
        played = play(bots([HEURISTIC, "random", "random", "random"]), seed)
        wins += played.winner == 0
    assert wins >= WINS_AT_LEAST
