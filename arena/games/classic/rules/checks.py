"""Checking an action before it is applied: the right kind for the pending decision, fields
of the right types, and every rule it must keep, each refusal saying what was expected."""

from __future__ import annotations

from collections.abc import Callable

from arena.errors import IllegalActionError
from arena.games.classic import cards as cardlib
from arena.games.classic.actions import (
    REROLL_POLICIES,
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
from arena.games.classic.rules.decide import require_turn
from arena.games.classic.rules.legal import groups, setup_count, trade_required
from arena.games.classic.rules.setting import Setting
from arena.games.classic.state import NEUTRAL, UNCLAIMED, ClassicState, Phase

EXPECTED: dict[Phase, tuple[type, ...]] = {
    Phase.CLAIM: (Claim,),
    Phase.PLACE: (Place,),
    Phase.PLACE_NEUTRAL: (PlaceNeutral,),
    Phase.HEADQUARTERS: (ChooseHeadquarters,),
    Phase.TRADE: (Trade,),
    Phase.REINFORCE: (Place,),
    Phase.ATTACK: (Attack, EndAttack),
    Phase.DEFEND: (Defend,),
    Phase.REROLL: (Reroll,),
    Phase.OCCUPY: (Occupy,),
    Phase.FORTIFY: (Fortify, EndTurn),
}
"""The action classes that answer each phase's decision."""


def is_legal(rules: Setting, state: ClassicState, seat: int, action: Action) -> bool:
    """Whether :func:`check` would accept the action."""
    try:
        check(rules, state, seat, action)
    except IllegalActionError:
        return False
    return True


def check(rules: Setting, state: ClassicState, seat: int, action: Action) -> None:
    """Raise :class:`IllegalActionError` saying what is wrong and what was expected."""
    kind = require_turn(rules, state, seat)
    phase = state.phase
    expected = EXPECTED[phase]
    if not isinstance(action, expected):
        names = " or ".join(t.__name__ for t in expected)
        article = "an" if kind[0] in "aeiou" else "a"
        raise IllegalActionError(
            f"{article} {kind} decision is pending: expected {names}, got {type(action).__name__}",
            action,
        )
    check_field_types(action)
    owner, armies = state.owner, state.armies
    # The commonest actions first; the action classes are disjoint, so order is free.
    if isinstance(action, Attack):
        _check_attack(rules, state, seat, action)
    elif isinstance(action, EndAttack | EndTurn):
        return
    elif isinstance(action, Claim):
        _check_territory(rules, action.territory, action)
        if owner[action.territory] != UNCLAIMED:
            raise IllegalActionError(
                f"cannot claim {_name(rules, action.territory)}: already held by "
                f"{_holder(owner[action.territory])}; claim an unclaimed territory",
                action,
            )
    elif isinstance(action, Place):
        count = setup_count(rules, state) if phase == Phase.PLACE else state.to_place
        _check_placements(rules, state, seat, action, count)
    elif isinstance(action, PlaceNeutral):
        _check_territory(rules, action.territory, action)
        if owner[action.territory] != NEUTRAL:
            raise IllegalActionError(
                f"the neutral army goes on a neutral territory; "
                f"{_name(rules, action.territory)} is held by {_holder(owner[action.territory])}",
                action,
            )
    elif isinstance(action, ChooseHeadquarters):
        _check_territory(rules, action.territory, action)
        if owner[action.territory] != seat:
            raise IllegalActionError(
                f"headquarters must be one of your own territories; "
                f"{_name(rules, action.territory)} is held by {_holder(owner[action.territory])}",
                action,
            )
    elif isinstance(action, Trade):
        _check_trade(rules, state, seat, action)
    elif isinstance(action, Defend):
        assert state.attack is not None
        most = min(2, armies[state.attack[1]])
        if not 1 <= action.dice <= most:
            raise IllegalActionError(
                f"defend with 1-{most} dice ({_name(rules, state.attack[1])} holds "
                f"{armies[state.attack[1]]}), got {action.dice}",
                action,
            )
    elif isinstance(action, Reroll):
        assert state.roll is not None
        rolled = len(state.roll[0])
        if action.die is not None and not 0 <= action.die < rolled:
            raise IllegalActionError(
                f"re-roll one of your {rolled} dice (index 0-{rolled - 1}) or none, "
                f"got {action.die}",
                action,
            )
    elif isinstance(action, Occupy):
        assert state.occupy is not None
        src, _, least = state.occupy
        most = least + armies[src] - 1
        if not least <= action.armies <= most:
            raise IllegalActionError(
                f"occupy with {least}-{most} armies in total, got {action.armies}", action
            )
    elif isinstance(action, Fortify):
        _check_fortify(rules, state, seat, action)


def _name(rules: Setting, territory: int) -> str:
    return f"{rules.board.names[territory]!r} ({territory})"


def _holder(holder: int) -> str:
    if holder == NEUTRAL:
        return "the neutral army"
    if holder == UNCLAIMED:
        return "nobody"
    return f"seat {holder}"


def _check_territory(rules: Setting, territory: object, action: Action) -> None:
    if not isinstance(territory, int) or not 0 <= territory < rules.size:
        raise IllegalActionError(
            f"territory {territory!r} does not exist; ids are 0-{rules.size - 1}", action
        )


def _check_placements(
    rules: Setting, state: ClassicState, seat: int, action: Place, count: int
) -> None:
    seen: set[int] = set()
    total = 0
    for territory, n in action.placements:
        _check_territory(rules, territory, action)
        if state.owner[territory] != seat:
            raise IllegalActionError(
                f"cannot place on {_name(rules, territory)}: held by "
                f"{_holder(state.owner[territory])}; place on your own territories",
                action,
            )
        if territory in seen:
            raise IllegalActionError(f"{_name(rules, territory)} is listed twice", action)
        if not isinstance(n, int) or n < 1:
            raise IllegalActionError(
                f"place a positive number of armies on {_name(rules, territory)}, got {n!r}",
                action,
            )
        seen.add(territory)
        total += n
    if total != count:
        raise IllegalActionError(f"place exactly {count} armies, got {total}", action)
    if state.phase == Phase.PLACE and rules.config.neutral and len(seen) > 2:
        raise IllegalActionError("place your 2 armies on 1 or 2 territories", action)


def _check_trade(rules: Setting, state: ClassicState, seat: int, action: Trade) -> None:
    if action.cards is None:
        if trade_required(state):
            held = len(state.hands[seat])
            raise IllegalActionError(f"you hold {held} cards and must trade a set now", action)
        if action.bonus_territory is not None:
            raise IllegalActionError("a bonus territory needs a traded set", action)
        return
    hand = state.hands[seat]
    trio = action.cards
    if len(set(trio)) != 3 or any(c not in hand for c in trio):
        raise IllegalActionError(
            f"trade three different cards from your hand {sorted(hand)}, got {list(trio)}",
            action,
        )
    if not cardlib.is_set(tuple(rules.symbols[c] for c in trio)):  # type: ignore[arg-type]
        raise IllegalActionError(
            f"cards {list(trio)} are not a set: need three alike, one of each, or two plus a wild",
            action,
        )
    bonus = action.bonus_territory
    if bonus is not None:
        eligible = [c for c in trio if c < rules.size and state.owner[c] == seat]
        if state.bonus_given:
            raise IllegalActionError(
                "the +2 card bonus was already given this turn; omit bonus_territory", action
            )
        if bonus not in eligible:
            raise IllegalActionError(
                f"bonus territory {bonus!r} must be one of the traded cards' territories "
                f"that you hold: {eligible}",
                action,
            )


def _check_attack(rules: Setting, state: ClassicState, seat: int, action: Attack) -> None:
    owner, armies = state.owner, state.armies
    src, dst = action.source, action.target
    _check_territory(rules, src, action)
    _check_territory(rules, dst, action)
    if owner[src] != seat:
        raise IllegalActionError(
            f"attack from {_name(rules, src)}: held by {_holder(owner[src])}, not you",
            action,
        )
    if dst not in rules.adjacent[src]:
        raise IllegalActionError(
            f"attack from {_name(rules, src)} to {_name(rules, dst)}: not adjacent", action
        )
    if owner[dst] == seat:
        raise IllegalActionError(f"cannot attack your own {_name(rules, dst)}", action)
    most = min(3, armies[src] - 1)
    if most < 1:
        raise IllegalActionError(
            f"attack from {_name(rules, src)} needs at least 2 armies there, it has {armies[src]}",
            action,
        )
    if not 1 <= action.dice <= most:
        raise IllegalActionError(
            f"attack from {_name(rules, src)} with 1-{most} dice ({armies[src]} armies), got "
            f"{action.dice}",
            action,
        )
    if action.until is not None and not 1 <= action.until < armies[src]:
        raise IllegalActionError(
            f"'until' must be 1-{armies[src] - 1} (stop when {_name(rules, src)} is down to "
            f"that many armies), got {action.until}",
            action,
        )
    if action.reroll not in REROLL_POLICIES:
        raise IllegalActionError(
            f"reroll policy must be one of {', '.join(REROLL_POLICIES)}, got {action.reroll!r}",
            action,
        )


def _check_fortify(rules: Setting, state: ClassicState, seat: int, action: Fortify) -> None:
    owner, armies = state.owner, state.armies
    src, dst = action.source, action.target
    _check_territory(rules, src, action)
    _check_territory(rules, dst, action)
    if owner[src] != seat or owner[dst] != seat:
        raise IllegalActionError(
            f"fortify between your own territories; {_name(rules, src)} is held by "
            f"{_holder(owner[src])}, {_name(rules, dst)} by {_holder(owner[dst])}",
            action,
        )
    if src == dst:
        raise IllegalActionError("fortify needs two different territories", action)
    if rules.config.fortify == "adjacent":
        if dst not in rules.adjacent[src]:
            raise IllegalActionError(
                f"fortify from {_name(rules, src)} to {_name(rules, dst)}: not adjacent "
                "(fortify=adjacent)",
                action,
            )
    elif not any(src in g and dst in g for g in groups(rules, state, seat)):
        raise IllegalActionError(
            f"fortify from {_name(rules, src)} to {_name(rules, dst)}: no chain of your own "
            "territories connects them",
            action,
        )
    if not 1 <= action.armies <= armies[src] - 1:
        raise IllegalActionError(
            f"fortify 1-{armies[src] - 1} armies from {_name(rules, src)} (one must stay), got "
            f"{action.armies}",
            action,
        )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_placements(value: object) -> bool:
    return isinstance(value, tuple) and all(
        isinstance(p, tuple) and len(p) == 2 and _is_int(p[0]) and _is_int(p[1]) for p in value
    )


def _is_cards(value: object) -> bool:
    return value is None or (
        isinstance(value, tuple) and len(value) == 3 and all(map(_is_int, value))
    )


def _is_int_or_none(value: object) -> bool:
    return value is None or _is_int(value)


def _is_str(value: object) -> bool:
    return isinstance(value, str)


_FIELD_TESTS: dict[str, Callable[[object], bool]] = {
    "reroll": _is_str,
    "placements": _is_placements,
    "cards": _is_cards,
    "until": _is_int_or_none,
    "die": _is_int_or_none,
    "bonus_territory": _is_int_or_none,
}
"""The type test of each action field that is not a plain integer."""

_FIELDS_OF: dict[type, tuple[tuple[str, Callable[[object], bool], bool], ...]] = {}
"""Per action class: each field's name, type test and whether an exact ``int`` passes that
test (filled on first use; a class's fields never change, so the entry stays right)."""


def check_field_types(action: Action) -> None:
    """Reject fields of the wrong type (e.g. ``until=1.0``) before any rule looks at them."""
    cls = type(action)
    fields = _FIELDS_OF.get(cls)
    if fields is None:
        tests = [(name, _FIELD_TESTS.get(name, _is_int)) for name in action.__dataclass_fields__]
        fields = _FIELDS_OF[cls] = tuple((name, test, test(0)) for name, test in tests)
    for name, test, int_passes in fields:
        value = getattr(action, name)
        if (int_passes and type(value) is int) or test(value):
            continue
        raise IllegalActionError(
            f"{type(action).__name__}.{name} has the wrong type: {value!r}", action
        )
