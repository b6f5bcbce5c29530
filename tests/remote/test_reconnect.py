"""A remote bot that drops its connection mid-match: dialling in again within the move clock
it takes its seat back (the referee re-sends the pending request); after the clock has run
out, the request timed out as any unanswered one does."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from arena.results.store import open_store
from tests.remote import HERE, arena, remote, serving, start_bot, stop

BOT = (sys.executable, str(HERE / "bots" / "reconnecting.py"))


def _play(
    tmp_path: Path, move_time: str, away: str, drop_at: str = "3", rounds: str = "1"
) -> tuple[list[dict], list[dict]]:
    """A tournament of the reconnecting bot and a local one; its notes and its seats in the
    first match."""
    db = tmp_path / "arena.db"
    notes = tmp_path / "notes.jsonl"
    token = remote(db, "flaky")
    env = {
        "ARENA_TEST_DROP_AT": drop_at,
        "ARENA_TEST_AWAY": away,
        "ARENA_TEST_OUT": str(notes),
        "ARENA_TEST_NOTE_ALL": "1",
    }
    with serving(db) as (address, lines):
        bot = start_bot(address, token, BOT, env=env)
        try:
            done = arena(
                "tournament", "run", "--rules", "max_rounds=3", "--seed", "4", "--no-progress",
                "--move-time", move_time, "--time-bank", "0", "--startup-time", "60",
                "--strike-limit", "50",
                "--rounds", rounds, "--db", db, "--bot", "flaky", "--bot", "random",
            )  # fmt: skip
        finally:
            output = stop(bot)
        assert done.returncode == 0, (done.stderr, output, lines.seen)
    with open_store(db) as store:
        (tournament,) = store.tournaments()
        assert tournament["recorded"] == tournament["planned"] == 2 * int(rounds)
        first = store.matches(tournament["id"])[0]
        seats = [s for s in store.seats_of(first["id"]) if s["bot"] == "flaky"]
    return [json.loads(line) for line in notes.read_text().splitlines()], seats


def test_a_bot_back_within_the_move_clock_gets_the_request_again(tmp_path: Path) -> None:
    notes, (seat,) = _play(tmp_path, move_time="60", away="0.5")
    dropped, resent = [n for n in notes if n["event"] != "request"][:2]
    assert dropped["event"] == "dropped" and resent["event"] == "resent"
    assert resent["request_id"] == dropped["request_id"]
    assert seat["status"] == "OK" and seat["strikes"] == 0


def test_a_bot_back_after_its_clock_ran_out_timed_out(tmp_path: Path) -> None:
    notes, (seat,) = _play(tmp_path, move_time="1", away="3")
    dropped, resent = [n for n in notes if n["event"] != "request"][:2]
    assert dropped["event"] == "dropped"
    assert resent["event"] == "resent" and resent["request_id"] != dropped["request_id"]
    # Timed out (a strike per request its clock ran out on), and back in its seat after.
    assert seat["status"] == "OK" and seat["strikes"] >= 1


def test_request_ids_never_repeat_on_a_remote_bots_stream(tmp_path: Path) -> None:
    """Match after match on one stream, as a worker's bot process plays them: a late answer
    to an earlier match can never be taken for an answer in a later one."""
    notes, _ = _play(tmp_path, move_time="60", away="0", drop_at="0", rounds="2")
    ids = [n["request_id"] for n in notes if n["event"] == "request"]
    assert len(ids) > 20 and len(set(ids)) == len(ids)
