"""Who is asking, on a hosted arena: an author by their token (``Authorization: Bearer``, for
the API) or by a sign-in session (a cookie, for the pages), and the check that a page's form
was sent from the arena's own pages (a session's CSRF token).

The cookie holds a random secret; the database keeps only its SHA-256, so a copy of the
database signs no one in. The cookie is HttpOnly (no script reads it), SameSite=Lax (no
other site's form or script sends it with a POST), path ``/``, and Secure whenever the
request came over https, directly or through a proxy that says so (``X-Forwarded-Proto``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import Request, Response
from starlette.exceptions import HTTPException

from arena.catalog.authors import signed_in
from arena.results.store import Store

SESSION_COOKIE = "arena_session"
SESSION_DAYS = 14
"""How long a sign-in lasts: a fortnight, then the token is asked for again."""


def hashed(secret: str) -> str:
    """What the database keeps of a session's secret."""
    return hashlib.sha256(secret.encode()).hexdigest()


def is_https(request: Request) -> bool:
    """Whether the browser reached the arena over https (itself, or its proxy)."""
    forwarded = request.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
    return request.url.scheme == "https" or forwarded == "https"


def start_session(db: Store, author: str) -> str:
    """A new session of ``author``'s; returns the secret for the cookie (shown only now)."""
    secret = secrets.token_urlsafe(32)
    expires = datetime.now(UTC) + timedelta(days=SESSION_DAYS)
    db.add_session(
        hashed(secret), author, secrets.token_urlsafe(32), expires.isoformat(timespec="seconds")
    )
    return secret


def set_session_cookie(response: Response, request: Request, secret: str) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        secret,
        max_age=SESSION_DAYS * 24 * 3600,
        path="/",
        httponly=True,
        samesite="lax",
        secure=is_https(request),
    )


def clear_session_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=is_https(request)
    )


def session(request: Request, db: Store) -> dict[str, Any] | None:
    """The request's sign-in session if it is still good (``author``, ``csrf``), else None."""
    secret = request.cookies.get(SESSION_COOKIE)
    if not secret or len(secret) > 100:
        return None
    return db.author_session(hashed(secret))


def bearer_author(request: Request, db: Store) -> str | None:
    """The author whose token the request carries (``Authorization: Bearer TOKEN``), or None
    (no token, a wrong or revoked one, or a disabled author)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return signed_in(db, token.strip())


def caller(request: Request, db: Store) -> str | None:
    """The author asking, by token or by session, or None."""
    author = bearer_author(request, db)
    if author is not None:
        return author
    found = session(request, db)
    return None if found is None else str(found["author"])


def viewer(request: Request, db: Store) -> str | None:
    """The author signed in to the pages, or None (always None when the arena takes no
    submissions: a read-only arena has no sessions)."""
    if request.app.state.submissions is None:
        return None
    found = session(request, db)
    return None if found is None else str(found["author"])


def unauthorized(message: str) -> HTTPException:
    return HTTPException(401, detail=message, headers={"WWW-Authenticate": "Bearer"})


def check_csrf(expected: str, given: str | None) -> None:
    """Refuse (403) a form whose CSRF token is missing or not the session's."""
    if not given or not hmac.compare_digest(expected.encode(), given.encode()):
        raise HTTPException(
            403, detail="this form did not come from this arena's page: reload it and try again"
        )
