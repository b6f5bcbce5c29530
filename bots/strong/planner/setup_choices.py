"""The setup's choices: the territories it claims (continents cheap to hold, near its own,
the last free territory of a rival's continent), where neutral armies block the opponent
(2 players), and its headquarters (Capital RISK)."""

from __future__ import annotations

from collections.abc import Sequence

from arena.sdk import ChooseHeadquarters, Claim, PlaceNeutral

from .position import Position


def claim(pos: Position, territories: Sequence[int]) -> Claim:
    """The free territory worth most towards a continent it can hold."""
    board = pos.board

    def score(t: int) -> tuple[float, int]:
        c = board.continent_of[t]
        members = board.members(c)
        ours = sum(1 for m in members if pos.owner[m] == pos.seat)
        free = sum(1 for m in members if pos.owner[m] == -2)
        rival = max((sum(1 for m in members if pos.owner[m] == p) for p in pos.rivals), default=0)
        worth = board.bonus(c) / len(board.continent_borders(c))
        value = worth * (1 + ours - 0.8 * rival) / len(members) * 4
        if rival and ours == 0 and rival + free == len(members) and free <= 2:
            value += board.bonus(c)  # the last free territory stops a rival's continent
        value += 0.3 * sum(1 for n in board.neighbours[t] if pos.owner[n] == pos.seat)
        value -= 0.05 * len(board.neighbours[t])
        return value, -t

    return Claim(max(territories, key=score))


def place_neutral(pos: Position, territories: Sequence[int]) -> PlaceNeutral:
    """A neutral army where it blocks the opponent's continents most (and ours least)."""
    board = pos.board
    rival = pos.rivals[0] if pos.rivals else -1

    def score(t: int) -> tuple[float, int]:
        c = board.continent_of[t]
        members = board.members(c)
        theirs = sum(1 for m in members if pos.owner[m] == rival) / len(members)
        ours = sum(1 for m in members if pos.owner[m] == pos.seat) / len(members)
        near = sum(pos.armies[n] for n in board.neighbours[t] if pos.owner[n] == rival)
        return 3 * theirs * board.bonus(c) - 3 * ours * board.bonus(c) + 0.2 * near, -t

    return PlaceNeutral(max(territories, key=score))


def headquarters(pos: Position, territories: Sequence[int]) -> ChooseHeadquarters:
    """The territory with the most armies against the least threat."""

    def score(t: int) -> tuple[float, int]:
        return pos.armies[t] - pos.danger(t) - 0.5 * len(pos.board.neighbours[t]), -t

    return ChooseHeadquarters(max(territories, key=score))
