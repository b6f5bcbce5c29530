"""Starting seats that cannot start: each is an INIT_FAIL with a one-line reason, and the
match goes on with the others, in every isolation mode.

The bots here are shell scripts run by a relative command (``./bot.sh``, as a compiled bot's
``./mybot`` is), in folders of a world-readable temporary folder; they start a Python that a
seat user can run (the system's, with the arena's packages on its path) where the arena's own
interpreter lives in a folder closed to other users, as pyenv puts it under ``/root``.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import arena
from arena.catalog import BotSpec, read_spec
from arena.errors import ArenaError
from arena.games.classic.game import ClassicGame
from arena.referee import local
from arena.referee.match import MatchResult
from arena.sandbox import isolation
from arena.sandbox.launcher import Limits, launch, reachable_by_others
from tests.processes import marked
from tests.waiting import wait_until

from . import FAST, REPO, rules_for

MODES = ["users", "namespaces", "off", "auto", "auto-without-bubblewrap"]
"""``auto-without-bubblewrap``: ``auto`` on a machine where bubblewrap is not installed
(the usual container), simulated by a ``PATH`` without it."""
MATCH_BUDGET = 180.0
"""Seconds a short match may take on a loaded machine; past it, it hangs."""


BOT_PACKAGES = ("arena", "grpc", "google", "typing_extensions.py")
"""What a Python bot process imports beyond the standard library (the SDK, gRPC, protobuf)."""


@functools.cache
def _portable_python() -> tuple[str, str]:
    """An interpreter a seat user can run, and the ``PYTHONPATH`` giving it the arena's
    packages: the arena's own when other users can reach them, else a copy of the few a bot
    needs in a folder open to them (a checkout under a private folder, as CI's may be); the
    test is skipped when this machine has no interpreter they can run."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    candidates = (sys.executable, f"/usr/bin/{version}", f"/usr/local/bin/{version}")
    usable = [c for c in candidates if os.path.exists(c) and reachable_by_others(Path(c)) is None]
    if not usable:
        pytest.skip(f"no {version} here that a user other than root can run")
    packages = [Path(sysconfig.get_paths()["purelib"]), REPO]
    if all(reachable_by_others(p) is None for p in packages):
        return os.path.realpath(usable[0]), os.pathsep.join(map(str, packages))
    return os.path.realpath(usable[0]), str(_open_copy_of_bot_packages())


def _open_copy_of_bot_packages() -> Path:
    """A copy of :data:`BOT_PACKAGES` that every user can read, removed when the tests end."""
    folder = Path(tempfile.mkdtemp(prefix="arena-bot-packages-"))
    atexit.register(shutil.rmtree, folder, True)
    folder.chmod(0o755)
    roots = (REPO, Path(sysconfig.get_paths()["purelib"]))  # the checkout's arena first
    for name in BOT_PACKAGES:
        source = next(root / name for root in roots if (root / name).exists())
        if source.is_dir():
            shutil.copytree(source, folder / name)
        else:
            shutil.copy2(source, folder / name)
    for path in folder.rglob("*"):
        path.chmod(path.stat().st_mode | (0o555 if path.is_dir() else 0o444))
    return folder


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A temporary folder other users can reach (pytest's own is its owner's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="arena-seat-start-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def script_bot(folder: Path, name: str, command: str = "./bot.sh") -> BotSpec:
    """The random bot behind a shell script its ``command`` names relative to its folder."""
    python, packages = _portable_python()
    folder.mkdir(mode=0o755)
    (folder / "bot.py").write_bytes((REPO / "bots" / "random" / "bot.py").read_bytes())
    script = folder / "bot.sh"
    script.write_text(f'#!/bin/sh\nPYTHONPATH="{packages}" exec "{python}" bot.py\n')
    script.chmod(0o755)
    (folder / "bot.toml").write_text(f'name = "{name}"\ncommand = "{command}"\n')
    for path in (folder / "bot.py", folder / "bot.toml"):
        path.chmod(0o644)
    return read_spec(folder)


def without_bubblewrap(tmp_path: Path) -> str:
    """A ``PATH`` like this one, with every program but ``bwrap``."""
    farm = tmp_path / "bin-without-bwrap"
    farm.mkdir()
    kept = []
    for entry in os.environ.get("PATH", os.defpath).split(os.pathsep):
        if not entry or not os.path.isdir(entry):
            continue
        if not os.path.exists(os.path.join(entry, "bwrap")):
            kept.append(entry)
            continue
        for program in os.listdir(entry):
            if program != "bwrap" and not (farm / program).exists():
                (farm / program).symlink_to(os.path.join(entry, program))
    return os.pathsep.join([str(farm), *kept])


@pytest.fixture(params=MODES)
def mode(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """``$ARENA_ISOLATION`` for the test, or the test skipped when this machine cannot give
    that mode (the reason ``arena doctor`` would say)."""
    name = str(request.param)
    if name == "auto-without-bubblewrap":
        farm = Path(tempfile.mkdtemp(prefix="arena-path-"))
        farm.chmod(0o755)  # seat users find their programs there too (`node` of a command)
        request.addfinalizer(lambda: shutil.rmtree(farm, ignore_errors=True))
        monkeypatch.setenv("PATH", without_bubblewrap(farm))
        isolation._namespaces_layer.cache_clear()
        request.addfinalizer(isolation._namespaces_layer.cache_clear)
    monkeypatch.setenv("ARENA_ISOLATION", name.removesuffix("-without-bubblewrap"))
    try:
        layers = isolation.detect()
    except ArenaError as exc:
        pytest.skip(str(exc))
    closed = reachable_by_others(Path(arena.__file__).parent)
    if layers.strict and layers.bwrap is None and closed is not None:
        pytest.skip(f"seat users cannot use this checkout's arena package: {closed}")
    _, packages = _portable_python()
    monkeypatch.setenv("ARENA_SANDBOX_PATHS", packages)  # a sandbox shows the bots' packages
    return name


def play_within(players: list[BotSpec], seconds: float = MATCH_BUDGET) -> MatchResult:
    """Play a short match; fail (instead of hanging the suite) if it does not end in time."""
    rules = rules_for(len(players), max_rounds=3)
    outcome = within(seconds, lambda: local.play(ClassicGame(rules.config), players, 1, FAST))
    if isinstance(outcome, BaseException):
        raise outcome
    assert isinstance(outcome, MatchResult)
    return outcome


def test_a_seat_that_cannot_start_fails_alone_in_every_isolation_mode(
    mode: str, open_folder: Path
) -> None:
    """A relative command plays; a program that does not exist, and (with seat users and
    their layer required) a folder closed to other users, are INIT_FAIL with the reason;
    the seats beside them play on."""
    first = script_bot(open_folder / "first", "first")
    missing = script_bot(open_folder / "missing", "missing", command="./no-such-program")
    closed = script_bot(open_folder / "closed", "closed")
    (open_folder / "closed").chmod(0o700)
    last = script_bot(open_folder / "last", "last")
    result = play_within([first, missing, closed, last])
    seats = result.seats
    assert [seats[0].status, seats[3].status] == ["OK", "OK"], result.to_dict()
    assert result.decisions > 0
    assert seats[1].status == "INIT_FAIL"
    assert seats[1].detail == (
        f"cannot start './no-such-program' in {open_folder / 'missing'}: No such file or directory"
    )
    if mode == "users":  # required, and this folder cannot have it: refused, with the reason
        assert seats[2].status == "INIT_FAIL"
        closed_folder = open_folder / "closed"
        assert seats[2].detail.startswith(f"cannot run as a seat user: {closed_folder} is not")
    else:  # no seat user, or ``auto`` runs it as the referee's user
        assert seats[2].status == "OK", result.to_dict()


def test_a_program_that_cannot_be_executed_is_one_line_beside_seats_that_play(
    mode: str, open_folder: Path
) -> None:
    """A program that is there but cannot be executed: INIT_FAIL with the reason."""
    first = script_bot(open_folder / "first", "first")
    broken = script_bot(open_folder / "broken", "broken")
    (open_folder / "broken" / "bot.sh").chmod(0o644)
    result = play_within([first, broken, script_bot(open_folder / "last", "last")])
    assert [s.status for s in result.seats] == ["OK", "INIT_FAIL", "OK"], result.to_dict()
    assert result.seats[1].detail == (
        f"cannot start './bot.sh' in {open_folder / 'broken'}: Permission denied"
    )


def js_library_bot(bots: Path) -> BotSpec:
    """js-random and the JavaScript library it depends on, copied into a bundled-bots folder
    of their own (``$ARENA_BOTS``) without their packages: the setup that installs them runs
    in the test. The bot keeps a copy of the ``.proto`` files, as a bot folder outside the
    repository does."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("the JavaScript bots need `node` and `npm` on PATH")
    bots.mkdir(mode=0o755)
    for name in ("js-random", "js-sdk"):
        shutil.copytree(REPO / "bots" / name, bots / name, ignore=shutil.ignore_patterns("node_*"))
    shutil.copytree(REPO / "protos", bots / "js-random" / "protos")
    return read_spec(bots / "js-random")


def test_a_javascript_bot_installs_its_library_and_plays_in_every_isolation_mode(
    mode: str, open_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The library is a ``file:`` dependency outside the bot's folder: the setup (sandboxed
    with the namespaces layer) can read it, copies it into ``node_modules``, and the bot,
    whose sandbox shows its own folder alone (as a seat user with the users layer), plays."""
    monkeypatch.setenv("ARENA_BOTS", str(open_folder / "bots"))
    spec = js_library_bot(open_folder / "bots")
    result = play_within([spec, script_bot(open_folder / "python", "python")])
    assert [(s.status, s.strikes) for s in result.seats] == [("OK", 0), ("OK", 0)], (
        result.to_dict(),
        [s.detail for s in result.seats],
    )
    assert result.seats[0].think_ms
    installed = spec.path / "node_modules" / "risk-arena-sdk"
    assert installed.is_dir() and not installed.is_symlink()
    assert (installed / "session.js").read_bytes() == (REPO / "bots/js-sdk/session.js").read_bytes()


def within(seconds: float, work: Callable[[], object]) -> object:
    """``work()``'s result (or exception), failing the test if it has not ended in time."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(work())
        except BaseException as exc:  # handed to the test's thread
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert outcome, f"it did not end within {seconds:g} s"
    return outcome[0]


class Stop(Exception):
    """What ends the test's event loop while a start is under way."""


def test_a_start_under_way_when_its_loop_ends_does_not_hang_it(tmp_path: Path) -> None:
    """``asyncio.run`` ending while a seat starts (a seat beside it failed, a Ctrl-C)
    cancels every task left, those of the start included: it still ends, at once, and
    leaves no bot process behind."""
    mark = f"arena-half-started-{os.getpid()}-{time.monotonic_ns()}"

    async def cut_short(steps: int) -> None:
        start = asyncio.ensure_future(
            launch(["sleep", "600", mark], tmp_path, {}, tmp_path / "cut.log", Limits())
        )
        assert not start.done()
        for _ in range(steps):
            await asyncio.sleep(0)
        raise Stop

    for steps in range(8):
        outcome = within(60, lambda: asyncio.run(cut_short(steps)))  # noqa: B023
        assert isinstance(outcome, Stop), outcome
    assert wait_until(lambda: not marked(mark)), "a start left its process running"


SHORT_OF_DESCRIPTORS = """
import asyncio, errno, os, resource, sys
from pathlib import Path
from arena.errors import BotError
from arena.sandbox.launcher import Limits, launch

resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


async def main() -> str:
    held = []
    try:
        while True:
            held.append(os.open(os.devnull, os.O_RDONLY))
    except OSError:
        os.close(held.pop())  # two left: the bot's stderr pipe, and none to start it with
        os.close(held.pop())
    try:
        await launch(["true"], Path("/"), {}, Path(sys.argv[1]), Limits())
    except BotError as exc:
        return f"blamed on the bot: {exc}"
    except OSError as exc:
        return "raised" if exc.errno == errno.EMFILE else f"raised {exc}"
    return "started"


print(asyncio.run(main()))
"""


def test_the_referee_short_of_descriptors_is_not_the_bot_s_failure(tmp_path: Path) -> None:
    """Out of descriptors, a start is raised as the referee's trouble (a tournament plays
    the match again), not made a bot's INIT_FAIL."""
    done = subprocess.run(
        [sys.executable, "-c", SHORT_OF_DESCRIPTORS, str(tmp_path / "short.log")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.stdout.strip() == "raised", done.stdout + done.stderr
