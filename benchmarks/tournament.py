"""Tournament throughput over gRPC with random bots.

Prints, in one run: matches/minute of a 100-match tournament with 1 and 2 workers and their
ratio (target ≥ 1.6× on 2 cores), the share of wall time not spent inside matches (target
≤ 10%), and results-database writes/s (one match with seats, replay and rating updates per
transaction).

    python benchmarks/tournament.py [--matches 100] [--max-rounds 20]

Five copies of the bundled random bot (distinct names, so distinct versions) play 2-seat
round robins (20 matches a round); ``--max-rounds`` caps each game to keep the run short.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from pathlib import Path

from arena.paths import bundled_bots_dir
from arena.scheduler.tournament import Runner, TournamentSettings, create
from arena.store import open_store


class TimedRunner(Runner):
    """A runner that adds up the seconds spent inside matches."""

    busy = 0.0

    def _record(self, index: int, changes: list) -> None:
        outcome = self.results[index]
        self.busy += outcome["finished_at"] - outcome["started_at"]
        super()._record(index, changes)


def bot_copies(folder: Path, count: int) -> list[str]:
    """``count`` copies of the random bot under ``folder``; returns their paths."""
    paths = []
    for i in range(count):
        target = folder / f"random-{i}"
        shutil.copytree(bundled_bots_dir() / "random", target)
        toml = target / "bot.toml"
        toml.write_text(toml.read_text().replace('name = "random"', f'name = "random-{i}"'))
        paths.append(str(target))
    return paths


def run(workers: int, bots: list[str], rounds: int, max_rounds: int, home: Path) -> dict:
    os.environ["ARENA_HOME"] = str(home)
    settings = TournamentSettings(
        bots=bots,
        seats=2,
        rounds=rounds,
        rules={"max_rounds": str(max_rounds)},
        seed=1,
        workers=workers,
        move_time=5.0,
        time_bank=60.0,
    )
    with open_store(home / "arena.db") as store:
        tournament_id = create(store, settings)
        runner = TimedRunner(store, tournament_id, workers)
        started = time.perf_counter()
        runner.run()
        wall = time.perf_counter() - started
        matches = len(store.recorded_indices(tournament_id))
    return {"matches": matches, "wall": wall, "busy": runner.busy, "workers": workers}


def db_writes(home: Path, count: int = 300) -> float:
    """Matches recorded per second (each: match, seats, a 50 KB replay, rating rows)."""
    with open_store(home / "writes.db") as store:
        store.add_bot("a", "Python", "", "a")
        store.add_bot("b", "Python", "", "b")
        store.add_version("va", "a", "1")
        store.add_version("vb", "b", "1")
        plan = [
            {"plan_index": i, "round": 0, "seed": i, "seats": ["va", "vb"]} for i in range(count)
        ]
        store.create_tournament("t", "bench", {}, 1, plan)
        replay = (b'{"type":"decision","seat":0,"events":[]}\n') * 1200
        started = time.perf_counter()
        for i in range(count):
            store.record_match(
                {
                    "id": f"m{i}",
                    "tournament_id": "t",
                    "plan_index": i,
                    "game": "classic",
                    "pool": "classic/2p/world",
                    "rules": {},
                    "seed": i,
                    "end_reason": "domination",
                    "turns": 30,
                    "rounds": 15,
                    "decisions": 500,
                    "started_at": "x",
                    "finished_at": "y",
                },
                [
                    {"seat": 0, "version_id": "va", "bot": "a", "place": 1, "status": "OK"},
                    {"seat": 1, "version_id": "vb", "bot": "b", "place": 2, "status": "OK"},
                ],
                replay,
                [
                    {
                        "pool": "classic/2p/world",
                        "version_id": v,
                        "mu_before": 25,
                        "sigma_before": 8,
                        "mu_after": 26,
                        "sigma_after": 7,
                    }
                    for v in ("va", "vb")
                ],
                [
                    {"pool": "classic/2p/world", "version_id": v, "mu": 26, "sigma": 7, "games": i}
                    for v in ("va", "vb")
                ],
            )
        return count / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100, help="matches per run (multiple of 20)")
    parser.add_argument("--max-rounds", type=int, default=20)
    args = parser.parse_args()
    rounds = max(1, args.matches // 20)
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        root = Path(tmp)
        bots = bot_copies(root / "bots", 5)
        rows = [run(w, bots, rounds, args.max_rounds, root / f"home{w}") for w in (1, 2)]
        writes = db_writes(root)
    print(
        f"tournament of {rows[0]['matches']} 2-seat matches, random bots over gRPC, "
        f"max_rounds={args.max_rounds}, {os.cpu_count()} cores"
    )
    print(f"{'workers':>7} {'wall s':>7} {'matches/min':>11} {'outside matches':>15}")
    for row in rows:
        per_minute = 60 * row["matches"] / row["wall"]
        outside = 1 - row["busy"] / (row["wall"] * row["workers"])
        print(
            f"{row['workers']:>7} {row['wall']:>7.1f} {per_minute:>11.1f} {100 * outside:>14.1f}%"
        )
    ratio = rows[0]["wall"] / rows[1]["wall"]
    print(
        f"2 workers / 1 worker: {ratio:.2f}× (target ≥ 1.6×); share outside matches with 2 "
        "workers: target ≤ 10%"
    )
    print(f"database: {writes:.0f} match records/s (one transaction each)")


if __name__ == "__main__":
    main()
