"""What a Python bot author imports: the :class:`Bot` base class, requests and actions.

``Bot.choose`` works for any game (a kind without a method gets option 0); the classic
actions below come from :mod:`arena.sdk.classic`.

An answer is an option index into ``request.choices`` or one of these actions (territories
and cards are ids; docs/writing-a-bot.md shows each with an example):

- ``Claim(territory)``, ``PlaceNeutral(territory)``, ``ChooseHeadquarters(territory)``
- ``Place(((territory, armies), ...))``: a tuple of pairs, not one pair;
  ``Place.on(territory, armies=1)`` for a single territory
- ``Trade((card, card, card), bonus_territory=None)``, or ``Trade(None)`` to decline
- ``Attack(source, target, dice, until=None, reroll="ask")``, ``EndAttack()``
- ``Defend(dice)``, ``Reroll(die_index_or_None)``, ``Occupy(armies)``
- ``Fortify(source, target, armies)``, ``EndTurn()``
"""

from arena.sdk.bot import Answer, Bot, MatchInfo, Request, default_answer
from arena.sdk.classic import (
    Action,
    Attack,
    ChooseHeadquarters,
    Claim,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    Occupy,
    Options,
    Place,
    PlaceNeutral,
    Reroll,
    Trade,
)

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
    "default_answer",
]
