"""Classic RISK's encoder: one seat's view (:mod:`arena.games.classic.view`) as numbers.

Seats are seen from the observing seat: "me" first, then every other seat in turn order
after me, so one policy serves every seat. Counts are scaled into [0, 1] (``x / (x + k)``
for unbounded ones, a clip at a bound for the others); docs/training.md lists every block.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

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
ARMY_TABLE = 2048
"""Army counts the table of ``a / (a + 8)`` holds; larger ones read as 2047 does (0.996)."""
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
SEAT_FIGURES = ("cards", "territories", "armies", "reserve", "alive", "always_max", "to_move")
"""What the ``seats`` block holds for each seat (me first, then the others in turn order)."""
GAME_FIGURES = (
    "to_place",
    "conquered_this_turn",
    "next_set_value",
    "sets_traded",
    "deck_size",
    "neutral_reserve",
    "round",
)
"""What the ``game`` block holds, in order."""
GENERAL_MISSIONS = sum(1 for m in MISSIONS if m.kind != "destroy")
"""Missions that name no seat (continents, territories); the others name a seat to destroy."""


@dataclass(slots=True)
class Settled:
    """What one seat's observation takes from the figures that change seldom, and the key
    they came from: who holds which territory, the headquarters, the seat's hand and
    mission, everyone's card counts and reserves, who is out, whose turn it is."""

    key: tuple[Any, ...]
    template: npt.NDArray[np.float32]
    """The observation with every block those figures fill, the others 0."""
    seats_of: npt.NDArray[np.int64]
    """Per territory, one-hot: the seat holding it (columns in relative seat order)."""


class ClassicEncoder:
    """The observation of one seat in one classic configuration (players, board, rules).

    Built for speed (it runs at every environment step): what follows from the figures
    that change seldom is kept per seat as a template, so a step copies it and writes only
    the armies, the attack, the decision kind and the per-game figures."""

    def __init__(self, game: ClassicGame) -> None:
        self.max_actions = MAX_ACTIONS
        config = game.rules.config
        self.players = n = config.players
        self.territories = size = game.rules.board.size
        self.max_rounds = config.max_rounds
        self.symbols = game.rules.board.card_symbols
        self.cards = len(self.symbols)
        self._blocks: list[tuple[str, int]] = [
            ("owner", size * (n + 1)),
            ("armies", size),
            ("headquarters", size * n),
            ("my_territory_cards", size),
            ("attack_from", size),
            ("attack_to", size),
            ("my_card_symbols", WILD + 1),
            ("seats", n * len(SEAT_FIGURES)),
            ("mission", GENERAL_MISSIONS + n),
            ("decision_kind", len(KINDS)),
            ("attack_dice", 1),
            ("game", len(GAME_FIGURES)),
        ]
        at: dict[str, int] = {}
        offset = 0
        for name, length in self._blocks:
            at[name] = offset
            offset += length
        self._size = offset
        self._at = at
        self._armies = slice(at["armies"], at["armies"] + size)
        self._from, self._to = at["attack_from"], at["attack_to"]
        self._kind = {kind: at["decision_kind"] + i for i, kind in enumerate(KINDS)}
        self._dice = at["attack_dice"]
        self._game = slice(at["game"], at["game"] + len(GAME_FIGURES))
        # Per observing seat: owner id (+2, so unclaimed -2 and neutral -1 index too) → the
        # owner's one-hot row relative to that seat; and the seats in relative order.
        eye = np.eye(n + 1, dtype=np.float32)
        self._owner_rows = [
            np.stack(
                [np.zeros(n + 1, np.float32), eye[n], *(eye[(o - seat) % n] for o in range(n))]
            )
            for seat in range(n)
        ]
        self._seat_rows = [rows[:, :n].astype(np.int64) for rows in self._owner_rows]
        """The same rows without the neutral's column, as integers (to sum armies by)."""
        self._order = [[(seat + r) % n for r in range(n)] for seat in range(n)]
        self._known: list[Settled | None] = [None] * n
        self._squashed = np.array(
            [a / (a + ARMY_SCALE) for a in range(ARMY_TABLE)], dtype=np.float32
        )
        """A territory's armies read through a table (a count past its end reads as the
        last entry, 0.997)."""
        self._seat_at = [at["seats"] + r * len(SEAT_FIGURES) for r in range(n)]
        self._seat_slots = [list(zip(self._seat_at, order, strict=True)) for order in self._order]
        """Per observing seat: where each seat's figures start, and which seat it is."""

    def observation_size(self) -> int:
        return self._size

    def layout(self) -> list[tuple[str, int]]:
        return list(self._blocks)

    def encode(self, view: Mapping[str, Any], kind: str) -> Observation:
        seat: int = view["seat"]
        mission = view["mission"]
        key = (
            view["owner"],
            view["hand"],
            view["reserve"],
            view["eliminated"],
            view["headquarters"],
            None if mission is None else mission["id"],
        )
        known = self._known[seat]
        if known is None or known.key != key:
            if known is not None and known.key[1:] == key[1:]:  # only land changed hands
                self._moved(seat, known, key[0])
            else:
                known = self._known[seat] = self._settle(seat, key, view["always_max"])
        obs = known.template.copy()
        armies = np.array(view["armies"])
        self._squashed.take(armies, mode="clip", out=obs[self._armies])
        # Per seat, in relative order: cards held, armies on the board, whose turn it is.
        cards = view["card_counts"]
        totals = armies.dot(known.seats_of).tolist()
        for (at, other), total in zip(self._seat_slots[seat], totals, strict=True):
            obs[at] = min(cards[other], HAND_CLIP) / HAND_CLIP
            obs[at + 2] = total / (total + TOTAL_SCALE)
        obs[self._seat_at[(view["turn_seat"] - seat) % self.players] + 6] = 1.0
        obs[self._kind[kind]] = 1.0
        attack = view["attack"]
        if attack is not None:
            obs[self._from + attack["from"]] = 1.0
            obs[self._to + attack["to"]] = 1.0
            obs[self._dice] = attack["dice"] / 3
        rounds = self.max_rounds
        obs[self._game] = (
            min(view["to_place"], RESERVE_CLIP) / RESERVE_CLIP,
            1.0 if view["conquered_this_turn"] else 0.0,
            min(view["next_set_value"] or 0, SET_VALUE_CLIP) / SET_VALUE_CLIP,
            min(view["sets_traded"], SETS_CLIP) / SETS_CLIP,
            view["deck_size"] / self.cards,
            min(view["neutral_reserve"], RESERVE_CLIP) / RESERVE_CLIP,
            min(view["round"], rounds) / rounds,
        )
        return obs

    def _moved(self, seat: int, known: Settled, owners: list[int]) -> None:
        """Bring ``known`` up to date where only territories changed hands (the common
        case: a conquest): patch those territories' rows and the seats' territory counts."""
        n, size, at = self.players, self.territories, self._at
        before: list[int] = known.key[0]
        rows, seat_rows, template = self._owner_rows[seat], self._seat_rows[seat], known.template
        for territory, (old, new) in enumerate(zip(before, owners, strict=True)):
            if old != new:
                start = at["owner"] + territory * (n + 1)
                template[start : start + n + 1] = rows[new + 2]
                known.seats_of[territory] = seat_rows[new + 2]
        for r, s in enumerate(self._order[seat]):
            template[self._seat_at[r] + 1] = owners.count(s) / size
        known.key = (owners[:], *known.key[1:])

    def _settle(self, seat: int, key: tuple[Any, ...], always_max: list[bool]) -> Settled:
        """The template of ``seat``'s observations while the figures of ``key`` hold."""
        owners, hand, reserve, out, headquarters, mission = key
        n, size, at = self.players, self.territories, self._at
        template = np.zeros(self._size, dtype=np.float32)
        shifted = np.asarray(owners, dtype=np.intp) + 2
        template[at["owner"] : at["owner"] + size * (n + 1)] = self._owner_rows[seat][
            shifted
        ].ravel()
        for holder, territory in enumerate(headquarters):
            if territory >= 0:
                template[at["headquarters"] + territory * n + (holder - seat) % n] = 1.0
        symbols = [0] * (WILD + 1)
        for card in hand:
            symbols[self.symbols[card]] += 1
            if card < size:
                template[at["my_territory_cards"] + card] = 1.0
        start = at["my_card_symbols"]
        template[start : start + WILD + 1] = [min(c, SYMBOL_CLIP) / SYMBOL_CLIP for c in symbols]
        seats_of = self._seat_rows[seat][shifted]
        order = self._order[seat]
        figures: list[float] = []
        for s in order:
            figures += (
                0.0,  # cards: written at each step
                owners.count(s) / size,
                0.0,  # armies: written at each step
                min(reserve[s], RESERVE_CLIP) / RESERVE_CLIP,
                0.0 if s in out else 1.0,
                1.0 if always_max[s] else 0.0,
                0.0,  # to move: written at each step
            )
        template[at["seats"] : at["seats"] + len(figures)] = figures
        if mission is not None:
            target = MISSIONS[mission].target
            place = mission if target < 0 else GENERAL_MISSIONS + (target - seat) % n
            template[at["mission"] + place] = 1.0
        copied = tuple(list(k) if isinstance(k, list) else k for k in key)
        return Settled(copied, template, seats_of)


def encoder(game: Game[Any, Any, Any]) -> Encoder:
    """The encoder of a configured classic game."""
    if not isinstance(game, ClassicGame):
        raise TypeError(f"a classic encoder needs a classic game, got {game.info.name!r}")
    return ClassicEncoder(game)
