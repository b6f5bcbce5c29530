"""Whether output goes to a person's terminal: live redraws and colour only then."""

from __future__ import annotations

from typing import TextIO


def is_terminal(stream: TextIO) -> bool:
    """True for a terminal; False for a pipe, a file, a closed stream or a stand-in without
    ``isatty`` (a test's StringIO has one and says False)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False
