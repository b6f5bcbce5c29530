"""A tournament's log file: one per tournament in the ``logs/`` folder of its database's
results home (:func:`arena.paths.logs_follow`), written by the scheduler and its workers
(local processes through multiprocessing-logging, Ray actors on their own node)."""

from __future__ import annotations

import logging
from pathlib import Path

from arena.paths import logs_dir


def log_path(tournament_id: str) -> Path:
    return logs_dir() / f"tournament-{tournament_id}.log"


def log_to_file(tournament_id: str, process_name: str = "%(processName)s") -> logging.Logger:
    """The ``arena`` logger writing to the tournament's log file in the logs folder in use
    (its other handlers gone); each line names its process as ``process_name`` says."""
    path = log_path(tournament_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    root = logging.getLogger("arena")
    root.setLevel(logging.INFO)
    for handler in list(root.handlers):
        root.removeHandler(handler)
    to_file = logging.FileHandler(path)
    to_file.setFormatter(logging.Formatter(f"%(asctime)s {process_name} %(name)s: %(message)s"))
    root.addHandler(to_file)
    root.propagate = False
    return root
