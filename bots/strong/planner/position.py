"""What one view says, with the derived figures every decision of the planner uses: who
holds what, each seat's armies and income, which continents are held whole, and the threat
on a territory."""

from __future__ import annotations

from typing import Any

from arena.sdk.tactics import BoardInfo

ENEMY_INCOME_SHARE = 0.4
"""Share of an adjacent enemy's income counted as threat (it may land on that border)."""


class Position:
    """What one view says, with the derived figures every decision uses."""

    def __init__(self, board: BoardInfo, view: dict[str, Any]) -> None:
        self.board = board
        self.view = view
        self.seat: int = view["seat"]
        self.owner: list[int] = view["owner"]
        self.armies: list[int] = view["armies"]
        self.players: int = view["players"]
        out = set(view["eliminated"]) | set(view.get("forfeited") or [])
        self.rivals = [p for p in range(self.players) if p != self.seat and p not in out]
        self.count = [0] * self.players
        self.total = [0] * self.players
        for t, o in enumerate(self.owner):
            if o >= 0:
                self.count[o] += 1
                self.total[o] += self.armies[t]
        self.holder: list[int | None] = []
        for c in range(len(board.continents)):
            first = self.owner[next(iter(board.members(c)))]
            whole = first >= 0 and board.holds(self.owner, first, c)
            self.holder.append(first if whole else None)
        self.income = [max(3, self.count[p] // 3) for p in range(self.players)]
        for c, h in enumerate(self.holder):
            if h is not None:
                self.income[h] += board.bonus(c)
        self.mine = [t for t, o in enumerate(self.owner) if o == self.seat]

    def enemy(self, t: int) -> bool:
        """Owned by a rival seat (neutral and unclaimed territories never attack)."""
        return self.owner[t] >= 0 and self.owner[t] != self.seat

    def foreign(self, t: int) -> bool:
        return self.owner[t] != self.seat

    def danger(self, t: int, ignore: int = -1) -> float:
        """Armies that could attack own territory ``t`` next round, incomes included."""
        near = 0
        incomes: dict[int, int] = {}
        for n in self.board.neighbours[t]:
            if n != ignore and self.enemy(n):
                near += self.armies[n] - 1
                incomes[self.owner[n]] = self.income[self.owner[n]]
        return near + ENEMY_INCOME_SHARE * max(incomes.values(), default=0)

    def danger_to_holder(self, t: int) -> float:
        """Rival armies next to ``t`` other than its owner's: what would face us there."""
        return sum(
            self.armies[n] - 1
            for n in self.board.neighbours[t]
            if self.enemy(n) and self.owner[n] != self.owner[t]
        )

    def exposed(self, t: int) -> bool:
        return any(self.enemy(n) for n in self.board.neighbours[t])
