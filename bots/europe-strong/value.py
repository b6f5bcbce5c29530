"""The value of a look-ahead's last position to one seat: its standing score less the best
rival's.

A seat's score counts what wins RISK: Europe, crowns, and what turns into crowns soon: coins
(a crown card costs 10 while the bank has one), territories (the first tie-break, and tax)
and units (what holds and takes cities). A finished game counts its result instead.
"""

from __future__ import annotations

from arena.games.europe.config import ARMIES
from arena.games.europe.rules import EuropeRules
from arena.games.europe.state import EuropeState

COIN = 0.07
"""Crowns per coin: a crown card costs 10, and coins also buy units."""
TERRITORY = 0.05
UNIT = 0.012
WIN = 10.0
"""Score of a won game over its standing score (a lost one loses as much)."""


def seat_score(rules: EuropeRules, state: EuropeState, seat: int) -> float:
    """Crowns and what soon turns into crowns."""
    if not state.alive[seat]:
        return -WIN
    territories = 0
    crowns = rules.board.crowns
    held = 0
    for t, owner in enumerate(state.owner):
        if owner == seat:
            territories += 1
            held += crowns[t]
    done = len(state.completed[seat]) if state.completed else 0
    units = sum(state.count(t, seat) for t in range(len(state.owner)))
    return (
        held
        + state.crown_cards[seat]
        + done
        + COIN * state.coins[seat]
        + TERRITORY * territories
        + UNIT * units
    )


def value(rules: EuropeRules, state: EuropeState, seat: int) -> float:
    """The seat's score less the best rival's; a finished game: its result."""
    if state.phase == "over":
        outcome = rules.outcome(state)
        if outcome is not None:
            if outcome.winner == seat:
                return WIN
            if outcome.places[seat] == 1:
                return WIN / 2
            return -WIN
    mine = seat_score(rules, state, seat)
    rivals = [seat_score(rules, state, s) for s in range(min(state.n, ARMIES)) if s != seat]
    return mine - max(rivals, default=0.0)
