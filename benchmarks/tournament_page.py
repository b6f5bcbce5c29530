"""How long a large tournament's standings take: a synthetic ladder of ``--matches`` matches
(10,000 by default) of ``--versions`` versions (20) at tables of ``--seats`` sizes (2,3: one
rating pool each), written straight into a temporary database (tests/synthetic_tournament.py).

Times, in-process, best and median of ``--repeat`` runs: the report alone
(:func:`arena.results.tournament_report.tournament_report`: one read of every seat, the
matrix in one pass, quality, cycles, games needed), ``/api/tournaments/{id}/standings``, the
page ``/tournaments/{id}`` and its live fragment through the FastAPI application (target:
the page well under a second), and ``arena tournament show --json``'s work. Prints figures,
never asserts them.

    python benchmarks/tournament_page.py [--matches 10000] [--versions 20] [--seats 2,3] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.synthetic_tournament

from fastapi.testclient import TestClient

from arena.results import reports
from arena.results.store import open_store
from arena.results.tournament_report import tournament_report
from arena.web.app import create_app
from tests.synthetic_tournament import build


def timed(what: str, repeat: int, run: Callable[[], object]) -> None:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(1000 * (time.perf_counter() - start))
    print(f"{what:<44} best {min(times):7.1f} ms   median {statistics.median(times):7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--versions", type=int, default=20)
    parser.add_argument("--seats", default="2,3")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    seats = [int(s) for s in args.seats.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "arena.db"
        start = time.perf_counter()
        tid = build(
            db, versions=args.versions, matches=args.matches, seats=seats, cycle=(3, 4, 5),
            unrecorded=8,
        )  # fmt: skip
        print(
            f"{args.matches} matches of {args.versions} versions at tables of {seats} built in "
            f"{time.perf_counter() - start:.1f} s"
        )
        with open_store(db, read_only=True) as store:
            timed("report (tournament_report)", args.repeat, lambda: tournament_report(store, tid))
            timed(
                "tournament show --json (crosstable + report)",
                args.repeat,
                lambda: reports.crosstable(store, tid) | tournament_report(store, tid),
            )
        with TestClient(create_app(db)) as client:
            for what, url in (
                ("GET /api/tournaments/{id}/standings", f"/api/tournaments/{tid}/standings"),
                ("GET /fragments/tournaments/{id}/live", f"/fragments/tournaments/{tid}/live"),
                ("GET /tournaments/{id} (the whole page)", f"/tournaments/{tid}"),
            ):
                assert client.get(url).status_code == 200
                timed(what, args.repeat, lambda url=url: client.get(url))


if __name__ == "__main__":
    main()
