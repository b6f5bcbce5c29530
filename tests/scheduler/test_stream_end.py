"""The end of a tournament for a bot process kept from match to match: it gets every match's
MatchEnd (the last one too), then its stream ends with status OK, and it exits by itself,
code 0, with what it prints up to its exit in its log — as at the end of a single match.

A real tournament on the worker pool, with a small Python bot (written here) that counts the
MatchEnds it receives and, once the SDK's ``run`` returns, prints the count and the code it
exits with on stderr."""

from __future__ import annotations

import re
from pathlib import Path

from arena.results.store import open_store
from tests.scheduler.test_tournament import arena, home

COUNTER_PY = """
import sys

from arena.sdk import Bot
from arena.sdk.client import run


class Counter(Bot):
    name = "counter"
    version = "1"
    ends = 0

    def choose(self, request):
        return 0

    def finish(self, result):
        self.ends += 1
        print(f"match end {self.ends}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    bot = Counter()
    code = run(bot)
    print(f"stream over after {bot.ends} match ends; exit {code}", file=sys.stderr, flush=True)
    sys.exit(code)
"""
LAST_LINE = re.compile(r"stream over after (\d+) match ends; exit (-?\d+)")
MATCHES = 8
"""Two bots, two seats, four rounds: both seat orders per round."""


def counter_bot(tmp_path: Path) -> Path:
    folder = tmp_path / "counter"
    folder.mkdir()
    (folder / "bot.py").write_text(COUNTER_PY)
    (folder / "bot.toml").write_text(
        'name = "counter"\nversion = "1"\nlanguage = "Python"\ncommand = "python bot.py"\n'
    )
    return folder


def test_a_kept_bot_gets_every_match_end_then_ends_its_stream_and_exits_0(
    tmp_path: Path,
) -> None:
    bot = counter_bot(tmp_path)
    done = arena(
        "tournament", "run", "--bot", str(bot), "--bot", "random", "--seats", "2",
        "--rounds", "4", "--rules", "max_rounds=6", "--workers", "2", "--no-progress",
        "--db", str(tmp_path / "t.db"), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-4000:]
    logs = sorted((home() / "logs").glob("*-seat*-counter.log"))
    assert logs, list((home() / "logs").iterdir())
    received = 0
    for log in logs:
        lines = log.read_text().splitlines()
        last = LAST_LINE.fullmatch(lines[-1]) if lines else None
        assert last is not None, (log.name, lines[-5:])  # printed after its last match
        assert last.group(2) == "0"  # the referee ended the stream with status OK
        assert lines[-2] == f"match end {last.group(1)}"
        received += int(last.group(1))
    assert received == MATCHES  # one MatchEnd per match, the last ones too
    with open_store(tmp_path / "t.db", read_only=True) as store:
        (tournament,) = store.tournaments()
        last = store.matches(tournament["id"])[-1]
        (seat,) = [s["seat"] for s in store.seats_of(last["id"]) if s["bot"] == "counter"]
        last_log = Path(store.seat_logs(tournament["id"])[(last["id"], seat)])
    assert LAST_LINE.fullmatch(last_log.read_text().splitlines()[-1])  # the last match's log
    tournament_log = next((home() / "logs").glob("tournament-*.log")).read_text()
    exits = re.findall(
        r"counter \(pid \d+\) (exited|was killed[^)]*\)) with code (-?\d+)", tournament_log
    )
    assert exits == [("exited", "0")] * len(logs), tournament_log[-3000:]
