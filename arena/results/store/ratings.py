"""Current ratings per pool and version, and the history of every change (tables ``ratings``
and ``rating_history``).

Both are derived data, recomputable from matches and seats: :meth:`Ratings.replace_ratings` is
the one place that rewrites rows, and only to put a full recomputation in their place.
"""

from __future__ import annotations

from typing import Any

from arena.results.store import totals
from arena.results.store.connect import StoreConnection
from arena.results.store.errors import StoreError
from arena.results.store.rows import RECORD_ORDER, checked_row, utc_now

CHANGE_REQUIRED = ("pool", "version_id", "mu_before", "sigma_before", "mu_after", "sigma_after")
CHANGE_OPTIONAL: dict[str, Any] = {"match_id": None}
_RATING_REQUIRED = ("pool", "version_id", "mu", "sigma", "games")
_RATING_OPTIONAL: dict[str, Any] = {"updated_at": None}


class Ratings(StoreConnection):
    """Reading ratings and their history, and installing a full rebuild of both."""

    def ratings(self, pool: str | None = None) -> list[dict[str, Any]]:
        where, params = ("WHERE pool = ?", (pool,)) if pool is not None else ("", ())
        return self._rows(
            f"SELECT * FROM ratings {where} ORDER BY pool, mu DESC, version_id", params
        )

    def pools(self) -> list[str]:
        """Every pool with recorded matches or ratings (from the pools' totals: every recorded
        match counts its seats into them)."""
        rows = self._rows(
            "SELECT pool FROM pool_versions UNION SELECT pool FROM ratings ORDER BY pool"
        )
        return [row["pool"] for row in rows]

    def rating_history(self, version_id: str | None = None) -> list[dict[str, Any]]:
        """Rating changes in record order, optionally for one version."""
        where, params = ("WHERE h.version_id = ?", (version_id,)) if version_id else ("", ())
        return self._rows(
            "SELECT h.* FROM rating_history h JOIN matches m ON m.id = h.match_id"
            f" LEFT JOIN tournaments t ON t.id = m.tournament_id {where}"
            f" ORDER BY {RECORD_ORDER}, h.version_id",
            params,
        )

    def entry_ratings(self) -> dict[tuple[str, str], tuple[float, float]]:
        """{(pool, version): (mu, sigma)} before the version's first rated match in the pool:
        the prior, except for a ladder's new version, which entered with its predecessor's mu."""
        rows = self._tuples(
            "SELECT pool, version_id, mu_before, sigma_before FROM rating_history"
            " WHERE rowid IN (SELECT MIN(rowid) FROM rating_history GROUP BY pool, version_id)"
        )
        return {(pool, version): (mu, sigma) for pool, version, mu, sigma in rows}

    def replace_ratings(self, ratings: list[dict[str, Any]], history: list[dict[str, Any]]) -> None:
        """Install a full ratings rebuild (``arena ratings rebuild``) in one transaction.

        Current ratings are upserted and rating_history is cleared and rewritten from
        ``history``, and the leaderboard totals are recomputed from the seats
        (:func:`.totals.rebuild`). This is the only place rows are replaced or removed, and only
        derived rows being recomputed from matches and seats; matches, seats and replays are
        never touched.
        A rebuild that lacks a current rating is refused, so no stale rating is left behind.
        """
        current_rows = rating_rows(ratings)
        history_rows = [
            checked_row("rating change", h, ("match_id", *CHANGE_REQUIRED), {}) for h in history
        ]
        with self._write("replace ratings") as db:
            current = {
                (r["pool"], r["version_id"])
                for r in db.query("SELECT pool, version_id FROM ratings")
            }
            missing = current - {(r["pool"], r["version_id"]) for r in current_rows}
            if missing:
                raise StoreError(
                    f"the ratings rebuild lacks current ratings {sorted(missing)}; nothing was written"
                )
            db.execute("DELETE FROM rating_history")
            db.table("rating_history").insert_all(history_rows)
            db.table("ratings").upsert_all(current_rows, pk=("pool", "version_id"))
            totals.rebuild(db)
            totals.bump_revision(db)


def rating_rows(ratings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Current-rating rows, stamped now unless the caller gave updated_at."""
    now = utc_now()
    rows = [checked_row("rating", r, _RATING_REQUIRED, _RATING_OPTIONAL) for r in ratings]
    for row in rows:
        row["updated_at"] = row["updated_at"] or now
    return rows
