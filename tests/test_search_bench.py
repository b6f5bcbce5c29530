"""benchmarks/search.py: it records real positions and rolls them out (timings never asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "search.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_search_bench_compares_two_trees_on_the_same_positions():
    done = _run("--games", "1", "--worlds", "2", "--repeat", "1", "--compare", str(ROOT))
    assert done.returncode == 0, done.stderr
    for players in (2, 3):
        assert f"\n{players} players: " in done.stdout
    header = [line for line in done.stdout.splitlines() if line.startswith("row")]
    assert len(header) == 2 and all("before" in h and "after" in h for h in header)
    rates = [line for line in done.stdout.splitlines() if line.startswith("rollouts/s")]
    assert len(rates) == 2 and all(line.rstrip().endswith("×") for line in rates)


def test_search_bench_refuses_bad_input_in_one_line(tmp_path):
    for args in (("--compare", str(tmp_path)), ("--worlds", "0")):
        done = _run(*args)
        assert done.returncode == 2
        assert done.stdout == ""
        assert len(done.stderr.strip().splitlines()) == 1
        assert done.stderr.startswith("search.py: error: ")
