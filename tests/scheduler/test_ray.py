"""Tournaments on a Ray cluster (``--executor ray``), against a real local Ray instance.

One instance for the module, started in this process on the loopback address with 2 CPUs;
each tournament is a real ``arena tournament run`` process that connects to it with
``--ray-address`` (as a scheduler connects to a cluster's head) and plays real bot processes
in Ray actors. Checked: the same tournament gives the same matches and ratings on Ray as on
the local pool; an actor killed mid-match gets its match played again from its seed, recorded
once; actors run a bot's setup once for their node; resume keeps or switches the executor;
an unreachable address, a port that is not a Ray head's, a refused token, more workers than
CPUs and a missing ``ray`` are one-line errors (exit 2).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.scheduler.test_tournament import (
    Scheduler,
    arena,
    assert_plan_recorded_once,
    assert_rebuild_keeps_ratings,
    children,
    db_path,
    descendants,
    error_line,
    home,
    ok,
    only_tournament_id,
    query,
    recorded_count,
    short_temp_folder,
    stored_ratings,
    tournament_args,
    tournaments,
    wait_until,
)

BOTS = ["random", "aggressive", "defensive"]
"""Python bots only (no setup to run): 6 two-seat matches a round."""


@pytest.fixture(scope="module")
def actor_temp() -> Iterator[Path]:
    """The temporary folder (``TMPDIR``) of the module's actors and schedulers, so a test
    can check what they leave there (Ray's own files stay in its usual place)."""
    with short_temp_folder() as folder:
        yield folder


@pytest.fixture(scope="module")
def ray_address(actor_temp: Path) -> Iterator[str]:
    """A local Ray instance of 2 CPUs for the module; its address (``127.0.0.1:PORT``).

    Its workers start at Ray's default niceness (15) unless this runs unprivileged: the
    actors, as root, take the scheduler's back (checked below)."""
    before = dict(os.environ)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RAY_TMPDIR", os.environ.get("RAY_TMPDIR", tempfile.gettempdir()))
        patch.setenv("TMPDIR", str(actor_temp))
        # Before Ray is imported: every address stays on the loopback interface.
        patch.setenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        if os.geteuid() != 0:
            patch.setenv("RAY_worker_niceness", "0")
        ray = pytest.importorskip("ray")
        import logging

        ray.init(num_cpus=2, include_dashboard=False, logging_level=logging.ERROR)
        try:
            yield str(ray.get_runtime_context().gcs_address)
        finally:
            ray.shutdown()
            for key in set(os.environ) - set(before):  # what Ray set (its token mode)
                del os.environ[key]


def _summary(path: Path) -> list[tuple[Any, ...]]:
    """What a match's result is, seat by seat, in plan order (not its timing)."""
    return query(
        "SELECT m.plan_index, m.seed, m.end_reason, m.winner_seat, m.turns, m.decisions,"
        " m.out_order_json, s.seat, s.version_id, s.place, s.status, s.strikes"
        " FROM matches m JOIN seats s ON s.match_id = m.id ORDER BY m.plan_index, s.seat",
        path=path,
    )


def _local_run(monkeypatch: pytest.MonkeyPatch, args: list[str]) -> tuple[Any, ...]:
    """The same tournament on the local pool, in a home of its own: its matches, ratings."""
    base = home()
    monkeypatch.setenv("ARENA_HOME", str(base / "local"))
    try:
        board = json.loads(ok(*args))
        assert board["executor"] == "local"
        return _summary(db_path()), stored_ratings(), [r["bot"] for r in board["rows"]]
    finally:
        monkeypatch.setenv("ARENA_HOME", str(base))


def _actors() -> list[int]:
    """Processes of this module's Ray instance that are match actors."""
    found = []
    for pid in descendants(os.getpid()):
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]
        except OSError:
            continue
        if title.startswith(b"ray::MatchActor"):
            found.append(pid)
    return found


def test_a_tournament_on_ray_equals_the_same_tournament_on_the_local_pool(
    ray_address: str, monkeypatch: pytest.MonkeyPatch, actor_temp: Path
) -> None:
    args = tournament_args(bots=BOTS, seed=41, max_rounds=8)
    local = _local_run(monkeypatch, args)

    board = json.loads(ok(*args, "--executor", "ray", "--ray-address", ray_address))
    assert board["executor"] == "ray"
    tournament_id = only_tournament_id()
    assert assert_plan_recorded_once(tournament_id) == 6
    assert (_summary(db_path()), stored_ratings(), [r["bot"] for r in board["rows"]]) == local
    assert_rebuild_keeps_ratings()

    # The matches were played in the actors, whose lines are in the tournament's log.
    log = (home() / "logs" / f"tournament-{tournament_id}.log").read_text().splitlines()
    played = [line for line in log if " arena.worker: match " in line]
    assert len(played) == 6 and all(" ray-" in line for line in played), log

    shown = json.loads(ok("tournament", "show", tournament_id, "--json"))
    assert shown["tournament"]["executor"] == "ray"
    assert " · executor ray" in ok("tournament", "show", tournament_id)
    wait_until(lambda: not _actors(), "the scheduler's actors to end with it")
    assert not list(actor_temp.iterdir())  # they removed their sockets and bot homes first


def test_a_ladder_on_ray_decides_and_plays_what_it_does_on_the_local_pool(
    ray_address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ladder's matches depend on its seed, entries, batch and results, not on where they
    are played: the same ladder on Ray and on the local pool is the same ladder."""
    args = tournament_args(bots=BOTS, seed=43, max_rounds=6)
    args += ["--format", "ladder", "--matches", "8", "--rounds", "1"]
    local = _local_run(monkeypatch, args)
    board = json.loads(ok(*args, "--executor", "ray", "--ray-address", ray_address))
    assert board["executor"] == "ray"
    assert assert_plan_recorded_once(only_tournament_id()) == 8
    assert (_summary(db_path()), stored_ratings(), [r["bot"] for r in board["rows"]]) == local


def _niceness(pids: list[int]) -> set[int]:
    """The niceness of those of ``pids`` still running."""
    found = set()
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            found.add(os.getpriority(os.PRIO_PROCESS, pid))
    return found


@pytest.mark.slow  # 38 s; the local pool's kill -9 of a worker runs in every test run
def test_a_ray_worker_killed_mid_match_has_its_match_played_again(
    ray_address: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    args = tournament_args(bots=BOTS, rounds="3", seed=43, max_rounds=20)
    local = _local_run(monkeypatch, args)

    wait_until(lambda: not _actors(), "the actors of earlier runs to end")
    run = Scheduler([*args, "--executor", "ray", "--ray-address", ray_address], tmp_path)
    try:
        wait_until(lambda: len(_actors()) == 2, "the 2 Ray actors", process=run.process)
        victim = _actors()[0]
        # Mid-match: the actor's bots are running and the tournament is not over.
        wait_until(lambda: bool(children(victim)), "the actor's bots", process=run.process)
        assert recorded_count() < 18
        # The actor and its bots run at the scheduler's priority, as local workers do.
        nice = os.getpriority(os.PRIO_PROCESS, 0)
        assert _niceness([victim, *children(victim)]) == {nice}
        os.kill(victim, signal.SIGKILL)
        assert run.wait() == 0, run.stderr
    finally:
        run.stop()

    tournament_id = only_tournament_id()
    assert assert_plan_recorded_once(tournament_id) == 18
    assert (_summary(db_path()), stored_ratings()) == local[:2]
    log = (home() / "logs" / f"tournament-{tournament_id}.log").read_text()
    assert "a worker died; replaying its matches from their seeds" in log
    assert tournaments()[0]["status"] == "finished"


def test_an_actor_runs_a_setup_its_node_has_not_had_once(
    ray_address: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A node whose results home has no setup mark for a bot (here the scheduler skips its
    own run of the setup, as if the actors were on another machine): the first actor to seat
    the bot runs its setup, the other waits for it and finds the mark."""
    from arena.catalog import read_spec, setup_marker
    from arena.paths import bundled_bots_dir
    from arena.results.store import open_store
    from arena.scheduler import tournament as scheduler_module

    runs = tmp_path / "setup-runs"
    folder = tmp_path / "counted"
    shutil.copytree(bundled_bots_dir() / "random", folder)
    (folder / "count.py").write_text(f"open({str(runs)!r}, 'a').write('ran\\n')\n")
    toml = folder / "bot.toml"
    text = toml.read_text().replace('name = "random"', 'name = "counted"')
    toml.write_text(text + 'setup = "python count.py"\n')
    monkeypatch.setattr(scheduler_module, "run_setup", lambda spec, force=False: False)

    settings = scheduler_module.TournamentSettings(
        bots=[str(folder), "aggressive", "defensive"],
        rules={"max_rounds": "4"},
        seed=59,
        workers=2,
        executor="ray",
        ray_address=ray_address,
    )
    with open_store(db_path()) as store:
        tournament_id = scheduler_module.create(store, settings)
        scheduler_module.Runner(store, tournament_id).run()
    assert assert_plan_recorded_once(tournament_id) == 6
    assert runs.read_text() == "ran\n"
    assert setup_marker(read_spec(folder)).is_file()


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_an_unreachable_ray_address_is_one_line_and_plans_nothing() -> None:
    pytest.importorskip("ray")
    address = f"127.0.0.1:{_closed_port()}"
    done = arena(*tournament_args(bots=BOTS), "--executor", "ray", "--ray-address", address)
    assert done.returncode == 2
    assert error_line(done) == (
        f"arena: error: cannot reach the Ray cluster at {address}: Connection refused"
    )
    assert not db_path().exists() or not query("SELECT id FROM tournaments")


def test_a_port_that_is_not_a_ray_head_is_refused_within_a_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A port that accepts connections and never speaks Ray (``ray.init`` would retry it for
    minutes): the connection attempt is cut off, and says what to give instead."""
    pytest.importorskip("ray")
    from arena.errors import ConfigError
    from arena.scheduler import executors

    monkeypatch.setattr(executors, "RAY_ANSWER_SECONDS", 3.0)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        with pytest.raises(ConfigError, match=r"did not answer within 3 s \(give the address"):
            executors.check("ray", address)


def test_a_cluster_that_refuses_this_machines_credentials_is_one_line(
    ray_address: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if os.environ.get("RAY_AUTH_MODE") != "token":
        pytest.skip("this Ray version does not turn token authentication on")
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")  # so no token is sent
    done = arena(*tournament_args(bots=BOTS), "--executor", "ray", "--ray-address", ray_address)
    assert done.returncode == 2
    line = error_line(done)
    assert line.startswith(f"arena: error: cannot connect to the Ray cluster at {ray_address}: ")
    assert "Authentication token is missing or incorrect" in line
    assert "RAY_AUTH_MODE=token" in line
    assert not db_path().exists() or not query("SELECT id FROM tournaments")


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        (["--executor", "ray", "--ray-address", "nowhere"], "--ray-address must be HOST:PORT"),
        (["--ray-address", "127.0.0.1:1"], "a Ray address is for the ray executor"),
        (["--executor", "cluster"], "argument --executor: invalid choice: 'cluster'"),
    ],
)
def test_bad_executor_flags_are_one_line(flags: list[str], expected: str) -> None:
    pytest.importorskip("ray")
    done = arena(*tournament_args(bots=BOTS), *flags)
    assert done.returncode == 2
    assert expected in error_line(done)


def test_more_workers_than_the_cluster_has_cpus_is_one_line(ray_address: str) -> None:
    args = tournament_args(bots=BOTS, workers=3)
    done = arena(*args, "--executor", "ray", "--ray-address", ray_address)
    assert done.returncode == 2
    assert "the Ray cluster has 2 CPUs and a worker takes one: --workers 3" in error_line(done)


def test_without_ray_installed_the_ray_executor_says_how_to_install_it() -> None:
    script = (
        "import sys; sys.modules['ray'] = None\n"  # as if Ray were not installed
        "from arena.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *tournament_args(bots=BOTS), "--executor", "ray"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert "pip install 'risk-arena[ray]'" in error_line(done)
    assert not db_path().exists() or not query("SELECT id FROM tournaments")


@pytest.mark.slow  # 7 s; the executor's storage is also checked by --json and show above
def test_resume_keeps_the_executor_unless_told_another(ray_address: str) -> None:
    """A tournament planned for Ray resumes on Ray (at its stored address); one planned for
    the local pool resumes on Ray when told, and then names Ray."""
    from arena.results.store import open_store
    from arena.scheduler.tournament import TournamentSettings, create

    planned = {}
    with open_store(db_path()) as store:
        for executor, address in (("ray", ray_address), ("local", "")):
            settings = TournamentSettings(
                bots=BOTS, rules={"max_rounds": "6"}, seed=47, workers=2, executor=executor
            )
            settings.ray_address = address
            planned[executor] = create(store, settings)
    local = planned["local"]
    assert json.loads(ok("tournament", "show", local, "--json"))["tournament"]["executor"] == (
        "local"
    )

    resume = ["tournament", "resume", "--no-progress", "--json"]
    assert json.loads(ok(*resume, planned["ray"]))["executor"] == "ray"
    told = ["--executor", "ray", "--ray-address", ray_address]
    assert json.loads(ok(*resume, local, *told))["executor"] == "ray"
    for tournament_id in planned.values():
        assert assert_plan_recorded_once(tournament_id) == 6
        shown = json.loads(ok("tournament", "show", tournament_id, "--json"))["tournament"]
        assert shown["executor"] == "ray"


@pytest.mark.slow
def test_without_an_address_a_local_ray_instance_is_started() -> None:
    """The default: a Ray instance of its own for the run (seconds to start), stopped after."""
    pytest.importorskip("ray")
    board = json.loads(ok(*tournament_args(bots=BOTS, seed=53), "--executor", "ray"))
    assert board["executor"] == "ray"
    assert assert_plan_recorded_once(only_tournament_id()) == 6
