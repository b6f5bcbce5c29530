"""The seats of recorded matches as the reports read them: per match, per tournament's faults
and logs, per bot, and counted per version (tables ``seats`` and ``seat_logs``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from arena.results.store.connect import StoreConnection
from arena.results.store.rows import RECORD_ORDER


class Seats(StoreConnection):
    """Who sat where and how each seat ended, read back for reports and fault flags."""

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

    def seat_log(self, match_id: str, seat: int) -> str | None:
        """Where the bot process of one seat of a match logged its stderr, or None."""
        row = self._one(
            "SELECT path FROM seat_logs WHERE match_id = ? AND seat = ?", (match_id, seat)
        )
        return None if row is None else str(row["path"])

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
            f" ORDER BY {RECORD_ORDER}, s.seat",
            (bot,),
        )

    def matches_per_bot(self) -> dict[str, int]:
        """{bot: matches it sat in} (a bot sits once per match)."""
        rows = self._rows(
            "SELECT bot, COUNT(DISTINCT match_id) AS n FROM seats GROUP BY bot ORDER BY bot"
        )
        return {row["bot"]: int(row["n"]) for row in rows}

    def fault_counts(self, version_ids: Iterable[str] | None = None) -> dict[str, tuple[int, int]]:
        """{version id: (matches it sat in, matches where its seat ended other than OK)} for
        every version with recorded matches, or only ``version_ids``: summed over the pools'
        totals (:mod:`.totals`), so fault flags cost a row per version and pool, not a read of
        every seat."""
        where: str = ""
        params: tuple[str, ...] = ()
        if version_ids is not None:
            wanted = tuple(version_ids)
            where = f"WHERE version_id IN ({', '.join('?' * len(wanted))})" if wanted else "WHERE 0"
            params = wanted
        rows = self._tuples(
            "SELECT version_id, SUM(matches), SUM(faulted_matches)"
            f" FROM pool_versions {where} GROUP BY version_id",
            params,
        )
        return {str(vid): (int(matches), int(faulted)) for vid, matches, faulted in rows}
