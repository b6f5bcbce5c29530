"""Small tactical helpers for strategy authors: exact odds, board geometry and threats.

Everything here reads only what a bot is given (``MatchInfo.board`` and a request's view),
so a bot that uses it still plays from its own seat's information alone.

- :func:`capture_odds` / :func:`chain_odds`: exact probabilities that an attack (or a chain
  of attacks along a path) captures, both sides always rolling the maximum dice.
- :class:`BoardInfo`: neighbours, continents, bonuses and border territories.
- :func:`threat`: enemy armies next to a territory that could attack it.
- :func:`shortest_path`: breadth-first path between two territories.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from arena.games.classic.combat import battle_odds


@cache
def capture_odds(attackers: int, defenders: int) -> float:
    """Exact probability that ``attackers`` fighting armies capture ``defenders`` armies.

    ``attackers`` counts only armies that can fight (a territory's armies minus the one that
    must stay behind); 0 attackers never capture, 0 defenders are captured for sure.
    """
    if attackers < 1:
        return 0.0
    if defenders < 1:
        return 1.0
    return float(battle_odds(attackers, defenders).p_win)


@cache
def _survivors(attackers: int, defenders: int) -> tuple[tuple[int, float], ...]:
    """Distribution of surviving fighting attackers after a won battle (losses omitted)."""
    outcomes = battle_odds(attackers, defenders).outcomes
    return tuple((a, float(p)) for (a, d), p in outcomes.items() if d == 0 and a > 0)


def chain_odds(start_armies: int, defenders_along_path: Iterable[int]) -> float:
    """Exact probability of capturing every territory of a path, one after the other.

    ``start_armies`` are the fighting armies of the first attacker (its territory's armies
    minus one). After each capture all survivors move forward and one of them stays behind
    in the captured territory, so ``survivors - 1`` fight the next battle. The distribution
    of survivors is carried exactly from one battle to the next.
    """
    dist: dict[int, float] = {start_armies: 1.0} if start_armies >= 1 else {}
    for defenders in defenders_along_path:
        after: dict[int, float] = {}
        for fighting, p in dist.items():
            if fighting < 1:
                continue
            if defenders < 1:
                after[fighting] = after.get(fighting, 0.0) + p
                continue
            for survivors, q in _survivors(fighting, defenders):
                after[survivors] = after.get(survivors, 0.0) + p * q
        # One army stays in the captured territory; the rest may fight on.
        dist = {a - 1: p for a, p in after.items()}
        if not dist:
            return 0.0
    return sum(dist.values())


@dataclass(frozen=True, slots=True)
class Continent:
    """A continent: its name, bonus, member territories and border territories."""

    name: str
    bonus: int
    members: frozenset[int]
    borders: tuple[int, ...]
    """Members with a neighbour outside the continent."""


class BoardInfo:
    """Geometry of the board sent in ``MatchInfo.board``."""

    def __init__(self, board: dict[str, Any]) -> None:
        self.names: list[str] = list(board["territories"])
        self.neighbours: list[tuple[int, ...]] = [tuple(n) for n in board["neighbours"]]
        self.continent_of: list[int] = [-1] * len(self.names)
        continents: list[Continent] = []
        for ci, c in enumerate(board["continents"]):
            members = frozenset(c["territories"])
            for t in members:
                self.continent_of[t] = ci
            borders = tuple(
                sorted(t for t in members if any(n not in members for n in self.neighbours[t]))
            )
            continents.append(Continent(c["name"], c["bonus"], members, borders))
        self.continents: list[Continent] = continents

    @property
    def size(self) -> int:
        """Number of territories."""
        return len(self.names)

    def members(self, continent: int) -> frozenset[int]:
        """Territories of a continent."""
        return self.continents[continent].members

    def bonus(self, continent: int) -> int:
        """Armies a continent's holder gets each turn."""
        return self.continents[continent].bonus

    def continent_borders(self, continent: int) -> tuple[int, ...]:
        """Territories of ``continent`` adjacent to a territory outside it."""
        return self.continents[continent].borders

    def faces_other(self, owner: Sequence[int], seat: int, territory: int) -> bool:
        """Whether ``territory`` touches a territory ``seat`` does not own."""
        return any(owner[n] != seat for n in self.neighbours[territory])

    def border_territories(self, owner: Sequence[int], seat: int) -> list[int]:
        """``seat``'s territories adjacent to a territory it does not own."""
        return [
            t for t in range(self.size) if owner[t] == seat and self.faces_other(owner, seat, t)
        ]

    def holds(self, owner: Sequence[int], seat: int, continent: int) -> bool:
        """Whether ``seat`` owns the whole continent."""
        return all(owner[t] == seat for t in self.members(continent))


def is_enemy(view: dict[str, Any], territory: int, of: int) -> bool:
    """Whether ``territory`` belongs to a seat that could attack seat ``of``.

    Neutral (-1) and unclaimed (-2) territories never attack.
    """
    owner = view["owner"][territory]
    return owner >= 0 and owner != of


def threat(view: dict[str, Any], board: BoardInfo, territory: int) -> int:
    """Enemy armies adjacent to ``territory`` that could attack it: sum of (armies - 1).

    Enemies are the seats other than the territory's owner; neutral armies never attack.
    """
    holder = view["owner"][territory]
    armies = view["armies"]
    return sum(
        max(armies[n] - 1, 0)
        for n in board.neighbours[territory]
        if view["owner"][n] >= 0 and view["owner"][n] != holder
    )


def shortest_path(
    board: BoardInfo,
    start: int,
    goal: int,
    passable: Callable[[int], bool] | None = None,
) -> list[int] | None:
    """Shortest path from ``start`` to ``goal`` (both included) by breadth-first search.

    Every territory after ``start`` (the goal included) must satisfy ``passable``, when
    given. Returns None when no path exists; ties go to lower territory ids.
    """
    if start == goal:
        return [start]
    parent: dict[int, int] = {start: start}
    queue = deque([start])
    while queue:
        t = queue.popleft()
        for n in sorted(board.neighbours[t]):
            if n in parent or (passable is not None and not passable(n)):
                continue
            parent[n] = t
            if n == goal:
                path = [n]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            queue.append(n)
    return None
