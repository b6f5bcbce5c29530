"""The defensive bot: fortified borders, few and sure attacks, cards traded as late as allowed.

New armies go to the border territory most threatened (adjacent enemy armies that could
attack it, minus its own armies); when every border is safe they go where the surest attack
can be staged. It attacks only at exact capture odds of at least ``THRESHOLD``: the best
such attack once per turn to earn a card, more only when the attacking territory keeps
enough armies against its own threat. Interior armies fortify the most threatened border.
It trades a set only when it must.
"""

from __future__ import annotations

from arena.sdk import (
    Answer,
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
from arena.sdk.tactics import BoardInfo, capture_odds, reroll_choice, threat

THRESHOLD = 0.8
"""Attack only when the capture probability is at least this."""


class DefensiveBot(Bot):
    """Keeps its borders stronger than the armies that could attack them."""

    name = "defensive"
    version = "1.0"
    always_max_defence = True

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.board = BoardInfo(match.board)

    # ------------------------------------------------------------ helpers

    def _enemy_near(self, view: dict, t: int) -> bool:
        return self.board.faces_other(view["owner"], view["seat"], t)

    def _need(self, view: dict, t: int) -> int:
        return threat(view, self.board, t) - view["armies"][t]

    def _best_attack_odds(self, view: dict, t: int, extra: int = 0) -> float:
        armies, owner = view["armies"], view["owner"]
        return max(
            (
                capture_odds(armies[t] + extra - 1, armies[n])
                for n in self.board.neighbours[t]
                if owner[n] != view["seat"]
            ),
            default=0.0,
        )

    def _reinforce_target(self, view: dict, territories: list[int], count: int) -> int:
        """The most threatened border; when all are safe, the best place to stage an attack."""
        hq = set(view.get("headquarters") or [])
        border = [t for t in territories if self._enemy_near(view, t)] or territories

        def danger(t: int) -> tuple[int, int, int]:
            bonus = 2 if t in hq else 0
            return self._need(view, t) + bonus, threat(view, self.board, t), -t

        worst = max(border, key=danger)
        if danger(worst)[0] > 0:
            return worst
        return max(border, key=lambda t: (self._best_attack_odds(view, t, count), -t))

    # ---------------------------------------------------------- decisions

    def claim(self, request: Request) -> Answer:
        owner, seat = request.view["owner"], request.view["seat"]

        def score(t: int) -> tuple[float, int]:
            near = self.board.neighbours[t]
            mine = sum(1 for n in near if owner[n] == seat)
            foes = sum(1 for n in near if owner[n] >= 0 and owner[n] != seat)
            c = self.board.continent_of[t]
            members = self.board.members(c)
            held = sum(1 for m in members if owner[m] == seat) / len(members)
            small = 1.0 / len(self.board.continent_borders(c))
            return 2 * mine - foes - 0.3 * len(near) + 2 * held + small, -t

        return Claim(max(request.options.territories, key=score))

    def place(self, request: Request) -> Answer:
        options = request.options
        t = self._reinforce_target(request.view, list(options.territories), options.armies)
        return Place.on(t, options.armies)

    def place_neutral(self, request: Request) -> Answer:
        owner, armies, seat = request.view["owner"], request.view["armies"], request.view["seat"]

        def score(t: int) -> tuple[int, int, int]:
            near = self.board.neighbours[t]
            rival = sum(armies[n] for n in near if owner[n] >= 0 and owner[n] != seat)
            mine = sum(armies[n] for n in near if owner[n] == seat)
            return rival, -mine, -t

        return PlaceNeutral(max(request.options.territories, key=score))

    def headquarters(self, request: Request) -> Answer:
        view, armies = request.view, request.view["armies"]

        def score(t: int) -> tuple[int, int, int]:
            foes = sum(1 for n in self.board.neighbours[t] if view["owner"][n] != view["seat"])
            return armies[t] - threat(view, self.board, t), -foes, -t

        return ChooseHeadquarters(max(request.options.territories, key=score))

    def trade(self, request: Request) -> Answer:
        options = request.options
        if not options.required or not options.sets:
            return Trade(None)
        cards = options.sets[0]
        eligible = [c for c in cards if c in options.bonus_territories]
        if not eligible:
            return Trade(cards)
        view = request.view
        return Trade(cards, bonus_territory=max(eligible, key=lambda t: (self._need(view, t), -t)))

    def reinforce(self, request: Request) -> Answer:
        return self.place(request)

    def attack(self, request: Request) -> Answer:
        view, armies = request.view, request.view["armies"]
        first = not view["conquered_this_turn"]
        best: tuple[float, tuple[int, int, int]] | None = None
        for source, dest, dice in request.options.attacks:
            odds = capture_odds(armies[source] - 1, armies[dest])
            if odds < THRESHOLD:
                continue
            if not first:
                spare = armies[source] - 1 - armies[dest]
                if spare <= threat(view, self.board, source):
                    continue
            if best is None or odds > best[0]:
                best = (odds, (source, dest, dice))
        if best is None:
            return EndAttack()
        source, dest, dice = best[1]
        return Attack(source, dest, dice, until=max(1, armies[source] // 3), reroll="auto")

    def reroll(self, request: Request) -> Answer:
        options = request.options
        return Reroll(reroll_choice(options.attacker_dice, options.defender_dice))

    def occupy(self, request: Request) -> Answer:
        view, options = request.view, request.options
        source, dest, _ = options.battle
        low, high = options.min_armies, options.max_armies
        if not self._enemy_near(view, dest):
            return Occupy(low)
        total = view["armies"][source] + view["armies"][dest]
        back, front = threat(view, self.board, source), threat(view, self.board, dest)
        if back + front == 0:
            return Occupy(high)
        forward = round(total * front / (back + front))
        return Occupy(min(high, max(low, forward)))

    def fortify(self, request: Request) -> Answer:
        view, armies = request.view, request.view["armies"]
        best: tuple[float, tuple[int, int, int]] | None = None
        for source, dest, most in request.options.fortifies:
            if not self._enemy_near(view, dest):
                continue
            need = self._need(view, dest)
            if self._enemy_near(view, source):
                spare = armies[source] - 1 - threat(view, self.board, source)
                if spare <= 0 or need <= 0:
                    continue
                move = min(most, spare, need)
                score = float(need)
            else:
                move = most
                score = 1000.0 + need + most / 100
            if best is None or score > best[0]:
                best = (score, (source, dest, move))
        if best is None:
            return EndTurn()
        return Fortify(*best[1])


if __name__ == "__main__":
    DefensiveBot().run()
