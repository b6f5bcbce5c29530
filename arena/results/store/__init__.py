"""The results store: one SQLite file holding bots, versions, tournaments, matches and ratings.

The scheduler is the single writer; readers (leaderboard, CLI) may run alongside it because the
file is in WAL mode. Results are never deleted: no method deletes a bot, a version, a tournament
or a match (removing an author deletes only their account and name claims). Ratings and their
history are *derived* data (recomputable from matches and seats), so :meth:`Store.replace_ratings`
is the one place that rewrites rows, and only to put a full recomputation in their place.

One module per job: :mod:`.schema` (the tables, applied by :data:`MIGRATIONS`), :mod:`.connect`
(opening, pragmas, transactions, errors a person can act on), and one module per table group:
:mod:`.authors`, :mod:`.bots`, :mod:`.remote_bots`, :mod:`.serves` (``arena serve`` and its queue),
:mod:`.tournaments`, :mod:`.ladders` (a ladder's entries and decisions), :mod:`.matches`,
:mod:`.seats`, :mod:`.ratings`, :mod:`.leaderboard` and :mod:`.standings` (a tournament's seats
with their rating changes, its unrecorded plan), :mod:`.submissions` (uploads to a hosted arena),
:mod:`.sessions` (authors signed in to a hosted arena's pages).

Each table group is a class over the one shared connection (:class:`.connect.StoreConnection`)
and :class:`Store` inherits them all. Mixins rather than a facade that holds one object per
group and forwards to it: every method is written once, with its signature in one place, where
forwarding would repeat some sixty signatures that could drift apart; mypy checks each group
against the connection it shares; and the groups share one connection and one transaction
discipline anyway, so separate objects would only pass the same connection around. No group
calls another group's methods; what they share (timestamps, row checks, the record order) is in
:mod:`.rows`.
"""

from __future__ import annotations

from pathlib import Path

from sqlite_utils.migrations import Migrations

from arena.results.store.authors import Authors
from arena.results.store.bots import Bots
from arena.results.store.connect import (
    DEFAULT_BUSY_TIMEOUT_MS,
    empty_database,
    open_database,
)
from arena.results.store.errors import (
    DamagedReplayError,
    DuplicateMatchError,
    StoreBusyError,
    StoreError,
)
from arena.results.store.ladders import Ladders
from arena.results.store.leaderboard import Leaderboard, PlayedSeat
from arena.results.store.matches import (
    REPLAY_GZIP_LEVEL,
    CompressedReplay,
    Matches,
    compress_replay,
)
from arena.results.store.ratings import Ratings
from arena.results.store.remote_bots import RemoteBots
from arena.results.store.schema import MIGRATIONS
from arena.results.store.seats import Seats
from arena.results.store.serves import Serves
from arena.results.store.sessions import Sessions
from arena.results.store.standings import Standings, TournamentSeat
from arena.results.store.submissions import SUBMISSION_STATUSES, Submissions
from arena.results.store.tournaments import (
    INTERRUPTED,
    STALE_HEARTBEAT_SECONDS,
    TOURNAMENT_STATUSES,
    Tournaments,
    live_status,
)

__all__ = [
    "DEFAULT_BUSY_TIMEOUT_MS",
    "INTERRUPTED",
    "MIGRATIONS",
    "REPLAY_GZIP_LEVEL",
    "STALE_HEARTBEAT_SECONDS",
    "SUBMISSION_STATUSES",
    "TOURNAMENT_STATUSES",
    "CompressedReplay",
    "DamagedReplayError",
    "DuplicateMatchError",
    "PlayedSeat",
    "Store",
    "StoreBusyError",
    "StoreError",
    "TournamentSeat",
    "compress_replay",
    "empty_store",
    "live_status",
    "open_store",
]


class Store(
    Authors,
    Bots,
    RemoteBots,
    Serves,
    Tournaments,
    Ladders,
    Matches,
    Seats,
    Ratings,
    Leaderboard,
    Standings,
    Submissions,
    Sessions,
):
    """Typed access to the results database; every write is one transaction."""


def open_store(
    path: Path,
    *,
    busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
    migrations: Migrations = MIGRATIONS,
    read_only: bool = False,
    create: bool = True,
) -> Store:
    """Open (creating if absent, unless ``create`` is false) the results database and bring its
    schema up to date; a file opened for writing must pass ``PRAGMA quick_check``.

    ``read_only`` is for commands that only read: the file must exist (a typo must not leave an
    empty database behind) and is opened so that a read-only file, folder or filesystem can
    still be read. If its schema is behind, it is upgraded first when it can be written.
    ``migrations`` is for tests that simulate a later schema; callers use the default.
    """
    path = Path(path)
    db = open_database(
        path,
        busy_timeout_ms=busy_timeout_ms,
        migrations=migrations,
        read_only=read_only,
        create=create,
    )
    return Store(db, path)


def empty_store(path: Path, migrations: Migrations = MIGRATIONS) -> Store:
    """An empty in-memory database with the current schema, named ``path``: what read commands
    see while the default database has not been made yet (no results, and no file created)."""
    return Store(empty_database(path, migrations), path)
