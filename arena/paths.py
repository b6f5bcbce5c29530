"""Where things live: the results home (``./results`` or ``$ARENA_HOME``) and bundled bots."""

from __future__ import annotations

import os
import shutil
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


def bot_folder_around(path: Path) -> Path | None:
    """The bot folder (one holding a ``bot.toml``) that ``path`` lies in, if any: results
    written there sit among the bot's own files."""
    for folder in (path.resolve(), *path.resolve().parents):
        if (folder / "bot.toml").is_file():
            return folder
    return None


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
