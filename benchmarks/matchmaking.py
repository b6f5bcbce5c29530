"""The ladder's matchmaking on simulated ladders: how even the games are, how close the
tables, how soon everyone has met everyone (the figures docs/ladders.md quotes).

Synthetic bots ``3.0 * i`` points of skill apart play noisy games (performance = skill +
N(0, 4)); each match is decided as the ladder's scheduler decides it
(:func:`arena.scheduler.matchmaking.choose_table`, ratings as of the decision prefix of its
batch, games and idleness counted in decided matches) and rated with the arena's TrueSkill.

    python benchmarks/matchmaking.py [--seeds 300]
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.results.ratings import environment
from arena.scheduler.ladder import decision_prefix
from arena.scheduler.matchmaking import Standing, choose_table
from arena.scheduler.plan import derive_seed


def simulate(
    versions: int, matches: int, seats: int, batch: int, seed: int
) -> tuple[Counter[str], list[list[str]], dict[str, float]]:
    """Games per version, the tables in order, and each version's skill."""
    env = environment()
    skill = {f"v{i:02d}": 3.0 * i for i in range(versions)}
    rating = {v: env.create_rating() for v in skill}
    snapshots = [dict(rating)]
    games: Counter[str] = Counter()
    last = dict.fromkeys(skill, 0)
    noise = random.Random(seed)
    tables = []
    for index in range(matches):
        known = snapshots[decision_prefix(index, batch)]
        rng = random.Random(derive_seed(seed, 0, index))
        standings = [Standing(v, known[v].mu, games[v], index - last[v]) for v in skill]
        table = choose_table(standings, seats, rng)
        for v in table:
            games[v] += 1
            last[v] = index
        tables.append(table)
        ranked = sorted(table, key=lambda v: -(skill[v] + noise.gauss(0, 4)))
        rated = env.rate([(rating[v],) for v in table], ranks=[ranked.index(v) for v in table])
        for v, (new,) in zip(table, rated, strict=True):
            rating[v] = new
        snapshots.append(dict(rating))
    return games, tables, skill


def spread(tables: list[list[str]], skill: dict[str, float]) -> float:
    """The mean skill range of ``tables``."""
    return statistics.fmean(max(skill[v] for v in t) - min(skill[v] for v in t) for t in tables)


def pairs_met(tables: list[list[str]]) -> int:
    return len({frozenset(p) for t in tables for p in itertools.combinations(t, 2)})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=300)
    args = parser.parse_args()
    ratios = []
    for seed in range(args.seeds):
        games, _, _ = simulate(5, 60, 3, batch=2, seed=seed)
        ratios.append(max(games.values()) / min(games.values()))
    print(
        f"games, 5 versions, 60 3-seat matches, {args.seeds} seeds: most/least played "
        f"mean {statistics.fmean(ratios):.2f}, worst {max(ratios):.2f}"
    )
    for versions, matches in ((8, 300), (12, 450), (12, 900)):
        met, closer = [], []
        for seed in range(10):
            _, tables, skill = simulate(versions, matches, 3, batch=2, seed=seed)
            met.append(pairs_met(tables))
            every = [list(t) for t in itertools.combinations(sorted(skill), 3)]
            closer.append(spread(tables[2 * matches // 3 :], skill) / spread(every, skill))
        print(
            f"{versions} versions, {matches} 3-seat matches, 10 seeds: pairs met "
            f"{min(met)}-{max(met)} of {versions * (versions - 1) // 2}; last third's tables "
            f"span {statistics.fmean(closer):.2f}x the skill range of random tables"
        )


if __name__ == "__main__":
    main()
