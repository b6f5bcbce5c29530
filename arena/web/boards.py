"""Leaderboards for the web: every pool's board, filtered by game and pool."""

from __future__ import annotations

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


def boards(store: Store, game: str | None = None, pool: str | None = None) -> list[dict[str, Any]]:
    """The leaderboard of every pool (of ``game``, or only ``pool``), as ``arena leaderboard
    --json`` gives one."""
    found = []
    for entry in pools(store):
        if (game and entry["game"] != game) or (pool and entry["pool"] != pool):
            continue
        found.append({**reports.leaderboard(store, entry["pool"]), "game": entry["game"]})
    return found
