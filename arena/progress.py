"""The tournament progress bar: done/total, rate, ETA and the current leader."""

from __future__ import annotations

import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from arena.scheduler.tournament import Progress as Update


class ProgressBar:
    """A rich progress bar fed by :class:`arena.scheduler.tournament.Runner` updates."""

    def __init__(self, title: str, enabled: bool = True) -> None:
        self.enabled = enabled
        self.bar = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeRemainingColumn(),
            TextColumn("leader: {task.fields[leader]}"),
            console=Console(stderr=True),
            transient=False,
        )
        self.task = self.bar.add_task(title, total=None, rate="", leader="-")

    def __enter__(self) -> ProgressBar:
        if self.enabled:
            self.bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self.bar.stop()

    def update(self, update: Update) -> None:
        elapsed = max(time.time() - update.started, 1e-9)
        self.bar.update(
            self.task,
            completed=update.done,
            total=update.total,
            rate=f"{60 * update.done / elapsed:.1f} matches/min" if update.done else "",
            leader=update.leader or "-",
        )
