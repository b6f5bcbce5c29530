"""RISK: Europe behind the game contract (:mod:`arena.games.api`); :data:`GAME` is the
registry entry."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

from arena.games.api import Decision, Event, GameInfo, GameType, Outcome, Position, RuleOption, Step
from arena.games.europe import options as europe_options
from arena.games.europe import view as europe_view
from arena.games.europe.actions import Action, action_from_dict, action_to_dict
from arena.games.europe.config import (
    BOOLEAN,
    CROWNS_TO_WIN,
    DESCRIPTIONS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MIN_PLAYERS,
    EuropeConfig,
)
from arena.games.europe.missions import BONUSES, MISSIONS
from arena.games.europe.options import EuropeOptions
from arena.games.europe.rules import DECLARATIONS, POLICY_CHOICES, EuropeRules
from arena.games.europe.state import EuropeState

KINDS = (
    "bid",
    "kingdom",
    "mercenary_bid",
    "cards",
    "mercenary_cards",
    "turn",
    "mission",
    "battle_order",
    "reroll",
    "casualties",
)
"""Every Europe decision kind, in the order a game meets them."""
ASK_ALL = {key: "ask" for key in DECLARATIONS}
"""Declarations under which a seat is asked every battle decision (check-bot positions)."""
CHECK_VARIANTS: tuple[tuple[int, dict[str, str]], ...] = (
    (4, {}),
    (3, {}),
    (4, {"missions": "true"}),
)
"""Configurations whose seeded games together meet every decision kind (for check-bot)."""

APPROXIMATIONS = (
    "coins are silver units only; a gold coin (5 silver) is not modelled.",
    "the sea lines Sweden-Finland and Finland-Novgorod (sources disagree).",
    "2 players play with two Mercenary Armies (the 3-player variant's "
    "procedure, one per missing colour), each player placing two kingdoms.",
    "8 crowns to win with 2 or 3 players (play reports, not the rule book).",
    "the Mercenary Army variant's details (random cities, per-round secret "
    "bid, acting last, never winning, never buying crown cards).",
    "a turn is judged whole before its dice: what follows a Siege Assault must be legal "
    "whatever it rolls (a footmen-only Expand into the castle it attacks is refused).",
    "the Kingdom Missions texts and bonuses are invented stand-ins: "
    + " ".join(f"{i}: {text}" for i, text in enumerate(MISSIONS))
    + f" Bonuses: even ids {BONUSES[0]}, odd ids {BONUSES[1]}.",
)


def _rule_options() -> tuple[RuleOption, ...]:
    return (
        RuleOption(
            "crowns_to_win",
            str(CROWNS_TO_WIN),
            (),
            DESCRIPTIONS["crowns_to_win"],
            value="positive integer",
        ),
        RuleOption(
            "max_rounds", str(MAX_ROUNDS), (), DESCRIPTIONS["max_rounds"], value="positive integer"
        ),
        RuleOption("missions", "false", BOOLEAN, DESCRIPTIONS["missions"], approximation=True),
    )


INFO = GameInfo(
    name="europe",
    title="RISK: Europe (2015): secret bids and order cards, ranked battles, crowns",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=_rule_options(),
    approximations=APPROXIMATIONS,
    declarations=DECLARATIONS,
    notes=(
        "2 or 3 players: the Mercenary Army variant (4 armies on the board, the rest are "
        "mercenaries bid for every round).",
        "Standing policies a seat may declare: "
        + "; ".join(
            f"{key} = {' | '.join(choices)} (default {choices[0]})"
            for key, choices in zip(DECLARATIONS, POLICY_CHOICES, strict=True)
        ),
        "Full rules and interpretations: docs/europe-rules.md",
    ),
)


class EuropeGame:
    """RISK: Europe under one :class:`EuropeConfig`, as the arena sees any game."""

    info = INFO

    def __init__(self, config: EuropeConfig) -> None:
        self.rules = EuropeRules(config)
        self.players = config.players
        self._board = self.rules.board.to_dict()

    def config(self) -> dict[str, Any]:
        return self.rules.config.to_dict()

    def rating_format(self) -> str:
        config = self.rules.config
        return f"{self.players}p" + ("/missions" if config.missions else "")

    def board(self) -> dict[str, Any]:
        return self._board

    def new_game(self, seed: int, declarations: Sequence[Mapping[str, Any]] = ()) -> EuropeState:
        return self.rules.new_game(seed, declarations)

    def copy(self, state: EuropeState) -> EuropeState:
        return state.copy()

    def decision(self, state: EuropeState) -> Decision | None:
        return self.rules.decision(state)

    def legal_options(self, state: EuropeState, seat: int) -> EuropeOptions:
        return europe_options.legal_options(self.rules, state, seat)

    def choices(self, options: EuropeOptions) -> Sequence[Action]:
        return options.listed

    def check(self, state: EuropeState, seat: int, action: Action) -> None:
        self.rules.check(state, seat, action)

    def apply(self, state: EuropeState, seat: int, action: Action) -> Step[EuropeState]:
        return self.rules.apply(state, seat, action)

    def apply_joint(self, state: EuropeState, actions: Mapping[int, Action]) -> Step[EuropeState]:
        return self.rules.apply_joint(state, actions)

    def apply_unchecked(self, state: EuropeState, seat: int, action: Action) -> list[Event]:
        return self.rules.apply_unchecked(state, seat, action)

    def default_action(self, state: EuropeState, seat: int) -> Action:
        return self.rules.default_action(state, seat)

    def forfeit(self, state: EuropeState, seat: int) -> Step[EuropeState]:
        return self.rules.forfeit(state, seat)

    def view(self, state: EuropeState, seat: int) -> dict[str, Any]:
        # A EuropeView, handed on as the contract's plain JSON.
        return cast("dict[str, Any]", europe_view.view_for(self.rules, state, seat))

    redact = staticmethod(europe_view.redact)

    def progress(self, state: EuropeState) -> dict[str, int]:
        completed = state.round - (0 if state.phase == "over" else 1)
        return {"rounds": max(completed, 0), "turns": state.turns}

    def standings(self, state: EuropeState) -> list[dict[str, int]]:
        rules = self.rules
        return [
            {
                "crowns": rules.crowns(state, s),
                "territories": rules.territories(state, s),
                "coins": state.coins[s],
            }
            for s in range(state.n)
        ]

    def outcome(self, state: EuropeState) -> Outcome | None:
        return self.rules.outcome(state)

    def out_order(self, state: EuropeState) -> tuple[int, ...]:
        return tuple(state.out)

    def action_to_dict(self, action: Action) -> dict[str, Any]:
        return action_to_dict(action)

    def action_from_dict(self, data: Mapping[str, Any]) -> Action:
        return action_from_dict(data)


class EuropeType:
    """The registry entry of RISK: Europe."""

    info = INFO

    def configure(self, options: Mapping[str, str], players: int) -> EuropeGame:
        return EuropeGame(EuropeConfig.parse(options, players))

    def from_config(self, config: Mapping[str, Any]) -> EuropeGame:
        return EuropeGame(EuropeConfig.from_dict(config))

    def positions(self, seed: int = 1) -> list[Position]:
        """The first position of every decision kind in seeded random play over
        :data:`CHECK_VARIANTS`, every seat asking for every battle decision."""
        found: dict[str, Position] = {}
        for players, options in CHECK_VARIANTS:
            game = self.configure(options, players)
            for attempt in range(20):
                game_seed = seed * 1000 + attempt
                state = game.new_game(game_seed, [ASK_ALL] * players)
                rng = random.Random(game_seed)
                while (decision := game.decision(state)) is not None and len(found) < len(KINDS):
                    if decision.kind not in found:
                        found[decision.kind] = Position(
                            decision.kind, game, state.copy(), decision.seats[0], game_seed
                        )
                    picks = {
                        seat: rng.choice(list(game.choices(game.legal_options(state, seat))))
                        for seat in decision.seats
                    }
                    state = game.apply_joint(state, picks).state
                if len(found) == len(KINDS):
                    return [found[kind] for kind in KINDS]
        return [found[kind] for kind in KINDS if kind in found]


GAME: GameType = EuropeType()
"""Checked against the contract by the type checker: a mismatch is an error there."""
