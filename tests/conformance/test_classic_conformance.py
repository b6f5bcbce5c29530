"""Conformance of the classic engine: random games under every variant, invariants checked
after every applied action.

The fast run plays 45 short games per player count (each variant five times); the
``slow`` run plays the full matrix (≥200 games per variant × player count, default round cap)
and prints a figures table (``pytest -m slow -s``).

The checks use references written here, independently of the engine: the dice comparison,
set values, reinforcements, army and card bookkeeping reconstructed from the events.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing import Pool
from operator import attrgetter
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from arena.errors import IllegalActionError, MalformedActionError
from arena.games.classic import (
    Attack,
    ChooseHeadquarters,
    Claim,
    ClassicRules,
    ClassicState,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    Occupy,
    Phase,
    Place,
    PlaceNeutral,
    Reroll,
    Trade,
    action_from_dict,
    action_to_dict,
    choices,
)
from arena.games.classic.actions import REROLL_POLICIES
from arena.games.classic.board import ARTILLERY, CAVALRY, INFANTRY, WILD, classic_board
from arena.games.classic.config import STARTING_ARMIES
from arena.games.classic.rng import Streams
from arena.games.classic.state import NEUTRAL, UNCLAIMED
from tests.classic_helpers import rules_for

BOARD = classic_board()
SIZE = BOARD.size
CARDS = len(BOARD.card_symbols)
FAST_GAMES = 45
FAST_MAX_ROUNDS = 12
SLOW_GAMES = int(os.environ.get("ARENA_CONFORMANCE_GAMES", "200"))  # games per cell, slow run
DECISION_LIMIT = 400_000

VARIANTS = (
    "world",
    "mission",
    "capital_full",
    "capital_short",
    "sets_progressive",
    "sets_fixed",
    "advantage_reroll",
    "fortify_connected",
    "deal_random",
)

KNOWN_EVENTS = {
    "battle",
    "card_drawn",
    "cards_taken",
    "claimed",
    "conquered",
    "eliminated",
    "forfeited",
    "fortified",
    "game_over",
    "headquarters_revealed",
    "mission_revealed",
    "occupied",
    "placed",
    "placed_neutral",
    "reinforced",
    "rerolled",
    "traded",
    "turn",
}

SETUP_PHASES = (Phase.CLAIM, Phase.PLACE, Phase.PLACE_NEUTRAL, Phase.HEADQUARTERS)


def variant_options(
    variant: str, players: int, *, substitute: bool = True
) -> dict[str, str] | None:
    """The rules options of a variant; where the rule book does not define it for ``players``,
    a close substitute (fast run) or None (full matrix)."""
    if variant == "world":
        return {"mode": "world", "sets": "increasing"}
    if variant == "mission":
        if players >= 3:
            return {"mode": "mission"}
        return {"mode": "world"} if substitute else None
    if variant == "capital_full":
        return {"mode": "capital", "capital_goal": "full"}
    if variant == "capital_short":
        if players >= 4:
            return {"mode": "capital", "capital_goal": "short"}
        return {"mode": "capital", "capital_goal": "full"} if substitute else None
    if variant == "sets_progressive":
        return {"sets": "progressive"}
    if variant == "sets_fixed":
        return {"sets": "fixed"}
    if variant == "advantage_reroll":
        return {"advantage_reroll": "true"}
    if variant == "fortify_connected":
        return {"fortify": "connected"}
    if variant == "deal_random":
        return {"deal": "random"}
    raise AssertionError(variant)


_RULES: dict[tuple[str, int, int | None], ClassicRules] = {}


def rules_of(variant: str, players: int, max_rounds: int | None) -> ClassicRules:
    key = (variant, players, max_rounds)
    if key not in _RULES:
        options = variant_options(variant, players)
        assert options is not None
        if max_rounds is not None:
            options = {**options, "max_rounds": str(max_rounds)}
        _RULES[key] = rules_for(players, **options)
    return _RULES[key]


# ----------------------------------------------------------------- references


def ref_compare(att: list[int], dfn: list[int]) -> tuple[int, int]:
    """Highest v highest, second v second; ties to the defender."""
    pairs = zip(sorted(att)[::-1], sorted(dfn)[::-1], strict=False)
    outcomes = [a > d for a, d in pairs]
    return outcomes.count(False), outcomes.count(True)


def ref_set_value(rule: str, nth: int, symbols: list[int]) -> int:
    if rule == "progressive":
        return 3 + nth
    if rule == "increasing":
        return [4, 6, 8, 10, 12, 15][nth - 1] if nth <= 6 else 15 + 5 * (nth - 6)
    # fixed: three infantry 4, three cavalry 6, three artillery 8, one of each 10; a wild
    # stands for whichever symbol gives the best value.
    best = 0
    for filled in _fill_wilds(symbols):
        if len(set(filled)) == 3:
            best = max(best, 10)
        elif len(set(filled)) == 1:
            best = max(best, {INFANTRY: 4, CAVALRY: 6, ARTILLERY: 8}[filled[0]])
    return best


def _fill_wilds(symbols: list[int]) -> list[list[int]]:
    out: list[list[int]] = [[]]
    for s in symbols:
        options = (INFANTRY, CAVALRY, ARTILLERY) if s == WILD else (s,)
        out = [[*prefix, o] for prefix in out for o in options]
    return out


def ref_reinforcements(owner: list[int], seat: int) -> int:
    armies = max(3, owner.count(seat) // 3)
    for c in BOARD.continents:
        if all(owner[t] == seat for t in c.territories):
            armies += c.bonus
    return armies


# --------------------------------------------------------------- the checker

_SLOTS = tuple(s for s in ClassicState.__slots__ if s not in ("streams", "owner", "armies"))
_GET = attrgetter(*_SLOTS)
assert {"owner", "armies", "streams", *_SLOTS} == set(ClassicState.__slots__)


def snapshot(state: ClassicState) -> tuple[Any, ...]:
    """Everything in a state except the shared streams (the two lists copied)."""
    return (*_GET(state), tuple(state.owner), tuple(state.armies))


class GameChecker:
    """Follows one game step by step and checks every invariant after each step."""

    def __init__(self, rules: ClassicRules, state: ClassicState, seed: int) -> None:
        self.rules = rules
        self.cfg = rules.config
        self.reference = Streams(seed)  # a fresh stream object: no shared caches
        self.dice: list[int] = []
        self.verified = 0
        self.pending_roll: tuple[tuple[int, ...], tuple[int, ...], int] | None = None
        self.to_place = 0
        self.bonus_given = False
        self.drawn = 0
        self.last_eliminated: tuple[int, ...] = ()
        n = rules.n
        pool = n * STARTING_ARMIES[n] + (STARTING_ARMIES[n] if self.cfg.neutral else 0)
        self.setup_pool = pool
        assert sum(state.reserve) + state.neutral_reserve + sum(state.armies) == pool
        self.check_state(state)

    # ------------------------------------------------------------------ step

    def check_step(
        self,
        before: ClassicState,
        snap: tuple[Any, ...],
        step: Any,
        seat: int,
        action: Any = None,
    ) -> None:
        after, events = step.state, step.events
        assert snapshot(before) == snap, "apply/forfeit mutated its input state"
        assert after is not before
        assert after.owner is not before.owner and after.armies is not before.armies
        assert after.streams is before.streams
        delta = 0
        pending_reroll: dict[str, Any] | None = None
        for ev in events:
            kind = ev["type"]
            assert kind in KNOWN_EVENTS, f"unknown event {ev}"
            if kind == "claimed":
                delta += 1
            elif kind == "placed":
                delta += sum(n for _, n in ev["placements"])
            elif kind == "placed_neutral":
                delta += 1
            elif kind == "reinforced":
                placed = sum(n for _, n in ev["placements"])
                assert placed == self.to_place, (ev, self.to_place)
                self.to_place = 0
                delta += placed
            elif kind == "turn":
                self.to_place = ev["reinforcements"]
                self.bonus_given = False
                self.drawn = 0
                assert ev["seat"] not in after.eliminated or after.phase == Phase.OVER
            elif kind == "traded":
                delta += self._traded(before, ev, action)
            elif kind == "rerolled":
                assert pending_reroll is None
                assert 1 <= ev["new"] <= 6
                pending_reroll = ev
            elif kind == "battle":
                delta -= self._battle(before, ev, pending_reroll)
                pending_reroll = None
            elif kind == "card_drawn":
                self.drawn += 1
                assert self.drawn == 1, "at most one card per turn"
            elif kind == "eliminated":
                assert ev["seat"] not in before.eliminated
                assert ev["seat"] in after.eliminated
            elif kind == "game_over":
                assert after.phase == Phase.OVER
                assert ev["places"] == list(after.places)
                assert ev["winner"] == after.winner and ev["reason"] == after.end
        assert pending_reroll is None, "a re-roll without its battle"
        if after.phase == Phase.REROLL and self.pending_roll is None:
            assert after.roll is not None
            self.pending_roll = after.roll
            self.dice.extend(after.roll[0])
            self.dice.extend(after.roll[1])
        elif after.phase != Phase.REROLL:
            # A forfeit can drop a roll awaiting its re-roll decision: the dice stay drawn.
            self.pending_roll = None
        assert sum(after.armies) == sum(before.armies) + delta, (
            f"armies not conserved: {sum(before.armies)} + {delta} != {sum(after.armies)}",
            events,
        )
        turns = [ev for ev in events if ev["type"] == "turn"]
        if turns and after.phase in (Phase.TRADE, Phase.REINFORCE):
            last = turns[-1]
            assert last["seat"] == after.seat
            assert last["reinforcements"] == ref_reinforcements(after.owner, after.seat)
        self.check_state(after)

    def _traded(self, before: ClassicState, ev: dict[str, Any], action: Any) -> int:
        seat, cards = ev["seat"], ev["cards"]
        assert len(set(cards)) == 3 and all(c in before.hands[seat] for c in cards)
        assert ev["sets_traded"] == before.sets_traded + 1
        symbols = [BOARD.card_symbols[c] for c in cards]
        assert ev["armies"] == ref_set_value(self.cfg.sets, ev["sets_traded"], symbols), ev
        self.to_place += ev["armies"]
        eligible = [c for c in cards if c < SIZE and before.owner[c] == seat]
        bonus = ev["bonus_territory"]
        if bonus is None:
            assert self.bonus_given or not eligible, ev
            return 0
        assert not self.bonus_given, "a second +2 bonus in one turn"
        assert bonus in eligible
        if isinstance(action, Trade) and action.bonus_territory is not None:
            assert bonus == action.bonus_territory
        self.bonus_given = True
        return 2

    def _battle(
        self, before: ClassicState, ev: dict[str, Any], reroll: dict[str, Any] | None
    ) -> int:
        att, dfn = list(ev["attacker_dice"]), list(ev["defender_dice"])
        assert 1 <= len(att) <= 3 and 1 <= len(dfn) <= 2
        assert all(1 <= d <= 6 for d in att + dfn)
        losses = (ev["attacker_losses"], ev["defender_losses"])
        assert losses == ref_compare(att, dfn), ev
        # One step fights one attack: its territories change hands only after its last battle.
        assert before.owner[ev["from"]] == ev["seat"] != before.owner[ev["to"]]
        assert ev["to"] in BOARD.adjacent[ev["from"]]
        original = list(att)
        if reroll is not None:
            assert att[reroll["die"]] == reroll["new"]
            original[reroll["die"]] = reroll["old"]
        if self.pending_roll is not None:
            # The roll was drawn in an earlier step and waited for the re-roll decision.
            assert tuple(original) == self.pending_roll[0] and tuple(dfn) == self.pending_roll[1]
            self.pending_roll = None
        else:
            self.dice.extend(original)
            self.dice.extend(dfn)
        if reroll is not None:
            self.dice.append(reroll["new"])
        return sum(losses)

    # ----------------------------------------------------------------- state

    def check_state(self, s: ClassicState) -> None:
        n, owner, armies = s.n, s.owner, s.armies
        assert len(owner) == len(armies) == SIZE
        assert set(map(type, armies)) == {int}
        assert min(owner) >= UNCLAIMED and max(owner) < n
        held = [a for o, a in zip(owner, armies, strict=True) if o != UNCLAIMED]
        assert not held or min(held) >= 1, "a held territory without armies"
        assert sum(held) == sum(armies), "an unclaimed territory with armies"
        if NEUTRAL in owner:
            assert self.cfg.neutral
        if s.phase in SETUP_PHASES or (s.phase == Phase.OVER and s.turns == 0):
            # Setup (or a game a forfeit ended during setup): armies only move out of reserve.
            assert sum(s.reserve) + s.neutral_reserve + sum(armies) == self.setup_pool
        else:
            assert UNCLAIMED not in owner
            assert not any(s.reserve) and s.neutral_reserve == 0
        # Cards: every card exactly once in a hand, the deck, the discard pile or out of play
        # as a revealed headquarters' card (Capital RISK).
        cards = [c for hand in s.hands for c in hand] + list(s.deck) + list(s.discard)
        if s.hq_revealed:
            cards += list(s.hq)
        assert len(cards) == CARDS and sorted(cards) == list(range(CARDS)), sorted(cards)
        assert list(s.deck) == sorted(s.deck)
        for p in s.eliminated:
            assert s.hands[p] == (), f"out-of-game seat {p} holds cards"
            if not s.forfeited[p]:
                assert p not in owner, f"eliminated seat {p} still holds territories"
        for p in range(n):
            if s.forfeited[p]:
                assert p in s.eliminated
        assert len(set(s.eliminated)) == len(s.eliminated)
        assert s.eliminated[: len(self.last_eliminated)] == self.last_eliminated
        self.last_eliminated = s.eliminated
        assert s.round <= self.cfg.max_rounds
        # Dice: every die drawn so far, in order, is the stream's die at that index.
        assert s.dice_i == len(self.dice), (s.dice_i, len(self.dice))
        for k in range(self.verified, len(self.dice)):
            assert self.dice[k] == self.reference.die(k), f"die {k} is not the stream's"
        self.verified = len(self.dice)
        decision = self.rules.decision(s)
        if s.phase == Phase.OVER:
            assert decision is None and self.rules.outcome(s) is not None
            return
        assert decision is not None and decision.seats
        assert all(p not in s.eliminated for p in decision.seats), (decision, s.eliminated)
        assert self.rules.outcome(s) is None
        if s.phase in (Phase.TRADE, Phase.REINFORCE):
            assert s.to_place == self.to_place, (s.to_place, self.to_place)
        if s.phase in (Phase.REINFORCE, Phase.ATTACK, Phase.FORTIFY, Phase.DEFEND, Phase.REROLL):
            assert len(s.hands[s.seat]) <= 5, s.hands[s.seat]
        if s.phase in (Phase.DEFEND, Phase.REROLL, Phase.OCCUPY):
            src, dst = (s.occupy or s.attack)[:2]  # type: ignore[index]
            assert owner[src] == s.seat
            if s.phase != Phase.OCCUPY:
                assert owner[dst] != s.seat and armies[src] >= 2
            else:
                assert owner[dst] == s.seat

    # ---------------------------------------------------------------- outcome

    def check_outcome(self, s: ClassicState) -> None:
        outcome = self.rules.outcome(s)
        assert outcome is not None
        places, n = outcome.places, s.n
        assert len(places) == n
        # A competition ranking ("1224"): a place is 1 + the number of strictly better seats.
        for p in range(n):
            assert places[p] == 1 + sum(1 for q in range(n) if places[q] < places[p]), places
        winner = outcome.winner
        if winner is None:
            assert outcome.end_reason == "round_limit" and places.count(1) >= 2
        else:
            assert places[winner] == 1 and places.count(1) == 1
            assert winner not in s.eliminated
        live = [p for p in range(n) if p not in s.eliminated]
        for p in s.eliminated:
            assert all(places[p] > places[q] for q in live)
        ranks = [places[p] for p in reversed(s.eliminated)]
        assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)
        mode = self.cfg.mode
        end = outcome.end_reason
        if end == "domination":
            assert live == [winner]
        elif end == "mission":
            assert mode == "mission" and self.rules.mission_done(s, winner)  # type: ignore[arg-type]
        elif end == "capitals":
            assert mode == "capital" and self.rules.capitals_done(s, winner)  # type: ignore[arg-type]
        else:
            assert end == "round_limit" and s.round == self.cfg.max_rounds
        others = live if end == "round_limit" else [p for p in live if p != winner]

        def key(p: int) -> tuple[int, int]:
            return (
                s.owner.count(p),
                sum(a for t, a in enumerate(s.armies) if s.owner[t] == p),
            )

        for p in others:
            for q in others:
                if key(p) > key(q):
                    assert places[p] < places[q]
                elif key(p) == key(q):
                    assert places[p] == places[q]


# ----------------------------------------------------------------- the player


def pick_action(rules: ClassicRules, state: ClassicState, seat: int, rng: random.Random) -> Any:
    """A random legal action, often beyond the listed choices (splits, `until`, policies)."""
    options = rules.legal_options(state, seat)
    listed = choices(options)
    assert listed, options
    for candidate in rng.sample(listed, min(3, len(listed))):
        rules.check(state, seat, candidate)  # every listed choice is legal
    kind = options.kind
    if kind in ("place", "reinforce") and options.armies > 1 and rng.random() < 0.5:
        spots = rng.sample(options.territories, min(len(options.territories), rng.randint(1, 3)))
        share = dict.fromkeys(spots, 1)
        for _ in range(options.armies - len(spots)):
            t = rng.choice(spots)
            share[t] += 1
        if len(share) <= options.armies:
            return Place(tuple(sorted(share.items())))
    if kind == "trade":
        picked = rng.choice(listed)
        if picked.cards is not None and rng.random() < 0.5:
            eligible = [c for c in picked.cards if c in options.bonus_territories]
            if eligible:
                return Trade(picked.cards, rng.choice(eligible))
        return picked
    if kind == "attack":
        if rng.random() < 0.15:
            return EndAttack()
        src, dst, most = rng.choice(options.attacks)
        until = None if rng.random() < 0.5 else rng.randint(1, state.armies[src] - 1)
        policy = rng.choice(REROLL_POLICIES) if rules.config.advantage_reroll else "ask"
        return Attack(src, dst, rng.randint(1, most), until, policy)
    if kind == "fortify":
        if rng.random() < 0.4 or not options.fortifies:
            return EndTurn()
        src, dst, most = rng.choice(options.fortifies)
        return Fortify(src, dst, rng.randint(1, most))
    return rng.choice(listed)


@dataclass
class GameResult:
    decisions: int
    turns: int
    end: str
    places: tuple[int, ...]
    winner: int | None
    dice: list[int]
    events: list[dict[str, Any]] = field(default_factory=list)


def play_checked(
    rules: ClassicRules,
    seed: int,
    player_seed: int,
    *,
    forfeit_at: int | None = None,
    record: bool = False,
) -> GameResult:
    """Play one random game, checking every step; optionally forfeit the deciding seat once."""
    rng = random.Random(player_seed)
    always_max = [rng.random() < 0.3 for _ in range(rules.n)]
    state = rules.new_game(seed, always_max)
    checker = GameChecker(rules, state, seed)
    decisions = 0
    log: list[dict[str, Any]] = []
    while (decision := rules.decision(state)) is not None:
        seat = rng.choice(decision.seats)
        snap = snapshot(state)
        if decisions == forfeit_at:
            action = None
            step = rules.forfeit(state, seat)
        else:
            action = pick_action(rules, state, seat, rng)
            assert action_from_dict(action_to_dict(action)) == action
            step = rules.apply(state, seat, action)
        checker.check_step(state, snap, step, seat, action)
        if record:
            log.extend(step.events)
        state = step.state
        decisions += 1
        assert decisions < DECISION_LIMIT, "the game did not terminate"
    checker.check_outcome(state)
    outcome = rules.outcome(state)
    assert outcome is not None
    return GameResult(
        decisions,
        state.turns,
        outcome.end_reason,
        outcome.places,
        outcome.winner,
        checker.dice,
        log,
    )


def fast_game(players: int, index: int) -> GameResult:
    variant = VARIANTS[index % len(VARIANTS)]
    rules = rules_of(variant, players, FAST_MAX_ROUNDS)
    seed = 10_000 * players + index
    forfeit_at = (index * 37) % 300 if index % 7 == 3 else None
    return play_checked(rules, seed, seed ^ 0x5EED, forfeit_at=forfeit_at)


# ------------------------------------------------------------------- the runs


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_keep_every_invariant(players: int) -> None:
    ends: Counter[str] = Counter()
    for index in range(FAST_GAMES):
        result = fast_game(players, index)
        ends[result.end] += 1
    assert sum(ends.values()) == FAST_GAMES


def _slow_game(job: tuple[str, int, int]) -> tuple[str, int, int, int, str, float]:
    variant, players, index = job
    rules = rules_of(variant, players, None)
    seed = 1_000_000 + 10_000 * players + 1000 * VARIANTS.index(variant) + index
    forfeit_at = (index * 97) % 2000 if index % 11 == 5 else None
    started = time.process_time()
    result = play_checked(rules, seed, seed ^ 0xC0FFEE, forfeit_at=forfeit_at)
    return (
        variant,
        players,
        result.decisions,
        result.turns,
        result.end,
        (time.process_time() - started),
    )


@pytest.mark.slow
def test_full_conformance_matrix() -> None:
    cells = [
        (v, p)
        for v in VARIANTS
        for p in range(2, 7)
        if variant_options(v, p, substitute=False) is not None
    ]
    jobs = [(v, p, i) for v, p in cells for i in range(SLOW_GAMES)]
    started = time.perf_counter()
    with Pool(2) as pool:
        results = list(pool.imap_unordered(_slow_game, jobs, chunksize=8))
    wall = time.perf_counter() - started
    figures: dict[tuple[str, int], dict[str, Any]] = {
        cell: {"games": 0, "decisions": 0, "turns": 0, "ends": Counter(), "seconds": 0.0}
        for cell in cells
    }
    for variant, players, decisions, turns, end, seconds in results:
        row = figures[(variant, players)]
        row["games"] += 1
        row["decisions"] += decisions
        row["turns"] += turns
        row["ends"][end] += 1
        row["seconds"] += seconds
    reasons = ("domination", "mission", "capitals", "round_limit")
    print()
    print(f"classic conformance: {len(results)} games, {wall:.0f} s wall clock on 2 processes")
    header = f"{'variant':<18}{'pl':>3}{'games':>7}{'dec/game':>10}{'turns':>8}"
    header += "".join(f"{r:>12}" for r in reasons) + f"{'seconds':>9}"
    print(header)
    for (variant, players), row in figures.items():
        g = row["games"]
        line = f"{variant:<18}{players:>3}{g:>7}{row['decisions'] / g:>10.0f}"
        line += f"{row['turns'] / g:>8.1f}"
        line += "".join(f"{row['ends'][r]:>12}" for r in reasons)
        line += f"{row['seconds']:>9.1f}"
        print(line)
    assert all(row["games"] >= SLOW_GAMES for row in figures.values())


# ------------------------------------------------- determinism and streams


@pytest.mark.parametrize("variant", ["world", "advantage_reroll", "capital_full", "mission"])
def test_same_seed_same_game(variant: str) -> None:
    players = 4
    first = play_checked(rules_of(variant, players, 20), 77, 5, record=True)
    # Fresh rules objects and states: nothing is carried over between the two runs.
    _RULES.clear()
    second = play_checked(rules_of(variant, players, 20), 77, 5, record=True)
    assert first.events == second.events
    assert (first.places, first.winner, first.end, first.turns, first.decisions) == (
        second.places,
        second.winner,
        second.end,
        second.turns,
        second.decisions,
    )


def test_same_seed_different_play_draws_the_same_dice() -> None:
    rules = rules_of("advantage_reroll", 3, 15)
    games = [play_checked(rules, 2024, player) for player in (1, 2, 3)]
    assert all(len(g.dice) > 50 for g in games)
    assert games[0].decisions != games[1].decisions or games[0].dice != games[1].dice
    reference = Streams(2024)
    for g in games:
        assert g.dice == [reference.die(k) for k in range(len(g.dice))]
    shortest = min(len(g.dice) for g in games)
    assert games[0].dice[:shortest] == games[1].dice[:shortest] == games[2].dice[:shortest]
    # A different seed gives a different stream.
    other = play_checked(rules, 2025, 1)
    assert other.dice[:50] != games[0].dice[:50]


@pytest.mark.parametrize(("mode", "players"), [("world", 3), ("capital", 4), ("world", 6)])
def test_first_seat_forfeiting_during_setup_takes_no_turn(mode: str, players: int) -> None:
    """A seat that forfeited during setup is out of the game: play must begin with the next
    live seat, and the forfeited seat must never get a turn or reinforcements."""
    rules = rules_for(players, mode=mode, max_rounds="3")
    state = rules.new_game(4)
    while state.phase == Phase.CLAIM:
        seat = state.seat
        state = rules.apply(state, seat, rules.default_action(state, seat)).state
    first = state.first
    step = rules.forfeit(state, first)
    state, events = step.state, list(step.events)
    while (decision := rules.decision(state)) is not None:
        seat = decision.seats[0]
        step = rules.apply(state, seat, rules.default_action(state, seat))
        state = step.state
        events += step.events
    turns = [e for e in events if e["type"] == "turn"]
    assert turns and turns[0]["seat"] == (first + 1) % players
    assert all(e["seat"] != first for e in turns)
    assert all(e["seat"] != first for e in events if e["type"] == "reinforced")


def test_streams_are_keyed_by_index_not_by_order_of_use() -> None:
    a, b = Streams(9), Streams(9)
    backwards = [b.die(k) for k in reversed(range(3000))][::-1]
    assert [a.die(k) for k in range(3000)] == backwards
    assert Counter(a.die(k) for k in range(60_000)).keys() == {1, 2, 3, 4, 5, 6}


def test_copy_is_independent() -> None:
    rules = rules_of("world", 3, 10)
    rng = random.Random(3)
    state = rules.new_game(11)
    for _ in range(400):  # into the playing phases
        decision = rules.decision(state)
        assert decision is not None
        seat = decision.seats[0]
        state = rules.apply(state, seat, pick_action(rules, state, seat, rng)).state
    before = snapshot(state)
    clone = state.copy()
    assert snapshot(clone) == before
    assert clone.owner is not state.owner and clone.armies is not state.armies
    assert clone.streams is state.streams
    clone.armies[0] += 5
    clone.owner[1] = (clone.owner[1] + 1) % 3
    clone.hands = ((1, 2, 3), *clone.hands[1:])
    assert snapshot(state) == before
    # apply_unchecked works in place on the clone only.
    clone = state.copy()
    decision = rules.decision(clone)
    assert decision is not None
    action = pick_action(rules, clone, decision.seats[0], rng)
    rules.apply_unchecked(clone, decision.seats[0], action)
    assert snapshot(state) == before
    # The validated apply of the same action from the original gives the same position.
    assert snapshot(rules.apply(state, decision.seats[0], action).state) == snapshot(clone)


# ------------------------------------------------------------ property tests

ints = st.integers(min_value=-3, max_value=50)
territory_ids = st.integers(min_value=-3, max_value=SIZE + 3)
actions = st.one_of(
    st.builds(Claim, territory_ids),
    st.builds(PlaceNeutral, territory_ids),
    st.builds(ChooseHeadquarters, territory_ids),
    st.builds(Place, st.lists(st.tuples(territory_ids, ints), max_size=5).map(tuple)),
    st.just(Trade(None)),
    st.builds(Trade, st.tuples(ints, ints, ints), st.none() | territory_ids),
    st.builds(
        Attack,
        territory_ids,
        territory_ids,
        ints,
        st.none() | ints,
        st.sampled_from(REROLL_POLICIES),
    ),
    st.just(EndAttack()),
    st.builds(Defend, ints),
    st.builds(Reroll, st.none() | ints),
    st.builds(Occupy, ints),
    st.builds(Fortify, territory_ids, territory_ids, ints),
    st.just(EndTurn()),
)


@given(actions)
def test_action_dict_round_trip(action: Any) -> None:
    data = action_to_dict(action)
    assert action_from_dict(data) == action
    assert action_from_dict(json.loads(json.dumps(data))) == action


def test_declined_trade_with_a_bonus_territory_is_not_silently_repaired() -> None:
    """``Trade(None, 5)`` is illegal ("a bonus territory needs a traded set"); its JSON form must
    not turn into the legal ``Trade(None)`` — it must decode to itself or be refused."""
    action = Trade(None, 5)
    data = json.loads(json.dumps(action_to_dict(action)))
    try:
        decoded = action_from_dict(data)
    except MalformedActionError:
        return
    assert decoded == action


def _sample_states() -> list[tuple[ClassicRules, ClassicState]]:
    """Positions of every phase from a few random games (built once)."""
    if _STATES:
        return _STATES
    taken: Counter[tuple[str, Phase]] = Counter()
    for variant, players in (
        ("world", 2),
        ("advantage_reroll", 3),
        ("fortify_connected", 4),
        ("capital_full", 3),
        ("mission", 5),
        ("advantage_reroll", 2),
    ):
        rules = rules_of(variant, players, 8)
        rng = random.Random(players)
        state = rules.new_game(players * 7, [False] * players)
        while (decision := rules.decision(state)) is not None:
            key = (variant, state.phase)
            if taken[key] < 8 and rng.random() < 0.3:
                taken[key] += 1
                _STATES.append((rules, state))
            seat = rng.choice(decision.seats)
            state = rules.apply(state, seat, pick_action(rules, state, seat, rng)).state
        _STATES.append((rules, state))
    return _STATES


_STATES: list[tuple[ClassicRules, ClassicState]] = []

board_actions = st.one_of(
    st.builds(
        Attack,
        territory_ids,
        territory_ids,
        st.integers(-2, 5),
        st.none() | st.integers(-2, 30),
        st.sampled_from((*REROLL_POLICIES, "sometimes")),
    ),
    st.builds(Fortify, territory_ids, territory_ids, st.integers(-3, 40)),
    st.builds(
        Place,
        st.lists(st.tuples(territory_ids, st.integers(-2, 30)), max_size=4).map(tuple),
    ),
)


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.data(), board_actions)
def test_apply_raises_only_illegal_action_error(data: st.DataObject, action: Any) -> None:
    samples = _sample_states()
    rules, state = data.draw(st.sampled_from(samples), label="position")
    decision = rules.decision(state)
    deciding = decision.seats if decision else (0,)
    seat = data.draw(st.sampled_from(deciding) | st.integers(-1, 6), label="seat")
    snap = snapshot(state)
    legal = rules.is_legal(state, seat, action)
    try:
        step = rules.apply(state, seat, action)
    except IllegalActionError:
        assert not legal
        assert snapshot(state) == snap
        return
    assert legal
    assert snapshot(state) == snap
    after = step.state
    for t in range(SIZE):
        assert type(after.armies[t]) is int
        assert after.armies[t] >= (0 if after.owner[t] == UNCLAIMED else 1)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.data(), st.integers(-2, 2), st.none() | st.integers(-1, 12), territory_ids)
def test_near_legal_board_actions(
    data: st.DataObject, bump: int, until: int | None, extra: int
) -> None:
    """Perturbed listed attacks, fortifies and placements: applied, or IllegalActionError."""
    samples = [
        (r, s)
        for r, s in _sample_states()
        if s.phase in (Phase.ATTACK, Phase.FORTIFY, Phase.REINFORCE)
    ]
    rules, state = data.draw(st.sampled_from(samples), label="position")
    options = rules.legal_options(state, state.seat)
    listed = [a for a in choices(options) if not isinstance(a, EndAttack | EndTurn)]
    assume(listed)
    base = data.draw(st.sampled_from(listed), label="base")
    action: Any
    if isinstance(base, Attack):
        action = Attack(base.source, base.target, base.dice + bump, until)
    elif isinstance(base, Fortify):
        action = Fortify(base.source, base.target, base.armies + bump)
    else:
        ((t, n),) = base.placements
        action = Place(((t, n + bump), (extra, -bump)) if bump else ((t, n),))
    snap = snapshot(state)
    legal = rules.is_legal(state, state.seat, action)
    try:
        step = rules.apply(state, state.seat, action)
    except IllegalActionError:
        assert not legal
    else:
        assert legal
        delta = sum(
            sum(n for _, n in e["placements"]) for e in step.events if e["type"] == "reinforced"
        )
        delta -= sum(
            e["attacker_losses"] + e["defender_losses"]
            for e in step.events
            if e["type"] == "battle"
        )
        assert sum(step.state.armies) == sum(state.armies) + delta
    assert snapshot(state) == snap


# Fields of the wrong type (floats, bools, strings, None) must be refused as illegal: an
# in-process bot can send them, and an accepted action must survive the replay's JSON round
# trip (which refuses anything but plain integers).
odd_numbers = st.one_of(
    st.integers(0, 4).map(float),
    st.floats(min_value=-2, max_value=6).filter(lambda x: x != int(x)),
    st.booleans(),
    st.sampled_from(["1", None]),
)


def _plain(value: object) -> int:
    return int(value) if isinstance(value, int | float) else 1


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(st.data(), odd_numbers, st.integers(0, 1))
def test_apply_refuses_fields_of_the_wrong_type(
    data: st.DataObject, odd: object, which: int
) -> None:
    kinds = (Phase.ATTACK, Phase.FORTIFY, Phase.REINFORCE, Phase.DEFEND, Phase.OCCUPY)
    samples = [(r, s) for r, s in _sample_states() if s.phase in (*kinds, Phase.REROLL)]
    rules, state = data.draw(st.sampled_from(samples), label="position")
    decision = rules.decision(state)
    assert decision is not None
    seat = decision.seats[0]
    options = rules.legal_options(state, seat)
    action: Any
    if options.kind == "attack":
        src, dst, most = data.draw(st.sampled_from(options.attacks), label="attack")
        # `until=None` is legal (a single roll), so None only goes in as the dice.
        action = (
            Attack(src, dst, odd) if which or odd is None else Attack(src, dst, most, odd)  # type: ignore[arg-type]
        )
    elif options.kind == "fortify":
        assume(options.fortifies)
        src, dst, _ = data.draw(st.sampled_from(options.fortifies), label="fortify")
        action = Fortify(src, dst, odd)  # type: ignore[arg-type]
    elif options.kind == "reinforce":
        own = options.territories
        first = data.draw(st.sampled_from(own), label="territory")
        second = next((t for t in own if t not in (first, _plain(odd))), first)
        rest = options.armies - _plain(odd)
        pair = (odd, _plain(odd)) if which else (first, odd)
        action = Place((pair, (second, rest)))  # type: ignore[arg-type]
    elif options.kind == "defend":
        action = Defend(odd)  # type: ignore[arg-type]
    elif options.kind == "occupy":
        action = Occupy(odd)  # type: ignore[arg-type]
    else:
        action = Reroll(odd)  # type: ignore[arg-type]
    try:
        rules.apply(state, seat, action)
    except IllegalActionError:
        return
    raise AssertionError(f"{action} was accepted in phase {state.phase.name}")
