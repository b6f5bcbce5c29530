"""Where things live: the results home (``./results`` or ``$ARENA_HOME``) and bundled bots."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def results_home() -> Path:
    """The results folder: ``$ARENA_HOME`` if set, else ``./results``."""
    return Path(os.environ.get("ARENA_HOME") or "results")


def replays_dir() -> Path:
    """Folder for replay files (created on demand by writers)."""
    return results_home() / "replays"


def database_home(database: Path) -> Path:
    """The results home of a results database: ``$ARENA_HOME`` if set, else the database's
    folder (so ``--db /data/other.db`` keeps its tournaments' logs in ``/data/logs``)."""
    home = os.environ.get("ARENA_HOME")
    return Path(home) if home else database.parent


_logs_home: Path | None = None
"""The results home whose ``logs/`` this process writes to, when one is set."""


def logs_home() -> Path:
    """The results home this process logs to: that of the database in use
    (:func:`logs_follow`), else :func:`results_home`."""
    return _logs_home or results_home()


def logs_dir() -> Path:
    """Where bots' stderr and tournaments' logs go: ``logs/`` in :func:`logs_home`."""
    return logs_home() / "logs"


def use_logs_home(home: Path | None) -> None:
    """Logs of this process (and of processes it forks from now on) go to ``home/logs``;
    None: back to the results home's."""
    global _logs_home
    _logs_home = home


@contextmanager
def logs_follow(database: Path) -> Iterator[Path]:
    """Within the block, logs go to the results home of ``database`` (:func:`database_home`);
    yields that ``logs/`` folder."""
    saved = _logs_home
    use_logs_home(database_home(database).resolve())
    try:
        yield logs_dir()
    finally:
        use_logs_home(saved)


def bot_folder_around(path: Path) -> Path | None:
    """The bot folder (one holding a ``bot.toml``) that ``path`` lies in, if any: results
    written there sit among the bot's own files."""
    for folder in (path.resolve(), *path.resolve().parents):
        if (folder / "bot.toml").is_file():
            return folder
    return None


def arena_command() -> str:
    """``arena`` as this shell can run it again, for commands the arena prints for the user to
    copy: ``arena`` when that is on the PATH and is this program, else the path this program
    was started by (``.venv/bin/arena`` after ``make demo``, before the venv is activated)."""
    program = Path(sys.argv[0])
    if program.name != "arena":  # not started as the command (e.g. a test calling main())
        return "arena"
    on_path = shutil.which("arena")
    if on_path is not None and Path(on_path).resolve() == program.resolve():
        return "arena"
    try:
        shown = program.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        shown = program.resolve()
    return shlex.quote(str(shown))


def bundled_bots_dir() -> Path:
    """The bundled ``bots/`` folder (``$ARENA_BOTS`` overrides it)."""
    override = os.environ.get("ARENA_BOTS")
    if override:
        return Path(override)
    return Path(__file__).resolve().parent.parent / "bots"


@contextmanager
def temporary_results_home(prefix: str = "arena-home-") -> Iterator[Path]:
    """A fresh results folder as ``$ARENA_HOME`` for a block, removed after it (for trial
    runs whose logs and setup marks must not land in the user's results)."""
    saved = os.environ.get("ARENA_HOME")
    home = Path(tempfile.mkdtemp(prefix=prefix))
    os.environ["ARENA_HOME"] = str(home)
    try:
        yield home
    finally:
        shutil.rmtree(home, ignore_errors=True)
        if saved is None:
            del os.environ["ARENA_HOME"]
        else:
            os.environ["ARENA_HOME"] = saved
