"""The strong bot: Monte-Carlo search over the real engine, from its own view only.

Every decision of its own turn that shapes the game (reinforcements, each attack, each
occupation) is a small search: a handful of candidate answers, each played on the engine
(:meth:`ClassicRules.apply_unchecked` on copies) in many sampled worlds, then the game rolled
out with a fast attack policy for every seat until this seat is to reinforce again (the rest
of its turn and every opponent's reply; with two players the rest of its turn only, the
reply left to the value), and that position scored by a learned value.
A world (:class:`arena.sdk.classic_sim.Simulator`) agrees with the view and draws what the
view hides, others' cards, the deck, missions, unrevealed headquarters and the dice, from
the bot's own generator, so it never learns what it may not see. All candidates of one pass
share the same world and dice (common random numbers), so their difference is measured with
little noise; successive halving drops the worse half as evidence grows. The search is
anytime: it stops at a share of the move time, or after a fixed number of rollouts
(``nodes``), which makes a game replayable exactly from the bot's seed.

The value is the chance that this seat wins, a softmax over the seats still playing of a
linear score of :data:`FEATURES` (shares of armies, territories and income, cards in
armies, armies at risk next round by exact odds, seats until its turn, territories on a
front, continent bonuses), fitted by ``train_value.py`` on games of the bundled bots; a
secret mission's or the headquarters' progress adds to the seat's armies.

Eliminations come first: when one stack can take every territory of a rival this turn along
one path with exact odds of at least :data:`KILL_ODDS` (:func:`kill_plan`), or several stacks
can (a sweep, :func:`sweep_attack`) in that share of worlds where it is played out, it commits
to it for the turn: the reinforcements go to the path's source (or one of the sweeping
stacks), then it attacks and moves on without a search (the rollouts' greedy attacks rarely
find such a path, and the first elimination of a 3-player game almost always decides it).
The rollouts play eliminations too: every seat follows a likely one-stack path against a
rival down to :data:`ROLL_KILL_SIZE` territories.

Fortifying and setup placement are judged by the value alone (there are no dice);
neutral placement and headquarters use short heuristics; sets are traded as soon as they
can be; it always defends with the maximum dice. It claims as the frozen ``planner``
(:mod:`arena.sdk.classic.planner`) does, and in a 3-player game it plays the setup and the
first round as ``planner`` too: a whole turn planned as one chain of captures opens better
there than decisions searched one by one (:data:`OPENING_ROUNDS`).
"""

from __future__ import annotations

import itertools
import json
import math
import operator
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from arena.games.classic import cards as cardlib
from arena.games.classic.board import WILD, Board
from arena.games.classic.missions import FALLBACK, MISSIONS, Mission
from arena.games.classic.state import NEUTRAL, ClassicState, Phase
from arena.sdk import (
    Action,
    Attack,
    Bot,
    ChooseHeadquarters,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    MatchInfo,
    Occupy,
    Place,
    PlaceNeutral,
    Request,
    Reroll,
    Trade,
)
from arena.sdk.bot import Answer as AnyAnswer
from arena.sdk.classic import Answer
from arena.sdk.classic_sim import Simulator
from arena.sdk.tactics import capture_odds, chain_odds, reroll_choice

from .planner.bot import PlannerBot

THINK_SHARE = 0.4
"""Share of the decision's deadline the search may use; the rest absorbs scheduler noise
(the answer's p99 stays under 60% of the move time)."""
OPENING_ROUNDS = 1
OPENING_PLAYERS = 3
"""In a game of exactly this many players, the setup and the first :data:`OPENING_ROUNDS`
rounds are played by the planner's policy, whose reinforcements and chains of captures form
one plan for the turn: the search, judging each decision on its own, sat out the first turn
of a strong claimed opening (see the README, "Three players: three openings")."""
BANK_FLOOR = 0.25
"""Least share of its usual thinking time a search keeps as the bank runs out."""
NO_CLOCK_NODES = 60
"""Rollouts per search when the match has no clock and no node budget is set: about what a
50 ms move time allows."""
MAX_CANDIDATES = 8
"""Candidate answers a search starts with."""
SURE_ODDS = 0.75
"""An attack this likely to capture rolls to the end in one decision."""
MAX_CAPTURES = 10
"""Captures a rollout may make in one turn before it stops attacking."""
ROLL_MARGIN = 2
"""Rollout attacks need this many more rolling armies than defenders (unless they complete a
continent or take a player's last territory)."""
ROLL_UNTIL = 3
"""Rollout attacks stop when the source is down to this many armies (three dice or none)."""
ROLLOUT_STEPS = 400
"""Engine steps a rollout may take (a bound, never reached in practice)."""
ROLL_KILL_SIZE = 5
"""Rollouts look for an elimination path (every seat, each turn) only against rivals down to
this many territories: the search is too slow for every rollout step against larger ones."""


# ----------------------------------------------------------------------------- board


class Geometry:
    """The board's figures every evaluation reads, as flat tuples."""

    def __init__(self, board: Board) -> None:
        self.size = board.size
        self.neighbours = board.neighbours
        self.continent_of = board.continent_of
        self.members = tuple(c.territories for c in board.continents)
        self.pick_members = tuple(_picker(c.territories) for c in board.continents)
        """Per continent: reads its members' owners as a tuple, in C (rollouts ask often)."""
        self.bonus = tuple(c.bonus for c in board.continents)
        self.by_name = {c.name: i for i, c in enumerate(board.continents)}
        self.borders = tuple(
            tuple(
                t
                for t in c.territories
                if any(board.continent_of[n] != i for n in board.neighbours[t])
            )
            for i, c in enumerate(board.continents)
        )
        self.symbols = board.card_symbols


def _picker(members: Sequence[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """Reads ``members``' entries of a list as a tuple, in C where it can."""
    if len(members) > 1:
        return operator.itemgetter(*members)
    only = members[0]  # itemgetter of one index returns no tuple
    return lambda values: (values[only],)


FEATURES = (
    "armies",
    "territories",
    "income",
    "cards",
    "at_risk",
    "turn_distance",
    "frontier",
    "bonus",
)
"""Per-seat features of the learned value, each a share or a fraction (see seat_features)."""


def seat_features(
    g: Geometry,
    owner: Sequence[int],
    armies: Sequence[int],
    hands: Sequence[int],
    card_worth: float,
    n: int,
    to_move: int,
    to_place: int,
) -> dict[int, list[float]]:
    """:data:`FEATURES` of every seat still holding territories, at the start of
    ``to_move``'s turn (its ``to_place`` new armies counted as its own): shares of the
    players' armies, territories and income; cards in armies over all armies; the share of
    its armies likely lost next round (exact odds against the strongest hostile neighbour
    and half its income); seats until its turn over seats; the share of its territories on
    a front; its continent bonuses over all income."""
    count = [0] * n
    total = [0] * n
    frontier = [0] * n
    for t in range(g.size):
        o = owner[t]
        if o >= 0:
            count[o] += 1
            total[o] += armies[t]
    if 0 <= to_move < n:
        total[to_move] += to_place
    income = [max(3, c // 3) if c else 0 for c in count]
    bonus = [0] * n
    for c, members in enumerate(g.members):
        first = owner[members[0]]
        if first >= 0 and all(owner[t] == first for t in members):
            income[first] += g.bonus[c]
            bonus[first] += g.bonus[c]
    risk = [0.0] * n
    for t in range(g.size):
        o = owner[t]
        if o < 0:
            continue
        best = 0.0
        for e in g.neighbours[t]:
            foe = owner[e]
            if foe != o:
                if foe >= 0 and armies[e] - 1 + 0.5 * income[foe] > best:
                    best = armies[e] - 1 + 0.5 * income[foe]
                elif foe == NEUTRAL and best == 0.0:
                    best = 0.001
        if best > 0:
            frontier[o] += 1
            if best >= 1:
                risk[o] += capture_odds(int(best), armies[t]) * (armies[t] + 1)
    all_armies = max(1, sum(total))
    all_count = max(1, sum(count))
    all_income = max(1, sum(income))
    features: dict[int, list[float]] = {}
    for p in range(n):
        if not count[p]:
            continue
        features[p] = [
            total[p] / all_armies,
            count[p] / all_count,
            income[p] / all_income,
            hands[p] * card_worth / all_armies,
            min(1.0, risk[p] / max(1, total[p])),
            ((p - to_move) % n) / n,
            frontier[p] / count[p],
            bonus[p] / all_income,
        ]
    return features


def _load_value() -> tuple[float, ...]:
    """The weights ``train_value.py`` fitted, one per :data:`FEATURES` name."""
    data = json.loads((Path(__file__).resolve().parent / "value.json").read_text())
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"value.json has features {data['features']}, expected {FEATURES}")
    return tuple(float(w) for w in data["weights"])


SHARPNESS = 2.0
"""Scale on the fitted scores. The fit is dominated by early positions, whose outcome is
open, so it is too flat late: a 60% army share at the start of a duel scores about 66%, where
such duels are won above 90% of the time. Doubled, it won 51% of 150 3-player games where
the plain value won 43% of the same games, but 38% of 150 others: 45% over 300, within noise
of the plain value's 42-44%; scaled by four, 43%."""
VALUE = tuple(SHARPNESS * w for w in _load_value())
"""Weights of the learned value, scaled: a seat's score is their dot product with its
features."""


# ----------------------------------------------------------------------------- evaluation


class Evaluator:
    """Scores a state for one seat: its learned chance (0..1) of winning the game."""

    def __init__(self, sim: Simulator, geometry: Geometry, seat: int) -> None:
        self.g = geometry
        self.seat = seat
        cfg = sim.config
        self.sets = cfg.sets
        self.capital = cfg.mode == "capital"
        self.mission: Mission | None = None

    def set_mission(self, mission_id: int | None) -> None:
        if mission_id is None:
            self.mission = None
            return
        mission = MISSIONS[mission_id]
        if mission.kind == "destroy" and mission.target == self.seat:
            mission = FALLBACK
        self.mission = mission

    def card_worth(self, s: ClassicState) -> float:
        """Armies one card is worth: about a third of the next set."""
        if self.sets == "fixed":
            return 7 / 3
        return cardlib.set_value(self.sets, s.sets_traded + 1, (0, 0, 0)) / 3

    def __call__(self, s: ClassicState) -> float:
        """The learned chance that this seat wins (see :data:`VALUE`), goals included."""
        me = self.seat
        if s.phase == Phase.OVER:
            if s.winner == me:
                return 1.0
            places = s.places or ()
            if me in s.eliminated or me >= len(places):
                return 0.0
            return 1.0 / (1 + places[me])
        if me in s.eliminated:
            return 0.0
        owner, armies = s.owner, s.armies
        to_place = s.to_place if s.phase in (Phase.REINFORCE, Phase.TRADE) else 0
        hands = [len(h) for h in s.hands]
        features = seat_features(
            self.g, owner, armies, hands, self.card_worth(s), s.n, s.seat, to_place
        )
        if me not in features:
            return 0.0
        weights = VALUE
        scores = {
            p: sum(w * x for w, x in zip(weights, f, strict=True)) for p, f in features.items()
        }
        goals = self._goals(s)
        if goals:
            total_armies = max(1, sum(armies[t] for t in range(self.g.size) if owner[t] >= 0))
            scores[me] += weights[0] * goals / total_armies
        top = max(scores.values())
        norm = sum(math.exp(v - top) for v in scores.values())
        return math.exp(scores[me] - top) / norm

    def _goals(self, s: ClassicState) -> float:
        """Armies' worth of progress towards a mission or headquarters."""
        me = self.seat
        bonus = 0.0
        mission = self.mission
        if mission is None and not (self.capital and s.hq):
            return 0.0
        owner = s.owner
        held = [
            owner[m[0]] if all(owner[t] == owner[m[0]] for t in m) else -9 for m in self.g.members
        ]
        if mission is not None:
            if mission.kind == "continents":
                for name in mission.continents:
                    c = self.g.by_name[name]
                    mine = sum(1 for t in self.g.members[c] if s.owner[t] == me)
                    bonus += 12.0 * mine / len(self.g.members[c]) + (10.0 if held[c] == me else 0)
            elif mission.kind == "territories":
                ok = sum(
                    1
                    for t, o in enumerate(s.owner)
                    if o == me and s.armies[t] >= mission.min_armies
                )
                bonus += 1.5 * min(ok, mission.territories)
            elif mission.kind == "destroy" and mission.target in s.eliminated:
                bonus += 40.0
            elif mission.kind == "destroy" and mission.target < s.n:
                left = sum(1 for o in owner if o == mission.target)
                bonus += 6.0 * (12 - min(12, left))
        if self.capital and s.hq:
            hq = s.hq if s.hq_revealed else s.hq_pending
            for p, t in enumerate(hq):
                if t >= 0 and s.owner[t] == me:
                    bonus += 20.0 if p == me else 14.0
                elif p == me and t >= 0:
                    bonus -= 30.0
        return bonus


# ----------------------------------------------------------------------------- rollouts


class Rollout:
    """A fast policy for every seat, played on the engine to this seat's next turn, then the
    evaluation: the rest of this turn, and each opponent's reply (trades, reinforcements and
    attacks with the cards and dice of the sampled world); with two players, the rest of this
    turn only (see :attr:`replies`)."""

    def __init__(self, sim: Simulator, geometry: Geometry, seat: int, evaluate: Evaluator) -> None:
        self.rules = sim.rules
        self.g = geometry
        self.seat = seat
        self.evaluate = evaluate
        self.replies = sim.config.players > 2
        """Whether the opponents' replies are played out. In the 2-player game they are not:
        the rollout stops when the opponent is to move and the value judges the position.
        The fast policy's reply bleeds armies into stacks and neutral armies that `planner`
        keeps, so waiting scored 0.84 where every attack scored 0.16 to 0.34, and `strong`
        sat out whole games; stopping won 62.0% of 800 head-to-head games where playing the
        reply out won 57.5% of the same games (60 rollouts a decision)."""

    def finish(self, s: ClassicState) -> float:
        """Play on until this seat is to reinforce again (or, with two players, until the
        opponent is to move; or the game ends) and score it."""
        rules, me = self.rules, self.seat
        captures = 0
        turn = s.turns
        kill: list[int] | None = None  # this turn's elimination path; None: not looked for
        for _ in range(ROLLOUT_STEPS):
            phase = s.phase
            if phase == Phase.OVER:
                break
            if phase == Phase.DEFEND:
                assert s.attack is not None
                defender = s.owner[s.attack[1]]
                rules.apply_unchecked(s, defender, Defend(min(2, s.armies[s.attack[1]])))
                continue
            seat = s.seat
            if seat != me and not self.replies:
                break  # two players: the value judges the reply (see __init__)
            if s.turns != turn:
                turn, captures, kill = s.turns, 0, None
                if seat == me:
                    break
            if phase == Phase.ATTACK:
                if kill is None:
                    kill = self.kill_path(s, seat, 0)
                attack = self.kill_step(s, seat, kill)
                if attack is None:
                    kill = []
                    attack = self.attack(s, seat) if captures < MAX_CAPTURES else None
                if attack is None:
                    rules.apply_unchecked(s, seat, EndAttack())
                    continue
                rules.apply_unchecked(s, seat, attack)
                if s.phase == Phase.OCCUPY:
                    captures += 1
            elif phase == Phase.OCCUPY:
                rules.apply_unchecked(s, seat, self.occupy(s, seat, bool(kill)))
            elif phase == Phase.TRADE:
                options = rules.legal_options(s, seat)
                rules.apply_unchecked(s, seat, Trade(options.sets[0] if options.sets else None))
            elif phase == Phase.REINFORCE:
                kill = self.kill_path(s, seat, s.to_place)
                where = kill[0] if kill else self.best_source(s, seat)
                rules.apply_unchecked(s, seat, Place(((where, s.to_place),)))
            elif phase == Phase.FORTIFY:
                rules.apply_unchecked(s, seat, EndTurn())
            elif phase == Phase.REROLL:
                rules.apply_unchecked(s, seat, Reroll(None))
            else:
                break
        return self.evaluate(s)

    def attack(self, s: ClassicState, me: int) -> Attack | None:
        """The best-looking attack: a strong margin, or one that completes a continent or
        takes a player's last territories; None ends the attacks. The hottest code of a
        rollout: the counts and continent figures are worked out only for the targets a
        stack could take."""
        g = self.g
        owner, armies = s.owner, s.armies
        neighbours, continent_of, pick = g.neighbours, g.continent_of, g.pick_members
        counts: list[int] | None = None
        held: dict[int, tuple[int, ...]] = {}  # per continent of a target: its owners
        best: tuple[float, int, int] | None = None
        for t in range(g.size):
            if owner[t] != me or armies[t] < 3:
                continue
            a = armies[t] - 1
            for n in neighbours[t]:
                o = owner[n]
                if o == me:
                    continue
                margin = a - armies[n]
                if margin < 0:
                    continue
                c = continent_of[n]
                owners = held.get(c)
                if owners is None:
                    owners = held[c] = pick[c](owner)
                completes = owners.count(me) == len(owners) - 1
                last = False
                if o >= 0:
                    if counts is None:
                        counts = [owner.count(x) for x in range(s.n)]
                    last = counts[o] == 1
                if margin < ROLL_MARGIN and not (last or completes):
                    continue
                score = margin + (6.0 if completes else 0.0)
                if o == NEUTRAL:
                    score -= 2.0
                elif last:
                    score += 8.0 + 2.0 * len(s.hands[o])  # an elimination hands over its cards
                elif owners.count(o) == len(owners):
                    score += 3.0  # breaks a continent
                if best is None or score > best[0]:
                    best = (score, t, n)
        if best is None:
            return None
        return Attack(best[1], best[2], 3, until=ROLL_UNTIL, reroll="auto")

    def kill_path(self, s: ClassicState, me: int, extra: int) -> list[int]:
        """The path of a likely elimination by ``me`` this turn (see :func:`kill_plan`),
        looked for only when some rival is down to :data:`ROLL_KILL_SIZE` territories (the
        search costs rollouts); ``[]`` when there is none."""
        owner = s.owner
        if not any(0 < owner.count(x) <= ROLL_KILL_SIZE for x in range(s.n) if x != me):
            return []
        plan = kill_plan(
            self.g,
            s.owner,
            s.armies,
            me,
            extra,
            size=ROLL_KILL_SIZE,
            steps=ROLL_KILL_STEPS,
            exact=False,
        )
        return plan[1] if plan is not None and plan[0] >= KILL_ODDS else []

    def kill_step(self, s: ClassicState, me: int, path: list[int]) -> Attack | None:
        """The next attack along ``path`` (rolling to the capture), or None once the path is
        taken or its stack is spent."""
        move = path_step(s.owner, s.armies, me, path)
        return None if move is None else Attack(move[0], move[1], 3, until=1, reroll="auto")

    def occupy(self, s: ClassicState, me: int, all_in: bool = False) -> Occupy:
        """Move on with the stack unless the source still faces hostile neighbours (or an
        elimination is under way: then all of it)."""
        assert s.occupy is not None
        src, dst, least = s.occupy
        total = s.armies[src] + s.armies[dst]
        most = total - 1
        if all_in:
            return Occupy(most)
        hostile = sum(s.armies[n] for n in self.g.neighbours[src] if s.owner[n] != me and n != dst)
        keep = min(most - least, hostile // 2) if hostile else 0
        return Occupy(max(least, most - keep))

    def best_source(self, s: ClassicState, me: int) -> int:
        """Own territory with the most armies against a foreign neighbour."""
        g = self.g
        best, where = -1.0e9, -1
        for t in range(g.size):
            if s.owner[t] != me:
                continue
            weakest = min((s.armies[n] for n in g.neighbours[t] if s.owner[n] != me), default=-1)
            if weakest < 0:
                continue
            score = s.armies[t] - weakest
            if score > best:
                best, where = score, t
        if where < 0:
            where = next(t for t in range(g.size) if s.owner[t] == me)
        return where


# ----------------------------------------------------------------------------- eliminations


KILL_ODDS = 0.6
"""A plan to eliminate a rival this turn is followed without a search once its exact odds of
taking every one of the rival's territories reach this: in 3-player games against two
``planner``, whoever made the first elimination went on to win 95% of the time."""
KILL_SIZE = 8
"""Rivals holding more territories than this are not planned against (the path search grows
exponentially with them)."""
KILL_DETOURS = 2
"""Territories of other seats a kill path may pass through on the way."""
CHASE_DETOURS = 4
"""The same for an elimination under way whose last territories no stack borders."""
KILL_PATHS = 12
"""Complete paths a kill search scores by their exact odds before it stops."""
KILL_STEPS = 3000
"""Territories a kill search may step onto before it stops: without a bound, a rival whose
territories one path cannot join makes it try every detour (tens of milliseconds)."""
ROLL_KILL_STEPS = 200
"""The same bound inside a rollout, where every seat looks each turn."""
EXACT_ARMIES = 40
"""Exact chain odds only up to this many rolling armies: each new pair of stack sizes costs
a whole battle's distribution (milliseconds for big stacks, and a chain meets dozens), and
big stacks' odds are near certain anyway; beyond it, the one-battle estimate."""


def kill_plan(
    g: Geometry,
    owner: Sequence[int],
    armies: Sequence[int],
    me: int,
    extra: int = 0,
    sources: Sequence[int] | None = None,
    size: int = KILL_SIZE,
    steps: int = KILL_STEPS,
    exact: bool = True,
    rival: int | None = None,
    detours: int = KILL_DETOURS,
) -> tuple[float, list[int]] | None:
    """The likeliest chain of captures that takes every territory of some rival this turn,
    one stack moving on after each capture: ``(exact odds, [source, target, ...])``, or
    None. ``extra`` new armies join the source first (reinforcements still to place, on one
    of ``sources``). Only rivals holding at most ``size`` territories (only ``rival``, if
    given) are planned against, through at most ``detours`` territories of others; each path
    search stops after ``steps`` (see :func:`_kill_paths`); inexact odds (and those of stacks
    above :data:`EXACT_ARMIES`) are estimated as one battle against all the defenders (a
    little low, and much cheaper). Only a single path is
    planned: a rival whose territories need two stacks is left to the sweep."""
    held = holdings(owner, me)
    allowed = None if sources is None else set(sources)
    neighbours = g.neighbours
    mine = {t for t, o in enumerate(owner) if o == me}
    best: tuple[float, list[int]] | None = None
    for seat, targets in held.items():
        if len(targets) > size or rival not in (None, seat):
            continue
        wanted = set(targets)
        need = sum(armies[t] + 1 for t in targets)
        starts = _within(neighbours, targets, detours + 1) & mine
        if allowed is not None:
            starts &= allowed
        for source in sorted(starts):
            fighting = armies[source] - 1 + extra
            if fighting < need:
                continue
            paths = _kill_paths(
                neighbours, owner, armies, me, source, fighting, wanted, steps, detours
            )
            for path in paths:
                if exact and fighting <= EXACT_ARMIES:
                    odds = chain_odds(fighting, [armies[t] for t in path])
                else:  # as one battle against all the defenders, less those left behind
                    odds = capture_odds(fighting + 1 - len(path), sum(armies[t] for t in path))
                if best is None or odds > best[0]:
                    best = (odds, [source, *path])
    return best


def holdings(owner: Sequence[int], me: int) -> dict[int, list[int]]:
    """Every rival's territories (the neutral's and ``me``'s left out)."""
    held: dict[int, list[int]] = {}
    for t, o in enumerate(owner):
        if o >= 0 and o != me:
            held.setdefault(o, []).append(t)
    return held


def _within(neighbours: Sequence[Sequence[int]], origins: Sequence[int], steps: int) -> set[int]:
    """Territories at most ``steps`` moves from any of ``origins`` (not the origins)."""
    seen = set(origins)
    frontier = list(origins)
    for _ in range(steps):
        frontier = [n for t in frontier for n in neighbours[t] if n not in seen]
        seen.update(frontier)
    return seen - set(origins)


def _kill_paths(
    neighbours: Sequence[Sequence[int]],
    owner: Sequence[int],
    armies: Sequence[int],
    me: int,
    source: int,
    fighting: int,
    wanted: set[int],
    steps: int,
    detours: int = KILL_DETOURS,
) -> list[list[int]]:
    """Up to :data:`KILL_PATHS` paths from ``source`` through every territory of ``wanted``
    (and at most ``detours`` others), each step a neighbour of the last, pruned
    where the armies left (each capture costs its defenders and the one left behind) would
    run out; the rival's own territories and the weakest are tried first. It stops after
    ``steps`` territories stepped onto."""
    paths: list[list[int]] = []
    path: list[int] = []
    budget = [steps]

    def step(here: int, strength: float, left: int, detours: int) -> None:
        if left == 0:
            paths.append(path[:])
            return
        budget[0] -= 1
        if budget[0] < 0:
            return
        ahead = [nb for nb in neighbours[here] if owner[nb] != me and nb not in path]
        ahead.sort(key=lambda nb: (nb not in wanted, armies[nb], nb))
        for nb in ahead:
            if len(paths) >= KILL_PATHS or budget[0] < 0:
                return
            hit = nb in wanted
            if not hit and detours == 0:
                continue
            after = strength - armies[nb] - 1
            if after < 1:
                continue
            path.append(nb)
            step(nb, after, left - hit, detours - (not hit))
            path.pop()

    step(source, float(fighting), len(wanted), detours)
    return paths


SWEEP_SIZE = 14
"""Rivals holding more territories than this are not swept (several stacks, one turn)."""
SWEEP_SOURCES = 3
"""Own stacks next to the rival tried as the place for the reinforcements of a sweep."""
SWEEP_WORLDS = 16
"""Sampled worlds (dice) in which a sweep is played out to judge its odds."""
SWEEP_STEPS = 120
"""Engine steps a played-out sweep may take (a bound, never reached in practice)."""


def path_step(
    owner: Sequence[int], armies: Sequence[int], me: int, path: Sequence[int]
) -> tuple[int, int] | None:
    """The next capture along a kill path, or None once it is taken or its stack is spent."""
    for src, dst in itertools.pairwise(path):
        if owner[dst] != me:
            if owner[src] != me or armies[src] < 2:
                return None
            return src, dst
    return None


def kill_step(
    g: Geometry,
    owner: Sequence[int],
    armies: Sequence[int],
    me: int,
    victim: int,
    path: list[int] | None,
    exact: bool = True,
) -> tuple[tuple[int, int] | None, list[int] | None]:
    """The next attack of an elimination of ``victim`` under way, and the path it follows
    from then on: along ``path`` while its stack holds, else the sweep's, else along a new
    path found now (through others' territories, where the rival's last ones are out of
    reach of every stack); ``(None, None)`` once none is likely."""
    if victim not in owner:
        return None, None
    if path is not None:
        move = path_step(owner, armies, me, path)
        if move is not None:
            return move, path
    move = sweep_attack(g, owner, armies, me, victim)
    if move is not None:
        return move, None
    steps = KILL_STEPS if exact else ROLL_KILL_STEPS
    plan = kill_plan(g, owner, armies, me, size=SWEEP_SIZE, steps=steps, exact=exact, rival=victim)
    if plan is None or plan[0] < KILL_ODDS:
        return None, None
    return path_step(owner, armies, me, plan[1]), plan[1]


def sweep_attack(
    g: Geometry, owner: Sequence[int], armies: Sequence[int], me: int, victim: int
) -> tuple[int, int] | None:
    """The next attack of a sweep, an elimination by several stacks: the one of ``me``'s
    stacks next to ``victim`` with the most armies to spare over its weakest territory
    there (at least as many rolling armies as defenders); None when there is none."""
    best: tuple[tuple[int, int], int, int] | None = None
    for v in range(g.size):
        if owner[v] != victim:
            continue
        for src in g.neighbours[v]:
            if owner[src] != me or armies[src] < 2:
                continue
            margin = armies[src] - 1 - armies[v]
            if margin < 0:
                continue
            key = (margin, -src)
            if best is None or key > best[0]:
                best = (key, src, v)
    return None if best is None else (best[1], best[2])


def sweep_occupy(
    g: Geometry,
    owner: Sequence[int],
    armies: Sequence[int],
    victim: int,
    src: int,
    dst: int,
    least: int,
    most: int,
) -> int:
    """Armies to move on in a sweep: all of them when the captured territory borders every
    territory of the rival's that the source does, none when the source borders all that it
    does, else split by the rival's armies that only one side borders."""
    ahead = {n for n in g.neighbours[dst] if owner[n] == victim}
    behind = {n for n in g.neighbours[src] if owner[n] == victim and n != dst}
    if behind <= ahead:
        return most
    if ahead <= behind:
        return least
    only_ahead = sum(armies[n] + 1 for n in ahead - behind)
    only_behind = sum(armies[n] + 1 for n in behind - ahead)
    total = armies[src] + armies[dst]
    return max(least, min(most, round(total * only_ahead / (only_ahead + only_behind))))


def kill_occupy(
    g: Geometry,
    owner: Sequence[int],
    armies: Sequence[int],
    victim: int,
    path: Sequence[int] | None,
    src: int,
    dst: int,
    least: int,
    most: int,
) -> int:
    """Armies to move on in an elimination under way: all of them along its path, else as
    the sweep moves (:func:`sweep_occupy`)."""
    if path is not None and dst in path[1:-1]:
        return most
    return sweep_occupy(g, owner, armies, victim, src, dst, least, most)


# ----------------------------------------------------------------------------- search


class Budget:
    """When a search must stop: a node count (replayable), or a clock deadline."""

    def __init__(
        self, nodes: int | None, seconds: float | None, since: float | None = None
    ) -> None:
        self.nodes = nodes
        self.seconds = seconds
        """Thinking time, counted from ``since`` (a ``time.perf_counter()``; default now)."""
        start = time.perf_counter() if since is None else since
        self.deadline = start + seconds if seconds is not None else None
        self.used = 0

    def spent(self) -> bool:
        if self.nodes is not None:
            return self.used >= self.nodes
        assert self.deadline is not None
        return time.perf_counter() >= self.deadline


def halving_search(
    candidates: Sequence[Action],
    world: Callable[[], ClassicState],
    play: Callable[[ClassicState, Action], float],
    budget: Budget,
) -> int:
    """Index of the candidate with the best mean score over shared sampled worlds.

    Each pass samples one world and scores every live candidate in a copy of it; after
    passes 2, 4, 8, ... the worse half of the live candidates is dropped (two stay at
    least). The budget is checked after every rollout, so a pass may be cut short; the
    candidates come best-first by their prior, so a first pass cut short still compares the
    likeliest ones, and a candidate never scored is never chosen. The whole budget is spent
    even on a choice that looks clear: stopping once the paired differences looked settled
    cost 10 points of 3-player wins (33% against 43%), since two candidates often differ
    only in rare worlds.
    """
    if len(candidates) == 1:
        return 0
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    live = list(range(len(candidates)))
    passes = 0
    next_cut = 2
    while not budget.spent():
        base = world()
        for i in live:
            totals[i] += play(base.copy(), candidates[i])
            counts[i] += 1
            budget.used += 1
            if budget.spent():
                break
        passes += 1
        if passes >= next_cut and len(live) > 2:
            live.sort(key=lambda i: (-totals[i] / counts[i], i))
            live = live[: max(2, (len(live) + 1) // 2)]
            next_cut *= 2
    scored = [i for i in live if counts[i]] or [0]
    return max(scored, key=lambda i: (totals[i] / max(1, counts[i]), -i))


# ----------------------------------------------------------------------------- the bot


class StrongBot(Bot):
    """Searches its turn on the engine in sampled worlds; see the module docstring."""

    name = "strong"
    version = "2.6"
    always_max_defence = True

    def __init__(self, nodes: int | None = None) -> None:
        self.nodes = nodes
        """Rollouts per search; None: as many as the clock allows."""
        self.kill: tuple[int, list[int] | None] | None = None
        """This turn's elimination under way: the rival, and the path it follows (None: a
        sweep by several stacks)."""
        self.asked: float | None = None
        """When the decision being answered was asked: its searches share one clock."""

    def choose(self, request: Request) -> AnyAnswer:
        self.asked = time.perf_counter()
        if self._opening(request):
            return self.planner.choose(request)
        return super().choose(request)

    def _opening(self, request: Request) -> bool:
        view = request.view
        return view["players"] == OPENING_PLAYERS and view["round"] <= OPENING_ROUNDS

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.sim = Simulator(match)
        self.g = Geometry(self.sim.rules.board)
        self.seat = match.seat
        self.rng = random.Random(match.bot_seed)
        self.evaluate = Evaluator(self.sim, self.g, match.seat)
        self.rollout = Rollout(self.sim, self.g, match.seat, self.evaluate)
        self.move_time = match.move_time_ms / 1000
        self.bank_ms = match.time_bank_ms
        self.planner = PlannerBot()
        """Plays the claims, and the opening of a 3-player game (see :data:`OPENING_ROUNDS`)."""
        self.planner.start(match)

    # ------------------------------------------------------------ search plumbing

    def _budget(self, request: Request, share: float = THINK_SHARE) -> Budget:
        if self.nodes is not None:
            return Budget(self.nodes, None)
        # The deadline is the move time plus what is left in the bank; plan on the move time.
        allowed = (request.deadline_ms - request.time_bank_ms) / 1000 or self.move_time
        if allowed <= 0:
            return Budget(NO_CLOCK_NODES, None)
        return Budget(None, share * self._bank_factor(request) * allowed, self.asked)

    def _bank_factor(self, request: Request) -> float:
        """Think less as the bank drains. Every overrun (a stalled machine, a garbage
        collection) is paid from the bank, and once it is spent the next one is a strike;
        from half the bank down the share shrinks with it, to a quarter at most."""
        if self.bank_ms <= 0:
            return 1.0
        return max(BANK_FLOOR, min(1.0, 2.0 * request.time_bank_ms / self.bank_ms))

    def _prepare(self, request: Request) -> None:
        mission = request.view.get("mission")
        self.evaluate.set_mission(mission["id"] if mission else None)

    def _search(
        self,
        request: Request,
        candidates: Sequence[Action],
        prime: Callable[[ClassicState], None] | None = None,
    ) -> Action:
        """The best of ``candidates`` for this decision by :func:`halving_search`."""
        self._prepare(request)
        budget = self._budget(request)
        view, rng, sim = request.view, self.rng, self.sim
        me, apply, finish = self.seat, sim.rules.apply_unchecked, self.rollout.finish

        def world() -> ClassicState:
            s = sim.sample(view, rng)
            if prime is not None:
                prime(s)
            return s

        def play(s: ClassicState, action: Action) -> float:
            apply(s, me, action)
            return finish(s)

        return candidates[halving_search(candidates, world, play, budget)]

    # ------------------------------------------------------------ own turn

    def _likely_kill(
        self,
        owner: Sequence[int],
        armies: Sequence[int],
        extra: int = 0,
        sources: Sequence[int] | None = None,
    ) -> list[int] | None:
        """The path of :func:`kill_plan` when its odds reach :data:`KILL_ODDS`, else None."""
        plan = kill_plan(self.g, owner, armies, self.seat, extra, sources)
        return plan[1] if plan is not None and plan[0] >= KILL_ODDS else None

    def _plan_kill(self, request: Request, extra: int, sources: Sequence[int] | None) -> int | None:
        """Look for an elimination this turn and commit to it (:attr:`kill`): one stack along
        a path (:func:`kill_plan`), else a sweep by several stacks whose odds, played out in
        sampled worlds, reach :data:`KILL_ODDS`. Returns where the reinforcements go (or
        -1 when there are none to place), None when there is no likely elimination."""
        view = request.view
        owner, armies = view["owner"], view["armies"]
        path = self._likely_kill(owner, armies, extra, sources)
        if path is not None:
            self.kill = (owner[path[-1]], path)
            return path[0] if extra else -1
        sweep = self._likely_sweep(request, extra, sources)
        if sweep is not None:
            self.kill = (sweep[0], None)
            return sweep[1]
        return None

    def _likely_sweep(
        self, request: Request, extra: int, sources: Sequence[int] | None
    ) -> tuple[int, int] | None:
        """``(rival, where the reinforcements go)`` of the likeliest sweep, when its odds
        reach :data:`KILL_ODDS`; the reinforcements go on one stack next to the rival."""
        view = request.view
        owner, armies = view["owner"], view["armies"]
        me, g = self.seat, self.g
        allowed = None if sources is None else set(sources)
        held = holdings(owner, me)
        plans: list[tuple[int, int]] = []
        for victim, targets in sorted(held.items()):
            if len(targets) > SWEEP_SIZE:
                continue
            stacks = sorted(
                {n for v in targets for n in g.neighbours[v] if owner[n] == me},
                key=lambda t: (-armies[t], t),
            )
            fighting = sum(armies[t] - 1 for t in stacks) + extra
            if not stacks or fighting < sum(armies[v] + 1 for v in targets):
                continue
            if not extra:
                plans.append((victim, -1))
                continue
            places = [t for t in stacks if allowed is None or t in allowed][:SWEEP_SOURCES]
            plans.extend((victim, t) for t in places)
        if not plans:
            return None
        odds = self._sweep_odds(request, plans, extra)
        best = max(range(len(plans)), key=lambda i: (odds[i], -i))
        return plans[best] if odds[best] >= KILL_ODDS else None

    def _sweep_odds(
        self, request: Request, plans: Sequence[tuple[int, int]], extra: int
    ) -> list[float]:
        """Each plan's share of wins played out in the same sampled worlds (at most
        :data:`SWEEP_WORLDS`, fewer if a quarter of the thinking time runs out first)."""
        sim, rng, view = self.sim, self.rng, request.view
        budget = self._budget(request, THINK_SHARE / 4)
        wins = [0] * len(plans)
        worlds = 0
        for _ in range(SWEEP_WORLDS):
            if worlds and budget.nodes is None and budget.spent():
                break
            base = sim.sample(view, rng)
            for i, (victim, place) in enumerate(plans):
                wins[i] += self._play_sweep(base.copy(), victim, place, extra)
            worlds += 1
        return [w / worlds for w in wins]

    def _play_sweep(self, s: ClassicState, victim: int, place: int, extra: int) -> bool:
        """Play a sweep on ``victim`` out on the engine: True if it is eliminated."""
        apply, me, g = self.sim.rules.apply_unchecked, self.seat, self.g
        if extra:
            apply(s, me, Place(((place, extra),)))
        path: list[int] | None = None
        for _ in range(SWEEP_STEPS):
            if victim not in s.owner:
                return True
            phase = s.phase
            if phase == Phase.DEFEND:
                assert s.attack is not None
                apply(s, s.owner[s.attack[1]], Defend(min(2, s.armies[s.attack[1]])))
            elif phase == Phase.ATTACK and s.seat == me:
                move, path = kill_step(g, s.owner, s.armies, me, victim, path, exact=False)
                if move is None:
                    return False
                apply(s, me, Attack(move[0], move[1], 3, until=1, reroll="auto"))
            elif phase == Phase.OCCUPY:
                assert s.occupy is not None
                src, dst, least = s.occupy
                most = s.armies[src] + s.armies[dst] - 1
                n = kill_occupy(g, s.owner, s.armies, victim, path, src, dst, least, most)
                apply(s, me, Occupy(n))
            elif phase == Phase.REROLL:
                apply(s, me, Reroll(None))
            else:
                return False
        return False

    def _kill_attack(self, request: Request) -> Answer | None:
        """The next attack of the elimination under way (or of one found now), if any."""
        view = request.view
        if self.kill is None and self._plan_kill(request, 0, None) is None:
            return None
        assert self.kill is not None
        victim, path = self.kill
        move, path = kill_step(self.g, view["owner"], view["armies"], self.seat, victim, path)
        for src, dst, dice in request.options.attacks:
            if move == (src, dst):
                self.kill = (victim, path)
                return Attack(src, dst, dice, until=1, reroll="auto")
        self.kill = None
        return None

    def reinforce(self, request: Request) -> Answer:
        options = request.options
        self.kill = None
        place = self._plan_kill(request, options.armies, options.territories)
        if place is not None and place >= 0:
            return Place(((place, options.armies),))
        return self._search(request, self.reinforce_candidates(request))

    def reinforce_candidates(self, request: Request) -> list[Action]:
        """Every army in one stack where attacks look best or danger is worst, and a split."""
        options = request.options
        view = request.view
        count = options.armies
        allowed = list(options.territories)
        owner, armies = view["owner"], view["armies"]
        me = self.seat
        g = self.g
        front = [t for t in allowed if any(owner[n] != me for n in g.neighbours[t])] or allowed

        def opportunity(t: int) -> float:
            weakest = min((armies[n] for n in g.neighbours[t] if owner[n] != me), default=99)
            return armies[t] - weakest + 0.5 * sum(1 for n in g.neighbours[t] if owner[n] != me)

        def danger(t: int) -> float:
            return (
                sum(armies[n] for n in g.neighbours[t] if owner[n] >= 0 and owner[n] != me)
                - armies[t]
            )

        attackers = sorted(front, key=lambda t: (-opportunity(t), t))[:5]
        defenders = sorted(front, key=lambda t: (-danger(t), t))[:3]
        candidates: list[Action] = []
        for t in dict.fromkeys(attackers + defenders):
            candidates.append(Place(((t, count),)))
        if count >= 2 and attackers and defenders and attackers[0] != defenders[0]:
            half = count // 2
            pair = sorted(((attackers[0], count - half), (defenders[0], half)))
            candidates.append(Place(tuple(pair)))
        return candidates[: MAX_CANDIDATES + 1]

    def attack(self, request: Request) -> Answer:
        action = self._kill_attack(request)
        if action is not None:
            return action
        return self._search(request, self.attack_candidates(request))

    def attack_candidates(self, request: Request) -> list[Action]:
        """Ending the attacks, and the attacks with the best odds (a continent counts extra)."""
        view = request.view
        owner, armies = view["owner"], view["armies"]
        g = self.g
        me = self.seat
        scored = []
        for source, target, dice in request.options.attacks:
            a, d = armies[source] - 1, armies[target]
            if dice < 3 and not (d == 1 and dice == 2):
                continue  # fewer dice lose more armies per capture
            c = g.continent_of[target]
            completes = all(owner[m] == me or m == target for m in g.members[c])
            score = (
                capture_odds(a, d)
                + (0.3 if completes else 0.0)
                - (0.1 if owner[target] == NEUTRAL else 0.0)
            )
            scored.append((score, source, target, dice))
        scored.sort(key=lambda x: (-x[0], x[1], x[2]))
        candidates: list[Action] = [EndAttack()]
        for odds, source, target, dice in scored[: MAX_CANDIDATES - 1]:
            # Likely captures roll to the end; close ones one battle at a time, so the next
            # roll is decided again with this one's outcome known.
            until = 1 if odds >= SURE_ODDS else None
            candidates.append(Attack(source, target, dice, until=until, reroll="auto"))
        return candidates

    def occupy(self, request: Request) -> Answer:
        options = request.options
        low, high = options.min_armies, options.max_armies
        source, target, _ = options.battle
        view = request.view
        owner, armies = list(view["owner"]), list(view["armies"])
        total = armies[source] + armies[target]
        if self.kill is not None:
            victim, path = self.kill
            owner[target] = self.seat
            if victim in owner:  # else this capture was the elimination
                g = self.g
                return Occupy(
                    kill_occupy(g, owner, armies, victim, path, source, target, low, high)
                )
        owner[target], armies[source], armies[target] = self.seat, total - high, high
        if self._likely_kill(owner, armies, sources=(target,)) is not None:
            return Occupy(high)  # the whole stack goes on with the elimination
        candidates = sorted({low, high, (low + high) // 2, max(low, high - 3)})
        least = options.min_armies

        def prime(s: ClassicState) -> None:
            s.phase = Phase.OCCUPY
            s.occupy = (source, target, least)

        return self._search(request, [Occupy(n) for n in candidates], prime)

    def fortify(self, request: Request) -> Answer:
        self._prepare(request)
        s = self.sim.sample(request.view, self.rng)
        armies = s.armies
        best_value = self.evaluate(s)
        best: Answer = EndTurn()
        budget = self._budget(request, THINK_SHARE / 2)
        for source, target, most in request.options.fortifies:
            for move in {most, max(1, most // 2)}:
                armies[source] -= move
                armies[target] += move
                value = self.evaluate(s)
                armies[source] += move
                armies[target] -= move
                budget.used += 1
                if value > best_value + 1e-9:
                    best_value, best = value, Fortify(source, target, move)
            if budget.spent():
                break
        return best

    def trade(self, request: Request) -> Answer:
        options = request.options
        if not options.sets:
            return Trade(None)
        symbols = self.g.symbols
        fixed = self.sim.config.sets == "fixed"
        bonus_cards = set(options.bonus_territories)

        def worth(cards: tuple[int, int, int]) -> tuple[int, int]:
            """Armies the set brings (its value where sets differ, +2 when one of its
            territories is held), then the fewer wilds spent."""
            kinds = (symbols[cards[0]], symbols[cards[1]], symbols[cards[2]])
            armies = cardlib.fixed_value(kinds) if fixed else 0
            if any(c in bonus_cards for c in cards):
                armies += 2
            return armies, -kinds.count(WILD)

        cards = max(options.sets, key=worth)
        eligible = [c for c in cards if c in bonus_cards]
        if not eligible:
            return Trade(cards)
        view = request.view
        me = self.seat

        def exposure(t: int) -> tuple[int, int]:
            return sum(
                view["armies"][n] for n in self.g.neighbours[t] if view["owner"][n] != me
            ), -t

        return Trade(cards, bonus_territory=max(eligible, key=exposure))

    def reroll(self, request: Request) -> Answer:
        options = request.options
        return Reroll(reroll_choice(options.attacker_dice, options.defender_dice))

    # ------------------------------------------------------------ setup

    def place(self, request: Request) -> Answer:
        """Setup armies go where the evaluation likes them best (no dice: one world)."""
        self._prepare(request)
        s = self.sim.sample(request.view, self.rng)
        count = request.options.armies
        best_value, best_t = -1.0, request.options.territories[0]
        for t in request.options.territories:
            s.armies[t] += count
            value = self.evaluate(s) + 0.002 * self._attack_potential(s, t)
            s.armies[t] -= count
            if value > best_value:
                best_value, best_t = value, t
        return Place(((best_t, count),))

    def _attack_potential(self, s: ClassicState, t: int) -> float:
        """How close own ``t`` is to taking its weakest foreign neighbour."""
        foes = [s.armies[n] for n in self.g.neighbours[t] if s.owner[n] != self.seat]
        if not foes:
            return -5.0
        return min(5.0, s.armies[t] - min(foes))

    def claim(self, request: Request) -> Answer:
        """Claims as the planner does (a map's worth depends on how the next rounds are
        played, not on its shape alone, and no scoring of claimed maps tried did better)."""
        return self.planner.claim(request)

    def place_neutral(self, request: Request) -> Answer:
        view = request.view
        owner, armies = view["owner"], view["armies"]
        me = self.seat
        rival = next((p for p in range(view["players"]) if p != me), -1)
        g = self.g

        def score(t: int) -> tuple[float, int]:
            c = g.continent_of[t]
            members = g.members[c]
            theirs = sum(1 for m in members if owner[m] == rival) / len(members)
            ours = sum(1 for m in members if owner[m] == me) / len(members)
            near = sum(armies[n] for n in g.neighbours[t] if owner[n] == rival)
            return 3 * (theirs - ours) * g.bonus[c] + 0.2 * near, -t

        return PlaceNeutral(max(request.options.territories, key=score))

    def headquarters(self, request: Request) -> Answer:
        view = request.view
        owner, armies = view["owner"], view["armies"]
        me = self.seat

        def score(t: int) -> tuple[float, int]:
            danger = sum(armies[n] for n in self.g.neighbours[t] if owner[n] != me)
            return armies[t] - danger - 0.5 * len(self.g.neighbours[t]), -t

        return ChooseHeadquarters(max(request.options.territories, key=score))


if __name__ == "__main__":
    nodes = int(sys.argv[sys.argv.index("--nodes") + 1]) if "--nodes" in sys.argv else None
    StrongBot(nodes).run()
