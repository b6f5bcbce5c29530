"""What a route handler is given: the read-only store of the request's database."""

from __future__ import annotations

from collections.abc import Iterator

from fastapi import Request

from arena.results.store import Store
from arena.web.db import reading


def store(request: Request) -> Iterator[Store]:
    """A read-only store for this request (closed when the answer is sent)."""
    with reading(request.app.state.db) as opened:
        yield opened
