"""RISK: Europe actions as small hashable dataclasses, and their JSON form.

Territories are board ids (0-48), cards are deck ids (0-7), and every per-type count is a
4-tuple ``(footmen, archers, cavalry, siege weapons)``. One ``Turn`` is a whole turn: the
order chosen from the revealed card with its parameters, the card's bonus action with its
timing and target, and (with Berlin's tile) the free manoeuvre after an Expand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from arena.errors import MalformedActionError

Units: TypeAlias = tuple[int, int, int, int]
"""Counts by unit type: footmen, archers, cavalry, siege weapons."""
NO_UNITS: Units = (0, 0, 0, 0)
NONE = "none"
"""An order or bonus left unused."""


@dataclass(frozen=True, slots=True)
class Bid:
    """The secret bid (0-5 coins) for the First Player Marker."""

    coins: int


@dataclass(frozen=True, slots=True)
class MercenaryBid:
    """The secret per-round bids for control of the Mercenary Armies, one per Mercenary
    Army in army order (0 = no bid)."""

    coins: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Kingdom:
    """Kingdom placement: a free Gold Crown City, and the ten footmen split between it and
    one adjacent unclaimed non-city territory (``neighbour`` -1: all ten in the city)."""

    city: int
    neighbour: int
    footmen_in_city: int


@dataclass(frozen=True, slots=True)
class Cards:
    """The two cards played this round, in order: ``first`` for turn 1, ``second`` turn 2."""

    first: int
    second: int


@dataclass(frozen=True, slots=True)
class Move:
    """Units moving from ``source`` to ``target``; a Manoeuvre two territories away names
    the territory it passes through in ``via`` (-1: adjacent, or let the engine pick)."""

    source: int
    target: int
    units: Units
    via: int = -1


@dataclass(frozen=True, slots=True)
class Recruit:
    """Units bought and placed on one territory (Spend)."""

    territory: int
    units: Units


@dataclass(frozen=True, slots=True)
class Turn:
    """One turn with the revealed card.

    ``order``: one of the card's two orders, or ``none``. Expand takes one move, Split Expand
    one or two from the same source, Manoeuvre one; Spend takes ``recruits``, ``castles``
    (territories to build on) and ``crown`` (buy a crown card); Tax takes ``tax_city``.
    ``bonus``: the card's Fortify or Siege Assault (``none`` to skip it; King Me needs no
    answer: it takes the marker on reveal), done before the order when ``bonus_first``;
    Fortify names ``bonus_target``, Siege Assault ``bonus_source`` and ``bonus_target``.
    ``free_manoeuvre``: Berlin's extra Manoeuvre after an Expand or Split Expand.
    """

    order: str = NONE
    moves: tuple[Move, ...] = ()
    recruits: tuple[Recruit, ...] = ()
    castles: tuple[int, ...] = ()
    crown: bool = False
    tax_city: int = -1
    bonus: str = NONE
    bonus_first: bool = False
    bonus_source: int = -1
    bonus_target: int = -1
    free_manoeuvre: Move | None = None


@dataclass(frozen=True, slots=True)
class Casualties:
    """Which units to remove for the hits taken (counts by type, summing to the hits)."""

    units: Units


@dataclass(frozen=True, slots=True)
class Reroll:
    """The castle defender's re-roll: 0 keeps the dice, 1-4 re-rolls its own dice of that
    rank (only the rank just rolled may be named)."""

    rank: int


@dataclass(frozen=True, slots=True)
class BattleOrder:
    """The order in which the round's battles are fought (every disputed territory once)."""

    territories: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class KeepMission:
    """Kingdom Missions: which of the two missions drawn to keep (0 or 1)."""

    index: int


Action: TypeAlias = (
    Bid | MercenaryBid | Kingdom | Cards | Turn | Casualties | Reroll | BattleOrder | KeepMission
)


# ------------------------------------------------------------------------ JSON form


def _units(value: Units) -> list[int]:
    return list(value)


def _move(move: Move) -> dict[str, Any]:
    data: dict[str, Any] = {"source": move.source, "target": move.target, "units": list(move.units)}
    if move.via >= 0:
        data["via"] = move.via
    return data


def action_to_dict(action: Action) -> dict[str, Any]:
    """The action as plain JSON (replays, JSON answers); a turn leaves out unused fields."""
    match action:
        case Bid(coins):
            return {"kind": "bid", "coins": coins}
        case MercenaryBid(coins):
            return {"kind": "mercenary_bid", "coins": list(coins)}
        case Kingdom(city, neighbour, footmen):
            return {"kind": "kingdom", "city": city, "neighbour": neighbour, "footmen": footmen}
        case Cards(first, second):
            return {"kind": "cards", "first": first, "second": second}
        case Casualties(units):
            return {"kind": "casualties", "units": _units(units)}
        case Reroll(rank):
            return {"kind": "reroll", "rank": rank}
        case BattleOrder(territories):
            return {"kind": "battle_order", "territories": list(territories)}
        case KeepMission(index):
            return {"kind": "mission", "index": index}
        case Turn():
            return _turn_to_dict(action)
    raise TypeError(f"not a europe action: {action!r}")


def _turn_to_dict(turn: Turn) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": "turn", "order": turn.order}
    if turn.moves:
        data["moves"] = [_move(m) for m in turn.moves]
    if turn.recruits:
        data["recruits"] = [
            {"territory": r.territory, "units": _units(r.units)} for r in turn.recruits
        ]
    if turn.castles:
        data["castles"] = list(turn.castles)
    if turn.crown:
        data["crown"] = True
    if turn.tax_city >= 0:
        data["tax_city"] = turn.tax_city
    if turn.bonus != NONE:
        data["bonus"] = turn.bonus
        data["bonus_first"] = turn.bonus_first
        if turn.bonus_source >= 0:
            data["bonus_source"] = turn.bonus_source
        data["bonus_target"] = turn.bonus_target
    if turn.free_manoeuvre is not None:
        data["free_manoeuvre"] = _move(turn.free_manoeuvre)
    return data


def _int(data: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedActionError(f"{key!r} must be an integer, got {value!r}")
    return value


def _bool(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise MalformedActionError(f"{key!r} must be true or false, got {value!r}")
    return value


def _int_list(data: Mapping[str, Any], key: str, length: int | None = None) -> tuple[int, ...]:
    value = data.get(key, [])
    if not isinstance(value, list | tuple) or any(
        isinstance(v, bool) or not isinstance(v, int) for v in value
    ):
        raise MalformedActionError(f"{key!r} must be a list of integers, got {value!r}")
    if length is not None and len(value) != length:
        raise MalformedActionError(f"{key!r} must hold {length} integers, got {value!r}")
    return tuple(value)


def _units_from(data: Mapping[str, Any]) -> Units:
    u = _int_list(data, "units", 4)
    return (u[0], u[1], u[2], u[3])


def _object(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise MalformedActionError(f"{what} must be a JSON object, got {value!r}")
    return value


def _move_from(value: Any) -> Move:
    data = _object(value, "a move")
    return Move(
        _int(data, "source"), _int(data, "target"), _units_from(data), _int(data, "via", -1)
    )


def _turn_from(data: Mapping[str, Any]) -> Turn:
    order = data.get("order", NONE)
    if not isinstance(order, str):
        raise MalformedActionError(f"'order' must be a string, got {order!r}")
    moves = data.get("moves", [])
    recruits = data.get("recruits", [])
    if not isinstance(moves, list) or not isinstance(recruits, list):
        raise MalformedActionError("'moves' and 'recruits' must be lists of objects")
    bonus = data.get("bonus", NONE)
    if not isinstance(bonus, str):
        raise MalformedActionError(f"'bonus' must be a string, got {bonus!r}")
    free = data.get("free_manoeuvre")
    return Turn(
        order=order,
        moves=tuple(_move_from(m) for m in moves),
        recruits=tuple(
            Recruit(_int(r, "territory"), _units_from(r))
            for r in (_object(x, "a recruit") for x in recruits)
        ),
        castles=_int_list(data, "castles"),
        crown=_bool(data, "crown"),
        tax_city=_int(data, "tax_city", -1),
        bonus=bonus,
        bonus_first=_bool(data, "bonus_first"),
        bonus_source=_int(data, "bonus_source", -1),
        bonus_target=_int(data, "bonus_target", -1),
        free_manoeuvre=None if free is None else _move_from(free),
    )


_PARSERS: dict[str, Callable[[Mapping[str, Any]], Action]] = {
    "bid": lambda d: Bid(_int(d, "coins")),
    "mercenary_bid": lambda d: MercenaryBid(_int_list(d, "coins")),
    "kingdom": lambda d: Kingdom(_int(d, "city"), _int(d, "neighbour", -1), _int(d, "footmen")),
    "cards": lambda d: Cards(_int(d, "first"), _int(d, "second")),
    "turn": _turn_from,
    "casualties": lambda d: Casualties(_units_from(d)),
    "reroll": lambda d: Reroll(_int(d, "rank")),
    "battle_order": lambda d: BattleOrder(_int_list(d, "territories")),
    "mission": lambda d: KeepMission(_int(d, "index")),
}
KINDS = tuple(_PARSERS)
"""The ``kind`` of every action's JSON form."""


def action_from_dict(data: Any) -> Action:
    """Parse the JSON form of an action; raises :class:`MalformedActionError` on a bad shape."""
    if not isinstance(data, Mapping):
        raise MalformedActionError(f"an action must be a JSON object, got {data!r}")
    parser = _PARSERS.get(data.get("kind"))  # type: ignore[arg-type]
    if parser is None:
        raise MalformedActionError(
            f"unknown action kind {data.get('kind')!r}; expected one of: {', '.join(KINDS)}"
        )
    return parser(data)
