"""Isolation layers against hostile bots: token theft, signals, spying, escaped children.

Each hostile bot in ``hostile_bots/`` attacks, says on stderr what it got (the referee keeps
the log), then plays. With every layer on (the referee as root with bubblewrap, as CI runs
it), each attack is contained: the other seats finish OK on their own processes, and no
process outlives the match. A layer this machine does not allow skips the test with the
reason ``arena doctor`` gives. Where it is safe to show, the same attack without the layers
succeeds, so the tests can fail.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import grpc
import pytest

from arena.catalog import BotSpec, read_spec
from arena.games.classic.game import ClassicGame
from arena.keys import KEY_ENV
from arena.paths import results_home
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.protocol._pb.riskarena.v1 import arena_pb2_grpc
from arena.protocol.envelope import PROTOCOL_VERSION
from arena.referee import local
from arena.referee.host import BotHost
from arena.referee.match import MatchResult, TimeControl
from arena.sandbox.isolation import Isolation, detect
from tests.node import set_up_js_bot
from tests.processes import marked
from tests.waiting import wait_until

from . import RANDOM, REPO, rules_for

HOSTILE = Path(__file__).resolve().parent / "hostile_bots"
DEFAULT_STARTUP = TimeControl().startup_time
CONTROL = TimeControl(move_time=5.0, time_bank=30.0, startup_time=DEFAULT_STARTUP)
"""The default startup time (a bot must connect within it under every layer), generous
clocks for the moves."""


def hostile(name: str) -> BotSpec:
    return read_spec(HOSTILE / name)


@pytest.fixture
def layers(monkeypatch: pytest.MonkeyPatch) -> Isolation:
    """Every isolation layer on, or the test skipped with the reason ``arena doctor`` gives."""
    monkeypatch.setenv("ARENA_ISOLATION", "auto")
    off = [layer for layer in detect().layers if not layer.active]
    if off:
        pytest.skip("; ".join(f"layer {layer.name} is off: {layer.why}" for layer in off))
    monkeypatch.setenv("ARENA_ISOLATION", "users,namespaces")
    return detect()


def play(
    players: list[BotSpec], replay: Path, seed: int = 1, address: str | None = None
) -> MatchResult:
    rules = rules_for(len(players))
    return local.play(ClassicGame(rules.config), players, seed, CONTROL, replay, address=address)


def report(result: MatchResult, seat: int) -> dict[str, Any]:
    """What the hostile bot at ``seat`` said it got (its ``HOSTILE`` stderr line)."""
    logs = sorted((results_home() / "logs").glob(f"{result.match_id}-seat{seat}-*.log"))
    assert logs, f"no log for seat {seat}"
    for line in logs[0].read_text().splitlines():
        if line.startswith("HOSTILE "):
            return json.loads(line.removeprefix("HOSTILE "))
    raise AssertionError(f"seat {seat} reported nothing: {logs[0].read_text()[-2000:]}")


@pytest.fixture
def taken_uids(monkeypatch: pytest.MonkeyPatch) -> set[int]:
    """The seat uids handed out during the test (other tests and runs on the machine may
    hold others of the range at the same time)."""
    from arena.sandbox.seat_users import SeatUsers

    taken: set[int] = set()
    real_take = SeatUsers.take

    def take(self: SeatUsers) -> Any:
        user = real_take(self)
        taken.add(user.uid)
        return user

    monkeypatch.setattr(SeatUsers, "take", take)
    return taken


def processes_of(uids: set[int]) -> list[int]:
    """Live processes (not zombies) running as any of ``uids``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            lines = (entry / "status").read_text().splitlines()
        except OSError:
            continue
        fields = {key: value.split() for key, _, value in (line.partition(":") for line in lines)}
        if fields.get("State", ["Z"])[0] != "Z" and int(fields["Uid"][0]) in uids:
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize("address", [None, "127.0.0.1:0"], ids=["unix", "tcp"])
def test_a_thief_finds_no_token_and_signals_nobody(
    layers: Isolation, taken_uids: set[int], tmp_path: Path, address: str | None
) -> None:
    """Also over TCP, where the sandbox shares the host's network and all seats one server."""
    result = play([hostile("thief"), RANDOM, RANDOM], tmp_path / "replay.jsonl", address=address)
    got = report(result, 0)
    assert got["uid"] != 0
    assert got["tokens"] == 0 and got["stopped"] == [] and got["killed"] == []
    assert got["pids_seen"] <= 2  # its sandbox's init and its own parent, nobody else
    assert [s.status for s in result.seats][1:] == ["OK", "OK"]
    assert taken_uids and wait_until(lambda: not processes_of(taken_uids))


def test_a_token_works_only_on_its_own_seat_socket(layers: Isolation) -> None:
    """Session binding: even a token that did get out is refused on every other socket, and
    on its own once its process holds the seat."""

    async def scenario() -> list[str]:
        async with BotHost(isolation=layers) as host:
            seats = [await host.connect(RANDOM, f"bound-{i}", DEFAULT_STARTUP) for i in range(2)]
            assert all(seat is not None for seat, _ in seats), seats
            own = list(host._seat_servers.values())
            token = next(iter(own[0].registry._expected))
            codes = []
            for server in own:
                codes.append(await _hello(server.target, token))
            for seat, _ in seats:
                assert seat is not None
                await host.release(seat)
            return codes

    assert asyncio.run(scenario()) == ["UNAUTHENTICATED", "UNAUTHENTICATED"]


async def _hello(target: str, token: str) -> str:
    hello = pb.BotMessage(hello=pb.Hello(protocol_version=PROTOCOL_VERSION, token=token))
    async with grpc.aio.insecure_channel(target) as channel:
        call = arena_pb2_grpc.RefereeStub(channel).Play()
        await call.write(hello)
        try:
            async for _ in call:
                return "WELCOMED"
        except grpc.aio.AioRpcError as exc:
            return exc.code().name
    return "ENDED"


def test_a_spy_reads_neither_the_live_replay_nor_the_results_nor_the_referee(
    layers: Isolation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    replays = results_home() / "replays"
    replays.mkdir(parents=True)
    replay = replays / "live.jsonl"
    (results_home() / "results.db").write_bytes(b"SQLite format 3\0")
    monkeypatch.delenv(KEY_ENV)  # the key is a file of the installation here
    from arena.keys import installation_key

    installation_key()
    targets = [replay, replays, results_home() / "results.db", results_home() / "secret"]
    monkeypatch.setenv(
        "ARENA_TEST_SPY",
        os.pathsep.join(map(str, [*targets, REPO / "results", REPO / "README.md"])),
    )
    result = play([hostile("spy"), RANDOM], replay)
    tried = report(result, 0)["tried"]
    assert len(tried) == len(targets) + 3
    for path, outcome in tried.items():
        assert not outcome.startswith(("READ", "LISTED")), (path, outcome)
    assert [s.status for s in result.seats] == ["OK", "OK"]


def test_without_the_layers_the_same_spy_reads_the_live_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The spy test can fail: a bot running as the referee's user reads the replay."""
    replay = tmp_path / "replay.jsonl"
    monkeypatch.setenv("ARENA_TEST_SPY", str(replay))
    result = play([hostile("spy"), RANDOM], replay)
    assert report(result, 0)["tried"][str(replay)].startswith("READ")


def test_a_double_forked_grandchild_dies_with_its_seat(
    layers: Isolation, taken_uids: set[int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mark = f"arena-forker-{os.getpid()}-{time.monotonic_ns()}"
    monkeypatch.setenv("ARENA_TEST_MARK", mark)
    result = play([hostile("forker"), RANDOM], tmp_path / "replay.jsonl")
    assert report(result, 0)["grandchild"] > 0  # it did leave one behind
    assert [s.status for s in result.seats] == ["OK", "OK"]
    assert wait_until(lambda: not marked(mark)), f"outlived its match: {marked(mark)}"
    assert taken_uids and wait_until(lambda: not processes_of(taken_uids))


def test_without_the_layers_a_double_forked_grandchild_outlives_its_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The forker test can fail: a process group kill misses a child that left the group."""
    mark = f"arena-forker-{os.getpid()}-{time.monotonic_ns()}"
    monkeypatch.setenv("ARENA_TEST_MARK", mark)
    play([hostile("forker"), RANDOM], tmp_path / "replay.jsonl")
    try:
        assert marked(mark), "the grandchild should have outlived the process group"
    finally:
        for pid in marked(mark):
            os.kill(pid, 9)


@pytest.mark.parametrize("bot", ["random", "js-random", "europe-heuristic", "js-europe"])
def test_bundled_bots_connect_within_the_default_startup_time_under_every_layer(
    layers: Isolation, bot: str
) -> None:
    spec = read_spec(REPO / "bots" / bot)
    if spec.setup is not None:
        # Once per checkout, as every test does: a second ``npm ci`` in the shared folder
        # deletes ``node_modules`` under a JavaScript bot another test is running.
        set_up_js_bot(spec, results_home())

    async def connect() -> str:
        async with BotHost(isolation=layers) as host:
            seat, why = await host.connect(spec, f"layered-{bot}", DEFAULT_STARTUP)
            if seat is not None:
                await host.release(seat)
            return why

    assert asyncio.run(connect()) == ""


@pytest.fixture
def seat_users(monkeypatch: pytest.MonkeyPatch) -> Isolation:
    """The seat-user layer alone (no sandbox), or the test skipped with doctor's reason."""
    monkeypatch.setenv("ARENA_ISOLATION", "auto")
    users = next(layer for layer in detect().layers if layer.name == "users")
    if not users.active:
        pytest.skip(f"layer users is off: {users.why}")
    monkeypatch.setenv("ARENA_ISOLATION", "users")
    return detect()


def test_a_seat_user_s_escaped_children_die_with_its_process(
    seat_users: Isolation, tmp_path: Path
) -> None:
    """Without a sandbox, killing every process of the seat's uid ends what left the group."""
    from arena.sandbox.launcher import Limits, launch
    from arena.sandbox.seat_users import SeatUsers

    assert seat_users.uids is not None
    pool = SeatUsers(seat_users.uids)

    def sessions(uid: int) -> set[int]:
        """The sessions of the processes running as ``uid``."""
        found = set()
        for pid in processes_of({uid}):
            with contextlib.suppress(ProcessLookupError):
                found.add(os.getsid(pid))
        return found

    async def scenario() -> tuple[int, bool]:
        user = pool.take()
        process = await launch(
            ["sh", "-c", "setsid sleep 600 & exec sleep 600"],
            Path("/"),
            {},
            tmp_path / "escape.log",
            Limits(),
            isolation=seat_users,
            user=user,
        )
        left_the_group = wait_until(lambda: len(sessions(user.uid)) == 2)
        uid = user.uid
        await process.kill()
        return uid, left_the_group

    uid, left_the_group = asyncio.run(scenario())
    assert left_the_group, "the child should have started a session of its own"
    assert wait_until(lambda: not sessions(uid)), "escaped children lived on"


def test_seat_uids_are_held_one_process_at_a_time(seat_users: Isolation) -> None:
    from arena.sandbox.seat_users import SeatUsers

    assert seat_users.uids is not None
    first, second = SeatUsers(seat_users.uids), SeatUsers(seat_users.uids)
    a, b = first.take(), second.take()
    assert a.uid != b.uid  # two pools (two referees) never share a uid at once
    a.release()
    c = second.take()
    assert c.uid == a.uid  # a released uid is free again
    b.release()
    c.release()


def test_a_python_bot_the_seat_user_cannot_reach_is_refused_with_the_reason(
    seat_users: Isolation,
) -> None:
    """Without a sandbox's mounts the interpreter must be reachable by other users; when it
    is not, a required layer refuses the bot, naming the folder in the way."""
    from arena.sandbox.launcher import reachable_by_others

    blocked = reachable_by_others(Path(os.path.realpath(sys.executable)))

    async def connect() -> str:
        async with BotHost(isolation=seat_users) as host:
            seat, why = await host.connect(RANDOM, "reach", DEFAULT_STARTUP)
            if seat is not None:
                await host.release(seat)
            return why

    why = asyncio.run(connect())
    if blocked is None:
        assert why == ""
    else:
        assert why == f"cannot run as a seat user: {blocked}"


SETUP_PROBE = """
import json, os, sys
outcomes = {}
for path in os.environ["ARENA_TEST_TARGETS"].split(os.pathsep):
    try:
        with open(path, "w") as f:
            f.write("x")
        outcomes[path] = "WROTE"
    except OSError as exc:
        outcomes[path] = type(exc).__name__
with open("outcomes.json", "w") as f:
    json.dump(outcomes, f)
"""


def test_a_setup_writes_its_own_folder_and_nothing_else(
    layers: Isolation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stranger's ``setup`` runs sandboxed too: its folder is writable, the results, the
    arena's environment and other bots' folders are not."""
    from arena.catalog import run_setup

    folder = tmp_path / "installer"
    folder.mkdir()
    (folder / "bot.toml").write_text(
        'name = "installer"\ncommand = "python bot.py"\n'
        f"setup = {json.dumps(['python', '-c', SETUP_PROBE])}\n"
    )
    results_home().mkdir(parents=True, exist_ok=True)
    targets = [
        results_home() / "planted",
        Path(sys.prefix) / "planted.pth",
        REPO / "bots" / "random" / "planted",
    ]
    monkeypatch.setenv("ARENA_TEST_TARGETS", os.pathsep.join(map(str, targets)))
    assert run_setup(read_spec(folder))
    outcomes = json.loads((folder / "outcomes.json").read_text())
    assert outcomes == {str(t): outcomes[str(t)] for t in targets}
    assert not [path for path, outcome in outcomes.items() if outcome == "WROTE"], outcomes
    assert not [t for t in targets if t.exists()]


def test_the_sandbox_mounts_an_allow_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a sandbox sees is spelled out in its bubblewrap arguments: a program's own folder
    only (not the home above it), extra runtimes from $ARENA_SANDBOX_PATHS, what the bundled
    bots share (the protos, the JavaScript library; not the other bots), the bot folder
    read-only (writable for its setup), no network on a unix socket."""
    from arena.sandbox.bubblewrap import bwrap_argv, runtime_paths

    program = tmp_path / "home" / "bin" / "mybot"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    extra = tmp_path / "opt-runtime"
    extra.mkdir()
    monkeypatch.setenv("ARENA_SANDBOX_PATHS", str(extra))
    paths = runtime_paths(str(program), "")
    assert program.parent in paths and tmp_path / "home" not in paths
    assert extra in paths
    assert REPO / "protos" in paths and REPO / "bots" / "js-sdk" in paths  # bundled bots share
    assert REPO / "bots" not in paths
    folder, home, sockets = tmp_path / "bot", tmp_path / "private", tmp_path / "seat"
    for made in (folder, home, sockets):
        made.mkdir()

    def argv(**options: Any) -> list[str]:
        return bwrap_argv(
            "bwrap", [str(program)], cwd=folder, home=home, uid=None, path_env="", **options
        )

    def mounts(args: list[str], flag: str) -> set[str]:
        return {args[i + 2] for i, a in enumerate(args) if a == flag}

    played = argv(socket_dir=sockets)
    assert "--unshare-net" in played and "--unshare-pid" in played
    assert {str(folder), str(sockets), str(program.parent)} <= mounts(played, "--ro-bind")
    assert mounts(played, "--bind") == {str(home)}
    assert str(REPO / "results") not in mounts(played, "--ro-bind") | mounts(played, "--bind")
    setup = argv(socket_dir=None, writable_cwd=True)
    assert "--unshare-net" not in setup
    assert mounts(setup, "--bind") == {str(folder), str(home)}


def test_without_a_sandbox_a_bot_run_as_the_referee_s_user_is_told_once_with_what_it_means(
    seat_users: Isolation, tmp_path: Path
) -> None:
    """``auto`` on a machine without bubblewrap runs a bot that a seat user cannot reach as
    the referee's user: the reason comes once per bot, and what it means for the run once,
    not once per seat or per game."""
    from tests.referee.test_seat_start import without_bubblewrap

    env = {**os.environ, "ARENA_ISOLATION": "auto", "PATH": without_bubblewrap(tmp_path)}
    closed = tmp_path / "closed"
    shutil.copytree(RANDOM.path, closed)
    closed.chmod(0o700)
    arena = REPO / ".venv" / "bin" / "arena"
    done = subprocess.run(
        [str(arena), "versus", str(closed), str(closed), "--games", "2", "--json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    why = [line for line in lines if line.startswith("random runs as the referee's user: ")]
    meaning = [line for line in lines if line.startswith("bots of this run can read and play")]
    assert len(why) == 1, done.stderr
    assert meaning == [
        "bots of this run can read and play each other's seats: fine for your own bots; "
        "for strangers' bots install bubblewrap, see `arena doctor`"
    ], done.stderr


def test_what_a_run_without_sandbox_means_is_said_by_one_process_of_the_run() -> None:
    """A tournament's workers are forked from its scheduler: of all of them, one says it."""
    import multiprocessing

    from arena.referee import host

    context = multiprocessing.get_context("fork")
    once = host._OncePerRun()
    with context.Pool(3) as pool:
        said = pool.map(_first, [once] * 6)
    assert sorted(said) == [False] * 5 + [True]
    assert not once.first()


def _first(once: Any) -> bool:
    return bool(once.first())
