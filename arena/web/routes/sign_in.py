"""Signing in to a hosted arena's pages with an author token, and signing out.

The sign-in form has no session to carry a CSRF token yet, so it uses a double-submit
cookie: the page sets a random value in a cookie only this path gets (``SameSite=Strict``)
and in a hidden field, and a sign-in whose two differ is refused (403). Another site thus
cannot sign a visitor in as someone else. Failed sign-ins are counted per client address
(:mod:`arena.web.attempts`); past the limit the answer is 429 with ``Retry-After``.
"""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException

from arena.catalog.authors import signed_in
from arena.results.store import Store
from arena.web.auth import (
    check_csrf,
    clear_session_cookie,
    is_https,
    session,
    set_session_cookie,
    start_session,
)
from arena.web.deps import TEMPLATES, store, writable_store

router = APIRouter()
StoreDep = Annotated[Store, Depends(store)]
WritableDep = Annotated[Store, Depends(writable_store)]
SIGN_IN_COOKIE = "arena_sign_in"
"""The double-submit cookie of the sign-in form."""
FormText = Annotated[str, Form(max_length=200)]


@router.get("/sign-in", response_class=HTMLResponse)
def sign_in_page(request: Request, db: StoreDep) -> Response:
    """The sign-in form (a signed-in author goes on to their page)."""
    if session(request, db) is not None:
        return RedirectResponse("/me", status_code=303)
    return _form(request, None, 200)


@router.post("/sign-in", response_class=HTMLResponse)
def sign_in(
    request: Request, db: WritableDep, token: FormText = "", csrf: FormText = ""
) -> Response:
    """Check the token: a session and its cookie, then the author's page."""
    check_csrf(request.cookies.get(SIGN_IN_COOKIE, ""), csrf)
    address = request.client.host if request.client else "unknown"
    attempts = request.app.state.sign_in_attempts
    wait = attempts.retry_after(address)
    if wait is not None:
        raise HTTPException(
            429,
            detail=f"too many failed sign-ins from {address}: try again in {wait} s",
            headers={"Retry-After": str(wait)},
        )
    author = signed_in(db, token.strip())
    if author is None:
        attempts.failed(address)
        return _form(request, "That token signs no one in (wrong, revoked, or disabled).", 401)
    secret = start_session(db, author)
    answer = RedirectResponse("/me", status_code=303)
    set_session_cookie(answer, request, secret)
    answer.delete_cookie(SIGN_IN_COOKIE, path="/sign-in")
    return answer


@router.post("/sign-out")
def sign_out(request: Request, db: WritableDep, csrf: FormText = "") -> Response:
    """End this browser's session."""
    found = session(request, db)
    if found is not None:
        check_csrf(found["csrf"], csrf)
        db.end_session(found["id_hash"])
    answer = RedirectResponse("/", status_code=303)
    clear_session_cookie(answer, request)
    return answer


def _form(request: Request, error: str | None, status: int) -> Response:
    value = secrets.token_urlsafe(24)
    answer = TEMPLATES.TemplateResponse(
        request, "sign_in.html", {"csrf": value, "error": error}, status_code=status
    )
    answer.set_cookie(
        SIGN_IN_COOKIE,
        value,
        max_age=3600,
        path="/sign-in",
        httponly=True,
        samesite="strict",
        secure=is_https(request),
    )
    return answer
