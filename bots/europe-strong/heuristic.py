"""A frozen copy of the ``europe-heuristic`` bot's policy (bots/europe-heuristic, version 1.0):
the rollout policy of every seat in europe-strong's look-ahead, and the source of its candidate
answers and its fallback. Kept as it is so that the search models the reference bot exactly.

Every turn is chosen by scoring candidates: structured turns built from the constraints, and
the request's listed choices. Anything unexpected falls back to choice 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from arena.sdk import Answer, Bot, MatchInfo, Request
from arena.sdk.europe import (
    CROWN_CARD_COST,
    NOBODY,
    SIEGE,
    Bid,
    Cards,
    Casualties,
    EuropeMap,
    Kingdom,
    MercenaryBid,
    Move,
    Recruit,
    Reroll,
    Turn,
    battle_odds,
    cheapest_casualties,
    largest_network,
    units_of,
)

W_CROWN = 16.0
"""Worth of one crown, in coins."""
TILE_WORTH = {"rome": 2, "london": 2, "paris": 2, "madrid": 2, "berlin": 1, "kiev": 1}
GOOD_ODDS = 0.7
EXPAND_CARDS = (3, 4, 5, 6, 7)
CITY_REACH = 2.0
"""Kingdom score per free city within two steps (4 players)."""
BIG_BATTLE = 26
"""Units on both sides beyond which exact odds are replaced by a strength ratio (speed)."""


class EuropeHeuristic(Bot):
    """Plays RISK: Europe from the view, the constraints and the board alone."""

    name = "europe-heuristic"
    version = "1.0"
    games = ("europe",)

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.map = EuropeMap.of(match.board) if match.game == "europe" else None

    def declarations(self, game: str) -> dict[str, Any]:
        return {"castle_reroll": "ask"} if game == "europe" else super().declarations(game)

    def choose(self, request: Request) -> Answer:
        if request.game != "europe":
            return super().choose(request)
        try:
            if self.map is None and self.match is not None:
                self.map = EuropeMap.of(self.match.board)
            method = getattr(self, "_" + request.kind, None)
            answer = method(request) if method is not None else None
            return 0 if answer is None else answer
        except Exception as exc:  # never raise: the first choice is always legal
            self.debug(f"fallback: {exc!r}")
            return 0

    # ----------------------------------------------------------------- helpers

    def _units(self, view: Mapping[str, Any], t: int, army: int) -> tuple[int, int, int, int]:
        return units_of(view, t, army)

    def _enemy(self, view: Mapping[str, Any], army: int, other: int) -> bool:
        """Whether ``other`` is an army ``army`` must fear (anyone else holding land)."""
        if other in (NOBODY, army):
            return False
        me = view["armies"][army]
        seat = view["seat"]
        if me["mercenary"] and other == seat:
            return False
        return not (
            view["armies"][other]["mercenary"]
            and view["armies"][other]["controller"] == seat
            and army == seat
        )

    def _threat(self, view: Mapping[str, Any], army: int, t: int) -> int:
        """The largest enemy stack next to ``t`` (what could expand into it)."""
        assert self.map is not None
        worst = 0
        for u in self.map.adjacent[t]:
            entry = view["territories"][u]
            owner = entry["owner"]
            if self._enemy(view, army, owner):
                worst = max(worst, sum(self._units(view, u, owner)) - 1)
        return worst

    def _odds(self, attack: Sequence[int], defend: Sequence[int], castle: bool) -> float:
        if sum(attack) + sum(defend) > BIG_BATTLE:
            a = attack[0] + 1.5 * (attack[1] + attack[2]) + 3 * attack[3]
            d = (defend[0] + 1.5 * (defend[1] + defend[2]) + 3 * defend[3]) * (1.3 if castle else 1)
            return max(0.0, min(1.0, 0.5 + (a - d) / (2 * max(1.0, d))))
        return battle_odds(attack, defend, castle).attacker

    def _target_worth(self, view: Mapping[str, Any], army: int, t: int) -> float:
        """What holding ``t`` is worth to ``army`` (crowns, tax, room to grow)."""
        m = self.map
        assert m is not None
        worth = 1.5
        if m.tax[t]:
            worth += m.crowns[t] * W_CROWN * 0.8 + m.tax[t] * 2
            worth += TILE_WORTH.get(next((k for k, v in m.tiles.items() if v == t), ""), 0)
        free = 0
        for u in m.adjacent[t]:
            owner = view["territories"][u]["owner"]
            if owner == NOBODY:
                free += 1 + (3 if m.tax[u] else 0)
            elif owner == army:
                worth += 0.5  # links the network
        return worth + 0.4 * free

    # --------------------------------------------------------------- decisions

    def _bid(self, request: Request) -> Any:
        """The marker picks the first kingdom: worth more when each seat places two."""
        top = request.options["max_coins"]
        seats = sum(1 for a in request.view["armies"] if not a["mercenary"])
        return Bid(min(top, 2 if seats == 4 else 3))

    def _mercenary_bid(self, request: Request) -> Any:
        """Small bids, the Mercenary Armies on its borders first (they could strike it)."""
        mercs = request.options["mercenaries"]
        left = request.options["max_total"]
        view = request.view
        bids = dict.fromkeys(mercs, 0)
        for merc in sorted(mercs, key=lambda a: (not self._borders(view, view["seat"], a), a)):
            bid = 2 if left >= 6 else 1 if left >= 3 else 0
            bids[merc] = bid
            left -= bid
        return MercenaryBid(tuple(bids[a] for a in mercs))

    def _borders(self, view: Mapping[str, Any], army: int, other: int) -> bool:
        """Whether ``army`` and ``other`` hold neighbouring territories."""
        assert self.map is not None
        owners = [e["owner"] for e in view["territories"]]
        return any(
            owner == army and any(owners[u] == other for u in self.map.adjacent[t])
            for t, owner in enumerate(owners)
        )

    def _kingdom(self, request: Request) -> Any:
        m, view, opts = self.map, request.view, request.options
        assert m is not None
        army = opts["army"]
        seats = sum(1 for a in view["armies"] if not a["mercenary"])
        best: tuple[float, int] | None = None
        for city in opts["cities"]:
            score = m.tax[city] + m.crowns[city] * 3.0
            tile = next((k for k, v in m.tiles.items() if v == city), "")
            score += TILE_WORTH.get(tile, 1)
            for u in m.adjacent[city]:
                owner = view["territories"][u]["owner"]
                if owner == NOBODY:
                    score += 1.0 + (2.0 if m.tax[u] else 0.0)
                elif owner != army:
                    score -= 3.0
            if seats == 4:  # with two kingdoms each, the second one fills the gaps
                score += CITY_REACH * self._free_cities_near(view, city)
            if best is None or score > best[0]:
                best = (score, city)
        if best is None:
            return None
        city = best[1]
        near = opts["neighbours"].get(str(city), [])
        if not near:
            return Kingdom(city, -1, opts["footmen"])
        step = max(near, key=lambda u: (self._target_worth(view, army, u), -u))
        return Kingdom(city, step, opts["footmen"] - 4)

    def _free_cities_near(self, view: Mapping[str, Any], city: int) -> int:
        """Free cities one or two steps from ``city`` (what a start there can claim soon)."""
        m = self.map
        assert m is not None
        owners = [e["owner"] for e in view["territories"]]
        near = {u for u in m.adjacent[city]}
        near |= {w for u in near if owners[u] == NOBODY for w in m.adjacent[u]}
        return sum(1 for u in near - {city} if m.tax[u] and owners[u] == NOBODY)

    def _cards(self, request: Request) -> Any:
        """The pair whose two turns look best played in this order: expansions while free
        cities are near (a claimed city pays its tax at once), a Spend when a crown card is
        affordable, else a Tax over the network the turn before has grown."""
        hand = request.options["hand"]
        army = request.options["army"]
        view = request.view
        pool = self._free_targets(view, army)
        coins = view["armies"][army]["coins"]
        _, tax = largest_network(view, self.map, army) if self.map else (0, 0)
        crown_ok = view["crown_cards_left"] > 0 and "missions_held" not in view["armies"][army]
        best: tuple[float, int, int] | None = None
        for first in hand:
            for second in hand:
                if first != second:
                    score = _pair_score(first, second, pool, coins, tax, crown_ok)
                    if best is None or score > best[0]:
                        best = (score, first, second)
        return None if best is None else Cards(best[1], best[2])

    _mercenary_cards = _cards

    def _free_targets(self, view: Mapping[str, Any], army: int) -> list[tuple[float, int]]:
        """(worth, coins on claiming) of each free territory next to a stack that can move,
        the best first."""
        m = self.map
        assert m is not None
        free: set[int] = set()
        for t, entry in enumerate(view["territories"]):
            if entry["owner"] == army and sum(self._units(view, t, army)) > 1:
                free.update(u for u in m.adjacent[t] if view["territories"][u]["owner"] == NOBODY)
        found = [
            (m.crowns[u] * W_CROWN * 0.8 + m.tax[u], m.tax[u]) if m.tax[u] else (1.5, 0)
            for u in free
        ]
        return sorted(found, reverse=True)

    def _casualties(self, request: Request) -> Any:
        opts = request.options
        return Casualties(cheapest_casualties(opts["units"], opts["count"]))

    def _reroll(self, request: Request) -> Any:
        opts = request.options
        rank, mine, theirs = opts["rank"], opts["defender_dice"], opts["attacker_dice"]
        if not mine:
            return Reroll(0)
        if rank < 4:
            need = (3, 5, 3)[rank - 1]
            now = sum(1 for d in mine if d >= need)
            expected = len(mine) * (7 - need) / 6
            return Reroll(rank if expected > now + 0.25 else 0)
        now = _net(theirs, mine)
        fresh = [_net(theirs, (a, b)) for a in range(1, 7) for b in range(1, 7)]
        if len(mine) == 1:
            fresh = [_net(theirs, (a,)) for a in range(1, 7)]
        return Reroll(rank if sum(fresh) / len(fresh) > now + 0.1 else 0)

    def _battle_order(self, request: Request) -> Any:
        return 0

    def _mission(self, request: Request) -> Any:
        return 0

    # ------------------------------------------------------------------- turns

    def _turn(self, request: Request) -> Any:
        opts, view = request.options, request.view
        army = opts["army"]
        candidates: list[Any] = list(self._build(view, opts, army))
        scored = [(self._score(view, opts, army, c), i, c) for i, c in enumerate(candidates)]
        listed = [(self._score(view, opts, army, c), -1, c) for c in request.choices[:60]]
        best = max(scored + listed, key=lambda e: e[0], default=None)
        if best is None:
            return 0
        if best[1] == -1:
            return request.choices.index(best[2])
        turn: Turn = best[2]
        return turn

    def _keep(self, view: Mapping[str, Any], army: int, source: dict[str, Any]) -> int:
        """Units to leave on a source: its rule minimum, and a guard for a threatened city."""
        m = self.map
        assert m is not None
        t = source["territory"]
        total = sum(source["units"])
        keep = source.get("expand_keep", 1)
        if m.tax[t] or view["territories"][t]["castle"]:
            keep = max(keep, min(total - 1, self._threat(view, army, t) + 1))
        return max(keep, 1)

    @staticmethod
    def _leaving(
        units: Sequence[int], keep: int, footmen_first: bool
    ) -> tuple[int, int, int, int] | None:
        """Units that may leave keeping ``keep`` behind: the strong ones go (footmen stay) or,
        with ``footmen_first``, footmen go first."""
        have = list(units)
        spare = sum(have) - keep
        if spare <= 0:
            return None
        out = [0, 0, 0, 0]
        kinds = (0, 1, 2, 3) if footmen_first else (3, 2, 1, 0)
        for kind in kinds:
            n = min(spare, have[kind])
            out[kind] = n
            spare -= n
        return (out[0], out[1], out[2], out[3])

    def _build(self, view: Mapping[str, Any], opts: Mapping[str, Any], army: int) -> list[Turn]:
        orders = opts["orders"]
        found: list[Turn] = []
        if "tax" in orders and opts["tax_cities"]:
            city = max(opts["tax_cities"], key=lambda e: (e["coins"], -e["territory"]))
            found.append(Turn("tax", tax_city=city["territory"]))
        if "spend" in orders:
            spend = self._spend(view, opts, army)
            if spend is not None:
                found.append(spend)
        if "expand" in orders or "split_expand" in orders:
            found.extend(self._expands(view, opts, army, split="split_expand" in orders))
        if "manoeuvre" in orders:
            found.extend(self._manoeuvres(view, opts, army))
        found.append(Turn())
        return [self._with_bonus(view, opts, army, turn) for turn in found]

    def _spend(self, view: Mapping[str, Any], opts: Mapping[str, Any], army: int) -> Turn | None:
        m = self.map
        assert m is not None
        coins = opts["coins"]
        reserve = list(opts["reserve"])
        costs = opts["unit_costs"]
        places = opts["recruit_to"]
        crown = bool(opts["crown_card"]) and coins >= CROWN_CARD_COST
        if crown:
            coins -= CROWN_CARD_COST
        recruits: dict[int, list[int]] = {}
        if places:
            castle_place = self._castle_front(view, army, places)
            if castle_place is not None and coins >= costs[SIEGE] and reserve[SIEGE]:
                recruits.setdefault(castle_place, [0, 0, 0, 0])[SIEGE] += 1
                coins -= costs[SIEGE]
                reserve[SIEGE] -= 1
            ranked = sorted(places, key=lambda t: (-self._threat(view, army, t), t))[:2]
            for i, place in enumerate(ranked):
                share = coins if i == len(ranked) - 1 else coins // 2
                footmen = min(share // costs[0], reserve[0])
                if footmen:
                    recruits.setdefault(place, [0, 0, 0, 0])[0] += footmen
                    coins -= footmen * costs[0]
                    reserve[0] -= footmen
        if not crown and not recruits:
            return None
        return Turn(
            "spend",
            recruits=tuple(
                Recruit(t, (u[0], u[1], u[2], u[3])) for t, u in sorted(recruits.items())
            ),
            crown=crown,
        )

    def _castle_front(
        self, view: Mapping[str, Any], army: int, places: Sequence[int]
    ) -> int | None:
        """A recruit place next to an enemy castle, when the army has no siege weapon there."""
        m = self.map
        assert m is not None
        for t in places:
            if self._units(view, t, army)[SIEGE]:
                continue
            for u in m.adjacent[t]:
                entry = view["territories"][u]
                if entry["castle"] and self._enemy(view, army, entry["owner"]) and m.tax[u]:
                    return t
        return None

    def _expands(
        self, view: Mapping[str, Any], opts: Mapping[str, Any], army: int, split: bool
    ) -> list[Turn]:
        order = "split_expand" if split else "expand"
        found: list[Turn] = []
        for source in opts["sources"]:
            keep = self._keep(view, army, source)
            targets = source["expand_to"]
            if not targets:
                continue
            free = [e for e in targets if view["territories"][e["territory"]]["owner"] == NOBODY]
            spare = sum(source["units"]) - keep
            if spare <= 0:
                continue
            # claims: about half of what may leave (more for a city), footmen first
            free.sort(key=lambda e: -self._target_worth(view, army, e["territory"]))
            here, total = source["territory"], sum(source["units"])
            for e in free[:3]:
                claim = self._claim(view, army, e["territory"], spare)
                share = self._leaving(source["units"], total - claim, True)
                if share is not None:
                    found.append(Turn(order, moves=(Move(here, e["territory"], share),)))
            if split and spare >= 2:
                for a, b in ((0, 1), (0, 2), (1, 2)):
                    if b >= len(free):
                        continue
                    ta, tb = free[a]["territory"], free[b]["territory"]
                    big = min(spare - 1, self._claim(view, army, ta, spare))
                    if self._onward(view, tb) > self._onward(view, ta):
                        big = min(big, self._claim(view, army, ta, 1))
                    first = self._leaving(source["units"], total - big, True)
                    if first is None:
                        continue
                    rest = [n - k for n, k in zip(source["units"], first, strict=True)]
                    second = self._leaving(rest, sum(rest) - (spare - big), True)
                    if second is not None and any(second):
                        found.append(
                            Turn(order, moves=(Move(here, ta, first), Move(here, tb, second)))
                        )
            # attacks: everything that may leave, strongest first
            attack = self._leaving(source["units"], keep, False)
            if attack is None:
                continue
            for e in targets:
                u = e["territory"]
                owner = view["territories"][u]["owner"]
                if owner == NOBODY:
                    continue
                if e["needs_siege"] and not attack[SIEGE]:
                    continue
                found.append(Turn(order, moves=(Move(source["territory"], u, attack),)))
        return found

    def _onward(self, view: Mapping[str, Any], target: int) -> int:
        """Free territories next to ``target`` (room to go on expanding from it)."""
        assert self.map is not None
        return sum(
            1 for u in self.map.adjacent[target] if view["territories"][u]["owner"] == NOBODY
        )

    def _claim(self, view: Mapping[str, Any], army: int, target: int, spare: int) -> int:
        """Units to send into a free territory: enough to hold a city against its strongest
        enemy neighbour, and half of the spare ones where there is room to go on."""
        assert self.map is not None
        threat = self._threat(view, army, target)
        need = threat + 1 if self.map.tax[target] and threat else 1
        if self._onward(view, target):
            need = max(need, (spare + 1) // 2)
        return max(1, min(spare, need))

    def _manoeuvres(
        self, view: Mapping[str, Any], opts: Mapping[str, Any], army: int
    ) -> list[Turn]:
        found: list[Turn] = []
        for source in opts["sources"]:
            routes = source.get("manoeuvre_to")
            if not routes:
                continue
            t = source["territory"]
            if self._threat(view, army, t) > 0:
                continue
            keep = max(source.get("manoeuvre_keep", 0), 1 if sum(source["units"]) > 1 else 0)
            moving = self._leaving(source["units"], keep, False)
            if moving is None:
                continue
            best = max(
                routes, key=lambda r: (self._threat(view, army, r["territory"]), -r["territory"])
            )
            if self._threat(view, army, best["territory"]) > 0 or not self._threat(view, army, t):
                found.append(
                    Turn("manoeuvre", moves=(Move(t, best["territory"], moving, best["via"]),))
                )
        return found

    def _with_bonus(
        self, view: Mapping[str, Any], opts: Mapping[str, Any], army: int, turn: Turn
    ) -> Turn:
        m = self.map
        assert m is not None
        bonus = opts["bonus"]
        if bonus == "fortify":
            places = [
                t
                for t, e in enumerate(view["territories"])
                if e["owner"] == army and (m.tax[t] or e["castle"])
            ]
            if places:
                target = max(
                    places,
                    key=lambda t: (
                        self._threat(view, army, t)
                        - sum(self._units(view, t, army))
                        + (50 if view["territories"][t]["attacker"] != NOBODY else 0),
                        -t,
                    ),
                )
                return replace(turn, bonus="fortify", bonus_target=target)
        elif bonus == "siege_assault":
            best: tuple[float, int, int] | None = None
            for t, e in enumerate(view["territories"]):
                if (
                    e["owner"] != army
                    or e["attacker"] != NOBODY
                    or not self._units(view, t, army)[SIEGE]
                ):
                    continue
                for u in m.land[t]:
                    target = view["territories"][u]
                    if self._enemy(view, army, target["owner"]) and target["attacker"] == NOBODY:
                        worth = self._target_worth(view, army, u) / (
                            1 + sum(self._units(view, u, target["owner"]))
                        )
                        if best is None or worth > best[0]:
                            best = (worth, t, u)
            if best is not None:
                return replace(
                    turn,
                    bonus="siege_assault",
                    bonus_first=True,
                    bonus_source=best[1],
                    bonus_target=best[2],
                )
        return turn

    def _score(
        self, view: Mapping[str, Any], opts: Mapping[str, Any], army: int, turn: Any
    ) -> float:
        """How good a turn looks (coins as the unit)."""
        if not isinstance(turn, Turn):
            return -1e9
        m = self.map
        assert m is not None
        score = 0.0
        order = turn.order
        if order == "tax":
            coins = next(
                (e["coins"] for e in opts["tax_cities"] if e["territory"] == turn.tax_city), 0
            )
            score += coins
        elif order == "spend":
            coins = opts["coins"]
            spent = 0
            if turn.crown:
                score += W_CROWN
                spent += CROWN_CARD_COST
            for r in turn.recruits:
                threat = self._threat(view, army, r.territory)
                for kind, n in enumerate(r.units):
                    cost = opts["unit_costs"][kind]
                    spent += cost * n
                    worth = 0.6 if threat else 0.25
                    if kind == SIEGE:
                        worth = (
                            1.2
                            if self._castle_front(view, army, [r.territory]) == r.territory
                            else 0.3
                        )
                    score += n * cost * worth
            score += 0.05 * len(turn.castles)
            score -= 0.3 * max(0, spent - coins)
        elif order in ("expand", "split_expand"):
            for move in turn.moves:
                score += self._move_worth(view, army, move)
        elif order == "manoeuvre":
            for move in turn.moves:
                gain = self._threat(view, army, move.target) - self._threat(view, army, move.source)
                score += 0.15 * sum(move.units) * (1 if gain > 0 else 0.2)
        if turn.bonus == "fortify":
            score += 2.5 + 0.2 * self._threat(view, army, turn.bonus_target)
        elif turn.bonus == "siege_assault":
            score += 2.0
        return score

    def _move_worth(self, view: Mapping[str, Any], army: int, move: Move) -> float:
        m = self.map
        assert m is not None
        target = view["territories"][move.target]
        owner = target["owner"]
        left = sum(self._units(view, move.source, army)) - sum(move.units)
        penalty = 0.0
        if m.tax[move.source] or view["territories"][move.source]["castle"]:
            threat = self._threat(view, army, move.source)
            if left <= threat:
                penalty = (threat - left + 1) * 1.5 + m.crowns[move.source] * 4
        if owner == NOBODY:
            worth = self._target_worth(view, army, move.target)
            exposed = self._threat(view, army, move.target)
            if exposed >= sum(move.units) and m.tax[move.target]:
                worth *= 0.6
            return worth + 0.05 * sum(move.units) - penalty
        defender = self._units(view, move.target, owner)
        p = self._odds(move.units, defender, bool(target["castle"]))
        if p < GOOD_ODDS:
            return -5.0
        worth = self._target_worth(view, army, move.target) + 0.5 * sum(defender)
        return p * worth - (1 - p) * sum(move.units) * 0.8 - penalty


def _pair_score(
    first: int, second: int, pool: list[tuple[float, int]], coins: int, tax: int, crown_ok: bool
) -> float:
    """What playing ``first`` then ``second`` brings, claiming from ``pool`` in turn."""
    pool = list(pool)
    score = 0.0
    for card in (first, second):
        if card in EXPAND_CARDS:
            for _ in range(2 if card >= 6 else 1):
                if pool:
                    worth, gain = pool.pop(0)
                    score += worth
                    coins += gain
                    tax += gain or 1
                else:
                    score += 0.5
            score += 2.0 if card in (3, 4) else 0.5 if card == 5 else 0.0
        elif crown_ok and coins >= CROWN_CARD_COST:
            score += W_CROWN
            coins -= CROWN_CARD_COST
            crown_ok = False
        else:
            score += tax
            coins += tax
        score += 0.5 if card == 2 else 0.0
    return score + 0.03 * coins


def _net(attacker: Sequence[int], defender: Sequence[int]) -> int:
    """The defender's general-attack hits less the attacker's (ties to the defender)."""
    score = 0
    for a, d in zip(sorted(attacker, reverse=True), sorted(defender, reverse=True), strict=False):
        score += 1 if d >= a else -1
    return score
