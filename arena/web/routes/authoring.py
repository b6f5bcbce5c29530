"""A signed-in author's pages on a hosted arena: their bots and submissions with the upload
form (``/me``), one submission's status with its build and check logs, and their bots' own
stderr logs of matches. Everything here is its author's alone: anyone else, signed in or
not, is answered 404, as for something that does not exist (the replays stay public)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException

from arena.results.store import Store
from arena.results.store.submissions import UNFINISHED
from arena.submissions.files import SubmissionFiles
from arena.web.auth import check_csrf, session, viewer
from arena.web.deps import TEMPLATES, not_found, store, writable_store
from arena.web.log_tail import TAIL_BYTES, tail
from arena.web.routes.submissions import owned_submission
from arena.web.uploads import store_upload

router = APIRouter()
StoreDep = Annotated[Store, Depends(store)]
WritableDep = Annotated[Store, Depends(writable_store)]
REFRESH_SECONDS = 5
"""How often an unfinished submission's page reloads itself."""


@router.get("/me", response_class=HTMLResponse)
def me(request: Request, db: StoreDep) -> Response:
    """The signed-in author's bots and submissions, and the upload form."""
    found = session(request, db)
    if found is None:
        return RedirectResponse("/sign-in", status_code=303)
    author = str(found["author"])
    owned = {row["name"]: row["bots"] for row in db.authors()}.get(author, [])
    known = {bot["name"] for bot in db.bots()}
    state = request.app.state
    context = {
        "author": author,
        "csrf": found["csrf"],
        "bots": [{"name": bot, "played": bot in known} for bot in owned],
        "submissions": db.submissions(author),
        "archive_bytes": state.limits.archive_bytes,
        "quota": state.quota,
    }
    return TEMPLATES.TemplateResponse(request, "me.html", context)


@router.post("/submissions")
def upload_form(
    request: Request,
    db: WritableDep,
    csrf: Annotated[str, Form(max_length=200)] = "",
    archive: Annotated[UploadFile | None, File()] = None,
) -> Response:
    """The upload form's target: the submission's page once the archive is received."""
    found = session(request, db)
    if found is None:
        raise HTTPException(403, detail="sign in first: your session has ended")
    check_csrf(found["csrf"], csrf)
    if archive is None:
        raise HTTPException(400, detail="no archive: choose a .tar.gz or .zip file")
    state = request.app.state
    row = store_upload(
        db,
        state.submissions,
        str(found["author"]),
        archive.file,
        archive.filename or "",
        state.quota,
        state.limits.archive_bytes,
    )
    return RedirectResponse(f"/submissions/{row['id']}", status_code=303)


@router.get("/submissions/{submission_id}", response_class=HTMLResponse)
def submission_page(request: Request, submission_id: str, db: StoreDep) -> Response:
    """One submission: its status (reloading while unfinished), the reason, its logs."""
    author = viewer(request, db)
    if author is None:
        raise not_found(f"no submission {submission_id!r}")
    row = owned_submission(db, author, submission_id)
    files = SubmissionFiles.of(request.app.state.submissions, row["id"])
    context: dict[str, Any] = {
        "submission": row,
        "unfinished": row["status"] in UNFINISHED,
        "refresh": REFRESH_SECONDS,
        "logs": [
            ("Build log", tail(files.build_log)),
            ("Check log", tail(files.check_log)),
        ],
        "tail_bytes": TAIL_BYTES,
    }
    return TEMPLATES.TemplateResponse(request, "submission.html", context)


@router.get("/matches/{match_id}/seats/{seat}/log", response_class=PlainTextResponse)
def seat_log(request: Request, match_id: str, seat: int, db: StoreDep) -> Response:
    """The stderr log of one seat's bot process in a match, for the author of that bot."""
    path = owned_seat_log(db, viewer(request, db), match_id, seat)
    found = tail(path) if path is not None else None
    if found is None:
        raise not_found(f"no log of seat {seat} of match {match_id!r}")
    text = found.text
    if found.cut:
        text = f"[the first {found.size - TAIL_BYTES:,} bytes are left out]\n{text}"
    return PlainTextResponse(text, headers={"X-Content-Type-Options": "nosniff"})


def owned_seat_log(db: Store, author: str | None, match_id: str, seat: int) -> Path | None:
    """The log of a seat whose bot ``author`` owns, or None (no author, another's bot, an
    operator's bot, or no log)."""
    if author is None:
        return None
    seats = {row["seat"]: row for row in db.seats_of(match_id)}
    if seat not in seats or db.bot_author(seats[seat]["bot"]) != author:
        return None
    path = db.seat_log(match_id, seat)
    return None if path is None else Path(path)


def owned_seats(db: Store, author: str | None, match_id: str) -> list[int]:
    """The seats of a match whose bot ``author`` owns and that have a log (the match page
    links them)."""
    if author is None:
        return []
    return [
        row["seat"]
        for row in db.seats_of(match_id)
        if db.bot_author(row["bot"]) == author and db.seat_log(match_id, row["seat"])
    ]
