"""Leaderboards: per version of a pool (or of one tournament), its rating and what its seats
did, best conservative rating (mu - 3 sigma) first. A pool's board reads the pool's totals
(:mod:`.totals`); a tournament's reads the seats of its matches."""

from __future__ import annotations

import json
import math
import statistics
from typing import Any

from arena.results.store import totals
from arena.results.store.connect import StoreConnection
from arena.results.store.rows import RECORD_ORDER
from arena.results.store.totals import TOTALS_COLUMNS

PlayedSeat = tuple[str, int, str, float | None, float | None, float | None]
"""A seat of a leaderboard: version id, place, status, think p50 and p99, CPU seconds."""


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
        ``cpu_s_per_match`` is the mean CPU seconds its bot process used per match, over the
        matches that measured it (None when none did: in-process seats).

        A pool's board reads its per-version totals (:mod:`.totals`, kept by every recorded
        match): one row per version, however many matches the pool has. A tournament's board
        reads the seats of that tournament's matches.
        """
        if tournament_id is None:
            return self._pool_rows(pool)
        seats = self._tuples(
            "SELECT s.version_id, s.place, s.status, s.think_ms_p50, s.think_ms_p99, s.cpu_s"
            " FROM seats s JOIN matches m ON m.id = s.match_id"
            " WHERE m.pool = ? AND m.tournament_id = ?",
            (pool, tournament_id),
        )
        grouped: dict[str, list[PlayedSeat]] = {}
        for seat in seats:
            grouped.setdefault(seat[0], []).append(seat)
        at_end = self._ratings_at_end(pool, tournament_id)
        info = {
            row["id"]: {**row, **at_end.get(row["id"], _UNRATED)}
            for row in self._rows(
                "SELECT v.id, v.bot, v.label FROM versions v"
                f" WHERE v.id IN ({', '.join('?' * len(grouped))})",
                tuple(grouped),
            )
        }
        rows = [_leaderboard_row(info[vid], played) for vid, played in grouped.items()]
        rows.sort(key=_leaderboard_key)
        return rows

    def _pool_rows(self, pool: str) -> list[dict[str, Any]]:
        """The pool's board from its totals and current ratings."""
        found = self._rows(
            "SELECT v.id, v.bot, v.label, r.mu, r.sigma, r.games,"
            f" {', '.join('p.' + c for c in TOTALS_COLUMNS)}, c.cpu_s_sum, c.cpu_count"
            " FROM pool_versions p JOIN versions v ON v.id = p.version_id"
            " LEFT JOIN pool_cpu c ON c.pool_version = p.id"
            " LEFT JOIN ratings r ON r.pool = p.pool AND r.version_id = p.version_id"
            " WHERE p.pool = ?",
            (pool,),
        )
        rows = [_totals_row(row) for row in found]
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

    def rebuild_totals(self) -> None:
        """Recompute every pool's totals from the seats, in one transaction: for rows copied
        into the database in bulk, bypassing :meth:`record_match` (``arena ratings rebuild``
        recomputes them too)."""
        with self._write("rebuild the pool totals") as db:
            totals.rebuild(db)
            totals.bump_revision(db)

    def change_marks(self) -> tuple[int, ...]:
        """Marks that move whenever a leaderboard could change: the newest match, and the
        leaderboard revision (moved by every recorded match and every ratings rebuild). Both
        are single-row reads, however large the database."""
        row = self._one(
            "SELECT (SELECT COALESCE(MAX(rowid), 0) FROM matches) AS newest,"
            " (SELECT revision FROM leaderboard_revision WHERE id = 1) AS revision"
        )
        assert row is not None
        return (row["newest"], row["revision"] or 0)


_UNRATED: dict[str, Any] = {"mu": None, "sigma": None, "games": 0}


def _nearest_rank(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def _leaderboard_row(info: dict[str, Any], played: list[PlayedSeat]) -> dict[str, Any]:
    faults: dict[str, int] = {}
    for _, _, status, _, _, _ in played:
        if status != "OK":
            faults[status] = faults.get(status, 0) + 1
    p50s = [s[3] for s in played if s[3] is not None]
    p99s = [s[4] for s in played if s[4] is not None]
    tail = _nearest_rank(p99s, 0.95) if p99s else None
    cpu = [s[5] for s in played if s[5] is not None]
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
        "cpu_s_per_match": statistics.fmean(cpu) if cpu else None,
    }


def _totals_row(row: dict[str, Any]) -> dict[str, Any]:
    """A board row from a version's pool totals: the same keys and figures as
    :func:`_leaderboard_row` computes from the seats."""
    tail = row["think_ms_p99_p95"]
    return {
        "bot": row["bot"],
        "label": row["label"],
        "version_id": row["id"],
        "mu": row["mu"],
        "sigma": row["sigma"],
        "games": row["games"] or 0,
        "matches": row["seats"],
        "wins": row["wins"],
        "avg_place": row["place_sum"] / row["seats"],
        "faults": json.loads(row["faults_json"]),
        "think_ms_p50": row["think_ms_p50"],
        "think_ms_p99_p95": tail,
        "think_ms_p99": tail,  # the older name of the same figure
        "cpu_s_per_match": row["cpu_s_sum"] / row["cpu_count"] if row["cpu_count"] else None,
    }


def _leaderboard_key(row: dict[str, Any]) -> tuple[bool, float, str, str]:
    rated = row["mu"] is not None
    score = row["mu"] - 3 * row["sigma"] if rated else 0.0
    return (not rated, -score, row["bot"], row["version_id"])
