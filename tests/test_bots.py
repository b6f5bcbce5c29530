"""Bot folders: the Python environment of ``setup`` and ``command``, when ``setup`` runs, and
registered bot names (per results database) in every command that takes a bot."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import sysconfig
import threading
from pathlib import Path

import pytest

from arena.catalog import (
    bot_environment,
    command_argv,
    find_bot,
    load_bot,
    read_spec,
    resolve_argv,
    run_setup,
    version_id,
)
from arena.cli import main
from arena.errors import ConfigError
from arena.games.classic.config import ClassicConfig
from arena.games.classic.game import ClassicGame
from arena.referee.local import play
from arena.referee.match import TimeControl
from arena.results.store import open_store
from arena.scheduler import tournament as tournaments
from tests.waiting import wait_until

Capsys = pytest.CaptureFixture[str]
REPO = Path(__file__).resolve().parent.parent

BOT_PY = """\
from arena.sdk import Bot


class Tiny(Bot):
    name = "tiny"
    version = "1"


if __name__ == "__main__":
    Tiny().run()
"""


def make_bot(
    folder: Path,
    name: str = "tiny",
    *,
    command: str | list[str] = "python bot.py",
    setup: str | list[str] | None = None,
    body: str = BOT_PY,
) -> Path:
    """A Python bot folder with an in-process entry."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [f"name = {json.dumps(name)}", 'version = "1"', 'language = "Python"']
    lines.append(f"command = {json.dumps(command)}")
    if setup is not None:
        lines.append(f"setup = {json.dumps(setup)}")
    lines.append('entry = "bot:Tiny"')
    (folder / "bot.toml").write_text("\n".join(lines) + "\n")
    (folder / "bot.py").write_text(body)
    return folder


def fake_bin(folder: Path) -> Path:
    """A folder of ``python``/``pip`` impostors (another environment's, first on PATH)."""
    folder.mkdir(parents=True, exist_ok=True)
    for word in ("python", "python3", "pip", "pip3"):
        script = folder / word
        script.write_text(f'#!/bin/sh\necho "impostor {word}: somewhere else" >&2\nexit 0\n')
        script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return folder


def run(capsys: Capsys, *args: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``arena ARGS``."""
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    out, err = capsys.readouterr()
    return code, out, err


def error_line(err: str) -> str:
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("arena: error:")]
    assert len(lines) == 1, err
    return lines[0]


def default_db() -> Path:
    return Path(os.environ["ARENA_HOME"]) / "arena.db"


# ------------------------------------------------------------ python and pip words


def test_python_and_pip_words_mean_the_arena_interpreter() -> None:
    exe = sys.executable
    assert resolve_argv("python bot.py") == [exe, "bot.py"]
    assert resolve_argv("python3 -u bot.py") == [exe, "-u", "bot.py"]
    assert resolve_argv("pip install -r requirements.txt") == [
        exe,
        "-m",
        "pip",
        "install",
        "-r",
        "requirements.txt",
    ]
    assert resolve_argv(["pip3", "install", "x y"]) == [exe, "-m", "pip", "install", "x y"]
    assert resolve_argv("node bot.js") == ["node", "bot.js"]
    assert resolve_argv("/usr/bin/python3 bot.py") == ["/usr/bin/python3", "bot.py"]
    assert resolve_argv("./python") == ["./python"]


def test_the_interpreters_bin_folder_comes_first_on_path() -> None:
    bindir = os.path.dirname(sys.executable)
    env = bot_environment({"PATH": f"/first:{bindir}:/last"})
    assert env["PATH"].split(os.pathsep) == [bindir, "/first", "/last"]
    if sys.prefix != sys.base_prefix:
        assert env["VIRTUAL_ENV"] == sys.prefix


def test_command_argv_of_a_spec(tmp_path: Path) -> None:
    spec = read_spec(make_bot(tmp_path / "bot", command=["python3", "bot.py", "--fast"]))
    # A script of the bot's own folder runs as a module of its package (test_bot_packages.py).
    assert command_argv(spec) == [sys.executable, "-m", "arena.catalog.runner", "bot.py", "--fast"]


def _env_python(tmp_path: Path) -> tuple[Path, Path]:
    """A fresh virtual environment that sees this one's packages (arena, pip, setuptools)
    through a .pth file, so what is installed into it stays in tmp_path."""
    env = tmp_path / "env"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(env)], check=True, timeout=300
    )
    python = env / "bin" / "python"
    purelib = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True,
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout.strip()
    )
    ours = sysconfig.get_paths()["purelib"]
    (purelib / "arena_dev.pth").write_text(f"import site; site.addsitedir({ours!r})\n{REPO}\n")
    return python, purelib


PROBE_PYPROJECT = """\
[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "arena-setup-probe"
version = "1.0"

[tool.setuptools]
packages = ["arena_setup_probe"]
"""


def test_readme_setup_installs_what_the_bot_imports(tmp_path: Path) -> None:
    """``setup = "pip install -r requirements.txt"`` and ``command = "python bot.py"`` use one
    environment, even when another environment's ``pip``/``python`` come first on PATH; the
    setup's output goes to stderr and ``--json`` output stays one clean line."""
    python, purelib = _env_python(tmp_path)
    bot = make_bot(
        tmp_path / "probe-bot",
        "probe",
        setup="pip install --no-index --no-build-isolation -r requirements.txt",
        body="import arena_setup_probe\n\n" + BOT_PY,
    )
    package = bot / "probe"
    (package / "arena_setup_probe").mkdir(parents=True)
    (package / "arena_setup_probe" / "__init__.py").write_text("ANSWER = 42\n")
    (package / "pyproject.toml").write_text(PROBE_PYPROJECT)
    (bot / "requirements.txt").write_text("./probe\n")
    env = {
        **os.environ,
        "PATH": f"{fake_bin(tmp_path / 'elsewhere')}{os.pathsep}{os.environ.get('PATH', '')}",
        "ARENA_HOME": str(tmp_path / "results"),
    }
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run(
        [
            *(str(python), "-m", "arena.cli", "match", "--bot", str(bot), "--bot", "random"),
            *("--seed", "1", "--rules", "max_rounds=2", "--startup-time", "60", "--no-clock"),
            "--json",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "impostor" not in done.stderr
    assert "arena: setup of bot 'probe'" in done.stderr
    assert "arena-setup-probe" in done.stderr  # pip's own output, shown
    assert len(done.stdout.strip().splitlines()) == 1
    places = json.loads(done.stdout)["places"]
    assert [p["status"] for p in places] == ["OK", "OK"], done.stderr
    assert list(purelib.glob("arena_setup_probe*")), "installed into the arena's environment"


def test_a_script_command_finds_the_arena_python_on_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``python`` run by a bot's own script is the arena's interpreter too."""
    bot = make_bot(tmp_path / "bot", command="./run.sh")
    script = bot / "run.sh"
    script.write_text("#!/bin/sh\nexec python bot.py\n")
    script.chmod(0o755)
    monkeypatch.setenv(
        "PATH", f"{fake_bin(tmp_path / 'elsewhere')}{os.pathsep}{os.environ['PATH']}"
    )
    result = play(
        ClassicGame(ClassicConfig.parse({"max_rounds": "2"}, 2)),
        [read_spec(bot), load_bot(find_bot("random"))],
        seed=2,
        control=TimeControl(move_time=None, time_bank=30.0, startup_time=60.0),
    )
    assert [s.status for s in result.seats] == ["OK", "OK"]


# ------------------------------------------------------------------ when setup runs


COUNT_RUNS = [
    "python",
    "-c",
    "import pathlib; p = pathlib.Path('../runs.txt');"
    " p.write_text((p.read_text() if p.exists() else '') + 'x')",
]


def runs(tmp_path: Path) -> int:
    counter = tmp_path / "runs.txt"
    return len(counter.read_text()) if counter.exists() else 0


def test_setup_runs_again_when_the_bots_files_change(tmp_path: Path) -> None:
    folder = make_bot(tmp_path / "bot", setup=COUNT_RUNS)
    assert run_setup(read_spec(folder)) is True
    assert run_setup(read_spec(folder)) is False
    assert runs(tmp_path) == 1
    (folder / "bot.py").write_text(BOT_PY + "\n# a new strategy\n")
    assert run_setup(read_spec(folder)) is True
    assert runs(tmp_path) == 2
    assert run_setup(read_spec(folder)) is False
    (folder / "helper.py").write_text("X = 1\n")
    assert run_setup(read_spec(folder)) is True
    assert run_setup(read_spec(folder), force=True) is True
    assert runs(tmp_path) == 4


def test_a_copy_of_the_folder_gets_its_own_setup(tmp_path: Path) -> None:
    first = make_bot(tmp_path / "a" / "bot", setup=COUNT_RUNS)
    second = make_bot(tmp_path / "b" / "bot", setup=COUNT_RUNS)
    assert run_setup(read_spec(first)) is True
    assert run_setup(read_spec(second)) is True


def test_a_setup_that_writes_into_the_folder_runs_once(tmp_path: Path) -> None:
    folder = make_bot(
        tmp_path / "bot",
        setup=["python", "-c", "open('generated.py', 'w').write('VALUE = 7\\n')"],
    )
    before = version_id(read_spec(folder))
    assert run_setup(read_spec(folder)) is True
    assert version_id(read_spec(folder)) != before
    assert run_setup(read_spec(folder)) is False
    assert (folder / "generated.py").read_text() == "VALUE = 7\n"


def test_two_setups_of_one_folder_at_once_run_one_after_the_other(
    tmp_path: Path, capsys: Capsys
) -> None:
    """A second arena starting the same bot while its setup runs waits for it, then finds it
    done, instead of running a second ``npm ci`` under the first one's bots."""
    running, go = tmp_path / "running", tmp_path / "go"
    exclusive = (
        "import os, pathlib, sys, time\n"
        f"running, go = pathlib.Path({str(running)!r}), pathlib.Path({str(go)!r})\n"
        "try:\n"
        "    os.close(os.open(running, os.O_CREAT | os.O_EXCL))\n"
        "except FileExistsError:\n"
        "    sys.exit('two setups at once')\n"
        "for _ in range(3000):\n"
        "    if go.exists():\n"
        "        break\n"
        "    time.sleep(0.02)\n"
        "runs = pathlib.Path('../runs.txt')\n"
        "runs.write_text((runs.read_text() if runs.exists() else '') + 'x')\n"
        "running.unlink()\n"
    )
    spec = read_spec(make_bot(tmp_path / "bot", setup=["python", "-c", exclusive]))
    ran: dict[str, bool] = {}
    errors: list[BaseException] = []

    def setup(which: str) -> None:
        try:
            ran[which] = run_setup(spec)
        except BaseException as exc:  # reported by the assertions below
            errors.append(exc)

    first = threading.Thread(target=setup, args=("first",))
    first.start()
    assert wait_until(running.exists), "the first setup never started"
    second = threading.Thread(target=setup, args=("second",))
    second.start()
    stderr: list[str] = []

    def second_waits() -> bool:
        stderr.append(capsys.readouterr().err)
        return "waiting for another setup" in "".join(stderr)

    assert wait_until(second_waits), f"the second setup did not wait: {errors}"
    go.touch()
    first.join(60)
    second.join(60)
    assert not errors
    assert ran == {"first": True, "second": False}
    assert runs(tmp_path) == 1


def test_setup_output_goes_to_stderr(tmp_path: Path, capsys: Capsys) -> None:
    folder = make_bot(tmp_path / "bot", setup=["python", "-c", "print('hello from setup')"])
    code, out, err = run(capsys, "bots", "setup", str(folder))
    assert code == 0, err
    assert "hello from setup" in err
    assert "hello from setup" not in out
    assert "setup done" in out


def test_a_failing_setup_is_one_line_with_its_last_output(tmp_path: Path, capsys: Capsys) -> None:
    folder = make_bot(
        tmp_path / "bot",
        setup=["python", "-c", "import sys; print('it broke'); sys.exit(3)"],
    )
    code, _, err = run(capsys, "bots", "setup", str(folder))
    assert code == 2
    line = error_line(err)
    assert "exited 3" in line and "it broke" in line


# ---------------------------------------------------------------- registered names


def test_check_bot_and_bots_setup_take_registered_names(tmp_path: Path, capsys: Capsys) -> None:
    folder = make_bot(tmp_path / "mine", "mine", setup=COUNT_RUNS)
    code, out, err = run(capsys, "bots", "add", str(folder))
    assert code == 0, err
    assert runs(tmp_path) == 1
    code, out, err = run(capsys, "check-bot", "mine", "--in-process", "--json", "--move-time", "30")
    assert code == 0, err
    assert json.loads(out)["bot"] == "mine"
    code, out, err = run(capsys, "bots", "setup", "mine")
    assert code == 0, err
    assert runs(tmp_path) == 2


def test_every_command_takes_db_for_registered_names(tmp_path: Path, capsys: Capsys) -> None:
    other = tmp_path / "other.db"
    folder = make_bot(tmp_path / "mine", "mine", setup=COUNT_RUNS)
    code, _, err = run(capsys, "bots", "add", str(folder), "--db", str(other))
    assert code == 0, err
    assert not default_db().exists()

    def sources(*args: str) -> dict[str, str]:
        code, out, err = run(capsys, *args)
        assert code == 0, err
        return {b["name"]: b["source"] for b in json.loads(out)}

    assert sources("bots", "list", "--json", "--db", str(other))["mine"] == "registered"
    assert sources("bots", "--json", "--db", str(other), "list")["mine"] == "registered"
    assert sources("bots", "--db", str(other), "--json")["mine"] == "registered"
    assert "mine" not in sources("bots", "--json")

    quick = ("--rules", "max_rounds=2", "--seed", "4", "--move-time", "30")
    code, out, err = run(
        capsys, "match", "--bot", "mine", "--bot", "random", "--in-process", "--json",
        "--no-replay", "--db", str(other), *quick,
    )  # fmt: skip
    assert code == 0, err
    assert [p["bot"] for p in json.loads(out)["places"]] == ["mine", "random"]
    code, _, err = run(capsys, "match", "--bot", "mine", "--bot", "random", "--in-process", *quick)
    assert code == 2
    assert "no such database" in error_line(err)
    assert not default_db().exists()

    code, out, err = run(
        capsys,
        "check-bot",
        "mine",
        "--in-process",
        "--json",
        "--move-time",
        "30",
        "--db",
        str(other),
    )
    assert code == 0, err
    code, _, err = run(capsys, "bots", "setup", "mine", "--db", str(other))
    assert code == 0, err
    assert runs(tmp_path) == 2
    code, out, err = run(
        capsys, "versus", "mine", "random", "--games", "1", "--json", "--db", str(other), *quick
    )
    assert code == 0, err
    assert json.loads(out)["a"] == "mine"
    assert not default_db().exists()


def test_read_only_lookups_create_no_database(tmp_path: Path, capsys: Capsys) -> None:
    missing = tmp_path / "typo.db"
    code, _, err = run(
        capsys, "match", "--bot", "random", "--bot", "random", "--in-process", "--no-replay",
        "--rules", "max_rounds=2", "--db", str(missing),
    )  # fmt: skip
    assert code == 0, err
    code, _, _ = run(capsys, "bots", "list", "--db", str(missing))
    assert code == 0
    code, _, err = run(capsys, "check-bot", "nosuch", "--db", str(missing))
    assert code == 2
    assert f"{missing} (no such database)" in error_line(err)
    code, _, err = run(capsys, "bots", "setup", "nosuch", "--db", str(missing))
    assert code == 2
    assert not missing.exists()
    assert not default_db().exists()


def test_a_taken_name_is_not_silently_repointed(tmp_path: Path, capsys: Capsys) -> None:
    first = make_bot(tmp_path / "first", "mine")
    second = make_bot(tmp_path / "second", "mine")
    assert run(capsys, "bots", "add", str(first))[0] == 0
    code, _, err = run(capsys, "bots", "add", str(second))
    assert code == 2
    line = error_line(err)
    assert str(first.resolve()) in line and "--replace" in line
    with open_store(default_db()) as store:
        assert tournaments.registered_bots(store)["mine"] == first.resolve()
        # A tournament naming the other folder registers it too: refused the same way.
        with pytest.raises(ConfigError, match=str(first.resolve())):
            tournaments.register(store, read_spec(second))
        assert tournaments.registered_bots(store)["mine"] == first.resolve()
    with open_store(tmp_path / "other.db") as other:
        tournaments.register(other, read_spec(first))
        with pytest.raises(ConfigError, match=f"--replace {second.resolve()} --db "):
            tournaments.register(other, read_spec(second))
    code, out, err = run(capsys, "bots", "add", "--replace", str(second))
    assert code == 0, err
    assert "repointed" in out and str(first.resolve()) in out and str(second.resolve()) in out
    with open_store(default_db()) as store:
        assert tournaments.registered_bots(store)["mine"] == second.resolve()
    # Registering the same folder again is no repoint.
    code, out, err = run(capsys, "bots", "add", str(second))
    assert code == 0, err
    assert "repointed" not in out


def test_unknown_bot_lists_registered_bots_apart_from_bundled_ones(
    tmp_path: Path, capsys: Capsys
) -> None:
    with open_store(default_db()) as store:
        tournaments.register(store, find_bot("random"))  # what every tournament does
        tournaments.register(store, read_spec(make_bot(tmp_path / "mine", "mine")))
    code, _, err = run(capsys, "match", "--bot", "nosuch", "--bot", "random")
    assert code == 2
    line = error_line(err)
    bundled, _, registered = line.partition("; registered in ")
    assert "random" in bundled
    assert registered.startswith(f"{default_db()}: mine;")
    assert "random" not in registered


CRASHER = """\
import os
import sys

from arena.sdk import Bot


class Tiny(Bot):
    def choose(self, request):
        print("crashing on purpose", file=sys.stderr, flush=True)
        os._exit(3)


if __name__ == "__main__":
    Tiny().run()
"""


def test_check_bot_names_the_log_of_a_bot_that_crashes(tmp_path: Path, capsys: Capsys) -> None:
    folder = make_bot(tmp_path / "crasher", "crasher", body=CRASHER)
    code, out, err = run(
        capsys, "check-bot", str(folder), "--json", "--startup-time", "60", "--move-time", "10"
    )
    assert code == 1, err
    failed = [c for c in json.loads(out)["checks"] if not c["ok"]]
    assert failed
    _, _, log = failed[0]["detail"].partition("bot's stderr: ")
    assert "crashing on purpose" in Path(log).read_text()
    # The checks after the crash are not each left to time out.
    assert failed[-1]["detail"] == "not run: the bot is gone"


def test_arena_run_inside_a_bot_folder_keeps_the_bots_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Capsys
) -> None:
    """The default results home is ``./results``: run in the bot's own folder, the matches'
    replays, logs and key land there and must not make a new version of the bot."""
    folder = make_bot(tmp_path / "bot")
    before = version_id(read_spec(folder))
    monkeypatch.delenv("ARENA_HOME")
    monkeypatch.chdir(folder)
    for seed in ("1", "2"):
        args = ["match", "--bot", ".", "--bot", "random", "--seed", seed, "--rules", "max_rounds=3"]
        assert main([*args, "--json"]) == 0
        err = capsys.readouterr().err
        assert f"writing results into the bot folder {folder.resolve()}" in err
        assert (folder / "results" / "replays").is_dir()
        assert version_id(read_spec(folder)) == before


def test_caches_and_a_setups_build_output_are_not_part_of_a_version(tmp_path: Path) -> None:
    built = make_bot(tmp_path / "built", setup="make")
    shipped = make_bot(tmp_path / "shipped")
    versions = {f: version_id(read_spec(f)) for f in (built, shipped)}
    for folder in (built, shipped):
        for junk in (".cache/x", "node_modules/p/index.js", "src/__pycache__/m.pyc", ".idea/ws"):
            (folder / junk).parent.mkdir(parents=True, exist_ok=True)
            (folder / junk).write_text("anything")
        (folder / "build").mkdir()
        (folder / "build" / "cppbot").write_text("a binary")
    assert version_id(read_spec(built)) == versions[built]  # `make` remakes build/
    assert version_id(read_spec(shipped)) != versions[shipped]  # build/cppbot is what it runs
    (built / "bot.py").write_text(BOT_PY + "\n# changed\n")
    assert version_id(read_spec(built)) != versions[built]


def test_a_bots_own_results_folder_is_part_of_its_version(tmp_path: Path) -> None:
    """Only a ``results/`` holding the arena's files is the arena's."""
    folder = make_bot(tmp_path / "bot")
    before = version_id(read_spec(folder))
    (folder / "results").mkdir()
    (folder / "results" / "table.json").write_text("{}")
    assert version_id(read_spec(folder)) != before


def test_a_bot_set_up_already_starts_without_waiting_for_the_folder_lock(
    tmp_path: Path, capsys: Capsys
) -> None:
    """Another arena holding the folder's lock (it is checking or running a setup) does not
    make a bot already set up wait, nor print that it waits."""
    import fcntl

    folder = make_bot(tmp_path / "bot", setup=COUNT_RUNS)
    assert run_setup(read_spec(folder)) is True
    capsys.readouterr()
    held = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(held, fcntl.LOCK_EX)
    try:
        result: list[bool] = []
        starter = threading.Thread(target=lambda: result.append(run_setup(read_spec(folder))))
        starter.start()
        starter.join(60)
        assert result == [False], "it waited for the lock"
    finally:
        os.close(held)
        starter.join(60)
    assert "waiting" not in capsys.readouterr().err
    assert runs(tmp_path) == 1


def test_a_setup_runs_unattended_without_package_manager_notices(tmp_path: Path) -> None:
    """npm's update notices and advice would land among the demo's leaderboards."""
    show = (
        "import os; open('../env.txt', 'w').write(os.environ.get('npm_config_update_notifier', '-')"
    )
    show += " + ' ' + os.environ.get('npm_config_loglevel', '-'))"
    folder = make_bot(tmp_path / "bot", setup=["python", "-c", show])
    assert run_setup(read_spec(folder)) is True
    assert (tmp_path / "env.txt").read_text() == "false error"
