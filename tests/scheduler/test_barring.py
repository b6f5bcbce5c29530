"""Versions the operator bars: ``arena bots disable|enable``, a disabled author's bots; a
ladder retires them at its next decision (stored, so a resume decides the same), and no
tournament or ladder enters them.

Matches are real (bundled bots in-process, short games); databases are real SQLite files.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from arena.results.store import open_store
from arena.scheduler import ladder as ladders
from tests.cli_run import Capsys, run
from tests.scheduler.test_ladder import (
    ARENA,
    FIVE,
    entries,
    ladder,
    ok,
    one_error,
    only_tournament,
    peek,
    played,
)
from tests.waiting import wait_until


def copy_of_random(where: Path, name: str) -> Path:
    """The bundled ``random`` bot's folder under another name (so another bot and version)."""
    folder = where / name
    shutil.copytree(Path("bots/random"), folder)
    toml = folder / "bot.toml"
    toml.write_text(toml.read_text().replace('name = "random"', f'name = "{name}"'))
    return folder


def version_of(db: Path, bot: str) -> str:
    with open_store(db) as store:
        (row,) = store.versions(bot)
        return str(row["id"])


def play_on(capsys: Capsys, db: Path, tournament_id: str, matches: int) -> None:
    """``arena tournament resume ID --matches N``."""
    args = ("tournament", "resume", tournament_id, "--matches", str(matches), "--no-progress")
    ok(capsys, *args, "--db", str(db))


def seated_bots(db: Path, tournament_id: str) -> list[tuple[int, set[str]]]:
    """Each recorded match's plan index and the bots seated in it."""
    names = {row["version_id"]: row["bot"] for row in entries(db, tournament_id).values()}
    return [(index, {names[v] for v in seats}) for index, seats, _, _ in played(db, tournament_id)]


def test_a_disabled_version_leaves_at_the_next_decision_and_a_resume_decides_the_same(
    tmp_path: Path, capsys: Capsys
) -> None:
    """Disabled between runs: the resumed ladder retires it at its first decision; killed with
    ``kill -9`` after that and resumed, it plays exactly the matches of an unbroken run."""
    whole, broken = tmp_path / "whole.db", tmp_path / "broken.db"
    for db in (whole, broken):
        ok(capsys, *ladder(db, "--seats", "2", "--matches", "20", bots=FIVE[:4], seed=5))
        out = ok(capsys, "bots", "disable", "random", "--db", str(db))
        assert out == f"disabled random {version_of(db, 'random')[:8]}\n"
    tournament_id = only_tournament(whole)
    play_on(capsys, whole, tournament_id, 40)
    random_entry = entries(whole, tournament_id)[f"random@{version_of(whole, 'random')}"]
    assert (random_entry["left_index"], random_entry["leave_reason"]) == (20, "disabled")
    seated = seated_bots(whole, tournament_id)
    assert len(seated) == 40
    assert any("random" in bots for index, bots in seated if index < 20)
    assert all("random" not in bots for index, bots in seated if index >= 20)
    shown = json.loads(
        ok(capsys, "tournament", "show", tournament_id, "--json", "--db", str(whole))
    )
    assert {row["bot"]: row["status"] for row in shown["entries"]}["random"] == "disabled"

    broken_id = only_tournament(broken)
    command = [ARENA, "tournament", "resume", broken_id, "--matches", "40", "--no-progress"]
    process = subprocess.Popen(
        [*command, "--db", str(broken)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_until(lambda: peek(broken, "SELECT COUNT(*) FROM matches") >= 26, 120)
        process.send_signal(signal.SIGKILL)
        assert process.wait(60) == -signal.SIGKILL
    finally:
        if process.poll() is None:
            process.kill()
    assert peek(broken, "SELECT COUNT(*) FROM matches") < 40, "the run ended before the kill"
    play_on(capsys, broken, broken_id, 40)
    assert played(broken, broken_id) == played(whole, tournament_id)
    changes = {
        (row["bot"], row["joined_index"], row["left_index"], row["leave_reason"])
        for row in entries(whole, tournament_id).values()
    }
    assert {
        (row["bot"], row["joined_index"], row["left_index"], row["leave_reason"])
        for row in entries(broken, broken_id).values()
    } == changes


def test_a_running_ladder_retires_a_version_disabled_mid_run_and_plays_what_it_decided(
    tmp_path: Path, capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Disabled while the ladder runs (looking every decision here instead of every 30 s): it
    leaves at the next decision; matches decided before, seating it, still play."""
    monkeypatch.setattr(ladders, "SCAN_SECONDS", 0.0)
    seen: dict[str, Any] = {}
    record = ladders.LadderRunner._record

    def record_then_disable(runner: ladders.LadderRunner, index: int, changes: list[Any]) -> None:
        record(runner, index, changes)
        if seen or runner.recorded < 8:
            return
        names = {v: row["bot"] for v, row in runner.roster.items()}
        recorded = set(runner.store.recorded_indices(runner.id))
        waiting = [p for p in runner.plan if p["plan_index"] not in recorded]
        in_flight = [p["plan_index"] for p in waiting if "random" in map(names.get, p["seats"])]
        if in_flight:
            (version,) = [v for v, bot in names.items() if bot == "random"]
            runner.store.set_version_disabled(version, True)
            seen.update(decided=len(runner.plan), in_flight=in_flight)

    monkeypatch.setattr(ladders.LadderRunner, "_record", record_then_disable)
    db = tmp_path / "a.db"
    ok(capsys, *ladder(db, "--seats", "2", "--matches", "40", bots=FIVE[:4], seed=3))
    assert seen, "no match seating random was ever waiting to play"
    tournament_id = only_tournament(db)
    (row,) = [row for row in entries(db, tournament_id).values() if row["bot"] == "random"]
    assert (row["left_index"], row["leave_reason"]) == (seen["decided"], "disabled")
    seated = dict(seated_bots(db, tournament_id))
    assert sorted(seated) == list(range(40))
    assert all("random" in seated[index] for index in seen["in_flight"])
    assert all("random" not in bots for index, bots in seated.items() if index >= row["left_index"])


def test_a_disabled_author_s_bots_all_leave_and_are_not_entered(
    tmp_path: Path, capsys: Capsys
) -> None:
    """``arena authors disable`` retires every version of every bot of theirs; a disabled
    author's bot is refused by ``tournament add``; enabled again, a version it retired does not
    come back by itself, and a new version may be added."""
    db = tmp_path / "a.db"
    with open_store(db) as store:
        store.add_author("alice", "hash")
        store.claim_bot("alice", "alice-a")
        store.claim_bot("alice", "alice-b")
    first, second = copy_of_random(tmp_path, "alice-a"), copy_of_random(tmp_path, "alice-b")
    bots = (str(first), str(second), *FIVE[1:3])
    ok(capsys, *ladder(db, "--seats", "2", "--matches", "12", bots=bots))
    tournament_id = only_tournament(db)
    ok(capsys, "authors", "disable", "alice", "--db", str(db))
    listed = json.loads(ok(capsys, "bots", "--json", "--db", str(db)))
    assert {b["name"]: b["disabled"] for b in listed if b["source"] == "registered"} == {
        "alice-a": True,
        "alice-b": True,
    }
    assert not any(b["disabled"] for b in listed if b["source"] == "bundled")
    play_on(capsys, db, tournament_id, 24)
    rows = {row["bot"]: row for row in entries(db, tournament_id).values()}
    for bot in ("alice-a", "alice-b"):
        assert (rows[bot]["left_index"], rows[bot]["leave_reason"]) == (12, "disabled")
    assert all(
        not bots & {"alice-a", "alice-b"}
        for index, bots in seated_bots(db, tournament_id)
        if index >= 12
    )
    refused = one_error(
        capsys, "tournament", "add", tournament_id, "--bot", str(first), "--db", str(db)
    )
    assert "author 'alice'" in refused and "arena authors enable alice" in refused

    ok(capsys, "authors", "enable", "alice", "--db", str(db))
    again = one_error(
        capsys, "tournament", "add", tournament_id, "--bot", str(first), "--db", str(db)
    )
    assert "already entered" in again and "retired" in again
    (first / "bot.py").write_text((first / "bot.py").read_text() + "\n# version 2\n")
    out = ok(capsys, "tournament", "add", tournament_id, "--bot", str(first), "--db", str(db))
    assert "alice-a" in out and "next decision" in out


def test_disable_and_enable_name_versions_by_id_prefix_or_label(
    tmp_path: Path, capsys: Capsys
) -> None:
    db = tmp_path / "a.db"
    folder = copy_of_random(tmp_path, "mine")
    ok(capsys, "bots", "add", str(folder), "--db", str(db))
    old = version_of(db, "mine")
    (folder / "bot.py").write_text((folder / "bot.py").read_text() + "\n# version 2\n")
    ok(capsys, "bots", "add", str(folder), "--db", str(db))
    with open_store(db) as store:
        new = next(str(row["id"]) for row in store.versions("mine") if row["id"] != old)

    def barred() -> set[str]:
        with open_store(db) as store:
            return store.barred_versions()

    assert ok(capsys, "bots", "disable", "mine", "--version", old[:6], "--db", str(db)) == (
        f"disabled mine {old[:8]}\n"
    )
    assert barred() == {old}
    listed = {b["name"]: b for b in json.loads(ok(capsys, "bots", "--json", "--db", str(db)))}
    assert listed["mine"]["version_id"] == new and listed["mine"]["disabled"] is False
    assert ok(capsys, "bots", "disable", "mine", "--version", new, "--db", str(db)) == (
        f"disabled mine {new[:8]}\n"
    )
    assert "[disabled]" in next(
        line for line in ok(capsys, "bots", "--db", str(db)).splitlines() if line.startswith("mine")
    )
    out = ok(capsys, "bots", "enable", "mine", "--db", str(db))
    assert out.split()[:2] == ["enabled", "mine"] and set(out.split()[2:]) == {old[:8], new[:8]}
    assert barred() == set()

    both_1_0 = one_error(capsys, "bots", "disable", "mine", "--version", "1.0", "--db", str(db))
    assert "ambiguous" in both_1_0 and old[:8] in both_1_0 and new[:8] in both_1_0
    assert "has no version 'zz'" in one_error(
        capsys, "bots", "disable", "mine", "--version", "zz", "--db", str(db)
    )
    assert "no bot 'nobody'" in one_error(capsys, "bots", "enable", "nobody", "--db", str(db))
    assert "--version needs" in one_error(
        capsys, "bots", "disable", "mine", "--version", "", "--db", str(db)
    )
    assert "no results database" in one_error(
        capsys, "bots", "disable", "mine", "--db", str(tmp_path / "none.db")
    )
    assert barred() == set()


@pytest.mark.parametrize(
    "run_args",
    [
        ("--format", "round-robin"),
        ("--format", "gauntlet", "--challenger", "random"),
        ("--format", "ladder", "--matches", "4"),
    ],
    ids=["round-robin", "gauntlet", "ladder"],
)
def test_a_tournament_naming_a_disabled_version_is_refused(
    tmp_path: Path, capsys: Capsys, run_args: tuple[str, ...]
) -> None:
    db = tmp_path / "a.db"
    ok(capsys, "bots", "add", str(copy_of_random(tmp_path, "mine")), "--db", str(db))
    ok(capsys, "bots", "disable", "mine", "--db", str(db))
    before = peek(db, "SELECT COUNT(*) FROM tournaments")
    args = ["tournament", "run", *run_args, "--bot", "mine", "--bot", "aggressive"]
    args += ["--bot", "planner", "--seats", "2", "--rules", "max_rounds=4", "--in-process"]
    refused = one_error(capsys, *args, "--no-progress", "--db", str(db))
    assert f"bot 'mine' version {version_of(db, 'mine')[:8]} is disabled" in refused
    assert "arena bots enable mine --version" in refused
    assert peek(db, "SELECT COUNT(*) FROM tournaments") == before
    code, _, err = run(capsys, "bots", "enable", "mine", "--db", str(db))
    assert code == 0, err
