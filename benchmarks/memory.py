"""Scheduler memory over a long tournament: its resident set size (RSS) as matches are recorded.

Prints the scheduler process's RSS (the process that records, not its workers) every
``--every`` recorded matches of a tournament of ``--matches`` short 4-seat matches between
copies of the bundled random bot, first as the scheduler runs (a bounded number of matches
submitted and unrecorded at a time), then, with ``--compare``, with every match submitted at
once and kept until the end, as it used to be. Figures only: nothing is asserted.

    python benchmarks/memory.py [--matches 240] [--max-rounds 30] [--workers 2] [--compare]

Five bots give 20 matches a round (every 4-combination, each in its 4 seat rotations).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from tournament import bot_copies  # benchmarks/tournament.py, beside this script

from arena.results.store import open_store
from arena.scheduler.tournament import Progress, Runner, TournamentSettings, create


def rss_mb() -> float:
    """This process's resident set size now, MiB (Linux ``/proc``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class KeepingRunner(Runner):
    """The scheduler as it used to be: every match submitted at once, and every finished
    future (so its outcome, with the uncompressed replay) kept until the pool ends."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.in_flight_limit = self.ahead_limit = len(self.plan)
        self.kept: list[dict[str, Any]] = []

    def _receive(self, outcome: dict[str, Any]) -> None:
        self.kept.append(outcome)
        super()._receive(outcome)


def run(
    bots: list[str], rounds: int, max_rounds: int, workers: int, home: Path, unbounded: bool
) -> list[tuple[int, float, float]]:
    """(matches recorded, seconds, RSS MiB) samples of one tournament."""
    os.environ["ARENA_HOME"] = str(home)
    settings = TournamentSettings(
        bots=bots,
        seats=4,
        rounds=rounds,
        rules={"max_rounds": str(max_rounds)},
        seed=1,
        workers=workers,
        move_time=5.0,
        time_bank=60.0,
    )
    samples: list[tuple[int, float, float]] = []
    started = time.perf_counter()

    def sample(update: Progress) -> None:
        samples.append((update.done, time.perf_counter() - started, rss_mb()))

    with open_store(home / "arena.db") as store:
        tournament_id = create(store, settings)
        runner = (KeepingRunner if unbounded else Runner)(store, tournament_id, workers, sample)
        runner.run()
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=240, help="matches (multiple of 20)")
    parser.add_argument("--max-rounds", type=int, default=30)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--every", type=int, default=20, help="print a sample every N matches")
    parser.add_argument(
        "--compare",
        action="store_true",
        help="also run the old way (every match submitted at once, outcomes kept)",
    )
    args = parser.parse_args()
    rounds = max(1, args.matches // 20)
    modes = [("bounded", False)] + ([("all at once", True)] if args.compare else [])
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        root = Path(tmp)
        bots = bot_copies(root / "bots", 5)
        print(
            f"scheduler RSS over a tournament of {20 * rounds} 4-seat matches, random bots over "
            f"gRPC, max_rounds={args.max_rounds}, {args.workers} workers, "
            f"{os.cpu_count()} cores"
        )
        for index, (label, unbounded) in enumerate(modes):
            samples = run(
                bots, rounds, args.max_rounds, args.workers, root / f"home{index}", unbounded
            )
            print(f"\n{label}:")
            print(f"{'matches':>7} {'seconds':>8} {'RSS MiB':>8}")
            for done, seconds, rss in samples:
                if done % args.every == 0 or done == samples[-1][0]:
                    print(f"{done:>7} {seconds:>8.1f} {rss:>8.1f}")
            first = next(rss for done, _, rss in samples if done >= args.every)
            last = samples[-1][2]
            print(
                f"RSS from match {args.every} to the end: {first:.1f} → {last:.1f} MiB "
                f"({1024 * (last - first) / max(1, samples[-1][0] - args.every):+.1f} KiB/match)"
            )


if __name__ == "__main__":
    main()
