"""In-process play against the engine's own speed, on one core.

Prints, in one run (median of ``--repeat`` interleaved runs per row):

- the engine API loop alone as a referee drives it (``decision``, ``legal_options``,
  ``choices``, a seeded pick, checked ``apply``): the ceiling for any referee;
- ``random`` v ``random`` through the referee (``play_match``, 2 players), decisions/s, on
  the fast path (in-process seats handed their requests without protobuf) and on the wire
  path (the same seats asked through a protobuf round trip, as before the fast path), and
  the same bots called directly by a bare loop (requests built the same way, no clocks,
  records or events: the floor of what the referee adds);
- ``aggressive`` v ``aggressive`` finished games/s with 2 and 5 players, both paths.

Run it on one core: ``taskset -c 0 .venv/bin/python benchmarks/inprocess.py``.

    python benchmarks/inprocess.py [--games N] [--repeat R]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from arena import games
from arena.bots import find_bot, load_bot
from arena.protocol import envelope
from arena.referee.match import Seat, run_match
from arena.referee.seats import InProcessSeat
from arena.sdk import MatchInfo, Request
from arena.seeds import bot_seed


class WireSeat(InProcessSeat):
    """An in-process seat asked the wire's way: a protobuf round trip per request and answer
    (how every in-process seat was asked before the fast path)."""

    local = False


def play(game: Any, names: list[str], seed: int, seat_type: type[InProcessSeat]) -> int:
    """One match through the referee; its decisions."""
    bots = [load_bot(find_bot(name)) for name in names]
    seats: list[Seat | None] = [seat_type(b, b.name, b.version) for b in bots]
    return asyncio.run(run_match(game, seats, seed)).decisions


def direct(game: Any, names: list[str], seed: int) -> int:
    """The same bots called by a bare loop: each request built as the fast path builds it,
    the answer taken as the referee takes it; no clocks, events, records or asyncio."""
    bots = [load_bot(find_bot(name)) for name in names]
    for seat, bot in enumerate(bots):
        bot.start(
            MatchInfo(
                game=game.info.name,
                rules={},
                seat=seat,
                players=game.players,
                bot_seed=bot_seed(seed, seat),
                board=game.board(),
            )
        )
    state = game.new_game(seed)
    decisions = 0
    while (decision := game.decision(state)) is not None:
        seat = decision.seats[0]
        options = game.legal_options(state, seat)
        listed = list(game.choices(options))
        fields = envelope.local_request_fields(
            game,
            seat=seat,
            request_id=decisions + 1,
            kind=decision.kind,
            view=game.view(state, seat),
            options=options,
            listed=listed,
            deadline_ms=0,
            time_bank_ms=0,
            events=[],
        )
        answer = envelope.local_answer(game, bots[seat].choose(Request(**fields)))
        if isinstance(answer, int):
            action = listed[answer]
        else:
            game.check(state, seat, answer)
            action = answer
        game.apply_unchecked(state, seat, action)
        decisions += 1
    return decisions


def api_loop(game: Any, seed: int) -> int:
    """The engine alone: options, choices, a seeded pick, checked apply."""
    rng = random.Random(seed)
    state = game.new_game(seed)
    decisions = 0
    while (decision := game.decision(state)) is not None:
        seat = decision.seats[0]
        action = rng.choice(game.choices(game.legal_options(state, seat)))
        state = game.apply(state, seat, action).state
        decisions += 1
    return decisions


def rate(run: Callable[[int], int], seeds: range) -> tuple[float, float]:
    """(decisions/s, games/s) over ``seeds``."""
    started = time.perf_counter()
    decisions = sum(run(seed) for seed in seeds)
    seconds = time.perf_counter() - started
    return decisions / seconds, len(seeds) / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per row and run")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved runs per row")
    args = parser.parse_args()
    classic = games.load("classic")
    two = classic.configure({}, 2)
    five = classic.configure({}, 5)
    seeds = range(1, args.games + 1)
    rows: dict[str, Callable[[int], int]] = {
        "engine API loop (2p random)": lambda s: api_loop(two, s),
        "random v random, bots called directly": lambda s: direct(two, ["random"] * 2, s),
        "random v random, fast path": lambda s: play(two, ["random"] * 2, s, InProcessSeat),
        "random v random, wire path": lambda s: play(two, ["random"] * 2, s, WireSeat),
        "aggressive 2p, fast path": lambda s: play(two, ["aggressive"] * 2, s, InProcessSeat),
        "aggressive 2p, wire path": lambda s: play(two, ["aggressive"] * 2, s, WireSeat),
        "aggressive 5p, fast path": lambda s: play(five, ["aggressive"] * 5, s, InProcessSeat),
        "aggressive 5p, wire path": lambda s: play(five, ["aggressive"] * 5, s, WireSeat),
    }
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in rows}
    for _ in range(args.repeat):
        for name, run in rows.items():
            runs[name].append(rate(run, seeds))
    medians = {
        name: (statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs))
        for name, rs in runs.items()
    }
    print(f"in-process play, {args.games} games per row, median of {args.repeat} interleaved runs")
    print(f"{'row':<40}{'decisions/s':>12}{'games/s':>9}")
    for name, (per_decision, per_game) in medians.items():
        print(f"{name:<40}{per_decision:>12,.0f}{per_game:>9.2f}")
    fast = medians["random v random, fast path"][0]
    print(
        f"random v random: fast path {fast / medians['random v random, wire path'][0]:.2f}× the "
        f"wire path; {fast / medians['engine API loop (2p random)'][0]:.2f}× the engine API "
        f"loop; {fast / medians['random v random, bots called directly'][0]:.2f}× the bots "
        "called directly"
    )
    for players in (2, 5):
        new = medians[f"aggressive {players}p, fast path"][1]
        old = medians[f"aggressive {players}p, wire path"][1]
        print(f"aggressive {players}p finished games/s: fast path {new / old:.2f}× the wire path")


if __name__ == "__main__":
    main()
