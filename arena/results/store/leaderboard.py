"""Leaderboards: per version of a pool (or of one tournament), its rating and what its seats
did, best conservative rating (mu - 3 sigma) first."""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping
from typing import Any

from arena.results.store.connect import StoreConnection
from arena.results.store.rows import RECORD_ORDER

PlayedSeat = tuple[str, int, str, float | None, float | None]
"""A seat of a leaderboard: version id, place, status, think p50 and p99."""


class Leaderboard(StoreConnection):
    """A pool's or a tournament's table, and the marks that say when it may have changed."""

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
        seats = self._tuples(
            "SELECT s.version_id, s.place, s.status, s.think_ms_p50, s.think_ms_p99"
            f" FROM seats s JOIN matches m ON m.id = s.match_id {where}",
            params,
        )
        grouped: dict[str, list[PlayedSeat]] = {}
        for seat in seats:
            grouped.setdefault(seat[0], []).append(seat)
        return self.leaderboard_of(pool, grouped, tournament_id)

    def pool_seats(self, pool: str, after: int = 0) -> tuple[list[PlayedSeat], int]:
        """The seats of ``pool``'s matches recorded after match rowid ``after`` (what
        :meth:`leaderboard_of` takes), and the newest match rowid now: a reader that keeps the
        seats it has seen reads only the new ones."""
        newest = self._tuples("SELECT COALESCE(MAX(rowid), 0) FROM matches")[0][0]
        seats = self._tuples(
            "SELECT s.version_id, s.place, s.status, s.think_ms_p50, s.think_ms_p99"
            " FROM matches m JOIN seats s ON s.match_id = m.id"
            " WHERE m.rowid > ? AND m.rowid <= ? AND m.pool = ?",
            (after, newest, pool),
        )
        return seats, int(newest)

    def leaderboard_of(
        self,
        pool: str,
        grouped: Mapping[str, list[PlayedSeat]],
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
            f" ORDER BY {RECORD_ORDER}, h.version_id",
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


_UNRATED: dict[str, Any] = {"mu": None, "sigma": None, "games": 0}


def _nearest_rank(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def _leaderboard_row(info: dict[str, Any], played: list[PlayedSeat]) -> dict[str, Any]:
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
