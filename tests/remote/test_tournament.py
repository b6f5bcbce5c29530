"""Tournaments with remote bots: ``tournament run`` hands them to ``arena serve``, which
plays remote seats from its lobby and local bots as usual, recording as the scheduler does."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from arena.catalog.remote import remote_version_id
from arena.results.store import open_store
from tests.remote import ROOT, WAIT, arena, remote, serving, start_bot, stop

SMALL = ["--rules", "max_rounds=4", "--seed", "5", "--no-progress"]


def test_no_serve_running_is_one_line_and_exit_2(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    remote(db, "far")
    done = arena("tournament", "run", "--bot", "far", "--bot", "random", "--db", db)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and f"arena serve --db {db}" in done.stderr
    on_ray = arena("tournament", "run", "--bot=far", "--bot=random", "--executor=ray", "--db", db)
    assert on_ray.returncode == 2  # without Ray installed, for that reason first
    assert "does not apply" in on_ray.stderr or importlib.util.find_spec("ray") is None
    with open_store(db) as store:
        assert store.tournaments() == []


def test_remote_bots_play_a_tournament_through_the_serve(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    tokens = {name: remote(db, name) for name in ("far", "farther")}
    with serving(db) as (address, lines):
        bots = [start_bot(address, token) for token in tokens.values()]
        try:
            done = arena(
                "tournament", "run", *SMALL, "--json", "--db", db,
                "--bot", "far", "--bot", "farther", "--bot", "random",
            )  # fmt: skip
        finally:
            outputs = [stop(bot) for bot in bots]
        assert done.returncode == 0, (done.stderr, outputs, lines.seen)
        board = json.loads(done.stdout)
    assert {row["bot"] for row in board["rows"]} == {"far", "farther", "random"}
    with open_store(db) as store:
        (tournament,) = store.tournaments()
        assert tournament["status"] == "finished"
        assert tournament["recorded"] == tournament["planned"] == 6
        seats = [s for m in store.matches(tournament["id"]) for s in store.seats_of(m["id"])]
        assert {s["status"] for s in seats} == {"OK"}
        assert {s["version_id"] for s in seats if s["bot"] == "far"} == {
            remote_version_id("far", "1")
        }
        assert len(store.ratings()) == 3
    shown = arena("tournament", "show", tournament["id"], "--db", db)
    assert shown.returncode == 0 and "far" in shown.stdout, shown.stderr


def test_remote_bots_play_a_ladder_through_the_serve(tmp_path: Path) -> None:
    """A ladder with remote bots is decided and played by the serve, as a tournament is."""
    db = tmp_path / "arena.db"
    tokens = {name: remote(db, name) for name in ("far", "farther")}
    with serving(db) as (address, lines):
        bots = [start_bot(address, token) for token in tokens.values()]
        try:
            done = arena(
                "tournament", "run", *SMALL, "--json", "--db", db, "--format", "ladder",
                "--matches", "6", "--bot", "far", "--bot", "farther", "--bot", "random",
            )  # fmt: skip
        finally:
            outputs = [stop(bot) for bot in bots]
        assert done.returncode == 0, (done.stderr, outputs, lines.seen)
    with open_store(db) as store:
        (tournament,) = store.tournaments()
        assert (tournament["status"], tournament["recorded"]) == ("finished", 6)
        assert len(store.planned(tournament["id"])) == 6
        seated = {
            s["bot"] for m in store.matches(tournament["id"]) for s in store.seats_of(m["id"])
        }
        assert seated == {"far", "farther", "random"}


def test_a_remote_bot_that_never_connects_is_init_fail(tmp_path: Path) -> None:
    """Even while another remote bot is connected: its token never seats it as this one."""
    db = tmp_path / "arena.db"
    remote(db, "absent")
    other = remote(db, "bystander")
    with serving(db) as (address, lines):
        bystander = start_bot(address, other)
        lines.wait_for(lambda line: "remote bot bystander connected" in line)
        try:
            # The absent bot costs each match its whole startup time; the local `random`
            # plays in-process, so that time need not cover a process start on a loaded
            # machine.
            done = arena(
                "tournament", "run", *SMALL, "--startup-time", "2", "--in-process",
                "--db", db, "--bot", "absent", "--bot", "random",
            )  # fmt: skip
        finally:
            stop(bystander)
        assert done.returncode == 0, (done.stderr, lines.seen)
    with open_store(db) as store:
        (tournament,) = store.tournaments()
        matches = store.matches(tournament["id"])
        assert len(matches) == 2
        for match in matches:
            statuses = {s["bot"]: s["status"] for s in store.seats_of(match["id"])}
            assert statuses == {"absent": "INIT_FAIL", "random": "OK"}


def test_a_tournament_cut_short_by_the_serve_stopping_resumes_on_the_next(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    token = remote(db, "far")
    command = [sys.executable, "-m", "arena.cli", "tournament", "run", *SMALL, "--db", str(db)]
    command += ["--rounds", "8", "--bot", "far", "--bot", "random"]
    with serving(db) as (address, _):
        bot = start_bot(address, token)
        running = subprocess.Popen(command, cwd=ROOT, stderr=subprocess.PIPE, text=True)
        with open_store(db) as store:
            deadline = time.monotonic() + WAIT
            while not any(t["recorded"] for t in store.tournaments()):
                assert time.monotonic() < deadline and running.poll() is None
                time.sleep(0.05)  # polling the database for the first recorded match
    _, said = running.communicate(timeout=WAIT)
    stop(bot)
    assert running.returncode == 2 and "stopped" in said
    (resume,) = [line for line in said.splitlines() if "resume with: " in line]
    assert "arena tournament resume" in resume
    with open_store(db) as store:
        (tournament,) = store.tournaments()
        assert 0 < tournament["recorded"] < tournament["planned"] == 16
    with serving(db) as (address, _):
        bot = start_bot(address, token)
        try:
            done = arena("tournament", "resume", tournament["id"], "--no-progress", "--db", db)
        finally:
            stop(bot)
        assert done.returncode == 0, done.stderr
    with open_store(db) as store:
        indices = [m["plan_index"] for m in store.matches(tournament["id"])]
        assert sorted(indices) == list(range(tournament["planned"]))
        assert store.tournament(tournament["id"])["status"] == "finished"


def test_a_tournament_taken_back_before_the_serve_took_it_is_never_played(
    tmp_path: Path,
) -> None:
    """Ctrl-C in `tournament run` while the serve has not taken it yet: no serve takes it
    later (a serve row is faked here, so none does in the meantime)."""
    db = tmp_path / "arena.db"
    remote(db, "far")
    with open_store(db) as store:
        store.start_serve("fake", os.getpid(), socket.gethostname(), "127.0.0.1:1")
    command = [sys.executable, "-m", "arena.cli", "tournament", "run", *SMALL, "--db", str(db)]
    running = subprocess.Popen(
        [*command, "--bot", "far", "--bot", "random"], cwd=ROOT, stderr=subprocess.PIPE
    )
    with open_store(db) as store:
        deadline = time.monotonic() + WAIT
        while not (store.tournaments() and store.queued(store.tournaments()[0]["id"])):
            assert time.monotonic() < deadline and running.poll() is None
            time.sleep(0.05)  # polling the database for the hand-over
        running.send_signal(signal.SIGINT)
        running.communicate(timeout=WAIT)
        assert running.returncode == 130
        (tournament,) = store.tournaments()
        assert store.queued(tournament["id"])["outcome"] == "withdrawn"
        assert store.take_queued("fake") is None
        assert tournament["status"] == "stopped" and tournament["recorded"] == 0
