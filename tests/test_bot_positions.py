"""Every bundled Python bot answers fixed positions legally and within the ladder's move time.

The positions are the ones that trip bots up: the first claim of an empty board (every
territory a choice), an opening with thin territories, late-game
stacks of hundreds of armies (exact odds tables grow with the square of the armies), a
capture to occupy, a fortify, a neutral 2-player board and a Capital RISK headquarters.
The time bound is 20 times the ladder benchmark's 50 ms move time: it catches a decision
that blows up (seconds), not machine noise; the benchmark measures the real figures. It
bounds the decision's CPU time, not the wall clock, so a loaded machine cannot fail it.
"""

from __future__ import annotations

import time

import pytest

from arena.catalog import bundled_bots, find_bot, load_bot
from arena.games.classic.game import ClassicGame
from arena.games.classic.options import action_from_index
from arena.games.classic.state import ClassicState, Phase
from arena.protocol import envelope
from arena.sdk import Request, wire
from arena.sdk.bot import Bot
from tests.classic_helpers import continent, make_state, rules_for, tid

PYTHON_BOTS = [s.name for s in bundled_bots() if s.entry is not None]
BOUND_SECONDS = 1.0


def _opening():
    rules = rules_for(6)
    armies = {t: 1 + t % 3 for t in range(42)}
    return rules, make_state(rules, armies=armies, phase=Phase.REINFORCE, to_place=20)


def _huge_stacks(phase: Phase):
    rules = rules_for(3, sets="progressive")
    owner = {t: 0 for t in continent("Asia")} | {t: 1 for t in continent("Europe")}
    armies = {tid("Ural"): 480, tid("Ukraine"): 150, tid("Afghanistan"): 260, tid("Kamchatka"): 9}
    armies |= {tid("Middle East"): 310, tid("Southern Europe"): 290, tid("Alaska"): 150}
    state = make_state(rules, owner, armies=armies, default_armies=3, phase=phase, to_place=95)
    return rules, state


def _occupy():
    rules, state = _huge_stacks(Phase.OCCUPY)
    state.owner[tid("Ukraine")] = 0
    state.armies[tid("Ukraine")] = 3
    state.occupy = (tid("Ural"), tid("Ukraine"), 3)
    return rules, state


def _neutral_board():
    rules = rules_for(2)
    owner = {t: -1 for t in range(42) if t % 3 == 2}
    state = make_state(rules, owner, armies={tid("Peru"): 12}, phase=Phase.ATTACK)
    return rules, state


def _claim_opening():
    rules = rules_for(3)
    state = rules.new_game(5)
    state.first = state.seat = 0
    return rules, state


def _headquarters():
    rules = rules_for(4, mode="capital")
    state = make_state(rules, phase=Phase.HEADQUARTERS, default_armies=2)
    state.hq_pending = (-1,) * 4
    return rules, state


POSITIONS = {
    "opening reinforce (6 players)": _opening,
    "huge stacks: reinforce": lambda: _huge_stacks(Phase.REINFORCE),
    "huge stacks: attack": lambda: _huge_stacks(Phase.ATTACK),
    "huge stacks: fortify": lambda: _huge_stacks(Phase.FORTIFY),
    "huge stacks: occupy": _occupy,
    "neutral 2-player attack": _neutral_board,
    "capital headquarters": _headquarters,
    "claim on an empty board (3 players)": _claim_opening,
}


def _started(name: str, rules, seat: int, move_time_ms: int = 50, time_bank_ms: int = 0) -> Bot:
    """A bot started from the MatchStart a real seat would receive (through the codec)."""
    bot = load_bot(find_bot(name))
    start = envelope.match_start_to_pb(
        ClassicGame(rules.config),
        match_id="positions",
        seat=seat,
        names=[name] * rules.n,
        bot_seed=7,
        move_time_ms=move_time_ms,
        time_bank_ms=time_bank_ms,
    )
    bot.start(wire.match_info(start))
    return bot


def _ask(bot: Bot, rules, state: ClassicState, seat: int):
    options = rules.legal_options(state, seat)
    request = Request.make(seat, rules.view(state, seat), options)
    began = time.process_time()
    answer = bot.choose(request)
    elapsed = time.process_time() - began
    action = action_from_index(options, answer) if isinstance(answer, int) else answer
    return action, elapsed


@pytest.mark.parametrize("position", list(POSITIONS))
@pytest.mark.parametrize("name", PYTHON_BOTS)
def test_bot_answers_fixed_position_legally_and_in_time(name, position):
    rules, state = POSITIONS[position]()
    decision = rules.decision(state)
    assert decision is not None
    seat = decision.seats[0]
    bot = _started(name, rules, seat)
    action, elapsed = _ask(bot, rules, state, seat)
    rules.check(state, seat, action)  # raises with the engine's reason when illegal
    assert elapsed < BOUND_SECONDS, f"{name} took {elapsed:.2f} CPU s on {position}"


def test_positions_are_what_they_claim():
    kinds = {p: POSITIONS[p]()[0].legal_options(POSITIONS[p]()[1], 0).kind for p in POSITIONS}
    assert kinds == {
        "opening reinforce (6 players)": "reinforce",
        "huge stacks: reinforce": "reinforce",
        "huge stacks: attack": "attack",
        "huge stacks: fortify": "fortify",
        "huge stacks: occupy": "occupy",
        "neutral 2-player attack": "attack",
        "capital headquarters": "headquarters",
        "claim on an empty board (3 players)": "claim",
    }
