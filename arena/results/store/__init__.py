"""The results store: one SQLite file holding bots, versions, tournaments, matches and ratings.

The scheduler is the single writer; readers (leaderboard, CLI) may run alongside it because the
file is in WAL mode. Results are never deleted: there are no delete methods. Ratings and their
history are *derived* data (recomputable from matches and seats), so :meth:`Store.replace_ratings`
is the one place that rewrites rows, and only to put a full recomputation in their place.

The schema is applied by :data:`MIGRATIONS` (``sqlite_utils.migrations``, recorded in
``_sqlite_migrations``). To change it, append a new ``@MIGRATIONS()`` function (for example one
that calls ``db["matches"].add_column(...)``); never edit an applied migration, because existing
files have already run it.
"""

from __future__ import annotations

import gzip
import json
import math
import os
import socket
import sqlite3
import statistics
import zlib
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from arena.errors import ArenaError
from arena.paths import results_home
from arena.processes import alive

TOURNAMENT_STATUSES = ("planned", "running", "stopped", "finished")
INTERRUPTED = "interrupted"
"""Shown instead of ``running`` when the tournament's scheduler is gone (never stored)."""
STALE_HEARTBEAT_SECONDS = 300.0
"""A running tournament whose scheduler has not written for this long is interrupted."""
DEFAULT_BUSY_TIMEOUT_MS = 5000


class StoreError(ArenaError):
    """The results database cannot be opened, read or written as asked."""


class StoreBusyError(StoreError):
    """Another connection held the write lock for longer than the busy timeout."""


class DamagedReplayError(StoreError):
    """A stored replay whose compressed bytes no longer decompress."""


class DuplicateMatchError(StoreError):
    """A match (or a tournament's plan entry) that is already recorded; nothing was written."""


MIGRATIONS = Migrations("arena")

_SCHEMA_0001 = (
    """CREATE TABLE bots (
        name TEXT PRIMARY KEY,
        language TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        path TEXT NOT NULL,
        added_at TEXT NOT NULL
    )""",
    """CREATE TABLE versions (
        id TEXT PRIMARY KEY,
        bot TEXT NOT NULL REFERENCES bots(name),
        label TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (id, bot)
    )""",
    """CREATE TABLE tournaments (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        settings_json TEXT NOT NULL,
        seed INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'planned'
            CHECK (status IN ('planned', 'running', 'stopped', 'finished')),
        created_at TEXT NOT NULL,
        finished_at TEXT,
        planned INTEGER NOT NULL
    )""",
    """CREATE TABLE plan (
        tournament_id TEXT NOT NULL REFERENCES tournaments(id),
        plan_index INTEGER NOT NULL,
        round INTEGER NOT NULL,
        rotation_group INTEGER,
        seed INTEGER NOT NULL,
        seats_json TEXT NOT NULL,
        PRIMARY KEY (tournament_id, plan_index)
    )""",
    """CREATE TABLE matches (
        id TEXT PRIMARY KEY,
        tournament_id TEXT REFERENCES tournaments(id),
        plan_index INTEGER,
        game TEXT NOT NULL,
        pool TEXT NOT NULL,
        seat_count INTEGER NOT NULL,
        rules_json TEXT NOT NULL,
        seed INTEGER NOT NULL,
        end_reason TEXT NOT NULL,
        winner_seat INTEGER,
        turns INTEGER NOT NULL,
        rounds INTEGER NOT NULL,
        decisions INTEGER NOT NULL,
        started_at TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        replay BLOB NOT NULL,
        UNIQUE (tournament_id, plan_index),
        CHECK ((tournament_id IS NULL) = (plan_index IS NULL)),
        FOREIGN KEY (tournament_id, plan_index) REFERENCES plan(tournament_id, plan_index)
    )""",
    """CREATE TABLE seats (
        match_id TEXT NOT NULL REFERENCES matches(id),
        seat INTEGER NOT NULL,
        version_id TEXT NOT NULL,
        bot TEXT NOT NULL,
        place INTEGER NOT NULL,
        status TEXT NOT NULL,
        strikes INTEGER NOT NULL DEFAULT 0,
        think_ms_p50 REAL,
        think_ms_p99 REAL,
        PRIMARY KEY (match_id, seat),
        FOREIGN KEY (version_id, bot) REFERENCES versions(id, bot)
    )""",
    "CREATE INDEX seats_version ON seats(version_id)",
    """CREATE TABLE ratings (
        pool TEXT NOT NULL,
        version_id TEXT NOT NULL REFERENCES versions(id),
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (pool, version_id)
    )""",
    """CREATE TABLE rating_history (
        match_id TEXT NOT NULL REFERENCES matches(id),
        pool TEXT NOT NULL,
        version_id TEXT NOT NULL REFERENCES versions(id),
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu_after REAL NOT NULL,
        sigma_after REAL NOT NULL,
        PRIMARY KEY (match_id, version_id)
    )""",
    "CREATE INDEX rating_history_version ON rating_history(version_id)",
)


@MIGRATIONS(name="0001_initial")
def _initial(db: Database) -> None:
    """Every table. Written as SQL because composite keys and CHECKs are clearer that way."""
    for statement in _SCHEMA_0001:
        db.execute(statement)


@MIGRATIONS(name="0002_out_order")
def _out_order(db: Database) -> None:
    """The order seats went out (eliminated or forfeited), so a ratings rebuild ranks
    forfeits exactly as the live rating did."""
    db.execute("ALTER TABLE matches ADD COLUMN out_order_json TEXT")


@MIGRATIONS(name="0003_scheduler_heartbeat")
def _scheduler_heartbeat(db: Database) -> None:
    """Which process runs a tournament and when it last showed life, so a scheduler killed
    with ``kill -9`` shows as interrupted instead of running forever."""
    db.execute("ALTER TABLE tournaments ADD COLUMN runner_pid INTEGER")
    db.execute("ALTER TABLE tournaments ADD COLUMN runner_host TEXT")
    db.execute("ALTER TABLE tournaments ADD COLUMN heartbeat_at TEXT")


@MIGRATIONS(name="0004_remote_bots")
def _remote_bots(db: Database) -> None:
    """Remote bots (no folder; a hashed token each), running ``arena serve`` processes and
    the tournaments handed to them (:mod:`arena.remote`)."""
    db.execute(
        """CREATE TABLE remote_bots (
            name TEXT PRIMARY KEY REFERENCES bots(name),
            games_json TEXT NOT NULL,
            label TEXT NOT NULL,
            token_hash TEXT UNIQUE,
            token_issued_at TEXT,
            revoked_at TEXT
        )"""
    )
    db.execute(
        """CREATE TABLE serves (
            id TEXT PRIMARY KEY,
            pid INTEGER NOT NULL,
            host TEXT NOT NULL,
            address TEXT NOT NULL,
            started_at TEXT NOT NULL,
            heartbeat_at TEXT NOT NULL,
            stopped_at TEXT
        )"""
    )
    db.execute(
        """CREATE TABLE serve_queue (
            tournament_id TEXT PRIMARY KEY REFERENCES tournaments(id),
            queued_at TEXT NOT NULL,
            serve_id TEXT REFERENCES serves(id),
            taken_at TEXT,
            outcome TEXT
        )"""
    )


@MIGRATIONS(name="0005_seat_logs")
def _seat_logs(db: Database) -> None:
    """Where the bot process of each seat of a tournament match logged its stderr (a kept
    process logs many matches to the file of the match it started for), so a fault can
    point at the log that tells why."""
    db.execute(
        """CREATE TABLE seat_logs (
            match_id TEXT NOT NULL REFERENCES matches(id),
            seat INTEGER NOT NULL,
            path TEXT NOT NULL,
            PRIMARY KEY (match_id, seat)
        )"""
    )


# Columns a caller gives for each kind of row: required names, and optional ones with defaults.
_MATCH_REQUIRED = (
    "id",
    "game",
    "pool",
    "rules",
    "seed",
    "end_reason",
    "turns",
    "rounds",
    "decisions",
    "started_at",
    "finished_at",
)
_MATCH_OPTIONAL: dict[str, Any] = {
    "tournament_id": None,
    "plan_index": None,
    "winner_seat": None,
    "seat_count": None,
    "out_order": None,
}
_SEAT_REQUIRED = ("seat", "version_id", "bot", "place", "status")
_SEAT_OPTIONAL: dict[str, Any] = {
    "match_id": None,
    "strikes": 0,
    "think_ms_p50": None,
    "think_ms_p99": None,
    "log": None,
}
"""A seat's ``log`` (its bot process's stderr log, if it ran as one) goes to ``seat_logs``."""
_CHANGE_REQUIRED = ("pool", "version_id", "mu_before", "sigma_before", "mu_after", "sigma_after")
_CHANGE_OPTIONAL: dict[str, Any] = {"match_id": None}
_RATING_REQUIRED = ("pool", "version_id", "mu", "sigma", "games")
_RATING_OPTIONAL: dict[str, Any] = {"updated_at": None}
_PLAN_REQUIRED = ("plan_index", "round", "seed", "seats")
_PLAN_OPTIONAL: dict[str, Any] = {"rotation_group": None}

# Chronological record order: a tournament's matches by plan, ad-hoc matches by start time.
_RECORD_ORDER = "COALESCE(t.created_at, m.started_at), t.rowid, m.plan_index, m.started_at, m.rowid"
_MATCH_COLUMNS = (
    "m.id, m.tournament_id, m.plan_index, m.game, m.pool, m.seat_count, m.rules_json,"
    " m.out_order_json, m.seed,"
    " m.end_reason, m.winner_seat, m.turns, m.rounds, m.decisions, m.started_at, m.finished_at"
)


def _now() -> str:
    """UTC timestamps with microseconds, so text order is time order."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _fields(
    kind: str, given: dict[str, Any], required: tuple[str, ...], optional: dict[str, Any]
) -> dict[str, Any]:
    """The row a caller described, refusing missing or unknown keys (silent drops lose data)."""
    missing = [key for key in required if key not in given]
    unknown = sorted(set(given) - set(required) - set(optional))
    if missing or unknown:
        raise StoreError(
            f"{kind}: missing {missing or 'nothing'}, unknown {unknown or 'nothing'}; "
            f"expected {list(required)} and optionally {list(optional)}"
        )
    return {**optional, **given}


def _describe(exc: sqlite3.Error, path: Path | None = None) -> tuple[type[StoreError], str]:
    """The error class and the reason a person can act on, from SQLite's error code.

    A file that turns read-only under an open connection (permissions, an immutable flag, a
    read-only remount) surfaces as a bare "disk I/O error"; with ``path`` it is named as such.
    """
    code = getattr(exc, "sqlite_errorname", "") or ""
    if code.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return (
            StoreBusyError,
            "the database is busy: another connection held it longer than the busy timeout",
        )
    if code.startswith("SQLITE_READONLY") or (
        code.startswith("SQLITE_IOERR") and path is not None and not _writable(path)
    ):
        return (
            StoreError,
            "the database is read-only (check the permissions of the file and its folder)",
        )
    if code == "SQLITE_NOTADB":
        return StoreError, "the file is not a SQLite database"
    if code.startswith("SQLITE_CANTOPEN"):
        return StoreError, "the file cannot be opened (missing permission, or not a regular file)"
    if code.startswith("SQLITE_CORRUPT"):
        return StoreError, "the database file is corrupt"
    if code.startswith("SQLITE_CONSTRAINT"):
        return StoreError, f"a constraint refused the rows ({exc}); nothing was written"
    return StoreError, str(exc)


@contextmanager
def _translated(path: Path, doing: str) -> Iterator[None]:
    """Turn SQLite errors into :class:`StoreError` naming the file and what was being done."""
    try:
        yield
    except sqlite3.Error as exc:
        cls, reason = _describe(exc, path)
        raise cls(f"results database {path}: cannot {doing}: {reason}") from exc


def _companions(path: Path) -> tuple[Path, Path]:
    """The write-ahead log and its shared-memory index, beside the database file."""
    return path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")


def _writable(path: Path) -> bool:
    """Whether this process may write the database: its folder, the file and whichever of its
    -wal and -shm files exist. ``os.access`` also sees read-only mounts and immutable files."""
    files = [f for f in (path, *_companions(path)) if f.exists()]
    return _may_write(path.parent) and all(_may_write(f) for f in files)


def _may_write(path: Path) -> bool:
    """One place that asks the system (tests running as root stand in for it here)."""
    return os.access(path, os.W_OK)


def _connect(path: Path, busy_timeout_ms: int) -> Database:
    """A connection with WAL, the busy timeout and foreign keys, checked to have taken effect."""
    conn = sqlite3.connect(str(path), timeout=busy_timeout_ms / 1000)
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        mode = conn.execute("PRAGMA journal_mode = wal").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(f"results database {path}: cannot switch to WAL mode (got {mode!r})")
        conn.execute("PRAGMA foreign_keys = ON")
        return Database(conn)
    except BaseException:
        conn.close()
        raise


def _connect_read_only(path: Path, busy_timeout_ms: int) -> Database:
    """A connection that cannot write, and does not need to.

    SQLite's ``mode=ro`` still needs the -wal and -shm of a WAL database, and creates them
    if absent, which fails in a folder this process may not write. There: with both present
    (as they are while any writer is connected) ``mode=ro`` reads through them; with no log
    to read (no -wal, or an empty one) the file is opened ``immutable`` (nothing can be
    writing it: a writer keeps both files, and could not make them in this folder either); a
    log holding changes but missing its -shm cannot be read, so it is refused rather than the
    file read stale.
    """
    wal, shm = _companions(path)
    query = "mode=ro"
    if not _may_write(path.parent) and not (wal.exists() and shm.exists()):
        try:
            pending_log = wal.stat().st_size > 0
        except OSError:  # no -wal
            pending_log = False
        if pending_log:
            raise StoreError(
                f"results database {path}: cannot read it: its write-ahead log {wal.name} holds"
                f" changes but {shm.name} is missing and the folder is read-only"
                " (open it once where the folder is writable)"
            )
        query = "mode=ro&immutable=1"
    # Not tied to its thread: a web request's connection is opened, used and closed on
    # different worker threads (one after the other, never at once).
    conn = sqlite3.connect(
        f"{path.resolve().as_uri()}?{query}",
        uri=True,
        timeout=busy_timeout_ms / 1000,
        check_same_thread=False,
    )
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()  # fail here, not later
        return Database(conn)
    except BaseException:
        conn.close()
        raise


def _check_pages(db: Database, path: Path) -> None:
    """Refuse to write into a file whose pages are damaged: more writes would bury the damage
    under new results. ``quick_check`` reads every page once (fast: no index cross-checks)."""
    with _translated(path, "check it"):
        rows = [str(row[0]) for row in db.execute("PRAGMA quick_check(1)").fetchall()]
    if rows != ["ok"]:
        lines = [line for row in rows for line in row.splitlines() if not line.startswith("***")]
        raise StoreError(
            f"results database {path} is corrupt ({lines[0] if lines else 'quick_check failed'});"
            " it will not be written to: restore a backup, or move it aside to start a new one"
        )


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
    if (read_only or not create) and not path.exists():
        raise StoreError(f"no results database at {path}")
    if read_only:
        store = _open_read_only(path, busy_timeout_ms, migrations)
        if store is not None:
            return store
    existed = path.is_file() and path.stat().st_size > 0
    _check_folder(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(
            f"cannot create folder {path.parent} for the results database: {exc.strerror}"
        ) from None
    with _translated(path, "open it"):
        db = _connect(path, busy_timeout_ms)
    store = Store(db, path)
    try:
        if existed:
            _check_pages(db, path)
        with _translated(path, "apply schema migrations"):
            migrations.apply(db)
    except BaseException:
        store.close()
        raise
    return store


def _check_folder(path: Path) -> None:
    """Refuse a database in a folder that does not exist, unless that folder is the results
    home (made on first use): a mistyped ``--db`` must not start a new rating history."""
    folder = path.parent
    if folder.exists() and not folder.is_dir():
        raise StoreError(f"{folder} is not a folder: the results database {path} cannot be there")
    if folder.is_dir() or folder.resolve() == results_home().resolve():
        return
    raise StoreError(
        f"no folder {folder} for the results database {path}: check the path, or create the"
        " folder first"
    )


def empty_store(path: Path, migrations: Migrations = MIGRATIONS) -> Store:
    """An empty in-memory database with the current schema, named ``path``: what read commands
    see while the default database has not been made yet (no results, and no file created)."""
    db = Database(memory=True)
    with _translated(path, "set up an empty database"):
        migrations.apply(db)
    return Store(db, path)


def _open_read_only(path: Path, busy_timeout_ms: int, migrations: Migrations) -> Store | None:
    """The store on a read-only connection, or None when its schema needs an upgrade that this
    process can write (the caller then opens it for writing)."""
    with _translated(path, "open it"):
        db = _connect_read_only(path, busy_timeout_ms)
    store = Store(db, path)
    try:
        with _translated(path, "read its schema version"):
            pending = [m.name for m in migrations.pending(db)]
    except BaseException:
        store.close()
        raise
    if not pending:
        return store
    store.close()
    if _writable(path):
        return None
    raise StoreError(
        f"results database {path}: its schema is older than this arena (pending: "
        f"{', '.join(pending)}) and it is read-only: open it once with write access to upgrade it"
    )


class Store:
    """Typed access to the results database; every write is one transaction."""

    def __init__(self, db: Database, path: Path) -> None:
        self.db = db
        self.path = path

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- plumbing ---------------------------------------------------------------------------

    @contextmanager
    def _write(self, doing: str) -> Iterator[Database]:
        """One transaction, all or nothing.

        ``BEGIN IMMEDIATE`` takes the write lock up front, so waiting for another writer happens
        here under the busy timeout instead of failing later on a lock upgrade.
        """
        with _translated(self.path, doing):
            conn = self.db.conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise

    def _rows(
        self, sql: str, params: tuple[Any, ...] = (), doing: str = "read"
    ) -> list[dict[str, Any]]:
        with _translated(self.path, doing):
            return list(self.db.query(sql, params))

    def _one(self, sql: str, params: tuple[Any, ...] = ()) -> dict[str, Any] | None:
        rows = self._rows(sql, params)
        return rows[0] if rows else None

    # -- bots and versions ------------------------------------------------------------------

    def add_bot(self, name: str, language: str, description: str, path: str) -> None:
        """Register a bot, or refresh its language, description and path (added_at is kept)."""
        with self._write(f"add bot {name!r}") as db:
            db.execute(
                "INSERT INTO bots (name, language, description, path, added_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET"
                " language = excluded.language, description = excluded.description,"
                " path = excluded.path",
                (name, language, description, str(path), _now()),
            )

    def add_version(self, version_id: str, bot: str, label: str) -> None:
        """Record a content-hashed version of a bot; adding it again changes nothing."""
        with self._write(f"add version {version_id!r}") as db:
            known = db.execute("SELECT bot FROM versions WHERE id = ?", (version_id,)).fetchone()
            if known is not None:
                if known[0] != bot:
                    raise StoreError(
                        f"version {version_id!r} already belongs to bot {known[0]!r}, not {bot!r}"
                    )
                return
            if db.execute("SELECT 1 FROM bots WHERE name = ?", (bot,)).fetchone() is None:
                raise StoreError(
                    f"cannot add version {version_id!r}: unknown bot {bot!r} (add_bot first)"
                )
            db.table("versions").insert(
                {"id": version_id, "bot": bot, "label": label, "created_at": _now()}
            )

    def bots(self) -> list[dict[str, Any]]:
        return self._rows("SELECT * FROM bots ORDER BY name")

    def versions(self, bot: str | None = None) -> list[dict[str, Any]]:
        where, params = ("WHERE bot = ?", (bot,)) if bot is not None else ("", ())
        return self._rows(f"SELECT * FROM versions {where} ORDER BY bot, created_at", params)

    # -- remote bots, serves and the tournaments handed to them ----------------------------

    def add_remote_bot(self, name: str, games: list[str], label: str, description: str) -> None:
        """Register a bot with no folder (it dials in), or update its games and label (its
        token, if any, is kept)."""
        with self._write(f"add remote bot {name!r}") as db:
            db.execute(
                "INSERT INTO bots (name, language, description, path, added_at)"
                " VALUES (?, 'remote', ?, '', ?) ON CONFLICT (name) DO UPDATE SET"
                " description = excluded.description",
                (name, description, _now()),
            )
            db.execute(
                "INSERT INTO remote_bots (name, games_json, label) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET games_json = excluded.games_json,"
                " label = excluded.label",
                (name, json.dumps(games), label),
            )

    def remote_bots(self) -> list[dict[str, Any]]:
        """Every remote bot: name, games (decoded), label, token state."""
        rows = self._rows("SELECT * FROM remote_bots ORDER BY name")
        for row in rows:
            row["games"] = json.loads(row.pop("games_json"))
        return rows

    def set_remote_token(self, name: str, token_hash: str | None) -> None:
        """Store a new token hash for the remote bot (replacing the last), or with None
        revoke it."""
        with self._write(f"set the token of remote bot {name!r}") as db:
            cursor = db.execute(
                "UPDATE remote_bots SET token_hash = ?, token_issued_at = CASE WHEN ? IS NULL"
                " THEN token_issued_at ELSE ? END, revoked_at = CASE WHEN ? IS NULL THEN ?"
                " ELSE NULL END WHERE name = ?",
                (token_hash, token_hash, _now(), token_hash, _now(), name),
            )
            if cursor.rowcount == 0:
                raise StoreError(f"no remote bot {name!r}")

    def remote_bot_by_token(self, token_hash: str) -> str | None:
        """The remote bot whose current token has this hash, or None."""
        row = self._one("SELECT name FROM remote_bots WHERE token_hash = ?", (token_hash,))
        return None if row is None else str(row["name"])

    def remote_bot_named(self, name: str) -> bool:
        """Whether ``name`` is a remote bot."""
        return self._one("SELECT 1 AS one FROM remote_bots WHERE name = ?", (name,)) is not None

    def start_serve(self, id: str, pid: int, host: str, address: str) -> None:
        """Record a running ``arena serve`` (heartbeat now)."""
        with self._write("record the serve") as db:
            db.table("serves").insert(
                {
                    "id": id,
                    "pid": pid,
                    "host": host,
                    "address": address,
                    "started_at": _now(),
                    "heartbeat_at": _now(),
                    "stopped_at": None,
                }
            )

    def serve_heartbeat(self, id: str, stopped: bool = False) -> None:
        """Note that the serve is alive (or, with ``stopped``, that it ended)."""
        with self._write("note the serve's heartbeat") as db:
            db.execute(
                "UPDATE serves SET heartbeat_at = ?, stopped_at = ? WHERE id = ?",
                (_now(), _now() if stopped else None, id),
            )

    def serves(self) -> list[dict[str, Any]]:
        """Every serve recorded, newest first, ``live`` saying whether it still runs."""
        rows = self._rows("SELECT * FROM serves ORDER BY started_at DESC, rowid DESC")
        for row in rows:
            row["live"] = row["stopped_at"] is None and (
                live_status(
                    {
                        "status": "running",
                        "heartbeat_at": row["heartbeat_at"],
                        "runner_pid": row["pid"],
                        "runner_host": row["host"],
                    }
                )
                == "running"
            )
        return rows

    def queue_for_serve(self, tournament_id: str) -> None:
        """Hand a tournament to the running serve (again, after an interruption)."""
        with self._write(f"hand tournament {tournament_id!r} to the serve") as db:
            db.execute(
                "INSERT INTO serve_queue (tournament_id, queued_at) VALUES (?, ?)"
                " ON CONFLICT (tournament_id) DO UPDATE SET queued_at = excluded.queued_at,"
                " serve_id = NULL, taken_at = NULL, outcome = NULL",
                (tournament_id, _now()),
            )

    def take_queued(self, serve_id: str) -> str | None:
        """The oldest tournament handed over and not yet taken, now taken by ``serve_id``."""
        with self._write("take a handed tournament") as db:
            row = db.execute(
                "SELECT tournament_id FROM serve_queue WHERE taken_at IS NULL"
                " ORDER BY queued_at, rowid LIMIT 1"
            ).fetchone()
            if row is None:
                return None
            db.execute(
                "UPDATE serve_queue SET serve_id = ?, taken_at = ? WHERE tournament_id = ?",
                (serve_id, _now(), row[0]),
            )
            return str(row[0])

    def finish_queued(self, tournament_id: str, outcome: str) -> None:
        """Say how the serve's run of a handed tournament ended (``finished`` or why not)."""
        with self._write(f"note how tournament {tournament_id!r} ended") as db:
            db.execute(
                "UPDATE serve_queue SET outcome = ? WHERE tournament_id = ?",
                (outcome, tournament_id),
            )

    def withdraw_queued(self, tournament_id: str) -> bool:
        """Take a handed tournament back if no serve took it yet; whether it was."""
        with self._write(f"take tournament {tournament_id!r} back from the serve") as db:
            cursor = db.execute(
                "UPDATE serve_queue SET taken_at = ?, outcome = 'withdrawn'"
                " WHERE tournament_id = ? AND taken_at IS NULL",
                (_now(), tournament_id),
            )
            return cursor.rowcount > 0

    def queued(self, tournament_id: str) -> dict[str, Any] | None:
        """The hand-over row of a tournament, or None."""
        return self._one("SELECT * FROM serve_queue WHERE tournament_id = ?", (tournament_id,))

    # -- tournaments and their plans --------------------------------------------------------

    def create_tournament(
        self, id: str, name: str, settings: dict[str, Any], seed: int, plan: list[dict[str, Any]]
    ) -> None:
        """Write the tournament and its whole plan together, so resume plays exactly that plan."""
        entries = [_plan_row(id, entry) for entry in plan]
        with self._write(f"create tournament {id!r}") as db:
            if db.execute("SELECT 1 FROM tournaments WHERE id = ?", (id,)).fetchone():
                raise StoreError(f"tournament {id!r} already exists")
            db.table("tournaments").insert(
                {
                    "id": id,
                    "name": name,
                    "settings_json": json.dumps(settings, sort_keys=True),
                    "seed": seed,
                    "status": "planned",
                    "created_at": _now(),
                    "finished_at": None,
                    "planned": len(entries),
                }
            )
            db.table("plan").insert_all(entries)

    def set_tournament_status(self, id: str, status: str) -> None:
        """Move a tournament along; ``finished`` also stamps finished_at."""
        if status not in TOURNAMENT_STATUSES:
            raise StoreError(
                f"unknown tournament status {status!r}; expected one of {list(TOURNAMENT_STATUSES)}"
            )
        finished_at = _now() if status == "finished" else None
        with self._write(f"set the status of tournament {id!r}") as db:
            cursor = db.execute(
                "UPDATE tournaments SET status = ?, finished_at = COALESCE(?, finished_at) WHERE id = ?",
                (status, finished_at, id),
            )
            if cursor.rowcount == 0:
                raise StoreError(f"no tournament {id!r}")

    def claim_tournament(self, id: str, pid: int, host: str) -> None:
        """Mark the tournament running in process ``pid`` on ``host``, heartbeat now."""
        with self._write(f"start tournament {id!r}") as db:
            cursor = db.execute(
                "UPDATE tournaments SET status = 'running', runner_pid = ?, runner_host = ?,"
                " heartbeat_at = ? WHERE id = ?",
                (pid, host, _now(), id),
            )
            if cursor.rowcount == 0:
                raise StoreError(f"no tournament {id!r}")

    def heartbeat(self, id: str) -> None:
        """Note that the tournament's scheduler is alive (see :func:`live_status`)."""
        with self._write(f"note the heartbeat of tournament {id!r}") as db:
            db.execute("UPDATE tournaments SET heartbeat_at = ? WHERE id = ?", (_now(), id))

    def reseat_versions(
        self, id: str, from_index: int, renamed: dict[str, str], settings: dict[str, Any]
    ) -> None:
        """Seat new bot versions in the plan entries from ``from_index`` on (``renamed`` maps
        old version ids to new ones) and store the updated ``settings``, in one transaction.

        Only unplayed entries change: recorded matches keep the versions that played them.
        """
        with self._write(f"record new bot versions in tournament {id!r}") as db:
            if db.execute(
                "SELECT 1 FROM matches WHERE tournament_id = ? AND plan_index >= ?",
                (id, from_index),
            ).fetchone():
                raise StoreError(
                    f"tournament {id!r} has matches recorded from plan index {from_index} on"
                )
            rows = db.execute(
                "SELECT plan_index, seats_json FROM plan WHERE tournament_id = ? AND plan_index >= ?",
                (id, from_index),
            ).fetchall()
            for index, seats_json in rows:
                seats = [renamed.get(v, v) for v in json.loads(seats_json)]
                db.execute(
                    "UPDATE plan SET seats_json = ? WHERE tournament_id = ? AND plan_index = ?",
                    (json.dumps(seats), id, index),
                )
            db.execute(
                "UPDATE tournaments SET settings_json = ? WHERE id = ?",
                (json.dumps(settings, sort_keys=True), id),
            )

    def set_tournament_settings(self, id: str, settings: dict[str, Any]) -> None:
        """Store a tournament's settings anew (a resume on another executor says so)."""
        with self._write(f"update the settings of tournament {id!r}") as db:
            db.execute(
                "UPDATE tournaments SET settings_json = ? WHERE id = ?",
                (json.dumps(settings, sort_keys=True), id),
            )

    def tournament(self, id: str) -> dict[str, Any] | None:
        """One tournament (settings decoded, ``recorded`` = matches so far), or None.

        ``status`` is :func:`live_status`: ``interrupted`` for a running one whose scheduler
        is gone; ``stored_status`` is what the row says.
        """
        rows = self._tournament_rows("WHERE t.id = ?", (id,))
        return rows[0] if rows else None

    def tournaments(self) -> list[dict[str, Any]]:
        """All tournaments, oldest first."""
        return self._tournament_rows("", ())

    def _tournament_rows(self, where: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        rows = self._rows(
            "SELECT t.*, (SELECT COUNT(*) FROM matches m WHERE m.tournament_id = t.id) AS recorded"
            f" FROM tournaments t {where} ORDER BY t.created_at, t.rowid",
            params,
        )
        for row in rows:
            row["settings"] = json.loads(row.pop("settings_json"))
            row["stored_status"] = row["status"]
            row["status"] = live_status(row)
        return rows

    def progress(self) -> list[dict[str, Any]]:
        """Every tournament's id, name, game, status, planned and recorded match counts (cheap:
        what a page polls to know when to refresh and how far a tournament has got)."""
        rows = self._rows(
            "SELECT t.id, t.name, t.status, t.runner_pid, t.runner_host, t.heartbeat_at,"
            " t.planned, json_extract(t.settings_json, '$.game') AS game,"
            " (SELECT COUNT(*) FROM matches m WHERE m.tournament_id = t.id) AS recorded"
            " FROM tournaments t ORDER BY t.created_at, t.rowid"
        )
        for row in rows:
            row["status"] = live_status(row)
            row["game"] = row["game"] or "classic"
            for key in ("runner_pid", "runner_host", "heartbeat_at"):
                del row[key]
        return rows

    def change_marks(self) -> tuple[int, ...]:
        """Marks that move whenever a leaderboard could change: matches recorded and the newest
        one, and the rating changes (a ``ratings rebuild`` rewrites them with new rowids)."""
        row = self._one(
            "SELECT (SELECT COUNT(*) FROM matches) AS matches,"
            " (SELECT COALESCE(MAX(rowid), 0) FROM matches) AS newest,"
            " (SELECT COUNT(*) FROM rating_history) AS changes,"
            " (SELECT COALESCE(MAX(rowid), 0) FROM rating_history) AS last_change"
        )
        assert row is not None
        return (row["matches"], row["newest"], row["changes"], row["last_change"])

    def match_count(self) -> tuple[int, int]:
        """(matches recorded, the rowid of the newest one or 0)."""
        row = self._one("SELECT COUNT(*) AS n, COALESCE(MAX(rowid), 0) AS newest FROM matches")
        assert row is not None
        return int(row["n"]), int(row["newest"])

    def planned(self, id: str) -> list[dict[str, Any]]:
        """The tournament's plan entries in plan order, with ``seats`` decoded."""
        rows = self._rows(
            "SELECT plan_index, round, rotation_group, seed, seats_json FROM plan"
            " WHERE tournament_id = ? ORDER BY plan_index",
            (id,),
        )
        for row in rows:
            row["seats"] = json.loads(row.pop("seats_json"))
        return rows

    def recorded_indices(self, id: str) -> set[int]:
        """Plan indices already recorded: resume plays the rest."""
        rows = self._rows("SELECT plan_index FROM matches WHERE tournament_id = ?", (id,))
        return {row["plan_index"] for row in rows}

    # -- matches ----------------------------------------------------------------------------

    def record_match(
        self,
        match: dict[str, Any],
        seats: list[dict[str, Any]],
        replay_bytes: bytes | CompressedReplay,
        rating_changes: list[dict[str, Any]],
        ratings: list[dict[str, Any]],
    ) -> None:
        """Write a finished match, its seats, its gzipped replay, rating history and current
        ratings in one transaction, so a crash never leaves a half-recorded match."""
        match_row = _match_row(match, seats, replay_bytes)
        match_id = match_row["id"]
        seat_rows = [_child_row("seat", s, _SEAT_REQUIRED, _SEAT_OPTIONAL, match_id) for s in seats]
        log_rows = [
            {"match_id": match_id, "seat": row["seat"], "path": str(log)}
            for row in seat_rows
            if (log := row.pop("log")) is not None
        ]
        change_rows = [
            _child_row("rating change", c, _CHANGE_REQUIRED, _CHANGE_OPTIONAL, match_id)
            for c in rating_changes
        ]
        rating_rows = _rating_rows(ratings)
        with self._write(f"record match {match_id!r}") as db:
            _refuse_duplicate(db, match_row)
            _check_seat_versions(db, seat_rows)
            db.table("matches").insert(match_row)
            db.table("seats").insert_all(seat_rows)
            db.table("rating_history").insert_all(change_rows)
            db.table("seat_logs").insert_all(log_rows)
            db.table("ratings").upsert_all(rating_rows, pk=("pool", "version_id"))

    def matches(self, tournament_id: str | None = None) -> list[dict[str, Any]]:
        """Matches in record order (without replay bytes), optionally one tournament's."""
        where, params = (
            ("WHERE m.tournament_id = ?", (tournament_id,)) if tournament_id else ("", ())
        )
        return self._match_rows(where, params)

    def match(self, id: str) -> dict[str, Any] | None:
        rows = self._match_rows("WHERE m.id = ?", (id,))
        return rows[0] if rows else None

    def _match_rows(self, where: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        rows = self._rows(
            f"SELECT {_MATCH_COLUMNS} FROM matches m LEFT JOIN tournaments t ON t.id = m.tournament_id"
            f" {where} ORDER BY {_RECORD_ORDER}",
            params,
        )
        for row in rows:
            row["rules"] = json.loads(row.pop("rules_json"))
            out_order = row.pop("out_order_json")
            row["out_order"] = None if out_order is None else json.loads(out_order)
        return rows

    def replay(self, match_id: str) -> bytes:
        """The match's replay JSONL, decompressed."""
        row = self._one("SELECT replay FROM matches WHERE id = ?", (match_id,))
        if row is None:
            raise StoreError(f"no match {match_id!r}")
        try:
            return gzip.decompress(row["replay"])
        except (OSError, EOFError, zlib.error, TypeError) as exc:  # TypeError: not a blob
            raise DamagedReplayError(
                f"the stored replay of match {match_id!r} is damaged: {exc}"
            ) from None

    def seats_of(self, match_id: str) -> list[dict[str, Any]]:
        return self._rows("SELECT * FROM seats WHERE match_id = ? ORDER BY seat", (match_id,))

    def seat_logs(self, tournament_id: str) -> dict[tuple[str, int], str]:
        """{(match id, seat): the stderr log of that seat's bot process} in a tournament (seats
        that played in-process, or were recorded before logs were, have none)."""
        rows = self._rows(
            "SELECT l.match_id, l.seat, l.path FROM seat_logs l"
            " JOIN matches m ON m.id = l.match_id WHERE m.tournament_id = ?",
            (tournament_id,),
        )
        return {(row["match_id"], row["seat"]): row["path"] for row in rows}

    def faulted_seats(self, tournament_id: str) -> list[dict[str, Any]]:
        """Every seat of the tournament's matches that did not end OK, in plan order, with
        its match's ``plan_index`` and its bot process's stderr ``log`` (None if none)."""
        return self._rows(
            "SELECT s.*, m.plan_index, l.path AS log FROM seats s"
            " JOIN matches m ON m.id = s.match_id"
            " LEFT JOIN seat_logs l ON l.match_id = s.match_id AND l.seat = s.seat"
            " WHERE m.tournament_id = ? AND s.status <> 'OK' ORDER BY m.plan_index, s.seat",
            (tournament_id,),
        )

    def bot_seats(self, bot: str) -> list[dict[str, Any]]:
        """Every seat of every match ``bot`` sat in (its opponents' too), with the match's
        pool, tournament and times, in record order: one query for a bot's whole record."""
        return self._rows(
            "SELECT s.*, m.pool, m.tournament_id, m.plan_index, m.started_at, m.finished_at"
            " FROM seats s JOIN matches m ON m.id = s.match_id"
            " LEFT JOIN tournaments t ON t.id = m.tournament_id"
            " WHERE s.match_id IN (SELECT match_id FROM seats WHERE bot = ?)"
            f" ORDER BY {_RECORD_ORDER}, s.seat",
            (bot,),
        )

    def tournament_pools(self) -> dict[str, str]:
        """{tournament id: the rating pool of its recorded matches} (one pool per tournament;
        tournaments with nothing recorded yet are absent)."""
        rows = self._rows(
            "SELECT tournament_id, MIN(pool) AS pool FROM matches"
            " WHERE tournament_id IS NOT NULL GROUP BY tournament_id"
        )
        return {row["tournament_id"]: row["pool"] for row in rows}

    def matches_per_bot(self) -> dict[str, int]:
        """{bot: matches it sat in} (a bot sits once per match)."""
        rows = self._rows(
            "SELECT bot, COUNT(DISTINCT match_id) AS n FROM seats GROUP BY bot ORDER BY bot"
        )
        return {row["bot"]: int(row["n"]) for row in rows}

    def fault_counts(self, version_ids: Iterable[str] | None = None) -> dict[str, tuple[int, int]]:
        """{version id: (matches it sat in, matches where its seat ended other than OK)} for
        every version with recorded matches, or only ``version_ids``: one aggregate query
        (fault flags are read on every leaderboard, of databases with many thousand matches)."""
        where: str = ""
        params: tuple[str, ...] = ()
        if version_ids is not None:
            wanted = tuple(version_ids)
            where = f"WHERE version_id IN ({', '.join('?' * len(wanted))})" if wanted else "WHERE 0"
            params = wanted
        with _translated(self.path, "read"):
            rows = self.db.execute(
                "SELECT version_id, COUNT(DISTINCT match_id),"
                " COUNT(DISTINCT CASE WHEN status <> 'OK' THEN match_id END)"
                f" FROM seats {where} GROUP BY version_id",
                params,
            ).fetchall()
        return {str(vid): (int(matches), int(faulted)) for vid, matches, faulted in rows}

    def all_match_records(self) -> list[dict[str, Any]]:
        """Every match with its ``seats`` list, in (tournament created_at, plan_index) order —
        the order a ratings rebuild replays them in. Ad-hoc matches sort by their start time."""
        records = self._match_rows("", ())
        by_match: dict[str, list[dict[str, Any]]] = {}
        for seat in self._rows("SELECT * FROM seats ORDER BY match_id, seat"):
            by_match.setdefault(seat["match_id"], []).append(seat)
        for record in records:
            record["seats"] = by_match.get(record["id"], [])
        return records

    # -- ratings ----------------------------------------------------------------------------

    def ratings(self, pool: str | None = None) -> list[dict[str, Any]]:
        where, params = ("WHERE pool = ?", (pool,)) if pool is not None else ("", ())
        return self._rows(
            f"SELECT * FROM ratings {where} ORDER BY pool, mu DESC, version_id", params
        )

    def pools(self) -> list[str]:
        rows = self._rows("SELECT pool FROM matches UNION SELECT pool FROM ratings ORDER BY pool")
        return [row["pool"] for row in rows]

    def rating_history(self, version_id: str | None = None) -> list[dict[str, Any]]:
        """Rating changes in record order, optionally for one version."""
        where, params = ("WHERE h.version_id = ?", (version_id,)) if version_id else ("", ())
        return self._rows(
            "SELECT h.* FROM rating_history h JOIN matches m ON m.id = h.match_id"
            f" LEFT JOIN tournaments t ON t.id = m.tournament_id {where}"
            f" ORDER BY {_RECORD_ORDER}, h.version_id",
            params,
        )

    def replace_ratings(self, ratings: list[dict[str, Any]], history: list[dict[str, Any]]) -> None:
        """Install a full ratings rebuild (``arena ratings rebuild``) in one transaction.

        Current ratings are upserted and rating_history is cleared and rewritten from
        ``history``. This is the only place rows are replaced or removed, and only derived rows
        being recomputed from matches and seats; matches, seats and replays are never touched.
        A rebuild that lacks a current rating is refused, so no stale rating is left behind.
        """
        rating_rows = _rating_rows(ratings)
        history_rows = [
            _fields("rating change", h, ("match_id", *_CHANGE_REQUIRED), {}) for h in history
        ]
        with self._write("replace ratings") as db:
            current = {
                (r["pool"], r["version_id"])
                for r in db.query("SELECT pool, version_id FROM ratings")
            }
            missing = current - {(r["pool"], r["version_id"]) for r in rating_rows}
            if missing:
                raise StoreError(
                    f"the ratings rebuild lacks current ratings {sorted(missing)}; nothing was written"
                )
            db.execute("DELETE FROM rating_history")
            db.table("rating_history").insert_all(history_rows)
            db.table("ratings").upsert_all(rating_rows, pk=("pool", "version_id"))

    # -- leaderboard ------------------------------------------------------------------------

    def leaderboard_rows(self, pool: str, tournament_id: str | None = None) -> list[dict[str, Any]]:
        """Per version that played in ``pool`` (and in ``tournament_id`` if given): rating and
        match figures, best conservative rating (mu - 3 sigma) first, unrated last.

        Without a tournament, mu, sigma and games are the current pool rating. With one, they
        are the rating as it stood at the end of that tournament: each version's last
        ``mu_after``/``sigma_after`` among the tournament's matches (in plan order), and
        ``games`` its rated matches up to then. ``matches``, ``wins`` (place == 1),
        ``avg_place``, ``faults`` ({status: count} for statuses other than OK) and think times
        cover the selected matches. ``think_ms_p50`` is the median of per-match p50s (a typical
        decision); ``think_ms_p99_p95`` (also under its older name ``think_ms_p99``) is the
        nearest-rank 95th percentile of per-match p99s, so one freak match among many does not
        define the tail, while with fewer than 20 matches it is simply the worst p99 seen.
        """
        where = "WHERE m.pool = ?"
        params: tuple[str, ...] = (pool,)
        if tournament_id is not None:
            where, params = where + " AND m.tournament_id = ?", (pool, tournament_id)
        # Every seat of the pool: plain tuples, not dicts (a large pool has tens of thousands,
        # and building a dict per row was most of a leaderboard's time).
        with _translated(self.path, "read"):
            seats = self.db.execute(
                "SELECT s.version_id, s.place, s.status, s.think_ms_p50, s.think_ms_p99"
                f" FROM seats s JOIN matches m ON m.id = s.match_id {where}",
                params,
            ).fetchall()
        grouped: dict[str, list[_PlayedSeat]] = {}
        for seat in seats:
            grouped.setdefault(seat[0], []).append(seat)
        return self.leaderboard_of(pool, grouped, tournament_id)

    def pool_seats(self, pool: str, after: int = 0) -> tuple[list[_PlayedSeat], int]:
        """The seats of ``pool``'s matches recorded after match rowid ``after`` (what
        :meth:`leaderboard_of` takes), and the newest match rowid now: a reader that keeps the
        seats it has seen reads only the new ones."""
        with _translated(self.path, "read"):
            newest = self.db.execute("SELECT COALESCE(MAX(rowid), 0) FROM matches").fetchone()[0]
            seats = self.db.execute(
                "SELECT s.version_id, s.place, s.status, s.think_ms_p50, s.think_ms_p99"
                " FROM matches m JOIN seats s ON s.match_id = m.id"
                " WHERE m.rowid > ? AND m.rowid <= ? AND m.pool = ?",
                (after, newest, pool),
            ).fetchall()
        return seats, int(newest)

    def leaderboard_of(
        self,
        pool: str,
        grouped: Mapping[str, list[_PlayedSeat]],
        tournament_id: str | None = None,
    ) -> list[dict[str, Any]]:
        """:meth:`leaderboard_rows` from the seats already read, grouped by version."""
        info = {
            row["id"]: row
            for row in self._rows(
                "SELECT v.id, v.bot, v.label, r.mu, r.sigma, r.games FROM versions v"
                " LEFT JOIN ratings r ON r.version_id = v.id AND r.pool = ?",
                (pool,),
            )
        }
        if tournament_id is not None:
            at_end = self._ratings_at_end(pool, tournament_id)
            info = {vid: {**row, **at_end.get(vid, _UNRATED)} for vid, row in info.items()}
        rows = [_leaderboard_row(info[vid], played) for vid, played in grouped.items()]
        rows.sort(key=_leaderboard_key)
        return rows

    def _ratings_at_end(self, pool: str, tournament_id: str) -> dict[str, dict[str, Any]]:
        """{version: mu, sigma, games} as they stood after the tournament's last rated match.

        The history is walked in record order (the order ratings are computed in), counting each
        version's rated games, and a version's figures are taken at its last change inside the
        tournament, so a later tournament's games do not leak into this one's table.
        """
        history = self._rows(
            "SELECT h.version_id, h.mu_after, h.sigma_after, m.tournament_id"
            " FROM rating_history h JOIN matches m ON m.id = h.match_id"
            " LEFT JOIN tournaments t ON t.id = m.tournament_id WHERE h.pool = ?"
            f" ORDER BY {_RECORD_ORDER}, h.version_id",
            (pool,),
        )
        games: dict[str, int] = {}
        at_end: dict[str, dict[str, Any]] = {}
        for change in history:
            vid = change["version_id"]
            games[vid] = games.get(vid, 0) + 1
            if change["tournament_id"] == tournament_id:
                at_end[vid] = {
                    "mu": change["mu_after"],
                    "sigma": change["sigma_after"],
                    "games": games[vid],
                }
        return at_end


_UNRATED: dict[str, Any] = {"mu": None, "sigma": None, "games": 0}


def live_status(row: dict[str, Any], now: datetime | None = None) -> str:
    """A tournament row's status as a person should read it.

    A ``running`` tournament is :data:`INTERRUPTED` when its scheduler cannot be running it
    any more: its process is gone (checked when it ran on this host), its heartbeat is older
    than :data:`STALE_HEARTBEAT_SECONDS`, or it never had one (an older arena ran it).
    """
    status = str(row["status"])
    if status != "running":
        return status
    beat = row.get("heartbeat_at")
    if beat is None:
        return INTERRUPTED
    try:
        age = ((now or datetime.now(UTC)) - datetime.fromisoformat(beat)).total_seconds()
    except (TypeError, ValueError):
        return INTERRUPTED
    if age > STALE_HEARTBEAT_SECONDS:
        return INTERRUPTED
    pid = row.get("runner_pid")
    if row.get("runner_host") == socket.gethostname() and pid is not None and not alive(pid):
        return INTERRUPTED
    return status


def _plan_row(tournament_id: str, entry: dict[str, Any]) -> dict[str, Any]:
    row = _fields("plan entry", entry, _PLAN_REQUIRED, _PLAN_OPTIONAL)
    row["seats_json"] = json.dumps(row.pop("seats"))
    return {"tournament_id": tournament_id, **row}


REPLAY_GZIP_LEVEL = 6
"""zlib's own default: about three times faster than level 9 for replays a few percent larger
(compressing is most of what recording a match costs the scheduler)."""


@dataclass(frozen=True, slots=True)
class CompressedReplay:
    """A replay already gzipped (by a worker, so the scheduler need not), as stored."""

    gzip: bytes

    def decompressed(self) -> bytes:
        """The replay's JSONL."""
        return gzip.decompress(self.gzip)


def compress_replay(replay_bytes: bytes) -> CompressedReplay:
    """A replay as the results database stores it (deterministic bytes: no timestamp)."""
    return CompressedReplay(
        gzip.compress(bytes(replay_bytes), compresslevel=REPLAY_GZIP_LEVEL, mtime=0)
    )


def _match_row(
    match: dict[str, Any], seats: list[dict[str, Any]], replay_bytes: bytes | CompressedReplay
) -> dict[str, Any]:
    """The matches row: rules as JSON, seat count checked against the seats, replay gzipped."""
    row = _fields("match", match, _MATCH_REQUIRED, _MATCH_OPTIONAL)
    if row["seat_count"] is not None and row["seat_count"] != len(seats):
        raise StoreError(
            f"match {row['id']!r}: seat_count {row['seat_count']} but {len(seats)} seats given"
        )
    if not isinstance(replay_bytes, bytes | bytearray | memoryview | CompressedReplay):
        raise StoreError(
            f"match {row['id']!r}: the replay must be bytes, not {type(replay_bytes).__name__}"
        )
    row["seat_count"] = len(seats)
    row["rules_json"] = json.dumps(row.pop("rules"), sort_keys=True)
    out_order = row.pop("out_order")
    row["out_order_json"] = None if out_order is None else json.dumps(list(out_order))
    if not isinstance(replay_bytes, CompressedReplay):
        replay_bytes = compress_replay(replay_bytes)
    row["replay"] = replay_bytes.gzip
    return row


def _child_row(
    kind: str,
    given: dict[str, Any],
    required: tuple[str, ...],
    optional: dict[str, Any],
    match_id: str,
) -> dict[str, Any]:
    """A row belonging to one match: its match_id is filled in, or must agree."""
    row = _fields(kind, given, required, optional)
    if row["match_id"] not in (None, match_id):
        raise StoreError(f"{kind} of match {match_id!r} names match {row['match_id']!r}")
    row["match_id"] = match_id
    return row


def _rating_rows(ratings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Current-rating rows, stamped now unless the caller gave updated_at."""
    now = _now()
    rows = [_fields("rating", r, _RATING_REQUIRED, _RATING_OPTIONAL) for r in ratings]
    for row in rows:
        row["updated_at"] = row["updated_at"] or now
    return rows


def _refuse_duplicate(db: Database, match: dict[str, Any]) -> None:
    """A planned match is recorded exactly once, and only if the plan has it."""
    if db.execute("SELECT 1 FROM matches WHERE id = ?", (match["id"],)).fetchone():
        raise DuplicateMatchError(f"match {match['id']!r} is already recorded; nothing was written")
    tournament, index = match["tournament_id"], match["plan_index"]
    if tournament is None:
        return
    key = (tournament, index)
    if db.execute(
        "SELECT 1 FROM matches WHERE tournament_id = ? AND plan_index = ?", key
    ).fetchone():
        raise DuplicateMatchError(
            f"tournament {tournament!r} already has a match for plan index {index}; nothing was written"
        )
    if not db.execute(
        "SELECT 1 FROM plan WHERE tournament_id = ? AND plan_index = ?", key
    ).fetchone():
        raise StoreError(
            f"tournament {tournament!r} has no plan entry {index}; nothing was written"
        )


def _check_seat_versions(db: Database, seats: list[dict[str, Any]]) -> None:
    """Name the unknown version instead of a bare foreign key failure."""
    for seat in seats:
        known = db.execute(
            "SELECT bot FROM versions WHERE id = ?", (seat["version_id"],)
        ).fetchone()
        if known is None or known[0] != seat["bot"]:
            raise StoreError(
                f"seat {seat['seat']}: no version {seat['version_id']!r} of bot {seat['bot']!r}"
                " (add_bot and add_version first); nothing was written"
            )


def _nearest_rank(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


_PlayedSeat = tuple[str, int, str, float | None, float | None]
"""A seat of a leaderboard: version id, place, status, think p50 and p99."""


def _leaderboard_row(info: dict[str, Any], played: list[_PlayedSeat]) -> dict[str, Any]:
    faults: dict[str, int] = {}
    for _, _, status, _, _ in played:
        if status != "OK":
            faults[status] = faults.get(status, 0) + 1
    p50s = [s[3] for s in played if s[3] is not None]
    p99s = [s[4] for s in played if s[4] is not None]
    tail = _nearest_rank(p99s, 0.95) if p99s else None
    return {
        "bot": info["bot"],
        "label": info["label"],
        "version_id": info["id"],
        "mu": info["mu"],
        "sigma": info["sigma"],
        "games": info["games"] or 0,
        "matches": len(played),
        "wins": sum(1 for s in played if s[1] == 1),
        "avg_place": statistics.fmean(s[1] for s in played),
        "faults": dict(sorted(faults.items())),
        "think_ms_p50": statistics.median(p50s) if p50s else None,
        "think_ms_p99_p95": tail,
        "think_ms_p99": tail,  # the older name of the same figure
    }


def _leaderboard_key(row: dict[str, Any]) -> tuple[bool, float, str, str]:
    rated = row["mu"] is not None
    score = row["mu"] - 3 * row["sigma"] if rated else 0.0
    return (not rated, -score, row["bot"], row["version_id"])
