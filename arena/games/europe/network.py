"""Supply lines: an army's own undisputed territories linked by land borders or sea lines.

Tax collects over the network of the city taxed, Kiev's tile recruits along Kiev's network,
and a Manoeuvre moves through own territory at most two steps.
"""

from __future__ import annotations

from arena.games.europe.board import Board
from arena.games.europe.state import NOBODY, EuropeState


def network(state: EuropeState, board: Board, army: int, start: int) -> list[int]:
    """The territories linked to ``start`` by ``army``'s supply lines (``start`` included),
    or [] if ``start`` is not its own undisputed territory. Disputed territories give
    nothing and cut the lines."""
    owner, attacker = state.owner, state.attacker
    if owner[start] != army or attacker[start] != NOBODY:
        return []
    seen = {start}
    frontier = [start]
    adjacent = board.adjacent
    while frontier:
        t = frontier.pop()
        for u in adjacent[t]:
            if u not in seen and owner[u] == army and attacker[u] == NOBODY:
                seen.add(u)
                frontier.append(u)
    return sorted(seen)


def tax_value(board: Board, territories: list[int]) -> int:
    """Coins a Tax over ``territories`` brings: each city's tax value, 1 per other territory."""
    tax = board.tax
    return sum(tax[t] if tax[t] else 1 for t in territories)


def manoeuvre_routes(state: EuropeState, board: Board, army: int, source: int) -> dict[int, int]:
    """Where a Manoeuvre from ``source`` may end → the territory it passes through (-1 for a
    neighbour). Targets are the army's own territories, undisputed or disputed with its units
    there; the middle step must be own and undisputed (entering a dispute stops the move)."""
    owner, attacker = state.owner, state.attacker
    if owner[source] != army or attacker[source] != NOBODY:
        return {}

    def target(t: int) -> bool:
        if attacker[t] == NOBODY:
            return owner[t] == army
        return owner[t] == army or attacker[t] == army

    routes: dict[int, int] = {}
    adjacent = board.adjacent
    for mid in adjacent[source]:
        if target(mid):
            routes[mid] = -1
    for mid in adjacent[source]:
        if owner[mid] == army and attacker[mid] == NOBODY:
            for end in adjacent[mid]:
                if end != source and end not in routes and target(end):
                    routes[end] = mid
    return routes
