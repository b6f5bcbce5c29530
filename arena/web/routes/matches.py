"""Match pages and their JSON API: the paged match list, one match's header and seats, and
the replay viewer's frames (re-played from the stored replay, see :mod:`arena.web.frames`)."""

from __future__ import annotations

import importlib.resources
import json
from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse

from arena import games
from arena.errors import ArenaError
from arena.replays.compact import expand
from arena.results.store import Store
from arena.web import frames, match_plots
from arena.web.auth import viewer
from arena.web.deps import TEMPLATES, not_found, store
from arena.web.routes.authoring import owned_seats

router = APIRouter()
StoreDep = Annotated[Store, Depends(store)]
PAGE_SIZE = 50
Page = Annotated[int, Query(ge=1, le=1_000_000)]
Game = Annotated[str | None, Query(max_length=40)]
Start = Annotated[int, Query(ge=0, le=10_000_000)]
Count = Annotated[int, Query(ge=1, le=1000)]


def match_list(db: Store, page: int, game: str | None) -> dict[str, Any]:
    """One page of matches, newest first (a page past the last is empty, as a tournament's
    match list is)."""
    rows = [m for m in db.matches() if not game or m["game"] == game]
    rows.reverse()
    pages = max(1, -(-len(rows) // PAGE_SIZE))
    shown = rows[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    for row in shown:
        row["seats"] = [_seat(s) for s in db.seats_of(row["id"])]
    return {"page": page, "pages": pages, "total": len(rows), "game": game, "matches": shown}


def _seat(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k != "match_id"}


def stored_replay(db: Store, match_id: str) -> bytes:
    """A recorded match's replay JSONL (a compact stored replay re-derived in full)."""
    return _expanded(db.replay(match_id))


@lru_cache(maxsize=32)
def _expanded(stored: bytes) -> bytes:
    """Recently re-derived replays are reused: a match page and its frames read the same one."""
    return expand(stored)


def match_detail(db: Store, match_id: str) -> dict[str, Any]:
    """A match's header (with its tournament's name), its seats and how many frames it has
    (with ``replay_error`` saying why there are none if its stored replay is damaged)."""
    match = db.match(match_id)
    if match is None:
        raise not_found(f"no match {match_id!r}")
    tournament = db.tournament(match["tournament_id"]) if match["tournament_id"] else None
    try:
        count, problem = frames.frame_count(stored_replay(db, match_id)), None
    except ArenaError as exc:  # the header and seats are still worth showing
        count, problem = 0, str(exc)
    return {
        **match,
        "tournament_name": tournament["name"] if tournament else None,
        "seats": [_seat(s) for s in db.seats_of(match_id)],
        "frames": count,
        "replay_error": problem,
    }


def _frames(data: bytes) -> list[frames.Frame]:
    try:
        return frames.replay_frames(data)
    except ArenaError as exc:  # a damaged replay: say so, never a traceback
        raise HTTPException(status_code=500, detail=str(exc)) from None


def frames_answer(data: bytes, start: int, count: int) -> dict[str, Any]:
    """Frames ``start`` to ``start + count`` of a replay's JSONL, with the total."""
    found = _frames(data)
    if start >= len(found):
        raise HTTPException(
            status_code=400, detail=f"start {start}: the match has {len(found)} frames"
        )
    return {"start": start, "total": len(found), "frames": found[start : start + count]}


def render_match(
    request: Request, match: dict[str, Any], data: bytes | None, log_seats: list[int] | None = None
) -> HTMLResponse:
    """A match page: header, seats, the replay viewer and the per-player plots (none when
    its replay cannot be read: ``match["replay_error"]`` says why); ``log_seats``: the seats
    whose stderr logs the viewer may read (their own bots', on a hosted arena)."""
    shown = [] if data is None or match["replay_error"] else _frames(data)
    context = {
        "match": match,
        "layout": layout(match["game"]),
        "plots": match_plots.plots(match["game"], [s["bot"] for s in match["seats"]], shown),
        "log_seats": log_seats or [],
    }
    return TEMPLATES.TemplateResponse(request, "match.html", context)


@lru_cache(maxsize=8)
def layout(game: str) -> dict[str, Any] | None:
    """The board layout kept beside the game's board data (``data/GAME_layout.json``)."""
    package = type(games.load(game)).__module__.rpartition(".")[0]
    try:
        text = (importlib.resources.files(package) / "data" / f"{game}_layout.json").read_text()
    except (FileNotFoundError, ModuleNotFoundError):
        return None
    found: dict[str, Any] = json.loads(text)
    return found


# -- pages -------------------------------------------------------------------------------


@router.get("/matches", response_class=HTMLResponse)
def matches_page(request: Request, db: StoreDep, page: Page = 1, game: Game = None) -> HTMLResponse:
    """Every recorded match, newest first, a page at a time."""
    context = {**match_list(db, page, game or None), "games": games.names()}
    return TEMPLATES.TemplateResponse(request, "matches.html", context)


@router.get("/matches/{match_id}", response_class=HTMLResponse)
def match_page(request: Request, match_id: str, db: StoreDep) -> HTMLResponse:
    """One match: its header, seats, and the replay viewer on the board."""
    match = match_detail(db, match_id)
    return render_match(
        request,
        match,
        None if match["replay_error"] else stored_replay(db, match_id),
        owned_seats(db, viewer(request, db), match_id),
    )


# -- API ---------------------------------------------------------------------------------


@router.get("/api/matches")
def api_matches(db: StoreDep, page: Page = 1, game: Game = None) -> dict[str, Any]:
    """A page of matches, newest first, each with its seats."""
    return match_list(db, page, game or None)


@router.get("/api/matches/{match_id}")
def api_match(match_id: str, db: StoreDep) -> dict[str, Any]:
    """A match's header and seats (status, strikes, think times) and its frame count."""
    return match_detail(db, match_id)


@router.get("/api/matches/{match_id}/frames", response_class=JSONResponse)
def api_frames(
    match_id: str,
    db: StoreDep,
    start: Start = 0,
    count: Count = 200,
) -> Response:
    """Frames ``start`` to ``start + count`` of the replay viewer: each step's public board,
    narrated lines and attacks, and what the viewer draws of it (territories, arrows, the side
    panel; who each side is, in the first frame)."""
    if db.match(match_id) is None:
        raise not_found(f"no match {match_id!r}")
    try:
        data = stored_replay(db, match_id)
    except ArenaError as exc:  # a damaged replay: say so, never a traceback
        raise HTTPException(status_code=500, detail=str(exc)) from None
    # Frames are plain JSON already: encoded as they are, not walked by FastAPI's encoder
    # (a page of 200 classic frames: about 3 ms instead of about 40).
    answer = json.dumps(
        frames_answer(data, start, count), ensure_ascii=False, separators=(",", ":")
    )
    return Response(answer, media_type="application/json")
