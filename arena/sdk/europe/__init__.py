"""RISK: Europe for Python bots: the :class:`EuropeBot` base class, the actions, and
helpers computed from the ``view`` and ``board`` dicts alone.

The SDK's package for Europe, found by the game's name (:mod:`arena.sdk.game_sdk`). A bot
gets ``request.view`` (its seat's view), ``request.options`` (the decision's constraints)
and ``self.match.board`` (the board at match start); nothing here needs the engine's state.
Facts (:mod:`~arena.sdk.europe.board`): an army's units, its supply-line networks (own
undisputed territories linked by land borders or sea lines), the tax value of a network, its
crowns; and the exact odds of a ranked battle (:mod:`~arena.sdk.europe.odds`). The terminal
seat is :mod:`arena.sdk.europe.human`.

A decision kind a bot has no method for is answered with option 0 (always legal), so Europe
needs no default method per kind.
"""

from __future__ import annotations

from arena.games.europe.actions import (
    NO_UNITS,
    NONE,
    BattleOrder,
    Bid,
    Cards,
    Casualties,
    KeepMission,
    Kingdom,
    MercenaryBid,
    Move,
    Recruit,
    Reroll,
    Turn,
    Units,
)
from arena.games.europe.board import (
    ARCHER,
    CASTLE_COST,
    CAVALRY,
    CROWN_CARD_COST,
    FOOTMAN,
    SIEGE,
    UNIT_COSTS,
)
from arena.sdk.bot import Bot, MatchInfo
from arena.sdk.europe.board import (
    NOBODY,
    EuropeMap,
    army_crowns,
    largest_network,
    network,
    networks,
    owned,
    tax_value,
    units_of,
)
from arena.sdk.europe.odds import BattleOdds, battle_odds, cheapest_casualties

__all__ = [
    "ARCHER",
    "CASTLE_COST",
    "CAVALRY",
    "CROWN_CARD_COST",
    "FOOTMAN",
    "GAME",
    "NOBODY",
    "NONE",
    "NO_UNITS",
    "SIEGE",
    "UNIT_COSTS",
    "BattleOdds",
    "BattleOrder",
    "Bid",
    "Cards",
    "Casualties",
    "EuropeBot",
    "EuropeMap",
    "KeepMission",
    "Kingdom",
    "MercenaryBid",
    "Move",
    "Recruit",
    "Reroll",
    "Turn",
    "Units",
    "army_crowns",
    "battle_odds",
    "cheapest_casualties",
    "largest_network",
    "network",
    "networks",
    "owned",
    "tax_value",
    "units_of",
]

GAME = "europe"


class EuropeBot(Bot):
    """The base class of a RISK: Europe bot: the match's board as a :class:`EuropeMap`
    (:attr:`map`). Standing policies are declared by overriding :meth:`declarations`
    (e.g. ``{"castle_reroll": "ask"}`` for ``"europe"``)."""

    map: EuropeMap | None = None
    """The board of the Europe match under way (None before one starts)."""

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.map = EuropeMap.of(match.board) if match.game == GAME else None
