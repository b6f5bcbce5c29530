"""RISK: Europe's encoder: one seat's view, and the decision kind, as a fixed vector in [0, 1].

Built from the view alone (``Game.view(state, seat)``, what the protocol sends the seat), so
it carries exactly the seat's knowledge: other seats' hands, hidden cards and missions are
absent from the view and so from the vector. The board itself (borders, cities, tax values)
never changes and is not repeated: position ``t`` of a per-territory block is territory
``t`` (0-48, ``arena/games/europe/data/europe_board.json``).

Armies are seen relative to the observing seat: slot 0 is the seat's own army, slots 1 to
n-1 the other seats clockwise after it (ascending seat number, wrapping), then the
Mercenary Armies in army order (2 or 3 players). So one policy serves every seat.

The blocks, in order (``layout()``; "slot" is an army slot as above; counts are divided by
the scale given and clipped to 1, everything else is 0/1; ``docs/training.md`` has the
same table):

- kind 10: the decision kind, one-hot in :data:`arena.games.europe.game.KINDS` order;
  phase 10: the view's phase (:data:`PHASES`); round 1: round / max_rounds; turn 2: turn 1
  or 2 of the round; bank 3: castles left / 8, crown cards left / 8, crowns to win / 24.
- per territory: units 784 ([territory][slot][footmen, archers, cavalry, siege] / the
  army's 35, 12, 12, 4), owner 196 and attacker 196 ([territory][slot]), castle 49,
  battles 49 (battles still to fight this round), battle_here 49 (the battle under way),
  loss_here 49 (the territory of the first pending casualty choice).
- per army slot: alive 4, mercenary 4, controller 16 ([slot][controller's slot]), coins 8
  (/ 16 and / 128), crowns 4 (/ 24), crown_cards 4 (/ 8), reserve 16 (/ 35, 12, 12, 4),
  hand_size 4 (/ 8), discards 32 ([slot][card]), cards 64 ([slot][turn 1, 2][card]: the
  cards chosen this round, as far as the view shows them), hand_seen 4 and hand 32 (only
  the armies the seat plays: its own, a Mercenary Army it controls), saved 4 (Saved by the
  Crown), home 32 ([slot][gold city in board order]), missions_held 4 (/ 8),
  missions_completed 32, turn_order 16 ([slot][position in this round's order]), marker 4,
  revealed 4 (whose card is face up for its turn), acting 4 (the army the decision is
  for: see :func:`acting_army`).
- the seat's secrets: my_missions 8, drawn 16 ([draw 1, 2][mission]).
- the battle under way: battle 14 (rank 1-4, attacker slot, defender slot, re-roll spent),
  battle_counts 13 (repetition / 16, the attacker's dice per face / 12, the defender's);
  loss 6 (the first pending loss: its army slot, count / 16, pending losses / 4).

Actions: ``max_actions`` is :data:`MAX_ACTIONS` (80). Measured over 600 seeded random games
(100 per player count 2-4, with and without Kingdom Missions; 70% of seats asking every
battle decision; 245,287 decisions), the largest ``len(game.choices(options))`` per kind
was: kingdom 70, cards 56, mercenary_cards 56, turn 53, mercenary_bid 14, bid 6,
casualties 4, battle_order 2, reroll 2, mission 2. These are also the bounds the choice
lists are built to (kingdom: the eight gold cities, each alone and with 7 or 5 footmen
beside it on each unclaimed non-city neighbour, 70 on this board; cards: 8 x 7 ordered
pairs; turn: 1 + 24 Expands + 12 Manoeuvres + 13 fortified + 3 Fortify-only = 53;
casualties at most 5), so no decision is ever cut.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.errors import ArenaError
from arena.games.api import Game
from arena.games.europe.board import ARMY_UNITS, CASTLES, CROWN_CARDS, europe_board
from arena.games.europe.config import ARMIES, MAX_CROWNS
from arena.games.europe.game import KINDS
from arena.games.europe.view import HIDDEN

MAX_ACTIONS = 80
"""Size of the action space: above every measured and structural maximum (kingdom, 70)."""
CARDS = 8
"""King's Orders cards per army, ids 0-7."""
MISSIONS = 8
"""Kingdom Missions, ids 0-7."""
PHASES = (
    "bid",
    "kingdom",
    "round_start",
    "mercenary_bid",
    "cards",
    "mercenary_cards",
    "turn",
    "battle_order",
    "battles",
    "over",
)
"""Every phase a view may show (``battles`` while a battle asks a casualty or re-roll)."""
COIN_SCALES = (16.0, 128.0)
"""Coins appear twice: fine below 16, coarse up to 128 (random play hoards over 200)."""
DICE_SCALE = 12.0
"""Most dice one side rolls in one rank (12 archers or cavalry)."""
REPETITION_SCALE = 16.0
"""Repetitions of the ranked attack order in one battle (15 seen in random play)."""
LOSS_SCALE = 16.0
PENDING_LOSSES_SCALE = 4.0
_TERRITORY_FIELDS = itemgetter("units", "owner", "attacker", "castle")
SIMULTANEOUS_OR_OWN = frozenset({"bid", "mercenary_bid", "cards", "kingdom"})
"""Kinds whose decision is always for the seat's own army."""


class _Blocks:
    """The layout under construction: named blocks, their offsets and per-value scales."""

    def __init__(self) -> None:
        self.names: list[tuple[str, int]] = []
        self.scales: list[float] = []

    def add(self, name: str, length: int, scale: float | Sequence[float] = 1.0) -> int:
        """Append a block; ``scale`` is one divisor or a pattern repeated over the block."""
        offset = len(self.scales)
        pattern = [float(scale)] if isinstance(scale, int | float) else [float(s) for s in scale]
        assert length % len(pattern) == 0, name
        self.scales.extend(pattern * (length // len(pattern)))
        self.names.append((name, length))
        return offset


def relative_slots(seat: int, players: int) -> tuple[int, ...]:
    """Army → its slot as ``seat`` sees it: itself 0, the other seats clockwise after it,
    then the Mercenary Armies in army order."""
    order = [(seat + i) % players for i in range(players)] + list(range(players, ARMIES))
    slots = [0] * ARMIES
    for slot, army in enumerate(order):
        slots[army] = slot
    return tuple(slots)


@dataclass(frozen=True, slots=True)
class _ArmyIndex:
    """Where one army slot's numbers go (first indices of its one-hot groups)."""

    alive: int
    mercenary: int
    controller: int
    saved: int
    discards: tuple[int, ...]
    first_card: int
    second_card: int
    hand_seen: int
    hand: tuple[int, ...]
    home: int
    completed: tuple[int, ...]
    missions_held: int
    figures: tuple[int, ...]
    """coins (twice), crowns, crown cards, hand size, then the reserve by unit type."""


class EuropeEncoder:
    """The encoder of one configured RISK: Europe game (its player count and max_rounds)."""

    def __init__(self, players: int, max_rounds: int) -> None:
        self.max_actions = MAX_ACTIONS
        self.players = players
        board = europe_board()
        size = board.size
        self._territories = size
        self._kinds = {kind: i for i, kind in enumerate(KINDS)}
        self._phases = {phase: i for i, phase in enumerate(PHASES)}
        self._gold = {t: i for i, t in enumerate(board.gold_cities)}
        self._slots = [relative_slots(seat, players) for seat in range(players)]

        b = _Blocks()
        self._kind = b.add("kind", len(KINDS))
        self._phase = b.add("phase", len(PHASES))
        self._round = b.add("round", 1, max_rounds)
        self._turn = b.add("turn", 2)
        self._bank = b.add("bank", 3, (CASTLES, CROWN_CARDS, MAX_CROWNS))
        self._units = b.add("units", size * ARMIES * 4, ARMY_UNITS)
        self._owner = b.add("owner", size * ARMIES)
        self._attacker = b.add("attacker", size * ARMIES)
        self._castle = b.add("castle", size)
        self._battles = b.add("battles", size)
        self._battle_here = b.add("battle_here", size)
        self._loss_here = b.add("loss_here", size)
        self._alive = b.add("alive", ARMIES)
        self._mercenary = b.add("mercenary", ARMIES)
        self._controller = b.add("controller", ARMIES * ARMIES)
        self._coins = b.add("coins", ARMIES * 2, COIN_SCALES)
        self._crowns = b.add("crowns", ARMIES, MAX_CROWNS)
        self._crown_cards = b.add("crown_cards", ARMIES, CROWN_CARDS)
        self._reserve = b.add("reserve", ARMIES * 4, ARMY_UNITS)
        self._hand_size = b.add("hand_size", ARMIES, CARDS)
        self._discards = b.add("discards", ARMIES * CARDS)
        self._cards = b.add("cards", ARMIES * 2 * CARDS)
        self._hand_seen = b.add("hand_seen", ARMIES)
        self._hand = b.add("hand", ARMIES * CARDS)
        self._saved = b.add("saved", ARMIES)
        self._home = b.add("home", ARMIES * len(board.gold_cities))
        self._missions_held = b.add("missions_held", ARMIES, MISSIONS)
        self._completed = b.add("missions_completed", ARMIES * MISSIONS)
        self._order = b.add("turn_order", ARMIES * ARMIES)
        self._marker = b.add("marker", ARMIES)
        self._revealed = b.add("revealed", ARMIES)
        self._acting = b.add("acting", ARMIES)
        self._my_missions = b.add("my_missions", MISSIONS)
        self._drawn = b.add("drawn", 2 * MISSIONS)
        self._fight = b.add("battle", 4 + ARMIES * 2 + 2)
        self._fight_numbers = b.add(
            "battle_counts", 1 + 2 * 6, (REPETITION_SCALE,) + (DICE_SCALE,) * 12
        )
        self._loss = b.add("loss", ARMIES + 2, (1.0,) * ARMIES + (LOSS_SCALE, PENDING_LOSSES_SCALE))
        self._layout = b.names
        self._size = len(b.scales)
        self._inverse = np.array([1.0 / s for s in b.scales], dtype=np.float32)
        self._army_index = [self._army_slot(s) for s in range(ARMIES)]
        self._my_mission_index = tuple(self._my_missions + m for m in range(MISSIONS))
        # Per seat, per territory, where its numbers go: each army's ("0".."3") 4 unit
        # indices, each army's owner and attacker index, the castle index.
        self._territory_index = [
            [
                (
                    {
                        str(a): tuple(
                            self._units + (t * ARMIES + slots[a]) * 4 + k for k in range(4)
                        )
                        for a in range(ARMIES)
                    },
                    tuple(self._owner + t * ARMIES + slots[a] for a in range(ARMIES)),
                    tuple(self._attacker + t * ARMIES + slots[a] for a in range(ARMIES)),
                    self._castle + t,
                )
                for t in range(size)
            ]
            for slots in self._slots
        ]

    def _army_slot(self, s: int) -> _ArmyIndex:
        return _ArmyIndex(
            alive=self._alive + s,
            mercenary=self._mercenary + s,
            controller=self._controller + s * ARMIES,
            saved=self._saved + s,
            discards=tuple(self._discards + s * CARDS + c for c in range(CARDS)),
            first_card=self._cards + s * 2 * CARDS,
            second_card=self._cards + (s * 2 + 1) * CARDS,
            hand_seen=self._hand_seen + s,
            hand=tuple(self._hand + s * CARDS + c for c in range(CARDS)),
            home=self._home + s * len(self._gold),
            completed=tuple(self._completed + s * MISSIONS + m for m in range(MISSIONS)),
            missions_held=self._missions_held + s,
            figures=(
                self._coins + s * 2,
                self._coins + s * 2 + 1,
                self._crowns + s,
                self._crown_cards + s,
                self._hand_size + s,
                *(self._reserve + s * 4 + k for k in range(4)),
            ),
        )

    def observation_size(self) -> int:
        return self._size

    def layout(self) -> list[tuple[str, int]]:
        return list(self._layout)

    def encode(self, view: Mapping[str, Any], kind: str) -> npt.NDArray[np.float32]:
        kind_index = self._kinds.get(kind)
        if kind_index is None:
            raise ArenaError(f"europe has no decision kind {kind!r}; kinds: {', '.join(KINDS)}")
        seat = view["seat"]
        slot = self._slots[seat]
        flags: list[int] = [self._kind + kind_index]  # 0/1 features: their indices
        at: list[int] = [self._round, self._bank, self._bank + 1, self._bank + 2]
        value: list[float] = [  # counts: their indices in ``at``, raw values here
            view["round"],
            view["castles_left"],
            view["crown_cards_left"],
            view["crowns_to_win"],
        ]
        phase = self._phases.get(view["phase"])
        if phase is not None:
            flags.append(self._phase + phase)
        turn = view["turn"]
        if turn in (1, 2):
            flags.append(self._turn + turn - 1)

        flag, at_more, values_more = flags.append, at.extend, value.extend
        for territory, (units_at, owner_at, attacker_at, castle_at) in zip(
            view["territories"], self._territory_index[seat], strict=True
        ):
            units, owner, attacker, castle = _TERRITORY_FIELDS(territory)
            if units:
                for key, counts in units.items():
                    at_more(units_at[key])
                    values_more(counts)
            if owner >= 0:
                flag(owner_at[owner])
            if attacker >= 0:
                flag(attacker_at[attacker])
            if castle:
                flag(castle_at)

        for entry in view["armies"]:
            self._army(entry, slot, flags, at, value)
        for position, army in enumerate(view["order"]):
            flags.append(self._order + slot[army] * ARMIES + position)
        marker = view["marker"]
        if marker >= 0:
            flags.append(self._marker + slot[marker])
        revealed = view["revealed"]
        if revealed >= 0:
            flags.append(self._revealed + slot[revealed])
        acting = acting_army(view, kind, seat)
        if acting >= 0:
            flags.append(self._acting + slot[acting])
        flags.extend(self._battles + t for t in view["battles"])
        for i, mission in enumerate(view.get("drawn", ())):
            flags.append(self._drawn + i * MISSIONS + mission)
        fight = view["battle"]
        if fight is not None:
            self._battle(fight, slot, flags, at, value)
        losses = view["losses"]
        if losses:
            first = losses[0]
            flags.extend((self._loss_here + first["territory"], self._loss + slot[first["army"]]))
            at.extend((self._loss + ARMIES, self._loss + ARMIES + 1))
            value.extend((first["count"], len(losses)))

        at += flags
        value += [1.0] * len(flags)
        raw = np.zeros(self._size, dtype=np.float32)
        raw[at] = value
        raw *= self._inverse
        np.minimum(raw, 1.0, out=raw)  # every count is >= 0: only the top needs clipping
        return raw

    def _army(
        self,
        entry: Mapping[str, Any],
        slot: tuple[int, ...],
        flags: list[int],
        at: list[int],
        value: list[float],
    ) -> None:
        """One army's public figures, and its hand and missions where the view shows them."""
        s = slot[entry["army"]]
        index = self._army_index[s]
        if entry["alive"]:
            flags.append(index.alive)
        if entry["mercenary"]:
            flags.append(index.mercenary)
        controller = entry["controller"]
        if controller >= 0:
            flags.append(index.controller + slot[controller])
        if entry["saved_by_the_crown"]:
            flags.append(index.saved)
        flags += map(index.discards.__getitem__, entry["discards"])
        first, second = entry["cards"]
        if first != HIDDEN:
            flags.append(index.first_card + first)
        if second != HIDDEN:
            flags.append(index.second_card + second)
        hand = entry.get("hand")
        if hand is not None:
            flags.append(index.hand_seen)
            flags += map(index.hand.__getitem__, hand)
        home = self._gold.get(entry["home"])
        if home is not None:
            flags.append(index.home + home)
        completed = entry.get("missions_completed")
        if completed is not None:
            flags += map(index.completed.__getitem__, completed)
            at.append(index.missions_held)
            value.append(entry["missions_held"])
        mine = entry.get("missions")
        if mine is not None:
            flags += map(self._my_mission_index.__getitem__, mine)
        at += index.figures
        coins = entry["coins"]
        value += (coins, coins, entry["crowns"], entry["crown_cards"], entry["hand_size"])
        value += entry["reserve"]

    def _battle(
        self,
        fight: Mapping[str, Any],
        slot: tuple[int, ...],
        flags: list[int],
        at: list[int],
        value: list[float],
    ) -> None:
        """The battle under way: where, who attacks and defends, the rank, the dice."""
        base = self._fight
        flags.extend(
            (
                self._battle_here + fight["territory"],
                base + fight["rank"] - 1,
                base + 4 + slot[fight["attacker"]],
                base + 4 + ARMIES + slot[fight["defender"]],
            )
        )
        if fight["rerolled"]:
            flags.append(base + 4 + 2 * ARMIES)
        faces = [0] * 12  # how many dice show each face: the attacker's, then the defender's
        for die in fight["attacker_dice"]:
            faces[die - 1] += 1
        for die in fight["defender_dice"]:
            faces[6 + die - 1] += 1
        numbers = self._fight_numbers
        at.extend(range(numbers, numbers + 13))
        value.append(fight["repetition"])
        value.extend(faces)


def acting_army(view: Mapping[str, Any], kind: str, seat: int) -> int:
    """The army a ``kind`` decision is for, as the view shows it (-1: none shown): the seat's
    own for bid, mercenary_bid, cards and kingdom; the revealed army for turn and mission;
    the marker holder for battle_order; the defender for reroll; the first pending loss's
    army for casualties; for mercenary_cards the first Mercenary Army the seat controls that
    has not chosen its cards. The view lacks the queue, so a seat not deciding a kingdom or
    mercenary_cards decision is shown its own army or none."""
    if kind in SIMULTANEOUS_OR_OWN:
        return seat
    if kind in ("turn", "mission"):
        return int(view["revealed"])
    if kind == "battle_order":
        return int(view["marker"])
    if kind == "reroll":
        fight = view["battle"]
        return -1 if fight is None else int(fight["defender"])
    if kind == "casualties":
        losses = view["losses"]
        return int(losses[0]["army"]) if losses else -1
    # mercenary_cards: the first Mercenary Army the seat controls still to choose its cards
    for entry in view["armies"]:
        if entry["mercenary"] and entry["controller"] == seat and entry["cards"][0] == HIDDEN:
            return int(entry["army"])
    return -1


def encoder(game: Game[Any, Any, Any]) -> EuropeEncoder:
    """The encoder of ``game`` (a configured RISK: Europe game)."""
    return EuropeEncoder(game.players, int(game.config()["max_rounds"]))
