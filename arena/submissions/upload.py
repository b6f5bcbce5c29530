"""The author's side of a hosted arena's API: send a packed bot folder with an author token,
and ask how a submission is doing. Plain ``urllib`` with a multipart body written here, so
submitting needs nothing beyond the arena itself; every failure is one
:class:`UploadFailed` line (the HTTP status and the arena's own message)."""

from __future__ import annotations

import json
import secrets
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from arena.errors import ArenaError

TIMEOUT_SECONDS = 120.0
"""How long one request may take: a 20 MB upload over a slow line."""


class UploadFailed(ArenaError):
    """A request the arena refused (``status``: its HTTP status; ``retry_after``: seconds,
    when it said) or could not be made (``status`` None)."""

    def __init__(self, message: str, status: int | None = None, retry_after: str | None = None):
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def api_root(url: str) -> str:
    """The arena's web root without a trailing ``/``; refuses what is not an http(s) URL."""
    root = url.strip().rstrip("/")
    if not root.startswith(("http://", "https://")) or len(root) <= len("https://"):
        raise UploadFailed(f"--to {url!r}: give the arena's web address, http://HOST[:PORT]")
    return root


def multipart(field: str, filename: str, data: bytes) -> tuple[bytes, str]:
    """A ``multipart/form-data`` body holding one file, and its content type."""
    boundary = "arena-" + secrets.token_hex(16)
    safe_name = filename.replace('"', "_").replace("\r", "_").replace("\n", "_")
    head = (
        f"--{boundary}\r\n"
        f'Content-Disposition: form-data; name="{field}"; filename="{safe_name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode()
    body = head + data + f"\r\n--{boundary}--\r\n".encode()
    return body, f"multipart/form-data; boundary={boundary}"


def submit_archive(url: str, token: str, archive: Path) -> dict[str, Any]:
    """Upload ``archive`` to the arena at ``url``; its answer (``id``, ``status``, ``url``)."""
    body, content_type = multipart("archive", archive.name, archive.read_bytes())
    request = urllib.request.Request(
        f"{api_root(url)}/api/submissions",
        data=body,
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": content_type},
    )
    return _answer(request)


def submission_status(url: str, token: str, submission_id: str) -> dict[str, Any]:
    """One of the author's submissions as the arena has it now."""
    request = urllib.request.Request(
        f"{api_root(url)}/api/submissions/{submission_id}",
        headers={"Authorization": f"Bearer {token}"},
    )
    return _answer(request)


def _answer(request: urllib.request.Request) -> dict[str, Any]:
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            found: dict[str, Any] = json.load(response)
            return found
    except urllib.error.HTTPError as exc:
        raise UploadFailed(_refusal(exc), exc.code, exc.headers.get("Retry-After")) from None
    except urllib.error.URLError as exc:
        raise UploadFailed(f"cannot reach {request.full_url}: {_reason(exc.reason)}") from None
    except (OSError, ValueError) as exc:  # a reset connection, a timeout, a reply not JSON
        raise UploadFailed(f"{request.full_url}: {_reason(exc)}") from None


def _refusal(exc: urllib.error.HTTPError) -> str:
    """The arena's one-line message for a refusal (its JSON ``error``), else the reason."""
    try:
        message = json.loads(exc.read()).get("error")
    except (ValueError, AttributeError, OSError):
        message = None
    return " ".join(str(message or exc.reason).split())


def _reason(reason: object) -> str:
    if isinstance(reason, OSError) and reason.strerror:
        return reason.strerror
    return " ".join(str(reason).split()) or type(reason).__name__
