"""The board's figures every evaluation and rollout reads, as flat tuples (neighbours,
continents and their members, borders and bonuses, card symbols)."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence

from arena.games.classic.board import Board


class Geometry:
    """The board's figures every evaluation reads, as flat tuples."""

    def __init__(self, board: Board) -> None:
        self.size = board.size
        self.neighbours = board.neighbours
        self.continent_of = board.continent_of
        self.members = tuple(c.territories for c in board.continents)
        self.pick_members = tuple(_picker(c.territories) for c in board.continents)
        """Per continent: reads its members' owners as a tuple, in C (rollouts ask often)."""
        self.bonus = tuple(c.bonus for c in board.continents)
        self.by_name = {c.name: i for i, c in enumerate(board.continents)}
        self.borders = tuple(
            tuple(
                t
                for t in c.territories
                if any(board.continent_of[n] != i for n in board.neighbours[t])
            )
            for i, c in enumerate(board.continents)
        )
        self.symbols = board.card_symbols


def _picker(members: Sequence[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """Reads ``members``' entries of a list as a tuple, in C where it can."""
    if len(members) > 1:
        return operator.itemgetter(*members)
    only = members[0]  # itemgetter of one index returns no tuple
    return lambda values: (values[only],)
