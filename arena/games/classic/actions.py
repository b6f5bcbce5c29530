"""Actions a seat can take, as small hashable dataclasses, and their JSON form.

JSON keys use the rule book's words (``from``, ``to``, ``dice``); territories and cards are ids.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeAlias

from arena.errors import MalformedActionError

REROLL_POLICIES = ("ask", "auto", "never")
"""How an attacker holding an advantage card re-rolls inside an attack: ``ask`` for each battle,
``auto`` re-rolls its lowest die that lost or tied its comparison, ``never`` does not re-roll."""


@dataclass(frozen=True, slots=True)
class Claim:
    """Claim one unclaimed territory with one army (setup)."""

    territory: int


@dataclass(frozen=True, slots=True)
class Place:
    """Put armies on own territories: one army in setup, all new armies when reinforcing.

    ``placements`` is a tuple of (territory, armies) pairs.
    """

    placements: tuple[tuple[int, int], ...]

    @classmethod
    def on(cls, territory: int, armies: int = 1) -> Place:
        """All armies on one territory."""
        return cls(((territory, armies),))


@dataclass(frozen=True, slots=True)
class PlaceNeutral:
    """2-player setup: put one neutral army on a neutral territory."""

    territory: int


@dataclass(frozen=True, slots=True)
class ChooseHeadquarters:
    """Capital RISK: secretly choose one own territory as headquarters."""

    territory: int


@dataclass(frozen=True, slots=True)
class Trade:
    """Trade a set of three cards (ids), or decline with ``cards=None``.

    ``bonus_territory`` picks which owned territory shown on the set gets the +2 armies
    (default: the first one in card order).
    """

    cards: tuple[int, int, int] | None
    bonus_territory: int | None = None


@dataclass(frozen=True, slots=True)
class Attack:
    """Attack ``target`` from ``source`` rolling ``dice`` (1-3).

    Without ``until`` this is one roll. With ``until=K`` rolls repeat (each with as many of
    ``dice`` as the armies allow) until the territory is captured or ``source`` is down to
    ``K`` armies (1 ≤ K < the armies on ``source``). ``reroll`` is the advantage re-roll
    policy inside this attack.
    """

    source: int
    target: int
    dice: int
    until: int | None = None
    reroll: str = "ask"


@dataclass(frozen=True, slots=True)
class EndAttack:
    """Stop attacking this turn and go on to fortify."""


@dataclass(frozen=True, slots=True)
class Defend:
    """Roll ``dice`` (1-2) in defence of the attacked territory."""

    dice: int


@dataclass(frozen=True, slots=True)
class Reroll:
    """Advantage re-roll: re-roll the attacker's die at index ``die`` of the roll, or None."""

    die: int | None


@dataclass(frozen=True, slots=True)
class Occupy:
    """Move ``armies`` in total into the territory just captured."""

    armies: int


@dataclass(frozen=True, slots=True)
class Fortify:
    """Move ``armies`` from ``source`` to ``target`` and end the turn."""

    source: int
    target: int
    armies: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn without fortifying."""


Action: TypeAlias = (
    Claim
    | Place
    | PlaceNeutral
    | ChooseHeadquarters
    | Trade
    | Attack
    | EndAttack
    | Defend
    | Reroll
    | Occupy
    | Fortify
    | EndTurn
)

KIND_OF: dict[type, str] = {
    Claim: "claim",
    Place: "place",
    PlaceNeutral: "place_neutral",
    ChooseHeadquarters: "headquarters",
    Trade: "trade",
    Attack: "attack",
    EndAttack: "end_attack",
    Defend: "defend",
    Reroll: "reroll",
    Occupy: "occupy",
    Fortify: "fortify",
    EndTurn: "end_turn",
}


def action_to_dict(action: Action) -> dict[str, Any]:
    """The JSON form of an action: ``{"kind": ..., fields...}``."""
    return _TO_DICT[type(action)](action)


def _territory_dict(a: Claim | PlaceNeutral | ChooseHeadquarters) -> dict[str, Any]:
    return {"kind": KIND_OF[type(a)], "territory": a.territory}


def _place_dict(a: Place) -> dict[str, Any]:
    return {"kind": "place", "placements": [list(p) for p in a.placements]}


def _trade_dict(a: Trade) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": "trade", "cards": None if a.cards is None else list(a.cards)}
    if a.bonus_territory is not None:
        out["bonus_territory"] = a.bonus_territory
    return out


def _attack_dict(a: Attack) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": "attack", "from": a.source, "to": a.target, "dice": a.dice}
    if a.until is not None:
        out["until"] = a.until
    if a.reroll != "ask":
        out["reroll"] = a.reroll
    return out


def _fortify_dict(a: Fortify) -> dict[str, Any]:
    return {"kind": "fortify", "from": a.source, "to": a.target, "armies": a.armies}


_TO_DICT: dict[type, Callable[[Any], dict[str, Any]]] = {
    Claim: _territory_dict,
    PlaceNeutral: _territory_dict,
    ChooseHeadquarters: _territory_dict,
    Place: _place_dict,
    Trade: _trade_dict,
    Attack: _attack_dict,
    EndAttack: lambda a: {"kind": "end_attack"},
    Defend: lambda a: {"kind": "defend", "dice": a.dice},
    Reroll: lambda a: {"kind": "reroll", "die": a.die},
    Occupy: lambda a: {"kind": "occupy", "armies": a.armies},
    Fortify: _fortify_dict,
    EndTurn: lambda a: {"kind": "end_turn"},
}
"""The JSON form of each action class, looked up by exact type (a dict beats a ``match``)."""


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedActionError(f"action field {key!r} must be an integer, got {value!r}")
    return value


def _opt_int(data: dict[str, Any], key: str) -> int | None:
    return None if data.get(key) is None else _int(data, key)


def action_from_dict(data: Any) -> Action:
    """Parse the JSON form of an action; raises :class:`MalformedActionError` on a bad shape."""
    if not isinstance(data, dict):
        raise MalformedActionError(f"an action must be a JSON object, got {data!r}")
    kind = data.get("kind")
    try:
        match kind:
            case "claim":
                return Claim(_int(data, "territory"))
            case "place_neutral":
                return PlaceNeutral(_int(data, "territory"))
            case "headquarters":
                return ChooseHeadquarters(_int(data, "territory"))
            case "place":
                pairs = data.get("placements")
                if not isinstance(pairs, list) or not all(
                    isinstance(p, list | tuple) and len(p) == 2 for p in pairs
                ):
                    raise MalformedActionError(
                        f"place needs 'placements' as [[territory, armies], ...], got {pairs!r}"
                    )
                return Place(tuple((_int({"t": t}, "t"), _int({"n": n}, "n")) for t, n in pairs))
            case "trade":
                cards = data.get("cards")
                if cards is None:
                    return Trade(None, _opt_int(data, "bonus_territory"))
                if not isinstance(cards, list) or len(cards) != 3:
                    raise MalformedActionError(
                        f"trade needs 'cards' as a list of 3 card ids or null, got {cards!r}"
                    )
                ids = tuple(_int({"c": c}, "c") for c in cards)
                return Trade((ids[0], ids[1], ids[2]), _opt_int(data, "bonus_territory"))
            case "attack":
                reroll = data.get("reroll", "ask")
                if reroll not in REROLL_POLICIES:
                    raise MalformedActionError(
                        f"attack 'reroll' must be one of {', '.join(REROLL_POLICIES)}, "
                        f"got {reroll!r}"
                    )
                return Attack(
                    _int(data, "from"),
                    _int(data, "to"),
                    _int(data, "dice"),
                    _opt_int(data, "until"),
                    reroll,
                )
            case "end_attack":
                return EndAttack()
            case "defend":
                return Defend(_int(data, "dice"))
            case "reroll":
                return Reroll(_opt_int(data, "die"))
            case "occupy":
                return Occupy(_int(data, "armies"))
            case "fortify":
                return Fortify(_int(data, "from"), _int(data, "to"), _int(data, "armies"))
            case "end_turn":
                return EndTurn()
    except MalformedActionError:
        raise
    kinds = ", ".join(KIND_OF.values())
    raise MalformedActionError(f"unknown action kind {kind!r}; expected one of: {kinds}")
