"""The end of a log file to show on a page: a build, a check or a bot's stderr can run to
megabytes, and what tells why is at the end."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

TAIL_BYTES = 200_000
"""What a page shows of a log at most: its last 200 KB."""


@dataclass(frozen=True)
class Tail:
    text: str
    size: int
    cut: bool
    """Whether the start of the file was left out."""


def tail(path: Path, cap: int = TAIL_BYTES) -> Tail | None:
    """The last ``cap`` bytes of ``path`` as text (bad UTF-8 replaced), or None if it cannot
    be read."""
    try:
        with path.open("rb") as raw:
            size = os.fstat(raw.fileno()).st_size
            raw.seek(max(0, size - cap))
            data = raw.read(cap)
    except OSError:
        return None
    return Tail(data.decode("utf-8", errors="replace"), size, size > cap)
