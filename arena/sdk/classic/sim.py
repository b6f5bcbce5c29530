"""Search over the real classic engine from one seat's view: a determinized copy of the game.

A bot never sees the game state, only its view. To look ahead with the engine's own rules
(:meth:`ClassicRules.apply_unchecked` on cheap :meth:`ClassicState.copy` copies), it builds
a full state that agrees with everything the view shows and fills in what the view hides
from its own random generator: the other seats' cards (from the cards it does not hold), the
draw pile, the other seats' missions and unrevealed headquarters, and the dice and card draws
(a private :class:`~arena.games.streams.Streams` keyed by the bot's seed, entered at a random
offset). Each call to :meth:`Simulator.sample` is one determinization; averaging over several
is how a bot searches a game of hidden information and dice without ever reading either.

    sim = Simulator(match)                     # in Bot.start
    state = sim.sample(request.view, rng)      # one possible world
    sim.rules.apply_unchecked(state, seat, action)
"""

from __future__ import annotations

import random
from typing import Any

from arena.games.classic.board import classic_board
from arena.games.classic.config import ClassicConfig
from arena.games.classic.missions import mission_deck
from arena.games.classic.rng import BLOCK, Streams
from arena.games.classic.rules import ClassicRules
from arena.games.classic.state import ClassicState, Phase
from arena.sdk.bot import MatchInfo

OFFSETS = 64
"""Blocks of the private dice stream a sample may start in: enough variety for any search,
while the stream's cache stays bounded (64 blocks of 1,024 values)."""

_PHASES = {phase.name.lower(): phase for phase in Phase}


class Simulator:
    """The rules of this match and a way to sample full states consistent with a view."""

    def __init__(self, match: MatchInfo) -> None:
        self.config = ClassicConfig.from_dict(dict(match.rules))
        self.rules = ClassicRules(self.config, classic_board())
        self.streams = Streams(match.bot_seed)
        self.cards = len(self.rules.board.card_symbols)

    def sample(self, view: dict[str, Any], rng: random.Random) -> ClassicState:
        """One full state that agrees with ``view``; hidden parts drawn from ``rng``."""
        n = int(view["players"])
        me = int(view["seat"])
        s = ClassicState.__new__(ClassicState)
        s.streams = self.streams
        s.n = n
        s.owner = list(view["owner"])
        s.armies = list(view["armies"])
        s.phase = _PHASES[view["phase"]]
        s.seat = int(view["turn_seat"])
        s.first = s.seat
        s.round = int(view["round"])
        s.turns = int(view["turns"])
        s.reserve = tuple(view["reserve"])
        s.neutral_reserve = int(view["neutral_reserve"])
        s.sets_traded = int(view["sets_traded"])
        s.to_place = int(view["to_place"])
        s.conquered = bool(view["conquered_this_turn"])
        s.bonus_given = False
        s.forced_trade = False
        s.roll = None
        s.occupy = None
        attack = view.get("attack")
        s.attack = (attack["from"], attack["to"], attack["dice"], None, "auto") if attack else None
        s.eliminated = tuple(view["eliminated"])
        forfeited = set(view.get("forfeited") or [])
        s.forfeited = tuple(p in forfeited for p in range(n))
        always = list(view.get("always_max") or [])
        s.always_max = tuple(bool(x) for x in always) + (False,) * (n - len(always))
        s.winner = None
        s.end = None
        s.places = None
        s.hands, s.deck, s.discard = self._cards(view, me, n, rng)
        s.missions = self._missions(view, me, n, rng)
        s.hq, s.hq_pending, s.hq_revealed = self._headquarters(view, me, n, rng)
        s.dice_i = rng.randrange(OFFSETS * BLOCK)
        s.card_i = rng.randrange(OFFSETS * BLOCK)
        return s

    def _cards(
        self, view: dict[str, Any], me: int, n: int, rng: random.Random
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
        """Own hand as seen; every other hand and the draw pile from the unseen cards."""
        mine = tuple(view["hand"])
        unseen = [c for c in range(self.cards) if c not in mine]
        rng.shuffle(unseen)
        counts = view["card_counts"]
        hands: list[tuple[int, ...]] = []
        for p in range(n):
            if p == me:
                hands.append(mine)
                continue
            take = min(int(counts[p]), len(unseen))
            hands.append(tuple(sorted(unseen[:take])))
            del unseen[:take]
        size = min(int(view["deck_size"]), len(unseen))
        deck = tuple(sorted(unseen[:size]))
        discard = tuple(sorted(unseen[size:]))
        return tuple(hands), deck, discard

    def _missions(
        self, view: dict[str, Any], me: int, n: int, rng: random.Random
    ) -> tuple[int, ...]:
        """Own mission as seen; the others dealt from the rest of the mission deck."""
        own = view.get("mission")
        if not own:
            return ()
        rest = [m for m in mission_deck(n) if m != own["id"]]
        rng.shuffle(rest)
        missions = []
        for p in range(n):
            missions.append(own["id"] if p == me else rest.pop())
        return tuple(missions)

    def _headquarters(
        self, view: dict[str, Any], me: int, n: int, rng: random.Random
    ) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
        """Headquarters as seen; an unrevealed rival's drawn from the territories it owns."""
        shown = list(view.get("headquarters") or [])
        if not shown:
            return (), (), False
        if all(t >= 0 for t in shown) and view["phase"] != "headquarters":
            return tuple(shown), tuple(shown), True
        owner = view["owner"]
        pending = []
        for p in range(n):
            if shown[p] >= 0 or p == me:
                pending.append(shown[p])
                continue
            own = [t for t, o in enumerate(owner) if o == p]
            pending.append(rng.choice(own) if own else -1)
        return (-1,) * n, tuple(pending), False
