"""Conformance of the RISK: Europe engine: seeded random games for 2, 3 and 4 players (base
game, Kingdom Missions, and every seat asking for every battle decision), invariants checked
after every applied decision.

Every seat picks uniformly among ``game.choices(game.legal_options(state, seat))``; a
simultaneous decision goes through ``apply_joint``, a one-seat one through ``apply`` and, on
a copy, ``apply_unchecked`` (the two must agree). The references are kept here from the
events, independently of the engine's own bookkeeping: coins (every event that moves coins),
crown cards sold and held, missions completed, hands and turn order, and each battle's dice
per rank, hits, casualties and winner; units, castles and territories are checked against
the rule book's fixed supplies. Forfeits at any point and near misses of the listed choices
(refused cleanly, or applied keeping every invariant) are played too.

The fast run plays a few dozen short games; the ``slow`` run (``pytest -m slow -s``) plays
≥ 200 full games per player count, spread over the variants, and prints how they ended.
"""

from __future__ import annotations

import copy
import json
import os
import random
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from arena.errors import IllegalActionError
from arena.games.api import Event, Outcome
from arena.games.europe.actions import (
    Bid,
    Cards,
    Casualties,
    Kingdom,
    MercenaryBid,
    Recruit,
    Reroll,
    Turn,
)
from arena.games.europe.board import (
    ARMY_UNITS,
    CASTLES,
    CROWN_CARD_COST,
    CROWN_CARDS,
    ORDERS,
    START_COINS,
    europe_board,
)
from arena.games.europe.config import ARMIES
from arena.games.europe.game import ASK_ALL, EuropeGame
from arena.games.europe.game import GAME as EUROPE
from arena.games.europe.rules import MARKER_COINS
from arena.games.europe.state import NOBODY, EuropeState
from tests.games.europe.test_golden import canonical_state

BOARD = europe_board()
SIZE = BOARD.size
UNIT_PRICES = (1, 2, 3, 10)
"""Footman, archer, cavalry, siege weapon (the rule book's price list)."""
CASTLE_PRICE, BERLIN_CASTLE = 12, 9
DECISION_LIMIT = 50_000
"""A game taking more decisions than this does not end: a failure, not a hang."""
FAST_MAX_ROUNDS = 12
SLOW_GAMES = int(os.environ.get("ARENA_CONFORMANCE_GAMES", "200"))  # per player count

VARIANTS: dict[str, tuple[dict[str, str], bool]] = {
    "base": ({}, False),
    "missions": ({"missions": "true"}, False),
    "ask": ({}, True),
    "missions_ask": ({"missions": "true"}, True),
}
"""Variant name → (rules options, whether every seat declares ``ask`` for everything)."""


def game_of(players: int, variant: str, max_rounds: int | None = None) -> EuropeGame:
    options = dict(VARIANTS[variant][0])
    if max_rounds is not None:
        options["max_rounds"] = str(max_rounds)
    game = EUROPE.configure(options, players)
    assert isinstance(game, EuropeGame)
    return game


def declarations(players: int, variant: str) -> list[dict[str, str]]:
    return [dict(ASK_ALL) for _ in range(players)] if VARIANTS[variant][1] else []


# ----------------------------------------------------------------- references


@dataclass
class Books:
    """What the events say happened to coins, crown cards and missions."""

    coins: list[int]
    crown_cards: list[int]
    sold: int = 0
    completed: list[int] = field(default_factory=lambda: [0] * ARMIES)
    mission_cards_gone: int = 0
    round: int = 0
    crowns_bought: set[tuple[int, int]] = field(default_factory=set)
    """(round, army) of every crown card bought: one per army per round."""
    fight: Fight | None = None
    hands: list[set[int]] = field(default_factory=lambda: [set(range(8)) for _ in range(ARMIES)])
    cards: dict[int, tuple[int, int]] = field(default_factory=dict)
    """This round's cards per army (turn 1, turn 2), from the cards_chosen events."""
    order: list[int] = field(default_factory=list)
    revealed: list[int] = field(default_factory=list)
    """Armies revealed so far in the current turn, in order."""
    kinds: Counter[str] = field(default_factory=Counter)
    events: Counter[str] = field(default_factory=Counter)

    @classmethod
    def open(cls, state: EuropeState) -> Books:
        """Every army starts with 5 coins; a Mercenary Army also has its two cities' taxes."""
        coins = [START_COINS] * ARMIES
        for t in range(SIZE):
            if state.owner[t] >= state.n:
                coins[state.owner[t]] += BOARD.tax[t]
        return cls(coins, [0] * ARMIES)

    def post(self, state_before: EuropeState, events: list[Event]) -> None:
        """Move the books by the events of one decision."""
        stockholm, berlin = BOARD.tiles["stockholm"], BOARD.tiles["berlin"]
        raider: int | None = state_before.owner[stockholm]
        """Stockholm's holder as the events go (None: not known after an elimination)."""
        for event in events:
            kind = event["type"]
            self.events[kind] += 1
            if kind == "spend":  # a Spend turn changes no holder before it: Berlin's as before
                army = event["army"]
                castle = BERLIN_CASTLE if state_before.owner[berlin] == army else CASTLE_PRICE
                assert event["cost"] == spend_cost(event) + castle * len(event["castles"])
            elif kind == "expand" and not event["claimed"]:
                assert event["defender"] != event["army"]
                if state_before.castle[event["target"]]:
                    assert event["units"][3] >= 1, "into a castle without a siege weapon"
            elif kind == "siege_assault":
                dice = event["dice"]
                assert dice and len(dice) % 2 == 0 and event["owner"] != event["army"]
                assert event["hits"] == sum(d >= 3 for d in dice)
            elif kind == "expand" and event["target"] == stockholm:
                raider = event["army"]
            elif kind == "emptied" and event["territory"] == stockholm:
                raider = NOBODY
            elif kind == "eliminated" and event["army"] == raider:
                raider = None
            elif kind == "battle_end" and raider is not None:
                won = event["winner"] == event["attacker"] and raider == event["attacker"]
                assert event["raid"] == (4 if won else 0), (event, raider)
                if event["territory"] == stockholm:
                    raider = event["winner"]
            if kind == "round":
                assert event["round"] == self.round + 1
                self.round = event["round"]
                self._round_order(state_before.n, event["order"])
                for hand in self.hands:
                    if not hand:
                        hand.update(range(8))
                self.cards = {}
            elif kind == "cards_chosen":
                army, first, second = event["army"], event["first"], event["second"]
                assert first != second and {first, second} <= self.hands[army], event
                assert army not in self.cards
                self.hands[army] -= {first, second}
                self.cards[army] = (first, second)
            elif kind == "revealed":
                army, turn = event["army"], event["turn"]
                assert event["card"] == self.cards[army][turn - 1]
                if self.revealed and self.revealed[0] != turn:
                    self.revealed = []
                if not self.revealed:
                    self.revealed = [turn]
                at = [self.order.index(a) for a in self.revealed[1:]]
                assert not at or self.order.index(army) > max(at), "out of turn order"
                self.revealed.append(army)
            elif kind == "king_me":
                assert event["army"] < state_before.n, "King Me on a mercenary's card"
            elif kind == "marker":
                self.coins[event["army"]] -= event["paid"]
            elif kind == "mercenary":
                if event["controller"] != NOBODY:
                    self.coins[event["controller"]] -= event["paid"]
                    self.coins[event["army"]] += event["paid"]
                else:
                    assert event["paid"] == 0
            elif kind == "kingdom":
                assert event["tax"] == BOARD.tax[event["city"]]
                self.coins[event["army"]] += event["tax"]
            elif kind == "expand":
                if event["claimed"]:
                    assert event["tax"] == BOARD.tax[event["target"]]
                    self.coins[event["army"]] += event["tax"]
            elif kind == "spend":
                army = event["army"]
                assert event["cost"] >= 0
                self.coins[army] -= event["cost"]
                assert self.coins[army] >= 0, f"army {army} spent more than it had"
                if event["crown"]:
                    assert army < state_before.n, f"Mercenary Army {army} bought a crown card"
                    assert (self.round, army) not in self.crowns_bought, "two crown cards"
                    self.crowns_bought.add((self.round, army))
                    self.crown_cards[army] += 1
                    self.sold += 1
            elif kind == "tax":
                assert event["coins"] >= 0
                self.coins[event["army"]] += event["coins"]
            elif kind == "battle":
                assert self.fight is None
                t, attacker, defender = event["territory"], event["attacker"], event["defender"]
                units = {attacker: event["attacker_units"], defender: event["defender_units"]}
                self.fight = Fight(t, attacker, defender, event["castle"], units)
            elif kind == "rank":
                assert self.fight is not None and event["territory"] == self.fight.territory
                self.fight.rank(event)
            elif kind == "reroll":
                assert self.fight is not None and self.fight.castle
            elif kind == "casualties" and self.fight is not None:
                assert event["territory"] == self.fight.territory
                self.fight.casualties(event, state_before.policies[event["army"]][0])
            elif kind == "battle_end":
                assert self.fight is not None and event["territory"] == self.fight.territory
                self.fight.end(event)
                self.fight = None
                if event["raid"]:
                    assert event["winner"] == event["attacker"]
                self.coins[event["attacker"]] += event["raid"]
            elif kind == "eliminated":
                army = event["army"]
                if self.fight is not None and army in self.fight.units:
                    self.fight = None  # its battle is called off
                self.coins[army] = 0
                self.crown_cards[army] = 0
                if state_before.missions:
                    self.mission_cards_gone += len(state_before.missions[army])
            elif kind == "mission_completed":
                self.completed[event["army"]] += 1

    def _round_order(self, n: int, order: list[int]) -> None:
        """Living seats clockwise from one of them, then the Mercenary Armies in order."""
        seats = [a for a in order if a < n]
        mercenaries = [a for a in order if a >= n]
        assert order == seats + mercenaries and mercenaries == sorted(mercenaries)
        if seats:
            start = seats.index(min(seats))
            assert seats[start:] + seats[:start] == sorted(seats), order
        self.order = order
        self.revealed = []


RANK_RULES = {1: (3, 2, 3), 2: (1, 1, 5), 3: (2, 1, 3)}
"""Rank → (unit type index, dice per unit, hits on): siege weapons, archers, cavalry."""


def ref_hits(rank: int, attacker: list[int], defender: list[int]) -> tuple[int, int]:
    """Hits scored by (the attacker's dice, the defender's dice): ranks 1-3 count each die
    on its number; the general attack pairs highest with highest, ties to the defender."""
    if rank == 4:
        pairs = list(
            zip(sorted(attacker, reverse=True), sorted(defender, reverse=True), strict=False)
        )
        return sum(a > d for a, d in pairs), sum(a <= d for a, d in pairs)
    need = RANK_RULES[rank][2]
    return sum(d >= need for d in attacker), sum(d >= need for d in defender)


def ref_cheapest(units: list[int], count: int) -> list[int]:
    """Footmen first, then archers, cavalry, siege weapons."""
    taken = []
    for have in units:
        take = min(count, have)
        taken.append(take)
        count -= take
    return taken


@dataclass
class Fight:
    """The battle being fought, as its events tell it: units by type per side, hits due."""

    territory: int
    attacker: int
    defender: int
    castle: bool
    units: dict[int, list[int]]
    due: dict[int, int] = field(default_factory=dict)

    def rank(self, event: Event) -> None:
        rank = event["rank"]
        a_units, d_units = self.units[self.attacker], self.units[self.defender]
        if rank == 4:
            counts = (min(3, sum(a_units)), min(2, sum(d_units)))
        else:
            kind, per, _ = RANK_RULES[rank]
            counts = (a_units[kind] * per, d_units[kind] * per)
        a_dice, d_dice = event["attacker_dice"], event["defender_dice"]
        assert (len(a_dice), len(d_dice)) == counts, (event, a_units, d_units)
        assert all(1 <= d <= 6 for d in a_dice + d_dice)
        assert any(counts), "a rank nobody rolls for is skipped"
        hits = ref_hits(rank, a_dice, d_dice)
        assert (event["attacker_hits"], event["defender_hits"]) == hits, event
        assert not self.due.get(self.attacker) and not self.due.get(self.defender)
        self.due = {self.attacker: hits[1], self.defender: hits[0]}

    def casualties(self, event: Event, policy: str) -> None:
        army, removed = event["army"], event["units"]
        have = self.units[army]
        due = min(self.due.get(army, 0), sum(have))
        assert sum(removed) == due > 0, (event, have, self.due)
        if policy != "ask" or due == sum(have):
            assert removed == ref_cheapest(have, due), (event, have)
        assert all(0 <= r <= h for r, h in zip(removed, have, strict=True))
        self.units[army] = [h - r for h, r in zip(have, removed, strict=True)]
        self.due[army] = 0

    def end(self, event: Event) -> None:
        left = {a: sum(u) for a, u in self.units.items()}
        assert not any(self.due.values()), "the battle ended with hits untaken"
        assert 0 in left.values()
        if left[self.defender] == 0 and left[self.attacker] > 0:
            assert event["winner"] == self.attacker
        elif left[self.defender] == 0:
            assert event["winner"] == NOBODY
        else:
            assert event["winner"] == self.defender


def spend_cost(event: Event) -> int:
    """What a spend event's recruits and crown card cost by the price list."""
    recruits = sum(
        n * price
        for r in event["recruits"]
        for n, price in zip(r["units"], UNIT_PRICES, strict=True)
    )
    return recruits + (CROWN_CARD_COST if event["crown"] else 0)


# ------------------------------------------------------------------ invariants


def check_invariants(
    game: EuropeGame, state: EuropeState, books: Books, events: list[Event]
) -> None:
    rules = game.rules
    n = state.n
    units = state.units
    fight = state.battle.territory if state.battle is not None else -1
    # Units per army and type: board + reserve = the army's fixed supply.
    for army in range(ARMIES):
        for kind in range(4):
            on_board = sum(units[(t * ARMIES + army) * 4 + kind] for t in range(SIZE))
            held = state.reserve[army * 4 + kind]
            assert on_board >= 0 and held >= 0
            assert on_board + held == ARMY_UNITS[kind], (army, kind, on_board, held)
    assert min(units) >= 0
    # Territories: at most two armies; units ⇔ an owner; an attacker only in a dispute.
    disputed = set()
    for t in range(SIZE):
        present = [a for a in range(ARMIES) if state.count(t, a)]
        assert len(present) <= 2, f"territory {t} holds armies {present}"
        owner, attacker = state.owner[t], state.attacker[t]
        if attacker != NOBODY:
            disputed.add(t)
            assert attacker != owner and owner != NOBODY, (t, owner, attacker)
        if t == fight:  # a battle in progress may have emptied one side for a moment
            assert set(present) <= {owner, attacker}
            continue
        if not present:
            assert owner == NOBODY and attacker == NOBODY, f"empty territory {t} is held"
        else:
            assert owner in present, f"territory {t}: owner {owner}, units of {present}"
            assert set(present) == {owner} | ({attacker} if attacker != NOBODY else set()), (
                t,
                present,
                owner,
                attacker,
            )
    assert sorted(state.disputes) == sorted(disputed) and len(set(state.disputes)) == len(
        state.disputes
    )
    for t in state.battles:
        assert t in disputed
    if any(e["type"] == "round_end" for e in events):
        assert not disputed, f"disputed after the round's battles: {sorted(disputed)}"
        assert state.battle is None and not state.battles
    # Castles: never more than 8; on the board + in the bank = 8.
    assert 0 <= state.castles_left <= CASTLES
    assert sum(state.castle) + state.castles_left == CASTLES
    # Coins as the events moved them.
    assert state.coins == books.coins, (state.coins, books.coins)
    for army in range(ARMIES):
        if not state.alive[army]:
            assert state.coins[army] == 0
    # Crown cards: sold + left = 8 (base game); held ones as bought (eliminated: gone).
    assert state.crown_cards == books.crown_cards
    if game.rules.config.missions:
        assert state.crown_cards_left == 0 and books.sold == 0
        held = sum(len(m) for m in state.missions)
        done = sum(len(c) for c in state.completed)
        drawn = 2 if state.drawn is not None else 0
        assert len(state.deck) + held + done + drawn + books.mission_cards_gone == CROWN_CARDS
        assert [len(c) for c in state.completed] == books.completed
    else:
        assert books.sold + state.crown_cards_left == CROWN_CARDS
        assert not any(books.completed)
    # Crowns on the tracker: held cities (Rome 2) + crown cards + completed missions.
    for army in range(ARMIES):
        cities = sum(BOARD.crowns[t] for t in range(SIZE) if state.owner[t] == army)
        expected = cities + books.crown_cards[army] + books.completed[army]
        assert rules.crowns(state, army) == expected, (army, rules.crowns(state, army), expected)
    for event in events:
        if event["type"] == "round_end":
            assert event["crowns"] == [rules.crowns(state, a) for a in range(ARMIES)]
            living = [s for s in range(n) if state.alive[s]]
            target = rules.config.crowns_to_win
            if any(event["crowns"][s] >= target for s in living):
                assert state.end == "crowns"
    for event in events:
        kind = event["type"]
        if kind == "tax":
            linked = event["network"]
            assert event["city"] in linked and len(set(linked)) == len(linked)
            base = sum(BOARD.tax[t] or 1 for t in linked)
            extra = event["coins"] - base
            assert extra == 0 or (rules.config.missions and extra > 0 and extra % 2 == 0), event
        elif kind == "marker":
            assert 0 <= event["paid"] <= 5
        elif kind == "round_end":
            _check_round_end(game, state)
    # Hands: as the cards chosen emptied them, refilled when empty at a round's start.
    for army in range(ARMIES):
        assert state.hand[army] == sum(1 << c for c in books.hands[army]), army
    # The cards in play this round are out of the hand.
    for army in range(ARMIES):
        for card in (state.first[army], state.second[army]):
            if card >= 0:
                assert not state.hand[army] >> card & 1
    # Out of the game: nothing left on the board, no coins.
    for army in range(ARMIES):
        if not state.alive[army]:
            assert not any(state.count(t, army) for t in range(SIZE)), f"army {army} is out"
            assert state.reserve[army * 4 : army * 4 + 4] == list(ARMY_UNITS)
    # The game's own state stays sane: only living seats are ever asked.
    assert all(state.coins[a] >= 0 for a in range(ARMIES))
    if state.phase != "over":
        decision = game.decision(state)
        assert game.outcome(state) is None and decision is not None
        assert decision.seats and all(0 <= s < n and state.alive[s] for s in decision.seats), (
            decision
        )
        assert decision.simultaneous or len(decision.seats) == 1


def _check_round_end(game: EuropeGame, state: EuropeState) -> None:
    """Right after a round's end: every living army holds a city or was saved by a crown
    this round; the game goes on unless a seat has the crowns, one seat is left, or the cap
    is reached."""
    rules = game.rules
    ended = state.round if state.phase == "over" else state.round - 1
    for army in range(ARMIES):
        if state.alive[army] and not rules.has_city(state, army):
            assert state.cityless[army] == ended, (army, state.cityless[army], ended)
            assert state.crown_cards[army] > 0 or (state.completed and state.completed[army])
    living = [s for s in range(state.n) if state.alive[s]]
    target = rules.config.crowns_to_win
    if any(rules.crowns(state, s) >= target for s in living):
        assert state.end == "crowns"
    elif len(living) <= 1:
        assert state.end == "elimination"
    elif ended >= rules.config.max_rounds:
        assert state.end == "round_limit"
    else:
        assert state.end is None and state.phase != "over"


def check_outcome(game: EuropeGame, state: EuropeState, outcome: Outcome | None) -> None:
    """Places follow the tie-break keys; the end word fits the final position."""
    rules = game.rules
    assert outcome is not None and state.phase == "over"
    n = state.n
    assert len(outcome.places) == n
    alive = [s for s in range(n) if state.alive[s]]
    keys = {
        s: (
            rules.crowns(state, s),
            sum(1 for o in state.owner if o == s),
            state.coins[s] + (MARKER_COINS if state.marker == s else 0),
        )
        for s in alive
    }
    for s in alive:
        assert outcome.places[s] == 1 + sum(1 for o in alive if keys[o] > keys[s])
    assert sorted(state.out) == [s for s in range(n) if not state.alive[s]]
    for k, seat in enumerate(reversed(state.out)):
        assert outcome.places[seat] == len(alive) + k + 1
    first = [s for s in range(n) if outcome.places[s] == 1]
    assert outcome.winner == (first[0] if len(first) == 1 else None)
    assert outcome.end_reason == state.end
    target = rules.config.crowns_to_win
    if state.end == "crowns":
        assert any(keys[s][0] >= target for s in alive)
        assert state.round <= rules.config.max_rounds
    elif state.end == "round_limit":
        assert state.round == rules.config.max_rounds
        assert all(keys[s][0] < target for s in alive)
    else:
        assert state.end == "elimination" and len(alive) <= 1


# ------------------------------------------------------------------- the games


@dataclass
class Played:
    state: EuropeState
    events: list[Event]
    actions: list[tuple[int, Any]]
    decisions: int
    books: Books


def play(
    game: EuropeGame,
    seed: int,
    declared: list[dict[str, str]],
    *,
    check: bool = True,
    unchecked: bool = True,
    forfeits: dict[int, int] | None = None,
) -> Played:
    """One seeded random game; with ``check``, every invariant after every decision.
    ``forfeits`` maps a decision number to the seat that forfeits just before it."""
    rng = random.Random(seed)
    state = game.new_game(seed, declared)
    books = Books.open(state)
    all_events: list[Event] = []
    actions: list[tuple[int, Any]] = []
    decisions = 0
    if check:
        check_invariants(game, state, books, [])
    while (decision := game.decision(state)) is not None:
        decisions += 1
        assert decisions <= DECISION_LIMIT, "the game does not end"
        quitter = (forfeits or {}).get(decisions)
        if quitter is not None and state.alive[quitter]:
            before = state.copy()
            step = game.forfeit(state, quitter)
            assert state == before, "forfeit changed the state it was given"
            assert quitter in step.state.out and not step.state.alive[quitter]
            books.post(state, step.events)
            state = step.state
            all_events.extend(step.events)
            if check:
                check_invariants(game, state, books, step.events)
            if game.decision(state) is None:
                break
            decision = game.decision(state)
            assert decision is not None
        books.kinds[decision.kind] += 1
        picks = {}
        for seat in decision.seats:
            listed = list(game.choices(game.legal_options(state, seat)))
            assert listed, f"no choice for seat {seat} at {decision.kind}"
            if check:
                for action in listed:
                    game.check(state, seat, action)
                game.check(state, seat, game.default_action(state, seat))
            picks[seat] = rng.choice(listed)
        before = state.copy()
        if decision.simultaneous:
            step = game.apply_joint(state, picks)
        else:
            (seat,) = decision.seats
            step = game.apply(state, seat, picks[seat])
            if unchecked:
                fast = state.copy()
                fast_events = game.apply_unchecked(fast, seat, picks[seat])
                assert fast_events == step.events and fast == step.state
        assert state == before, "apply changed the state it was given"
        actions.extend(sorted(picks.items()))
        books.post(state, step.events)
        state = step.state
        all_events.extend(step.events)
        if check:
            check_invariants(game, state, books, step.events)
            _check_plain(game, state, step.events)
    check_outcome(game, state, game.outcome(state))
    assert all_events and all_events[-1]["type"] == "game_over"
    return Played(state, all_events, actions, decisions, books)


def _check_plain(game: EuropeGame, state: EuropeState, events: list[Event]) -> None:
    """Events, views and redacted events are plain JSON (what crosses the arena)."""
    assert json.loads(json.dumps(events)) == events
    decision = game.decision(state)
    for seat in decision.seats if decision is not None else ():
        json.dumps(game.view(state, seat))
        for event in events:
            json.dumps(game.redact(event, seat))


CASES = [(players, variant) for players in (2, 3, 4) for variant in VARIANTS]


@pytest.mark.parametrize(("players", "variant"), CASES)
def test_random_games_keep_the_invariants(players: int, variant: str) -> None:
    """Three short games per player count and variant (36 in all)."""
    game = game_of(players, variant, FAST_MAX_ROUNDS)
    for seed in range(3):
        play(game, 100 * players + seed, declarations(players, variant))


@pytest.mark.parametrize("players", (2, 3, 4))
def test_forfeits_keep_the_invariants(players: int) -> None:
    """A seat forfeiting at any point (mid-turn, mid-battle, while asked for casualties or
    a re-roll, before its cards...) leaves a consistent game that plays on to its end."""
    for seed in range(6):
        variant = ("ask", "missions_ask", "base")[seed % 3]
        game = game_of(players, variant, 10)
        rng = random.Random(seed)
        forfeits = {rng.randrange(1, 150): rng.randrange(players)}
        if players > 2 and seed % 2:
            forfeits[rng.randrange(1, 250)] = rng.randrange(players)
        play(game, seed, declarations(players, variant), forfeits=forfeits)


@pytest.mark.parametrize("players", (2, 3, 4))
def test_forfeits_during_setup(players: int) -> None:
    """A seat forfeiting at any setup decision: its castle stays, and a kingdom founded
    later in that city takes no second castle from the bank."""
    game = game_of(players, "base", 2)
    setup = 1 + players * (1 if players == 4 else 2)
    for k in range(1, setup + 1):
        for seat in range(players):
            play(game, 5, [], forfeits={k: seat}, unchecked=False)


def test_forfeit_while_choosing_a_mission() -> None:
    """The seat choosing which drawn mission to keep forfeits: both go back under the deck
    and the game goes on with living seats (never a decision for nobody)."""
    met = 0
    for players in (2, 3, 4):
        game = game_of(players, "missions", 10)
        for seed in range(4):
            rng = random.Random(seed)
            state = game.new_game(seed)
            asked = []
            count = 0
            while (decision := game.decision(state)) is not None:
                count += 1
                if decision.kind == "mission":
                    asked.append((count, decision.seats[0]))
                picks = {
                    s: rng.choice(list(game.choices(game.legal_options(state, s))))
                    for s in decision.seats
                }
                state = game.apply_joint(state, picks).state
            for count, seat in asked[:2]:
                play(game, seed, [], forfeits={count: seat}, unchecked=False)
                met += 1
    assert met >= 6


def test_full_games_end_by_the_rules() -> None:
    """A few games at the default round cap, checked all the way to their end."""
    for players in (2, 3, 4):
        game = game_of(players, "base")
        played = play(game, 7 + players, [], unchecked=False)
        assert played.state.end in ("crowns", "round_limit", "elimination")


def test_every_decision_kind_is_met() -> None:
    """Random play under Kingdom Missions with every seat asking meets every decision kind
    within a bounded number of games (a castle re-roll is the rarest)."""
    wanted = {
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
    }
    kinds: Counter[str] = Counter()
    game = game_of(3, "missions_ask")
    for seed in range(60):
        kinds += play(game, seed, declarations(3, "missions_ask"), check=False).books.kinds
        if set(kinds) == wanted:
            break
    assert set(kinds) == wanted


def test_same_seed_same_game() -> None:
    for players, variant in (
        (2, "base"),
        (3, "missions_ask"),
        (4, "ask"),
    ):
        game = game_of(players, variant, 10)
        one = play(game, 42, declarations(players, variant), check=False)
        two = play(game, 42, declarations(players, variant), check=False)
        assert one.events == two.events
        assert one.actions == two.actions
        assert canonical_state(one.state) == canonical_state(two.state)
        other = play(game, 43, declarations(players, variant), check=False)
        assert other.events != one.events


def test_a_changed_copy_leaves_the_original_alone() -> None:
    """Copies taken all through a game, played on to their end, never touch the original."""
    game = game_of(4, "missions_ask", 8)
    rng = random.Random(5)
    state = game.new_game(5, declarations(4, "missions_ask"))
    step_count = 0
    while (decision := game.decision(state)) is not None:
        step_count += 1
        if step_count % 7 == 0:
            snapshot = state.copy()
            branch = game.copy(state)
            branch_rng = random.Random(step_count)
            while (d := game.decision(branch)) is not None:
                picks = {
                    s: branch_rng.choice(list(game.choices(game.legal_options(branch, s))))
                    for s in d.seats
                }
                if d.simultaneous:
                    branch = game.apply_joint(branch, picks).state
                else:
                    game.apply_unchecked(branch, d.seats[0], picks[d.seats[0]])
            assert state == snapshot and state.units == snapshot.units
            assert state.battle == snapshot.battle and state.losses == snapshot.losses
        picks = {
            s: rng.choice(list(game.choices(game.legal_options(state, s)))) for s in decision.seats
        }
        state = game.apply_joint(state, picks).state


def test_actions_round_trip_and_replay() -> None:
    """Every listed choice survives ``action_to_dict`` → JSON → ``action_from_dict``; the
    recorded actions, parsed back and replayed from the seed, give the same events."""
    for players, variant in ((2, "ask"), (3, "missions"), (4, "missions_ask")):
        game = game_of(players, variant, 12)
        declared = declarations(players, variant)
        rng = random.Random(players)
        state = game.new_game(77, declared)
        log: list[list[tuple[int, dict[str, Any]]]] = []
        events: list[Event] = []
        while (decision := game.decision(state)) is not None:
            picks = {}
            for seat in decision.seats:
                listed = list(game.choices(game.legal_options(state, seat)))
                for action in listed:
                    text = json.dumps(game.action_to_dict(action))
                    assert game.action_from_dict(json.loads(text)) == action, text
                picks[seat] = rng.choice(listed)
            log.append([(s, game.action_to_dict(a)) for s, a in sorted(picks.items())])
            step = game.apply_joint(state, picks)
            state, events = step.state, events + step.events
        again = game.new_game(77, declared)
        replayed: list[Event] = []
        for answers in log:
            decision = game.decision(again)
            assert decision is not None
            parsed = {s: game.action_from_dict(d) for s, d in answers}
            if decision.simultaneous:
                step = game.apply_joint(again, parsed)
                again, replayed = step.state, replayed + step.events
            else:
                ((seat, action),) = parsed.items()
                replayed += game.apply_unchecked(again, seat, action)
        assert game.decision(again) is None
        assert replayed == events
        assert canonical_state(again) == canonical_state(state)


def _nudge(rng: random.Random, units: tuple[int, ...]) -> tuple[int, int, int, int]:
    """One count moved by ±1 or ±2 (never below 0)."""
    counts = list(units)
    kind = rng.randrange(4)
    counts[kind] = max(0, counts[kind] + rng.choice((-2, -1, 1, 2)))
    return (counts[0], counts[1], counts[2], counts[3])


def mutate(rng: random.Random, action: Any) -> Any:
    """A near miss of a listed action: one field changed (often illegal, sometimes not)."""
    where = rng.randrange(SIZE)
    if isinstance(action, Bid):
        return Bid(rng.randrange(-1, 8))
    if isinstance(action, MercenaryBid):
        return MercenaryBid(tuple(rng.randrange(-1, 8) for _ in action.coins))
    if isinstance(action, Kingdom):
        field_name = rng.choice(("city", "neighbour", "footmen_in_city"))
        value = rng.randrange(-1, 12) if field_name == "footmen_in_city" else where
        return replace(action, **{field_name: value})
    if isinstance(action, Cards):
        return Cards(rng.randrange(-1, 9), rng.randrange(-1, 9))
    if isinstance(action, Casualties):
        return Casualties(_nudge(rng, action.units))
    if isinstance(action, Reroll):
        return Reroll(rng.randrange(-1, 6))
    if not isinstance(action, Turn):
        return action
    choice = rng.randrange(8)
    if choice == 0 and action.moves:
        moves = list(action.moves)
        i = rng.randrange(len(moves))
        moved = moves[i]
        moves[i] = rng.choice(
            (
                replace(moved, units=_nudge(rng, moved.units)),
                replace(moved, target=where),
                replace(moved, via=rng.randrange(-1, SIZE)),
            )
        )
        return replace(action, moves=tuple(moves))
    if choice == 1:
        return replace(action, order=rng.choice(ORDERS))
    if choice == 2 and action.recruits:
        first = action.recruits[0]
        recruit = Recruit(first.territory, _nudge(rng, first.units))
        return replace(action, recruits=(recruit, *action.recruits[1:]))
    if choice == 3:
        return replace(action, castles=(*action.castles, where))
    if choice == 4:
        return replace(action, crown=not action.crown)
    if choice == 5:
        return replace(action, tax_city=where)
    if choice == 6:
        return replace(action, bonus_first=not action.bonus_first)
    return replace(action, bonus_target=where)


def test_whatever_check_accepts_applies_cleanly() -> None:
    """Near misses of the listed choices: each one ``check`` refuses raises the contract's
    error; each one it accepts applies and keeps every invariant."""
    accepted = 0
    for players, variant in ((2, "ask"), (3, "missions"), (4, "missions_ask")):
        game = game_of(players, variant, 8)
        rng, fuzz = random.Random(players), random.Random(-players)
        state = game.new_game(players, declarations(players, variant))
        books = Books.open(state)
        while (decision := game.decision(state)) is not None:
            picks = {
                s: rng.choice(list(game.choices(game.legal_options(state, s))))
                for s in decision.seats
            }
            for seat in decision.seats:
                for _ in range(3):
                    near = mutate(fuzz, picks[seat])
                    try:
                        game.check(state, seat, near)
                    except IllegalActionError:
                        continue
                    accepted += 1
                    trial = copy.deepcopy(books)
                    step = game.apply_joint(state, {**picks, seat: near})
                    trial.post(state, step.events)
                    check_invariants(game, step.state, trial, step.events)
            step = game.apply_joint(state, picks)
            books.post(state, step.events)
            state = step.state
            check_invariants(game, state, books, step.events)
    assert accepted > 100


@pytest.mark.slow
@pytest.mark.parametrize("players", (2, 3, 4))
def test_many_full_games(players: int) -> None:
    """≥ 200 full games per player count, the variants in turn; prints how they ended."""
    names = list(VARIANTS)
    ends: Counter[str] = Counter()
    decisions = 0
    events: Counter[str] = Counter()
    for i in range(SLOW_GAMES):
        variant = names[i % len(names)]
        game = game_of(players, variant)
        played = play(
            game, 10_000 * players + i, declarations(players, variant), unchecked=i % 2 == 0
        )
        ends[played.state.end or ""] += 1
        decisions += played.decisions
        events += played.books.events
    print(
        f"\n{players}p: {SLOW_GAMES} games, ends {dict(ends)}, "
        f"{decisions / SLOW_GAMES:.0f} decisions/game"
    )
    assert sum(ends.values()) == SLOW_GAMES
    for kind in ("battle", "tax", "spend", "expand", "round_end", "casualties"):
        assert events[kind] > 0, kind
