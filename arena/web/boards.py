"""Leaderboards for the web: every pool's board, filtered by game and pool.

A board reads every seat of its pool, so the boards are kept between requests and computed
again only when :meth:`Store.change_marks` moves (a match recorded, ratings rebuilt): the
front page stays quick on a large database, and a page never shows stale figures.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable
from threading import Lock
from typing import Any, TypeVar, cast

from arena.results import reports
from arena.results.faults import DEFAULT_LIMIT, fault_records
from arena.results.ratings import pool_game
from arena.results.store import Store

T = TypeVar("T")


def pools(store: Store) -> list[dict[str, str]]:
    """Every rating pool with its game and format (``classic/3p/world``: ``classic``,
    ``3p/world``), kept like the boards."""
    return _kept(store, ("pools",), lambda: _pools(store))


def _pools(store: Store) -> list[dict[str, str]]:
    return [
        {"pool": pool, "game": pool_game(pool), "format": pool.partition("/")[2]}
        for pool in store.pools()
    ]


_CACHE: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_CACHE_SIZE = 32
_LOCK = Lock()


def boards(store: Store, game: str | None = None, pool: str | None = None) -> list[dict[str, Any]]:
    """The leaderboard of every pool (of ``game``, or only ``pool``), as ``arena leaderboard
    --json`` gives one (kept until the database's change marks move)."""
    return _kept(store, ("boards", game, pool), lambda: _compute(store, game, pool))


def _kept(store: Store, what: tuple[Any, ...], compute: Callable[[], T]) -> T:
    """``compute()``'s value for ``what``, kept while the database's change marks stay."""
    key = (str(store.path), store.change_marks(), *what)
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return cast(T, _CACHE[key])
    found = compute()
    with _LOCK:
        _CACHE[key] = found
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return found


def _compute(store: Store, game: str | None, pool: str | None) -> list[dict[str, Any]]:
    found = []
    records = fault_records(store, DEFAULT_LIMIT)  # one aggregate query for every board
    for entry in pools(store):
        if (game and entry["game"] != game) or (pool and entry["pool"] != pool):
            continue
        rows = _seen(store, entry["pool"]).rows(store)
        board = reports.board_of(entry["pool"], rows, None, records, DEFAULT_LIMIT)
        found.append({**board, "game": entry["game"]})
    return found


class _Seen:
    """A pool's seats read so far, grouped by version: matches are only ever added, so a
    board after new matches reads only their seats (a large pool's board then costs little
    more than its ratings)."""

    def __init__(self, pool: str) -> None:
        self.pool = pool
        self.after = 0
        self.grouped: dict[str, list[Any]] = {}
        self.lock = Lock()

    def rows(self, store: Store) -> list[dict[str, Any]]:
        with self.lock:
            seats, newest = store.pool_seats(self.pool, self.after)
            for seat in seats:
                self.grouped.setdefault(seat[0], []).append(seat)
            self.after = newest
            return store.leaderboard_of(self.pool, self.grouped)


_SEEN: dict[tuple[str, int, str], _Seen] = {}


def _seen(store: Store, pool: str) -> _Seen:
    """The seats kept for ``pool`` of this database file (another file put in its place, a
    new inode, starts afresh)."""
    key = (str(store.path), os.stat(store.path).st_ino, pool)
    with _LOCK:
        seen = _SEEN.get(key)
        if seen is None:
            seen = _SEEN[key] = _Seen(pool)
    return seen
