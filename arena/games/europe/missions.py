"""The Kingdom Missions variant: crown cards become secret missions, drawn on King Me.

APPROXIMATION: the real mission texts and bonuses were not found; these eight stand in for
them (one per crown card), as data. A completed mission is a permanent crown; its bonus
counts from the round after it was completed.
"""

from __future__ import annotations

from arena.games.api import Event
from arena.games.europe.board import europe_board
from arena.games.europe.state import EuropeState

MISSIONS = (
    "Control 3 silver cities.",
    "Control 2 castles.",
    "Control 12 territories.",
    "Control 2 gold cities that are not your start city.",
    "Win 2 battles as attacker in one round.",
    "Control every territory of the Iberian peninsula "
    "(Portugal, León-Castile, Navarre, Valencia, Granada, Barcelona).",
    "Control every territory of the British Isles (Scotland, England, Wales, Ireland).",
    "Have 25 or more silver after a Tax.",
)
"""Mission texts, ids 0-7 (APPROXIMATION)."""
BONUSES = ("+2 silver on each Tax", "+1 footman on each Fortify")
"""Bonus of a mission with an even id (0, 2, ...), and of one with an odd id
(APPROXIMATION)."""
TAX_BONUS = 2
FORTIFY_BONUS = 1
RICH = 25
BATTLES_WON = 2
_IBERIA = ("Portugal", "León-Castile", "Navarre", "Valencia", "Granada", "Barcelona")
_BRITISH_ISLES = ("Scotland", "England", "Wales", "Ireland")


def bonus_of(mission: int) -> str:
    return BONUSES[mission % 2]


def _active(state: EuropeState, army: int, parity: int) -> int:
    if not state.completed:
        return 0
    return sum(
        1 for mission, done in state.completed[army] if mission % 2 == parity and done < state.round
    )


def tax_bonus(state: EuropeState, army: int) -> int:
    """Extra silver on a Tax from completed missions."""
    return TAX_BONUS * _active(state, army, 0)


def fortify_bonus(state: EuropeState, army: int) -> int:
    """Extra footmen on a Fortify from completed missions."""
    return FORTIFY_BONUS * _active(state, army, 1)


def _held(state: EuropeState, army: int) -> list[int]:
    return [t for t, owner in enumerate(state.owner) if owner == army]


def achieved(state: EuropeState, army: int, mission: int, round_end: bool) -> bool:
    """Whether ``army`` meets ``mission`` now (mission 7 is met only right after a Tax, so it
    is judged by :func:`after_tax`; mission 4 only at the end of a round)."""
    board = europe_board()
    held = _held(state, army)
    if mission == 0:
        return sum(1 for t in held if board.tax[t] and not board.gold[t]) >= 3
    if mission == 1:
        return sum(1 for t in held if state.castle[t]) >= 2
    if mission == 2:
        return len(held) >= 12
    if mission == 3:
        home = state.home[army] if state.home else -1
        return sum(1 for t in held if board.gold[t] and t != home) >= 2
    if mission == 4:
        return round_end and state.wins[army] >= BATTLES_WON
    if mission == 5:
        return all(state.owner[board.index(n)] == army for n in _IBERIA)
    if mission == 6:
        return all(state.owner[board.index(n)] == army for n in _BRITISH_ISLES)
    return False


def _complete(state: EuropeState, army: int, mission: int, events: list[Event]) -> None:
    state.missions[army].remove(mission)
    state.completed[army].append((mission, state.round))
    events.append(
        {"type": "mission_completed", "army": army, "mission": mission, "text": MISSIONS[mission]}
    )


def check(state: EuropeState, army: int, events: list[Event], round_end: bool = False) -> None:
    """Reveal every mission ``army`` has now completed."""
    if not state.missions:
        return
    for mission in list(state.missions[army]):
        if achieved(state, army, mission, round_end):
            _complete(state, army, mission, events)


def after_tax(state: EuropeState, army: int, events: list[Event]) -> None:
    if state.missions and 7 in state.missions[army] and state.coins[army] >= RICH:
        _complete(state, army, 7, events)
