"""Leaderboards for the web: every pool's board, filtered by game and pool.

A board reads every seat of its pool, so the boards are kept between requests and computed
again only when :meth:`Store.change_marks` moves (a match recorded, ratings rebuilt): the
front page stays quick on a large database, and a page never shows stale figures.
"""

from __future__ import annotations

from collections import OrderedDict
from threading import Lock
from typing import Any

from arena import reports
from arena.ratings import pool_game
from arena.store import Store


def pools(store: Store) -> list[dict[str, str]]:
    """Every rating pool with its game and format (``classic/3p/world``: ``classic``,
    ``3p/world``)."""
    return [
        {"pool": pool, "game": pool_game(pool), "format": pool.partition("/")[2]}
        for pool in store.pools()
    ]


_CACHE: OrderedDict[tuple[Any, ...], list[dict[str, Any]]] = OrderedDict()
_CACHE_SIZE = 32
_LOCK = Lock()


def boards(store: Store, game: str | None = None, pool: str | None = None) -> list[dict[str, Any]]:
    """The leaderboard of every pool (of ``game``, or only ``pool``), as ``arena leaderboard
    --json`` gives one (kept until the database's change marks move)."""
    key = (str(store.path), store.change_marks(), game, pool)
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    found = _compute(store, game, pool)
    with _LOCK:
        _CACHE[key] = found
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return found


def _compute(store: Store, game: str | None, pool: str | None) -> list[dict[str, Any]]:
    found = []
    for entry in pools(store):
        if (game and entry["game"] != game) or (pool and entry["pool"] != pool):
            continue
        found.append({**reports.leaderboard(store, entry["pool"]), "game": entry["game"]})
    return found
