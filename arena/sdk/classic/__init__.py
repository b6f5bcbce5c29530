"""Classic RISK for Python bots: its decision kinds, actions and the per-kind default play.

The SDK's package for classic, found by the game's name (:mod:`arena.sdk.game_sdk`).
:class:`ClassicBot` is the base class of a classic bot: one method per classic decision kind,
each a safe, simple default, so overriding one changes that kind only. The game-neutral
:class:`arena.sdk.Bot` gets the same defaults through :func:`default_answer` and its
declarations through :func:`declarations`. :mod:`arena.sdk` re-exports the actions and
``Options`` so bots written before keep ``from arena.sdk import Attack, ...``.
"""

from __future__ import annotations

from typing import Any

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
from arena.games.classic.game import ALWAYS_MAX_DEFENCE, KINDS
from arena.games.classic.options import Options, choices
from arena.sdk.bot import Bot, Request
from arena.sdk.bot import default_answer as neutral_answer
from arena.sdk.classic import defaults

GAME = "classic"

Answer = defaults.Answer

__all__ = [
    "GAME",
    "KINDS",
    "Action",
    "Answer",
    "Attack",
    "ChooseHeadquarters",
    "Claim",
    "ClassicBot",
    "Defend",
    "EndAttack",
    "EndTurn",
    "Fortify",
    "Occupy",
    "Options",
    "Place",
    "PlaceNeutral",
    "Reroll",
    "Trade",
    "choices",
    "declarations",
    "default_answer",
]


def default_answer(request: Request) -> Answer:
    """Classic's default answer to ``request``: its kind's default play
    (:mod:`arena.sdk.classic.defaults`; option 0 for a kind classic does not have)."""
    play = defaults.PLAYS.get(request.kind)
    return 0 if play is None else play(request)


def declarations(bot: Bot) -> dict[str, Any]:
    """What ``bot`` declares before a classic match: its ``always_max_defence`` (a class
    attribute of :class:`ClassicBot`; bots on the neutral :class:`arena.sdk.Bot` set it too)."""
    return {ALWAYS_MAX_DEFENCE: bool(getattr(bot, "always_max_defence", False))}


class ClassicBot(Bot):
    """The base class of a classic bot: one method per classic decision kind, each the
    kind's default play; override what you improve.

    :meth:`arena.sdk.Bot.choose` calls the method named after the request's kind; these
    defaults answer classic requests only (another game's request of the same kind name gets
    that game's default answer instead).
    """

    always_max_defence: bool = False
    """Declare at match start to always defend with the maximum dice (never asked to defend)."""

    def choose(self, request: Request) -> Answer:
        kind = request.kind
        answer: Answer
        if request.game != GAME and getattr(type(self), kind, None) is DEFAULTS.get(kind):
            answer = neutral_answer(request)  # classic's default does not know another game
        else:
            answer = super().choose(request)
        return answer

    def claim(self, request: Request) -> Answer:
        return defaults.claim(request)

    def place(self, request: Request) -> Answer:
        return defaults.place(request)

    def place_neutral(self, request: Request) -> Answer:
        return defaults.place_neutral(request)

    def headquarters(self, request: Request) -> Answer:
        return defaults.headquarters(request)

    def trade(self, request: Request) -> Answer:
        return defaults.trade(request)

    def reinforce(self, request: Request) -> Answer:
        return defaults.reinforce(request)

    def attack(self, request: Request) -> Answer:
        return defaults.attack(request)

    def defend(self, request: Request) -> Answer:
        return defaults.defend(request)

    def reroll(self, request: Request) -> Answer:
        return defaults.reroll(request)

    def occupy(self, request: Request) -> Answer:
        return defaults.occupy(request)

    def fortify(self, request: Request) -> Answer:
        return defaults.fortify(request)


DEFAULTS = {kind: getattr(ClassicBot, kind) for kind in KINDS}
"""The default method of each classic kind, to tell an inherited default from an override."""
