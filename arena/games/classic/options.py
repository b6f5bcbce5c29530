"""Legal options of a decision in a compact form any bot can pick from without rules code.

One flat record per decision; each kind fills the fields it needs (see :class:`Options`).
:func:`choices` enumerates complete actions so a bot may answer by option index.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

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
        get = _ATTACKS.get
        listed: list[Action] = [get(a) or _attack(a) for a in options.attacks]
        listed.append(_END_ATTACK)
        return listed
    if kind == "claim":
        return [Claim(t) for t in options.territories]
    if kind in ("place", "reinforce"):
        return [Place.on(t, options.armies) for t in options.territories]
    if kind == "place_neutral":
        return [PlaceNeutral(t) for t in options.territories]
    if kind == "headquarters":
        return [ChooseHeadquarters(t) for t in options.territories]
    if kind == "trade":
        found: list[Action] = [Trade(s) for s in options.sets]
        return found if options.required else [*found, Trade(None)]
    if kind == "defend":
        return [Defend(d) for d in range(1, options.max_dice + 1)]
    if kind == "reroll":
        return [*(Reroll(i) for i in range(len(options.attacker_dice))), Reroll(None)]
    if kind == "occupy":
        return [Occupy(n) for n in range(options.min_armies, options.max_armies + 1)]
    if kind == "fortify":
        return [*(Fortify(f, t, m) for f, t, m in options.fortifies), _END_TURN]
    raise ValueError(f"unknown decision kind {kind!r}")


_ATTACKS: dict[tuple[int, int, int], Attack] = {}
"""``Attack(from, to, dice)`` by its (from, to, dice) triple. Actions are immutable values, so
handing out one shared instance per triple is indistinguishable from building a new one (and
several times faster than a frozen dataclass's ``__init__``); the key space is bounded by the
board's edges × 3 dice."""
_END_ATTACK = EndAttack()
_END_TURN = EndTurn()


def _attack(triple: tuple[int, int, int]) -> Attack:
    made = _ATTACKS[triple] = Attack(*triple)
    return made


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
