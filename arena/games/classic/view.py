"""Per-seat views: the position as one seat may see it, as plain JSON-ready data.

A view never holds another seat's cards (only counts), mission, or headquarters before the
reveal, nor the deck order, the seed or any stream position: all a bot could learn the future
from. Views are what strategies receive, in-process and over the wire alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from arena.games.classic import cards as cardlib
from arena.games.classic.missions import MISSIONS
from arena.games.classic.state import PHASE_KINDS, ClassicState, Phase

if TYPE_CHECKING:
    from arena.games.classic.rules import ClassicRules


class MissionView(TypedDict):
    id: int
    text: str


AttackView = TypedDict("AttackView", {"from": int, "to": int, "dice": int})
"""The attack under way: its territories and the attacker's dice."""


class ClassicView(TypedDict):
    """What one seat sees (docs/writing-a-bot.md describes each field for bot authors)."""

    seat: int
    players: int
    phase: str
    deciding: list[int]
    turn_seat: int
    round: int
    turns: int
    owner: list[int]
    """Per territory, its holder (-1: the neutral army)."""
    armies: list[int]
    reserve: list[int]
    neutral_reserve: int
    hand: list[int]
    card_counts: list[int]
    deck_size: int
    sets_traded: int
    next_set_value: int | None
    to_place: int
    conquered_this_turn: bool
    eliminated: list[int]
    forfeited: list[int]
    always_max: list[bool]
    mission: MissionView | None
    headquarters: list[int]
    attack: AttackView | None
    places: list[int] | None


def view_for(rules: ClassicRules, state: ClassicState, seat: int) -> ClassicView:
    """The position as ``seat`` may see it."""
    decision = rules.decision(state)
    cfg = rules.config
    next_value = (
        None
        if cfg.sets == "fixed"
        else cardlib.set_value(cfg.sets, state.sets_traded + 1, (0, 0, 0))
    )
    hq: list[int] = []
    if state.hq:
        hq = (
            list(state.hq)
            if state.hq_revealed
            else [state.hq_pending[p] if p == seat else -1 for p in range(state.n)]
        )
    mission: MissionView | None = None
    if state.missions:
        m = MISSIONS[state.missions[seat]]
        mission = {"id": m.id, "text": m.text()}
    attack: AttackView | None = None
    if state.attack is not None:
        attack = {"from": state.attack[0], "to": state.attack[1], "dice": state.attack[2]}
    phase = state.phase
    return {
        "seat": seat,
        "players": state.n,
        "phase": PHASE_KINDS[phase],
        "deciding": list(decision.seats) if decision else [],
        "turn_seat": state.seat,
        "round": state.round,
        "turns": state.turns,
        "owner": state.owner[:],
        "armies": state.armies[:],
        "reserve": list(state.reserve),
        "neutral_reserve": state.neutral_reserve,
        "hand": list(state.hands[seat]),
        "card_counts": list(map(len, state.hands)),
        "deck_size": len(state.deck),
        "sets_traded": state.sets_traded,
        "next_set_value": next_value,
        "to_place": state.to_place if phase != Phase.OVER else 0,
        "conquered_this_turn": state.conquered,
        "eliminated": list(state.eliminated),
        "forfeited": [p for p, out in enumerate(state.forfeited) if out],
        "always_max": list(state.always_max),
        "mission": mission,
        "headquarters": hq,
        "attack": attack,
        "places": list(state.places) if state.places else None,
    }
