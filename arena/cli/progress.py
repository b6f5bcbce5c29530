"""Progress on stderr: a live bar on a terminal, one plain line per update otherwise.

A live bar redrawn in place is unreadable once piped (into a file, ``tee`` or CI logs): rich
renders it once, cut to 80 columns, and ``\\r`` updates run together. So when stderr is not a
terminal every update is one complete line instead.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from arena.scheduler.tournament import Progress as Update
from arena.terminal import is_terminal


def _clock(seconds: float) -> str:
    """``H:MM:SS``, as rich shows the time remaining."""
    whole = int(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def _rate(update: Update, now: float) -> float | None:
    """Matches per minute played by this run (matches recorded before a resume do not count)."""
    played = update.done - update.resumed_from
    elapsed = now - update.started
    if played <= 0 or elapsed <= 0:
        return None
    return 60 * played / elapsed


class ProgressBar:
    """Tournament progress fed by :class:`arena.scheduler.tournament.Runner` updates."""

    def __init__(self, title: str, enabled: bool = True, stream: TextIO | None = None) -> None:
        self.title = title
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.live = enabled and is_terminal(self.stream)
        self.bar = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeRemainingColumn(),
            TextColumn("leader: {task.fields[leader]}"),
            console=Console(file=self.stream),
            transient=False,
        )
        self.task = self.bar.add_task(title, total=None, rate="", leader="-")
        self.started = False

    def __enter__(self) -> ProgressBar:
        if self.live:
            self.bar.start()
            self.started = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self.started:
            self.bar.stop()
            self.started = False

    def update(self, update: Update) -> None:
        rate = _rate(update, time.time())
        rate_text = f"{rate:.1f} matches/min" if rate is not None else ""
        if self.live:
            self.bar.update(
                self.task,
                completed=update.done,
                total=update.total,
                rate=rate_text,
                leader=update.leader or "-",
            )
        elif self.enabled:
            parts = [f"{self.title}: {update.done}/{update.total} matches"]
            if rate is not None:
                parts.append(rate_text)
                if update.total > update.done:
                    parts.append(f"{_clock(60 * (update.total - update.done) / rate)} left")
            parts.append(f"leader: {update.leader or '-'}")
            print(", ".join(parts), file=self.stream, flush=True)


class StatusLine:
    """A one-line status redrawn in place on a terminal; one line per update otherwise."""

    def __init__(self, stream: TextIO | None = None, enabled: bool = True) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.live = is_terminal(self.stream)
        self.shown = False

    def show(self, text: str) -> None:
        if not self.enabled:
            return
        if self.live:
            print(f"\r\x1b[K{text}", end="", file=self.stream, flush=True)
        else:
            print(text, file=self.stream, flush=True)
        self.shown = True

    def close(self) -> None:
        """End the redrawn line so what follows starts on a line of its own."""
        if self.live and self.shown:
            print(file=self.stream, flush=True)
        self.shown = False
