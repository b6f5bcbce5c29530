"""Card trades: a set as soon as one can be traded, the one bringing the most armies (its
value where sets differ, +2 when it shows a territory held) and the fewest wilds; the +2
goes to the most exposed of its territories."""

from __future__ import annotations

from arena.games.classic import cards as cardlib
from arena.games.classic.board import WILD
from arena.sdk import Request, Trade
from arena.sdk.classic import Answer

from .geometry import Geometry


def trade(g: Geometry, fixed: bool, me: int, request: Request) -> Answer:
    """The set to trade (``fixed``: set values differ by their symbols), or none."""
    options = request.options
    if not options.sets:
        return Trade(None)
    symbols = g.symbols
    bonus_cards = set(options.bonus_territories)

    def worth(cards: tuple[int, int, int]) -> tuple[int, int]:
        """Armies the set brings (its value where sets differ, +2 when one of its
        territories is held), then the fewer wilds spent."""
        kinds = (symbols[cards[0]], symbols[cards[1]], symbols[cards[2]])
        armies = cardlib.fixed_value(kinds) if fixed else 0
        if any(c in bonus_cards for c in cards):
            armies += 2
        return armies, -kinds.count(WILD)

    cards = max(options.sets, key=worth)
    eligible = [c for c in cards if c in bonus_cards]
    if not eligible:
        return Trade(cards)
    view = request.view

    def exposure(t: int) -> tuple[int, int]:
        return sum(view["armies"][n] for n in g.neighbours[t] if view["owner"][n] != me), -t

    return Trade(cards, bonus_territory=max(eligible, key=exposure))
