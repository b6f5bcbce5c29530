"""The JSON API under ``/api/``: what the pages show, for scripts (documented in docs/web.md;
the schema is at ``/api/openapi.json``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query

from arena.results import reports
from arena.results.store import Store
from arena.web import boards
from arena.web.db import last_change
from arena.web.deps import not_found, store

router = APIRouter(prefix="/api")
StoreDep = Annotated[Store, Depends(store)]


@router.get("/pools")
def get_pools(db: StoreDep) -> list[dict[str, str]]:
    """Every rating pool (``GAME/FORMAT``) with its game and format."""
    return boards.pools(db)


@router.get("/leaderboards")
def get_leaderboards(
    db: StoreDep,
    game: Annotated[str | None, Query(max_length=40)] = None,
    pool: Annotated[str | None, Query(max_length=80)] = None,
) -> list[dict[str, Any]]:
    """The leaderboard of every pool, optionally of one game or one pool."""
    return boards.boards(db, game, pool)


@router.get("/leaderboards/{pool:path}")
def get_leaderboard(
    pool: str, db: StoreDep, tournament: Annotated[str | None, Query(max_length=40)] = None
) -> dict[str, Any]:
    """One pool's leaderboard (with ``tournament``: as it stood at that tournament's end)."""
    if pool not in db.pools():
        raise not_found(f"no rating pool {pool!r}")
    if tournament is not None and db.tournament(tournament) is None:
        raise not_found(f"no tournament {tournament!r}")
    if tournament is None:  # the current board: the kept one
        board = dict(boards.boards(db, pool=pool)[0])
        board.pop("game")
        return board
    return reports.leaderboard(db, pool, tournament)


@router.get("/last-change")
def get_last_change(db: StoreDep) -> dict[str, Any]:
    """A token that changes whenever a page would: matches recorded, the newest, and every
    tournament's status and progress (pages poll it to refresh themselves)."""
    return last_change(db)
