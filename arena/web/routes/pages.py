"""The HTML pages, rendered on the server from the same data as the JSON API."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse

from arena.results import reports
from arena.results.ratings import pool_game
from arena.results.store import Store
from arena.web import boards
from arena.web.deps import TEMPLATES, not_found, store

router = APIRouter()
StoreDep = Annotated[Store, Depends(store)]
Filter = Annotated[str | None, Query(max_length=80)]


@router.get("/", response_class=HTMLResponse)
def front(request: Request, db: StoreDep, game: Filter = None, pool: Filter = None) -> HTMLResponse:
    """Every pool's leaderboard, live while a tournament runs."""
    context = _boards_context(db, game, pool)
    return TEMPLATES.TemplateResponse(request, "leaderboards.html", context)


@router.get("/fragments/leaderboards", response_class=HTMLResponse)
def boards_fragment(
    request: Request, db: StoreDep, game: Filter = None, pool: Filter = None
) -> HTMLResponse:
    """The leaderboards alone, for the front page to swap in when something changed."""
    return TEMPLATES.TemplateResponse(request, "_boards.html", _boards_context(db, game, pool))


def _boards_context(db: Store, game: str | None, pool: str | None) -> dict[str, object]:
    all_pools = boards.pools(db)
    return {
        "boards": boards.boards(db, game or None, pool or None),
        "pools": all_pools,
        "games": sorted({p["game"] for p in all_pools}),
        "game": game or "",
        "pool": pool or "",
        "progress": db.progress(running=True),
    }


@router.get("/pools/{pool:path}", response_class=HTMLResponse)
def pool_page(request: Request, pool: str, db: StoreDep, tournament: Filter = None) -> HTMLResponse:
    """One pool's leaderboard; with ``tournament``, as it stood at that tournament's end."""
    if pool not in db.pools():
        raise not_found(f"no rating pool {pool!r}")
    if tournament and db.tournament(tournament) is None:
        raise not_found(f"no tournament {tournament!r}")
    board = {**reports.leaderboard(db, pool, tournament or None), "game": pool_game(pool)}
    context = {"board": board, "pool": pool, "tournament": tournament or ""}
    return TEMPLATES.TemplateResponse(request, "pool.html", context)
