"""Tournaments and their plans (tables ``tournaments`` and ``plan``), and whether a running
tournament's scheduler is still alive.

A tournament is written with its whole plan in one transaction, so a resume plays exactly that
plan; recorded matches are never re-seated.
"""

from __future__ import annotations

import json
import socket
from datetime import UTC, datetime
from typing import Any

from arena.games import DEFAULT_GAME
from arena.processes import alive
from arena.results.store.connect import StoreConnection
from arena.results.store.errors import StoreError
from arena.results.store.rows import checked_row, utc_now

TOURNAMENT_STATUSES = ("planned", "running", "stopped", "finished")
INTERRUPTED = "interrupted"
"""Shown instead of ``running`` when the tournament's scheduler is gone (never stored)."""
STALE_HEARTBEAT_SECONDS = 300.0
"""A running tournament whose scheduler has not written for this long is interrupted."""

_RECORDED = (
    "(SELECT COALESCE(MAX(m.plan_index) + 1, 0) FROM matches m WHERE m.tournament_id = t.id)"
)
"""A tournament's recorded matches: they are always a prefix of its plan (the scheduler
records in plan order), so their count is the highest index plus one, which the index on
(tournament, plan index) answers at once where a count would read a ladder's million rows."""

_PLAN_REQUIRED = ("plan_index", "round", "seed", "seats")
_PLAN_OPTIONAL: dict[str, Any] = {"rotation_group": None}


class Tournaments(StoreConnection):
    """Creating, claiming and moving tournaments along, and reading them with their plans."""

    def create_tournament(
        self,
        id: str,
        name: str,
        settings: dict[str, Any],
        seed: int,
        plan: list[dict[str, Any]],
        planned: int | None = None,
    ) -> None:
        """Write the tournament and its whole plan together, so resume plays exactly that plan
        (a ladder's plan grows as it runs: ``planned`` is then its match target, or 0)."""
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
                    "created_at": utc_now(),
                    "finished_at": None,
                    "planned": len(entries) if planned is None else planned,
                }
            )
            db.table("plan").insert_all(entries)

    def set_tournament_status(self, id: str, status: str) -> None:
        """Move a tournament along; ``finished`` also stamps finished_at."""
        if status not in TOURNAMENT_STATUSES:
            raise StoreError(
                f"unknown tournament status {status!r}; expected one of {list(TOURNAMENT_STATUSES)}"
            )
        finished_at = utc_now() if status == "finished" else None
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
                (pid, host, utc_now(), id),
            )
            if cursor.rowcount == 0:
                raise StoreError(f"no tournament {id!r}")

    def heartbeat(self, id: str) -> None:
        """Note that the tournament's scheduler is alive (see :func:`live_status`)."""
        with self._write(f"note the heartbeat of tournament {id!r}") as db:
            db.execute("UPDATE tournaments SET heartbeat_at = ? WHERE id = ?", (utc_now(), id))

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

    def set_tournament_settings(
        self, id: str, settings: dict[str, Any], planned: int | None = None
    ) -> None:
        """Store a tournament's settings anew (a resume on another executor says so; a
        ladder given a new match target also changes its ``planned`` count)."""
        with self._write(f"update the settings of tournament {id!r}") as db:
            db.execute(
                "UPDATE tournaments SET settings_json = ?, planned = COALESCE(?, planned)"
                " WHERE id = ?",
                (json.dumps(settings, sort_keys=True), planned, id),
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
            f"SELECT t.*, {_RECORDED} AS recorded"
            f" FROM tournaments t {where} ORDER BY t.created_at, t.rowid",
            params,
        )
        for row in rows:
            row["settings"] = json.loads(row.pop("settings_json"))
            row["stored_status"] = row["status"]
            row["status"] = live_status(row)
        return rows

    def progress(self, running: bool = False) -> list[dict[str, Any]]:
        """Every tournament's id, name, game, status, planned and recorded match counts (cheap:
        what a page polls to know when to refresh and how far a tournament has got); with
        ``running``, only the running ones (the others' matches are not counted)."""
        where = "WHERE t.status = 'running'" if running else ""
        rows = self._rows(
            "SELECT t.id, t.name, t.status, t.runner_pid, t.runner_host, t.heartbeat_at,"
            " t.planned, json_extract(t.settings_json, '$.game') AS game,"
            f" {_RECORDED} AS recorded"
            f" FROM tournaments t {where} ORDER BY t.created_at, t.rowid"
        )
        for row in rows:
            row["status"] = live_status(row)
            row["game"] = row["game"] or DEFAULT_GAME
            for key in ("runner_pid", "runner_host", "heartbeat_at"):
                del row[key]
        if running:
            rows = [row for row in rows if row["status"] == "running"]
        return rows

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
    row = checked_row("plan entry", entry, _PLAN_REQUIRED, _PLAN_OPTIONAL)
    row["seats_json"] = json.dumps(row.pop("seats"))
    return {"tournament_id": tournament_id, **row}
