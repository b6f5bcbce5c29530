"""An uploaded archive taken from a request and handed to :func:`arena.submissions.intake
.receive`, with its refusals as HTTP answers: 413 too big, 422 not an archive, 429 over the
author's quota (with ``Retry-After``). Shared by the API and the pages' upload form."""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from starlette.exceptions import HTTPException

from arena.results.store import Store
from arena.submissions.intake import OverQuota, Quota, receive
from arena.submissions.limits import ArchiveRefused

CHUNK = 1 << 16


def read_bounded(stream: IO[bytes], limit: int) -> bytes:
    """The upload's bytes, read a chunk at a time and never more than ``limit + 1`` of
    them: one past the limit answers 413."""
    chunks: list[bytes] = []
    held = 0
    while held <= limit:
        chunk = stream.read(min(CHUNK, limit + 1 - held))
        if not chunk:
            break
        chunks.append(chunk)
        held += len(chunk)
    if held > limit:
        raise HTTPException(
            413, detail=f"an archive of more than {limit:,} bytes, the most allowed"
        )
    return b"".join(chunks)


def store_upload(
    db: Store,
    root: Path,
    author: str,
    stream: IO[bytes],
    filename: str,
    quota: Quota,
    limit: int,
) -> dict[str, Any]:
    """Receive the upload as ``author``'s submission; returns its row."""
    data = read_bounded(stream, limit)
    try:
        return receive(db, root, author, data, filename, quota)
    except OverQuota as exc:
        raise HTTPException(
            429, detail=str(exc), headers={"Retry-After": str(exc.retry_after)}
        ) from None
    except ArchiveRefused as exc:
        raise HTTPException(422, detail=str(exc)) from None
