"""Classic's default play, one function per decision kind: safe and simple (see each body).

What a classic bot answers for a kind it has no method of its own for: :class:`ClassicBot`'s
methods and :func:`arena.sdk.classic.default_answer` both play these.
"""

from __future__ import annotations

from collections.abc import Callable

from arena.games.classic.actions import (
    Action,
    ChooseHeadquarters,
    Defend,
    EndAttack,
    EndTurn,
    Occupy,
    Place,
    Reroll,
    Trade,
)
from arena.sdk.bot import Request

Answer = Action | int


def claim(request: Request) -> Answer:
    return 0


def place(request: Request) -> Answer:
    return Place.on(_weakest(request), request.options.armies)


def place_neutral(request: Request) -> Answer:
    return 0


def headquarters(request: Request) -> Answer:
    armies = request.view["armies"]
    return ChooseHeadquarters(max(request.options.territories, key=lambda t: armies[t]))


def trade(request: Request) -> Answer:
    return Trade(request.options.sets[0]) if request.options.sets else Trade(None)


def reinforce(request: Request) -> Answer:
    return Place.on(_weakest(request), request.options.armies)


def attack(request: Request) -> Answer:
    return EndAttack()


def defend(request: Request) -> Answer:
    return Defend(request.options.max_dice)


def reroll(request: Request) -> Answer:
    return Reroll(None)


def occupy(request: Request) -> Answer:
    return Occupy(request.options.max_armies)


def fortify(request: Request) -> Answer:
    return EndTurn()


def _weakest(request: Request) -> int:
    armies = request.view["armies"]
    return int(min(request.options.territories, key=lambda t: (armies[t], t)))


PLAYS: dict[str, Callable[[Request], Answer]] = {
    "claim": claim,
    "place": place,
    "place_neutral": place_neutral,
    "headquarters": headquarters,
    "trade": trade,
    "reinforce": reinforce,
    "attack": attack,
    "defend": defend,
    "reroll": reroll,
    "occupy": occupy,
    "fortify": fortify,
}
"""The default play of each classic decision kind."""
