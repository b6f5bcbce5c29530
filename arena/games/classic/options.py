"""Legal options of a decision in a compact form any bot can pick from without rules code.

One flat record per decision; each kind fills the fields it needs (see :class:`Options`).
:func:`choices` enumerates complete actions so a bot may answer by option index.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any, TypeVar

from arena.errors import IllegalActionError
from arena.games.classic.actions import (
    Action,
    Attack,
    ChooseHeadquarters,
    Claim,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    Occupy,
    Place,
    PlaceNeutral,
    Reroll,
    Trade,
)


@dataclass(frozen=True, slots=True)
class Options:
    """The legal options of one seat's decision.

    ===============  ==========================================================================
    kind             fields used
    ===============  ==========================================================================
    claim            ``territories`` (unclaimed)
    place            ``territories`` (own), ``armies`` (1; 2 in the 2-player game)
    place_neutral    ``territories`` (neutral), ``armies`` (1)
    headquarters     ``territories`` (own)
    trade            ``sets`` (card-id triples), ``required``, ``bonus_territories``
    reinforce        ``territories`` (own), ``armies`` (all must be placed)
    attack           ``attacks`` ((from, to, max dice) triples); ending the attack is always legal
    defend           ``max_dice`` (1-2), ``battle`` (from, to, attacker dice)
    reroll           ``attacker_dice``, ``defender_dice`` (as rolled), ``battle``
    occupy           ``min_armies``, ``max_armies`` (armies moved in total), ``battle``
    fortify          ``fortifies`` ((from, to, max armies) triples); ending the turn is legal
    ===============  ==========================================================================
    """

    kind: str
    seat: int
    territories: tuple[int, ...] = ()
    armies: int = 0
    sets: tuple[tuple[int, int, int], ...] = ()
    required: bool = False
    bonus_territories: tuple[int, ...] = ()
    attacks: tuple[tuple[int, int, int], ...] = ()
    max_dice: int = 0
    battle: tuple[int, int, int] = (-1, -1, 0)
    attacker_dice: tuple[int, ...] = ()
    defender_dice: tuple[int, ...] = ()
    min_armies: int = 0
    max_armies: int = 0
    fortifies: tuple[tuple[int, int, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain data with only the fields this kind uses (for JSON and the wire)."""
        data = asdict(self)
        return {k: v for k, v in data.items() if k in ("kind", "seat") or k in _FIELDS[self.kind]}


_FIELDS: dict[str, tuple[str, ...]] = {
    "claim": ("territories",),
    "place": ("territories", "armies"),
    "place_neutral": ("territories", "armies"),
    "headquarters": ("territories",),
    "trade": ("sets", "required", "bonus_territories"),
    "reinforce": ("territories", "armies"),
    "attack": ("attacks",),
    "defend": ("max_dice", "battle"),
    "reroll": ("attacker_dice", "defender_dice", "battle"),
    "occupy": ("min_armies", "max_armies", "battle"),
    "fortify": ("fortifies",),
}


def choices(options: Options) -> list[Action]:
    """Every option as a complete action, in a fixed order, for answers by index.

    Where the full action space is larger than the list, the index picks a documented
    representative: ``reinforce``/``place`` put all armies on one territory, ``attack``
    rolls the maximum dice once, ``fortify`` moves the maximum.
    """
    kind = options.kind
    if kind == "attack":
        listed: list[Action] = _ATTACKS.many(options.attacks)
        listed.append(_END_ATTACK)
        return listed
    if kind == "fortify":
        listed = _FORTIFIES.many(options.fortifies)
        listed.append(_END_TURN)
        return listed
    if kind in ("place", "reinforce"):
        armies = options.armies
        return _PLACES.many([(t, armies) for t in options.territories])
    if kind == "occupy":
        return list(_OCCUPY.upto(options.max_armies)[options.min_armies : options.max_armies + 1])
    if kind == "defend":
        return list(_DEFENDS.upto(options.max_dice)[1 : options.max_dice + 1])
    if kind == "claim":
        return _pick(_CLAIMS, options.territories)
    if kind == "place_neutral":
        return _pick(_NEUTRALS, options.territories)
    if kind == "headquarters":
        return _pick(_HEADQUARTERS, options.territories)
    if kind == "trade":
        listed = _TRADES.many(options.sets)
        if not options.required:
            listed.append(_NO_TRADE)
        return listed
    if kind == "reroll":
        return [*(Reroll(i) for i in range(len(options.attacker_dice))), Reroll(None)]
    raise ValueError(f"unknown decision kind {kind!r}")


# Actions are immutable values, so handing out one shared instance per value is
# indistinguishable from building a new one, and several times faster than a frozen
# dataclass's ``__init__`` (which dominated option listing). Every table below is keyed by
# everything its action is built from.

K = TypeVar("K")
A = TypeVar("A")


class _Shared(dict[K, A]):
    """Actions by what they are built from, made on first use; cleared when it reaches
    ``limit`` entries, so unusual games (huge army counts) cannot grow it without bound."""

    def __init__(self, make: Callable[[K], A], limit: int = 1 << 16) -> None:
        super().__init__()
        self.make, self.limit = make, limit

    def many(self, keys: Iterable[K]) -> list[Action]:
        """The action of each key, in order."""
        get, new = self.get, self.new
        return [get(k) or new(k) for k in keys]  # type: ignore[misc]

    def new(self, key: K) -> A:
        if len(self) >= self.limit:
            self.clear()
        made = self[key] = self.make(key)
        return made


_ATTACKS: _Shared[tuple[int, int, int], Attack] = _Shared(lambda k: Attack(*k))
_FORTIFIES: _Shared[tuple[int, int, int], Fortify] = _Shared(lambda k: Fortify(*k))
_PLACES: _Shared[tuple[int, int], Place] = _Shared(lambda k: Place.on(*k))
_TRADES: _Shared[tuple[int, int, int], Trade] = _Shared(Trade)
_END_ATTACK = EndAttack()
_END_TURN = EndTurn()
_NO_TRADE = Trade(None)


class _Row(list[A]):
    """``make(0), make(1), …`` as shared instances, grown on demand (an index is a territory
    id, a die count or an army count, all small)."""

    def __init__(self, make: Callable[[int], A]) -> None:
        super().__init__()
        self.make = make

    def upto(self, last: int) -> _Row[A]:
        """This row, holding at least indices ``0..last``."""
        if last >= len(self):
            self.extend(self.make(n) for n in range(len(self), last + 1))
        return self


_CLAIMS: _Row[Claim] = _Row(Claim)
_NEUTRALS: _Row[PlaceNeutral] = _Row(PlaceNeutral)
_HEADQUARTERS: _Row[ChooseHeadquarters] = _Row(ChooseHeadquarters)
_OCCUPY: _Row[Occupy] = _Row(Occupy)
_DEFENDS: _Row[Defend] = _Row(Defend)


def _pick(row: _Row[A], ids: tuple[int, ...]) -> list[Action]:
    listed = row.upto(max(ids, default=0))
    return [listed[t] for t in ids]  # type: ignore[misc]


def action_from_index(options: Options, index: int) -> Action:
    """The action an option index stands for; raises a precise error when out of range."""
    listed = choices(options)
    if not 0 <= index < len(listed):
        raise IllegalActionError(
            f"option index {index} out of range: this {options.kind} decision has "
            f"{len(listed)} options (0..{len(listed) - 1})",
            index,
        )
    return listed[index]
