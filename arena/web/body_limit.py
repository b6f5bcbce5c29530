"""A bound on request bodies for the hosted arena, which takes uploads: a body announced or
sent past the bound is answered 413 as soon as that is known, so an upload of gigabytes is
never read, parsed or spooled to disk whole (the upload route then checks the archive's own
size exactly)."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MULTIPART_ALLOWANCE = 64 * 1024
"""What a form adds around an archive (boundaries, part headers, the CSRF field)."""


class BodyLimit:
    """ASGI middleware refusing bodies of more than ``max_bytes``."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        announced = dict(scope["headers"]).get(b"content-length", b"0")
        seen = 0

        async def bounded() -> Message:
            nonlocal seen
            if not announced.isdigit() or int(announced) > self.max_bytes:
                raise self._too_large()
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise self._too_large()
            return message

        await self.app(scope, bounded, send)

    def _too_large(self) -> HTTPException:
        return HTTPException(413, detail=f"a request body of more than {self.max_bytes:,} bytes")
