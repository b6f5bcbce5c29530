"""Engine speed on one core with random choices in-process.

Prints: games/s played by random choices (options, choice and apply per decision);
validated check+apply decisions/s (target ≥ 50,000) and the unchecked in-place fast
path as a ratio; legal-option generation/s; games/s and decisions per game for 2, 4 and 6
players; and the cost of copying a state (target ≤ 20 µs).

    python benchmarks/engine.py [--games N] [--max-rounds R]
"""

from __future__ import annotations

import argparse
import random
import time

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per player count")
    parser.add_argument("--max-rounds", type=int, default=150)
    args = parser.parse_args()

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


if __name__ == "__main__":
    main()
