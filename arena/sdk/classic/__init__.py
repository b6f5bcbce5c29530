"""Classic RISK for Python bots: its decision kinds, actions and the per-kind default play.

The only SDK module that knows classic; :mod:`arena.sdk` re-exports its names so bots keep
``from arena.sdk import Attack, Bot, ...``. :class:`ClassicBot` holds one method per classic
decision kind; :class:`arena.sdk.Bot` inherits them, so overriding one changes that kind only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from arena.sdk.bot import Request

GAME = "classic"

Answer = Action | int

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
]


class ClassicBot:
    """One method per classic decision kind; each default is safe, simple play (see its body).

    :meth:`arena.sdk.Bot.choose` calls the method named after the request's kind; these
    defaults answer classic requests only (another game's request of the same kind name gets
    the game-neutral default instead).
    """

    always_max_defence: bool = False
    """Declare at match start to always defend with the maximum dice (never asked to defend)."""

    def declarations(self, game: str) -> dict[str, Any]:
        """What this bot declares before a match of ``game`` (classic: its always-max defence)."""
        return {ALWAYS_MAX_DEFENCE: bool(self.always_max_defence)} if game == GAME else {}

    def claim(self, request: Request) -> Answer:
        return 0

    def place(self, request: Request) -> Answer:
        return Place.on(_weakest(request), request.options.armies)

    def place_neutral(self, request: Request) -> Answer:
        return 0

    def headquarters(self, request: Request) -> Answer:
        armies = request.view["armies"]
        return ChooseHeadquarters(max(request.options.territories, key=lambda t: armies[t]))

    def trade(self, request: Request) -> Answer:
        return Trade(request.options.sets[0]) if request.options.sets else Trade(None)

    def reinforce(self, request: Request) -> Answer:
        return Place.on(_weakest(request), request.options.armies)

    def attack(self, request: Request) -> Answer:
        return EndAttack()

    def defend(self, request: Request) -> Answer:
        return Defend(request.options.max_dice)

    def reroll(self, request: Request) -> Answer:
        return Reroll(None)

    def occupy(self, request: Request) -> Answer:
        return Occupy(request.options.max_armies)

    def fortify(self, request: Request) -> Answer:
        return EndTurn()


DEFAULTS = {kind: getattr(ClassicBot, kind) for kind in KINDS}
"""The default method of each classic kind, to tell an inherited default from an override."""


def _weakest(request: Request) -> int:
    armies = request.view["armies"]
    return min(request.options.territories, key=lambda t: (armies[t], t))
