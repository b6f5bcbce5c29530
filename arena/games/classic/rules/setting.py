"""What one classic game is played under: its configuration, its board, and the lookup
tables every rule reads, built once so that no call recomputes them.

Every rule is a function of a :class:`Setting` and a state; :class:`~.ClassicRules` is the
setting with those functions as its methods.
"""

from __future__ import annotations

from arena.games.api import Decision
from arena.games.classic.board import Board, classic_board
from arena.games.classic.config import ClassicConfig
from arena.games.classic.state import Phase


class Setting:
    """The configuration and board of a game, with the tables the rules read on every call."""

    def __init__(self, config: ClassicConfig, board: Board | None = None) -> None:
        self.config = config
        self.board = board or classic_board()
        self.n = config.players
        board = self.board
        self.size = board.size
        """Number of territories (ids are ``0 .. size - 1``)."""
        self.ids = range(board.size)
        self.symbols = board.card_symbols
        """Symbol of each card id (territory cards first, then the wilds)."""
        self.neighbours = board.neighbours
        """Neighbour ids of each territory (tuples, for iteration)."""
        self.adjacent = board.adjacent
        """Neighbour ids of each territory (frozensets, for membership tests)."""
        self.continents = [(c.bonus, c.territories) for c in board.continents]
        """(bonus, territory ids) of each continent, for reinforcements."""
        self.continent_by_name = {c.name: c.territories for c in board.continents}
        self.single_decisions: dict[tuple[Phase, int], Decision] = {}
        """One immutable :class:`Decision` per (phase, seat) that has a single deciding
        seat: it depends on nothing else, so sharing it between states is safe."""
