"""Changing a state: an action applied (checked on a copy, or unchecked in place for search)
and a seat taken out by a forfeit, each followed by the setup choices still due from seats
that have forfeited."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arena.errors import IllegalActionError
from arena.games.api import Event, Step
from arena.games.classic.actions import (
    Action,
    Attack,
    ChooseHeadquarters,
    Claim,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    Occupy,
    Place,
    PlaceNeutral,
    Reroll,
    Trade,
)
from arena.games.classic.rules import battle, setup, turn
from arena.games.classic.rules.checks import check
from arena.games.classic.rules.decide import decision
from arena.games.classic.rules.defaults import default_action
from arena.games.classic.rules.end import check_end
from arena.games.classic.rules.setting import Setting
from arena.games.classic.state import ClassicState, Phase, replaced


def apply(rules: Setting, state: ClassicState, seat: int, action: Action) -> Step[ClassicState]:
    """Check the action, then apply it to a copy: the input state is never changed."""
    check(rules, state, seat, action)
    new = state.copy()
    return Step(new, apply_unchecked(rules, new, seat, action))


def apply_unchecked(rules: Setting, state: ClassicState, seat: int, action: Action) -> list[Event]:
    """Apply a legal action **in place** and return the events.

    .. warning:: No validation: the caller must have checked the action (or taken it from
       :func:`~.legal.legal_options`). An illegal action leaves the state undefined. Copy the
       state first if the original is still needed.
    """
    events: list[Event] = []
    _HANDLERS[type(action)](rules, state, seat, action, events)
    if True in state.forfeited:
        _play_forfeited(rules, state, events)
    return events


def forfeit(rules: Setting, state: ClassicState, seat: int) -> Step[ClassicState]:
    """Take ``seat`` out of the game (strikes, crash, disconnect): a new state and events.

    Its armies stay on the board as neutral defenders that always roll the maximum; its
    place is behind every seat still in the game; its cards are discarded; a mission to
    destroy it counts as done; its headquarters stays a headquarters to capture. Setup
    choices still due from it are made by :func:`~.defaults.default_action`.
    """
    if not 0 <= seat < state.n or seat in state.eliminated:
        raise IllegalActionError(f"seat {seat} is not in the game and cannot forfeit")
    if state.phase == Phase.OVER:
        raise IllegalActionError("the game is over; no seat can forfeit")
    s = state.copy()
    ev: list[Event] = [{"type": "forfeited", "seat": seat}]
    s.eliminated = (*s.eliminated, seat)
    s.forfeited = replaced(s.forfeited, seat, True)
    s.discard = s.discard + s.hands[seat]
    s.hands = replaced(s.hands, seat, ())
    if check_end(rules, s, seat, ev):
        return Step(s, ev)
    turn_phase = s.phase not in (
        Phase.CLAIM,
        Phase.PLACE,
        Phase.PLACE_NEUTRAL,
        Phase.HEADQUARTERS,
    )
    if turn_phase and s.seat == seat:
        s.attack = s.roll = s.occupy = None
        s.conquered = False
        turn.end_turn(rules, s, ev)
    elif s.phase == Phase.DEFEND:
        battle.battle(rules, s, ev)
    _play_forfeited(rules, s, ev)
    return Step(s, ev)


def _play_forfeited(rules: Setting, s: ClassicState, ev: list[Event]) -> None:
    """Make the setup choices due from forfeited seats with their default actions."""
    for _ in range(4 * rules.size * rules.n):
        pending = decision(rules, s)
        if pending is None:
            return
        due = [p for p in pending.seats if s.forfeited[p]]
        if not due:
            return
        action = default_action(rules, s, due[0])
        _HANDLERS[type(action)](rules, s, due[0], action, ev)


def _place(rules: Setting, s: ClassicState, seat: int, a: Place, ev: list[Event]) -> None:
    """A :class:`Place` answers both the setup placement and the turn's reinforcement."""
    if s.phase == Phase.PLACE:
        setup.place(rules, s, seat, a, ev)
    else:
        turn.reinforce(rules, s, seat, a, ev)


# Each handler takes its own action class; the table is looked up by ``type(action)``, so the
# action argument is typed loosely here.
_Handler = Callable[[Setting, ClassicState, int, Any, list[Event]], None]

_HANDLERS: dict[type, _Handler] = {
    Claim: setup.claim,
    Place: _place,
    PlaceNeutral: setup.place_neutral,
    ChooseHeadquarters: setup.choose_hq,
    Trade: turn.trade,
    Attack: battle.attack,
    EndAttack: battle.end_attack,
    Defend: battle.defend,
    Reroll: battle.reroll,
    Occupy: battle.occupy,
    Fortify: turn.fortify,
    EndTurn: turn.end_turn_action,
}
"""The function that applies each action class."""
