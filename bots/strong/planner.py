"""The planner bot: plans chains of captures by what they gain, cut where exact odds fail.

From each of its territories a bounded depth-first search walks through foreign neighbours,
carrying the stack's expected survivors, and scores every prefix of the walk:

- **complete a continent**: its bonus, less the rival armies outside its borders and the
  borders to hold (cheap-to-hold continents first; more for the mission's continents);
- **eliminate a player**: worth more the more cards the victim holds (they come to us and
  may be traded at once);
- **break a continent** an opponent holds, **capture a headquarters** (Capital RISK);
- **the turn's first capture** earns a card; each territory adds income;
- costs: the exact expected losses and the army left behind at each step.

The best chain is cut where its exact success probability
(:func:`arena.sdk.tactics.chain_prefix_odds`) falls below :data:`GO_ODDS`. Reinforcements
first cover the threatened borders of the continents it holds (and its headquarters), then
go in one stack on the source of the best chain they make possible. Every attack decision
plans again from the actual position. Captures move forward when a chain goes on from the
new territory, otherwise armies are split by threat; the fortify moves idle interior armies
to the most threatened border. Sets are traded as soon as they can be: the most valuable
set, its +2 bonus on the most useful territory. It defends with the maximum dice.

Frozen: this is the former ``strong`` 1.0, kept unchanged as the fixed reference the ladder
benchmark measures the top bot against (``benchmarks/ladder.py --tables ref3,ref6,ref2``);
``bots/planner`` runs it, ``strong`` plays its opening with it, and the golden games of
``tests/games/classic/golden`` pin its moves, so any change to it shows there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from arena.games.classic.board import SYMBOL_NAMES
from arena.games.classic.cards import fixed_value
from arena.games.classic.combat import battle_odds
from arena.games.classic.missions import FALLBACK, MISSIONS, Mission
from arena.sdk import (
    Attack,
    Bot,
    ChooseHeadquarters,
    Claim,
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
from arena.sdk.classic import Answer
from arena.sdk.tactics import BoardInfo, chain_prefix_odds, reroll_choice

GO_ODDS = 0.5
"""A chain is cut where the odds of getting that far fall below this."""
EXACT_ARMIES = 60
"""Chains with more fighting armies than this use a normal approximation (see prefix_odds)."""
ENEMY_INCOME_SHARE = 0.4
"""Share of an adjacent enemy's income counted as threat (it may land on that border)."""


@lru_cache(maxsize=512)
def expected_loss(defenders: int) -> float:
    """Armies an ample attacker expects to lose capturing ``defenders`` armies (exact)."""
    if defenders < 1:
        return 0.0
    if defenders > 40:  # the loss rate is steady by then; save the large exact tables
        return expected_loss(40) * defenders / 40
    attackers = max(60, 3 * defenders)
    outcomes = battle_odds(attackers, defenders).outcomes
    return float(sum(p * (attackers - a) for (a, d), p in outcomes.items() if d == 0))


def prefix_odds(fighting: int, defenders: list[int]) -> list[float]:
    """Odds of getting through each part of a chain: exact, or a normal law for big stacks.

    Armies beyond any plausible need are left out first (within about 1e-4 of the odds).
    Up to ``EXACT_ARMIES`` fighting armies the odds are exact
    (:func:`arena.sdk.tactics.chain_prefix_odds`); bigger battles use the sum of each
    capture's exact expected losses with a variance of about 2.1 per defender, since the
    exact tables grow with the square of the armies and a late-game stack has hundreds.
    """
    fighting = min(fighting, 2 * sum(defenders) + 2 * len(defenders) + 8)
    if fighting <= EXACT_ARMIES:
        return chain_prefix_odds(fighting, defenders)
    odds, mean, variance = [], 0.0, 0.0
    for i, d in enumerate(defenders, start=1):
        mean += expected_loss(d)
        variance += 2.1 * d
        z = (fighting - i + 0.5 - mean) / math.sqrt(max(variance, 1e-9))
        odds.append(0.5 * math.erfc(-z / math.sqrt(2)))
    return odds


@dataclass(frozen=True, slots=True)
class Gains:
    """Worth of captures, in armies: per territory, per completed continent, per elimination."""

    territory: list[float]
    continent: list[float]
    rival_bonus: dict[int, float]
    """Eliminating the seat: a rival fewer, and its cards."""
    first: float
    """The turn's first capture earns a card."""


@dataclass(slots=True)
class Plan:
    """Captures to make this turn from ``source``, in order along ``path``, and their worth."""

    value: float
    source: int
    path: list[int]


class Position:
    """What one view says, with the derived figures every decision uses."""

    def __init__(self, board: BoardInfo, view: dict) -> None:
        self.board = board
        self.view = view
        self.seat: int = view["seat"]
        self.owner: list[int] = view["owner"]
        self.armies: list[int] = view["armies"]
        self.players: int = view["players"]
        out = set(view["eliminated"]) | set(view.get("forfeited") or [])
        self.rivals = [p for p in range(self.players) if p != self.seat and p not in out]
        self.count = [0] * self.players
        self.total = [0] * self.players
        for t, o in enumerate(self.owner):
            if o >= 0:
                self.count[o] += 1
                self.total[o] += self.armies[t]
        self.holder: list[int | None] = []
        for c in range(len(board.continents)):
            first = self.owner[next(iter(board.members(c)))]
            whole = first >= 0 and board.holds(self.owner, first, c)
            self.holder.append(first if whole else None)
        self.income = [max(3, self.count[p] // 3) for p in range(self.players)]
        for c, h in enumerate(self.holder):
            if h is not None:
                self.income[h] += board.bonus(c)
        self.mine = [t for t, o in enumerate(self.owner) if o == self.seat]

    def enemy(self, t: int) -> bool:
        """Owned by a rival seat (neutral and unclaimed territories never attack)."""
        return self.owner[t] >= 0 and self.owner[t] != self.seat

    def foreign(self, t: int) -> bool:
        return self.owner[t] != self.seat

    def danger(self, t: int, ignore: int = -1) -> float:
        """Armies that could attack own territory ``t`` next round, incomes included."""
        near = 0
        incomes: dict[int, int] = {}
        for n in self.board.neighbours[t]:
            if n != ignore and self.enemy(n):
                near += self.armies[n] - 1
                incomes[self.owner[n]] = self.income[self.owner[n]]
        return near + ENEMY_INCOME_SHARE * max(incomes.values(), default=0)

    def danger_to_holder(self, t: int) -> float:
        """Rival armies next to ``t`` other than its owner's: what would face us there."""
        return sum(
            self.armies[n] - 1
            for n in self.board.neighbours[t]
            if self.enemy(n) and self.owner[n] != self.owner[t]
        )

    def exposed(self, t: int) -> bool:
        return any(self.enemy(n) for n in self.board.neighbours[t])


class PlannerBot(Bot):
    """Plans chains of captures by exact odds; holds continents, eliminates, breaks bonuses."""

    name = "planner"
    version = "1.0"
    always_max_defence = True

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.board = BoardInfo(match.board)
        symbol = {name: i for i, name in enumerate(SYMBOL_NAMES)}
        self.symbols = [symbol[s] for s in match.board.get("card_symbols", [])]
        self.sets_rule = str(match.rules.get("sets", "increasing"))
        self.plan: Plan | None = None

    # ------------------------------------------------------------------ goals

    def _mission(self, view: dict) -> Mission | None:
        if not view.get("mission"):
            return None
        mission = MISSIONS[view["mission"]["id"]]
        if mission.kind == "destroy" and mission.target == view["seat"]:
            return FALLBACK
        return mission

    def _card_worth(self, view: dict) -> float:
        """Armies one card is worth, about a third of the next set."""
        value = view.get("next_set_value") or 8
        return value / 3

    def _continent_value(self, pos: Position, c: int) -> float:
        """Worth of holding continent ``c``: its bonus, less what its borders would cost."""
        board = self.board
        value = 2.5 * board.bonus(c)
        outside_threat = 0.0
        for b in board.continent_borders(c):
            for n in board.neighbours[b]:
                if board.continent_of[n] != c and pos.enemy(n):
                    outside_threat += pos.armies[n] - 1
        value -= 0.15 * outside_threat + 0.6 * len(board.continent_borders(c))
        mission = self._mission(pos.view)
        if (
            mission
            and mission.kind == "continents"
            and board.continents[c].name in mission.continents
        ):
            value += 12
        return max(value, 0.5)

    def _importance(self, pos: Position, t: int) -> float:
        """How much own territory ``t`` matters to defend (continent bonus, headquarters)."""
        c = self.board.continent_of[t]
        weight = 0.0
        if pos.holder[c] == pos.seat and t in self.board.continent_borders(c):
            weight = 1.0 + self.board.bonus(c) / 2
        hq = pos.view.get("headquarters") or []
        if pos.seat < len(hq) and hq[pos.seat] == t:
            weight = max(weight, 6.0)
        return weight

    def _keep(self, pos: Position, source: int, target: int) -> int:
        """Armies to leave in ``source`` when it attacks ``target``."""
        importance = self._importance(pos, source)
        if importance <= 0:
            return 1
        need = pos.danger(source, ignore=target) * (1.2 if importance >= 6 else 0.8)
        return max(1, min(pos.armies[source] - 1, math.ceil(need)))

    # ------------------------------------------------------------------ plans

    def _gains(self, pos: Position) -> Gains:
        """What each capture is worth to this seat now (see :class:`Gains`)."""
        board, view = self.board, pos.view
        card = self._card_worth(view)
        mission = self._mission(view)
        territory = [0.0] * board.size
        for t in range(board.size):
            if not pos.foreign(t):
                continue
            value = 1.0 - 0.04 * pos.danger_to_holder(t)
            if self._breaks(pos, t):
                value += 1.5 * board.bonus(board.continent_of[t])
            if mission is not None and mission.kind == "territories":
                value += 0.8
            territory[t] = value
        continent = [self._continent_value(pos, c) for c in range(len(board.continents))]
        rival_bonus = {}
        for p in pos.rivals:
            bonus = 5.0 + view["card_counts"][p] * card * 1.5
            if mission and mission.kind == "destroy" and mission.target == p:
                bonus += 60
            rival_bonus[p] = bonus
        hq = view.get("headquarters") or []
        for p, t in enumerate(hq):
            if p != pos.seat and t >= 0 and pos.owner[t] != pos.seat:
                territory[t] += 14.0
        first = 0.0 if view.get("conquered_this_turn") else card + 1.0
        return Gains(territory, continent, rival_bonus, first)

    def _search(
        self, pos: Position, gains: Gains, source: int, fighting: int, budget: int = 300
    ) -> tuple[float, list[int]]:
        """Best chain of captures from ``source`` with ``fighting`` armies: (score, path).

        A bounded depth-first search; armies are carried as their expected survivors, and the
        chosen chain is then cut where its exact odds (:func:`chain_odds`) fall too low.
        """
        board, owner, armies = self.board, pos.owner, pos.armies
        missing = [
            sum(1 for t in board.members(c) if owner[t] != pos.seat)
            for c in range(len(board.continents))
        ]
        left = {p: pos.count[p] for p in gains.rival_bonus}
        best: tuple[float, list[int]] = (0.0, [])
        path: list[int] = []
        taken: set[int] = set()
        expansions = 0

        def step(here: int, strength: float, score: float) -> None:
            nonlocal best, expansions
            options = [n for n in board.neighbours[here] if owner[n] != pos.seat and n not in taken]
            options.sort(key=lambda n: (armies[n] - gains.territory[n], n))
            for n in options[:4]:
                if expansions >= budget:
                    return
                defenders = armies[n]
                if strength < defenders + 1.5:
                    continue
                expansions += 1
                value = gains.territory[n] - 0.6 * expected_loss(defenders) - 0.35
                if not path:
                    value += gains.first
                c = board.continent_of[n]
                missing[c] -= 1
                if missing[c] == 0:
                    value += gains.continent[c]
                victim = owner[n]
                if victim in left:
                    left[victim] -= 1
                    if left[victim] == 0:
                        value += gains.rival_bonus[victim]
                path.append(n)
                taken.add(n)
                total = score + value
                if total > best[0]:
                    best = (total, list(path))
                step(n, strength - expected_loss(defenders) - 1, total)
                path.pop()
                taken.discard(n)
                missing[c] += 1
                if victim in left:
                    left[victim] += 1

        step(source, float(fighting), 0.0)
        score, chain = best
        # Cut the chain where the exact odds of getting that far are too low.
        odds = prefix_odds(fighting, [armies[t] for t in chain])
        while chain and odds[len(chain) - 1] < GO_ODDS:
            chain = chain[:-1]
        return (score if chain else 0.0), chain

    def _best_plan(
        self, pos: Position, extra: int = 0, allowed: set[int] | None = None
    ) -> Plan | None:
        """The best chain from any own territory, with ``extra`` new armies placed there."""
        gains = self._gains(pos)
        best: Plan | None = None
        sources = [
            t
            for t in pos.mine
            if (allowed is None or t in allowed)
            and any(pos.foreign(n) for n in self.board.neighbours[t])
        ]
        sources.sort(key=lambda t: -pos.armies[t])
        for s in sources[:8]:
            fighting = pos.armies[s] - self._keep(pos, s, -1) + extra
            if fighting < 2:
                continue
            score, chain = self._search(pos, gains, s, fighting)
            if chain and (best is None or score > best.value):
                best = Plan(score, s, chain)
        return best

    # -------------------------------------------------------------- placement

    def _defence_needs(self, pos: Position) -> list[tuple[float, int, int]]:
        """(importance, territory, armies short) for own territories worth defending."""
        needs = []
        for t in pos.mine:
            importance = self._importance(pos, t)
            if importance <= 0:
                continue
            short = math.ceil(pos.danger(t) * (1.1 if importance >= 6 else 0.9)) - pos.armies[t]
            if short > 0:
                needs.append((importance, t, short))
        return sorted(needs, reverse=True)

    def _allocate(self, pos: Position, count: int, allowed: set[int]) -> dict[int, int]:
        """Spread ``count`` new armies: guard what matters, stack the rest for the best chain."""
        share: dict[int, int] = {}
        needs = self._defence_needs(pos)
        guard = min(sum(n for _, _, n in needs), count // 2 if needs else 0)
        if needs and needs[0][0] >= 6:
            guard = min(sum(n for _, _, n in needs), count)  # the headquarters comes first
        for _, t, missing in needs:
            if guard <= 0:
                break
            if t in allowed:
                give = min(missing, guard)
                share[t] = share.get(t, 0) + give
                guard -= give
        left = count - sum(share.values())
        if left:
            plan = self._best_plan(pos, extra=left, allowed=allowed)
            self.plan = plan
            if plan is not None:
                target = plan.source
            else:
                candidates = [t for t in allowed if pos.exposed(t)] or sorted(allowed)
                target = max(candidates, key=lambda t: (pos.danger(t) - pos.armies[t], -t))
            share[target] = share.get(target, 0) + left
        return share

    # -------------------------------------------------------------- decisions

    def claim(self, request: Request) -> Answer:
        pos = Position(self.board, request.view)
        board = self.board

        def score(t: int) -> tuple[float, int]:
            c = board.continent_of[t]
            members = board.members(c)
            ours = sum(1 for m in members if pos.owner[m] == pos.seat)
            free = sum(1 for m in members if pos.owner[m] == -2)
            rival = max(
                (sum(1 for m in members if pos.owner[m] == p) for p in pos.rivals), default=0
            )
            worth = board.bonus(c) / len(board.continent_borders(c))
            value = worth * (1 + ours - 0.8 * rival) / len(members) * 4
            if rival and ours == 0 and rival + free == len(members) and free <= 2:
                value += board.bonus(c)  # the last free territory stops a rival's continent
            value += 0.3 * sum(1 for n in board.neighbours[t] if pos.owner[n] == pos.seat)
            value -= 0.05 * len(board.neighbours[t])
            return value, -t

        return Claim(max(request.options.territories, key=score))

    def place(self, request: Request) -> Answer:
        pos = Position(self.board, request.view)
        options = request.options
        share = self._allocate(pos, options.armies, set(options.territories))
        return Place(tuple(sorted(share.items())))

    def reinforce(self, request: Request) -> Answer:
        return self.place(request)

    def place_neutral(self, request: Request) -> Answer:
        pos = Position(self.board, request.view)
        board = self.board
        rival = pos.rivals[0] if pos.rivals else -1

        def score(t: int) -> tuple[float, int]:
            c = board.continent_of[t]
            members = board.members(c)
            theirs = sum(1 for m in members if pos.owner[m] == rival) / len(members)
            ours = sum(1 for m in members if pos.owner[m] == pos.seat) / len(members)
            near = sum(pos.armies[n] for n in board.neighbours[t] if pos.owner[n] == rival)
            return 3 * theirs * board.bonus(c) - 3 * ours * board.bonus(c) + 0.2 * near, -t

        return PlaceNeutral(max(request.options.territories, key=score))

    def headquarters(self, request: Request) -> Answer:
        pos = Position(self.board, request.view)

        def score(t: int) -> tuple[float, int]:
            return pos.armies[t] - pos.danger(t) - 0.5 * len(self.board.neighbours[t]), -t

        return ChooseHeadquarters(max(request.options.territories, key=score))

    def trade(self, request: Request) -> Answer:
        options = request.options
        if not options.sets:
            return Trade(None)
        cards = options.sets[0]
        if self.sets_rule == "fixed" and self.symbols:
            cards = max(options.sets, key=lambda s: fixed_value(tuple(self.symbols[c] for c in s)))
        pos = Position(self.board, request.view)
        eligible = [c for c in cards if c in options.bonus_territories]
        if not eligible:
            return Trade(cards)
        plan_source = self.plan.source if self.plan else -1

        def useful(t: int) -> tuple[float, int]:
            return (t == plan_source) * 5 + self._importance(pos, t) + pos.danger(t) / 10, -t

        return Trade(cards, bonus_territory=max(eligible, key=useful))

    def attack(self, request: Request) -> Answer:
        pos = Position(self.board, request.view)
        plan = self.plan = self._best_plan(pos)
        if plan is None or plan.value <= 0:
            return EndAttack()
        target = plan.path[0]
        keep = self._keep(pos, plan.source, target)
        for source, to, dice in request.options.attacks:
            if (source, to) == (plan.source, target):
                return Attack(source, target, dice, until=keep, reroll="auto")
        return EndAttack()

    def _breaks(self, pos: Position, t: int) -> bool:
        """Whether capturing ``t`` breaks a rival's whole continent."""
        h = pos.holder[self.board.continent_of[t]]
        return h is not None and h != pos.seat

    def reroll(self, request: Request) -> Answer:
        options = request.options
        return Reroll(reroll_choice(options.attacker_dice, options.defender_dice))

    def occupy(self, request: Request) -> Answer:
        pos = Position(self.board, request.view)
        source, target, _ = request.options.battle
        low, high = request.options.min_armies, request.options.max_armies
        total = pos.armies[source] + pos.armies[target]
        keep = self._keep(pos, source, target)
        gains = self._gains(pos)
        ahead, _ = self._search(pos, gains, target, total - keep - 1, budget=120)
        behind, _ = self._search(pos, gains, source, total - low - 1, budget=120)
        if ahead > 0 and ahead >= behind:
            return Occupy(max(low, min(high, total - keep)))
        if behind > 0:
            return Occupy(low)
        # Nothing more to take from either: split by what each side faces.
        d_source = pos.danger(source) + 3 * self._importance(pos, source)
        d_target = pos.danger(target) + 3 * self._importance(pos, target)
        if d_source + d_target <= 0:
            return Occupy(low)
        moved = round(total * d_target / (d_source + d_target))
        return Occupy(max(low, min(high, moved, total - 1)))

    def fortify(self, request: Request) -> Answer:
        pos = Position(self.board, request.view)
        best: tuple[float, tuple[int, int, int]] | None = None
        for source, target, most in request.options.fortifies:
            if not pos.exposed(target):
                continue
            need = pos.danger(target) - pos.armies[target]
            weight = 1.0 + self._importance(pos, target)
            if pos.exposed(source):
                spare = pos.armies[source] - 1 - math.ceil(pos.danger(source))
                if spare <= 0 or need <= 0 or self._importance(pos, source) > weight - 1:
                    continue
                move = min(most, spare, math.ceil(need))
                score = weight * move
            else:
                move = most
                score = 1000.0 + weight * (need + most)
            if move >= 1 and (best is None or score > best[0]):
                best = (score, (source, target, move))
        self.plan = None
        if best is None:
            return EndTurn()
        return Fortify(*best[1])
