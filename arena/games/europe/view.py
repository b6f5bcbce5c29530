"""What one seat may see of a RISK: Europe position, and events as a seat may see them.

Hidden from a seat: the cards others chose this round until each is revealed (a Mercenary
Army's are seen by the seat controlling it), others' hands (their sizes are public), the
missions others hold (completed ones are public) and the missions drawn.
"""

from __future__ import annotations

from typing import Any

from arena.games.api import Event
from arena.games.europe.config import ARMIES
from arena.games.europe.rules import EuropeRules
from arena.games.europe.state import EuropeState

HIDDEN = -1
"""A card id or mission the seat may not see."""
SECRET_EVENTS = {"cards_chosen": ("first", "second"), "mission_kept": ("mission",)}
"""Event types → the fields only their deciding seat sees."""


def _cards_in(mask: int) -> list[int]:
    return [c for c in range(8) if mask >> c & 1]


def revealed(state: EuropeState, army: int, turn: int) -> bool:
    """Whether ``army``'s card for ``turn`` (1 or 2) is face up."""
    card = state.first[army] if turn == 1 else state.second[army]
    if card < 0 or state.turn < turn:
        return False
    if state.phase != "turn" or state.turn > turn:
        return True
    return army not in state.queue or state.revealed == army


def view_for(rules: EuropeRules, state: EuropeState, seat: int) -> dict[str, Any]:
    board = rules.board
    territories = []
    for t in range(board.size):
        units = {str(a): list(state.of(t, a)) for a in range(ARMIES) if state.count(t, a)}
        territories.append(
            {
                "owner": state.owner[t],
                "attacker": state.attacker[t],
                "castle": state.castle[t],
                "units": units,
            }
        )
    armies = []
    for a in range(ARMIES):
        sees = a == seat or (a >= state.n and state.controller[a] == seat)
        chosen = [state.first[a], state.second[a]]
        shown = [
            c if c >= 0 and (sees or revealed(state, a, turn)) else HIDDEN
            for turn, c in ((1, chosen[0]), (2, chosen[1]))
        ]
        played = {c for c in chosen if c >= 0}
        entry: dict[str, Any] = {
            "army": a,
            "mercenary": a >= state.n,
            "alive": state.alive[a],
            "controller": state.controller[a],
            "coins": state.coins[a],
            "crowns": rules.crowns(state, a),
            "crown_cards": state.crown_cards[a],
            "reserve": list(state.reserve[a * 4 : a * 4 + 4]),
            "hand_size": bin(state.hand[a]).count("1"),
            "discards": [c for c in _cards_in(~state.hand[a] & 0xFF) if c not in played],
            "cards": shown,
            "saved_by_the_crown": state.cityless[a] >= 0,
            "home": state.home[a],
        }
        if sees:
            entry["hand"] = _cards_in(state.hand[a])
        if state.missions:
            entry["missions_held"] = len(state.missions[a])
            entry["missions_completed"] = [m for m, _ in state.completed[a]]
            if a == seat:
                entry["missions"] = list(state.missions[a])
        armies.append(entry)
    fight = state.battle
    view: dict[str, Any] = {
        "seat": seat,
        "round": state.round,
        "turn": state.turn,
        "phase": state.phase,
        "marker": state.marker,
        "order": list(state.order),
        "territories": territories,
        "armies": armies,
        "castles_left": state.castles_left,
        "crown_cards_left": state.crown_cards_left,
        "disputes": list(state.disputes),
        "battles": list(state.battles),
        "battle": None
        if fight is None
        else {
            "territory": fight.territory,
            "attacker": fight.attacker,
            "defender": fight.defender,
            "rank": fight.rank,
            "repetition": fight.repetition,
            "rerolled": fight.rerolled,
            "attacker_dice": list(fight.attacker_dice),
            "defender_dice": list(fight.defender_dice),
        },
        "losses": [
            {"army": p.army, "territory": p.territory, "count": p.count} for p in state.losses
        ],
        "revealed": state.revealed,
        "crowns_to_win": rules.config.crowns_to_win,
    }
    if state.drawn is not None and state.revealed == seat:
        view["drawn"] = list(state.drawn)
    return view


def redact(event: Event, seat: int) -> Event:
    """The event as ``seat`` sees it: another seat's secret choice shows as -1."""
    hidden = SECRET_EVENTS.get(event.get("type", ""))
    if hidden is None or event.get("seat") == seat:
        return event
    shown = dict(event)
    for key in hidden:
        shown[key] = HIDDEN
    return shown
