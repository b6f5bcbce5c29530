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


class Interrupted(BaseException):
    """Ctrl-C at a terminal prompt (e.g. the human seat's). A BaseException, so no seat
    wrapper takes it for a bot crash: it ends the match, and :func:`arena.referee.local.play`
    turns it into KeyboardInterrupt."""
