"""Receive an uploaded archive for the builder: refuse what is not an archive, what is over
the size limit and what is over the author's quota, then store the archive and record the
``received`` submission, in that order.

The archive is written to a temporary file in the submission's folder and renamed into
place, and only then is the row inserted: the builder, which works from the rows, never
sees a submission without its whole archive, and a crash in between leaves at most a folder
without a row (nothing reads it). Uploads are received one at a time in a process (a lock),
so two at once cannot both pass an author's quota; a hosted arena serves from one process.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path, PurePath
from typing import Any

from arena.errors import ConfigError
from arena.results.store import Store
from arena.submissions.archive import GZIP_MAGIC, ZIP_MAGICS
from arena.submissions.files import SubmissionFiles, new_submission_id
from arena.submissions.limits import DEFAULT_LIMITS, MB, ArchiveRefused, Limits

SUBMISSIONS_PER_HOUR = 10
"""Uploads an author may make in any hour: a build and a check take minutes of the arena's
machine, and an author fixing a rejection needs a few tries, not dozens."""

AUTHOR_BYTES = 200 * MB
"""Bytes an author's submissions may keep on the arena's disk in all (archives, unpacked
folders and what their setup installed): ten maximal archives, or many ordinary bots."""

BYTES_RETRY_SECONDS = 3600
"""What an author over their bytes is told to wait: space frees only when the operator
removes old submissions, so an hour, not a moment."""

NAME_CHARACTERS = 100
"""The longest archive name kept (the name is only shown back to its author)."""


@dataclass(frozen=True)
class Quota:
    """What one author may upload: submissions per window, and bytes kept in all."""

    submissions: int = SUBMISSIONS_PER_HOUR
    window_seconds: int = 3600
    author_bytes: int = AUTHOR_BYTES


DEFAULT_QUOTA = Quota()


class OverQuota(ConfigError):
    """An upload over the author's quota; ``retry_after``: seconds until one may be made."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


_RECEIVING = threading.Lock()


def archive_kind(data: bytes) -> str | None:
    """``tar.gz`` or ``zip`` by the archive's first bytes, or None."""
    if data.startswith(GZIP_MAGIC):
        return "tar.gz"
    if data[:4] in ZIP_MAGICS:
        return "zip"
    return None


def receive(
    store: Store,
    root: Path,
    author: str,
    data: bytes,
    filename: str,
    quota: Quota = DEFAULT_QUOTA,
    limits: Limits = DEFAULT_LIMITS,
) -> dict[str, Any]:
    """Store ``author``'s upload under ``root`` and record it ``received``; returns its row.
    Raises :class:`ArchiveRefused` (empty, too big, not an archive) or :class:`OverQuota`."""
    name = archive_name(filename)
    if not data:
        raise ArchiveRefused(f"{name}: an empty upload, not an archive")
    if len(data) > limits.archive_bytes:
        raise ArchiveRefused(
            f"{name}: {len(data):,} bytes, more than the {limits.archive_bytes:,} allowed"
        )
    kind = archive_kind(data)
    if kind is None:
        raise ArchiveRefused(f"{name}: neither a .tar.gz nor a .zip archive")
    with _RECEIVING:
        check_quota(store, author, len(data), quota)
        submission_id = new_submission_id()
        files = SubmissionFiles.of(root, submission_id)
        files.folder.mkdir(parents=True)
        try:
            _write_whole(files.archive(kind), data)
            return store.add_submission(submission_id, author, name, len(data))
        except BaseException:
            shutil.rmtree(files.folder, ignore_errors=True)
            raise


def check_quota(store: Store, author: str, size: int, quota: Quota = DEFAULT_QUOTA) -> None:
    """Refuse an upload of ``size`` bytes that would pass ``author``'s quota."""
    now = datetime.now(UTC)
    since = now - timedelta(seconds=quota.window_seconds)
    count, stored, oldest = store.author_usage(author, since.isoformat(timespec="microseconds"))
    if count >= quota.submissions:
        frees = datetime.fromisoformat(oldest) if oldest else now
        wait = (frees + timedelta(seconds=quota.window_seconds) - now).total_seconds()
        retry = max(1, math.ceil(wait))
        raise OverQuota(
            f"{count} submissions in the last {_span(quota.window_seconds)}, the most allowed:"
            f" try again in {retry} s",
            retry,
        )
    if stored + size > quota.author_bytes:
        raise OverQuota(
            f"your submissions keep {stored:,} bytes; {size:,} more would pass the"
            f" {quota.author_bytes:,} allowed (ask the arena's operator to remove old ones)",
            BYTES_RETRY_SECONDS,
        )


def archive_name(filename: str) -> str:
    """The upload's file name as kept and shown: its last component, printable, bounded."""
    last = PurePath(filename.replace("\\", "/")).name
    shown = "".join(c for c in last if c.isprintable())[:NAME_CHARACTERS]
    return shown or "archive"


def _span(seconds: int) -> str:
    return "hour" if seconds == 3600 else f"{seconds} s"


def _write_whole(path: Path, data: bytes) -> None:
    """Write ``path`` through a temporary file in its folder, renamed once complete."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
