"""The submissions API of a hosted arena: upload a bot folder's archive with an author's
token, and read back one's own submissions. Another author's submission is answered 404,
as an unknown one is, so ids reveal nothing."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, File, Request, UploadFile
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from arena.results.store import Store
from arena.submissions.files import SUBMISSION_ID
from arena.web.auth import bearer_author, caller, unauthorized
from arena.web.deps import not_found, store, writable_store
from arena.web.uploads import store_upload

router = APIRouter()
StoreDep = Annotated[Store, Depends(store)]
WritableDep = Annotated[Store, Depends(writable_store)]

PUBLIC_FIELDS = (
    "id",
    "author",
    "status",
    "reason",
    "bot",
    "version_id",
    "games",
    "created_at",
    "updated_at",
    "finished_at",
    "archive_bytes",
)
"""What a submission's author is shown of it (not where its files are)."""


def public(row: dict[str, Any]) -> dict[str, Any]:
    return {key: row.get(key) for key in PUBLIC_FIELDS}


def owned_submission(db: Store, author: str, submission_id: str) -> dict[str, Any]:
    """``author``'s submission, or 404 (unknown, or someone else's: told apart by no one)."""
    row = db.submission(submission_id) if SUBMISSION_ID.fullmatch(submission_id) else None
    if row is None or row["author"] != author:
        raise not_found(f"no submission {submission_id!r}")
    return row


def _asking(request: Request, db: Store) -> str:
    author = caller(request, db)
    if author is None:
        raise unauthorized("sign in: send 'Authorization: Bearer TOKEN' with your author token")
    return author


@router.post("/api/submissions", status_code=201)
def api_submit(
    request: Request,
    db: WritableDep,
    archive: Annotated[UploadFile | None, File(description="the bot folder's archive")] = None,
) -> JSONResponse:
    """Upload a bot folder as a ``.tar.gz`` or ``.zip`` (multipart field ``archive``) with
    ``Authorization: Bearer TOKEN``: 201 with the submission's ``id``, ``status`` and ``url``
    (its page); 401 no or a wrong token, 413 too big, 422 not an archive, 429 over the
    author's quota (``Retry-After`` says when to try again)."""
    author = bearer_author(request, db)
    if author is None:
        raise unauthorized(
            "no valid author token: send 'Authorization: Bearer TOKEN' (revoked tokens and "
            "disabled authors are refused)"
        )
    if archive is None:
        raise _missing_archive()
    state = request.app.state
    row = store_upload(
        db,
        state.submissions,
        author,
        archive.file,
        archive.filename or "",
        state.quota,
        state.limits.archive_bytes,
    )
    answer = {
        "id": row["id"],
        "status": row["status"],
        "url": str(request.url_for("submission_page", submission_id=row["id"])),
    }
    return JSONResponse(answer, status_code=201)


def _missing_archive() -> HTTPException:
    return HTTPException(400, detail="no archive: send the file in the multipart field 'archive'")


@router.get("/api/submissions")
def api_submissions(request: Request, db: StoreDep) -> list[dict[str, Any]]:
    """The caller's own submissions, newest first (by token or signed-in session)."""
    author = _asking(request, db)
    return [public(row) for row in db.submissions(author)]


@router.get("/api/submissions/{submission_id}")
def api_submission(request: Request, submission_id: str, db: StoreDep) -> dict[str, Any]:
    """One of the caller's submissions: its status, the reason if rejected, and once accepted
    the bot, version and games."""
    return public(owned_submission(db, _asking(request, db), submission_id))
