"""A ladder's entries (table ``ladder_entries``) and the matches it decides as it goes.

``arena tournament add`` and ``remove`` only *ask* (a row without a ``joined_index``, or a
``leave_requested_at``); the ladder's scheduler answers at its next decision, writing the plan
index from which the change holds together with the matches it decides, in one transaction.
So a change is applied exactly once, at one index, and a resumed ladder reads where.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from arena.results.store.connect import StoreConnection
from arena.results.store.errors import StoreError
from arena.results.store.rows import utc_now


class Ladders(StoreConnection):
    """Entering and retiring a ladder's versions, and storing its decisions."""

    def ladder_entries(self, tournament_id: str) -> list[dict[str, Any]]:
        """Every version ever entered or asked to enter, in the order asked; ``entry`` and
        ``start`` (``{pool: [mu, sigma]}`` as it entered) decoded."""
        rows = self._rows(
            "SELECT * FROM ladder_entries WHERE tournament_id = ? ORDER BY rowid",
            (tournament_id,),
        )
        for row in rows:
            row["entry"] = json.loads(row.pop("entry_json"))
            start = row.pop("start_json")
            row["start"] = json.loads(start) if start is not None else None
        return rows

    def ask_to_enter(self, tournament_id: str, entry: Mapping[str, Any]) -> None:
        """Ask a ladder to enter a version at its next decision (refused if it is in already)."""
        version = entry["version_id"]
        with self._write(f"enter {entry['name']!r} in ladder {tournament_id!r}") as db:
            found = db.execute(
                "SELECT left_index, leave_requested_at FROM ladder_entries"
                " WHERE tournament_id = ? AND version_id = ?",
                (tournament_id, version),
            ).fetchone()
            if found is not None:
                raise StoreError(
                    f"version {version} of {entry['name']!r} was already entered in ladder "
                    f"{tournament_id}" + (" (and retired)" if found != (None, None) else "")
                )
            db.table("ladder_entries").insert(
                {
                    "tournament_id": tournament_id,
                    "version_id": version,
                    "bot": entry["name"],
                    "entry_json": json.dumps(entry, sort_keys=True),
                    "requested_at": utc_now(),
                }
            )

    def ask_to_leave(self, tournament_id: str, bot: str) -> list[str]:
        """Ask a ladder to retire every version of ``bot`` still in it; returns their ids."""
        with self._write(f"retire {bot!r} from ladder {tournament_id!r}") as db:
            rows = db.execute(
                "SELECT version_id FROM ladder_entries WHERE tournament_id = ? AND bot = ?"
                " AND left_index IS NULL AND leave_requested_at IS NULL",
                (tournament_id, bot),
            ).fetchall()
            db.execute(
                "UPDATE ladder_entries SET leave_requested_at = ? WHERE tournament_id = ?"
                " AND bot = ? AND left_index IS NULL AND leave_requested_at IS NULL",
                (utc_now(), tournament_id, bot),
            )
        return [row[0] for row in rows]

    def decide_ladder(
        self,
        tournament_id: str,
        plan: list[dict[str, Any]],
        joined: Mapping[str, tuple[int, Mapping[str, Any], dict[str, list[float]]]],
        left: Mapping[str, tuple[int, str]],
        settings: dict[str, Any],
    ) -> None:
        """Store decided matches and the entry changes they follow from, in one transaction.

        ``joined``: version -> (plan index, entry, start ratings); a version not asked for
        (a registered bot's new version) is inserted. ``left``: version -> (index, reason).
        """
        with self._write(f"store the next matches of ladder {tournament_id!r}") as db:
            now = utc_now()
            for version, (index, entry, start) in joined.items():
                entry_json = json.dumps(entry, sort_keys=True)
                start_json = json.dumps(start, sort_keys=True)
                cursor = db.execute(
                    "UPDATE ladder_entries SET joined_index = ?, start_json = ?, entry_json = ?"
                    " WHERE tournament_id = ? AND version_id = ? AND joined_index IS NULL",
                    (index, start_json, entry_json, tournament_id, version),
                )
                if cursor.rowcount == 0:
                    db.table("ladder_entries").insert(
                        {
                            "tournament_id": tournament_id,
                            "version_id": version,
                            "bot": entry["name"],
                            "entry_json": entry_json,
                            "requested_at": now,
                            "joined_index": index,
                            "start_json": start_json,
                        }
                    )
            for version, (index, reason) in left.items():
                cursor = db.execute(
                    "UPDATE ladder_entries SET left_index = ?, leave_reason = ?"
                    " WHERE tournament_id = ? AND version_id = ? AND left_index IS NULL",
                    (index, reason, tournament_id, version),
                )
                if cursor.rowcount != 1:
                    raise StoreError(f"ladder {tournament_id}: {version} is not an entry")
            db.table("plan").insert_all(
                {
                    "tournament_id": tournament_id,
                    "plan_index": p["plan_index"],
                    "round": p["round"],
                    "rotation_group": None,
                    "seed": p["seed"],
                    "seats_json": json.dumps(p["seats"]),
                }
                for p in plan
            )
            db.execute(
                "UPDATE tournaments SET settings_json = ?, planned = ? WHERE id = ?",
                (
                    json.dumps(settings, sort_keys=True),
                    _planned(settings, db, tournament_id),
                    tournament_id,
                ),
            )

    def ladder_results(self, tournament_id: str) -> list[tuple[int, str, str, float, float]]:
        """Every recorded rating change of the ladder: (plan index, pool, version, mu, sigma)
        after the match, in plan order."""
        return self._tuples(
            "SELECT m.plan_index, h.pool, h.version_id, h.mu_after, h.sigma_after"
            " FROM rating_history h JOIN matches m ON m.id = h.match_id"
            " WHERE m.tournament_id = ? ORDER BY m.plan_index",
            (tournament_id,),
        )

    def ladder_seat_statuses(self, tournament_id: str) -> list[tuple[int, str, str]]:
        """Every recorded seat of the ladder: (plan index, version, status), in plan order."""
        return self._tuples(
            "SELECT m.plan_index, s.version_id, s.status FROM seats s"
            " JOIN matches m ON m.id = s.match_id WHERE m.tournament_id = ?"
            " ORDER BY m.plan_index, s.seat",
            (tournament_id,),
        )


def _planned(settings: dict[str, Any], db: Any, tournament_id: str) -> int:
    """A ladder's planned count: its match target, or the matches decided so far without one."""
    target = int(settings.get("matches") or 0)
    if target:
        return target
    row = db.execute("SELECT COUNT(*) FROM plan WHERE tournament_id = ?", (tournament_id,))
    return int(row.fetchone()[0])
