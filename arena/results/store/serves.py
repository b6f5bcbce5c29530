"""Running ``arena serve`` processes and the tournaments handed to them (tables ``serves``
and ``serve_queue``; see :mod:`arena.remote`)."""

from __future__ import annotations

from typing import Any

from arena.results.store.connect import StoreConnection
from arena.results.store.rows import utc_now
from arena.results.store.tournaments import live_status


class Serves(StoreConnection):
    """A serve's life (start, heartbeat, stop) and its queue: handed, taken, finished,
    withdrawn."""

    def start_serve(self, id: str, pid: int, host: str, address: str) -> None:
        """Record a running ``arena serve`` (heartbeat now)."""
        with self._write("record the serve") as db:
            db.table("serves").insert(
                {
                    "id": id,
                    "pid": pid,
                    "host": host,
                    "address": address,
                    "started_at": utc_now(),
                    "heartbeat_at": utc_now(),
                    "stopped_at": None,
                }
            )

    def serve_heartbeat(self, id: str, stopped: bool = False) -> None:
        """Note that the serve is alive (or, with ``stopped``, that it ended)."""
        with self._write("note the serve's heartbeat") as db:
            db.execute(
                "UPDATE serves SET heartbeat_at = ?, stopped_at = ? WHERE id = ?",
                (utc_now(), utc_now() if stopped else None, id),
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
                (tournament_id, utc_now()),
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
                (serve_id, utc_now(), row[0]),
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
                (utc_now(), tournament_id),
            )
            return cursor.rowcount > 0

    def queued(self, tournament_id: str) -> dict[str, Any] | None:
        """The hand-over row of a tournament, or None."""
        return self._one("SELECT * FROM serve_queue WHERE tournament_id = ?", (tournament_id,))
