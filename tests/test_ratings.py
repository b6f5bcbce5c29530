"""Ratings: exact agreement with the trueskill library, forfeit ranks, plan order, rebuilds."""

from __future__ import annotations

import random

import pytest
import trueskill
from hypothesis import given, settings
from hypothesis import strategies as st

from arena import games
from arena.results.ratings import (
    BETA,
    DRAW_PROBABILITY,
    MU,
    SIGMA,
    TAU,
    MatchRecord,
    OrderedRater,
    RatingBook,
    RatingChange,
    conservative,
    environment,
    pool_game,
    pool_key,
    ranks_from_result,
    rebuild,
)

POOL = "classic/3p/world"
DUEL = "classic/2p/world"


def reference_env() -> trueskill.TrueSkill:
    """Built from the documented numbers, not from the module, so a wrong constant shows."""
    sigma = 25 / 3
    return trueskill.TrueSkill(
        mu=25.0, sigma=sigma, beta=sigma / 2, tau=sigma / 100, draw_probability=0.05
    )


def assert_rating(change: RatingChange, expected: trueskill.Rating) -> None:
    assert change.mu_after == pytest.approx(expected.mu, abs=1e-12, rel=0)
    assert change.sigma_after == pytest.approx(expected.sigma, abs=1e-12, rel=0)


def books_equal(a: RatingBook, b: RatingBook) -> bool:
    """Exactly the same pools, entries, mus and sigmas (no tolerance)."""
    flat = lambda book: {  # noqa: E731
        (pool, entry): (r.mu, r.sigma)
        for pool, entries in book.ratings.items()
        for entry, r in entries.items()
    }
    return flat(a) == flat(b)


# --- parameters -------------------------------------------------------------------------------


def test_constants_and_environment_match_the_documented_parameters() -> None:
    assert (MU, SIGMA, BETA, TAU, DRAW_PROBABILITY) == (25, 25 / 3, 25 / 6, 25 / 3 / 100, 0.05)
    env = environment()
    ref = reference_env()
    assert (env.mu, env.sigma, env.beta, env.tau, env.draw_probability) == (
        ref.mu,
        ref.sigma,
        ref.beta,
        ref.tau,
        ref.draw_probability,
    )
    assert env is not trueskill.global_env()
    assert environment() is not env


def test_pool_key() -> None:
    assert pool_key("classic", 3, "world") == "classic/3p/world"
    assert pool_key("classic", 2, "capital") == "classic/2p/capital"
    for bad in [("", 3, "world"), ("classic", 3, ""), ("a/b", 3, "world"), ("classic", 1, "x")]:
        with pytest.raises(ValueError):
            pool_key(*bad)


@pytest.mark.parametrize(
    ("players", "options", "pool"),
    [
        (2, {}, "classic/2p/world"),
        (3, {"mode": "mission"}, "classic/3p/mission"),
        (4, {"mode": "capital"}, "classic/4p/capital"),
    ],
)
def test_pools_named_through_the_game_contract_keep_their_names(
    players: int, options: dict[str, str], pool: str
) -> None:
    """A pool is the game's name and its rating format; for classic the same strings as
    before, so databases recorded under the seats-and-mode names keep their pools."""
    game = games.load("classic").configure(options, players)
    assert pool_key("classic", game.rating_format()) == pool
    again = games.load("classic").from_config(game.config())
    assert pool_key("classic", again.rating_format()) == pool
    assert pool_key("classic", players, options.get("mode", "world")) == pool
    assert pool_game(pool) == "classic"


def test_a_rating_format_is_names_joined_by_slashes() -> None:
    assert pool_key("guessing", "2p") == "guessing/2p"
    for bad in [("classic", ""), ("classic", "3p//world"), ("classic", "/3p"), ("", "2p")]:
        with pytest.raises(ValueError):
            pool_key(*bad)
    with pytest.raises(ValueError):
        pool_key("classic", "3p/world", "world")


# --- agreement with trueskill -----------------------------------------------------------------


def test_two_player_win_equals_trueskill_rate() -> None:
    book = RatingBook()
    changes = book.rate_match(DUEL, ["alice", "bob"], [1, 2], ["OK", "OK"])
    env = reference_env()
    (a,), (b,) = env.rate([(env.create_rating(),), (env.create_rating(),)], ranks=[0, 1])
    assert [c.entry for c in changes] == ["alice", "bob"]
    assert [c.seat for c in changes] == [0, 1]
    assert_rating(changes[0], a)
    assert_rating(changes[1], b)
    assert changes[0].mu_before == changes[1].mu_before == 25
    assert changes[0].sigma_before == 25 / 3
    assert changes[0].mu_after > 25 > changes[1].mu_after


def test_second_match_starts_from_the_updated_ratings() -> None:
    book = RatingBook()
    book.rate_match(DUEL, ["alice", "bob"], [1, 2], ["OK", "OK"])
    changes = book.rate_match(DUEL, ["bob", "alice"], [1, 2], ["OK", "OK"])
    env = reference_env()
    (a,), (b,) = env.rate([(env.create_rating(),), (env.create_rating(),)], ranks=[0, 1])
    (b2,), (a2,) = env.rate([(b,), (a,)], ranks=[0, 1])
    assert changes[0].mu_before == b.mu and changes[1].mu_before == a.mu
    assert_rating(changes[0], b2)
    assert_rating(changes[1], a2)
    assert book.rating(DUEL, "alice") == a2


def test_three_player_tie_equals_trueskill_with_tied_ranks() -> None:
    book = RatingBook()
    changes = book.rate_match(POOL, ["a", "b", "c"], [1, 1, 3], ["OK"] * 3)
    env = reference_env()
    new = env.rate([(env.create_rating(),)] * 3, ranks=[0, 0, 2])
    for change, (expected,) in zip(changes, new, strict=True):
        assert_rating(change, expected)
    # trueskill's iterative solver leaves tied seats equal only up to its convergence delta
    assert changes[0].mu_after == pytest.approx(changes[1].mu_after, abs=1e-2)
    assert changes[1].mu_after > changes[2].mu_after


def test_forfeit_is_rated_with_the_repaired_ranks() -> None:
    book = RatingBook()
    changes = book.rate_match(POOL, ["a", "b", "c"], [1, 2, 3], ["CRASH", "OK", "OK"])
    env = reference_env()
    new = env.rate([(env.create_rating(),)] * 3, ranks=[2, 0, 1])
    for change, (expected,) in zip(changes, new, strict=True):
        assert_rating(change, expected)


def test_same_entry_twice_is_refused() -> None:
    book = RatingBook()
    with pytest.raises(ValueError, match="one seat per match"):
        book.rate_match(POOL, ["a", "a", "b"], [1, 2, 3], ["OK"] * 3)
    assert book.ratings == {}


@pytest.mark.parametrize(
    ("entries", "places", "statuses"),
    [
        (["a"], [1], ["OK"]),
        (["a", "b"], [1], ["OK", "OK"]),
        (["a", "b"], [1, 2], ["OK"]),
        (["a", "b"], [0, 1], ["OK", "OK"]),
    ],
)
def test_malformed_matches_are_refused(
    entries: list[str], places: list[int], statuses: list[str]
) -> None:
    with pytest.raises(ValueError):
        RatingBook().rate_match(POOL, entries, places, statuses)


# --- ranks from places and statuses -----------------------------------------------------------


@pytest.mark.parametrize(
    ("places", "statuses", "out_order", "ranks"),
    [
        # all OK: places - 1, ties kept
        ([1, 2, 3], ["OK"] * 3, None, [0, 1, 2]),
        ([1, 1, 3], ["OK"] * 3, None, [0, 0, 2]),
        ([3, 1, 2, 3], ["OK"] * 4, None, [2, 0, 1, 2]),
        ([1, 1], ["OK", "OK"], None, [0, 0]),
        # forfeits the engine already placed behind everyone: unchanged
        ([1, 2, 3], ["OK", "OK", "TIMEOUT"], None, [0, 1, 2]),
        ([1, 2, 3, 4], ["OK", "OK", "CRASH", "ILLEGAL"], None, [0, 1, 2, 3]),
        # a forfeit never outranks an OK seat placed behind it: moved behind the worst one
        ([1, 2, 3], ["CRASH", "OK", "OK"], None, [2, 0, 1]),
        ([2, 1, 3], ["OK", "TIMEOUT", "OK"], None, [0, 2, 1]),
        # two moved forfeits keep their order by place, and their ties
        ([1, 2, 3, 4], ["TIMEOUT", "CRASH", "OK", "OK"], None, [2, 3, 0, 1]),
        ([1, 1, 3], ["TIMEOUT", "DISCONNECT", "OK"], None, [1, 1, 0]),
        # a tie with an OK seat at the same place is not "above": kept
        ([1, 2, 2], ["OK", "OK", "CRASH"], None, [0, 1, 1]),
        # a moved forfeit that beat a forfeit tied with the OK seat stays ahead of it
        ([1, 2, 2], ["CRASH", "OK", "TIMEOUT"], None, [1, 0, 2]),
        # everyone forfeited: places as given
        ([1, 2], ["CRASH", "TIMEOUT"], None, [0, 1]),
        # out_order: an OK seat eliminated before the forfeit may stay behind it
        ([1, 2, 3, 4], ["OK", "OK", "TIMEOUT", "OK"], [3, 2], [0, 1, 2, 3]),
        ([1, 2, 3, 4], ["OK", "OK", "TIMEOUT", "OK"], None, [0, 1, 3, 2]),
        # out_order: an OK seat alive at the forfeit still may not be outranked
        ([1, 2, 3], ["TIMEOUT", "OK", "OK"], [0], [2, 0, 1]),
        ([1, 2, 3, 4], ["TIMEOUT", "OK", "OK", "OK"], [3, 0], [2, 0, 1, 3]),
    ],
)
def test_ranks_from_result(
    places: list[int], statuses: list[str], out_order: list[int] | None, ranks: list[int]
) -> None:
    assert ranks_from_result(places, statuses, out_order) == ranks


@pytest.mark.parametrize(
    ("places", "statuses", "out_order"),
    [
        ([], [], None),
        ([1, 2], ["OK"], None),
        ([0, 1], ["OK", "OK"], None),
        ([1, 2], ["OK", "CRASH"], []),  # a forfeited seat must have left the game
        ([1, 2], ["OK", "CRASH"], [1, 1]),
        ([1, 2], ["OK", "CRASH"], [1, 2]),
        ([1, 2], ["OK", "CRASH"], [-1, 1]),
    ],
)
def test_ranks_from_result_refuses_bad_input(
    places: list[int], statuses: list[str], out_order: list[int] | None
) -> None:
    with pytest.raises(ValueError):
        ranks_from_result(places, statuses, out_order)


STATUS = st.sampled_from(["OK", "OK", "OK", "TIMEOUT", "CRASH"])


@st.composite
def results(draw: st.DrawFn) -> tuple[list[int], list[str]]:
    n = draw(st.integers(2, 6))
    places = draw(st.lists(st.integers(1, n), min_size=n, max_size=n))
    return places, draw(st.lists(STATUS, min_size=n, max_size=n))


@given(results())
@settings(max_examples=300, deadline=None)
def test_ranks_invariants(result: tuple[list[int], list[str]]) -> None:
    places, statuses = result
    ranks = ranks_from_result(places, statuses)
    seats = range(len(places))
    ok = [s for s in seats if statuses[s] == "OK"]
    out = [s for s in seats if statuses[s] != "OK"]
    for i in seats:
        for j in seats:
            both_ok = i in ok and j in ok
            both_out = i in out and j in out
            if both_ok or both_out:  # each kind keeps its order and ties
                assert (places[i] < places[j]) <= (ranks[i] < ranks[j])
                assert (places[i] == places[j]) <= (ranks[i] == ranks[j])
            if i in out and j in ok and places[j] > places[i]:  # a forfeit never pays
                assert ranks[i] > ranks[j]
    if not out:
        assert ranks == [sum(q < p for q in places) for p in places]


# --- plan order -------------------------------------------------------------------------------

BOTS = ["ant", "bee", "cat", "dog", "eel"]
POOLS = [POOL, "classic/3p/capital"]


@st.composite
def plans(draw: st.DrawFn) -> list[MatchRecord]:
    size = draw(st.integers(1, 12))
    plan = []
    for index in range(size):
        entries = draw(st.permutations(BOTS))[:3]
        places = draw(st.lists(st.integers(1, 3), min_size=3, max_size=3))
        statuses = draw(st.lists(STATUS, min_size=3, max_size=3))
        pool = draw(st.sampled_from(POOLS))
        plan.append(MatchRecord("t1", index, pool, entries, places, statuses))
    return plan


def submit(rater: OrderedRater, record: MatchRecord) -> list[tuple[int, list[RatingChange]]]:
    return rater.submit(
        record.plan_index,
        record.pool,
        list(record.entries),
        list(record.places),
        list(record.statuses),
    )


def in_order(plan: list[MatchRecord]) -> RatingBook:
    book = RatingBook()
    for record in plan:
        book.apply(record)
    return book


@given(plans(), st.randoms(use_true_random=False))
@settings(max_examples=100, deadline=None)
def test_shuffled_completion_gives_the_same_ratings(
    plan: list[MatchRecord], rng: random.Random
) -> None:
    order = list(plan)
    rng.shuffle(order)
    rater = OrderedRater()
    applied: list[int] = []
    for record in order:
        applied += [index for index, _ in submit(rater, record)]
    assert applied == list(range(len(plan)))
    assert rater.next_index == len(plan) and rater.pending == []
    assert books_equal(rater.book, in_order(plan))


def test_order_matters_so_the_rater_is_needed() -> None:
    """Sanity check for the test above: applying in completion order would differ."""
    a = MatchRecord("t", 0, DUEL, ["x", "y"], [1, 2], ["OK", "OK"])
    b = MatchRecord("t", 1, DUEL, ["y", "z"], [1, 2], ["OK", "OK"])
    c = MatchRecord("t", 2, DUEL, ["z", "x"], [1, 2], ["OK", "OK"])
    assert not books_equal(in_order([a, b, c]), in_order([c, b, a]))
    rater = OrderedRater()
    for record in [c, b, a]:
        submit(rater, record)
    assert books_equal(rater.book, in_order([a, b, c]))


def test_buffered_results_wait_for_their_predecessors() -> None:
    first = MatchRecord("t", 0, DUEL, ["x", "y"], [2, 1], ["OK", "OK"])
    second = MatchRecord("t", 1, DUEL, ["x", "z"], [1, 2], ["OK", "OK"])
    third = MatchRecord("t", 2, DUEL, ["y", "z"], [1, 2], ["OK", "OK"])
    rater = OrderedRater()
    assert submit(rater, third) == []
    assert submit(rater, second) == []
    assert rater.book.ratings == {}
    assert rater.next_index == 0 and rater.pending == [1, 2]
    applied = submit(rater, first)
    assert [index for index, _ in applied] == [0, 1, 2]
    assert [c.entry for c in applied[1][1]] == ["x", "z"]
    # index 1 was rated with x's rating *after* index 0
    assert applied[1][1][0].mu_before == applied[0][1][0].mu_after
    assert rater.next_index == 3 and rater.pending == []


def test_skip_unblocks_later_results() -> None:
    second = MatchRecord("t", 1, DUEL, ["x", "z"], [1, 2], ["OK", "OK"])
    rater = OrderedRater()
    assert submit(rater, second) == []
    applied = rater.skip(0)
    assert [index for index, _ in applied] == [1]
    assert rater.next_index == 2
    assert rater.skip(3) == []  # a future skip waits its turn
    assert rater.next_index == 2 and rater.pending == [3]
    third = MatchRecord("t", 2, DUEL, ["x", "y"], [1, 2], ["OK", "OK"])
    assert [index for index, _ in submit(rater, third)] == [2]
    assert rater.next_index == 4


def test_repeated_or_past_indexes_are_refused() -> None:
    record = MatchRecord("t", 0, DUEL, ["x", "y"], [1, 2], ["OK", "OK"])
    rater = OrderedRater()
    submit(rater, record)
    with pytest.raises(ValueError, match="already"):
        submit(rater, record)
    with pytest.raises(ValueError, match="already"):
        rater.skip(0)
    rater.skip(5)
    with pytest.raises(ValueError, match="already"):
        rater.skip(5)


def test_bad_results_are_refused_when_submitted_not_when_reached() -> None:
    rater = OrderedRater()
    with pytest.raises(ValueError):
        rater.submit(1, DUEL, ["x", "x"], [1, 2], ["OK", "OK"])
    assert rater.pending == []


def test_resume_from_a_saved_book_and_index() -> None:
    plan = [
        MatchRecord("t", i, DUEL, [a, b], [1, 2], ["OK", "OK"])
        for i, (a, b) in enumerate([("x", "y"), ("y", "z"), ("z", "x"), ("x", "y")])
    ]
    first = OrderedRater()
    for record in plan[:2]:
        submit(first, record)
    resumed = OrderedRater(RatingBook(first.book.ratings), start_index=2)
    assert resumed.next_index == 2
    for record in reversed(plan[2:]):
        submit(resumed, record)
    assert books_equal(resumed.book, in_order(plan))


# --- pools, rebuild, leaderboard --------------------------------------------------------------


def test_pools_are_independent() -> None:
    book = RatingBook()
    book.rate_match(POOL, ["x", "y", "z"], [1, 2, 3], ["OK"] * 3)
    assert book.rating("classic/3p/capital", "x") == environment().create_rating()
    book.rate_match("classic/3p/capital", ["x", "y", "z"], [3, 2, 1], ["OK"] * 3)
    assert book.rating(POOL, "x").mu > MU > book.rating("classic/3p/capital", "x").mu
    alone = RatingBook()
    alone.rate_match(POOL, ["x", "y", "z"], [1, 2, 3], ["OK"] * 3)
    assert alone.ratings[POOL] == book.ratings[POOL]


@given(plans(), plans(), st.randoms(use_true_random=False))
@settings(max_examples=50, deadline=None)
def test_rebuild_equals_incremental(
    plan1: list[MatchRecord], plan2: list[MatchRecord], rng: random.Random
) -> None:
    plan2 = [
        MatchRecord("t2", r.plan_index, r.pool, r.entries, r.places, r.statuses) for r in plan2
    ]
    lost = {r.plan_index for r in plan2 if rng.random() < 0.3}  # never produced a result
    stored = plan1 + [r for r in plan2 if r.plan_index not in lost]
    live = OrderedRater()
    for record in plan1:
        submit(live, record)
    live = OrderedRater(live.book)
    for record in plan2:
        if record.plan_index in lost:
            live.skip(record.plan_index)
        else:
            submit(live, record)
    shuffled = list(stored)
    rng.shuffle(shuffled)
    # t1 first: tournaments are replayed in the order they first appear
    first = [r for r in shuffled if r.tournament_id == "t1"][:1]
    assert books_equal(rebuild(first + [r for r in shuffled if r not in first]), live.book)


def test_rebuild_refuses_duplicate_matches() -> None:
    record = MatchRecord("t", 0, DUEL, ["x", "y"], [1, 2], ["OK", "OK"])
    with pytest.raises(ValueError, match="twice"):
        rebuild([record, record])


def test_match_record_freezes_its_sequences() -> None:
    record = MatchRecord("t", 0, DUEL, ["x", "y"], [1, 2], ["OK", "OK"], out_order=[1])
    assert record.entries == ("x", "y") and record.out_order == (1,)
    assert hash(record) == hash(
        MatchRecord("t", 0, DUEL, ("x", "y"), (1, 2), ("OK", "OK"), out_order=(1,))
    )


def test_conservative_orders_the_leaderboard() -> None:
    sure = trueskill.Rating(mu=30, sigma=1)  # 27
    lucky = trueskill.Rating(mu=35, sigma=4)  # 23
    new = environment().create_rating()  # 0
    assert conservative(sure) == 27 and conservative(lucky) == 23
    assert conservative(new) == pytest.approx(0, abs=1e-12)
    assert conservative(new) == pytest.approx(environment().expose(new), abs=1e-12)
    book = RatingBook({POOL: {"lucky": lucky, "new": new, "sure": sure, "also": sure}})
    assert [entry for entry, _ in book.standings(POOL)] == ["also", "sure", "lucky", "new"]
