"""Connections to the results database: pragmas, opening, transactions, and the errors a
person can act on.

The scheduler is the single writer; readers (leaderboard, CLI, web) may run alongside it
because the file is in WAL mode. Every write is one ``BEGIN IMMEDIATE`` transaction
(:meth:`StoreConnection._write`), so a crash never leaves half of one behind. A file opened
for writing must first pass ``PRAGMA quick_check``; a file opened only to read is opened so
that a read-only file, folder or filesystem can still be read.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from arena.paths import results_home
from arena.results.store.errors import StoreBusyError, StoreError

DEFAULT_BUSY_TIMEOUT_MS = 5000
PAGE_SIZE = 8192
"""The page size of a new database (a file that exists keeps its own). A match's row with its
compact replay is about 2.5 KB: SQLite's default 4 KB pages hold one such row each, wasting
about a third of every page; 8 KB pages hold three."""


class StoreConnection:
    """One open results database and the plumbing every table group's methods share."""

    def __init__(self, db: Database, path: Path) -> None:
        self.db = db
        self.path = path

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self, doing: str) -> Iterator[Database]:
        """One transaction, all or nothing.

        ``BEGIN IMMEDIATE`` takes the write lock up front, so waiting for another writer happens
        here under the busy timeout instead of failing later on a lock upgrade.
        """
        with translated(self.path, doing):
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
        with translated(self.path, doing):
            return list(self.db.query(sql, params))

    def _one(self, sql: str, params: tuple[Any, ...] = ()) -> dict[str, Any] | None:
        rows = self._rows(sql, params)
        return rows[0] if rows else None

    def _tuples(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """Rows as plain tuples, for queries of many rows where a dict per row costs too much."""
        with translated(self.path, "read"):
            return self.db.execute(sql, params).fetchall()


def open_database(
    path: Path, *, busy_timeout_ms: int, migrations: Migrations, read_only: bool, create: bool
) -> Database:
    """The connection :func:`arena.results.store.open_store` wraps (which see)."""
    if (read_only or not create) and not path.exists():
        raise StoreError(f"no results database at {path}")
    if read_only:
        db = _open_read_only(path, busy_timeout_ms, migrations)
        if db is not None:
            return db
    existed = path.is_file() and path.stat().st_size > 0
    _check_folder(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(
            f"cannot create folder {path.parent} for the results database: {exc.strerror}"
        ) from None
    with translated(path, "open it"):
        db = _connect(path, busy_timeout_ms)
    try:
        if existed:
            _check_pages(db, path)
        with translated(path, "apply schema migrations"):
            migrations.apply(db)
    except BaseException:
        db.close()
        raise
    return db


def empty_database(path: Path, migrations: Migrations) -> Database:
    """An in-memory database with the current schema (see :func:`arena.results.store.empty_store`)."""
    db = Database(memory=True)
    with translated(path, "set up an empty database"):
        migrations.apply(db)
    return db


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
def translated(path: Path, doing: str) -> Iterator[None]:
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
        conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")  # only a new, empty file takes it
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
    with translated(path, "check it"):
        rows = [str(row[0]) for row in db.execute("PRAGMA quick_check(1)").fetchall()]
    if rows != ["ok"]:
        lines = [line for row in rows for line in row.splitlines() if not line.startswith("***")]
        raise StoreError(
            f"results database {path} is corrupt ({lines[0] if lines else 'quick_check failed'});"
            " it will not be written to: restore a backup, or move it aside to start a new one"
        )


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


def _open_read_only(path: Path, busy_timeout_ms: int, migrations: Migrations) -> Database | None:
    """A read-only connection, or None when its schema needs an upgrade that this
    process can write (the caller then opens it for writing)."""
    with translated(path, "open it"):
        db = _connect_read_only(path, busy_timeout_ms)
    try:
        with translated(path, "read its schema version"):
            pending = [m.name for m in migrations.pending(db)]
    except BaseException:
        db.close()
        raise
    if not pending:
        return db
    db.close()
    if _writable(path):
        return None
    raise StoreError(
        f"results database {path}: its schema is older than this arena (pending: "
        f"{', '.join(pending)}) and it is read-only: open it once with write access to upgrade it"
    )
