"""The searching top bot: legal in every classic variant, replayable under a node budget, and
within its share of the clock at a long move time too."""

from __future__ import annotations

import pytest

from arena.bots import find_bot, load_bot
from arena.games.classic import ClassicConfig
from arena.games.classic.game import ClassicGame
from arena.referee.match import play_match
from arena.sdk.bot import Bot
from arena.statuses import SeatStatus
from tests.test_bot_positions import POSITIONS, _ask, _started

VARIANTS = {
    "2 players and the neutral": (2, {}),
    "secret missions": (4, {"mode": "mission"}),
    "capital, full goal": (3, {"mode": "capital"}),
    "capital, short goal": (5, {"mode": "capital", "capital_goal": "short"}),
    "fixed sets": (4, {"sets": "fixed"}),
    "progressive sets, connected fortify": (3, {"sets": "progressive", "fortify": "connected"}),
    "advantage re-roll": (3, {"advantage_reroll": "true"}),
    "6 players, claimed deal": (6, {}),
}
ROUNDS = 8
"""Rounds per variant game: enough for trades, eliminations and missions to come up."""


def _strong(nodes: int) -> Bot:
    bot = load_bot(find_bot("strong"))
    bot.nodes = nodes  # type: ignore[attr-defined]
    return bot


def _game(players: int, options: dict[str, str], rounds: int = ROUNDS) -> ClassicGame:
    return ClassicGame(ClassicConfig.parse({**options, "max_rounds": str(rounds)}, players))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_strong_plays_every_variant_without_a_strike(variant):
    players, options = VARIANTS[variant]
    bots = [_strong(12)] + [load_bot(find_bot("planner")) for _ in range(players - 1)]
    result = play_match(_game(players, options), bots, seed=players * 101 + len(options))
    seat = result.seats[0]
    assert (seat.status, seat.strikes) == (SeatStatus.OK, 0), seat.detail
    assert result.end is not None


def test_a_node_budget_makes_the_search_replayable():
    def play() -> tuple:
        bots = [_strong(25), _strong(25), load_bot(find_bot("planner"))]
        result = play_match(_game(3, {}, rounds=5), bots, seed=4242)
        final = result.final
        return final.owner, final.armies, final.dice_i, final.turns, result.decisions

    first = play()
    assert first == play()


@pytest.mark.parametrize("position", list(POSITIONS))
def test_strong_answers_in_time_at_a_one_second_move_time(position):
    rules, state = POSITIONS[position]()
    decision = rules.decision(state)
    assert decision is not None
    seat = decision.seats[0]
    bot = _started("strong", rules, seat, move_time_ms=1000)
    action, elapsed = _ask(bot, rules, state, seat)
    rules.check(state, seat, action)
    assert elapsed < 1.0, f"took {elapsed:.2f} s on {position}"
