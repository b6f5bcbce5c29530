"""The strategy interface every Python bot implements, in-process or over gRPC.

Subclass :class:`Bot` and override :meth:`Bot.choose`, or one method per decision kind.
A bot sees only its seat's :class:`Request` (view + legal options), never the game state.
An answer is an action (see :mod:`arena.games.classic.actions`) or an option index into
``request.choices``.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any

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
from arena.games.classic.options import Options, choices

Answer = Action | int


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """What a bot learns when a match starts."""

    game: str
    rules: dict[str, Any]
    seat: int
    players: int
    bot_seed: int
    """A per-seat seed derived from the match seed, for reproducible randomness."""
    board: dict[str, Any]
    """Territory names, neighbour lists, continents and card symbols (ids index them)."""
    names: tuple[str, ...] = ()
    """Bot name of each seat."""
    match_id: str = ""
    move_time_ms: int = 0
    """Time per decision before the bank is drawn on (0 = no clock)."""
    time_bank_ms: int = 0
    """This seat's time bank for the whole match."""


@dataclass(frozen=True, slots=True)
class Request:
    """One decision asked of this bot's seat."""

    kind: str
    seat: int
    view: dict[str, Any]
    options: Options
    request_id: int = 0
    deadline_ms: int = 0
    """Time allowed for this decision (0 = no clock)."""
    time_bank_ms: int = 0
    """Time left in the seat's bank for the rest of the match."""
    choices: list[Action] = field(default_factory=list)
    """The options as complete actions; answering ``i`` means ``choices[i]``."""
    events: list[dict[str, Any]] = field(default_factory=list)
    """What happened since this seat's previous request (other seats' cards hidden)."""

    @classmethod
    def make(cls, seat: int, view: dict[str, Any], options: Options, **extra: Any) -> Request:
        """Build a request with its enumerated ``choices``."""
        return cls(options.kind, seat, view, options, choices=choices(options), **extra)


class Bot:
    """Base class for strategies. Defaults are safe, simple play; override what you improve."""

    name: str = "bot"
    version: str = "0"
    always_max_defence: bool = False
    """Declare at match start to always defend with the maximum dice (never asked to defend)."""

    match: MatchInfo | None = None
    _debug: list[str] | None = None

    def run(self) -> None:
        """Connect to the referee named in the environment and play; exits the process."""
        from arena.sdk.client import run

        sys.exit(run(self))

    def debug(self, text: str) -> None:
        """Send a line of debug text; it goes into the replay and is never shown to opponents."""
        if self._debug is None:
            self._debug = []
        self._debug.append(str(text))

    def take_debug(self) -> list[str]:
        """Debug lines written since the last call (used by the runners)."""
        texts, self._debug = self._debug or [], None
        return texts

    def start(self, match: MatchInfo) -> None:
        """Called once when a match starts."""
        self.match = match

    def finish(self, result: dict[str, Any]) -> None:
        """Called once when the match is over, with places and the end reason."""

    def rejected(self, reason: str) -> None:
        """The last answer was illegal (a strike); ``choose`` is asked again right after."""
        print(f"{self.name}: answer rejected: {reason}", file=sys.stderr)

    def choose(self, request: Request) -> Answer:
        """Answer a decision; by default dispatches to the method named after its kind."""
        return getattr(self, request.kind)(request)

    # One method per decision kind; each default is documented by its body.

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


def _weakest(request: Request) -> int:
    armies = request.view["armies"]
    return min(request.options.territories, key=lambda t: (armies[t], t))
