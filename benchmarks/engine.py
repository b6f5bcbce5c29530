"""Engine speed on one core with random choices in-process.

Prints: games/s played by random choices (options, choice and apply per decision);
validated check+apply decisions/s (target ≥ 50,000) and the unchecked in-place fast
path as a ratio; legal-option generation/s; games/s and decisions per game for 2, 4 and 6
players; the cost of copying a state (target ≤ 20 µs); and the engine API loop as a
referee drives it through the game contract (``decision``, ``legal_options``, ``choices``, a
seeded random pick, then checked ``apply`` or ``apply_unchecked``; and checked apply plus a
``view()`` per decision), decisions/s (target ≥ 40,000 checked).

``--compare OLD`` runs the API loop rows in subprocesses against the ``arena`` package at
``OLD`` (e.g. a ``git worktree add /tmp/engine-old HEAD`` checkout) and this tree,
interleaved, and prints the median of ``--repeat`` runs of each side by side.

    python benchmarks/engine.py [--games N] [--max-rounds R] [--api-only] [--compare OLD]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from arena.games.classic import ClassicConfig, ClassicRules, choices
from arena.games.classic.actions import Action


def record_game(rules: ClassicRules, seed: int) -> list[tuple[int, Action]]:
    """One random game's (seat, action) sequence."""
    rng = random.Random(seed)
    state = rules.new_game(seed)
    moves = []
    while (decision := rules.decision(state)) is not None:
        seat = rng.choice(decision.seats)
        action = rng.choice(choices(rules.legal_options(state, seat)))
        moves.append((seat, action))
        rules.apply_unchecked(state, seat, action)
    return moves


def time_replays(rules: ClassicRules, games: list[tuple[int, list]], checked: bool) -> float:
    """Seconds to re-play recorded games with validated apply (or the unchecked fast path)."""
    started = time.perf_counter()
    for seed, moves in games:
        state = rules.new_game(seed)
        if checked:
            for seat, action in moves:
                state = rules.apply(state, seat, action).state
        else:
            for seat, action in moves:
                rules.apply_unchecked(state, seat, action)
    return time.perf_counter() - started


API_MODES = ("checked", "unchecked", "view")
"""The API loop rows: checked apply, the unchecked fast path, checked apply plus a view."""


def api_loop(game: Any, seeds: range, mode: str) -> tuple[int, float]:
    """(decisions, seconds) of seeded random games played through the game contract the way
    a referee drives it; ``mode`` is one of :data:`API_MODES`. Seconds are this process's
    CPU time, so other jobs on the machine skew the figure less than they skew wall time."""
    checked, view = mode != "unchecked", mode == "view"
    decisions = 0
    started = time.process_time()
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_game(seed)
        while (decision := game.decision(state)) is not None:
            seat = decision.seats[0]
            if view:
                game.view(state, seat)
            action = rng.choice(game.choices(game.legal_options(state, seat)))
            if checked:
                state = game.apply(state, seat, action).state
            else:
                game.apply_unchecked(state, seat, action)
            decisions += 1
    return decisions, time.process_time() - started


def api_rates(games: int, max_rounds: int) -> dict[str, float]:
    """Decisions/s of every API loop row, keyed ``"<players>p <mode>"``."""
    from arena.games import load

    rates: dict[str, float] = {}
    for players in (2, 4, 6):
        game = load("classic").configure({"max_rounds": str(max_rounds)}, players)
        for mode in API_MODES:
            decisions, seconds = api_loop(game, range(games), mode)
            rates[f"{players}p {mode}"] = decisions / seconds
    return rates


def print_api(columns: dict[str, dict[str, float]]) -> None:
    """The API loop table, one column per tree."""
    names = list(columns)
    print(f"{'engine API loop, decisions/s':<30}" + "".join(f"{n:>12}" for n in names))
    for key in next(iter(columns.values())):
        row = "".join(f"{columns[n][key]:>12,.0f}" for n in names)
        if len(names) == 2:
            row += f"{columns[names[1]][key] / columns[names[0]][key]:>8.2f}×"
        print(f"{key:<30}{row}")


def compare(old: Path, games: int, max_rounds: int, repeat: int) -> None:
    """Interleaved subprocess runs of the API loop on ``old`` and this tree; medians."""
    here = Path(__file__).resolve().parents[1]
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for _ in range(repeat):
        for label, root in (("before", old), ("after", here)):
            env = {**os.environ, "PYTHONPATH": str(root)}
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--api-json",
                    "--games",
                    str(games),
                    "--max-rounds",
                    str(max_rounds),
                ],
                env=env,
                cwd=root,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            runs[label].append(json.loads(out))
    medians = {
        label: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for label, rs in runs.items()
    }
    print(f"median of {repeat} interleaved runs, {games} games per row, max_rounds={max_rounds}")
    print_api(medians)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per player count")
    parser.add_argument("--max-rounds", type=int, default=150)
    parser.add_argument("--api-only", action="store_true", help="only the API loop rows")
    parser.add_argument("--api-json", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--compare", type=Path, metavar="OLD", help="tree to compare against")
    parser.add_argument("--repeat", type=int, default=3, help="runs per side with --compare")
    args = parser.parse_args()
    if args.api_json:
        print(json.dumps(api_rates(args.games, args.max_rounds)))
        return
    if args.compare is not None:
        compare(args.compare, args.games, args.max_rounds, args.repeat)
        return
    if args.api_only:
        print_api({"this tree": api_rates(args.games, args.max_rounds)})
        return

    print(
        f"classic engine, random choices, {args.games} games per row, max_rounds={args.max_rounds}"
    )
    print(
        f"{'players':>7} {'dec/game':>9} {'games/s':>8} {'apply/s':>9} "
        f"{'unchecked/s':>11} {'ratio':>6} {'options/s':>9}"
    )
    overall = []
    for players in (2, 4, 6):
        config = ClassicConfig.parse({"max_rounds": str(args.max_rounds)}, players)
        rules = ClassicRules(config)
        started = time.perf_counter()
        games = [(seed, record_game(rules, seed)) for seed in range(args.games)]
        played = time.perf_counter() - started
        decisions = sum(len(m) for _, m in games)
        checked = time_replays(rules, games, checked=True)
        unchecked = time_replays(rules, games, checked=False)
        # Option generation over the positions of the first game.
        state = rules.new_game(games[0][0])
        positions = []
        for seat, action in games[0][1]:
            positions.append((state.copy(), seat))
            rules.apply_unchecked(state, seat, action)
        started = time.perf_counter()
        for position, seat in positions:
            rules.legal_options(position, seat)
        options_rate = len(positions) / (time.perf_counter() - started)
        overall.append(decisions / checked)
        print(
            f"{players:>7} {decisions / len(games):>9.0f} {len(games) / played:>8.2f} "
            f"{decisions / checked:>9.0f} {decisions / unchecked:>11.0f} "
            f"{checked / unchecked:>6.2f} {options_rate:>9.0f}"
        )
    print(
        f"check+apply decisions/s (mean of rows): {sum(overall) / len(overall):,.0f} (target ≥ 50,000)"
    )

    rules = ClassicRules(ClassicConfig.parse({}, 6))
    state = rules.new_game(1)
    for seat, action in record_game(rules, 1)[:400]:
        rules.apply_unchecked(state, seat, action)
    rounds = 200_000
    started = time.perf_counter()
    for _ in range(rounds):
        state.copy()
    copy_us = (time.perf_counter() - started) / rounds * 1e6
    print(f"state copy: {copy_us:.2f} µs (target ≤ 20 µs)")
    print_api({"this tree": api_rates(max(1, args.games // 4), args.max_rounds)})


if __name__ == "__main__":
    main()
