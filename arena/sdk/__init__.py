"""What a Python bot author imports: the game-neutral :class:`Bot` base class, requests and
match facts; each game's bot base class, actions and helpers are in its own package,
``arena.sdk.<game>`` (:mod:`arena.sdk.classic`, :mod:`arena.sdk.europe`).

``Bot.choose`` works for any game: a kind without a method gets the game's default answer
from its package, else option 0.

Compatibility: this module also re-exports classic's actions and ``Options``, as it did
when the SDK knew only classic, so bots written then keep ``from arena.sdk import Attack``;
the one place outside :mod:`arena.sdk.classic` that names the game (with
:mod:`arena.sdk.tactics`). An answer is an option index into ``request.choices`` or one of
these actions (territories and cards are ids; docs/writing-a-bot.md shows each with an
example):

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
