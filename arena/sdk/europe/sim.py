"""Search over the real RISK: Europe engine from one seat's view: a determinized copy of the
game.

A bot never sees the game state, only its view. To look ahead with the engine's own rules
(:meth:`EuropeRules.apply_unchecked` on cheap :meth:`EuropeState.copy` copies) it builds a
full state that agrees with everything the view shows and fills in what the view hides from
its own generator: the cards other armies chose this round and have not revealed (with the
rest of their hands, from the cards they have not discarded), the missions others hold and
the mission deck, and the dice (a private :class:`~arena.games.streams.Streams` keyed by the
bot's seed, entered at a random offset). A bot with a model of its opponents may pass the
cards it expects them to have chosen (``guess``); a guess the view contradicts is ignored.

Every seat in a sampled state plays the default standing policies (casualties cheapest
first, the automatic castle re-roll, battles in listed order): a look-ahead is never stopped
for a battle decision.

    sim = Simulator(match)                     # in Bot.start
    state = sim.sample(request.view, rng)      # one possible world
    sim.rules.apply_unchecked(state, seat, action)
    sim.request(state, seat)                   # what an SDK bot would be asked there
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from arena.games.europe import options as europe_options
from arena.games.europe import view as europe_view
from arena.games.europe.config import ARMIES, EuropeConfig
from arena.games.europe.rules import KINGDOMS_SMALL, EuropeRules, policies
from arena.games.europe.state import NOBODY, EuropeState
from arena.games.streams import BLOCK, Streams
from arena.sdk.bot import MatchInfo, Request

OFFSETS = 64
"""Blocks of the private dice stream a sample may start in (the stream's cache stays
bounded)."""
CARDS = 8
HIDDEN = europe_view.HIDDEN


class Simulator:
    """The rules of this match and a way to sample full states consistent with a view."""

    def __init__(self, match: MatchInfo) -> None:
        self.config = EuropeConfig.from_dict(dict(match.rules))
        self.rules = EuropeRules(self.config)
        self.streams = Streams(match.bot_seed)
        self.board = self.rules.board

    # ------------------------------------------------------------------ asking

    def request(self, state: EuropeState, seat: int) -> Request:
        """The request an SDK bot at ``seat`` gets in ``state`` (its view, the constraints,
        the listed choices)."""
        opts = europe_options.legal_options(self.rules, state, seat)
        return Request(
            opts.kind,
            seat,
            dict(europe_view.view_for(self.rules, state, seat)),
            opts.constraints,
            choices=list(opts.listed),
            game="europe",
        )

    # ---------------------------------------------------------------- sampling

    def sample(
        self,
        view: Mapping[str, Any],
        rng: random.Random,
        guess: Mapping[int, tuple[int, int]] | None = None,
    ) -> EuropeState:
        """One full state that agrees with ``view``; hidden parts drawn from ``rng`` (an
        army's chosen cards from ``guess`` where the view allows them)."""
        armies = view["armies"]
        n = sum(1 for a in armies if not a["mercenary"])
        size = self.board.size
        units = [0] * (size * ARMIES * 4)
        owner, attacker, castle = [NOBODY] * size, [NOBODY] * size, [False] * size
        for t, entry in enumerate(view["territories"]):
            owner[t] = int(entry["owner"])
            attacker[t] = int(entry["attacker"])
            castle[t] = bool(entry["castle"])
            for army, counts in entry["units"].items():
                i = (t * ARMIES + int(army)) * 4
                units[i : i + 4] = [int(c) for c in counts]
        reserve: list[int] = []
        for a in armies:
            reserve.extend(int(c) for c in a["reserve"])
        state = EuropeState(
            n=n,
            streams=self.streams,
            owner=owner,
            attacker=attacker,
            units=units,
            castle=castle,
            reserve=reserve,
            coins=[int(a["coins"]) for a in armies],
            crown_cards=[int(a["crown_cards"]) for a in armies],
            bought_crown=[False] * ARMIES,
            hand=[0] * ARMIES,
            first=[-1] * ARMIES,
            second=[-1] * ARMIES,
            alive=[bool(a["alive"]) for a in armies],
            cityless=[-1] * ARMIES,
            controller=[int(a["controller"]) for a in armies],
            policies=[policies({})] * ARMIES,
            castles_left=int(view["castles_left"]),
            crown_cards_left=int(view["crown_cards_left"]),
            marker=int(view["marker"]),
            round=int(view["round"]),
            turn=int(view["turn"]),
            phase=str(view["phase"]),
            order=[int(a) for a in view["order"]],
            disputes=[int(t) for t in view["disputes"]],
            battles=[int(t) for t in view["battles"]],
            revealed=int(view["revealed"]),
            wins=[0] * ARMIES,
            home=[int(a["home"]) for a in armies],
        )
        state.dice = rng.randrange(OFFSETS * BLOCK)
        state.ties = rng.randrange(OFFSETS * BLOCK)
        state.out = [s for s in range(n) if not state.alive[s]]
        for a, entry in enumerate(armies):
            if entry["saved_by_the_crown"]:
                state.cityless[a] = max(0, state.round - 1)
            self._cards(state, a, entry, rng, (guess or {}).get(a))
        state.kingdoms = self._kingdoms(state)
        state.queue = self._queue(state, view)
        if "missions_held" in armies[0]:
            self._missions(state, view, rng)
        return state

    def _cards(
        self,
        state: EuropeState,
        army: int,
        entry: Mapping[str, Any],
        rng: random.Random,
        guess: tuple[int, int] | None,
    ) -> None:
        """The army's hand and this round's two cards: as shown, hidden ones drawn from the
        cards neither discarded nor shown (the guess first when it fits)."""
        shown = [int(c) for c in entry["cards"]]
        if "hand" in entry:
            hand = 0
            for c in entry["hand"]:
                hand |= 1 << int(c)
            state.hand[army] = hand
            state.first[army], state.second[army] = shown[0], shown[1]
            return
        unseen = set(range(CARDS)) - {int(c) for c in entry["discards"]}
        unseen -= {c for c in shown if c != HIDDEN}
        hidden = len(unseen) - int(entry["hand_size"])  # chosen cards still face down
        picked = list(shown)
        if hidden > 0:
            slots = [k for k in (0, 1) if picked[k] == HIDDEN][-hidden:]
            fits = guess is not None and all(
                guess[k] in unseen if k in slots else guess[k] == picked[k] for k in (0, 1)
            )
            for k in slots:
                card = guess[k] if fits and guess is not None else rng.choice(sorted(unseen))
                unseen.discard(card)
                picked[k] = card
        hand = 0
        for c in unseen:
            hand |= 1 << c
        state.hand[army] = hand
        state.first[army], state.second[army] = picked[0], picked[1]

    def _kingdoms(self, state: EuropeState) -> list[int]:
        """Kingdoms placed per army: during setup, the gold cities it holds."""
        gold = self.board.gold_cities
        return [sum(1 for c in gold if state.owner[c] == a) for a in range(ARMIES)]

    def _queue(self, state: EuropeState, view: Mapping[str, Any]) -> list[int]:
        """Who is still to act in the open phase, in order."""
        phase = state.phase
        if phase == "kingdom":
            seats = self.rules.turn_order(state, seats_only=True)
            rounds = 1 if state.n == ARMIES else KINGDOMS_SMALL
            placed = sum(state.kingdoms[s] for s in range(state.n))
            return (seats * rounds)[placed:]
        if phase == "mercenary_cards":
            return [
                m
                for m in range(state.n, ARMIES)
                if state.alive[m] and state.controller[m] != NOBODY and state.first[m] < 0
            ]
        if phase == "turn":
            card = state.first if state.turn == 1 else state.second
            order = state.order
            start = order.index(state.revealed) if state.revealed in order else len(order)
            return [a for a in order[start:] if state.alive[a] and card[a] >= 0]
        return []

    def _missions(self, state: EuropeState, view: Mapping[str, Any], rng: random.Random) -> None:
        """Missions: own ones as shown, completed ones public, others' held ones and the
        deck's order drawn from the rest."""
        armies = view["armies"]
        seat = int(view["seat"])
        state.missions = [[] for _ in range(ARMIES)]
        state.completed = [[(int(m), 0) for m in a.get("missions_completed", [])] for a in armies]
        known = {m for done in state.completed for m, _ in done}
        own = [int(m) for m in armies[seat].get("missions", [])]
        state.missions[seat] = own
        known |= set(own)
        drawn = view.get("drawn")
        if drawn:
            known |= {int(m) for m in drawn}
            state.drawn = (int(drawn[0]), int(drawn[1]))
        pool = [m for m in range(CARDS) if m not in known]
        rng.shuffle(pool)
        for a, entry in enumerate(armies):
            if a != seat:
                held = int(entry.get("missions_held", 0))
                state.missions[a], pool = pool[:held], pool[held:]
        state.deck = pool
