"""Tournament throughput with random bots, over gRPC and in-process, by worker count.

Prints, in one run: matches/minute of a tournament with 1, 2, 3 and 4 workers, for bots over
gRPC (100 matches) and for bots in-process (``tournament run --in-process``; 400 matches, as
they are much shorter), the scaling ratio of each worker count against 1 worker (target for
in-process 1 → 2 workers ≥ 1.8× on 2 cores; gRPC reported), the share of the workers' time
not spent inside matches (target ≤ 10%), the scheduler's own CPU per match (recording,
rating, progress: it competes with the workers for the cores), and results-database
writes/s (one match with seats, replay and rating updates per transaction). With Ray
installed, the same tournaments also run through the Ray executor (``--executor ray``) with
one worker per core, right after the local pool's row of as many workers (target: overhead
≤ 10%); each such run has a process and a Ray instance of its own, started before the clock
does, as a cluster is already running (``--no-ray`` skips them).

    python benchmarks/tournament.py [--matches 100] [--in-process-matches 400] [--max-rounds 20]
        [--workers 1,2,3,4] [--in-process | --grpc] [--repeat 1] [--no-ray]

Five copies of the bundled random bot (distinct names, so distinct versions) play 2-seat
round robins (20 matches a round); ``--max-rounds`` caps each game to keep the run short.
``--repeat N`` runs every row N times, interleaved, and keeps the median wall time.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.paths import bundled_bots_dir
from arena.results.store import open_store
from arena.scheduler.tournament import Runner, TournamentSettings, create, usable_cores


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


def run(
    workers: int,
    bots: list[str],
    rounds: int,
    max_rounds: int,
    home: Path,
    in_process: bool,
    executor: str = "local",
) -> dict:
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
        in_process=in_process,
    )
    with open_store(home / "arena.db") as store:
        tournament_id = create(store, settings)
        runner = TimedRunner(store, tournament_id, workers, executor=executor)
        started, cpu = time.perf_counter(), time.process_time()
        runner.run()
        wall = time.perf_counter() - started
        cpu = time.process_time() - cpu
        matches = len(store.recorded_indices(tournament_id))
    return {
        "matches": matches,
        "wall": wall,
        "busy": runner.busy,
        "cpu": cpu,
        "workers": workers,
        "in_process": in_process,
        "executor": executor,
    }


def ray_run(
    workers: int, bots: list[str], rounds: int, max_rounds: int, home: Path, in_process: bool
) -> dict:
    """:func:`run` through the Ray executor, in a child process: the benchmark's own process
    forks the local pool's workers, which must not inherit a Ray driver."""
    spec = json.dumps([workers, bots, rounds, max_rounds, str(home), in_process])
    done = subprocess.run(
        [sys.executable, __file__, "--ray-run", spec],
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the Ray run failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.splitlines()[-1])


def _ray_child(spec: str) -> None:
    """The child of :func:`ray_run`: a local Ray instance (loopback only), one run, its row."""
    workers, bots, rounds, max_rounds, home, in_process = json.loads(spec)
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    import ray

    quiet = {"logging_level": logging.ERROR, "log_to_driver": False}
    ray.init(num_cpus=workers, include_dashboard=False, **quiet)
    try:
        row = run(workers, bots, rounds, max_rounds, Path(home), in_process, "ray")
    finally:
        ray.shutdown()
    print(json.dumps(row))


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
    parser.add_argument(
        "--in-process-matches", type=int, default=400, help="matches per in-process run"
    )
    parser.add_argument("--max-rounds", type=int, default=20)
    parser.add_argument("--workers", default="1,2,3,4", help="worker counts, comma-separated")
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--in-process", action="store_true", help="only bots in-process")
    only.add_argument("--grpc", action="store_true", help="only bots over gRPC")
    parser.add_argument("--repeat", type=int, default=1, help="runs per row (median kept)")
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray executor's rows")
    parser.add_argument("--ray-run", help=argparse.SUPPRESS)  # the child of ray_run()
    args = parser.parse_args()
    if args.ray_run:
        _ray_child(args.ray_run)
        return
    ray_workers = usable_cores()
    with_ray = not args.no_ray and importlib.util.find_spec("ray") is not None
    rounds = {False: max(1, args.matches // 20), True: max(1, args.in_process_matches // 20)}
    counts = [int(w) for w in args.workers.split(",")]
    if 1 not in counts:
        counts.insert(0, 1)
    paths = [False] if args.grpc else [True] if args.in_process else [False, True]
    with tempfile.TemporaryDirectory(prefix="arena-bench-") as tmp:
        root = Path(tmp)
        bots = bot_copies(root / "bots", 5)
        runs: dict[tuple[bool, int], list[dict]] = {}
        for repeat in range(args.repeat):
            for in_process in paths:
                for w in counts:
                    home = root / f"home-{int(in_process)}-{w}-{repeat}"
                    row = run(w, bots, rounds[in_process], args.max_rounds, home, in_process)
                    runs.setdefault((in_process, w), []).append(row)
                    if with_ray and w == ray_workers:
                        home = root / f"home-ray-{int(in_process)}-{repeat}"
                        row = ray_run(
                            w, bots, rounds[in_process], args.max_rounds, home, in_process
                        )
                        runs.setdefault((in_process, -w), []).append(row)
        writes = db_writes(root)
    rows = {
        key: min(found, key=lambda r: abs(r["wall"] - _median(found)))
        for key, found in runs.items()
    }
    print(
        f"tournaments of 2-seat matches of random bots ({20 * rounds[False]} over gRPC, "
        f"{20 * rounds[True]} in-process), max_rounds={args.max_rounds}, {usable_cores()} "
        f"cores, median of {args.repeat} run(s) a row"
    )
    print(
        f"{'bots':>14} {'workers':>7} {'wall s':>7} {'matches/min':>11} {'× 1 worker':>10} "
        f"{'outside matches':>15} {'scheduler CPU ms/match':>22}"
    )
    for (in_process, w), row in rows.items():
        per_minute = 60 * row["matches"] / row["wall"]
        outside = 1 - row["busy"] / (row["wall"] * row["workers"])
        ratio = rows[(in_process, 1)]["wall"] / row["wall"]
        on = ("in-process" if in_process else "gRPC") + (" Ray" if w < 0 else "")
        print(
            f"{on:>14} {abs(w):>7} {row['wall']:>7.1f} "
            f"{per_minute:>11.1f} {ratio:>9.2f}× {100 * outside:>14.1f}% "
            f"{1000 * row['cpu'] / row['matches']:>22.1f}"
        )
    for in_process in paths:
        if (in_process, 2) in rows:
            ratio = rows[(in_process, 1)]["wall"] / rows[(in_process, 2)]["wall"]
            target = " (target ≥ 1.8×)" if in_process else ""
            what = "in-process" if in_process else "gRPC"
            print(f"{what}: 2 workers / 1 worker {ratio:.2f}×{target}")
        if (in_process, -ray_workers) in rows:
            local, on_ray = rows[(in_process, ray_workers)], rows[(in_process, -ray_workers)]
            print(
                f"{'in-process' if in_process else 'gRPC'}: Ray executor vs local pool "
                f"({ray_workers} workers): {60 * on_ray['matches'] / on_ray['wall']:.1f} vs "
                f"{60 * local['matches'] / local['wall']:.1f} matches/min, overhead "
                f"{100 * (on_ray['wall'] / local['wall'] - 1):+.1f}% (target ≤ 10%)"
            )
    print("share outside matches: target ≤ 10%")
    print(f"database: {writes:.0f} match records/s (one transaction each)")


def _median(rows: list[dict]) -> float:
    return statistics.median(r["wall"] for r in rows)


if __name__ == "__main__":
    main()
