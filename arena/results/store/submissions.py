"""Submissions: bots authors upload to a hosted arena (table ``submissions``), each through
its build and check, and the operator's switch that stops a version being entered
(``versions.disabled_at``)."""

from __future__ import annotations

import json
from typing import Any

from arena.results.store.connect import StoreConnection
from arena.results.store.errors import StoreError
from arena.results.store.rows import utc_now

SUBMISSION_STATUSES = ("received", "building", "checking", "accepted", "rejected")
"""A submission's statuses in order; the last two are final."""
UNFINISHED = ("received", "building", "checking")
"""Statuses of a submission whose build and check are still to do (or were cut short)."""


class Submissions(StoreConnection):
    """Recording uploads, moving them through their statuses, and what an author has used."""

    def add_submission(
        self, submission_id: str, author: str, archive_name: str, archive_bytes: int
    ) -> dict[str, Any]:
        """A new ``received`` submission of ``author``'s; returns its row."""
        now = utc_now()
        row = {
            "id": submission_id,
            "author": author,
            "status": "received",
            "reason": None,
            "archive_name": archive_name,
            "archive_bytes": archive_bytes,
            "stored_bytes": archive_bytes,
            "bot": None,
            "version_id": None,
            "games_json": None,
            "created_at": now,
            "updated_at": now,
            "finished_at": None,
        }
        with self._write(f"record submission {submission_id}") as db:
            db.table("submissions").insert(row)
        return _decoded(dict(row))

    def submission(self, submission_id: str) -> dict[str, Any] | None:
        """One submission (``games`` decoded), or None."""
        row = self._one("SELECT * FROM submissions WHERE id = ?", (submission_id,))
        return None if row is None else _decoded(row)

    def submissions(self, author: str | None = None, limit: int = 500) -> list[dict[str, Any]]:
        """Submissions, newest first: one author's, or everyone's."""
        if author is None:
            rows = self._rows(
                "SELECT * FROM submissions ORDER BY created_at DESC, id LIMIT ?", (limit,)
            )
        else:
            rows = self._rows(
                "SELECT * FROM submissions WHERE author = ? ORDER BY created_at DESC, id LIMIT ?",
                (author, limit),
            )
        return [_decoded(row) for row in rows]

    def unfinished_submissions(self) -> list[str]:
        """Ids of submissions not yet accepted or rejected, oldest first: the build queue (a
        build cut short by a crash is found here again and done from the start)."""
        marks = ",".join("?" * len(UNFINISHED))
        return [
            row[0]
            for row in self._tuples(
                f"SELECT id FROM submissions WHERE status IN ({marks}) ORDER BY created_at, id",
                UNFINISHED,
            )
        ]

    def set_submission(
        self,
        submission_id: str,
        status: str,
        *,
        reason: str | None = None,
        bot: str | None = None,
        version_id: str | None = None,
        games: list[str] | None = None,
        stored_bytes: int | None = None,
    ) -> None:
        """Move a submission to ``status``; the fields given are set, the others kept."""
        if status not in SUBMISSION_STATUSES:
            raise StoreError(f"unknown submission status {status!r}")
        now = utc_now()
        changes: dict[str, Any] = {"status": status, "updated_at": now}
        if status in ("accepted", "rejected"):
            changes["finished_at"] = now
        for key, value in (
            ("reason", reason),
            ("bot", bot),
            ("version_id", version_id),
            ("stored_bytes", stored_bytes),
        ):
            if value is not None:
                changes[key] = value
        if games is not None:
            changes["games_json"] = json.dumps(games)
        with self._write(f"update submission {submission_id}") as db:
            cursor = db.execute(
                f"UPDATE submissions SET {', '.join(f'{key} = ?' for key in changes)} WHERE id = ?",
                (*changes.values(), submission_id),
            )
            if cursor.rowcount == 0:
                raise StoreError(f"no submission {submission_id!r}")

    def requeue_submission(self, submission_id: str) -> None:
        """Put a submission back in the build queue, as if just received (its reason and
        finish cleared; the builder starts it from the archive)."""
        with self._write(f"requeue submission {submission_id}") as db:
            cursor = db.execute(
                "UPDATE submissions SET status = 'received', reason = NULL, finished_at = NULL,"
                " version_id = NULL, updated_at = ? WHERE id = ?",
                (utc_now(), submission_id),
            )
            if cursor.rowcount == 0:
                raise StoreError(f"no submission {submission_id!r}")

    def set_stored_bytes(self, submission_id: str, stored_bytes: int) -> None:
        """What a submission keeps on disk now (after its superseded folder was pruned)."""
        with self._write(f"update submission {submission_id}") as db:
            db.execute(
                "UPDATE submissions SET stored_bytes = ? WHERE id = ?",
                (stored_bytes, submission_id),
            )

    def version_in_use(self, version_id: str) -> bool:
        """Whether a version may still be played: an entry of an unfinished ladder that has
        not left it, or seated in a planned match not recorded yet."""
        entered = self._tuples(
            "SELECT 1 FROM ladder_entries JOIN tournaments ON tournaments.id = tournament_id"
            " WHERE version_id = ? AND left_index IS NULL AND tournaments.status != 'finished'"
            " LIMIT 1",
            (version_id,),
        )
        if entered:
            return True
        return bool(
            self._tuples(
                "SELECT 1 FROM plan WHERE instr(seats_json, ?) > 0 AND NOT EXISTS (SELECT 1"
                " FROM matches WHERE matches.tournament_id = plan.tournament_id"
                " AND matches.plan_index = plan.plan_index) LIMIT 1",
                (f'"{version_id}"',),
            )
        )

    def author_usage(self, author: str, since: str) -> tuple[int, int, str | None]:
        """What ``author`` has used: submissions made at or after ``since`` (an ISO time), the
        bytes all their submissions keep on disk, and the oldest of those recent submissions'
        times (when the next one may be made, for a ``Retry-After``)."""
        count, oldest = self._tuples(
            "SELECT COUNT(*), MIN(created_at) FROM submissions WHERE author = ? AND created_at >= ?",
            (author, since),
        )[0]
        stored = self._tuples(
            "SELECT COALESCE(SUM(stored_bytes), 0) FROM submissions WHERE author = ?", (author,)
        )[0][0]
        return int(count), int(stored), oldest

    def set_version_disabled(self, version_id: str, disabled: bool) -> None:
        """Stop one version being entered in ladders (the operator's switch), or allow it
        again; its recorded matches stay."""
        with self._write(f"disable version {version_id}") as db:
            cursor = db.execute(
                "UPDATE versions SET disabled_at = ? WHERE id = ?",
                (utc_now() if disabled else None, version_id),
            )
            if cursor.rowcount == 0:
                raise StoreError(f"no version {version_id!r}")

    def barred_versions(self) -> set[str]:
        """Versions that may not be entered: disabled ones, and every version of a bot whose
        author is disabled."""
        return {
            row[0]
            for row in self._tuples(
                "SELECT id FROM versions WHERE disabled_at IS NOT NULL UNION "
                "SELECT versions.id FROM versions JOIN author_bots ON author_bots.bot = versions.bot"
                " JOIN authors ON authors.name = author_bots.author"
                " WHERE authors.disabled_at IS NOT NULL"
            )
        }


def _decoded(row: dict[str, Any]) -> dict[str, Any]:
    raw = row.pop("games_json", None)
    row["games"] = json.loads(raw) if raw else []
    return row
