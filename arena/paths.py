"""Where things live: the results home (``./results`` or ``$ARENA_HOME``) and bundled bots."""

from __future__ import annotations

import os
from pathlib import Path


def results_home() -> Path:
    """The results folder: ``$ARENA_HOME`` if set, else ``./results``."""
    return Path(os.environ.get("ARENA_HOME") or "results")


def replays_dir() -> Path:
    """Folder for replay files (created on demand by writers)."""
    return results_home() / "replays"


def bundled_bots_dir() -> Path:
    """The bundled ``bots/`` folder (``$ARENA_BOTS`` overrides it)."""
    override = os.environ.get("ARENA_BOTS")
    if override:
        return Path(override)
    return Path(__file__).resolve().parent.parent / "bots"
