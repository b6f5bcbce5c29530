"""The rollouts: a fast policy for every seat played on the engine from a searched answer to
this seat's next turn (with two players, to the opponent's), then scored by the value.

Every seat follows a likely one-stack elimination path against a rival down to
:data:`ROLL_KILL_SIZE` territories, else attacks with a margin (less to complete a continent
or take a player's last territory), moves on with its stack, trades at once and places all
its reinforcements where its attacks look best.
"""

from __future__ import annotations

from arena.games.classic.state import NEUTRAL, ClassicState, Phase
from arena.sdk import Attack, Defend, EndAttack, EndTurn, Occupy, Place, Reroll, Trade
from arena.sdk.classic.sim import Simulator

from .geometry import Geometry
from .kills import KILL_ODDS, ROLL_KILL_STEPS, kill_plan, path_step
from .value import Evaluator

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
