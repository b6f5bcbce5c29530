"""Classic RISK's encoder: one seat's view (:mod:`arena.games.classic.view`) as numbers.

Seats are seen from the observing seat: "me" first, then every other seat in turn order
after me, so one policy serves every seat. Counts are scaled into [0, 1] (``x / (x + k)``
for unbounded ones, a clip at a bound for the others); docs/training.md lists every block.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from arena.envs.encoding import Encoder, Observation
from arena.games.api import Game
from arena.games.classic.board import WILD
from arena.games.classic.game import KINDS, ClassicGame
from arena.games.classic.missions import MISSIONS

MAX_ACTIONS = 256
"""Actions of the Discrete space. The most choices measured over random games of every
player count and variant (``benchmarks/choices.py``): attack 55, fortify 132 (adjacent),
claim 42, reinforce 41, trade 26, headquarters and place 14, reroll 4, defend 2, all
within it. Longer lists are cut to their first 256 (docs/training.md): an occupy decision
late in a game (every army count from the minimum, up to thousands) keeps its smallest
moves, and a fortify decision under ``fortify=connected`` (up to 1249) keeps its first
moves (ending the turn, the last choice, is then out of reach: a move ends it as well).
"""

ARMY_SCALE = 8.0
"""A territory's ``a`` armies read ``a / (a + 8)``: 1 → 0.11, 3 → 0.27, 8 → 0.5, 40 → 0.83."""
TOTAL_SCALE = 40.0
"""A seat's ``a`` armies on the board read ``a / (a + 40)``."""
HAND_CLIP = 10
"""Hand sizes read ``min(cards, 10) / 10``."""
SYMBOL_CLIP = 5
"""Own cards of one symbol read ``min(count, 5) / 5``."""
RESERVE_CLIP = 40
"""Armies still to place (setup reserves, the neutral's, a turn's reinforcements) read
``min(armies, 40) / 40``."""
SET_VALUE_CLIP = 60
"""The next set's value reads ``min(value, 60) / 60`` (0 when sets are valued by type)."""
SETS_CLIP = 20
"""Sets traded so far read ``min(sets, 20) / 20``."""
GENERAL_MISSIONS = sum(1 for m in MISSIONS if m.kind != "destroy")
"""Missions that name no seat (continents, territories); the others name a seat to destroy."""


class ClassicEncoder:
    """The observation of one seat in one classic configuration (players, board, rules)."""

    def __init__(self, game: ClassicGame) -> None:
        self.max_actions = MAX_ACTIONS
        config = game.rules.config
        self.players = n = config.players
        self.territories = size = game.rules.board.size
        self.max_rounds = config.max_rounds
        self.symbols = np.asarray(game.rules.board.card_symbols, dtype=np.intp)
        self.kinds = {kind: i for i, kind in enumerate(KINDS)}
        self._blocks: list[tuple[str, int]] = [
            ("owner", size * (n + 1)),
            ("armies", size),
            ("headquarters", size * n),
            ("my_territory_cards", size),
            ("my_card_symbols", 4),
            ("seat_cards", n),
            ("seat_territories", n),
            ("seat_armies", n),
            ("seat_reserve", n),
            ("seat_alive", n),
            ("seat_always_max", n),
            ("seat_to_move", n),
            ("mission", GENERAL_MISSIONS + n),
            ("decision_kind", len(KINDS)),
            ("attack_from", size),
            ("attack_to", size),
            ("attack_dice", 1),
            ("game", 7),
        ]
        starts: dict[str, int] = {}
        offset = 0
        for name, length in self._blocks:
            starts[name] = offset
            offset += length
        self._size = offset
        self._at = starts
        # Per observing seat: owner id (+2, so unclaimed -2 and neutral -1 index too) → the
        # owner's one-hot row relative to that seat; and the seats in relative order.
        eye = np.eye(n + 1, dtype=np.float32)
        self._owner_rows = [
            np.stack(
                [np.zeros(n + 1, np.float32), eye[n], *(eye[(o - seat) % n] for o in range(n))]
            )
            for seat in range(n)
        ]
        self._order = [[(seat + r) % n for r in range(n)] for seat in range(n)]

    def observation_size(self) -> int:
        return self._size

    def layout(self) -> list[tuple[str, int]]:
        return list(self._blocks)

    def encode(self, view: Mapping[str, Any], kind: str) -> Observation:
        n, size, at = self.players, self.territories, self._at
        seat: int = view["seat"]
        order = self._order[seat]
        obs = np.zeros(self._size, dtype=np.float32)
        owner = np.asarray(view["owner"], dtype=np.intp)
        armies = np.asarray(view["armies"], dtype=np.float32)
        start = at["owner"]
        obs[start : start + size * (n + 1)] = self._owner_rows[seat][owner + 2].ravel()
        start = at["armies"]
        obs[start : start + size] = armies / (armies + ARMY_SCALE)
        start = at["headquarters"]
        for holder, territory in enumerate(view["headquarters"]):
            if territory >= 0:
                obs[start + territory * n + (holder - seat) % n] = 1.0
        hand: list[int] = view["hand"]
        if hand:
            cards = np.asarray(hand, dtype=np.intp)
            own = cards[cards < size]
            obs[at["my_territory_cards"] + own] = 1.0
            counts = np.bincount(self.symbols[cards], minlength=WILD + 1)
            start = at["my_card_symbols"]
            obs[start : start + 4] = np.minimum(counts, SYMBOL_CLIP) / SYMBOL_CLIP
        held = owner >= 0
        territories = np.bincount(owner[held], minlength=n)
        totals = np.bincount(owner[held], weights=armies[held], minlength=n)
        card_counts: list[int] = view["card_counts"]
        reserve: list[int] = view["reserve"]
        out = set(view["eliminated"])
        always_max: list[bool] = view["always_max"]
        per_seat = [
            *(min(card_counts[s], HAND_CLIP) / HAND_CLIP for s in order),
            *(territories[s] / size for s in order),
            *(totals[s] / (totals[s] + TOTAL_SCALE) for s in order),
            *(min(reserve[s], RESERVE_CLIP) / RESERVE_CLIP for s in order),
            *(0.0 if s in out else 1.0 for s in order),
            *(1.0 if always_max[s] else 0.0 for s in order),
        ]
        start = at["seat_cards"]
        obs[start : start + 6 * n] = per_seat
        obs[at["seat_to_move"] + (view["turn_seat"] - seat) % n] = 1.0
        mission = view["mission"]
        if mission is not None:
            target = MISSIONS[mission["id"]].target
            if target < 0:
                obs[at["mission"] + mission["id"]] = 1.0
            else:
                obs[at["mission"] + GENERAL_MISSIONS + (target - seat) % n] = 1.0
        obs[at["decision_kind"] + self.kinds[kind]] = 1.0
        attack = view["attack"]
        if attack is not None:
            obs[at["attack_from"] + attack["from"]] = 1.0
            obs[at["attack_to"] + attack["to"]] = 1.0
            obs[at["attack_dice"]] = attack["dice"] / 3
        next_value = view["next_set_value"] or 0
        start = at["game"]
        obs[start : start + 7] = (
            min(view["to_place"], RESERVE_CLIP) / RESERVE_CLIP,
            1.0 if view["conquered_this_turn"] else 0.0,
            min(next_value, SET_VALUE_CLIP) / SET_VALUE_CLIP,
            min(view["sets_traded"], SETS_CLIP) / SETS_CLIP,
            min(view["deck_size"], len(self.symbols)) / len(self.symbols),
            min(view["neutral_reserve"], RESERVE_CLIP) / RESERVE_CLIP,
            min(view["round"], self.max_rounds) / self.max_rounds,
        )
        return obs


def encoder(game: Game[Any, Any, Any]) -> Encoder:
    """The encoder of a configured classic game."""
    if not isinstance(game, ClassicGame):
        raise TypeError(f"a classic encoder needs a classic game, got {game.info.name!r}")
    return ClassicEncoder(game)
