"""The web application: pages and the JSON API over one results database, read-only; on a
hosted arena also the authors' sign-in, uploads and their own pages, which write.

Routes are grouped by what they show, a module each in :mod:`arena.web.routes`; this module builds the application, serves the static files, and turns every
error into a proper page or JSON answer (404 for an unknown id, 400 for a malformed
parameter), never a traceback.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from arena import __version__
from arena.errors import ArenaError
from arena.web.deps import HERE, TEMPLATES

if TYPE_CHECKING:
    from arena.submissions.intake import Quota


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def _error(
    request: Request, status: int, message: str, headers: Mapping[str, str] | None = None
) -> Response:
    """An error as JSON under ``/api/`` and as a page elsewhere (with the error's headers:
    ``Retry-After``, ``WWW-Authenticate``)."""
    if _wants_json(request):
        return JSONResponse(
            {"error": message, "status": status}, status_code=status, headers=headers
        )
    return TEMPLATES.TemplateResponse(
        request,
        "error.html",
        {"status": status, "message": message},
        status_code=status,
        headers=headers,
    )


def base_app(description: str) -> FastAPI:
    """An application with the static files, the API docs and the error pages, no routes of
    data yet (the caller adds them)."""
    from arena.web import api_docs

    app = FastAPI(
        title="Risk Arena",
        version=__version__,
        description=description,
        docs_url=None,  # the interactive docs page loads scripts from a CDN: not offline
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.replay_only = False
    app.state.submissions = None
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(api_docs.router)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        return _error(request, exc.status_code, str(exc.detail), exc.headers)

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(request: Request, exc: RequestValidationError) -> Response:
        problems = "; ".join(_describe(e) for e in exc.errors())
        return _error(request, 400, f"bad parameter: {problems}")

    @app.exception_handler(ArenaError)
    async def arena_error(request: Request, exc: ArenaError) -> Response:
        return _error(request, 404, str(exc))

    return app


def create_app(db: Path, submissions: Path | None = None, quota: Quota | None = None) -> FastAPI:
    """The application serving results database ``db`` (opened read-only per request).

    With ``submissions`` (the folder uploads are kept in) it is a hosted arena's: authors
    sign in, upload bots (within ``quota``, by default
    :data:`~arena.submissions.intake.DEFAULT_QUOTA`) and read their submissions and their bots' logs;
    only those routes write. Without it none of them exists."""
    from arena.web.routes import api, bots, matches, pages, tournaments

    app = base_app("Leaderboards, bots, tournaments, matches and replays of a results database.")
    app.state.db = Path(db)
    if submissions is not None:
        _host(app, Path(db), Path(submissions), quota)
    for routes in (api, pages, matches, bots, tournaments):
        app.include_router(routes.router)
    return app


def _host(app: FastAPI, db: Path, submissions: Path, quota: Quota | None) -> None:
    """Add the hosted arena's routes and state; the database's schema is brought up to date
    now (the sessions table), so read-only requests find it."""
    from arena.results.store import open_store
    from arena.submissions.intake import DEFAULT_QUOTA
    from arena.submissions.limits import DEFAULT_LIMITS
    from arena.web.attempts import FailedAttempts
    from arena.web.body_limit import MULTIPART_ALLOWANCE, BodyLimit
    from arena.web.routes import authoring, sign_in
    from arena.web.routes import submissions as submitting

    open_store(db).close()
    submissions.mkdir(parents=True, exist_ok=True)
    app.state.submissions = submissions
    app.state.quota = quota or DEFAULT_QUOTA
    app.state.limits = DEFAULT_LIMITS
    app.state.sign_in_attempts = FailedAttempts()
    app.add_middleware(BodyLimit, max_bytes=DEFAULT_LIMITS.archive_bytes + MULTIPART_ALLOWANCE)
    for routes in (submitting, sign_in, authoring):
        app.include_router(routes.router)


def _describe(error: dict[str, Any]) -> str:
    where = ".".join(str(part) for part in error.get("loc", ()) if part not in ("query", "path"))
    return f"{where}: {error.get('msg', 'invalid')}" if where else str(error.get("msg"))
