"""Small tactical helpers for classic RISK strategy authors: exact odds, board geometry and
threats (bots import them as :mod:`arena.sdk.tactics`, an alias of this module).

Everything here reads only what a bot is given (``MatchInfo.board`` and a request's view),
so a bot that uses it still plays from its own seat's information alone.

- :func:`capture_odds` / :func:`chain_odds` / :func:`chain_prefix_odds`: exact probabilities
  that an attack (or a chain of attacks along a path, or each part of it) captures, both
  sides always rolling the maximum dice.
- :class:`BoardInfo`: neighbours, continents, bonuses and border territories.
- :func:`threat`: enemy armies next to a territory that could attack it.
- :func:`shortest_path`: breadth-first path between two territories.
- :func:`reroll_choice`: which attacker die an advantage re-roll should roll again.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from arena.games.classic.combat import battle_odds, roll_distribution

__all__ = [
    "BoardInfo",
    "Continent",
    "capture_odds",
    "chain_odds",
    "chain_prefix_odds",
    "reroll_choice",
    "shortest_path",
    "threat",
]


class _WinTable:
    """P(capture) for every (attackers, defenders) up to the largest asked, filled once.

    One recursion over the single-roll table serves every query: a battle of (a, d) ends in
    a capture with probability sum(q * P(a - lost_a, d - lost_d)) over the roll outcomes.
    Rows grow on demand, so a late-game battle of hundreds of armies costs one table fill
    instead of one whole-battle computation per query.
    """

    def __init__(self) -> None:
        self.rolls = {
            (a, d): [(al, dl, float(p)) for (al, dl), p in roll_distribution(a, d).items()]
            for a in (1, 2, 3)
            for d in (1, 2)
        }
        self.rows: list[list[float]] = [[1.0]]  # rows[a][d]; row 0: no attackers
        self.width = 1  # defenders 0 .. width-1 are filled in every row

    def get(self, attackers: int, defenders: int) -> float:
        if attackers >= len(self.rows) or defenders >= self.width:
            # Grow by a quarter at least, so a slowly growing stack refills rarely.
            height, width = len(self.rows), self.width
            if attackers >= height:
                height = max(attackers + 1, height + height // 4)
            if defenders >= width:
                width = max(defenders + 1, width + width // 4)
            self._grow(height, width)
        return self.rows[attackers][defenders]

    def _grow(self, height: int, width: int) -> None:
        rows = self.rows
        rows[0].extend([0.0] * (width - len(rows[0])))
        general = self.rolls
        # Three or more attackers against two or more defenders always roll 3 against 2: the
        # bulk of a big table, filled by one unrolled recurrence (the general case's sum, term
        # for term in the same order, so the values are bit-identical) about 9 times faster.
        full = {(al, dl): q for al, dl, q in general[3, 2]}
        defender_two, one_each, attacker_two = full[0, 2], full[1, 1], full[2, 0]
        for a in range(1, height):
            if a == len(rows):
                rows.append([1.0])
            row = rows[a]
            d = len(row)
            while d < width and (a < 3 or d < 2):
                row.append(
                    sum(q * rows[a - al][d - dl] for al, dl, q in general[min(a, 3), min(d, 2)])
                )
                d += 1
            one_less, two_less = rows[a - 1], rows[a - 2]
            for cell in range(d, width):
                row.append(
                    defender_two * row[cell - 2]
                    + one_each * one_less[cell - 1]
                    + attacker_two * two_less[cell]
                )
        self.width = width


_WINS = _WinTable()


def capture_odds(attackers: int, defenders: int) -> float:
    """Exact probability that ``attackers`` fighting armies capture ``defenders`` armies.

    ``attackers`` counts only armies that can fight (a territory's armies minus the one that
    must stay behind); 0 attackers never capture, 0 defenders are captured for sure. Equal to
    ``battle_odds(attackers, defenders).p_win`` (to float rounding), from a shared table.
    """
    if attackers < 1:
        return 0.0
    if defenders < 1:
        return 1.0
    return _WINS.get(attackers, defenders)


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
    odds = chain_prefix_odds(start_armies, defenders_along_path)
    if not odds:  # an empty path: taken already, if there is anyone to take it
        return 1.0 if start_armies >= 1 else 0.0
    return odds[-1]


def chain_prefix_odds(start_armies: int, defenders_along_path: Iterable[int]) -> list[float]:
    """Exact probability of capturing the first 1, 2, … territories of a path.

    One pass of :func:`chain_odds`: element ``i`` is the chance that the chain gets through
    territory ``i``, so a bot can cut a path where its odds fall too low at the cost of one
    evaluation.
    """
    prefix: list[float] = []
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
        prefix.append(sum(dist.values()))
    return prefix


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


def reroll_choice(attacker_dice: Sequence[int], defender_dice: Sequence[int]) -> int | None:
    """Advantage re-roll: the index of the lowest compared attacker die that lost, or None.

    Dice are compared highest against highest; a tie goes to the defender. Re-rolling the
    weakest losing die keeps every winning comparison.
    """
    order = sorted(range(len(attacker_dice)), key=lambda i: -attacker_dice[i])
    high = sorted(defender_dice, reverse=True)
    compared = min(len(attacker_dice), len(defender_dice))
    losing = [order[k] for k in range(compared) if attacker_dice[order[k]] <= high[k]]
    return losing[-1] if losing else None


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
