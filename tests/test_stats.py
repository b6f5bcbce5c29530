"""Head-to-head statistics against known values and synthetic series."""

from __future__ import annotations

import math
import random

import pytest

from arena.results.stats import (
    Tally,
    elo_interval,
    elo_of_score,
    likelihood_of_superiority,
    score_of_elo,
    sprt_bounds,
    sprt_decision,
    sprt_llr,
    wilson_interval,
)


@pytest.mark.parametrize(("elo", "score"), [(0, 0.5), (400, 10 / 11), (-400, 1 / 11)])
def test_elo_and_score_are_inverse(elo, score):
    assert score_of_elo(elo) == pytest.approx(score)
    assert elo_of_score(score) == pytest.approx(elo)


def test_tally_score_and_variance():
    tally = Tally(wins=6, draws=2, losses=2)
    assert tally.games == 10 and tally.score == pytest.approx(0.7)
    expected = (6 * 0.3**2 + 2 * 0.2**2 + 2 * 0.7**2) / 10
    assert tally.variance() == pytest.approx(expected)


def test_elo_interval_contains_the_estimate_and_narrows_with_games():
    small = elo_interval(Tally(6, 2, 2))
    large = elo_interval(Tally(60, 20, 20))
    assert small[1] < small[0] < small[2]
    assert small[0] == pytest.approx(large[0])
    assert large[2] - large[1] < small[2] - small[1]


def test_likelihood_of_superiority():
    assert likelihood_of_superiority(Tally(10, 5, 10)) == pytest.approx(0.5)
    assert likelihood_of_superiority(Tally(30, 0, 10)) > 0.99
    assert likelihood_of_superiority(Tally(10, 0, 30)) < 0.01


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [(5, 10, 0.236593, 0.763407), (0, 10, 0.0, 0.277533), (10, 10, 0.722467, 1.0)],
)
def test_wilson_interval_known_values(successes, trials, low, high):
    assert wilson_interval(successes, trials) == pytest.approx((low, high), abs=1e-6)


def test_wilson_interval_is_symmetric_takes_shared_wins_and_narrows():
    low, high = wilson_interval(30.5, 100)
    assert low < 0.305 < high
    assert wilson_interval(69.5, 100) == pytest.approx((1 - high, 1 - low))
    wide, narrow = wilson_interval(30, 100), wilson_interval(300, 1000)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_sprt_bounds_match_wald():
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95))
    assert upper == pytest.approx(math.log(0.95 / 0.05))


def play(true_elo: float, rng: random.Random, limit: int, elo0: float, elo1: float):
    """A synthetic series: games won with the true score, no draws, until the SPRT decides."""
    tally = Tally()
    p = score_of_elo(true_elo)
    for _ in range(limit):
        tally = tally.add(1.0 if rng.random() < p else 0.0)
        verdict = sprt_decision(tally, elo0, elo1)
        if verdict:
            return verdict, tally.games
    return None, tally.games


def test_sprt_accepts_h1_for_a_clearly_stronger_player():
    rng = random.Random(1)
    verdicts = [play(200, rng, 2000, 0, 100)[0] for _ in range(40)]
    assert verdicts.count("H1") >= 36


def test_sprt_accepts_h0_for_equal_players():
    rng = random.Random(2)
    verdicts = [play(0, rng, 4000, 0, 100)[0] for _ in range(40)]
    assert verdicts.count("H0") >= 36


def test_sprt_stops_early_on_a_lopsided_series():
    verdict, games = play(800, random.Random(3), 1000, 0, 100)
    assert verdict == "H1" and games < 30


def test_llr_sign_follows_the_score():
    assert sprt_llr(Tally(30, 0, 10), 0, 50) > 0
    assert sprt_llr(Tally(10, 0, 30), 0, 50) < 0
