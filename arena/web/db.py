"""Read-only access to the results database for the web server.

Every request opens its own read-only connection (SQLite connections do not cross threads,
and the server's handlers run on a thread pool): the server never writes, and goes on
reading while a tournament writes the same file (WAL readers see the last commit).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from arena.results.store import Store, open_store


@contextmanager
def reading(path: Path) -> Iterator[Store]:
    """A read-only store on ``path`` for one request."""
    store = open_store(path, read_only=True)
    try:
        yield store
    finally:
        store.close()


def last_change(store: Store) -> dict[str, Any]:
    """A cheap token that changes whenever anything a page shows does (matches recorded, the
    newest match, each tournament's status and progress): pages poll it to know when to
    refresh, and show the running tournaments' progress from it."""
    matches, newest = store.match_count()
    return {"matches": matches, "newest": newest, "tournaments": store.progress()}
