"""The strategy helpers of ``arena.sdk.tactics``: exact odds, board geometry, threats, paths."""

from __future__ import annotations

import math
import random
from itertools import pairwise

import pytest

from arena.games.classic.combat import battle_odds, compare
from arena.sdk.classic.tactics import _WinTable
from arena.sdk.tactics import (
    BoardInfo,
    capture_odds,
    chain_odds,
    chain_prefix_odds,
    reroll_choice,
    shortest_path,
    threat,
)
from tests.classic_helpers import BOARD, continent, tid

INFO = BoardInfo(BOARD.to_dict())


@pytest.mark.parametrize(("attackers", "defenders"), [(1, 1), (2, 1), (3, 2), (5, 4), (10, 7)])
def test_capture_odds_is_battle_odds_p_win(attackers, defenders):
    assert capture_odds(attackers, defenders) == pytest.approx(
        float(battle_odds(attackers, defenders).p_win), abs=1e-12
    )


def test_odds_table_grown_in_steps_is_the_table_grown_at_once():
    """Rows and columns added later (the fast 3-against-2 recurrence) equal one whole fill,
    and the exact battle odds of big stacks."""
    stepwise, at_once = _WinTable(), _WinTable()
    for attackers, defenders in [(2, 1), (4, 9), (30, 3), (7, 45), (61, 52)]:
        stepwise.get(attackers, defenders)
    at_once.get(61, 52)
    assert all(stepwise.rows[a][:53] == at_once.rows[a][:53] for a in range(62))
    for attackers, defenders in [(31, 29), (45, 12), (12, 30)]:
        assert stepwise.get(attackers, defenders) == pytest.approx(
            float(battle_odds(attackers, defenders).p_win), abs=1e-12
        )


def test_capture_odds_edge_cases():
    assert capture_odds(0, 3) == 0.0
    assert capture_odds(4, 0) == 1.0


@pytest.mark.parametrize(("attackers", "defenders"), [(1, 1), (3, 2), (6, 3), (12, 9)])
def test_one_step_chain_is_capture_odds(attackers, defenders):
    assert chain_odds(attackers, [defenders]) == pytest.approx(
        capture_odds(attackers, defenders), abs=1e-12
    )


def test_empty_chain_and_hopeless_chain():
    assert chain_odds(3, []) == pytest.approx(1.0)
    assert chain_odds(0, [1]) == 0.0
    # One attacker captures at most once: it must stay behind in the captured territory.
    assert chain_odds(1, [1, 1]) == 0.0


@pytest.mark.parametrize(
    ("attackers", "path"), [(10, [1, 2, 1, 3]), (4, [1, 1, 1, 1, 1]), (25, [8, 6]), (0, [1])]
)
def test_prefix_odds_are_the_chain_odds_of_each_prefix(attackers, path):
    prefix = chain_prefix_odds(attackers, path)
    assert len(prefix) == len(path)
    for i, odds in enumerate(prefix):
        assert odds == pytest.approx(chain_odds(attackers, path[: i + 1]), abs=1e-12)
    assert prefix == sorted(prefix, reverse=True)  # a longer chain is never likelier


def _brute_two_step(attackers: int, first: int, second: int) -> float:
    """Sum over the first battle's outcomes, without the carried distribution."""
    total = 0.0
    for (a, d), p in battle_odds(attackers, first).outcomes.items():
        if d == 0 and a - 1 >= 1:
            total += float(p) * capture_odds(a - 1, second)
    return total


@pytest.mark.parametrize(("attackers", "first", "second"), [(5, 2, 2), (8, 3, 4), (3, 1, 1)])
def test_two_step_chain_matches_brute_force(attackers, first, second):
    assert chain_odds(attackers, [first, second]) == pytest.approx(
        _brute_two_step(attackers, first, second), abs=1e-12
    )


def test_two_step_chain_matches_monte_carlo():
    attackers, path = 7, [3, 2]
    rng = random.Random(2024)
    trials, wins = 20000, 0
    for _ in range(trials):
        fighting = attackers
        for defenders in path:
            d = defenders
            while fighting and d:
                rolled = [rng.randint(1, 6) for _ in range(min(fighting, 3))]
                held = [rng.randint(1, 6) for _ in range(min(d, 2))]
                lost, killed = compare(rolled, held)
                fighting -= lost
                d -= killed
            if d:
                break
            fighting -= 1  # one army stays in the captured territory
        else:
            wins += 1
    exact = chain_odds(attackers, path)
    estimate = wins / trials
    stderr = math.sqrt(exact * (1 - exact) / trials)
    assert abs(estimate - exact) < 4 * stderr


def test_board_info_continents_and_borders():
    australia = BOARD.continents[INFO.continent_of[tid("Indonesia")]]
    ci = INFO.continent_of[tid("Indonesia")]
    assert INFO.members(ci) == frozenset(continent(australia.name))
    assert INFO.bonus(ci) == australia.bonus
    assert INFO.continent_borders(ci) == (tid("Indonesia"),)
    south = INFO.continent_of[tid("Brazil")]
    assert set(INFO.continent_borders(south)) == {tid("Brazil"), tid("Venezuela")}
    assert all(tid("Siam") in INFO.neighbours[t] for t in [tid("Indonesia"), tid("India")])


def test_border_territories():
    owner = [1] * INFO.size
    for t in continent(BOARD.continents[INFO.continent_of[tid("Indonesia")]].name):
        owner[t] = 0
    assert INFO.border_territories(owner, 0) == [tid("Indonesia")]
    assert tid("Siam") in INFO.border_territories(owner, 1)
    assert tid("Alaska") not in INFO.border_territories(owner, 1)


def test_shortest_path_on_the_real_board():
    path = shortest_path(INFO, tid("Alaska"), tid("Argentina"))
    assert path is not None
    assert path[0] == tid("Alaska") and path[-1] == tid("Argentina")
    assert all(b in INFO.neighbours[a] for a, b in pairwise(path))
    # Alaska - Northwest Territory/Alberta - ... - Central America - Venezuela - ... - Argentina
    assert len(path) == 7
    assert shortest_path(INFO, tid("Alaska"), tid("Kamchatka")) == [
        tid("Alaska"),
        tid("Kamchatka"),
    ]
    assert shortest_path(INFO, tid("Peru"), tid("Peru")) == [tid("Peru")]
    # An impassable goal is unreachable; blocking the Bering strait forces the long way.
    around = shortest_path(
        INFO, tid("Alaska"), tid("Kamchatka"), passable=lambda t: t != tid("Kamchatka")
    )
    assert around is None
    blocked = {tid("Kamchatka")}
    long = shortest_path(INFO, tid("Alaska"), tid("Yakutsk"), passable=lambda t: t not in blocked)
    assert long is not None and tid("Kamchatka") not in long and len(long) > 3
    # Australia is reachable only through Siam.
    cut = shortest_path(INFO, tid("Peru"), tid("Western Australia"), lambda t: t != tid("Siam"))
    assert cut is None


def test_threat_counts_enemy_armies_that_can_attack():
    owner = [2] * INFO.size
    armies = [1] * INFO.size
    siam = tid("Siam")
    owner[siam], armies[siam] = 0, 4
    owner[tid("India")], armies[tid("India")] = 1, 5  # can attack with 4
    owner[tid("China")], armies[tid("China")] = 1, 1  # cannot attack at all
    owner[tid("Indonesia")], armies[tid("Indonesia")] = 0, 6  # own: no threat
    view = {"seat": 0, "owner": owner, "armies": armies}
    assert threat(view, INFO, siam) == 4
    owner[tid("China")], armies[tid("China")] = 2, 3
    assert threat(view, INFO, siam) == 4 + 2
    # Neutral armies never attack.
    owner[tid("India")] = -1
    assert threat(view, INFO, siam) == 2
    # Threat to an enemy territory counts the armies of everyone else, ours included.
    assert threat(view, INFO, tid("China")) == 3


@pytest.mark.parametrize(
    ("attacker", "defender", "die"),
    [((6, 3, 2), (5, 4), 1), ((2, 2), (2,), 0), ((6, 6), (1, 1), None), ((1, 5, 3), (4, 4), 2)],
)
def test_reroll_choice_is_the_weakest_compared_die_that_lost(attacker, defender, die):
    assert reroll_choice(attacker, defender) == die
