"""The continent bot: takes and holds the continents that are cheapest to defend.

Continents are scored by bonus per border territory and by how much of each the bot already
holds; it claims and places in its target continent, reinforces the borders of the
continents it holds (most threatened first) and stages the rest next to the target, attacks
only into its target continent (or to break a rival's continent) at capture odds of at least
``THRESHOLD``, moves forward after a capture and fortifies interior armies to the borders.
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

THRESHOLD = 0.55
"""Attack only while the capture probability is at least this."""
CARD_THRESHOLD = 0.8
"""With no capture yet this turn, any attack this sure is taken to earn a card."""


class ContinentBot(Bot):
    """Concentrates on the continent with the best bonus per border it can still take."""

    name = "continent"
    version = "1.0"
    always_max_defence = True

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.board = BoardInfo(match.board)

    # ------------------------------------------------------------ helpers

    def _enemy_near(self, view: dict, t: int) -> bool:
        return self.board.faces_other(view["owner"], view["seat"], t)

    def _score(self, view: dict, c: int) -> float:
        """How attractive continent ``c`` is for this seat."""
        seat, owner, armies = view["seat"], view["owner"], view["armies"]
        members = self.board.members(c)
        mine = sum(1 for t in members if owner[t] == seat)
        free = sum(1 for t in members if owner[t] == -2)
        foes = sum(armies[t] for t in members if owner[t] not in (seat, -2))
        ours = sum(armies[t] for t in members if owner[t] == seat)
        value = self.board.bonus(c) / len(self.board.continent_borders(c))
        share = (mine + 0.5 * free) / len(members)
        return value * (0.4 + share) + 1.5 * share - 0.04 * max(0, foes - ours)

    def _target(self, view: dict) -> int | None:
        """The best continent not yet held that this seat touches."""
        seat, owner = view["seat"], view["owner"]
        best: tuple[float, int] | None = None
        for c in range(len(self.board.continents)):
            if self.board.holds(owner, seat, c):
                continue
            members = self.board.members(c)
            touch = any(
                owner[t] == seat or any(owner[n] == seat for n in self.board.neighbours[t])
                for t in members
            )
            if not touch:
                continue
            score = self._score(view, c)
            if best is None or score > best[0]:
                best = (score, c)
        return best[1] if best else None

    def _held(self, view: dict) -> list[int]:
        return [
            c
            for c in range(len(self.board.continents))
            if self.board.holds(view["owner"], view["seat"], c)
        ]

    def _allocate(self, view: dict, territories: list[int], count: int) -> dict[int, int]:
        """Spread ``count`` new armies: threatened borders first, the rest to stage attacks."""
        armies = list(view["armies"])
        owned = set(territories)
        guard = {t for c in self._held(view) for t in self.board.continent_borders(c)} & owned
        for t in view.get("headquarters") or []:
            if t in owned:
                guard.add(t)
        share: dict[int, int] = {}
        left = count
        while left:
            needy = [(threat(view, self.board, t) - armies[t], t) for t in guard]
            needy = [(n, t) for n, t in needy if n > 0]
            if not needy:
                break
            _, t = max(needy)
            armies[t] += 1
            share[t] = share.get(t, 0) + 1
            left -= 1
        if left:
            stage = self._stage(view, territories)
            share[stage] = share.get(stage, 0) + left
        return share

    def _stage(self, view: dict, territories: list[int]) -> int:
        """Own territory from which to attack into the target continent."""
        seat, owner, armies = view["seat"], view["owner"], view["armies"]
        target = self._target(view)
        best: tuple[float, int] | None = None
        for t in territories:
            for n in self.board.neighbours[t]:
                if owner[n] == seat:
                    continue
                inside = target is not None and self.board.continent_of[n] == target
                score = (2.0 if inside else 0.0) + armies[t] / (armies[n] + armies[t])
                if self.board.continent_of[t] == target:
                    score += 0.5
                if best is None or score > best[0]:
                    best = (score, t)
        if best is not None:
            return best[1]
        return max(territories, key=lambda t: (threat(view, self.board, t), armies[t], -t))

    # ---------------------------------------------------------- decisions

    def claim(self, request: Request) -> Answer:
        view, owner, seat = request.view, request.view["owner"], request.view["seat"]
        options = request.options.territories
        by_continent: dict[int, float] = {}
        for t in options:
            c = self.board.continent_of[t]
            if c not in by_continent:
                by_continent[c] = self._score(view, c)

        def score(t: int) -> tuple[float, int, int]:
            mine = sum(1 for n in self.board.neighbours[t] if owner[n] == seat)
            return by_continent[self.board.continent_of[t]], mine, -t

        return Claim(max(options, key=score))

    def place(self, request: Request) -> Answer:
        share = self._allocate(request.view, list(request.options.territories), 1)
        placements = dict(share)
        extra = request.options.armies - 1
        if extra:
            t = next(iter(placements))
            placements[t] += extra
        return Place(tuple(sorted(placements.items())))

    def place_neutral(self, request: Request) -> Answer:
        view, owner, armies, seat = (
            request.view,
            request.view["owner"],
            request.view["armies"],
            request.view["seat"],
        )
        target = self._target(view)

        def score(t: int) -> tuple[float, int]:
            rival = sum(
                armies[n] for n in self.board.neighbours[t] if owner[n] >= 0 and owner[n] != seat
            )
            c = self.board.continent_of[t]
            members = self.board.members(c)
            rival_share = sum(1 for m in members if owner[m] >= 0 and owner[m] != seat) / len(
                members
            )
            mine = 3.0 if c == target else 0.0
            return rival + 4 * rival_share - mine, -t

        return PlaceNeutral(max(request.options.territories, key=score))

    def headquarters(self, request: Request) -> Answer:
        view, armies = request.view, request.view["armies"]
        target = self._target(view)

        def score(t: int) -> tuple[int, int, int]:
            inside = self.board.continent_of[t] == target
            return armies[t] - threat(view, self.board, t), inside, -t

        return ChooseHeadquarters(max(request.options.territories, key=score))

    def trade(self, request: Request) -> Answer:
        options = request.options
        if not options.sets:
            return Trade(None)
        cards = options.sets[0]
        eligible = [c for c in cards if c in options.bonus_territories]
        if not eligible:
            return Trade(cards)
        view = request.view
        bonus = max(eligible, key=lambda t: (threat(view, self.board, t), -t))
        return Trade(cards, bonus_territory=bonus)

    def reinforce(self, request: Request) -> Answer:
        options = request.options
        share = self._allocate(request.view, list(options.territories), options.armies)
        return Place(tuple(sorted(share.items())))

    def attack(self, request: Request) -> Answer:
        view, owner, armies = request.view, request.view["owner"], request.view["armies"]
        target = self._target(view)
        held_by_rival = {
            c
            for c in range(len(self.board.continents))
            if any(
                self.board.holds(owner, s, c) for s in range(view["players"]) if s != view["seat"]
            )
        }
        best: tuple[float, tuple[int, int, int]] | None = None
        for source, dest, dice in request.options.attacks:
            odds = capture_odds(armies[source] - 1, armies[dest])
            c = self.board.continent_of[dest]
            wanted = c == target or c in held_by_rival
            if wanted and odds >= THRESHOLD:
                score = odds + (0.5 if c == target else 0.0)
            elif not view["conquered_this_turn"] and odds >= CARD_THRESHOLD:
                score = odds - 1.0
            else:
                continue
            if best is None or score > best[0]:
                best = (score, (source, dest, dice))
        if best is None:
            return EndAttack()
        source, dest, dice = best[1]
        until = max(1, armies[source] // 4)
        return Attack(source, dest, dice, until=until, reroll="auto")

    def reroll(self, request: Request) -> Answer:
        options = request.options
        return Reroll(reroll_choice(options.attacker_dice, options.defender_dice))

    def occupy(self, request: Request) -> Answer:
        view, options = request.view, request.options
        source, dest, _ = options.battle
        low, high = options.min_armies, options.max_armies
        if not self._enemy_near(view, dest):
            return Occupy(low)
        # The captured territory is now ours in spirit: weigh both sides' threats.
        back = threat(view, self.board, source)
        keep = min(high - low, max(0, back - 1))
        return Occupy(max(low, high - keep))

    def fortify(self, request: Request) -> Answer:
        view, armies = request.view, request.view["armies"]
        best: tuple[float, tuple[int, int, int]] | None = None
        for source, dest, most in request.options.fortifies:
            need = threat(view, self.board, dest) - armies[dest]
            if not self._enemy_near(view, dest):
                continue
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
    ContinentBot().run()
