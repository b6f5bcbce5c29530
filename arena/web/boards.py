"""Leaderboards for the web: every pool's board, filtered by game and pool.

A pool's board reads its per-version totals (one row per version, however many matches the
pool has); the boards are still kept between requests and read again only when
:meth:`Store.change_marks` moves (a match recorded, ratings rebuilt), so a page never shows
stale figures and an unchanged front page costs two single-row reads.
"""

from __future__ import annotations

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
        rows = store.leaderboard_rows(entry["pool"])
        board = reports.board_of(entry["pool"], rows, None, records, DEFAULT_LIMIT)
        found.append({**board, "game": entry["game"]})
    return found
