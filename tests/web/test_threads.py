"""A request's read-only store crosses threads: FastAPI opens it (the ``store`` dependency),
runs the handler and closes it on whichever worker threads are free, one after the other."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena.web.db import reading


def on_a_thread(work: Callable[[], Any]) -> Any:
    """What ``work`` returns, run on a new thread (its exception raised here)."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = work()
        except BaseException as exc:
            outcome["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def test_a_store_opened_on_one_thread_is_read_and_closed_on_others(results_db: Path) -> None:
    opened = reading(results_db)
    store = on_a_thread(opened.__enter__)
    matches, newest = on_a_thread(store.match_count)
    assert matches == len(store.matches()) > 0 and newest > 0
    on_a_thread(lambda: opened.__exit__(None, None, None))
