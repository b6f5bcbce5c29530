"""RISK: Europe's flow: setup, rounds, turns, battles and the end, as a pure engine.

:class:`EuropeRules` says who decides what (:meth:`decision`), checks and applies answers,
and moves the game on by itself through everything nobody decides (card reveals, King Me,
battles fought by standing policies, the end of a round) until the next decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.errors import IllegalActionError
from arena.games.api import Decision, Event, Outcome, Step
from arena.games.europe import battle, missions, orders
from arena.games.europe.actions import (
    Action,
    BattleOrder,
    Bid,
    Cards,
    Casualties,
    KeepMission,
    Kingdom,
    MercenaryBid,
    Reroll,
    Turn,
)
from arena.games.europe.board import (
    ARMY_UNITS,
    CASTLES,
    CROWN_CARDS,
    FOOTMAN,
    START_COINS,
    START_FOOTMEN,
    UNIT_TYPES,
    Board,
    europe_board,
)
from arena.games.europe.config import ARMIES, EuropeConfig
from arena.games.europe.state import NOBODY, EuropeState
from arena.games.streams import Streams

MAX_BID = 5
FULL_HAND = (1 << 8) - 1
MARKER_COINS = 10
"""What the First Player Marker counts for in the last tie-break."""
DECLARATIONS = ("casualties", "castle_reroll", "battle_order")
POLICY_CHOICES = (battle.CASUALTY_POLICIES, battle.REROLL_POLICIES, battle.BATTLE_ORDER_POLICIES)
SIMULTANEOUS = frozenset({"bid", "mercenary_bid", "cards"})
KINGDOMS_SMALL = 2
"""Kingdoms each player places with 2 or 3 players (one with 4)."""


def _fail(reason: str) -> IllegalActionError:
    return IllegalActionError(reason)


def policies(declared: Mapping[str, Any]) -> tuple[str, str, str]:
    """A seat's standing policies from its declarations (unknown values: the default)."""
    chosen = []
    for key, choices in zip(DECLARATIONS, POLICY_CHOICES, strict=True):
        value = declared.get(key, choices[0])
        chosen.append(value if value in choices else choices[0])
    return (chosen[0], chosen[1], chosen[2])


class EuropeRules:
    """The rules under one configuration."""

    def __init__(self, config: EuropeConfig) -> None:
        self.config = config
        self.board: Board = europe_board()

    # -------------------------------------------------------------------- setup

    def new_game(self, seed: int, declarations: Sequence[Mapping[str, Any]] = ()) -> EuropeState:
        board, n = self.board, self.config.players
        declared = [policies(declarations[a] if a < len(declarations) else {}) for a in range(n)]
        declared += [policies({})] * (ARMIES - n)
        size = board.size
        state = EuropeState(
            n=n,
            streams=Streams(seed),
            owner=[NOBODY] * size,
            attacker=[NOBODY] * size,
            units=[0] * (size * ARMIES * 4),
            castle=[False] * size,
            reserve=list(ARMY_UNITS) * ARMIES,
            coins=[START_COINS] * ARMIES,
            crown_cards=[0] * ARMIES,
            bought_crown=[False] * ARMIES,
            hand=[FULL_HAND] * ARMIES,
            first=[-1] * ARMIES,
            second=[-1] * ARMIES,
            alive=[True] * ARMIES,
            cityless=[-1] * ARMIES,
            controller=[a if a < n else NOBODY for a in range(ARMIES)],
            policies=declared,
            castles_left=CASTLES,
            crown_cards_left=0 if self.config.missions else CROWN_CARDS,
            kingdoms=[0] * ARMIES,
            wins=[0] * ARMIES,
            home=[-1] * ARMIES,
        )
        if self.config.missions:
            state.missions = [[] for _ in range(ARMIES)]
            state.completed = [[] for _ in range(ARMIES)]
            rng = state.streams.rng("missions")
            state.deck = rng.sample(range(CROWN_CARDS), CROWN_CARDS)
        self._place_mercenaries(state)
        return state

    def _place_mercenaries(self, state: EuropeState) -> None:
        """Each Mercenary Army's two random gold cities: castle and 10 footmen in the first,
        10 footmen in the second, 5 coins plus both tax values."""
        if state.n == ARMIES:
            return
        rng = state.streams.rng("setup")
        cities = rng.sample(list(self.board.gold_cities), 2 * (ARMIES - state.n))
        for k, army in enumerate(range(state.n, ARMIES)):
            for j, city in enumerate(cities[2 * k : 2 * k + 2]):
                self._found(state, army, city, START_FOOTMEN, castle=j == 0)

    def _found(self, state: EuropeState, army: int, city: int, footmen: int, castle: bool) -> None:
        state.owner[city] = army
        state.units[(city * ARMIES + army) * 4 + FOOTMAN] += footmen
        state.reserve[army * 4 + FOOTMAN] -= footmen
        state.coins[army] += self.board.tax[city]
        if castle:
            if not state.castle[city]:  # a castle left by a forfeited army stays: no new one
                state.castle[city] = True
                state.castles_left -= 1
            state.home[army] = city
        state.kingdoms[army] += 1

    # ------------------------------------------------------------------ queries

    def seats_alive(self, state: EuropeState) -> tuple[int, ...]:
        return tuple(s for s in range(state.n) if state.alive[s])

    def crowns(self, state: EuropeState, army: int) -> int:
        """Crowns on ``army``'s banner: held cities (Rome 2), crown cards, missions done."""
        crowns = self.board.crowns
        held = sum(crowns[t] for t, owner in enumerate(state.owner) if owner == army)
        done = len(state.completed[army]) if state.completed else 0
        return held + state.crown_cards[army] + done

    def territories(self, state: EuropeState, army: int) -> int:
        return sum(1 for owner in state.owner if owner == army)

    def has_city(self, state: EuropeState, army: int) -> bool:
        return any(state.owner[t] == army for t in self.board.cities)

    def card(self, state: EuropeState, army: int) -> int:
        """The card of ``army`` for the current turn (-1: none)."""
        return state.first[army] if state.turn == 1 else state.second[army]

    def decision(self, state: EuropeState) -> Decision | None:
        phase = state.phase
        if phase == "over":
            return None
        if state.losses:
            return Decision("casualties", (state.seat_of(state.losses[0].army),))
        if phase in SIMULTANEOUS:
            return Decision(phase, self.seats_alive(state), True)
        if phase == "kingdom":
            return Decision("kingdom", (state.queue[0],))
        if phase == "mercenary_cards":
            return Decision("mercenary_cards", (state.controller[state.queue[0]],))
        if phase == "turn":
            if state.drawn is not None:
                return Decision("mission", (state.revealed,))
            return Decision("turn", (state.seat_of(state.queue[0]),))
        if phase == "battle_order":
            return Decision("battle_order", (state.marker,))
        assert state.battle is not None and state.battle.stage == "reroll"
        return Decision("reroll", (state.battle.defender,))

    def acting_army(self, state: EuropeState) -> int:
        """The army the open one-seat decision is about (a mercenary's controller decides for
        it)."""
        if state.losses:
            return state.losses[0].army
        if state.phase == "mercenary_cards":
            return state.queue[0]
        if state.phase == "turn":
            return state.revealed if state.drawn is not None else state.queue[0]
        if state.phase == "battle_order":
            return state.marker
        if state.phase == "kingdom":
            return state.queue[0]
        assert state.battle is not None
        return state.battle.defender

    # ------------------------------------------------------------------- checks

    def check(self, state: EuropeState, seat: int, action: Action) -> None:
        decision = self.decision(state)
        if decision is None:
            raise _fail("the game is over")
        if seat not in decision.seats:
            raise _fail(
                f"seat {seat} is not to decide now (a {decision.kind} of seat(s) "
                f"{', '.join(map(str, decision.seats))})"
            )
        kind = decision.kind
        expected = _ACTION_OF[kind]
        if not isinstance(action, expected):
            raise _fail(
                f"a {kind} decision takes a {expected.__name__}, got {type(action).__name__}"
            )
        army = seat if decision.simultaneous else self.acting_army(state)
        getattr(self, f"_check_{kind}")(state, army, action)

    def _check_bid(self, state: EuropeState, army: int, action: Bid) -> None:
        top = min(MAX_BID, state.coins[army])
        if not 0 <= action.coins <= top:
            raise _fail(f"bid 0-{top} coins, not {action.coins}")

    def _check_mercenary_bid(self, state: EuropeState, army: int, action: MercenaryBid) -> None:
        mercs = self.mercenaries_alive(state)
        if len(action.coins) != len(mercs):
            raise _fail(
                f"bid once for each Mercenary Army ({', '.join(map(str, mercs))}): "
                f"{len(mercs)} numbers, got {len(action.coins)}"
            )
        if any(c < 0 for c in action.coins) or sum(action.coins) > state.coins[army]:
            raise _fail(f"bids ≥ 0 totalling at most your {state.coins[army]} coins")

    def mercenaries_alive(self, state: EuropeState) -> list[int]:
        return [a for a in range(state.n, ARMIES) if state.alive[a]]

    def _check_kingdom(self, state: EuropeState, army: int, action: Kingdom) -> None:
        board = self.board
        city, neighbour, footmen = action.city, action.neighbour, action.footmen_in_city
        if city not in board.gold_cities or state.owner[city] != NOBODY:
            free = [board.city[c] for c in board.gold_cities if state.owner[c] == NOBODY]
            raise _fail(f"choose a free Gold Crown City: {', '.join(map(str, free))}")
        if neighbour == -1:
            if footmen != START_FOOTMEN:
                raise _fail("with no neighbour all 10 footmen go in the city")
            return
        if neighbour not in board.adjacent[city] or board.tax[neighbour]:
            raise _fail(f"{neighbour} is not a non-city territory next to {board.city[city]}")
        if state.owner[neighbour] != NOBODY:
            raise _fail(f"{board.names[neighbour]} is already claimed")
        if not 1 <= footmen < START_FOOTMEN:
            raise _fail("split the 10 footmen: 1-9 in the city, the rest in the neighbour")

    def _check_cards(self, state: EuropeState, army: int, action: Cards) -> None:
        hand = state.hand[army]
        held = [c for c in range(8) if hand >> c & 1]
        for c in (action.first, action.second):
            if not 0 <= c < 8 or not hand >> c & 1:
                raise _fail(f"card {c} is not in the hand (cards {held})")
        if action.first == action.second:
            raise _fail("choose two different cards")

    _check_mercenary_cards = _check_cards

    def _check_turn(self, state: EuropeState, army: int, action: Turn) -> None:
        board = self.board
        card = board.deck[self.card(state, army)]
        orders.check_shape(state, board, card, army, action)
        if action.bonus == "siege_assault" and not orders.has_siege(state, army):
            raise _fail("no siege weapon on the board: leave the Siege Assault unused")
        scratch = state.copy()
        scratch.losses = []
        orders.play(scratch, board, self.config, army, action, [], check=True)

    def _check_mission(self, state: EuropeState, army: int, action: KeepMission) -> None:
        if action.index not in (0, 1):
            raise _fail(f"keep mission 0 or 1, not {action.index}")

    def _check_battle_order(self, state: EuropeState, army: int, action: BattleOrder) -> None:
        if sorted(action.territories) != sorted(state.disputes):
            raise _fail(
                f"order every disputed territory once: {sorted(state.disputes)}, "
                f"got {list(action.territories)}"
            )

    def _check_reroll(self, state: EuropeState, army: int, action: Reroll) -> None:
        assert state.battle is not None
        if action.rank not in (0, state.battle.rank):
            raise _fail(
                f"re-roll rank {state.battle.rank} (the one just rolled) or 0, not {action.rank}"
            )

    def _check_casualties(self, state: EuropeState, army: int, action: Casualties) -> None:
        loss = state.losses[0]
        units = action.units
        have = state.of(loss.territory, loss.army)
        if len(units) != 4 or any(n < 0 for n in units) or sum(units) != loss.count:
            raise _fail(f"remove exactly {loss.count} units (4 counts ≥ 0), got {list(units)}")
        for kind in range(4):
            if units[kind] > have[kind]:
                raise _fail(f"only {have[kind]} {UNIT_TYPES[kind]} to remove, not {units[kind]}")

    # ------------------------------------------------------------------ applying

    def apply(self, state: EuropeState, seat: int, action: Action) -> Step[EuropeState]:
        self.check(state, seat, action)
        after = state.copy()
        return Step(after, self.apply_unchecked(after, seat, action))

    def apply_joint(self, state: EuropeState, actions: Mapping[int, Action]) -> Step[EuropeState]:
        decision = self.decision(state)
        if decision is None:
            raise _fail("the game is over")
        if not decision.simultaneous:
            if sorted(actions) != list(decision.seats):
                raise _fail(f"seat {decision.seats[0]} decides now, got seats {sorted(actions)}")
            return self.apply(state, decision.seats[0], actions[decision.seats[0]])
        missing = sorted(set(decision.seats) - set(actions))
        if missing or set(actions) - set(decision.seats):
            raise _fail(
                f"every seat of the {decision.kind} answers: seats "
                f"{', '.join(map(str, decision.seats))}, got {sorted(actions)}"
            )
        for seat in decision.seats:
            try:
                self.check(state, seat, actions[seat])
            except IllegalActionError as exc:
                raise _fail(f"seat {seat}: {exc}") from None
        after = state.copy()
        return Step(after, self.apply_joint_unchecked(after, actions))

    def apply_unchecked(self, state: EuropeState, seat: int, action: Action) -> list[Event]:
        decision = self.decision(state)
        assert decision is not None
        if decision.simultaneous:
            raise _fail(f"a {decision.kind} is answered by every seat at once: apply_joint")
        events: list[Event] = []
        getattr(self, f"_do_{decision.kind}")(state, self.acting_army(state), action, events)
        self._advance(state, events)
        return events

    def apply_joint_unchecked(
        self, state: EuropeState, actions: Mapping[int, Action]
    ) -> list[Event]:
        """A simultaneous decision's answers (one per seat it names, all legal) applied in
        place: the fast path of search and of replays of checked answers."""
        decision = self.decision(state)
        assert decision is not None and decision.simultaneous
        events: list[Event] = []
        getattr(self, f"_joint_{decision.kind}")(state, actions, events)
        self._advance(state, events)
        return events

    # simultaneous decisions --------------------------------------------------

    def _tie_break(
        self, state: EuropeState, tied: list[int], what: str, events: list[Event]
    ) -> int:
        """Dice among the tied (rolled again among those tied highest) → the winner."""
        while len(tied) > 1:
            rolls = [state.streams.pick("ties", state.ties + i, 6) + 1 for i in range(len(tied))]
            state.ties += len(tied)
            events.append({"type": "tie_roll", "for": what, "seats": tied, "dice": rolls})
            best = max(rolls)
            tied = [s for s, r in zip(tied, rolls, strict=True) if r == best]
        return tied[0]

    def _joint_bid(
        self, state: EuropeState, actions: Mapping[int, Action], events: list[Event]
    ) -> None:
        bids = {s: a.coins for s, a in actions.items() if isinstance(a, Bid)}
        top = max(bids.values())
        tied = sorted(s for s, b in bids.items() if b == top)
        events.append({"type": "bids", "bids": [bids.get(s, 0) for s in range(state.n)]})
        winner = self._tie_break(state, tied, "marker", events)
        state.coins[winner] -= top
        state.marker = winner
        events.append({"type": "marker", "army": winner, "paid": top})
        order = self.turn_order(state, seats_only=True)
        state.queue = order * (1 if state.n == ARMIES else KINGDOMS_SMALL)
        state.phase = "kingdom"

    def _joint_mercenary_bid(
        self, state: EuropeState, actions: Mapping[int, Action], events: list[Event]
    ) -> None:
        mercs = self.mercenaries_alive(state)
        bids = {s: a.coins for s, a in actions.items() if isinstance(a, MercenaryBid)}
        events.append(
            {
                "type": "mercenary_bids",
                "mercenaries": mercs,
                "bids": [list(bids[s]) if s in bids else [0] * len(mercs) for s in range(state.n)],
            }
        )
        for k, merc in enumerate(mercs):
            offers = {s: b[k] for s, b in bids.items() if b[k] > 0}
            state.controller[merc] = NOBODY
            if not offers:
                events.append({"type": "mercenary", "army": merc, "controller": NOBODY, "paid": 0})
                continue
            top = max(offers.values())
            tied = sorted(s for s, b in offers.items() if b == top)
            seat = self._tie_break(state, tied, f"mercenary {merc}", events)
            state.coins[seat] -= top
            state.coins[merc] += top
            state.controller[merc] = seat
            events.append({"type": "mercenary", "army": merc, "controller": seat, "paid": top})
        state.phase = "cards"

    def _joint_cards(
        self, state: EuropeState, actions: Mapping[int, Action], events: list[Event]
    ) -> None:
        for seat in sorted(actions):
            action = actions[seat]
            assert isinstance(action, Cards)
            self._choose_cards(state, seat, action, events)
        controlled = [m for m in self.mercenaries_alive(state) if state.controller[m] != NOBODY]
        if controlled:
            state.queue = controlled
            state.phase = "mercenary_cards"
        else:
            self._start_turn(state, 1)

    def _choose_cards(
        self, state: EuropeState, army: int, action: Cards, events: list[Event]
    ) -> None:
        state.first[army], state.second[army] = action.first, action.second
        state.hand[army] &= ~(1 << action.first | 1 << action.second)
        events.append(
            {
                "type": "cards_chosen",
                "army": army,
                "seat": state.seat_of(army),
                "first": action.first,
                "second": action.second,
            }
        )

    # one-seat decisions ------------------------------------------------------

    def _do_kingdom(
        self, state: EuropeState, army: int, action: Kingdom, events: list[Event]
    ) -> None:
        first = state.kingdoms[army] == 0
        in_city = action.footmen_in_city
        self._found(state, army, action.city, in_city, castle=first)
        if action.neighbour >= 0:
            n = START_FOOTMEN - in_city
            state.owner[action.neighbour] = army
            state.units[(action.neighbour * ARMIES + army) * 4 + FOOTMAN] += n
            state.reserve[army * 4 + FOOTMAN] -= n
        events.append(
            {
                "type": "kingdom",
                "army": army,
                "city": action.city,
                "neighbour": action.neighbour,
                "footmen_in_city": in_city,
                "castle": first,
                "tax": self.board.tax[action.city],
            }
        )
        state.queue.pop(0)
        if not state.queue:
            state.phase = "round_start"

    def _do_mercenary_cards(
        self, state: EuropeState, army: int, action: Cards, events: list[Event]
    ) -> None:
        self._choose_cards(state, army, action, events)
        state.queue.pop(0)
        if not state.queue:
            self._start_turn(state, 1)

    def _do_turn(self, state: EuropeState, army: int, action: Turn, events: list[Event]) -> None:
        state.turns += 1
        events.append({"type": "turn", "army": army, "order": action.order, "bonus": action.bonus})
        paused = orders.play(state, self.board, self.config, army, action, events, check=False)
        if paused is not None:
            state.rest = (army, action, paused)
            return
        self._end_turn(state, army, events)

    def _end_turn(self, state: EuropeState, army: int, events: list[Event]) -> None:
        missions.check(state, army, events)
        state.queue.pop(0)
        state.revealed = NOBODY

    def _do_mission(
        self, state: EuropeState, army: int, action: KeepMission, events: list[Event]
    ) -> None:
        assert state.drawn is not None
        kept, other = state.drawn[action.index], state.drawn[1 - action.index]
        state.missions[army].append(kept)
        state.deck.append(other)
        state.drawn = None
        events.append({"type": "mission_kept", "army": army, "seat": army, "mission": kept})

    def _do_battle_order(
        self, state: EuropeState, army: int, action: BattleOrder, events: list[Event]
    ) -> None:
        state.battles = list(action.territories)
        events.append({"type": "battle_order", "territories": list(action.territories)})
        state.phase = "battles"

    def _do_reroll(
        self, state: EuropeState, army: int, action: Reroll, events: list[Event]
    ) -> None:
        fight = state.battle
        assert fight is not None
        if action.rank:  # declined: the re-roll stays open for a later rank of this repetition
            battle.reroll(state, fight, events)
        fight.stage = "roll"
        battle.score(state, fight, events)

    def _do_casualties(
        self, state: EuropeState, army: int, action: Casualties, events: list[Event]
    ) -> None:
        loss = state.losses.pop(0)
        battle.remove(state, loss.territory, loss.army, action.units)
        events.append(
            {
                "type": "casualties",
                "territory": loss.territory,
                "army": loss.army,
                "units": list(action.units),
            }
        )

    # ------------------------------------------------------------ moving on

    def turn_order(self, state: EuropeState, seats_only: bool = False) -> list[int]:
        """Living seats clockwise from the marker holder, then living Mercenary Armies."""
        n = state.n
        start = max(state.marker, 0)
        seats = [(start + i) % n for i in range(n) if state.alive[(start + i) % n]]
        if seats_only:
            return seats
        return seats + self.mercenaries_alive(state)

    def _start_turn(self, state: EuropeState, turn: int) -> None:
        state.turn = turn
        state.phase = "turn"
        state.queue = [a for a in state.order if state.alive[a] and self.card(state, a) >= 0]
        state.revealed = NOBODY

    def _reveal(self, state: EuropeState, army: int, events: list[Event]) -> None:
        card = self.board.deck[self.card(state, army)]
        state.revealed = army
        events.append({"type": "revealed", "army": army, "turn": state.turn, "card": card.id})
        if card.bonus == "king_me" and army < state.n:
            state.marker = army
            events.append({"type": "king_me", "army": army})
            if self.config.missions and state.deck:
                if len(state.deck) == 1:
                    state.missions[army].append(state.deck.pop(0))
                    kept = state.missions[army][-1]
                    events.append(
                        {"type": "mission_kept", "army": army, "seat": army, "mission": kept}
                    )
                else:
                    state.drawn = (state.deck.pop(0), state.deck.pop(0))
                    state.draws += 1

    def _advance(self, state: EuropeState, events: list[Event]) -> None:
        """Play on through everything nobody decides, up to the next decision or the end."""
        board = self.board
        while True:
            if state.losses:
                return
            phase = state.phase
            if phase == "turn":
                if state.drawn is not None:
                    return
                if state.rest is not None:
                    army, turn, index = state.rest
                    state.rest = None
                    assert isinstance(turn, Turn)
                    paused = orders.play(
                        state, board, self.config, army, turn, events, False, index
                    )
                    if paused is not None:
                        state.rest = (army, turn, paused)
                        continue
                    self._end_turn(state, army, events)
                    continue
                if not state.queue:
                    if state.turn == 1:
                        self._start_turn(state, 2)
                    else:
                        state.phase = "battle_order"
                    continue
                army = state.queue[0]
                if not state.alive[army] or state.seat_of(army) == NOBODY:
                    state.queue.pop(0)  # out of the game, or a mercenary nobody controls
                    if state.revealed == army:
                        state.revealed = NOBODY
                    continue
                if state.revealed != army:
                    self._reveal(state, army, events)
                    continue
                return
            if phase == "mercenary_cards":
                state.queue = [m for m in state.queue if state.controller[m] != NOBODY]
                if not state.queue:
                    self._start_turn(state, 1)
                    continue
                return
            if phase == "battle_order":
                holder = state.marker
                asks = holder < state.n and state.policies[holder][2] == battle.ASK
                if len(state.disputes) > 1 and asks and state.alive[holder]:
                    return
                state.battles = sorted(state.disputes)
                state.phase = "battles"
                continue
            if phase == "battles":
                if state.battle is not None:
                    battle.run(state, board, events)
                    if state.battle is not None:
                        return
                    continue
                if state.battles:
                    events.append(battle.start(state, state.battles.pop(0)))
                    continue
                self._end_round(state, events)
                continue
            if phase == "round_start":
                self._start_round(state, events)
                continue
            return

    def _start_round(self, state: EuropeState, events: list[Event]) -> None:
        state.round += 1
        for army in range(ARMIES):
            if state.hand[army] == 0:
                state.hand[army] = FULL_HAND
            state.first[army] = state.second[army] = -1
            state.bought_crown[army] = False
            state.wins[army] = 0
            if army >= state.n:
                state.controller[army] = NOBODY
        state.order = self.turn_order(state)
        events.append({"type": "round", "round": state.round, "order": list(state.order)})
        state.turn = 0
        state.phase = "mercenary_bid" if self.mercenaries_alive(state) else "cards"

    def _end_round(self, state: EuropeState, events: list[Event]) -> None:
        for army in range(ARMIES):
            if state.alive[army]:
                missions.check(state, army, events, round_end=True)
        for army in range(ARMIES):
            if not state.alive[army]:
                continue
            if self.has_city(state, army):
                state.cityless[army] = -1
                continue
            saved = state.crown_cards[army] > 0 or bool(state.completed and state.completed[army])
            if state.cityless[army] == -1 and saved:
                state.cityless[army] = state.round
                events.append({"type": "saved_by_the_crown", "army": army})
                continue
            self._eliminate(state, army, events, "no city")
        events.append(
            {
                "type": "round_end",
                "round": state.round,
                "crowns": [self.crowns(state, a) for a in range(ARMIES)],
            }
        )
        alive = self.seats_alive(state)
        if any(self.crowns(state, s) >= self.config.crowns_to_win for s in alive):
            state.end = "crowns"
        elif len(alive) <= 1:
            state.end = "elimination"
        elif state.round >= self.config.max_rounds:
            state.end = "round_limit"
        if state.end is not None:
            state.phase = "over"
            events.append(self._game_over(state))
        else:
            state.phase = "round_start"

    def _eliminate(self, state: EuropeState, army: int, events: list[Event], why: str) -> None:
        """Take ``army`` off the board: units back to its reserve, its territories unclaimed
        (a castle stays; an opponent in a dispute there holds it), coins to the bank, crown
        cards out of the game."""
        for t in range(self.board.size):
            units = state.of(t, army)
            if any(units):
                battle.remove(state, t, army, units)
            if state.attacker[t] == army:
                state.attacker[t] = NOBODY
                if t in state.disputes:
                    state.disputes.remove(t)
                if t in state.battles:
                    state.battles.remove(t)
            elif state.owner[t] == army:
                other = state.attacker[t]
                state.owner[t] = other
                state.attacker[t] = NOBODY
                if t in state.disputes:
                    state.disputes.remove(t)
                if t in state.battles:
                    state.battles.remove(t)
        if state.battle is not None and army in (state.battle.attacker, state.battle.defender):
            fight = state.battle
            t = fight.territory
            state.battle = None
            if t in state.disputes:
                state.disputes.remove(t)
        state.losses = [loss for loss in state.losses if loss.army != army]
        state.coins[army] = 0
        state.crown_cards[army] = 0
        state.alive[army] = False
        state.cityless[army] = -1
        if state.missions:
            state.missions[army] = []
        if army < state.n:
            state.out.append(army)
        for merc in range(state.n, ARMIES):
            if state.controller[merc] == army:
                state.controller[merc] = NOBODY
        events.append({"type": "eliminated", "army": army, "why": why})

    # ------------------------------------------------------------------ defaults

    def default_action(self, state: EuropeState, seat: int) -> Action:
        decision = self.decision(state)
        assert decision is not None
        kind = decision.kind
        army = seat if decision.simultaneous else self.acting_army(state)
        if kind == "bid":
            return Bid(0)
        if kind == "mercenary_bid":
            return MercenaryBid(tuple(0 for _ in self.mercenaries_alive(state)))
        if kind in ("cards", "mercenary_cards"):
            held = [c for c in range(8) if state.hand[army] >> c & 1]
            return Cards(held[0], held[1])
        if kind == "kingdom":
            city = next(c for c in self.board.gold_cities if state.owner[c] == NOBODY)
            return Kingdom(city, -1, START_FOOTMEN)
        if kind == "turn":
            return Turn()
        if kind == "mission":
            return KeepMission(0)
        if kind == "battle_order":
            return BattleOrder(tuple(sorted(state.disputes)))
        if kind == "reroll":
            return Reroll(0)
        loss = state.losses[0]
        return Casualties(battle.cheapest(state, loss.territory, loss.army, loss.count))

    # --------------------------------------------------------------------- the end

    def forfeit(self, state: EuropeState, seat: int) -> Step[EuropeState]:
        after = state.copy()
        events: list[Event] = []
        if after.alive[seat]:
            if after.rest is not None and after.rest[0] == seat:
                after.rest = None
            if after.revealed == seat:  # before the queue's pop below forgets who it was
                after.revealed = NOBODY
                if after.drawn is not None:  # back under the deck, as a mission not kept
                    after.deck.extend(after.drawn)
                after.drawn = None
            if after.queue and after.queue[0] == seat and after.phase == "turn":
                after.queue.pop(0)
                after.revealed = NOBODY
            after.queue = [a for a in after.queue if a != seat]
            self._eliminate(after, seat, events, "forfeit")
            if after.phase == "kingdom" and not after.queue:
                after.phase = "round_start"
            if after.marker == seat:
                living = self.seats_alive(after)
                after.marker = living[0] if living else NOBODY
            if len(self.seats_alive(after)) <= 1 and after.phase != "over":
                after.end = "elimination"
                after.phase = "over"
                events.append(self._game_over(after))
            else:
                self._advance(after, events)
        return Step(after, events)

    def outcome(self, state: EuropeState) -> Outcome | None:
        if state.phase != "over":
            return None
        alive = self.seats_alive(state)
        keys = {s: self.standing_key(state, s) for s in alive}
        ranked = sorted(alive, key=lambda s: keys[s], reverse=True)
        places = [0] * state.n
        for i, seat in enumerate(ranked):
            if i and keys[seat] == keys[ranked[i - 1]]:
                places[seat] = places[ranked[i - 1]]
            else:
                places[seat] = i + 1
        for k, seat in enumerate(reversed(state.out)):
            places[seat] = len(alive) + k + 1
        leaders = [s for s in range(state.n) if places[s] == 1]
        winner = leaders[0] if len(leaders) == 1 else None
        return Outcome(tuple(places), winner, state.end or "elimination")

    def _game_over(self, state: EuropeState) -> Event:
        """The end, with every seat's tie-break figures (so a replay can tell a win on the
        tie-break)."""
        standings = [
            {
                "crowns": self.crowns(state, s),
                "territories": self.territories(state, s),
                "coins": state.coins[s],
                "marker": state.marker == s,
            }
            for s in range(state.n)
        ]
        return {"type": "game_over", "end": state.end, "standings": standings}

    def standing_key(self, state: EuropeState, seat: int) -> tuple[int, int, int]:
        """Crowns, then territories, then coins with the marker counting 10."""
        coins = state.coins[seat] + (MARKER_COINS if state.marker == seat else 0)
        return (self.crowns(state, seat), self.territories(state, seat), coins)


_ACTION_OF: dict[str, type] = {
    "bid": Bid,
    "mercenary_bid": MercenaryBid,
    "kingdom": Kingdom,
    "cards": Cards,
    "mercenary_cards": Cards,
    "turn": Turn,
    "mission": KeepMission,
    "battle_order": BattleOrder,
    "reroll": Reroll,
    "casualties": Casualties,
}
"""The action type each decision kind takes."""
