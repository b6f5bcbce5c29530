"""A turn: the revealed card's order, its bonus action and Berlin's free manoeuvre.

A turn is applied part by part in its own sequence (bonus first or after the order, then
the free manoeuvre); with ``check`` every part is validated against the state the parts
before it left, raising :class:`IllegalActionError` with the reason. A check rolls no dice:
the parts after a Siege Assault are judged against the position before its dice (as if it
scored no hits, the strictest case), so a verdict never depends on dice not yet rolled and a
refused turn reveals nothing about them. A Siege Assault whose target's owner chooses its
casualties pauses the turn (:func:`play` returns the next part); what its dice did only ever
widens what the rest of the turn could have done, so a turn is checked whole before any of
it is applied.
"""

from __future__ import annotations

from arena.errors import IllegalActionError
from arena.games.api import Event
from arena.games.europe import battle, missions
from arena.games.europe.actions import NONE, Move, Turn, Units
from arena.games.europe.board import (
    CASTLE_COST,
    CROWN_CARD_COST,
    SIEGE,
    UNIT_COSTS,
    UNIT_TYPES,
    Board,
    Card,
)
from arena.games.europe.config import ARMIES, EuropeConfig
from arena.games.europe.network import manoeuvre_routes, network, tax_value
from arena.games.europe.state import NOBODY, EuropeState

BERLIN_CASTLE_DISCOUNT = 3
CONSTANTINOPLE_ESCORT = 4
"""Free footmen with each siege weapon Constantinople's holder recruits."""
FORTIFY_CITY = 3
FORTIFY_CASTLE = 4
TAX_TILES = {"london": (0, 2, 0, 0), "paris": (1, 0, 1, 0), "madrid": (4, 0, 0, 0)}
"""Free units the Tax tiles place in their own city each time a Tax reaches it."""
EXPANDS = ("expand", "split_expand")


def _fail(reason: str) -> IllegalActionError:
    return IllegalActionError(reason)


def parts(turn: Turn) -> list[str]:
    """The turn's parts in the order they happen."""
    sequence = ["order"]
    if turn.bonus != NONE:
        sequence.insert(0 if turn.bonus_first else 1, "bonus")
    if turn.free_manoeuvre is not None:
        sequence.append("free")
    return sequence


def check_shape(state: EuropeState, board: Board, card: Card, army: int, turn: Turn) -> None:
    """What the card allows and which fields go with which order (before any state check)."""
    if turn.order != NONE and turn.order not in card.orders:
        raise _fail(
            f"card {card.id} offers {card.orders[0]} or {card.orders[1]} (or none), "
            f"not {turn.order!r}"
        )
    order = turn.order
    if turn.moves and order not in (*EXPANDS, "manoeuvre"):
        raise _fail(f"moves go with expand, split_expand or manoeuvre, not {order}")
    if (turn.recruits or turn.castles or turn.crown) and order != "spend":
        raise _fail(f"recruits, castles and crown go with spend, not {order}")
    if turn.tax_city >= 0 and order != "tax":
        raise _fail(f"tax_city goes with tax, not {order}")
    if turn.bonus != NONE:
        if card.bonus not in ("fortify", "siege_assault") or turn.bonus != card.bonus:
            offered = card.bonus if card.bonus in ("fortify", "siege_assault") else "no"
            raise _fail(f"card {card.id} has {offered} bonus action to use, not {turn.bonus!r}")
    elif turn.bonus_first or turn.bonus_source >= 0 or turn.bonus_target >= 0:
        raise _fail("bonus_first, bonus_source and bonus_target go with a bonus action")
    if turn.free_manoeuvre is not None and order not in EXPANDS:
        raise _fail("the free manoeuvre follows an expand or split_expand only")
    for t in _territories(turn):
        if not 0 <= t < board.size:
            raise _fail(f"no territory {t} (territories are 0-{board.size - 1})")


def _territories(turn: Turn) -> list[int]:
    found = [t for m in turn.moves for t in (m.source, m.target)]
    found += [r.territory for r in turn.recruits] + list(turn.castles)
    if turn.tax_city >= 0:
        found.append(turn.tax_city)
    if turn.bonus != NONE:
        found += [t for t in (turn.bonus_source, turn.bonus_target) if t >= 0]
    if turn.free_manoeuvre is not None:
        found += [turn.free_manoeuvre.source, turn.free_manoeuvre.target]
    vias = [m.via for m in turn.moves] + (
        [turn.free_manoeuvre.via] if turn.free_manoeuvre is not None else []
    )
    return found + [v for v in vias if v != -1]


def play(
    state: EuropeState,
    board: Board,
    config: EuropeConfig,
    army: int,
    turn: Turn,
    events: list[Event],
    check: bool,
    start: int = 0,
) -> int | None:
    """Apply the turn's parts from ``start``; the index of the next part when a Siege
    Assault's casualties wait for their owner's answer, else None (the turn is done)."""
    sequence = parts(turn)
    for index in range(start, len(sequence)):
        part = sequence[index]
        if part == "order":
            _order(state, board, config, army, turn, events, check)
        elif part == "bonus":
            _bonus(state, board, config, army, turn, events, check)
            if state.losses and index + 1 < len(sequence):
                return index + 1
        else:
            assert turn.free_manoeuvre is not None
            if check and state.owner[board.tiles["berlin"]] != army:
                raise _fail("the free manoeuvre needs Berlin's tile (hold Saxony)")
            _manoeuvre(state, board, army, turn.free_manoeuvre, events, check, free=True)
    return None


# --------------------------------------------------------------------------- orders


def _order(
    state: EuropeState,
    board: Board,
    config: EuropeConfig,
    army: int,
    turn: Turn,
    events: list[Event],
    check: bool,
) -> None:
    order = turn.order
    if order in EXPANDS:
        _expand(state, board, army, turn.moves, order == "split_expand", events, check)
    elif order == "manoeuvre":
        if check and len(turn.moves) != 1:
            raise _fail(f"a manoeuvre is one move, got {len(turn.moves)}")
        _manoeuvre(state, board, army, turn.moves[0], events, check)
    elif order == "spend":
        _spend(state, board, config, army, turn, events, check)
    elif order == "tax":
        _tax(state, board, config, army, turn.tax_city, events, check)


def _check_units(units: Units, what: str) -> int:
    if len(units) != 4 or any(n < 0 for n in units):
        raise _fail(f"{what} must be 4 counts ≥ 0 (footmen, archers, cavalry, siege), got {units}")
    total = sum(units)
    if total == 0:
        raise _fail(f"{what} moves no units")
    return total


def _move_units(state: EuropeState, source: int, target: int, army: int, units: Units) -> None:
    s = (source * ARMIES + army) * 4
    d = (target * ARMIES + army) * 4
    u = state.units
    for kind in range(4):
        n = units[kind]
        if n:
            u[s + kind] -= n
            u[d + kind] += n


def _expand(
    state: EuropeState,
    board: Board,
    army: int,
    moves: tuple[Move, ...],
    split: bool,
    events: list[Event],
    check: bool,
) -> None:
    if check:
        _check_expand(state, board, army, moves, split)
    for move in moves:
        target = move.target
        _move_units(state, move.source, target, army, move.units)
        defender = state.owner[target]
        if defender == NOBODY:
            state.owner[target] = army
            claimed = _claim(state, board, army, target)
            events.append(
                {
                    "type": "expand",
                    "army": army,
                    "source": move.source,
                    "target": target,
                    "units": list(move.units),
                    "claimed": True,
                    "tax": claimed,
                }
            )
        else:
            state.attacker[target] = army
            state.disputes.append(target)
            events.append(
                {
                    "type": "expand",
                    "army": army,
                    "source": move.source,
                    "target": target,
                    "units": list(move.units),
                    "claimed": False,
                    "defender": defender,
                }
            )


def _claim(state: EuropeState, board: Board, army: int, territory: int) -> int:
    """An unclaimed territory becomes ``army``'s; a city's crown goes on it and its tax
    value is paid (the tile comes with the city). Returns the coins paid."""
    tax = board.tax[territory]
    if tax:
        state.coins[army] += tax
    return tax


def _check_expand(
    state: EuropeState, board: Board, army: int, moves: tuple[Move, ...], split: bool
) -> None:
    name = "split_expand" if split else "expand"
    if not moves or len(moves) > (2 if split else 1):
        raise _fail(f"{name} takes {'one or two moves' if split else 'one move'}, got {len(moves)}")
    source = moves[0].source
    if any(m.source != source for m in moves):
        raise _fail("a split_expand moves from one territory into two")
    if len({m.target for m in moves}) != len(moves):
        raise _fail("a split_expand's two moves need two different targets")
    if state.owner[source] != army:
        if state.attacker[source] == army:
            raise _fail(f"only the defender may expand out of disputed {board.names[source]}")
        raise _fail(f"{board.names[source]} is not yours")
    have = state.of(source, army)
    moving = [0, 0, 0, 0]
    for move in moves:
        _check_units(move.units, "a move")
        if move.via != -1:
            raise _fail("an expand goes to a neighbour: no via")
        target = move.target
        if target not in board.adjacent[source]:
            raise _fail(f"{board.names[target]} is not next to {board.names[source]}")
        if state.attacker[target] != NOBODY:
            raise _fail(f"{board.names[target]} is already disputed")
        owner = state.owner[target]
        if owner == army:
            raise _fail(f"{board.names[target]} is already yours: manoeuvre there instead")
        if owner != NOBODY and state.castle[target] and move.units[SIEGE] == 0:
            raise _fail(
                f"{board.names[target]} has a castle: the expanding units need a siege weapon"
            )
        for kind in range(4):
            moving[kind] += move.units[kind]
    for kind in range(4):
        if moving[kind] > have[kind]:
            raise _fail(
                f"{board.names[source]} holds {have[kind]} {UNIT_TYPES[kind]}, "
                f"{moving[kind]} cannot move"
            )
    left = sum(have) - sum(moving)
    keep = 1
    if state.attacker[source] != NOBODY:
        keep = max(1, state.count(source, state.attacker[source]))
    if left < keep:
        raise _fail(
            f"leave at least {keep} unit{'s' if keep > 1 else ''} in {board.names[source]}"
            + (" (as many as the attacker has there)" if keep > 1 else "")
        )


def _manoeuvre(
    state: EuropeState,
    board: Board,
    army: int,
    move: Move,
    events: list[Event],
    check: bool,
    free: bool = False,
) -> None:
    source, target = move.source, move.target
    via = move.via
    if check:
        if state.owner[source] != army:
            raise _fail(f"{board.names[source]} is not yours")
        if state.attacker[source] != NOBODY:
            raise _fail(f"no manoeuvre out of disputed {board.names[source]}")
        routes = manoeuvre_routes(state, board, army, source)
        if target not in routes:
            raise _fail(
                f"{board.names[target]} is not within two steps of {board.names[source]} "
                "through your own territory"
            )
        if via not in (-1, routes[target]) and not _valid_via(
            state, board, army, source, target, via
        ):
            raise _fail(
                f"{board.names[via]} is not a way from {board.names[source]} "
                f"to {board.names[target]} through your own undisputed territory"
            )
        _check_units(move.units, "a manoeuvre")
        have = state.of(source, army)
        for kind in range(4):
            if move.units[kind] > have[kind]:
                raise _fail(
                    f"{board.names[source]} holds {have[kind]} {UNIT_TYPES[kind]}, "
                    f"{move.units[kind]} cannot move"
                )
        if (board.tax[source] or state.castle[source]) and sum(have) - sum(move.units) < 1:
            raise _fail(f"leave at least 1 unit in {board.names[source]} (a city or castle)")
    _move_units(state, source, target, army, move.units)
    if state.count(source, army) == 0:
        state.owner[source] = NOBODY
    events.append(
        {
            "type": "manoeuvre",
            "army": army,
            "source": source,
            "target": target,
            "units": list(move.units),
            "free": free,
        }
    )


def _valid_via(
    state: EuropeState, board: Board, army: int, source: int, target: int, via: int
) -> bool:
    return (
        via in board.adjacent[source]
        and target in board.adjacent[via]
        and state.owner[via] == army
        and state.attacker[via] == NOBODY
    )


def castle_cost(state: EuropeState, board: Board, army: int) -> int:
    """12 coins, 3 fewer for Berlin's holder."""
    berlin = state.owner[board.tiles["berlin"]] == army
    return CASTLE_COST - (BERLIN_CASTLE_DISCOUNT if berlin else 0)


def recruit_places(
    state: EuropeState, board: Board, army: int, castles: tuple[int, ...] = ()
) -> set[int]:
    """Where ``army`` may place recruits: own undisputed cities and castle territories (and
    ``castles`` about to be built), plus, for Kiev's holder, its own undisputed territories
    linked to Kiev."""
    owner, attacker, castle, tax = state.owner, state.attacker, state.castle, board.tax
    places = {
        t
        for t in range(board.size)
        if owner[t] == army and attacker[t] == NOBODY and (tax[t] or castle[t] or t in castles)
    }
    kiev = board.tiles["kiev"]
    if owner[kiev] == army:
        places.update(network(state, board, army, kiev))
    return places


def _spend(
    state: EuropeState,
    board: Board,
    config: EuropeConfig,
    army: int,
    turn: Turn,
    events: list[Event],
    check: bool,
) -> None:
    cost = castle_cost(state, board, army) * len(turn.castles)
    totals = [0, 0, 0, 0]
    for recruit in turn.recruits:
        for kind in range(4):
            totals[kind] += recruit.units[kind]
    cost += sum(n * c for n, c in zip(totals, UNIT_COSTS, strict=True))
    if turn.crown:
        cost += CROWN_CARD_COST
    if check:
        _check_spend(state, board, config, army, turn, totals, cost)
    state.coins[army] -= cost
    for t in turn.castles:
        state.castle[t] = True
        state.castles_left -= 1
    placed = []
    for recruit in turn.recruits:
        base = (recruit.territory * ARMIES + army) * 4
        for kind in range(4):
            n = recruit.units[kind]
            if n:
                state.units[base + kind] += n
                state.reserve[army * 4 + kind] -= n
        placed.append({"territory": recruit.territory, "units": list(recruit.units), "free": 0})
    if state.owner[board.tiles["constantinople"]] == army:
        for recruit, entry in zip(turn.recruits, placed, strict=True):
            escort = CONSTANTINOPLE_ESCORT * recruit.units[SIEGE]
            if escort:
                entry["free"] = _free_units(state, army, recruit.territory, (escort, 0, 0, 0))[0]
    if turn.crown:
        state.crown_cards[army] += 1
        state.crown_cards_left -= 1
        state.bought_crown[army] = True
    events.append(
        {
            "type": "spend",
            "army": army,
            "cost": cost,
            "castles": list(turn.castles),
            "recruits": placed,
            "crown": turn.crown,
        }
    )


def _check_spend(
    state: EuropeState,
    board: Board,
    config: EuropeConfig,
    army: int,
    turn: Turn,
    totals: list[int],
    cost: int,
) -> None:
    if len(set(turn.castles)) != len(turn.castles):
        raise _fail("one castle per territory")
    if len(turn.castles) > state.castles_left:
        raise _fail(f"the bank has {state.castles_left} castles left")
    for t in turn.castles:
        if state.owner[t] != army or state.attacker[t] != NOBODY:
            raise _fail(f"a castle goes on your own undisputed territory, not {board.names[t]}")
        if state.castle[t]:
            raise _fail(f"{board.names[t]} already has a castle")
    places = recruit_places(state, board, army, turn.castles)
    seen: set[int] = set()
    for recruit in turn.recruits:
        t = recruit.territory
        if t in seen:
            raise _fail(f"recruits for {board.names[t]} are listed twice")
        seen.add(t)
        units = recruit.units
        if len(units) != 4 or any(n < 0 for n in units) or sum(units) == 0:
            raise _fail(f"recruits for {board.names[t]} must be 4 counts ≥ 0, not all 0")
        if t not in places:
            raise _fail(
                f"recruits go on your own undisputed city or castle territories, "
                f"not {board.names[t]}"
            )
    for kind in range(4):
        if totals[kind] > state.reserve[army * 4 + kind]:
            raise _fail(
                f"your army reserve holds {state.reserve[army * 4 + kind]} "
                f"{UNIT_TYPES[kind]}, not {totals[kind]}"
            )
    if turn.crown:
        if army >= state.n:
            raise _fail("a Mercenary Army never buys crown cards (its crowns never count)")
        if config.missions:
            raise _fail("crown cards are not for sale in the Kingdom Missions variant")
        if state.bought_crown[army]:
            raise _fail("one crown card per player per round")
        if state.crown_cards_left <= 0:
            raise _fail("the bank has no crown card left")
    if cost > state.coins[army]:
        raise _fail(f"this spend costs {cost} coins; you have {state.coins[army]}")


def _tax(
    state: EuropeState,
    board: Board,
    config: EuropeConfig,
    army: int,
    city: int,
    events: list[Event],
    check: bool,
) -> None:
    if check:
        if not 0 <= city < board.size or not board.tax[city]:
            raise _fail("tax names one of your cities (tax_city)")
        if state.owner[city] != army:
            raise _fail(f"{board.city[city] or board.names[city]} is not yours")
        if state.attacker[city] != NOBODY:
            raise _fail(f"{board.city[city]} is disputed: it gives nothing")
    linked = network(state, board, army, city)
    coins = tax_value(board, linked) + missions.tax_bonus(state, army)
    state.coins[army] += coins
    bonuses = []
    for tile, units in TAX_TILES.items():
        where = board.tiles[tile]
        if where in linked:
            given = _free_units(state, army, where, units)
            bonuses.append({"tile": tile, "territory": where, "units": list(given)})
    events.append(
        {
            "type": "tax",
            "army": army,
            "city": city,
            "network": linked,
            "coins": coins,
            "tiles": bonuses,
        }
    )
    missions.after_tax(state, army, events)


def _free_units(state: EuropeState, army: int, territory: int, units: Units) -> Units:
    """Place free units from the army reserve (as many as it still holds)."""
    base = (territory * ARMIES + army) * 4
    given = [0, 0, 0, 0]
    for kind in range(4):
        n = min(units[kind], state.reserve[army * 4 + kind])
        if n:
            given[kind] = n
            state.reserve[army * 4 + kind] -= n
            state.units[base + kind] += n
    return (given[0], given[1], given[2], given[3])


# --------------------------------------------------------------------------- bonuses


def has_siege(state: EuropeState, army: int) -> bool:
    """Whether ``army`` has a siege weapon anywhere on the board."""
    u = state.units
    return any(u[(t * ARMIES + army) * 4 + SIEGE] for t in range(len(state.owner)))


def _bonus(
    state: EuropeState,
    board: Board,
    config: EuropeConfig,
    army: int,
    turn: Turn,
    events: list[Event],
    check: bool,
) -> None:
    target = turn.bonus_target
    if turn.bonus == "fortify":
        if check:
            if turn.bonus_source >= 0:
                raise _fail("fortify names bonus_target only")
            if not 0 <= target < board.size or state.owner[target] != army:
                raise _fail("fortify one of your own territories (bonus_target)")
            if not (board.tax[target] or state.castle[target]):
                raise _fail(f"fortify a city or castle territory, not {board.names[target]}")
        amount = FORTIFY_CASTLE if state.castle[target] else FORTIFY_CITY
        amount += missions.fortify_bonus(state, army)
        given = _free_units(state, army, target, (amount, 0, 0, 0))
        events.append({"type": "fortify", "army": army, "territory": target, "footmen": given[0]})
        return
    source = turn.bonus_source
    if check:
        if not 0 <= source < board.size or state.owner[source] != army:
            raise _fail("siege_assault from one of your own territories (bonus_source)")
        if state.attacker[source] != NOBODY:
            raise _fail(f"no siege assault from disputed {board.names[source]}")
        if state.units[(source * ARMIES + army) * 4 + SIEGE] == 0:
            raise _fail(f"{board.names[source]} holds no siege weapon")
        if not 0 <= target < board.size or target not in board.land[source]:
            raise _fail(
                "siege_assault needs a land neighbour of its source (no sea lines) as bonus_target"
            )
        if state.owner[target] in (army, NOBODY):
            raise _fail(f"{board.names[target]} is not an opponent's territory")
        if state.attacker[target] != NOBODY:
            raise _fail(f"no siege assault into disputed {board.names[target]}")
        return  # judged before its dice: the rest of the turn must not depend on them
    weapons = state.units[(source * ARMIES + army) * 4 + SIEGE]
    dice = battle.roll(state, 2 * weapons)
    hit = sum(1 for d in dice if d >= 3)
    victim = state.owner[target]
    events.append(
        {
            "type": "siege_assault",
            "army": army,
            "source": source,
            "target": target,
            "dice": list(dice),
            "hits": hit,
            "owner": victim,
        }
    )
    battle.queue_loss(state, victim, target, hit, events)
    if state.count(target, victim) == 0 and not state.losses:
        state.owner[target] = NOBODY
        events.append({"type": "emptied", "territory": target})
