"""What one seat may see of a RISK: Europe position, and events as a seat may see them.

Hidden from a seat: the cards others chose this round until each is revealed (a Mercenary
Army's are seen by the seat controlling it), others' hands (their sizes are public), the
missions others hold (completed ones are public) and the missions drawn.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from arena.games.api import Event
from arena.games.europe.config import ARMIES
from arena.games.europe.rules import EuropeRules
from arena.games.europe.state import EuropeState

HIDDEN = -1
"""A card id or mission the seat may not see."""
_ARMY_KEYS = tuple(str(a) for a in range(ARMIES))
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


class TerritoryView(TypedDict):
    owner: int
    attacker: int
    castle: bool
    units: dict[str, list[int]]
    """Per army (its number as a string), its units here by kind."""


class ArmyView(TypedDict):
    army: int
    mercenary: bool
    alive: bool
    controller: int
    coins: int
    crowns: int
    crown_cards: int
    reserve: list[int]
    hand_size: int
    discards: list[int]
    cards: list[int]
    """This round's two chosen cards, each ``HIDDEN`` until the seat may see it."""
    saved_by_the_crown: bool
    home: int
    hand: NotRequired[list[int]]
    """Only the armies the seat plays (its own, a Mercenary Army it controls)."""
    missions_held: NotRequired[int]
    missions_completed: NotRequired[list[int]]
    missions: NotRequired[list[int]]
    """Only the seat's own army's."""


class BattleView(TypedDict):
    territory: int
    attacker: int
    defender: int
    rank: int
    repetition: int
    rerolled: bool
    attacker_dice: list[int]
    defender_dice: list[int]


class LossView(TypedDict):
    army: int
    territory: int
    count: int


class EuropeView(TypedDict):
    """What one seat sees (docs/europe-facts.md and docs/protocol.md describe the fields)."""

    seat: int
    round: int
    turn: int
    phase: str
    marker: int
    order: list[int]
    territories: list[TerritoryView]
    armies: list[ArmyView]
    castles_left: int
    crown_cards_left: int
    disputes: list[int]
    battles: list[int]
    battle: BattleView | None
    losses: list[LossView]
    revealed: int
    crowns_to_win: int
    drawn: NotRequired[list[int]]
    """The missions the seat drew and is choosing from."""


def view_for(rules: EuropeRules, state: EuropeState, seat: int) -> EuropeView:
    board = rules.board
    territories: list[TerritoryView] = []
    every = state.units
    for t in range(board.size):
        # slices of the flat unit list: a search asks for a view at every simulated decision
        units: dict[str, list[int]] = {}
        for a in range(ARMIES):
            i = (t * ARMIES + a) * 4
            if every[i] or every[i + 1] or every[i + 2] or every[i + 3]:
                units[_ARMY_KEYS[a]] = every[i : i + 4]
        territories.append(
            {
                "owner": state.owner[t],
                "attacker": state.attacker[t],
                "castle": state.castle[t],
                "units": units,
            }
        )
    armies: list[ArmyView] = []
    for a in range(ARMIES):
        sees = a == seat or (a >= state.n and state.controller[a] == seat)
        chosen = [state.first[a], state.second[a]]
        shown = [
            c if c >= 0 and (sees or revealed(state, a, turn)) else HIDDEN
            for turn, c in ((1, chosen[0]), (2, chosen[1]))
        ]
        played = {c for c in chosen if c >= 0}
        entry: ArmyView = {
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
    view: EuropeView = {
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
