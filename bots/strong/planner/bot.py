"""The planner bot: plans chains of captures by what they gain, cut where exact odds fail.

From each of its territories a bounded depth-first search walks through foreign neighbours,
carrying the stack's expected survivors, and scores every prefix of the walk
(:mod:`.chains`):

- **complete a continent**: its bonus, less the rival armies outside its borders and the
  borders to hold (cheap-to-hold continents first; more for the mission's continents);
- **eliminate a player**: worth more the more cards the victim holds (they come to us and
  may be traded at once);
- **break a continent** an opponent holds, **capture a headquarters** (Capital RISK);
- **the turn's first capture** earns a card; each territory adds income;
- costs: the exact expected losses and the army left behind at each step.

The best chain is cut where its exact success probability
(:func:`arena.sdk.tactics.chain_prefix_odds`) falls below :data:`.chains.GO_ODDS`.
Reinforcements first cover the threatened borders of the continents it holds (and its
headquarters), then go in one stack on the source of the best chain they make possible
(:mod:`.placement`). Every attack decision plans again from the actual position. Captures
move forward when a chain goes on from the new territory, otherwise armies are split by
threat (:mod:`.attacks`); the fortify moves idle interior armies to the most threatened
border (:mod:`.fortify`). Sets are traded as soon as they can be: the most valuable set, its
+2 bonus on the most useful territory (:mod:`.cards`). It defends with the maximum dice.

Frozen: this is the former ``strong`` 1.0, kept unchanged as the fixed reference the ladder
benchmark measures the top bot against (``benchmarks/ladder.py --tables ref3,ref6,ref2``);
the golden games of ``tests/games/classic/golden`` pin its moves, so any change to it shows
there.
"""

from __future__ import annotations

from arena.games.classic.board import SYMBOL_NAMES
from arena.sdk import Bot, MatchInfo, Place, Request, Reroll, Trade
from arena.sdk.classic import Answer
from arena.sdk.tactics import BoardInfo, reroll_choice

from . import attacks, cards, setup_choices
from .chains import Plan, best_plan
from .fortify import fortify
from .placement import guards, stack
from .position import Position


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
        """The chain last planned this turn (its source gets a trade's territory bonus)."""

    def _position(self, request: Request) -> Position:
        return Position(self.board, request.view)

    def claim(self, request: Request) -> Answer:
        return setup_choices.claim(self._position(request), request.options.territories)

    def place(self, request: Request) -> Answer:
        pos = self._position(request)
        count = request.options.armies
        allowed = set(request.options.territories)
        share = guards(pos, count, allowed)
        left = count - sum(share.values())
        if left:
            self.plan = best_plan(pos, extra=left, allowed=allowed)
            target = stack(pos, self.plan, allowed)
            share[target] = share.get(target, 0) + left
        return Place(tuple(sorted(share.items())))

    def reinforce(self, request: Request) -> Answer:
        return self.place(request)

    def place_neutral(self, request: Request) -> Answer:
        return setup_choices.place_neutral(self._position(request), request.options.territories)

    def headquarters(self, request: Request) -> Answer:
        return setup_choices.headquarters(self._position(request), request.options.territories)

    def trade(self, request: Request) -> Answer:
        options = request.options
        if not options.sets:
            return Trade(None)
        chosen = cards.best_set(options.sets, self.symbols, self.sets_rule)
        source = self.plan.source if self.plan else -1
        where = cards.bonus_territory(
            self._position(request), chosen, options.bonus_territories, source
        )
        return Trade(chosen) if where is None else Trade(chosen, bonus_territory=where)

    def attack(self, request: Request) -> Answer:
        pos = self._position(request)
        self.plan = best_plan(pos)
        return attacks.attack(pos, self.plan, request.options.attacks)

    def reroll(self, request: Request) -> Answer:
        options = request.options
        return Reroll(reroll_choice(options.attacker_dice, options.defender_dice))

    def occupy(self, request: Request) -> Answer:
        options = request.options
        pos = self._position(request)
        return attacks.occupy(pos, options.battle, options.min_armies, options.max_armies)

    def fortify(self, request: Request) -> Answer:
        answer = fortify(self._position(request), request.options.fortifies)
        self.plan = None
        return answer


if __name__ == "__main__":
    PlannerBot().run()
