"""Builders for classic-engine test positions (table-driven rule cases start from these)."""

from __future__ import annotations

import random
from collections.abc import Iterable

from arena.games.classic import ClassicConfig, ClassicRules, ClassicState, Phase, choices
from arena.games.classic.board import classic_board
from arena.games.classic.game import ClassicGame

BOARD = classic_board()


def tid(name: str) -> int:
    """Territory id by name."""
    return BOARD.territory(name)


def continent(name: str) -> list[int]:
    """Territory ids of a continent."""
    return list(next(c.territories for c in BOARD.continents if c.name == name))


def rules_for(players: int = 3, **options: str) -> ClassicRules:
    """Rules for ``players`` seats with ``KEY=VALUE`` options (checked like the CLI does)."""
    return ClassicRules(ClassicConfig.parse({k: str(v) for k, v in options.items()}, players))


def game_of(rules: ClassicRules) -> ClassicGame:
    """The rules behind the game contract, as the referee takes them."""
    return ClassicGame(rules.config)


def make_state(
    rules: ClassicRules,
    owner: dict[int, int] | None = None,
    *,
    default_owner: int | None = None,
    armies: dict[int, int] | None = None,
    default_armies: int = 1,
    seat: int = 0,
    phase: Phase = Phase.ATTACK,
    hands: dict[int, Iterable[int]] | None = None,
    seed: int = 1,
    **fields: object,
) -> ClassicState:
    """A mid-game position: every territory owned (``default_owner`` or round-robin by id) with
    ``default_armies``, overridden per territory by ``owner`` and ``armies``; ``fields`` set any
    other state attribute (e.g. ``to_place=5``, ``sets_traded=3``)."""
    s = rules.new_game(seed)
    n = rules.n
    for t in range(BOARD.size):
        s.owner[t] = default_owner if default_owner is not None else t % n
        s.armies[t] = default_armies
    for t, o in (owner or {}).items():
        s.owner[t] = o
    for t, a in (armies or {}).items():
        s.armies[t] = a
    s.reserve = (0,) * n
    s.neutral_reserve = 0
    held = {p: tuple(h) for p, h in (hands or {}).items()}
    s.hands = tuple(held.get(p, ()) for p in range(n))
    in_hands = {c for h in s.hands for c in h}
    s.deck = tuple(c for c in range(len(BOARD.card_symbols)) if c not in in_hands)
    s.seat = seat
    s.first = 0
    s.round = 1
    s.turns = 1
    s.phase = phase
    for name, value in fields.items():
        setattr(s, name, value)
    return s


def random_playout(
    rules: ClassicRules, seed: int, rng: random.Random | None = None, limit: int = 200_000
) -> tuple[ClassicState, int]:
    """Play a game to the end with uniformly random legal choices; returns (final state, decisions)."""
    rng = rng or random.Random(seed)
    state = rules.new_game(seed)
    count = 0
    while (decision := rules.decision(state)) is not None:
        seat = rng.choice(decision.seats)
        action = rng.choice(choices(rules.legal_options(state, seat)))
        state = rules.apply(state, seat, action).state
        count += 1
        assert count < limit, "game did not terminate"
    return state, count
