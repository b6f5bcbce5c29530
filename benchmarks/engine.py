"""Engine speed on one core with random choices in-process.

Prints, for 2, 4 and 6 players: decisions per game, games/s played by random choices
(options, choice and apply per decision), validated check+apply decisions/s (target ≥ 50,000),
the unchecked in-place fast path, legal-option generation/s; the cost of copying a state
(target ≤ 20 µs); and the engine API loop as a referee drives it through the game contract
(``decision``, ``legal_options``, ``choices``, a seeded random pick, then checked ``apply``
or ``apply_unchecked``; and checked apply plus a ``view()`` per decision), decisions/s
(target ≥ 40,000 checked).

RISK: Europe rows follow (2, 3 and 4 players, the game's own round cap): decisions (seat
answers) per game, random-play games/s, the share of games won by crowns before the cap,
check+apply decisions/s (target ≥ 30,000), unchecked apply/s, option generation/s, and a
mid-game state copy (target ≤ 30 µs).

Times are the process's CPU seconds (other jobs on a shared machine skew them less than wall
time). ``--compare OLD`` runs every row (or only the API loop's) in subprocesses against the
``arena`` package at ``OLD`` (e.g. a ``git worktree add /tmp/engine-old HEAD`` checkout) and
this tree, interleaved, and prints the median of ``--repeat`` runs of each side by side.

    python benchmarks/engine.py [--games N] [--max-rounds R] [--api-only] [--json]
                                [--compare OLD [--repeat K]]
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
    started = time.process_time()
    for seed, moves in games:
        state = rules.new_game(seed)
        if checked:
            for seat, action in moves:
                state = rules.apply(state, seat, action).state
        else:
            for seat, action in moves:
                rules.apply_unchecked(state, seat, action)
    return time.process_time() - started


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


def engine_rates(games: int, max_rounds: int) -> dict[str, float]:
    """The engine's own rows: per player count decisions per game, random-play games/s,
    validated check+apply/s, unchecked apply/s and option generation/s; then a state copy."""
    rows: dict[str, float] = {}
    for players in (2, 4, 6):
        config = ClassicConfig.parse({"max_rounds": str(max_rounds)}, players)
        rules = ClassicRules(config)
        started = time.process_time()
        played = [(seed, record_game(rules, seed)) for seed in range(games)]
        seconds = time.process_time() - started
        decisions = sum(len(m) for _, m in played)
        rows[f"{players}p decisions/game"] = decisions / games
        rows[f"{players}p games/s"] = games / seconds
        rows[f"{players}p check+apply/s"] = decisions / time_replays(rules, played, True)
        rows[f"{players}p unchecked apply/s"] = decisions / time_replays(rules, played, False)
        # Option generation over the positions of the first game.
        state = rules.new_game(played[0][0])
        positions = []
        for seat, action in played[0][1]:
            positions.append((state.copy(), seat))
            rules.apply_unchecked(state, seat, action)
        started = time.process_time()
        for position, seat in positions:
            rules.legal_options(position, seat)
        rows[f"{players}p options/s"] = len(positions) / (time.process_time() - started)
    rules = ClassicRules(ClassicConfig.parse({}, 6))
    state = rules.new_game(1)
    for seat, action in record_game(rules, 1)[:400]:
        rules.apply_unchecked(state, seat, action)
    rounds = 200_000
    started = time.process_time()
    for _ in range(rounds):
        state.copy()
    rows["state copy µs"] = (time.process_time() - started) / rounds * 1e6
    return rows


def europe_record(game: Any, seed: int) -> list[dict[int, Any]]:
    """One random Europe game through the contract: each decision's answers by seat, every
    seat picking uniformly among its listed choices."""
    rng = random.Random(seed)
    state = game.new_game(seed)
    moves: list[dict[int, Any]] = []
    while (decision := game.decision(state)) is not None:
        picks = {
            seat: rng.choice(game.choices(game.legal_options(state, seat)))
            for seat in decision.seats
        }
        moves.append(picks)
        if decision.simultaneous:
            game.rules.apply_joint_unchecked(state, picks)
        else:
            game.apply_unchecked(state, decision.seats[0], picks[decision.seats[0]])
    return moves


def europe_replays(
    game: Any, games: list[tuple[int, list[dict[int, Any]]]], checked: bool
) -> float:
    """Seconds to re-play recorded Europe games: checked (``check`` + ``apply`` /
    ``apply_joint``) or in place without checks."""
    rules = game.rules
    started = time.process_time()
    for seed, moves in games:
        state = game.new_game(seed)
        for picks in moves:
            if len(picks) > 1 or rules.decision(state).simultaneous:
                if checked:
                    state = game.apply_joint(state, picks).state
                else:
                    rules.apply_joint_unchecked(state, picks)
            else:
                ((seat, action),) = picks.items()
                if checked:
                    state = game.apply(state, seat, action).state
                else:
                    game.apply_unchecked(state, seat, action)
    return time.process_time() - started


def europe_rates(games: int) -> dict[str, float]:
    """RISK: Europe rows at the game's default round cap: per player count decisions (seat
    answers) per game, random-play games/s, the share of games won by crowns before the cap,
    checked and unchecked apply/s, option generation/s; then a mid-game state copy."""
    from arena.games import load

    rows: dict[str, float] = {}
    copy_state = None
    for players in (2, 3, 4):
        game = load("europe").configure({}, players)
        started = time.process_time()
        played = [(seed, europe_record(game, seed)) for seed in range(games)]
        seconds = time.process_time() - started
        answers = sum(len(p) for _, m in played for p in m)
        crowns = 0
        for seed, moves in played:
            state = game.new_game(seed)
            for picks in moves:
                state = game.apply_joint(state, picks).state
            crowns += state.end == "crowns"
            if players == 4 and copy_state is None:
                copy_state = state
        key = f"europe {players}p"
        rows[f"{key} decisions/game"] = answers / games
        rows[f"{key} games/s"] = games / seconds
        rows[f"{key} crowns ends %"] = 100 * crowns / games
        rows[f"{key} check+apply/s"] = answers / europe_replays(game, played, True)
        rows[f"{key} unchecked apply/s"] = answers / europe_replays(game, played, False)
        state = game.new_game(played[0][0])
        positions = []
        for picks in played[0][1]:
            positions.extend((state.copy(), seat) for seat in picks)
            state = game.apply_joint(state, picks).state
        started = time.process_time()
        for position, seat in positions:
            game.legal_options(position, seat)
        rows[f"{key} options/s"] = len(positions) / (time.process_time() - started)
    game = load("europe").configure({}, 4)
    state = game.new_game(1)
    for picks in europe_record(game, 1)[:150]:
        state = game.apply_joint(state, picks).state
    rounds = 200_000
    started = time.process_time()
    for _ in range(rounds):
        state.copy()
    rows["europe state copy µs"] = (time.process_time() - started) / rounds * 1e6
    return rows


def all_rates(games: int, max_rounds: int, api_only: bool) -> dict[str, float]:
    """Every row (or only the API loop's), engine rows first."""
    rows = {} if api_only else engine_rates(games, max_rounds)
    rows.update({f"API loop {k}/s": v for k, v in api_rates(games, max_rounds).items()})
    if not api_only:
        rows.update(europe_rates(games))
    return rows


def print_rows(columns: dict[str, dict[str, float]]) -> None:
    """The table, one column per tree; with two, the speed-up (for µs: before ÷ after)."""
    names = list(columns)
    print(f"{'row':<32}" + "".join(f"{n:>12}" for n in names))
    for key in next(iter(columns.values())):
        values = [columns[n][key] for n in names]
        row = "".join(f"{v:>12,.2f}" if v < 100 else f"{v:>12,.0f}" for v in values)
        if len(values) == 2 and not key.endswith("decisions/game"):
            gain = values[0] / values[1] if key.endswith("µs") else values[1] / values[0]
            row += f"{gain:>8.2f}×"
        print(f"{key:<32}{row}")


def compare(old: Path, games: int, max_rounds: int, repeat: int, api_only: bool) -> None:
    """Interleaved subprocess runs on ``old`` and this tree; the median of each row."""
    here = Path(__file__).resolve().parents[1]
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    command = [sys.executable, __file__, "--json", "--games", str(games)]
    command += ["--max-rounds", str(max_rounds)] + (["--api-only"] if api_only else [])
    for _ in range(repeat):
        for label, root in (("before", old), ("after", here)):
            env = {**os.environ, "PYTHONPATH": str(root)}
            out = subprocess.run(
                command, env=env, cwd=root, check=True, capture_output=True, text=True
            ).stdout
            runs[label].append(json.loads(out))
    medians = {
        label: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for label, rs in runs.items()
    }
    print(
        f"median of {repeat} interleaved runs, {games} games per row, "
        f"max_rounds={max_rounds}, CPU seconds"
    )
    print_rows(medians)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per player count")
    parser.add_argument("--max-rounds", type=int, default=150)
    parser.add_argument("--api-only", action="store_true", help="only the API loop rows")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--compare", type=Path, metavar="OLD", help="tree to compare against")
    parser.add_argument("--repeat", type=int, default=3, help="runs per side with --compare")
    args = parser.parse_args()
    if args.compare is not None:
        compare(args.compare, args.games, args.max_rounds, args.repeat, args.api_only)
        return
    rows = all_rates(args.games, args.max_rounds, args.api_only)
    if args.json:
        print(json.dumps(rows))
        return
    print(
        f"classic engine, random choices, {args.games} games per row, "
        f"max_rounds={args.max_rounds}, CPU seconds"
    )
    print_rows({"this tree": rows})
    print("targets: check+apply ≥ 50,000/s, API loop checked ≥ 40,000/s, state copy ≤ 20 µs")
    if not args.api_only:
        print("europe (default round cap): check+apply ≥ 30,000/s, state copy ≤ 30 µs")


if __name__ == "__main__":
    main()
