"""Finding and loading bots: a bot is a folder with a ``bot.toml``.

``bot.toml`` keys: ``name``, ``version`` (a label), ``language``, ``description``,
``command`` (how to start it: a string split like a shell line but run without a shell, or a
list; the working directory is the bot folder), optional ``setup`` (run before first use and
again whenever the bot's files change, e.g. ``npm ci``) and, for a Python bot that can also
run in-process, ``entry = "module:Class"``, and ``games``, the games it plays (a list of game
names; ``["classic"]`` when absent): a bot entered in any other game is refused before the
match starts (:func:`check_plays`). A bot is named by its folder name under
``bots/``, by the name it was registered under (``arena bots add``, per results database)
or by a path to its folder. Nothing is ever written into a bot's folder except by its own
``setup``.

``setup`` and ``command`` run in the arena's Python environment: a leading ``python`` or
``python3`` is the arena's interpreter (``sys.executable``), a leading ``pip`` or ``pip3``
is ``sys.executable -m pip``, and that interpreter's ``bin`` folder comes first on ``PATH``
(as an activated virtual environment would have it), so what ``setup`` installs is what
the bot imports.
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import hashlib
import importlib.util
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from arena.errors import BotError
from arena.games import names as registered_games
from arena.paths import bundled_bots_dir, results_home
from arena.sdk.bot import Bot

DEFAULT_GAMES = ("classic",)
"""What a ``bot.toml`` without ``games`` plays: every bot written before there were other
games is a classic bot."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot folder and what its ``bot.toml`` says."""

    name: str
    path: Path
    version: str
    language: str
    description: str
    entry: str | None
    command: str | list[str] | None = None
    setup: str | list[str] | None = None
    games: tuple[str, ...] = DEFAULT_GAMES
    """The games the bot plays (``bot.toml`` ``games``)."""


def bundled_bots() -> list[BotSpec]:
    """Every bot folder under the bundled ``bots/`` directory, by name."""
    root = bundled_bots_dir()
    if not root.is_dir():
        return []
    return [read_spec(p) for p in sorted(root.iterdir()) if (p / "bot.toml").is_file()]


def read_spec(folder: Path) -> BotSpec:
    """Read and check a bot folder's ``bot.toml``."""
    manifest = folder / "bot.toml"
    try:
        data = tomllib.loads(manifest.read_text())
    except FileNotFoundError:
        raise BotError(f"{folder} is not a bot folder: it has no bot.toml") from None
    except tomllib.TOMLDecodeError as exc:
        raise BotError(f"{manifest}: invalid TOML: {exc}") from None
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise BotError(f"{manifest}: 'name' must be a non-empty string")
    entry = data.get("entry")
    if entry is not None and (not isinstance(entry, str) or ":" not in entry):
        raise BotError(f"{manifest}: 'entry' must look like 'module:Class', got {entry!r}")
    for key in ("command", "setup"):
        value = data.get(key)
        if value is not None and not (
            (isinstance(value, str) and value.strip())
            or (isinstance(value, list) and value and all(isinstance(a, str) for a in value))
        ):
            raise BotError(f"{manifest}: {key!r} must be a command string or a list of strings")
    games = data.get("games", list(DEFAULT_GAMES))
    if not (isinstance(games, list) and games and all(isinstance(g, str) and g for g in games)):
        raise BotError(
            f"{manifest}: 'games' must be a list of game names like [\"classic\"], got {games!r}"
        )
    if data.get("command") is None and entry is None:
        raise BotError(f"{manifest}: give a 'command' to start the bot (or an in-process 'entry')")
    return BotSpec(
        name=name,
        path=folder.resolve(),
        version=str(data.get("version", "0")),
        language=str(data.get("language", "")),
        description=str(data.get("description", "")),
        entry=entry,
        command=data.get("command"),
        setup=data.get("setup"),
        games=tuple(dict.fromkeys(games)),
    )


def check_plays(spec: BotSpec, game: str, known: Iterable[str] | None = None) -> None:
    """Refuse a bot entered in a game its ``bot.toml`` does not list, before anything starts:
    a classic bot would only strike out of a match of another game. The one-line error names
    the games it lists, marking those not registered here (``known``, default the registry)."""
    if game in spec.games:
        return
    registered = set(registered_games() if known is None else known)
    listed = ", ".join(g if g in registered else f"{g} (unknown here)" for g in spec.games)
    raise BotError(f"bot {spec.name!r} plays {listed}, not {game}")


def is_bundled(spec: BotSpec) -> bool:
    """Whether ``spec`` is one of the bundled bots (its folder is under ``bots/``)."""
    return spec.path.parent == bundled_bots_dir().resolve()


def find_bot(
    name_or_path: str, registered: dict[str, Path] | None = None, registry: str | None = None
) -> BotSpec:
    """Resolve ``--bot`` text: a bundled bot's name, a registered bot's name (``registered``
    maps names to folders, from ``arena bots add``), or a path to a bot folder.

    ``registry`` says where the registrations come from (a database path), for the error.
    """
    candidate = Path(name_or_path)
    if ("/" in name_or_path or name_or_path.startswith(".")) and candidate.is_dir():
        return read_spec(candidate)
    bundled = bundled_bots()
    for spec in bundled:
        if spec.name == name_or_path or spec.path.name == name_or_path:
            return spec
    folder = (registered or {}).get(name_or_path)
    if folder is not None:
        if not (folder / "bot.toml").is_file():
            raise BotError(f"registered bot {name_or_path!r}: its folder {folder} is gone")
        return read_spec(folder)
    names = ", ".join(s.name for s in bundled) or "(none found)"
    # A tournament records the bundled bots it plays too: they are not "registered" ones.
    taken = {s.name for s in bundled} | {s.path.name for s in bundled}
    paths = {s.path for s in bundled}
    others = ", ".join(
        sorted(
            name
            for name, path in (registered or {}).items()
            if name not in taken and path.resolve() not in paths
        )
    )
    where = f" in {registry}" if registry else ""
    extra = (
        f"; registered{where}: {others}"
        if others
        else (f"; none registered{where}" if registry else "")
    )
    raise BotError(
        f"unknown bot {name_or_path!r}; bundled bots: {names}{extra}; or give a bot folder path"
    )


def load_bot(spec: BotSpec) -> Bot:
    """Instantiate a Python bot in-process from its ``entry``."""
    if spec.entry is None:
        raise BotError(f"bot {spec.name!r} has no in-process 'entry' in its bot.toml")
    module_name, _, class_name = spec.entry.partition(":")
    file = spec.path / f"{module_name.replace('.', '/')}.py"
    unique = f"arena_bot_{spec.path.name}_{module_name}".replace("-", "_").replace(".", "_")
    module = sys.modules.get(unique)
    if module is None:
        loader = importlib.util.spec_from_file_location(unique, file)
        if loader is None or loader.loader is None or not file.is_file():
            raise BotError(f"bot {spec.name!r}: cannot load {file}")
        module = importlib.util.module_from_spec(loader)
        sys.modules[unique] = module
        # Nothing may be written into a bot's folder but by its own setup: no bytecode cache.
        writes_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
        try:
            loader.loader.exec_module(module)
        except Exception as exc:
            del sys.modules[unique]
            raise BotError(f"bot {spec.name!r}: importing {file} failed: {exc!r}") from exc
        finally:
            sys.dont_write_bytecode = writes_bytecode
    cls = getattr(module, class_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise BotError(f"bot {spec.name!r}: {spec.entry} is not a subclass of arena.sdk.Bot")
    bot = cls()
    # The folder's bot.toml names the bot, whatever its class says.
    bot.name, bot.version = spec.name, spec.version
    return bot


PYTHON_WORDS = frozenset({"python", "python3"})
"""A leading word meaning the arena's own interpreter, in ``command`` and ``setup``."""
PIP_WORDS = frozenset({"pip", "pip3"})
"""A leading word meaning the arena interpreter's pip (``sys.executable -m pip``)."""


def resolve_argv(command: str | list[str]) -> list[str]:
    """A ``bot.toml`` command or setup as argv, in the arena's Python environment.

    A string is split like a shell line (no shell runs it). A leading ``python``/``python3``
    becomes ``sys.executable`` and a leading ``pip``/``pip3`` ``sys.executable -m pip``, so
    ``setup = "pip install -r requirements.txt"`` installs where ``command = "python bot.py"``
    imports from, whatever ``pip`` comes first on the user's ``PATH``.
    """
    argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    if not argv:
        raise BotError("bot command is empty")
    if argv[0] in PYTHON_WORDS:
        return [sys.executable, *argv[1:]]
    if argv[0] in PIP_WORDS:
        return [sys.executable, "-m", "pip", *argv[1:]]
    return argv


def command_argv(spec: BotSpec) -> list[str]:
    """How to start the bot process (see :func:`resolve_argv`)."""
    if spec.command is None:
        raise BotError(f"bot {spec.name!r} has no command to start it")
    return resolve_argv(spec.command)


def bot_environment(base: dict[str, str] | None = None) -> dict[str, str]:
    """Variables a bot's ``setup`` and ``command`` get on top of the arena's environment.

    The arena interpreter's ``bin`` folder comes first on ``PATH`` (and ``VIRTUAL_ENV`` names
    its environment when it is one), so ``python``/``pip`` inside scripts and build tools the
    bot runs are the arena's too.
    """
    env = os.environ if base is None else base
    bindir = os.path.dirname(sys.executable)
    rest = [p for p in env.get("PATH", os.defpath).split(os.pathsep) if p and p != bindir]
    extra = {"PATH": os.pathsep.join([bindir, *rest])}
    if sys.prefix != sys.base_prefix:
        extra["VIRTUAL_ENV"] = sys.prefix
    return extra


def setup_marker(spec: BotSpec, version: str | None = None) -> Path:
    """Where the referee notes that a bot's ``setup`` ran for this folder, setup command and
    version of the bot's files (outside the bot's folder): a change to any of them runs it
    again."""
    key = json.dumps([str(spec.path), spec.setup, version or version_id(spec)])
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return results_home() / "setup" / f"{spec.path.name}-{digest}.done"


SETUP_TIMEOUT = 600.0
"""Seconds a ``setup`` may take."""


def run_setup(spec: BotSpec, force: bool = False) -> bool:
    """Run the bot's ``setup`` (with ``force``, or when this version of its files has not had
    it yet); True if it ran. Its output goes to stderr, never stdout (kept for ``--json``).

    One setup of a folder runs at a time: two arena commands or workers starting the same
    bot at once would otherwise both run ``npm ci``, and the second deletes ``node_modules``
    under the first. The later one waits for the lock, then finds the setup done."""
    if spec.setup is None:
        return False
    if not force and setup_marker(spec).exists():  # set up already: no lock, no waiting
        return False
    with folder_lock(spec):
        return _run_setup_locked(spec, force)


@contextlib.contextmanager
def folder_lock(spec: BotSpec) -> Iterator[None]:
    """An exclusive lock on the bot's folder (``flock`` on the folder itself, so nothing is
    written into it). A wait is bounded by the holder's own :data:`SETUP_TIMEOUT`, and the
    lock goes with the holder's descriptor, even when it is killed."""
    try:
        fd = os.open(spec.path, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise BotError(f"bot folder {spec.path} cannot be opened: {exc.strerror}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(
                f"arena: waiting for another setup of bot {spec.name!r} to finish",
                file=sys.stderr,
                flush=True,
            )
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:  # a filesystem without locks (some network mounts): run unlocked
            pass
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _run_setup_locked(spec: BotSpec, force: bool) -> bool:
    assert spec.setup is not None
    before = version_id(spec)
    marker = setup_marker(spec, before)
    if marker.exists() and not force:
        return False
    argv = resolve_argv(spec.setup)
    shown = shlex.join(argv)
    print(f"arena: setup of bot {spec.name!r} in {spec.path}: {shown}", file=sys.stderr, flush=True)
    tail: collections.deque[str] = collections.deque(maxlen=5)
    home = Path(tempfile.mkdtemp(prefix="arena-setup-"))
    command, env = setup_command(spec, argv, home)
    try:
        process = subprocess.Popen(
            command,
            cwd=spec.path,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    except OSError as exc:
        shutil.rmtree(home, ignore_errors=True)
        raise BotError(f"setup of bot {spec.name!r} ({shown}) failed: {exc.strerror}") from None
    copier = threading.Thread(target=_copy_output, args=(process, tail), daemon=True)
    copier.start()
    try:
        code = process.wait(SETUP_TIMEOUT)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        raise BotError(
            f"setup of bot {spec.name!r} ({shown}) took longer than {SETUP_TIMEOUT:g} s"
        ) from None
    except BaseException:  # Ctrl-C: do not leave the setup running
        _kill_group(process)
        raise
    finally:
        copier.join(5)
        shutil.rmtree(home, ignore_errors=True)
    if code != 0:
        raise BotError(
            f"setup of bot {spec.name!r} ({shown}) exited {code}: "
            + (" | ".join(line.strip() for line in tail if line.strip()) or "no output")
        )
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(shown + "\n")
    after = version_id(spec)
    if after != before:  # the setup wrote into the folder: that result is set up too
        setup_marker(spec, after).write_text(shown + "\n")
    return True


UNATTENDED = {
    "npm_config_update_notifier": "false",
    "npm_config_loglevel": "error",
    "PIP_DISABLE_PIP_VERSION_CHECK": "1",
}
"""A setup runs unattended: package managers print errors, not update notices or advice
(a setup that wants more output says so in its own flags, e.g. ``npm ci --loglevel=warn``)."""


def setup_command(spec: BotSpec, argv: list[str], home: Path) -> tuple[list[str], dict[str, str]]:
    """How a bot's ``setup`` runs: its argv and whole environment.

    The environment is a bot's (:func:`~arena.referee.launcher.bot_env`: no key, no results
    home, a private ``HOME``). With the namespace layer on, the setup runs in a bubblewrap
    sandbox like the bot itself, with the network (it downloads packages) and its own
    folder writable (it installs them there), and nothing else of the host writable or
    visible: a stranger's setup cannot reach the results, the key, other bots or the
    arena's own environment.
    """
    from arena.referee.isolation import detect
    from arena.referee.launcher import bot_env
    from arena.referee.sandbox import bwrap_argv

    env = bot_env(dict(os.environ), bot_environment(), home)
    for key, value in UNATTENDED.items():
        env.setdefault(key, value)
    bwrap = detect().bwrap
    if bwrap is None:
        return argv, env
    wrapped = bwrap_argv(
        bwrap,
        argv,
        cwd=spec.path,
        home=home,
        socket_dir=None,
        uid=None,
        path_env=env["PATH"],
        writable_cwd=True,
    )
    return wrapped, env


def _copy_output(process: subprocess.Popen[bytes], tail: collections.deque[str]) -> None:
    """Copy the setup's output to stderr as it comes, keeping its last lines for an error."""
    assert process.stdout is not None
    for raw in process.stdout:
        line = raw.decode(errors="replace")
        tail.append(line)
        sys.stderr.write(line)
        sys.stderr.flush()


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """End a setup and everything it started (it runs in its own session)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


IGNORED_PARTS = {
    "node_modules",
    "__pycache__",
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
    ".cache",
    ".tox",
    ".nox",
    ".eggs",
    ".gradle",
    ".idea",
    ".vscode",
    ".DS_Store",
}
"""Names never part of a bot's identity: installed packages, caches, version control and
editor state."""

BUILD_FOLDERS = {"build", "dist", "target", "out", "obj", "CMakeFiles"}
"""Folders a ``setup`` builds into: not part of a version when the bot has a ``setup``
(they are its output, made anew on every machine). A bot without one ships what it runs,
so there they count."""

ARENA_OUTPUTS = ("arena.db", "secret", "replays", "logs", "setup")
"""What the arena writes into a results home: a bot subfolder holding any of these is the
arena's (``arena`` run inside a bot's folder makes ``./results`` there), never the bot's."""


def _ignored_folders(folder: Path) -> set[Path]:
    """The bot's subfolders that hold the arena's outputs: ``results/`` when it holds the
    arena's files, and the results home in use wherever it lies inside the folder."""
    ignored = set()
    results = folder / "results"
    if results.is_dir() and any((results / name).exists() for name in ARENA_OUTPUTS):
        ignored.add(results)
    home = results_home().resolve()
    if home.is_relative_to(folder.resolve()) and home != folder.resolve():
        ignored.add(folder / home.relative_to(folder.resolve()))
    return ignored


def _counts(relative: Path, spec: BotSpec) -> bool:
    """Whether a file (its path inside the bot's folder) is part of the bot's version."""
    parts = relative.parts
    if IGNORED_PARTS.intersection(parts):
        return False
    return spec.setup is None or not BUILD_FOLDERS.intersection(parts[:-1])


def _tracked_files(folder: Path, spec: BotSpec) -> list[Path]:
    """The folder's files minus caches, build output, the arena's outputs and, inside a git
    work tree, git-ignored files."""
    outputs = _ignored_folders(folder)
    files = [
        p
        for p in folder.rglob("*")
        if p.is_file()
        and _counts(p.relative_to(folder), spec)
        and not any(p.is_relative_to(o) for o in outputs)
    ]
    try:
        listed = subprocess.run(
            ["git", "check-ignore", "--stdin", "-z"],
            cwd=folder,
            capture_output=True,
            input=b"\0".join(str(p).encode() for p in files),
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return sorted(files)
    if listed.returncode not in (0, 1):  # 128: not a git work tree; keep everything
        return sorted(files)
    ignored = {Path(x.decode()) for x in listed.stdout.split(b"\0") if x}
    return sorted(p for p in files if p not in ignored)


def version_id(spec: BotSpec) -> str:
    """A bot version's identity: a SHA-256 over its files' paths and contents (16 hex digits).

    The ``bot.toml`` version is only a label; editing any file makes a new version, which
    gets ratings of its own.
    """
    digest = hashlib.sha256()
    for path in _tracked_files(spec.path, spec):
        digest.update(str(path.relative_to(spec.path)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
