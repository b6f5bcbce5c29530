"""How a game ends: who has won (domination, a secret mission, the capitals), the places of
everyone else, and the result as the game contract's :class:`Outcome`."""

from __future__ import annotations

from enum import StrEnum

from arena.games.api import Event, Outcome
from arena.games.classic.missions import FALLBACK, MISSIONS
from arena.games.classic.rules.setting import Setting
from arena.games.classic.state import ClassicState, Phase


class Termination(StrEnum):
    """Why a game ended."""

    DOMINATION = "domination"
    """Every other player was eliminated or forfeited (neutral armies never need to be)."""
    MISSION = "mission"
    """Secret Mission RISK: the winner accomplished its mission."""
    CAPITALS = "capitals"
    """Capital RISK: the winner holds its own and the required opposing headquarters."""
    ROUND_LIMIT = "round_limit"
    """The round cap was reached; survivors are ranked by territories, then armies."""


def mission_done(rules: Setting, state: ClassicState, seat: int) -> bool:
    """Whether ``seat`` has accomplished its secret mission."""
    mission = MISSIONS[state.missions[seat]]
    if mission.kind == "destroy":
        if mission.target != seat:
            # The rule book: a colour destroyed by anyone (or out of the game) counts.
            return mission.target in state.eliminated
        mission = FALLBACK
    owner = state.owner
    if mission.kind == "territories":
        armies = state.armies
        held = sum(1 for t, o in enumerate(owner) if o == seat and armies[t] >= mission.min_armies)
        return held >= mission.territories
    return all(
        owner[t] == seat for name in mission.continents for t in rules.continent_by_name[name]
    )


def capitals_done(rules: Setting, state: ClassicState, seat: int) -> bool:
    """Capital RISK: ``seat`` holds its own HQ and enough opposing HQs."""
    if not state.hq_revealed or state.owner[state.hq[seat]] != seat:
        return False
    captured = sum(1 for s, t in enumerate(state.hq) if s != seat and state.owner[t] == seat)
    need = rules.config.short_capitals or state.n - 1
    return captured >= need


def check_end(rules: Setting, s: ClassicState, actor: int, ev: list[Event]) -> bool:
    """End the game if someone has won; returns whether it ended. With several winners at
    once, the first from ``actor`` on in seat order wins."""
    active = [p for p in range(s.n) if p not in s.eliminated]
    if len(active) <= 1:
        finish(s, Termination.DOMINATION, active[0] if active else None, ev)
        return True
    mode = rules.config.mode
    if mode == "world":
        return False
    order = [(actor + k) % s.n for k in range(s.n)]
    for p in order:
        if p in s.eliminated:
            continue
        if mode == "mission" and mission_done(rules, s, p):
            ev.append({"type": "mission_revealed", "seat": p, "mission": s.missions[p]})
            finish(s, Termination.MISSION, p, ev)
            return True
        if mode == "capital" and capitals_done(rules, s, p):
            finish(s, Termination.CAPITALS, p, ev)
            return True
    return False


def finish(s: ClassicState, why: Termination, winner: int | None, ev: list[Event]) -> None:
    """End the game: the winner first, survivors by territories then armies (equal figures
    share a place), then the seats that went out, the latest first."""
    s.phase = Phase.OVER
    s.attack = s.roll = s.occupy = None
    s.end = why.value
    places = [0] * s.n
    survivors = [p for p in range(s.n) if p not in s.eliminated and p != winner]
    counts = {p: s.owner.count(p) for p in survivors}
    strength = {p: sum(a for t, a in enumerate(s.armies) if s.owner[t] == p) for p in survivors}
    survivors.sort(key=lambda p: (-counts[p], -strength[p]))
    place = 1
    if winner is not None:
        places[winner] = 1
        place = 2
    for i, p in enumerate(survivors):
        tied = i and (counts[p], strength[p]) == (
            counts[survivors[i - 1]],
            strength[survivors[i - 1]],
        )
        places[p] = places[survivors[i - 1]] if tied else place + i
    place += len(survivors)
    for p in reversed(s.eliminated):
        places[p] = place
        place += 1
    if winner is None and places.count(1) == 1:
        winner = places.index(1)
    s.winner = winner
    s.places = tuple(places)
    ev.append({"type": "game_over", "reason": s.end, "winner": winner, "places": places})


def outcome(rules: Setting, state: ClassicState) -> Outcome | None:
    """The result once the game is over, else None."""
    if state.places is None or state.end is None:
        return None
    return Outcome(state.places, state.winner, state.end)
