"""A bot folder is a Python package of its own: a bot of several files imports its modules
relatively, in-process and as a process in every isolation mode, and two folders, two
copies of one bot included, never share a module however their files are named.

The fixture bots ``first`` and ``last`` (``tests/fixtures/packaged_bots/``) have the same
``bot.py``; each imports ``from .helpers import pick``, and their ``helpers.py`` differ.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from arena.catalog import command_argv, load_bot, read_spec, version_id
from arena.catalog.entries import plan_entry
from arena.catalog.loader import PACKAGE_PREFIX, bot_module, package_name
from arena.errors import ArenaError, BotError
from arena.games.classic.game import ClassicGame
from arena.paths import results_home
from arena.referee import local
from arena.referee.match import TimeControl, play_match
from arena.sandbox.isolation import detect
from arena.sandbox.launcher import reachable_by_others
from arena.scheduler.records import MatchSpec
from arena.scheduler.worker import WorkerHost
from arena.sdk import Request
from arena.sdk.bot import Bot
from tests.referee import FAST, rules_for

PACKAGED = Path(__file__).resolve().parent / "fixtures" / "packaged_bots"
FIRST, LAST = PACKAGED / "first", PACKAGED / "last"
RUNNER = "arena.catalog.runner"


def answer(bot: Bot) -> int:
    """What the bot answers to the first decision of a 3-player game (claims: 42 options)."""
    rules = rules_for(3)
    state = rules.new_game(1)
    seat = state.seat
    options = rules.legal_options(state, seat)
    reply = bot.choose(Request.make(seat, rules.view(state, seat), options))
    assert isinstance(reply, int)
    return reply


def modules_of(folder: Path) -> set[str]:
    name = package_name(folder)
    return {m for m in sys.modules if m == name or m.startswith(name + ".")}


def test_a_bot_of_two_files_imports_its_own_module_in_process() -> None:
    bot = load_bot(read_spec(FIRST))
    package = package_name(FIRST)
    assert package.startswith(f"{PACKAGE_PREFIX}first_")
    assert type(bot).__module__ == f"{package}.bot"
    assert sys.modules[f"{package}.helpers"].NAME == "first"
    assert "helpers" not in sys.modules  # nothing of the bot's at the top level
    assert not (FIRST / "__pycache__").exists()


def test_two_folders_each_see_their_own_helpers_in_one_process() -> None:
    first, last = load_bot(read_spec(FIRST)), load_bot(read_spec(LAST))
    assert package_name(FIRST) != package_name(LAST)
    assert bot_module(FIRST, "helpers").NAME == "first"
    assert bot_module(LAST, "helpers").NAME == "last"
    assert (answer(first), answer(last)) == (0, 41)


def test_two_copies_of_one_bot_side_by_side_keep_their_own_modules(tmp_path: Path) -> None:
    """Two versions of ``first`` in folders of the same name: each has its own modules."""
    old, new = tmp_path / "old" / "first", tmp_path / "new" / "first"
    shutil.copytree(FIRST, old)
    shutil.copytree(FIRST, new)
    helpers = new / "helpers.py"
    helpers.write_text(helpers.read_text().replace("return 0", "return 1"))
    before, after = load_bot(read_spec(old)), load_bot(read_spec(new))
    assert package_name(old) != package_name(new)
    assert (answer(before), answer(after)) == (0, 1)
    assert type(before).__module__ != type(after).__module__
    assert not (old / "__pycache__").exists() and not (new / "__pycache__").exists()


def test_a_failed_import_leaves_none_of_the_bots_modules_behind(tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(FIRST, broken)
    (broken / "helpers.py").unlink()
    with pytest.raises(BotError, match=r"importing .*bot\.py failed: .*helpers"):
        load_bot(read_spec(broken))
    assert modules_of(broken) == set()
    shutil.copy(FIRST / "helpers.py", broken / "helpers.py")
    assert answer(load_bot(read_spec(broken))) == 0  # a later load starts afresh


def test_a_python_script_command_runs_through_the_runner(tmp_path: Path) -> None:
    folder = tmp_path / "bot"
    shutil.copytree(FIRST, folder)
    exe = sys.executable

    def argv(command: str | list[str]) -> list[str]:
        toml = folder / "bot.toml"
        lines = [line for line in toml.read_text().splitlines() if not line.startswith("command")]
        quoted = command if isinstance(command, str) else " ".join(command)
        toml.write_text("\n".join([*lines, f"command = {quoted!r}"]) + "\n")
        return command_argv(read_spec(folder))

    assert argv("python bot.py") == [exe, "-m", RUNNER, "bot.py"]
    assert argv("python3 -B -X dev -Wignore bot.py --fast") == [
        exe,
        "-B",
        "-X",
        "dev",
        "-Wignore",
        "-m",
        RUNNER,
        "bot.py",
        "--fast",
    ]
    # Not a script of the folder's own, or not by the arena's interpreter: as written.
    assert argv("python -c pass") == [exe, "-c", "pass"]
    assert argv("python missing.py") == [exe, "missing.py"]
    assert argv("python ../bot.py") == [exe, "../bot.py"]
    assert argv("/usr/bin/python3 bot.py") == ["/usr/bin/python3", "bot.py"]
    (folder / "my-bot.py").write_text("")
    assert argv("python my-bot.py") == [exe, "my-bot.py"]


@pytest.fixture(params=["off", "namespaces", "users", "users,namespaces"])
def isolation(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """``$ARENA_ISOLATION`` for the test, or the test skipped when this machine cannot give
    that mode (the reason ``arena doctor`` would say)."""
    mode = str(request.param)
    monkeypatch.setenv("ARENA_ISOLATION", mode)
    try:
        layers = detect()
    except ArenaError as exc:
        pytest.skip(str(exc))
    closed = reachable_by_others(Path(sys.executable))
    if layers.uids is not None and layers.bwrap is None and closed is not None:
        pytest.skip(f"a seat user cannot run the arena's interpreter: {closed}")
    return mode


def test_a_bot_of_two_files_plays_as_a_process_as_it_does_in_process(isolation: str) -> None:
    game = ClassicGame(rules_for(2, max_rounds=3).config)
    played = local.play(game, [read_spec(FIRST), read_spec(LAST)], 5, FAST)
    assert [s.status for s in played.seats] == ["OK", "OK"], played.to_dict()
    for seat, folder in enumerate((FIRST, LAST)):
        logs = sorted((results_home() / "logs").glob(f"{played.match_id}-seat{seat}-*.log"))
        said = [line for line in logs[0].read_text().splitlines() if line.startswith("PACKAGED")]
        package = package_name(folder)
        assert said == [f"PACKAGED {folder.name} __main__ {package}"]
        assert not (folder / "__pycache__").exists()
    bots = [load_bot(read_spec(FIRST)), load_bot(read_spec(LAST))]
    inside = play_match(ClassicGame(rules_for(2, max_rounds=3).config), bots, 5)
    assert (inside.decisions, inside.final.owner, inside.final.armies) == (
        played.decisions,
        played.final.owner,
        played.final.armies,
    )


def test_a_worker_plays_a_folder_changed_since_it_imported_it_as_a_process(
    tmp_path: Path,
) -> None:
    """A folder is imported once per process: a tournament worker that imported one version
    of it plays another (its files changed since) as a process, never the old modules."""
    folder = tmp_path / "first"
    shutil.copytree(FIRST, folder)
    logs = results_home() / "logs"

    def job(index: int) -> MatchSpec:
        spec = read_spec(folder)
        seats = (plan_entry(spec, version_id(spec)), plan_entry(read_spec(LAST), "last"))
        return MatchSpec(
            tournament_id="t",
            plan_index=index,
            seed=3,
            game="classic",
            rules=rules_for(2, max_rounds=3).config.to_dict(),
            seats=seats,
            control=TimeControl(move_time=2.0, time_bank=5.0, startup_time=60.0),
            in_process=True,
        )

    worker = WorkerHost()
    try:
        worker.play(job(0))
        assert not list(logs.glob("t-0-seat*.log"))  # both in-process
        helpers = folder / "helpers.py"
        helpers.write_text(helpers.read_text().replace("return 0", "return 1"))
        worker.play(job(1))
        (started,) = logs.glob("t-1-seat*.log")
        assert started.name == "t-1-seat0-first.log"
        assert "PACKAGED first __main__" in started.read_text()
    finally:
        worker.close()
