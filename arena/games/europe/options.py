"""Legal options of a RISK: Europe decision: constraints, plus a bounded list of
representative complete actions.

The constraints say what is allowed without listing every action (per source: the units
that may leave and where to; what may be bought and where; which cities may be taxed). The
representative choices are legal complete actions, built so that a bot with no rules code
can always answer by index, in a fixed order (``0`` is the documented default where it is
one): they are a sample, not every action.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import permutations
from typing import Any

from arena.games.europe import battle, orders
from arena.games.europe.actions import (
    Action,
    BattleOrder,
    Bid,
    Cards,
    Casualties,
    KeepMission,
    Kingdom,
    MercenaryBid,
    Move,
    Recruit,
    Reroll,
    Turn,
    Units,
)
from arena.games.europe.board import (
    CROWN_CARD_COST,
    SIEGE,
    START_FOOTMEN,
    UNIT_COSTS,
    Board,
    Card,
)
from arena.games.europe.config import ARMIES
from arena.games.europe.network import manoeuvre_routes, network, tax_value
from arena.games.europe.rules import MAX_BID, EuropeRules
from arena.games.europe.state import NOBODY, EuropeState

MAX_EXPANDS = 24
MAX_SPLITS = 6
MAX_MANOEUVRES = 12
MAX_TAXES = 8
MAX_RECRUIT_PLACES = 3


@dataclass(frozen=True, slots=True)
class EuropeOptions:
    """One decision's options: its kind, the army it is for, the constraints (plain JSON,
    ``army`` among them: a Mercenary Army's controller decides for that army) and the
    representative choices."""

    kind: str
    army: int
    constraints: dict[str, Any]
    listed: tuple[Action, ...]


def legal_options(rules: EuropeRules, state: EuropeState, seat: int) -> EuropeOptions:
    decision = rules.decision(state)
    assert decision is not None
    kind = decision.kind
    army = seat if decision.simultaneous else rules.acting_army(state)
    constraints, listed = _BUILDERS[kind](rules, state, army)
    constraints["army"] = army
    return EuropeOptions(kind, army, constraints, tuple(listed))


Built = tuple[dict[str, Any], list[Action]]


def _bid(rules: EuropeRules, state: EuropeState, army: int) -> Built:
    top = min(MAX_BID, state.coins[army])
    return {"max_coins": top}, [Bid(c) for c in range(top + 1)]


def _mercenary_bid(rules: EuropeRules, state: EuropeState, army: int) -> Built:
    mercs = rules.mercenaries_alive(state)
    coins = state.coins[army]
    listed: list[Action] = [MercenaryBid(tuple(0 for _ in mercs))]
    for k in range(len(mercs)):
        for c in (1, 2, 3, 5, 8):
            if c <= coins:
                listed.append(MercenaryBid(tuple(c if i == k else 0 for i in range(len(mercs)))))
    if len(mercs) > 1:
        for c in (1, 2, 4):
            if c * len(mercs) <= coins:
                listed.append(MercenaryBid(tuple(c for _ in mercs)))
    return {"mercenaries": mercs, "max_total": coins}, listed


def _kingdom(rules: EuropeRules, state: EuropeState, army: int) -> Built:
    board = rules.board
    free = [c for c in board.gold_cities if state.owner[c] == NOBODY]
    neighbours = {
        c: [t for t in board.adjacent[c] if not board.tax[t] and state.owner[t] == NOBODY]
        for c in free
    }
    listed: list[Action] = []
    for city in free:
        listed.append(Kingdom(city, -1, START_FOOTMEN))
        for t in neighbours[city]:
            listed.append(Kingdom(city, t, 7))
            listed.append(Kingdom(city, t, 5))
    return {
        "cities": free,
        "neighbours": {str(c): ts for c, ts in neighbours.items()},
        "footmen": START_FOOTMEN,
        "castle": state.kingdoms[army] == 0,
    }, listed


def _cards(rules: EuropeRules, state: EuropeState, army: int) -> Built:
    held = [c for c in range(8) if state.hand[army] >> c & 1]
    return {"hand": held}, [Cards(a, b) for a, b in permutations(held, 2)]


def _mission(rules: EuropeRules, state: EuropeState, army: int) -> Built:
    assert state.drawn is not None
    return {"drawn": list(state.drawn)}, [KeepMission(0), KeepMission(1)]


def _battle_order(rules: EuropeRules, state: EuropeState, army: int) -> Built:
    listed = sorted(state.disputes)
    orders_: list[Action] = [BattleOrder(tuple(listed))]
    if len(listed) > 1:
        orders_.append(BattleOrder(tuple(reversed(listed))))
    return {"territories": listed}, orders_


def _reroll(rules: EuropeRules, state: EuropeState, army: int) -> Built:
    fight = state.battle
    assert fight is not None
    return {
        "territory": fight.territory,
        "rank": fight.rank,
        "attacker_dice": list(fight.attacker_dice),
        "defender_dice": list(fight.defender_dice),
    }, [Reroll(0), Reroll(fight.rank)]


def _casualties(rules: EuropeRules, state: EuropeState, army: int) -> Built:
    loss = state.losses[0]
    have = state.of(loss.territory, loss.army)
    listed: list[Action] = [
        Casualties(battle.cheapest(state, loss.territory, loss.army, loss.count))
    ]
    for keep_first in range(4):  # spare one type as long as possible
        order = [k for k in range(4) if k != keep_first] + [keep_first]
        left, taken = loss.count, [0, 0, 0, 0]
        for kind in order:
            n = min(left, have[kind])
            taken[kind] = n
            left -= n
        choice = Casualties((taken[0], taken[1], taken[2], taken[3]))
        if choice not in listed:
            listed.append(choice)
    return {"territory": loss.territory, "count": loss.count, "units": list(have)}, listed


# ------------------------------------------------------------------------- turns


def _movable(state: EuropeState, board: Board, army: int, source: int, keep: int) -> Units | None:
    """Units that may leave ``source`` keeping ``keep`` behind (footmen stay first)."""
    have = list(state.of(source, army))
    spare = sum(have) - keep
    if spare <= 0:
        return None
    stay = keep
    for kind in range(4):
        n = min(stay, have[kind])
        have[kind] -= n
        stay -= n
    return (have[0], have[1], have[2], have[3])


def _half(units: Units) -> Units:
    half = tuple((n + 1) // 2 for n in units)
    return (half[0], half[1], half[2], half[3])


def _minus(a: Units, b: Units) -> Units:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3])


def _expand_keep(state: EuropeState, army: int, source: int) -> int:
    attacker = state.attacker[source]
    return max(1, state.count(source, attacker)) if attacker != NOBODY else 1


def expand_targets(state: EuropeState, board: Board, army: int, source: int) -> list[int]:
    """Neighbours an Expand from ``source`` may enter (castle rule aside)."""
    owner, attacker = state.owner, state.attacker
    return [t for t in board.adjacent[source] if attacker[t] == NOBODY and owner[t] != army]


def _turn_constraints(
    rules: EuropeRules, state: EuropeState, army: int, card: Card
) -> dict[str, Any]:
    board = rules.board
    sources = []
    for t in range(board.size):
        if state.owner[t] != army:
            continue
        entry: dict[str, Any] = {"territory": t, "units": list(state.of(t, army))}
        entry["expand_keep"] = _expand_keep(state, army, t)
        entry["expand_to"] = [
            {"territory": u, "needs_siege": state.owner[u] != NOBODY and state.castle[u]}
            for u in expand_targets(state, board, army, t)
        ]
        if state.attacker[t] == NOBODY:
            routes = manoeuvre_routes(state, board, army, t)
            entry["manoeuvre_keep"] = 1 if (board.tax[t] or state.castle[t]) else 0
            entry["manoeuvre_to"] = [{"territory": u, "via": v} for u, v in sorted(routes.items())]
        sources.append(entry)
    cities = [
        {"territory": c, "coins": tax_value(board, network(state, board, army, c))}
        for c in board.cities
        if state.owner[c] == army and state.attacker[c] == NOBODY
    ]
    return {
        "card": card.id,
        "orders": list(card.orders),
        "bonus": card.bonus,
        "sources": sources,
        "coins": state.coins[army],
        "reserve": list(state.reserve[army * 4 : army * 4 + 4]),
        "unit_costs": list(UNIT_COSTS),
        "recruit_to": sorted(orders.recruit_places(state, board, army)),
        "castle_cost": orders.castle_cost(state, board, army),
        "castles_left": state.castles_left,
        "castle_to": [
            t
            for t in range(board.size)
            if state.owner[t] == army and state.attacker[t] == NOBODY and not state.castle[t]
        ],
        "crown_card": _crown_allowed(rules, state, army),
        "tax_cities": cities,
        "berlin": state.owner[board.tiles["berlin"]] == army,
    }


def _crown_allowed(rules: EuropeRules, state: EuropeState, army: int) -> bool:
    return (
        not rules.config.missions
        and army < state.n  # a Mercenary Army's crowns never count: it buys none
        and not state.bought_crown[army]
        and state.crown_cards_left > 0
        and state.coins[army] >= CROWN_CARD_COST
    )


def _turn(rules: EuropeRules, state: EuropeState, army: int) -> Built:
    board = rules.board
    card = board.deck[rules.card(state, army)]
    constraints = _turn_constraints(rules, state, army, card)
    base: list[Turn] = [Turn()]
    for order in card.orders:
        base.extend(_ORDER_SAMPLES[order](rules, state, army, constraints))
    listed: list[Action] = list(base)
    if card.bonus == "fortify":
        targets = _fortify_targets(state, board, army)
        if targets:
            for turn in base[: 1 + MAX_EXPANDS // 2]:
                listed.append(_with(turn, bonus="fortify", bonus_target=targets[0]))
            for t in targets[1:4]:
                listed.append(Turn(bonus="fortify", bonus_target=t))
    elif card.bonus == "siege_assault":
        pairs = _siege_pairs(state, board, army)
        for source, target in pairs[:4]:
            listed.append(
                Turn(
                    bonus="siege_assault",
                    bonus_first=True,
                    bonus_source=source,
                    bonus_target=target,
                )
            )
        if pairs:
            source, target = pairs[0]
            for turn in base[1:7]:
                listed.append(
                    _with(
                        turn,
                        bonus="siege_assault",
                        bonus_first=True,
                        bonus_source=source,
                        bonus_target=target,
                    )
                )
    return constraints, listed


def _with(turn: Turn, **changes: Any) -> Turn:
    return replace(turn, **changes)


def _fortify_targets(state: EuropeState, board: Board, army: int) -> list[int]:
    found = [
        t for t in range(board.size) if state.owner[t] == army and (board.tax[t] or state.castle[t])
    ]
    found.sort(key=lambda t: (state.attacker[t] == NOBODY, t))  # disputed ones first
    return found


def _siege_pairs(state: EuropeState, board: Board, army: int) -> list[tuple[int, int]]:
    pairs = []
    for source in range(board.size):
        if (
            state.owner[source] == army
            and state.attacker[source] == NOBODY
            and state.units[(source * ARMIES + army) * 4 + SIEGE]
        ):
            for target in sorted(board.land[source]):
                owner = state.owner[target]
                if owner not in (army, NOBODY) and state.attacker[target] == NOBODY:
                    pairs.append((source, target))
    return pairs


def _tax_samples(
    rules: EuropeRules, state: EuropeState, army: int, c: dict[str, Any]
) -> list[Turn]:
    cities = sorted(c["tax_cities"], key=lambda e: (-e["coins"], e["territory"]))
    return [Turn("tax", tax_city=e["territory"]) for e in cities[:MAX_TAXES]]


def _spend_samples(
    rules: EuropeRules, state: EuropeState, army: int, c: dict[str, Any]
) -> list[Turn]:
    coins = c["coins"]
    reserve = c["reserve"]
    places = c["recruit_to"][:MAX_RECRUIT_PLACES]
    found: list[Turn] = []
    if c["crown_card"]:
        found.append(Turn("spend", crown=True))
    for place in places:
        footmen = min(coins, reserve[0])
        if footmen:
            found.append(Turn("spend", recruits=(Recruit(place, (footmen, 0, 0, 0)),)))
    if places:
        place = places[0]
        cavalry = min(coins // UNIT_COSTS[2], reserve[2])
        if cavalry:
            found.append(Turn("spend", recruits=(Recruit(place, (0, 0, cavalry, 0)),)))
        archers = min(coins // UNIT_COSTS[1], reserve[1])
        if archers:
            found.append(Turn("spend", recruits=(Recruit(place, (0, archers, 0, 0)),)))
        if coins >= UNIT_COSTS[SIEGE] and reserve[SIEGE]:
            rest = min(coins - UNIT_COSTS[SIEGE], reserve[0])
            found.append(Turn("spend", recruits=(Recruit(place, (rest, 0, 0, 1)),)))
        if c["crown_card"] and coins - CROWN_CARD_COST > 0 and reserve[0]:
            rest = min(coins - CROWN_CARD_COST, reserve[0])
            found.append(Turn("spend", recruits=(Recruit(place, (rest, 0, 0, 0)),), crown=True))
    if c["castles_left"] and coins >= c["castle_cost"] and c["castle_to"]:
        for t in sorted(c["castle_to"], key=lambda t: (not rules.board.tax[t], t))[:2]:
            found.append(Turn("spend", castles=(t,)))
    return found


def _expand_samples(
    rules: EuropeRules, state: EuropeState, army: int, c: dict[str, Any]
) -> list[Turn]:
    board = rules.board
    ranked: list[tuple[int, Turn]] = []
    for entry in c["sources"]:
        source = entry["territory"]
        movable = _movable(state, board, army, source, entry["expand_keep"])
        if movable is None:
            continue
        for target in entry["expand_to"]:
            t = target["territory"]
            if target["needs_siege"] and not movable[SIEGE]:
                continue
            owner = state.owner[t]
            rank = (0 if board.tax[t] else 1) if owner == NOBODY else 2
            ranked.append((rank, Turn("expand", moves=(Move(source, t, movable),))))
            half = _half(movable)
            if half != movable and any(half) and (not target["needs_siege"] or half[SIEGE]):
                ranked.append((rank + 1, Turn("expand", moves=(Move(source, t, half),))))
    ranked.sort(key=lambda pair: pair[0])
    return [turn for _, turn in ranked[:MAX_EXPANDS]]


def _split_samples(
    rules: EuropeRules, state: EuropeState, army: int, c: dict[str, Any]
) -> list[Turn]:
    board = rules.board
    found: list[Turn] = []
    for entry in c["sources"]:
        source = entry["territory"]
        movable = _movable(state, board, army, source, entry["expand_keep"])
        if movable is None or sum(movable) < 2:
            continue
        half = _half(movable)
        rest = _minus(movable, half)
        if not sum(rest):
            continue
        targets = entry["expand_to"]
        for i, a in enumerate(targets):
            for b in targets[i + 1 :]:
                if (a["needs_siege"] and not half[SIEGE]) or (b["needs_siege"] and not rest[SIEGE]):
                    continue
                found.append(
                    Turn(
                        "split_expand",
                        moves=(
                            Move(source, a["territory"], half),
                            Move(source, b["territory"], rest),
                        ),
                    )
                )
                if len(found) >= MAX_SPLITS:
                    return found
        if targets:
            single = targets[0]
            if not single["needs_siege"] or movable[SIEGE]:
                found.append(
                    Turn("split_expand", moves=(Move(source, single["territory"], movable),))
                )
                if len(found) >= MAX_SPLITS:
                    return found
    return found


def _manoeuvre_samples(
    rules: EuropeRules, state: EuropeState, army: int, c: dict[str, Any]
) -> list[Turn]:
    board = rules.board
    found: list[Turn] = []
    for entry in c["sources"]:
        if "manoeuvre_to" not in entry:
            continue
        source = entry["territory"]
        movable = _movable(state, board, army, source, entry["manoeuvre_keep"])
        if movable is None:
            continue
        routes = sorted(
            entry["manoeuvre_to"],
            key=lambda r: (state.attacker[r["territory"]] == NOBODY, r["territory"]),
        )
        for route in routes[:2]:
            found.append(
                Turn("manoeuvre", moves=(Move(source, route["territory"], movable, route["via"]),))
            )
            if len(found) >= MAX_MANOEUVRES:
                return found
    return found


_ORDER_SAMPLES = {
    "tax": _tax_samples,
    "spend": _spend_samples,
    "expand": _expand_samples,
    "split_expand": _split_samples,
    "manoeuvre": _manoeuvre_samples,
}

_BUILDERS = {
    "bid": _bid,
    "mercenary_bid": _mercenary_bid,
    "kingdom": _kingdom,
    "cards": _cards,
    "mercenary_cards": _cards,
    "turn": _turn,
    "mission": _mission,
    "battle_order": _battle_order,
    "reroll": _reroll,
    "casualties": _casualties,
}
