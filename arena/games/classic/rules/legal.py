"""The legal options of a decision, in the compact form of :class:`Options`, and the
questions about a position the options rest on (what a seat holds, can attack or fortify).

Option generation runs once per decision in every search, so its loops are written in the
fastest form CPython has for them (list comprehensions over zipped columns).
"""

from __future__ import annotations

from arena.games.classic import cards as cardlib
from arena.games.classic.options import Options
from arena.games.classic.rules.decide import require_turn
from arena.games.classic.rules.setting import Setting
from arena.games.classic.state import NEUTRAL, UNCLAIMED, ClassicState, Phase


def legal_options(rules: Setting, state: ClassicState, seat: int) -> Options:
    """The legal options of ``seat``'s current decision (compact, see :class:`Options`)."""
    kind = require_turn(rules, state, seat)
    phase, owner, armies = state.phase, state.owner, state.armies
    # The commonest decision first; the phases are disjoint, so order is free.
    if phase == Phase.ATTACK:
        return Options(kind, seat, attacks=attacks(rules, state, seat))
    if phase == Phase.CLAIM:
        return Options(kind, seat, territories=owned(state, UNCLAIMED))
    if phase == Phase.PLACE:
        return Options(kind, seat, territories=owned(state, seat), armies=setup_count(rules, state))
    if phase == Phase.PLACE_NEUTRAL:
        return Options(kind, seat, territories=owned(state, NEUTRAL), armies=1)
    if phase == Phase.HEADQUARTERS:
        return Options(kind, seat, territories=owned(state, seat))
    if phase == Phase.TRADE:
        hand = state.hands[seat]
        sets = cardlib.valid_sets(hand, rules.symbols)
        bonus = (
            ()
            if state.bonus_given
            else tuple(sorted(c for c in hand if c < len(owner) and owner[c] == seat))
        )
        return Options(
            kind,
            seat,
            sets=tuple(sets),
            required=trade_required(state),
            bonus_territories=bonus,
        )
    if phase == Phase.REINFORCE:
        return Options(kind, seat, territories=owned(state, seat), armies=state.to_place)
    if phase == Phase.DEFEND:
        assert state.attack is not None
        src, dst, dice = state.attack[:3]
        battle = (src, dst, min(dice, armies[src] - 1))
        return Options(kind, seat, max_dice=min(2, armies[dst]), battle=battle)
    if phase == Phase.REROLL:
        assert state.roll is not None and state.attack is not None
        att, dfn, _ = state.roll
        battle = (state.attack[0], state.attack[1], len(att))
        return Options(kind, seat, attacker_dice=att, defender_dice=dfn, battle=battle)
    if phase == Phase.OCCUPY:
        assert state.occupy is not None
        src, dst, least = state.occupy
        return Options(
            kind,
            seat,
            min_armies=least,
            max_armies=least + armies[src] - 1,
            battle=(src, dst, least),
        )
    return Options(kind, seat, fortifies=fortifies(rules, state, seat))


def owned(state: ClassicState, holder: int) -> tuple[int, ...]:
    """The territories ``holder`` (a seat, :data:`NEUTRAL` or :data:`UNCLAIMED`) holds."""
    return tuple([t for t, o in enumerate(state.owner) if o == holder])


def setup_count(rules: Setting, state: ClassicState) -> int:
    """Armies the seat to move places in one setup turn (2 in the neutral-army game)."""
    return min(2 if rules.config.neutral else 1, state.reserve[state.seat])


def trade_required(state: ClassicState) -> bool:
    """Whether the seat to move must trade a set now (5 cards, or more than 4 after a
    takeover of another seat's cards)."""
    held = len(state.hands[state.seat])
    return held > 4 if state.forced_trade else held >= 5


def attacks(rules: Setting, state: ClassicState, seat: int) -> tuple[tuple[int, int, int], ...]:
    """Every (from, to, most dice) attack open to ``seat``."""
    owner = state.owner
    # One list comprehension over zipped columns: the fastest form in CPython.
    return tuple(
        [
            (t, nb, 3 if a > 3 else a - 1)
            for t, o, a, near in zip(rules.ids, owner, state.armies, rules.neighbours, strict=True)
            if o == seat and a >= 2
            for nb in near
            if owner[nb] != seat
        ]
    )


def fortifies(rules: Setting, state: ClassicState, seat: int) -> tuple[tuple[int, int, int], ...]:
    """Every (from, to, most armies) fortification open to ``seat``."""
    owner, armies = state.owner, state.armies
    if rules.config.fortify == "adjacent":
        return tuple(
            [
                (t, nb, a - 1)
                for t, o, a, near in zip(rules.ids, owner, armies, rules.neighbours, strict=True)
                if o == seat and a >= 2
                for nb in near
                if owner[nb] == seat
            ]
        )
    return tuple(
        [
            (t, u, armies[t] - 1)
            for group in groups(rules, state, seat)
            for t in group
            if armies[t] >= 2
            for u in group
            if u != t
        ]
    )


def groups(rules: Setting, state: ClassicState, seat: int) -> list[list[int]]:
    """Connected groups of ``seat``'s territories (sorted ids), for connected fortify."""
    owner, neighbours = state.owner, rules.neighbours
    seen: set[int] = set()
    found: list[list[int]] = []
    for start, o in enumerate(owner):
        if o != seat or start in seen:
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            t = stack.pop()
            group.append(t)
            for nb in neighbours[t]:
                if owner[nb] == seat and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        found.append(sorted(group))
    return found


def can_attack(rules: Setting, state: ClassicState, seat: int) -> bool:
    """Whether ``seat`` has any attack (without listing them all)."""
    owner, armies, neighbours = state.owner, state.armies, rules.neighbours
    for t, o in enumerate(owner):
        if o == seat and armies[t] >= 2:
            for nb in neighbours[t]:
                if owner[nb] != seat:
                    return True
    return False


def can_fortify(rules: Setting, state: ClassicState, seat: int) -> bool:
    """Whether ``seat`` has any fortification (without listing them all)."""
    owner, armies, neighbours = state.owner, state.armies, rules.neighbours
    for t, o in enumerate(owner):
        if o == seat and armies[t] >= 2:
            for nb in neighbours[t]:
                if owner[nb] == seat:
                    return True
    return False
