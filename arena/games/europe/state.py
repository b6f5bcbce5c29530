"""The position of a RISK: Europe game: flat lists indexed by territory and army, so that a
copy is a handful of list copies (search copies states often).

Units on the board are one list: the count of type ``k`` of army ``a`` on territory ``t`` is
``units[(t * ARMIES + a) * 4 + k]``; the army reserve is ``reserve[a * 4 + k]``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from arena.games.europe.config import ARMIES
from arena.games.streams import Streams

UNCLAIMED = -1
NOBODY = -1


@dataclass(slots=True)
class Battle:
    """The battle being fought: where, who, how far the ranked attack order has got, and what
    waits for an answer (a re-roll, then casualties)."""

    territory: int
    attacker: int
    defender: int
    rank: int = 1
    """The rank about to be rolled, or whose dice wait on a re-roll (1-4)."""
    repetition: int = 1
    rerolled: bool = False
    """Whether the defender's castle re-roll of this repetition is spent."""
    attacker_dice: tuple[int, ...] = ()
    defender_dice: tuple[int, ...] = ()
    """The dice of the rank just rolled (kept while a re-roll decision is open)."""
    hits: tuple[int, int] = (0, 0)
    """Hits still to be taken: (by the attacker's units, by the defender's units)."""
    stage: str = "roll"
    """``roll``, ``reroll`` (the defender decides), ``casualties`` (owners remove units)."""

    def copy(self) -> Battle:
        return Battle(
            self.territory,
            self.attacker,
            self.defender,
            self.rank,
            self.repetition,
            self.rerolled,
            self.attacker_dice,
            self.defender_dice,
            self.hits,
            self.stage,
        )


@dataclass(slots=True)
class PendingLoss:
    """Units an army must remove from one territory (a Siege Assault's or a battle's hits),
    chosen by its owner when it declared ``casualties=ask``."""

    army: int
    territory: int
    count: int


@dataclass(slots=True)
class EuropeState:
    """Everything that changes during a game. ``streams`` is shared by copies (never copied)."""

    n: int
    """Seats (players); armies ``n..3`` are Mercenary Armies."""
    streams: Streams
    owner: list[int]
    attacker: list[int]
    units: list[int]
    castle: list[bool]
    reserve: list[int]
    coins: list[int]
    crown_cards: list[int]
    bought_crown: list[bool]
    hand: list[int]
    """Per army: bitmask of the King's Orders cards in its hand (bit ``i`` = card ``i``)."""
    first: list[int]
    second: list[int]
    """Per army: the cards chosen for turn 1 and turn 2 this round (-1: none)."""
    alive: list[bool]
    cityless: list[int]
    """Per army: the round it ended without a city while saved by a crown (-1: not saved)."""
    controller: list[int]
    """Per army: the seat deciding for it this round (itself for a seat; a Mercenary Army's
    highest bidder, or -1)."""
    policies: list[tuple[str, str, str]]
    """Per army: standing policies (casualties, castle re-roll, battle order)."""
    castles_left: int
    crown_cards_left: int
    marker: int = NOBODY
    round: int = 0
    """The round being played (0 during setup)."""
    turn: int = 0
    """1 or 2 during a round's turns."""
    phase: str = "bid"
    queue: list[int] = field(default_factory=list)
    """Armies (kingdom placement, turns) or mercenaries (cards) still to act, in order."""
    order: list[int] = field(default_factory=list)
    """This round's turn order (armies)."""
    kingdoms: list[int] = field(default_factory=list)
    """Per army: kingdoms placed so far."""
    disputes: list[int] = field(default_factory=list)
    """Disputed territories, in the order they arose (attacker in ``attacker``)."""
    battles: list[int] = field(default_factory=list)
    """Battles still to fight this round, in the chosen order."""
    battle: Battle | None = None
    losses: list[PendingLoss] = field(default_factory=list)
    """Casualty choices waiting for an answer, first first."""
    revealed: int = NOBODY
    """The army whose card of this turn is face up (its turn decision is open)."""
    rest: tuple[int, object, int] | None = None
    """A turn waiting on a Siege Assault's casualties: (army, the Turn, next part)."""
    wins: list[int] = field(default_factory=list)
    """Per army: battles won as attacker this round."""
    dice: int = 0
    ties: int = 0
    turns: int = 0
    """Turn decisions played."""
    out: list[int] = field(default_factory=list)
    """Seats in the order they left the game."""
    end: str | None = None
    missions: list[list[int]] = field(default_factory=list)
    """Per army: missions held, not yet completed (Kingdom Missions)."""
    completed: list[list[tuple[int, int]]] = field(default_factory=list)
    """Per army: (mission, round completed) of each mission completed (a permanent crown;
    its bonus counts from the next round)."""
    deck: list[int] = field(default_factory=list)
    """The mission deck, top first (Kingdom Missions)."""
    drawn: tuple[int, int] | None = None
    """Two missions drawn by the seat whose ``mission`` decision is open."""
    draws: int = 0
    home: list[int] = field(default_factory=list)
    """Per army: the gold city of its first kingdom (-1 before it is placed)."""

    @property
    def armies(self) -> int:
        return ARMIES

    def copy(self) -> EuropeState:
        return EuropeState(
            self.n,
            self.streams,
            self.owner.copy(),
            self.attacker.copy(),
            self.units.copy(),
            self.castle.copy(),
            self.reserve.copy(),
            self.coins.copy(),
            self.crown_cards.copy(),
            self.bought_crown.copy(),
            self.hand.copy(),
            self.first.copy(),
            self.second.copy(),
            self.alive.copy(),
            self.cityless.copy(),
            self.controller.copy(),
            self.policies.copy(),
            self.castles_left,
            self.crown_cards_left,
            self.marker,
            self.round,
            self.turn,
            self.phase,
            self.queue.copy(),
            self.order.copy(),
            self.kingdoms.copy(),
            self.disputes.copy(),
            self.battles.copy(),
            None if self.battle is None else self.battle.copy(),
            [PendingLoss(p.army, p.territory, p.count) for p in self.losses],
            self.revealed,
            self.rest,
            self.wins.copy(),
            self.dice,
            self.ties,
            self.turns,
            self.out.copy(),
            self.end,
            [m.copy() for m in self.missions],
            [m.copy() for m in self.completed],
            self.deck.copy(),
            self.drawn,
            self.draws,
            self.home.copy(),
        )

    # ------------------------------------------------------------------ queries

    def count(self, territory: int, army: int) -> int:
        """Units of ``army`` on ``territory`` (all types)."""
        i = (territory * ARMIES + army) * 4
        u = self.units
        return u[i] + u[i + 1] + u[i + 2] + u[i + 3]

    def of(self, territory: int, army: int) -> tuple[int, int, int, int]:
        """Units of ``army`` on ``territory``, by type."""
        i = (territory * ARMIES + army) * 4
        u = self.units
        return (u[i], u[i + 1], u[i + 2], u[i + 3])

    def disputed(self, territory: int) -> bool:
        return self.attacker[territory] != NOBODY

    def seat_of(self, army: int) -> int:
        """The seat deciding for ``army`` now (-1: nobody)."""
        return army if army < self.n else self.controller[army]
