"""Classic RISK behind the game contract (:mod:`arena.games.api`).

:class:`ClassicGame` puts the pure engine (:class:`ClassicRules`, which already answers in the
contract's own types) behind what the arena asks of any game, adding what the engine has no
need of (configuration as data, declarations, standings); :data:`GAME` is the registry entry.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

from arena.errors import IllegalActionError
from arena.games.api import (
    Decision,
    Event,
    GameInfo,
    GameType,
    Outcome,
    Position,
    RuleOption,
    Step,
)
from arena.games.classic.actions import Action, action_from_dict, action_to_dict
from arena.games.classic.config import (
    CHOICES,
    DESCRIPTIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ClassicConfig,
)
from arena.games.classic.events import redact
from arena.games.classic.options import Options, choices
from arena.games.classic.rules import ClassicRules
from arena.games.classic.state import ClassicState

ALWAYS_MAX_DEFENCE = "always_max_defence"
"""The declaration of a seat that always defends with the most dice it may (never asked)."""

CHECK_VARIANTS: tuple[tuple[int, dict[str, str]], ...] = (
    (3, {"max_rounds": "5"}),
    (2, {"max_rounds": "5"}),
    (4, {"mode": "capital", "max_rounds": "5"}),
    (3, {"advantage_reroll": "true", "mode": "mission", "max_rounds": "30"}),
)
"""Configurations whose seeded games together meet every decision kind (for check-bot)."""

KINDS = (
    "claim",
    "place",
    "place_neutral",
    "headquarters",
    "trade",
    "reinforce",
    "attack",
    "defend",
    "reroll",
    "occupy",
    "fortify",
)
"""Every classic decision kind, in the order a game meets them."""


def _options() -> tuple[RuleOption, ...]:
    defaults = ClassicConfig()
    listed: list[RuleOption] = []
    for key, description in DESCRIPTIONS.items():
        default = getattr(defaults, key)
        text = str(default).lower() if isinstance(default, bool) else str(default)
        value = "" if key in CHOICES else "positive integer"
        listed.append(RuleOption(key, text, CHOICES.get(key, ()), description, value=value))
    return tuple(listed)


INFO = GameInfo(
    name="classic",
    title="classic RISK (1993 World Domination RISK and its variants)",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=_options(),
    declarations=(ALWAYS_MAX_DEFENCE,),
    notes=(
        "2 bots play the neutral-army game; the deal defaults to random for it and for missions.",
    ),
)


class ClassicGame:
    """Classic RISK under one :class:`ClassicConfig`, as the arena sees any game."""

    info = INFO

    def __init__(self, config: ClassicConfig) -> None:
        self.rules = ClassicRules(config)
        self.players = config.players

    def config(self) -> dict[str, Any]:
        return self.rules.config.to_dict()

    def rating_format(self) -> str:
        return f"{self.players}p/{self.rules.config.mode}"

    def board(self) -> dict[str, Any]:
        return self.rules.board.to_dict()

    def new_game(self, seed: int, declarations: Sequence[Mapping[str, Any]] = ()) -> ClassicState:
        always_max = [bool(d.get(ALWAYS_MAX_DEFENCE, False)) for d in declarations]
        return self.rules.new_game(seed, always_max)

    def copy(self, state: ClassicState) -> ClassicState:
        return state.copy()

    def decision(self, state: ClassicState) -> Decision | None:
        return self.rules.decision(state)

    def legal_options(self, state: ClassicState, seat: int) -> Options:
        return self.rules.legal_options(state, seat)

    def choices(self, options: Options) -> list[Action]:
        return choices(options)

    def check(self, state: ClassicState, seat: int, action: Action) -> None:
        self.rules.check(state, seat, action)

    def apply(self, state: ClassicState, seat: int, action: Action) -> Step[ClassicState]:
        return self.rules.apply(state, seat, action)

    def apply_joint(self, state: ClassicState, actions: Mapping[int, Action]) -> Step[ClassicState]:
        """Every answer is checked against ``state`` first; then they are applied in seat
        order (classic's only joint decision, the headquarters choice, is revealed once the
        last seat has chosen, so the order changes nothing)."""
        for seat in sorted(actions):
            try:
                self.rules.check(state, seat, actions[seat])
            except IllegalActionError as exc:
                raise IllegalActionError(f"seat {seat}: {exc}") from None
        after = state.copy()
        events: list[Event] = []
        for seat in sorted(actions):
            events.extend(self.rules.apply_unchecked(after, seat, actions[seat]))
        return Step(after, events)

    def apply_unchecked(self, state: ClassicState, seat: int, action: Action) -> list[Event]:
        return self.rules.apply_unchecked(state, seat, action)

    def default_action(self, state: ClassicState, seat: int) -> Action:
        return self.rules.default_action(state, seat)

    def forfeit(self, state: ClassicState, seat: int) -> Step[ClassicState]:
        return self.rules.forfeit(state, seat)

    def view(self, state: ClassicState, seat: int) -> dict[str, Any]:
        # A ClassicView, handed on as the contract's plain JSON.
        return cast("dict[str, Any]", self.rules.view(state, seat))

    redact = staticmethod(redact)
    """The event as a seat may see it (the engine's own function: no extra call per event)."""

    def progress(self, state: ClassicState) -> dict[str, int]:
        return {"turns": state.turns, "rounds": state.round}

    def standings(self, state: ClassicState) -> list[dict[str, int]]:
        held: list[dict[str, int]] = [{"territories": 0, "armies": 0} for _ in range(state.n)]
        for owner, armies in zip(state.owner, state.armies, strict=True):
            if 0 <= owner < state.n:
                held[owner]["territories"] += 1
                held[owner]["armies"] += armies
        return held

    def outcome(self, state: ClassicState) -> Outcome | None:
        return self.rules.outcome(state)

    def out_order(self, state: ClassicState) -> tuple[int, ...]:
        return tuple(state.eliminated)

    def action_to_dict(self, action: Action) -> dict[str, Any]:
        return action_to_dict(action)

    def action_from_dict(self, data: Mapping[str, Any]) -> Action:
        return action_from_dict(dict(data))


class ClassicType:
    """The registry entry of classic RISK."""

    info = INFO

    def configure(self, options: Mapping[str, str], players: int) -> ClassicGame:
        return ClassicGame(ClassicConfig.parse(dict(options), players))

    def from_config(self, config: Mapping[str, Any]) -> ClassicGame:
        return ClassicGame(ClassicConfig.from_dict(dict(config)))

    def positions(self, seed: int = 1) -> list[Position]:
        """The first position of every decision kind in seeded random play over
        :data:`CHECK_VARIANTS` (deterministic), in :data:`KINDS` order."""
        found: dict[str, Position] = {}
        for players, options in CHECK_VARIANTS:
            game = self.configure(options, players)
            for attempt in range(40):
                game_seed = seed * 1000 + attempt
                state = game.new_game(game_seed)
                rng = random.Random(game_seed)
                while (decision := game.decision(state)) is not None and len(found) < len(KINDS):
                    seat = decision.seats[0]
                    if decision.kind not in found:
                        found[decision.kind] = Position(
                            decision.kind, game, state.copy(), seat, game_seed
                        )
                    action = rng.choice(game.choices(game.legal_options(state, seat)))
                    game.apply_unchecked(state, seat, action)
                if len(found) == len(KINDS):
                    return [found[kind] for kind in KINDS]
        return [found[kind] for kind in KINDS if kind in found]


GAME: GameType = ClassicType()
"""Checked against the contract by the type checker: a mismatch is an error there."""
