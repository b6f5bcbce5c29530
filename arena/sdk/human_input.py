"""Reading a person's answers at the terminal, for every game's human seat.

Lines are read so that Ctrl-C while waiting breaks the read off at once (raising
:class:`~arena.terminal.Interrupted`), whichever thread the kernel hands the signal to, and
the console writes plain text without colour or wrapping when it is not a terminal.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import select
import signal
import threading
from collections.abc import Iterator
from typing import Any, TextIO

from rich.console import Console

from arena.terminal import Interrupted, is_terminal


def seat_console(stdout: TextIO) -> Console:
    """The console a human seat prints on; piped: no colour, no wrapping (one line per
    event, for scripts reading it)."""
    tty = is_terminal(stdout)
    return Console(
        file=stdout,
        highlight=False,
        emoji=False,
        markup=False,
        soft_wrap=not tty,
        no_color=not tty,
    )


class PolledLines:
    """Lines of a file descriptor, read so that Python's signal handlers run while waiting.

    A blocking read is broken off by Ctrl-C only when the kernel hands the signal to the main
    thread; it may hand it to one of gRPC's threads instead, and the read would wait on
    unaware. Waiting in short ``select`` slices lets the main thread run a pending handler
    between them. A stream without a file descriptor (a test's StringIO) is read as it is.
    """

    SLICE_SECONDS = 0.2

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        try:
            self.fd: int | None = stream.fileno()
        except (AttributeError, OSError, io.UnsupportedOperation):
            self.fd = None
        self.pending = b""

    def readline(self) -> str:
        if self.fd is None:
            return self.stream.readline()
        while b"\n" not in self.pending:
            ready, _, _ = select.select([self.fd], [], [], self.SLICE_SECONDS)
            if not ready:
                continue
            chunk = os.read(self.fd, 4096)
            if not chunk:  # end of input: what is left, then ""
                break
            self.pending += chunk
        line, newline, self.pending = self.pending.partition(b"\n")
        return (line + newline).decode(errors="replace")


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """While inside, SIGINT raises :class:`Interrupted` (after the previous handler ran)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):  # SIGINT ignored or default: leave it as it is
        yield
        return
    task = current_task()

    def on_sigint(signum: int, frame: Any) -> None:
        try:
            previous(signum, frame)
        finally:
            raise Interrupted

    signal.signal(signal.SIGINT, on_sigint)
    try:
        # Checked once the handler is in place: a press before it (while the view was being
        # printed) cancelled the match task through the previous handler.
        if task is not None and task.cancelling():
            raise Interrupted
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def current_task() -> asyncio.Task[Any] | None:
    try:
        return asyncio.current_task()
    except RuntimeError:  # no running loop
        return None
