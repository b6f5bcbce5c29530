"""Dice battles: the comparison rule, rolls from the dice stream, and exact odds.

One comparison function is used by the engine, the simulator and the odds tables, so the
tests that enumerate every roll through it test the engine's own battle code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from typing import TypeVar

Number = TypeVar("Number", float, Fraction)


def compare(attacker: Sequence[int], defender: Sequence[int]) -> tuple[int, int]:
    """Armies lost by (attacker, defender) for one roll; ties go to the defender.

    Highest die against highest, then second against second.
    """
    a = sorted(attacker, reverse=True)
    d = sorted(defender, reverse=True)
    att_loss = def_loss = 0
    for x, y in zip(a, d, strict=False):
        if x > y:
            def_loss += 1
        else:
            att_loss += 1
    return att_loss, def_loss


@cache
def roll_distribution(att_dice: int, def_dice: int) -> dict[tuple[int, int], Fraction]:
    """Exact distribution of (attacker losses, defender losses) for one roll.

    Built by enumerating all 6^(a+d) outcomes through :func:`compare`.
    """
    if not (1 <= att_dice <= 3 and 1 <= def_dice <= 2):
        raise ValueError(f"dice must be 1-3 v 1-2, got {att_dice} v {def_dice}")
    counts: dict[tuple[int, int], int] = {}
    total = 0
    for faces in product(range(1, 7), repeat=att_dice + def_dice):
        key = compare(list(faces[:att_dice]), list(faces[att_dice:]))
        counts[key] = counts.get(key, 0) + 1
        total += 1
    return {key: Fraction(n, total) for key, n in sorted(counts.items())}


@dataclass(frozen=True, slots=True)
class BattleOdds:
    """Odds of a whole battle fought to the end with both sides always rolling the maximum.

    ``attackers`` counts the armies that can fight (the territory holds one more that must
    stay behind); ``outcomes`` maps (attackers left, defenders left) to its probability.
    """

    attackers: int
    defenders: int
    p_win: float | Fraction
    expected_attacker_losses: float | Fraction
    expected_defender_losses: float | Fraction
    outcomes: dict[tuple[int, int], float | Fraction]


def battle_odds(attackers: int, defenders: int, exact: bool = False) -> BattleOdds:
    """Exact whole-battle odds by a Markov-chain recursion over the single-roll table.

    With ``exact`` the numbers are :class:`~fractions.Fraction`, else floats.
    """
    if attackers < 1 or defenders < 1:
        raise ValueError(f"need at least 1 attacker and 1 defender, got {attackers} v {defenders}")
    convert: Callable[[Fraction], float | Fraction] = (lambda f: f) if exact else float
    tables = {
        (a, d): [(al, dl, convert(p)) for (al, dl), p in roll_distribution(a, d).items()]
        for a in (1, 2, 3)
        for d in (1, 2)
    }
    # prob[(a, d)]: probability of reaching state (a fighting attackers, d defenders).
    zero = convert(Fraction(0))
    prob: dict[tuple[int, int], float | Fraction] = {(attackers, defenders): convert(Fraction(1))}
    outcomes: dict[tuple[int, int], float | Fraction] = {}
    # States are visited by decreasing a + d, so every predecessor is complete first.
    for total in range(attackers + defenders, 0, -1):
        for a in range(min(attackers, total), -1, -1):
            d = total - a
            if d < 0 or d > defenders:
                continue
            p = prob.pop((a, d), None)
            if p is None:
                continue
            if a == 0 or d == 0:
                outcomes[(a, d)] = p
                continue
            for al, dl, q in tables[(min(a, 3), min(d, 2))]:
                key = (a - al, d - dl)
                prob[key] = prob.get(key, zero) + p * q
    p_win = sum((p for (a, d), p in outcomes.items() if d == 0), zero)
    exp_att = sum(((attackers - a) * p for (a, d), p in outcomes.items()), zero)
    exp_def = sum(((defenders - d) * p for (a, d), p in outcomes.items()), zero)
    return BattleOdds(attackers, defenders, p_win, exp_att, exp_def, dict(sorted(outcomes.items())))


def simulate(
    attackers: int, defenders: int, battles: int, dice: Iterator[int]
) -> tuple[int, float, float]:
    """Fight ``battles`` whole battles (both sides rolling the maximum) with dice from ``dice``.

    Returns (wins, mean attacker losses, mean defender losses); uses :func:`compare`.
    """
    wins = att_lost = def_lost = 0
    for _ in range(battles):
        a, d = attackers, defenders
        while a and d:
            na, nd = min(a, 3), min(d, 2)
            al, dl = compare([next(dice) for _ in range(na)], [next(dice) for _ in range(nd)])
            a -= al
            d -= dl
        wins += d == 0
        att_lost += attackers - a
        def_lost += defenders - d
    return wins, att_lost / battles, def_lost / battles
