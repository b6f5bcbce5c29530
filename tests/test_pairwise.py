"""Pairwise scores and their intervals, non-transitive cycles, match quality and the games a
version still needs to settle: small cases computed by hand."""

from __future__ import annotations

import math
import random

import pytest
import trueskill

from arena.results import cycles, pairwise, quality, settling
from arena.results.pairwise import PairScore, score_interval
from arena.results.ratings import BETA, SIGMA, TAU, environment
from arena.results.stats import Z95, wilson_interval

K10 = Z95**2 / 10


@pytest.mark.parametrize("wins,losses", [(3, 1), (2, 4), (0, 5), (7, 0), (10, 10), (1, 0)])
def test_without_ties_the_interval_is_wilsons(wins: int, losses: int):
    low, high = score_interval(wins, 0, losses)
    want = wilson_interval(wins, wins + losses)
    assert low == pytest.approx(want[0], abs=1e-12) and high == pytest.approx(want[1], abs=1e-12)


def test_three_wins_and_a_loss_by_hand():
    # Wilson: (p + z²/2n ± z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n), p = 0.75, n = 4
    k = Z95**2 / 4
    half = Z95 * math.sqrt(0.75 * 0.25 / 4 + Z95**2 / 64)
    want = ((0.75 + k / 2 - half) / (1 + k), (0.75 + k / 2 + half) / (1 + k))
    assert score_interval(3, 0, 1) == pytest.approx(want, abs=1e-12)
    assert want == pytest.approx((0.3006418, 0.9544127), abs=1e-6)


def test_ten_ties_by_hand():
    # every game a tie: t(s) = 1 − |2s − 1|, so v(s) = (1 − s)(s − ½) above ½ and
    # (s − ½)² = k·(1 − s)(s − ½) gives s = (½ + k)/(1 + k); below ½ by symmetry
    low, high = score_interval(0, 10, 0)
    assert high == pytest.approx((0.5 + K10) / (1 + K10), abs=1e-12)
    assert low == pytest.approx(0.5 / (1 + K10), abs=1e-12)
    assert (round(low, 2), round(high, 2)) == (0.36, 0.64)


def test_a_win_two_ties_and_a_loss_by_hand():
    # W = L = 1, T = 2, n = 4: the tie rate at score s is the smaller root of
    # 2t² − 3t + 4s(1 − s) = 0; each end solves (½ − s)² = (z²/4)·(s(1 − s) − t/4)
    low, high = score_interval(1, 2, 1)
    for s in (low, high):
        t = (3 - math.sqrt(9 - 32 * s * (1 - s))) / 4
        assert pairwise.constrained_tie_rate(1, 2, 1, s) == pytest.approx(t, abs=1e-12)
        assert (0.5 - s) ** 2 == pytest.approx(Z95**2 / 4 * (s * (1 - s) - t / 4), abs=1e-9)
    assert low == pytest.approx(1 - high, abs=1e-12)
    wilson = wilson_interval(2, 4)  # a tie as half a win: wider, as if the ties were coin flips
    assert wilson[0] < low < 0.5 < high < wilson[1]
    assert (round(low, 4), round(high, 4)) == (0.1979, 0.8021)


def test_no_games_and_bad_counts():
    assert score_interval(0, 0, 0) == (0.0, 1.0)
    assert PairScore().score is None and PairScore().interval() == (0.0, 1.0)
    with pytest.raises(ValueError, match="negative"):
        score_interval(-1, 0, 2)


def test_the_reversed_record_mirrors_the_interval():
    record = PairScore(5, 3, 2)
    low, high = record.interval()
    back = record.reversed().interval()
    assert back == pytest.approx((1 - high, 1 - low), abs=1e-12)
    assert record.score == 0.65 and record.reversed().score == 0.35


def test_the_tally_counts_every_pair_of_seats_once():
    # a 3-seat match: a first, b and c level; then b ahead of a in a duel
    counts = pairwise.tally([(("a", "b", "c"), (0, 1, 1)), (("b", "a"), (0, 1))])
    assert counts == {("a", "b"): [1, 0, 1], ("a", "c"): [1, 0, 0], ("b", "c"): [0, 1, 0]}
    cells = pairwise.matrix([(("a", "b", "c"), (0, 1, 1)), (("b", "a"), (0, 1))])
    assert cells[("a", "b")].score == 0.5 and cells[("b", "c")].score == 0.5
    assert cells[("c", "a")].record == PairScore(0, 0, 1) and cells[("c", "a")].score == 0.0
    assert cells[("b", "a")].low == pytest.approx(1 - cells[("a", "b")].high)


def _ring(*edges: tuple[str, str, int, int]) -> dict[pairwise.Pair, pairwise.Cell]:
    """A matrix from (a, b, a's wins, a's losses) per pair."""
    matches = []
    for a, b, wins, losses in edges:
        matches += [((a, b), (0, 1))] * wins + [((a, b), (1, 0))] * losses
    return pairwise.matrix(matches)


def test_rock_paper_scissors_is_a_cycle_significant_with_enough_games():
    few = cycles.find_cycles(_ring(("r", "s", 3, 1), ("s", "p", 3, 1), ("p", "r", 3, 1)))
    assert [(c.versions, c.significant) for c in few] == [(("p", "r", "s"), False)]
    many = cycles.find_cycles(_ring(("r", "s", 30, 5), ("s", "p", 30, 5), ("p", "r", 30, 5)))
    assert [(c.versions, c.significant) for c in many] == [(("p", "r", "s"), True)]
    assert many[0].edges() == [("p", "r"), ("r", "s"), ("s", "p")]


def test_a_transitive_matrix_has_no_cycle():
    cells = _ring(("a", "b", 8, 2), ("b", "c", 8, 2), ("a", "c", 9, 1), ("c", "d", 6, 4))
    assert cycles.find_cycles(cells) == []
    assert cycles.cyclic_versions(cycles.beats_graph(cells.values())) == []


def test_an_even_score_is_no_edge():
    cells = _ring(("a", "b", 5, 5), ("b", "c", 5, 5), ("c", "a", 5, 5))
    assert cycles.find_cycles(cells) == []


def test_the_shortest_cycle_through_each_version_and_a_significant_longer_one():
    # a > b > c > a, but c's edge over a is doubtful; a > b > c > d > a is significant throughout
    cells = _ring(
        ("a", "b", 40, 2), ("b", "c", 40, 2), ("c", "a", 3, 2), ("c", "d", 40, 2),
        ("d", "a", 40, 2), ("b", "d", 20, 20),
    )  # fmt: skip
    found = [(c.versions, c.significant) for c in cycles.find_cycles(cells)]
    assert found == [(("a", "b", "c", "d"), True), (("a", "b", "c"), False)]
    graph = cycles.beats_graph(cells.values())
    assert cycles.cyclic_versions(graph) == [["a", "b", "c", "d"]]


def test_components_apart():
    graph = {"a": ["b"], "b": ["c"], "c": ["a"], "d": ["e"], "e": ["f"], "f": ["d"], "g": ["a"]}
    assert cycles.components(graph) == [["a", "b", "c"], ["d", "e", "f"], ["g"]]
    assert cycles.shortest_cycle_through(graph, "g", {"g", "a"}) is None


def test_quality_by_hand():
    assert quality.match_quality([(25.0, 0.0), (25.0, 0.0)]) == pytest.approx(1.0)
    # two newcomers: sqrt(2β² / (2β² + 2σ²)) with β = σ/2, i.e. sqrt(0.2)
    assert quality.match_quality([(25.0, SIGMA), (25.0, SIGMA)]) == pytest.approx(math.sqrt(0.2))
    gap = quality.match_quality([(30.0, 1.0), (20.0, 1.0)])
    spread = 2 * BETA**2 + 2
    assert gap == pytest.approx(math.sqrt(2 * BETA**2 / spread) * math.exp(-100 / (2 * spread)))
    with pytest.raises(ValueError, match="at least 2 seats"):
        quality.match_quality([(25.0, 1.0)])


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_quality_is_trueskills(seats: int):
    env = environment()
    rng = random.Random(seats)
    for _ in range(20):
        ratings = [(rng.uniform(5, 45), rng.uniform(0.3, 9)) for _ in range(seats)]
        want = env.quality([(trueskill.Rating(mu, sigma),) for mu, sigma in ratings])
        assert quality.match_quality(ratings) == pytest.approx(want, rel=1e-9, abs=1e-15)


def test_quality_summary_by_thirds():
    assert quality.thirds([1, 2, 3, 4, 5, 6, 7]) == [[1, 2, 3], [4, 5], [6, 7]]
    assert quality.thirds([1]) == [[1], [], []]
    got = quality.summary([0.1, 0.2, 0.3, 0.5, 0.6, 0.9])
    assert got["matches"] == 6 and got["mean"] == pytest.approx(0.43333333)
    assert got["min"] == 0.1 and got["max"] == 0.9
    means = [third["mean"] for third in got["thirds"]]
    assert means == pytest.approx([0.15, 0.4, 0.75])
    empty = quality.summary([])
    assert empty["mean"] is None and [t["mean"] for t in empty["thirds"]] == [None] * 3


def test_games_to_settle_without_dynamics_is_linear_in_precision():
    # τ = 0: 1/σ² grows by r a game, from 1/9 to 1/2.25 is 1/3 of precision: 3.33 games at 0.1
    assert settling.games_to_settle(3.0, 0.1, tau=0.0) == 4
    assert settling.games_to_settle(3.0, 1 / 3, tau=0.0) == 1
    assert settling.games_to_settle(1.5, 0.1) == 0  # already settled


def test_the_floor_and_never():
    # the floor x* solves 1/x* = 1/(x* + τ²) + r
    rate = 0.3
    floor = settling.sigma_floor(rate)
    x = floor**2
    assert 1 / x == pytest.approx(1 / (x + TAU**2) + rate)
    assert settling.sigma_floor(0.0) == math.inf
    weak = 0.001  # far too little information a game: the floor is above 1.5
    assert settling.sigma_floor(weak) > settling.SETTLED_SIGMA
    assert settling.games_to_settle(4.0, weak) == settling.NEVER
    # τ = 0, from 1/64 to 1/2.25 of precision at 0.0003 a game: 1,430 games, over the cap
    assert settling.games_to_settle(8.0, 0.0003, tau=0.0) == settling.MAX_ESTIMATE + 1


def test_games_needed_from_a_history():
    assert settling.games_needed([]) is None
    env = environment()
    a, b = env.create_rating(), env.create_rating()
    history = []
    for game in range(20):
        (a2,), (b2,) = env.rate([(a,), (b,)], ranks=[game % 2, 1 - game % 2])
        history.append(settling.Change(a.sigma, a2.sigma))
        a, b = a2, b2
    needed = settling.games_needed(history)
    assert isinstance(needed, int) and 5 <= needed <= 20  # 10 more were needed when played out
    rate = settling.information_per_game(history)
    recent = history[-settling.RECENT_GAMES :]
    want = sum(1 / c.sigma_after**2 - 1 / (c.sigma_before**2 + TAU**2) for c in recent) / 10
    assert rate == pytest.approx(want)
