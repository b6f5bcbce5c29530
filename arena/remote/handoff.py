"""How ``arena tournament run`` hands a tournament with remote bots to ``arena serve``.

The tournament is planned in the database as usual, then queued in ``serve_queue``; the
serve for that database (a live row in ``serves``) takes it, plays it and notes how it
ended, while ``tournament run`` follows its progress in the database and then prints what it
prints for a local tournament. No serve running: one line and exit 2, before planning.
"""

from __future__ import annotations

import time
from typing import Any

from arena.catalog.remote import remote_bots
from arena.errors import ArenaError, ConfigError
from arena.results.store import Store
from arena.scheduler.executors import LOCAL
from arena.scheduler.tournament import Progress, Runner

FOLLOW_SECONDS = 0.2
"""How often a following ``tournament run`` reads the progress."""


def live_serve(store: Store) -> dict[str, Any] | None:
    """The newest serve of this database that is still running, or None."""
    return next((row for row in store.serves() if row["live"]), None)


def require_serve(store: Store, bots: list[str], executor: str = LOCAL) -> None:
    """Refuse a tournament that seats a remote bot when no serve runs for this database (or
    when it asks for another executor: the serve plays every match on its own loop)."""
    remote = sorted(set(bots) & set(remote_bots(store)))
    if remote and executor != LOCAL:
        raise ConfigError(
            f"remote bot {remote[0]!r} plays only on the arena serve's own machine; "
            f"--executor {executor} does not apply to a tournament with remote bots"
        )
    if remote and live_serve(store) is None:
        raise ConfigError(
            f"remote bot {remote[0]!r} plays only through a running serve: start "
            f"`arena serve --db {store.path}` first"
        )


class Follower(Runner):
    """Stands in for the runner in ``tournament run``: hands the tournament to the serve and
    reports its progress until the serve says how it ended."""

    def run(self) -> None:
        if self.executor != LOCAL:
            raise ConfigError(
                f"tournament {self.id} seats remote bots: the arena serve plays it on its own "
                f"machine (--executor {self.executor} does not apply)"
            )
        serve = live_serve(self.store)
        if serve is None:
            raise ConfigError(
                f"tournament {self.id} seats remote bots: start "
                f"`arena serve --db {self.store.path}` first"
            )
        self.store.queue_for_serve(self.id)
        try:
            self._follow()
        except BaseException:  # Ctrl-C, or the serve gone: no later serve may pick it up
            self.store.withdraw_queued(self.id)
            raise

    def _follow(self) -> None:
        """Report progress until the serve notes how the tournament ended."""
        while True:
            queued = self.store.queued(self.id) or {}
            found = self.store.tournament(self.id) or {}
            if self.on_progress is not None:
                done = int(found.get("recorded", 0))
                total = int(found.get("planned") or 0) or max(done, len(self.plan))
                self.on_progress(Progress(done, total, self.started, "", self.next_index))
            outcome = queued.get("outcome")
            if outcome == "finished":
                return
            if outcome is not None:
                raise ArenaError(f"the serve stopped tournament {self.id}: {outcome}")
            if live_serve(self.store) is None:
                raise ArenaError(f"the serve for {self.store.path} stopped")
            time.sleep(FOLLOW_SECONDS)  # between reads of what the serve writes
