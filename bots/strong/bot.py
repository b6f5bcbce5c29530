"""The strong bot: Monte-Carlo search over the real engine, from its own view only.

Every decision of its own turn that shapes the game (reinforcements, each attack, each
occupation) is a small search (:mod:`.search`): a handful of candidate answers
(:mod:`.candidates`), each played on the engine (:meth:`ClassicRules.apply_unchecked` on
copies) in many sampled worlds, then the game rolled out with a fast attack policy for every
seat (:mod:`.rollout`) until this seat is to reinforce again (the rest of its turn and every
opponent's reply; with two players the rest of its turn only, the reply left to the value),
and that position scored by a learned value. A world
(:class:`arena.sdk.classic.sim.Simulator`) agrees with the view and draws what the view
hides, others' cards, the deck, missions, unrevealed headquarters and the dice, from the
bot's own generator, so it never learns what it may not see. All candidates of one pass
share the same world and dice (common random numbers), so their difference is measured with
little noise; successive halving drops the worse half as evidence grows. The search is
anytime: it stops at a share of the move time, or after a fixed number of rollouts
(``nodes``), which makes a game replayable exactly from the bot's seed.

The value (:mod:`.value`) is the chance that this seat wins, a softmax over the seats still
playing of a linear score of its features (:mod:`.features`: shares of armies, territories
and income, cards in armies, armies at risk next round by exact odds, seats until its turn,
territories on a front, continent bonuses), fitted by ``train_value.py`` on games of the
bundled bots; a secret mission's or the headquarters' progress adds to the seat's armies.

Eliminations come first: when one stack can take every territory of a rival this turn along
one path with exact odds of at least :data:`.kills.KILL_ODDS` (:mod:`.kills`), or several
stacks can (a sweep, :mod:`.sweeps`) in that share of worlds where it is played out
(:mod:`.eliminations`), it commits to it for the turn: the reinforcements go to the path's
source (or one of the sweeping stacks), then it attacks and moves on without a search (the
rollouts' greedy attacks rarely find such a path, and the first elimination of a 3-player
game almost always decides it). The rollouts play eliminations too: every seat follows a
likely one-stack path against a rival down to :data:`.rollout.ROLL_KILL_SIZE` territories.

Fortifying (:mod:`.fortify`) and setup placement (:mod:`.setup_phase`) are judged by the
value alone (there are no dice); neutral placement and headquarters use short heuristics;
sets are traded as soon as they can be (:mod:`.cards`); it always defends with the maximum
dice. It claims as the frozen ``planner`` does, with its own copy of the planner's modules
(:mod:`.planner`), and in a 3-player game it plays the setup and the first round as
``planner`` too: a whole turn planned as one chain of captures opens better there than
decisions searched one by one (:data:`OPENING_ROUNDS`).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence

from arena.games.classic.state import ClassicState, Phase
from arena.sdk import Action, Attack, Bot, MatchInfo, Occupy, Place, Request, Reroll
from arena.sdk.bot import Answer as AnyAnswer
from arena.sdk.classic import Answer
from arena.sdk.classic.sim import Simulator
from arena.sdk.tactics import reroll_choice

from . import candidates, setup_phase
from .cards import trade
from .eliminations import Sweeps, kill_occupy, kill_step
from .fortify import fortify
from .geometry import Geometry
from .kills import likely_kill
from .planner.bot import PlannerBot
from .rollout import Rollout
from .search import THINK_SHARE, Budget, budget_for, halving_search
from .value import Evaluator

OPENING_ROUNDS = 1
OPENING_PLAYERS = 3
"""In a game of exactly this many players, the setup and the first :data:`OPENING_ROUNDS`
rounds are played by the planner's policy, whose reinforcements and chains of captures form
one plan for the turn: the search, judging each decision on its own, sat out the first turn
of a strong claimed opening (see the README, "Three players: three openings")."""


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
        return bool(view["players"] == OPENING_PLAYERS and view["round"] <= OPENING_ROUNDS)

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.sim = Simulator(match)
        self.g = Geometry(self.sim.rules.board)
        self.seat = match.seat
        self.rng = random.Random(match.bot_seed)
        self.evaluate = Evaluator(self.sim, self.g, match.seat)
        self.rollout = Rollout(self.sim, self.g, match.seat, self.evaluate)
        self.sweeps = Sweeps(self.sim, self.g, match.seat, self.rng)
        self.move_time = match.move_time_ms / 1000
        self.bank_ms = match.time_bank_ms
        self.planner = PlannerBot()
        """Plays the claims, and the opening of a 3-player game (see :data:`OPENING_ROUNDS`)."""
        self.planner.start(match)

    # ------------------------------------------------------------ search plumbing

    def _budget(self, request: Request, share: float = THINK_SHARE) -> Budget:
        return budget_for(request, self.nodes, self.move_time, self.bank_ms, self.asked, share)

    def _prepare(self, request: Request) -> None:
        mission = request.view.get("mission")
        self.evaluate.set_mission(mission["id"] if mission else None)

    def _search(
        self,
        request: Request,
        candidates: Sequence[Action],
        prime: Callable[[ClassicState], None] | None = None,
    ) -> Action:
        """The best of ``candidates`` for this decision by :func:`.search.halving_search`."""
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

    # ------------------------------------------------------------ eliminations

    def _plan_kill(self, request: Request, extra: int, sources: Sequence[int] | None) -> int | None:
        """Look for an elimination this turn and commit to it (:attr:`kill`): one stack along
        a path (:func:`.kills.kill_plan`), else a sweep by several stacks whose odds, played
        out in sampled worlds, reach :data:`.kills.KILL_ODDS`. Returns where the
        reinforcements go (or -1 when there are none to place), None when there is no likely
        elimination."""
        view = request.view
        owner, armies = view["owner"], view["armies"]
        path = likely_kill(self.g, owner, armies, self.seat, extra, sources)
        if path is not None:
            self.kill = (owner[path[-1]], path)
            return path[0] if extra else -1
        budget = self._budget(request, THINK_SHARE / 4)
        sweep = self.sweeps.likely(view, extra, sources, budget)
        if sweep is not None:
            self.kill = (sweep[0], None)
            return sweep[1]
        return None

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

    # ------------------------------------------------------------ own turn

    def reinforce(self, request: Request) -> Answer:
        options = request.options
        self.kill = None
        place = self._plan_kill(request, options.armies, options.territories)
        if place is not None and place >= 0:
            return Place(((place, options.armies),))
        return self._search(request, candidates.reinforcements(self.g, self.seat, request))

    def attack(self, request: Request) -> Answer:
        action = self._kill_attack(request)
        if action is not None:
            return action
        return self._search(request, candidates.attacks(self.g, self.seat, request))

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
        if likely_kill(self.g, owner, armies, self.seat, sources=(target,)) is not None:
            return Occupy(high)  # the whole stack goes on with the elimination
        least = options.min_armies

        def prime(s: ClassicState) -> None:
            s.phase = Phase.OCCUPY
            s.occupy = (source, target, least)

        return self._search(request, candidates.occupations(low, high), prime)

    def fortify(self, request: Request) -> Answer:
        self._prepare(request)
        budget = self._budget(request, THINK_SHARE / 2)
        return fortify(self.sim, self.evaluate, self.rng, request, budget)

    def trade(self, request: Request) -> Answer:
        return trade(self.g, self.sim.config.sets == "fixed", self.seat, request)

    def reroll(self, request: Request) -> Answer:
        options = request.options
        return Reroll(reroll_choice(options.attacker_dice, options.defender_dice))

    # ------------------------------------------------------------ setup

    def place(self, request: Request) -> Answer:
        """Setup armies go where the evaluation likes them best (no dice: one world)."""
        self._prepare(request)
        return setup_phase.place(self.sim, self.evaluate, self.g, self.seat, self.rng, request)

    def claim(self, request: Request) -> Answer:
        """Claims as the planner does (a map's worth depends on how the next rounds are
        played, not on its shape alone, and no scoring of claimed maps tried did better)."""
        return self.planner.claim(request)

    def place_neutral(self, request: Request) -> Answer:
        return setup_phase.place_neutral(self.g, self.seat, request)

    def headquarters(self, request: Request) -> Answer:
        return setup_phase.headquarters(self.g, self.seat, request)


if __name__ == "__main__":
    nodes = int(sys.argv[sys.argv.index("--nodes") + 1]) if "--nodes" in sys.argv else None
    StrongBot(nodes).run()
