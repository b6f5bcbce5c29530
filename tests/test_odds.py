"""Battle odds: exact fractions from the engine's combat module, checked against published
values and an independent recursion, and the ``arena odds`` command."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from arena.games.classic import combat
from arena.games.classic.rng import Streams
from tests.cli_run import run

# ------------------------------------------------------------ an independent reference


def _ref_losses(att: tuple[int, ...], dfn: tuple[int, ...]) -> tuple[int, int]:
    a, d = sorted(att, reverse=True), sorted(dfn, reverse=True)
    lost_a = lost_d = 0
    for i in range(min(len(a), len(d))):
        if a[i] > d[i]:
            lost_d += 1
        else:
            lost_a += 1
    return lost_a, lost_d


@cache
def _ref_roll(a: int, d: int) -> dict[tuple[int, int], Fraction]:
    table: dict[tuple[int, int], Fraction] = {}
    step = Fraction(1, 6 ** (a + d))
    for faces in product(range(1, 7), repeat=a + d):
        key = _ref_losses(faces[:a], faces[a:])
        table[key] = table.get(key, Fraction(0)) + step
    return table


@cache
def _ref_end(a: int, d: int) -> dict[tuple[int, int], Fraction]:
    """Distribution of (attackers left, defenders left) by plain memoised recursion."""
    if a == 0 or d == 0:
        return {(a, d): Fraction(1)}
    out: dict[tuple[int, int], Fraction] = {}
    for (la, ld), p in _ref_roll(min(a, 3), min(d, 2)).items():
        for end, q in _ref_end(a - la, d - ld).items():
            out[end] = out.get(end, Fraction(0)) + p * q
    return out


# ------------------------------------------------------------------ single rolls

PUBLISHED_ROLLS = {
    # (attacker dice, defender dice): {(attacker losses, defender losses): probability}
    (1, 1): {(1, 0): Fraction(21, 36), (0, 1): Fraction(15, 36)},
    (2, 1): {(1, 0): Fraction(91, 216), (0, 1): Fraction(125, 216)},
    (3, 1): {(1, 0): Fraction(441, 1296), (0, 1): Fraction(855, 1296)},
    (1, 2): {(1, 0): Fraction(161, 216), (0, 1): Fraction(55, 216)},
    (2, 2): {
        (2, 0): Fraction(581, 1296),
        (1, 1): Fraction(420, 1296),
        (0, 2): Fraction(295, 1296),
    },
    (3, 2): {
        (2, 0): Fraction(2275, 7776),
        (1, 1): Fraction(2611, 7776),
        (0, 2): Fraction(2890, 7776),
    },
}


@pytest.mark.parametrize(("att", "dfn"), sorted(PUBLISHED_ROLLS))
def test_single_roll_distribution_matches_published_tables(att: int, dfn: int) -> None:
    table = combat.roll_distribution(att, dfn)
    assert table == PUBLISHED_ROLLS[(att, dfn)]
    assert sum(table.values()) == 1
    assert all(isinstance(p, Fraction) for p in table.values())


@pytest.mark.parametrize(("att", "dfn"), [(0, 1), (4, 1), (1, 0), (1, 3)])
def test_single_roll_rejects_impossible_dice(att: int, dfn: int) -> None:
    with pytest.raises(ValueError, match="dice"):
        combat.roll_distribution(att, dfn)


def test_compare_ties_go_to_the_defender_and_only_matched_dice_count() -> None:
    assert combat.compare([6, 6, 6], [6, 6]) == (2, 0)
    assert combat.compare([1, 6, 2], [5, 1]) == (0, 2)
    assert combat.compare([3], [3, 2]) == (1, 0)
    assert combat.compare([2, 2], [1]) == (0, 1)
    for faces in product(range(1, 7), repeat=4):
        att, dfn = list(faces[:2]), list(faces[2:])
        assert combat.compare(att, dfn) == _ref_losses(tuple(att), tuple(dfn))


# ---------------------------------------------------------------- whole battles


def test_one_v_one() -> None:
    odds = combat.battle_odds(1, 1, exact=True)
    assert odds.p_win == Fraction(15, 36)
    assert odds.outcomes == {(0, 1): Fraction(21, 36), (1, 0): Fraction(15, 36)}
    assert odds.expected_attacker_losses == Fraction(21, 36)
    assert odds.expected_defender_losses == Fraction(15, 36)


def test_published_ten_v_ten() -> None:
    """10 armies in the attacking territory (9 can fight) v 10 defenders."""
    exact = combat.battle_odds(9, 10, exact=True)
    assert isinstance(exact.p_win, Fraction)
    assert abs(float(exact.p_win) - 0.47993525647768026) < 1e-12
    approx = combat.battle_odds(9, 10)
    assert isinstance(approx.p_win, float)
    assert abs(approx.p_win - 0.47993525647768026) < 1e-12


@pytest.mark.parametrize(
    ("attackers", "defenders", "p_win"),
    [
        # by hand from the single-roll tables
        (2, 1, Fraction(125, 216) + Fraction(91, 216) * Fraction(15, 36)),
        (1, 2, Fraction(55, 216) * Fraction(15, 36)),
        (3, 1, Fraction(855, 1296) + Fraction(441, 1296) * (Fraction(5865, 7776))),
    ],
)
def test_small_battles_by_hand(attackers: int, defenders: int, p_win: Fraction) -> None:
    assert combat.battle_odds(attackers, defenders, exact=True).p_win == p_win


def test_published_four_v_two() -> None:
    """The published 65.6% for 4 armies (3 fighting) attacking 2."""
    assert abs(float(combat.battle_odds(3, 2, exact=True).p_win) - 0.656) < 5e-4


@pytest.mark.parametrize("attackers", range(1, 13))
def test_exact_odds_match_an_independent_recursion(attackers: int) -> None:
    for defenders in range(1, 13):
        odds = combat.battle_odds(attackers, defenders, exact=True)
        reference = _ref_end(attackers, defenders)
        assert odds.outcomes == dict(sorted(reference.items()))
        # Every outcome is an end state: one side has nobody left.
        assert all((a == 0) != (d == 0) for a, d in odds.outcomes)
        assert all(0 <= a <= attackers and 0 <= d <= defenders for a, d in odds.outcomes)
        assert sum(odds.outcomes.values()) == 1  # exactly
        assert odds.p_win == sum(p for (a, d), p in odds.outcomes.items() if d == 0)
        # Expected losses are consistent with the outcome distribution.
        assert odds.expected_attacker_losses == sum(
            (attackers - a) * p for (a, _), p in odds.outcomes.items()
        )
        assert odds.expected_defender_losses == sum(
            (defenders - d) * p for (_, d), p in odds.outcomes.items()
        )
        assert 0 <= odds.expected_attacker_losses <= attackers
        assert 0 <= odds.expected_defender_losses <= defenders
        # The float version agrees.
        approx = combat.battle_odds(attackers, defenders)
        assert abs(approx.p_win - float(odds.p_win)) < 1e-12
        assert abs(approx.expected_attacker_losses - float(odds.expected_attacker_losses)) < 1e-9


def test_more_attackers_never_hurt() -> None:
    for defenders in range(1, 8):
        wins = [combat.battle_odds(a, defenders, exact=True).p_win for a in range(1, 15)]
        assert wins == sorted(wins)
        assert len(set(wins)) == len(wins)


@pytest.mark.parametrize(("attackers", "defenders"), [(0, 1), (1, 0), (-2, 3), (0, 0)])
def test_battle_odds_rejects_empty_sides(attackers: int, defenders: int) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        combat.battle_odds(attackers, defenders)


def test_simulate_uses_the_dice_it_is_given() -> None:
    # Attacker always rolls 6, defender 1: every battle is won without loss.
    sixes_then_ones = iter([6, 6, 6, 1, 1] * 1000)
    assert combat.simulate(3, 2, 10, sixes_then_ones) == (10, 0.0, 2.0)
    ones = iter([1] * 10_000)
    wins, att_lost, def_lost = combat.simulate(4, 3, 5, ones)
    assert (wins, att_lost, def_lost) == (0, 4.0, 0.0)


# -------------------------------------------------------------------- the CLI


def test_cli_odds_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "odds", "3", "2", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    exact = combat.battle_odds(3, 2, exact=True)
    assert data["attackers"] == 3 and data["defenders"] == 2
    assert data["p_win"] == pytest.approx(float(exact.p_win), abs=1e-15)
    assert data["expected_attacker_losses"] == pytest.approx(
        float(exact.expected_attacker_losses), abs=1e-15
    )
    assert data["expected_defender_losses"] == pytest.approx(
        float(exact.expected_defender_losses), abs=1e-15
    )
    assert data["simulated_p_win"] is None
    outcomes = {(o["attackers_left"], o["defenders_left"]): o["p"] for o in data["outcomes"]}
    assert outcomes.keys() == exact.outcomes.keys()
    assert math.fsum(outcomes.values()) == pytest.approx(1.0, abs=1e-12)


def test_cli_odds_one_v_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "1", "1", "--json")
    assert code == 0
    assert json.loads(out)["p_win"] == pytest.approx(15 / 36, abs=1e-15)


def test_cli_odds_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "9", "10")
    assert code == 0
    assert "0.479935" in out
    assert "holds 10" in out


def test_cli_simulation_agrees_with_the_exact_odds(capsys: pytest.CaptureFixture[str]) -> None:
    battles = 20_000
    code, out, _ = run(
        capsys, "odds", "3", "2", "--simulate", str(battles), "--seed", "1", "--json"
    )
    assert code == 0
    data = json.loads(out)
    p = data["p_win"]
    simulated = data["simulated_p_win"]
    assert isinstance(simulated, float)
    standard_error = math.sqrt(p * (1 - p) / battles)
    assert abs(simulated - p) < 4 * standard_error
    assert data["simulated"]["battles"] == battles
    # It is the engine's own compare() on the engine's own dice stream for that seed.
    streams = Streams(1)
    dice = (streams.die(i) for i in range(10**9))
    wins, att_lost, def_lost = combat.simulate(3, 2, battles, dice)
    assert simulated == wins / battles
    assert data["simulated"]["attacker_losses"] == att_lost
    assert data["simulated"]["defender_losses"] == def_lost
    # Reproducible; another seed gives another sample.
    assert (
        run(capsys, "odds", "3", "2", "--simulate", str(battles), "--seed", "1", "--json")[1] == out
    )
    other = json.loads(
        run(capsys, "odds", "3", "2", "--simulate", str(battles), "--seed", "2", "--json")[1]
    )
    assert other["simulated_p_win"] != simulated


def test_cli_simulation_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "5", "4", "--simulate", "500")
    assert code == 0
    assert "simulated 500 battles" in out


@pytest.mark.parametrize(
    "args",
    [
        ("odds", "0", "2"),
        ("odds", "3", "0"),
        ("odds", "-1", "2"),
        ("odds", "3", "2", "--simulate", "0"),
        ("odds", "3", "2", "--simulate", "-5"),
        ("odds", "three", "2"),
        ("odds", "3"),
    ],
)
def test_cli_odds_bad_input_exits_2(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert "error" in err and "Traceback" not in err
    message = [line for line in err.splitlines() if line.startswith("arena: error:")]
    assert len(message) == 1
