"""What a Python bot author imports: the :class:`Bot` base class, requests and actions."""

from arena.games.classic.actions import (
    Action,
    Attack,
    ChooseHeadquarters,
    Claim,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    Occupy,
    Place,
    PlaceNeutral,
    Reroll,
    Trade,
)
from arena.games.classic.options import Options
from arena.sdk.bot import Answer, Bot, MatchInfo, Request

__all__ = [
    "Action",
    "Answer",
    "Attack",
    "Bot",
    "ChooseHeadquarters",
    "Claim",
    "Defend",
    "EndAttack",
    "EndTurn",
    "Fortify",
    "MatchInfo",
    "Occupy",
    "Options",
    "Place",
    "PlaceNeutral",
    "Request",
    "Reroll",
    "Trade",
]
