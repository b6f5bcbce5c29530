"""What every route shares: the read-only store of the request's database (a writable one
for the hosted arena's routes that write), the page templates
(with their filters), the 404 answer, and the game a record naming none was played in."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException

from arena import games
from arena.results.store import Store, open_store
from arena.web.db import reading

HERE = Path(__file__).resolve().parent
TEMPLATES = Jinja2Templates(directory=str(HERE / "templates"))


def to_the_second(stamp: Any) -> Any:
    """A stored ISO timestamp as ``YYYY-MM-DD HH:MM:SS`` (the pages say times are UTC);
    anything else unchanged."""
    try:
        return datetime.fromisoformat(str(stamp)).strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return stamp


TEMPLATES.env.filters["when"] = to_the_second


def store(request: Request) -> Iterator[Store]:
    """A read-only store for this request (closed when the answer is sent)."""
    with reading(request.app.state.db) as opened:
        yield opened


def writable_store(request: Request) -> Iterator[Store]:
    """A store that may write, for the hosted arena's few routes that do (sign-in, sign-out,
    uploads); every other route reads through :func:`store`."""
    with open_store(request.app.state.db, create=False) as opened:
        yield opened


def not_found(what: str) -> HTTPException:
    return HTTPException(status_code=404, detail=what)


def default_game() -> str:
    """The game of a tournament whose settings name none (recorded before there was a
    choice): the registry's first."""
    return games.names()[0]
