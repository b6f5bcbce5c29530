"""The aggressive bot: one front, many attacks, each only while the exact odds are good.

Every attack option is scored by the exact probability that the attacking armies capture the
target when both sides roll the maximum (``arena.sdk.tactics.capture_odds``); it
attacks the best target while that probability is at least ``THRESHOLD``, committing half
of the attacking territory's armies at a time, and stops otherwise. Reinforcements all go to
the territory with the best attack; occupation moves everything forward when the new
territory faces enemies; the fortify moves idle interior armies to the front.
"""

from __future__ import annotations

from arena.sdk import (
    Answer,
    Attack,
    Bot,
    Claim,
    EndAttack,
    EndTurn,
    Fortify,
    MatchInfo,
    Occupy,
    Place,
    Request,
    Reroll,
    Trade,
)
from arena.sdk.tactics import capture_odds, reroll_choice

THRESHOLD = 0.6
"""Attack only while the capture probability is at least this."""


class AggressiveBot(Bot):
    """Attacks while its exact capture odds exceed :data:`THRESHOLD`."""

    name = "aggressive"
    version = "1.0"
    always_max_defence = True

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.neighbours = match.board["neighbours"]
        self.continent_of = {
            t: i for i, c in enumerate(match.board["continents"]) for t in c["territories"]
        }
        self.continent_size = [len(c["territories"]) for c in match.board["continents"]]

    # ------------------------------------------------------------ helpers

    def _enemies(self, view: dict, t: int) -> list[int]:
        return [n for n in self.neighbours[t] if view["owner"][n] != view["seat"]]

    def _best_attack(self, view: dict, sources: list[int]) -> tuple[float, int]:
        """Best capture odds from any of ``sources`` against a neighbour, and that source."""
        armies = view["armies"]
        best = (-1.0, sources[0])
        for t in sources:
            for n in self._enemies(view, t):
                odds = capture_odds(armies[t] - 1, armies[n])
                if odds > best[0]:
                    best = (odds, t)
        return best

    # ---------------------------------------------------------- decisions

    def claim(self, request: Request) -> Answer:
        view = request.view
        mine = [self.continent_of[t] for t, o in enumerate(view["owner"]) if o == view["seat"]]

        def score(t: int) -> tuple[float, int]:
            c = self.continent_of[t]
            return (mine.count(c) + 1) / self.continent_size[c], -t

        return Claim(max(request.options.territories, key=lambda t: score(t)))

    def place(self, request: Request) -> Answer:
        return self.reinforce(request)

    def reinforce(self, request: Request) -> Answer:
        view, territories = request.view, list(request.options.territories)
        front = [t for t in territories if self._enemies(view, t)] or territories
        # Pretend the new armies are there, and pick the front with the best attack.
        armies = view["armies"]
        target = max(
            front,
            key=lambda t: max(
                (
                    capture_odds(armies[t] + request.options.armies - 1, armies[n])
                    for n in self._enemies(view, t)
                ),
                default=0.0,
            ),
        )
        return Place.on(target, request.options.armies)

    def trade(self, request: Request) -> Answer:
        return Trade(request.options.sets[0]) if request.options.sets else Trade(None)

    def attack(self, request: Request) -> Answer:
        armies = request.view["armies"]
        best, choice = -1.0, None
        for source, target, dice in request.options.attacks:
            odds = capture_odds(armies[source] - 1, armies[target])
            if odds > best:
                best, choice = odds, (source, target, dice)
        if choice is None or best < THRESHOLD:
            return EndAttack()
        source, target, dice = choice
        return Attack(source, target, dice, until=max(1, armies[source] // 2), reroll="auto")

    def reroll(self, request: Request) -> Answer:
        options = request.options
        return Reroll(reroll_choice(options.attacker_dice, options.defender_dice))

    def occupy(self, request: Request) -> Answer:
        _, target, _ = request.options.battle
        forward = bool(self._enemies(request.view, target))
        return Occupy(request.options.max_armies if forward else request.options.min_armies)

    def fortify(self, request: Request) -> Answer:
        view = request.view
        moves = [
            (source, target, most)
            for source, target, most in request.options.fortifies
            if not self._enemies(view, source) and self._enemies(view, target)
        ]
        if not moves:
            return EndTurn()
        source, target, most = max(moves, key=lambda m: m[2])
        return Fortify(source, target, most)


if __name__ == "__main__":
    AggressiveBot().run()
