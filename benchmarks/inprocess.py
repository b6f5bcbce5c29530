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

``--compare OLD`` runs the referee rows on an older tree and this one side by side (CPU
time, interleaved subprocesses, medians).

    python benchmarks/inprocess.py [--games N] [--repeat R] [--compare OLD]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena import games
from arena.catalog import find_bot, load_bot
from arena.keys import bot_seed
from arena.protocol import envelope
from arena.referee.match import Seat, run_match
from arena.referee.seats import InProcessSeat
from arena.sdk import Bot, MatchInfo, Request


class WireSeat(InProcessSeat):
    """An in-process seat asked the wire's way: a protobuf round trip per request and answer
    (how every in-process seat was asked before the fast path)."""

    over_wire = True


_BOTS: dict[tuple[str, int], Bot] = {}


def _bots(names: list[str]) -> list[Bot]:
    """The bots of a match, loaded once and reused from match to match (as a tournament's
    worker and ``arena match`` do: loading a bot is not part of playing)."""
    for seat, name in enumerate(names):
        if (name, seat) not in _BOTS:
            _BOTS[(name, seat)] = load_bot(find_bot(name))
    return [_BOTS[(name, seat)] for seat, name in enumerate(names)]


def play(game: Any, names: list[str], seed: int, seat_type: type[InProcessSeat]) -> int:
    """One match through the referee; its decisions."""
    bots = _bots(names)
    seats: list[Seat | None] = [seat_type(b, b.name, b.version) for b in bots]
    return asyncio.run(run_match(game, seats, seed)).decisions


def direct(game: Any, names: list[str], seed: int) -> int:
    """The same bots called by a bare loop: each request built as the fast path builds it,
    the answer taken as the referee takes it; no clocks, events, records or asyncio."""
    bots = _bots(names)
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


def compare(old: Path, games_per_row: int, repeat: int) -> None:
    """The referee rows on ``old`` (an older tree, e.g. ``git worktree add /tmp/old REV``)
    and on this tree, in interleaved subprocesses; medians side by side. An older tree has
    only the path it had: its in-process seats are asked as they were then."""
    here = Path(__file__).resolve().parents[1]
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for _ in range(repeat):
        for label, root in (("before", old), ("after", here)):
            out = subprocess.run(
                [sys.executable, __file__, "--rows-json", "--games", str(games_per_row)],
                env={**os.environ, "PYTHONPATH": str(root)},
                cwd=root,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            runs[label].append(json.loads(out))
    print(f"median of {repeat} interleaved runs, {games_per_row} games per row (CPU time)")
    print(f"{'row':<28}{'before':>12}{'after':>12}{'ratio':>8}")
    for key in runs["after"][0]:
        before = statistics.median(r[key] for r in runs["before"])
        after = statistics.median(r[key] for r in runs["after"])
        print(f"{key:<28}{before:>12,.2f}{after:>12,.2f}{after / before:>7.2f}×")


def referee_rows(games_per_row: int) -> dict[str, float]:
    """What ``--compare`` measures on either tree: decisions/s and finished games/s of the
    default in-process seats (CPU time, so that other load counts less)."""
    classic = games.load("classic")
    seeds = range(1, games_per_row + 1)
    found: dict[str, float] = {}
    for label, players, name in (
        ("random 2p", 2, "random"),
        ("aggressive 2p", 2, "aggressive"),
        ("aggressive 5p", 5, "aggressive"),
    ):
        game = classic.configure({}, players)
        started = time.process_time()
        decisions = sum(play(game, [name] * players, s, InProcessSeat) for s in seeds)
        seconds = time.process_time() - started
        found[f"{label} decisions/s"] = decisions / seconds
        found[f"{label} games/s"] = len(seeds) / seconds
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per row and run")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved runs per row")
    parser.add_argument("--compare", type=Path, metavar="OLD", help="an older tree to compare")
    parser.add_argument("--rows-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rows_json:
        print(json.dumps(referee_rows(args.games)))
        return
    if args.compare is not None:
        compare(args.compare, args.games, args.repeat)
        return
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
