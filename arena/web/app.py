"""The web application: pages and the JSON API over one results database, read-only.

Routes are grouped by what they show, a module each in :mod:`arena.web.routes`; this module builds the application, serves the static files, and turns every
error into a proper page or JSON answer (404 for an unknown id, 400 for a malformed
parameter), never a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from arena import __version__
from arena.errors import ArenaError
from arena.web.deps import HERE, TEMPLATES


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def _error(request: Request, status: int, message: str) -> Response:
    """An error as JSON under ``/api/`` and as a page elsewhere."""
    if _wants_json(request):
        return JSONResponse({"error": message, "status": status}, status_code=status)
    return TEMPLATES.TemplateResponse(
        request, "error.html", {"status": status, "message": message}, status_code=status
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
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(api_docs.router)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        return _error(request, exc.status_code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(request: Request, exc: RequestValidationError) -> Response:
        problems = "; ".join(_describe(e) for e in exc.errors())
        return _error(request, 400, f"bad parameter: {problems}")

    @app.exception_handler(ArenaError)
    async def arena_error(request: Request, exc: ArenaError) -> Response:
        return _error(request, 404, str(exc))

    return app


def create_app(db: Path) -> FastAPI:
    """The application serving results database ``db`` (opened read-only per request)."""
    from arena.web.routes import api, bots, matches, pages, tournaments

    app = base_app("Leaderboards, bots, tournaments, matches and replays of a results database.")
    app.state.db = Path(db)
    for routes in (api, pages, matches, bots, tournaments):
        app.include_router(routes.router)
    return app


def _describe(error: dict[str, Any]) -> str:
    where = ".".join(str(part) for part in error.get("loc", ()) if part not in ("query", "path"))
    return f"{where}: {error.get('msg', 'invalid')}" if where else str(error.get("msg"))
