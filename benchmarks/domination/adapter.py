"""Domination's position, as the bridge reports it, made into the arena's: a
:class:`ClassicState` mirror of the asked seat's decision (so the arena's own engine lists the
legal options and builds the view a bot gets in ``arena match``), and the bot's answer made
into Domination's commands.

Domination knows less than the state holds: other seats' cards, the deck and the discard
pile appear only as counts, so the mirror fills them with card ids the asked seat cannot see
(a view shows them as counts too). Domination gives no +2 armies for a traded card's
territory, so the mirror marks the bonus as given this turn: the options offer none.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arena.games.classic.actions import (
    Action,
    Attack,
    Claim,
    EndAttack,
    EndTurn,
    Fortify,
    Occupy,
    Place,
    Trade,
)
from arena.games.classic.cards import increasing_value
from arena.games.classic.game import ClassicGame
from arena.games.classic.state import UNCLAIMED, ClassicState, Phase

TRADE, PLACE, ATTACKING, ROLLING, BATTLE_WON, FORTIFYING, END_TURN = 1, 2, 3, 4, 5, 6, 7
"""Domination's game states (``RiskGame.STATE_*``) the asked seat meets."""


def sets_traded(card_state: int) -> int:
    """Sets traded so far from the value of the last one (Domination's ``cardState``)."""
    n = 0
    while card_state > 0 and increasing_value(n + 1) <= card_state:
        n += 1
    return n


@dataclass
class Mirror:
    """The arena's view of one Domination game, for the seat the bot plays."""

    game: ClassicGame
    seat: int
    ids: dict[int, int]
    """Domination country number -> arena territory id."""
    always_max: tuple[bool, ...]
    first: int | None = None
    out: list[int] = field(default_factory=list)
    """Seats out of the game, in the order the mirror saw them go."""

    def number(self, territory: int) -> int:
        """Domination's country number of an arena territory."""
        return self.numbers[territory]

    def __post_init__(self) -> None:
        self.numbers = {t: n for n, t in self.ids.items()}
        self.wilds = self.game.rules.board.size

    def card_id(self, name: str) -> int:
        """An arena card id of a card in the bridge's hand list (a country or ``*k``)."""
        if name.startswith("*"):
            return self.wilds + int(name[1:])
        return self.ids[int(name)]

    def card_word(self, card: int) -> str:
        """Domination's name of a card in a ``trade`` command."""
        return "wildcard" if card >= self.wilds else str(self.number(card))

    def phase(self, snap: dict[str, Any]) -> Phase | None:
        """The arena phase of the asked seat's decision; None: none the arena would ask."""
        state = snap["state"]
        if state == PLACE and not snap["setup_done"]:
            return Phase.CLAIM if -1 in snap["owner"] else Phase.PLACE
        return {
            TRADE: Phase.TRADE,
            PLACE: Phase.REINFORCE,
            ATTACKING: Phase.ATTACK,
            BATTLE_WON: Phase.OCCUPY,
            FORTIFYING: Phase.FORTIFY,
        }.get(state)

    def state(self, snap: dict[str, Any], phase: Phase) -> ClassicState:
        """The mirror of the position in ``snap`` at the asked seat's ``phase`` decision."""
        n, me = len(snap["players"]), self.seat
        size = self.game.rules.board.size
        s = self.game.new_game(0, [{"always_max_defence": m} for m in self.always_max])
        owner = [UNCLAIMED] * size
        armies = [0] * size
        for i, (o, a) in enumerate(zip(snap["owner"], snap["armies"], strict=True)):
            t = self.ids[i + 1]
            owner[t] = UNCLAIMED if o < 0 else o
            armies[t] = a
        players = snap["players"]
        if self.first is None:
            self.first = (me - sum(armies)) % n
        if snap["setup_done"]:
            for p, row in enumerate(players):
                if row["territories"] == 0 and p not in self.out:
                    self.out.append(p)
        s.owner, s.armies, s.phase, s.seat, s.first = owner, armies, phase, me, self.first
        s.round = max(1, players[me]["turns"] - 1)
        s.turns = sum(max(0, row["turns"] - 1) for row in players)
        setup = not snap["setup_done"]
        s.reserve = tuple(row["extra"] if setup else 0 for row in players)
        s.neutral_reserve = 0
        hand = tuple(sorted(self.card_id(c) for c in snap["hand"]))
        unseen = [c for c in range(len(self.game.rules.board.card_symbols)) if c not in hand]
        hands: list[tuple[int, ...]] = []
        for p, row in enumerate(players):
            if p == me:
                hands.append(hand)
            else:
                hands.append(tuple(unseen[: row["cards"]]))
                unseen = unseen[row["cards"] :]
        s.hands = tuple(hands)
        s.deck = tuple(unseen[: snap["deck"]])
        s.discard = tuple(unseen[snap["deck"] : snap["deck"] + snap["used"]])
        s.sets_traded = sets_traded(snap["card_state"])
        s.to_place = players[me]["extra"] if phase in (Phase.TRADE, Phase.REINFORCE) else 0
        s.bonus_given = True
        s.conquered = bool(snap["captured"])
        s.forced_trade = bool(snap["trade_cap"])
        s.attack = s.roll = s.occupy = None
        if phase == Phase.OCCUPY:
            src, dst, least = (
                self.ids[snap["attacker"]],
                self.ids[snap["defender"]],
                snap["must_move"],
            )
            armies[src] -= least
            armies[dst] = least
            s.occupy = (src, dst, least)
        s.eliminated = tuple(self.out)
        s.forfeited = (False,) * n
        s.always_max = self.always_max
        return s

    def commands(self, action: Action, phase: Phase) -> list[str]:
        """Domination's commands for an answer (an attack's rolls are the caller's: see
        :func:`next_roll`)."""
        if isinstance(action, Claim):
            return [f"placearmies {self.number(action.territory)} 1"]
        if isinstance(action, Place):
            return [f"placearmies {self.number(t)} {a}" for t, a in action.placements if a > 0]
        if isinstance(action, Trade):
            if action.cards is None:
                return ["endtrade"]
            return ["trade " + " ".join(self.card_word(c) for c in action.cards)]
        if isinstance(action, Attack):
            return [f"attack {self.number(action.source)} {self.number(action.target)}"]
        if isinstance(action, EndAttack):
            return ["endattack"]
        if isinstance(action, Occupy):
            return [f"move {action.armies}"]
        if isinstance(action, Fortify):
            return [
                f"movearmies {self.number(action.source)} {self.number(action.target)} "
                f"{action.armies}"
            ]
        if isinstance(action, EndTurn):
            return ["nomove"]
        raise ValueError(f"no Domination command for {action!r} in {phase.name.lower()}")


def next_roll(attack: Attack, snap: dict[str, Any], number: int, rolled: int) -> str | None:
    """The next command of an attack under way in ``snap`` (Domination asks to roll each
    battle): ``roll D`` while the arena's attack would roll on, ``retreat`` once it would stop,
    None once the battle is over (a capture, or the attacker down to one army)."""
    if snap["state"] != ROLLING or snap["over"]:
        return None
    armies = snap["armies"][number - 1]
    if rolled and (attack.until is None or armies <= attack.until or armies < 2):
        return "retreat"
    return f"roll {min(attack.dice, armies - 1, 3)}"
