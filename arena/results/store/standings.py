"""What a tournament's standings read: every seat of its matches with the rating change it
brought, in one query, its latest matches, and the plan entries not recorded yet (queued or
playing)."""

from __future__ import annotations

import json
from typing import Any

from arena.results.store.connect import StoreConnection
from arena.results.store.matches import _MATCH_COLUMNS as MATCH_COLUMNS
from arena.results.store.matches import _MATCH_RULES as MATCH_RULES

TournamentSeat = tuple[
    int,
    str,
    str,
    str | None,
    int,
    str,
    str,
    int,
    str,
    float | None,
    float | None,
    float | None,
    float | None,
]
"""plan index, match id, pool, out order (JSON), seat, version id, bot, place, status,
mu before, sigma before, mu after, sigma after (None: a seat with no rating change)."""


class Standings(StoreConnection):
    """The reads behind a tournament's standings, pairwise matrix and live matches."""

    def tournament_seats(self, tournament_id: str) -> list[TournamentSeat]:
        """Every seat of the tournament's recorded matches, in plan order and seat order, as
        plain tuples (a ladder of many thousand matches has tens of thousands)."""
        return self._tuples(
            "SELECT m.plan_index, m.id, m.pool, m.out_order_json, s.seat, s.version_id, s.bot,"
            " s.place, s.status, h.mu_before, h.sigma_before, h.mu_after, h.sigma_after"
            " FROM matches m JOIN seats s ON s.match_id = m.id"
            " LEFT JOIN rating_history h ON h.match_id = m.id AND h.version_id = s.version_id"
            " WHERE m.tournament_id = ? ORDER BY m.plan_index, s.seat",
            (tournament_id,),
        )

    def latest_matches(self, tournament_id: str, limit: int) -> list[dict[str, Any]]:
        """The tournament's last ``limit`` recorded matches, newest first: id, plan index,
        pool, end, turns, finish time."""
        return self._rows(
            "SELECT id, plan_index, pool, end_reason, turns, finished_at FROM matches"
            " WHERE tournament_id = ? ORDER BY rowid DESC LIMIT ?",
            (tournament_id, limit),
        )

    def unrecorded_plan(self, tournament_id: str, limit: int) -> tuple[list[dict[str, Any]], int]:
        """The first ``limit`` plan entries with no recorded match (in plan order, ``seats``
        decoded), and how many there are in all."""
        unrecorded = (
            "FROM plan p WHERE p.tournament_id = ? AND NOT EXISTS (SELECT 1 FROM matches m"
            " WHERE m.tournament_id = p.tournament_id AND m.plan_index = p.plan_index)"
        )
        rows = self._rows(
            f"SELECT p.plan_index, p.round, p.seed, p.seats_json {unrecorded}"
            " ORDER BY p.plan_index LIMIT ?",
            (tournament_id, limit),
        )
        for row in rows:
            row["seats"] = json.loads(row.pop("seats_json"))
        total = self._tuples(f"SELECT COUNT(*) {unrecorded}", (tournament_id,))[0][0]
        return rows, int(total)

    def match_span(self, tournament_id: str) -> tuple[int, str | None, str | None]:
        """(matches recorded, the first one's start, the last one's finish): a tournament's
        pace without reading its matches."""
        row = self._tuples(
            "SELECT COUNT(*), MIN(started_at), MAX(finished_at) FROM matches WHERE tournament_id = ?",
            (tournament_id,),
        )[0]
        return int(row[0]), row[1], row[2]

    def match_slice(self, tournament_id: str, offset: int, limit: int) -> list[dict[str, Any]]:
        """The tournament's matches from ``offset`` in plan order, at most ``limit`` of them,
        as :meth:`matches` gives them, each with its ``seats`` list."""
        rows = self._rows(
            f"SELECT {MATCH_COLUMNS} FROM matches m {MATCH_RULES} WHERE m.tournament_id = ?"
            " ORDER BY m.plan_index, m.started_at, m.rowid LIMIT ? OFFSET ?",
            (tournament_id, limit, offset),
        )
        ids = [row["id"] for row in rows]
        seats: dict[str, list[dict[str, Any]]] = {match_id: [] for match_id in ids}
        if ids:
            for seat in self._rows(
                f"SELECT * FROM seats WHERE match_id IN ({', '.join('?' * len(ids))})"
                " ORDER BY match_id, seat",
                tuple(ids),
            ):
                seats[seat["match_id"]].append(seat)
        for row in rows:
            row["rules"] = json.loads(row.pop("rules_json"))
            out_order = row.pop("out_order_json")
            row["out_order"] = None if out_order is None else json.loads(out_order)
            row["seats"] = seats[row["id"]]
        return rows

    def plan_slice(self, tournament_id: str, offset: int, limit: int) -> list[dict[str, Any]]:
        """Plan entries from ``offset`` in plan order, at most ``limit``, as :meth:`planned`
        gives them, each with the id of the ``match`` that played it (None: not yet)."""
        rows = self._rows(
            "SELECT p.plan_index, p.round, p.rotation_group, p.seed, p.seats_json, m.id AS match"
            " FROM plan p LEFT JOIN matches m"
            " ON m.tournament_id = p.tournament_id AND m.plan_index = p.plan_index"
            " WHERE p.tournament_id = ? ORDER BY p.plan_index LIMIT ? OFFSET ?",
            (tournament_id, limit, offset),
        )
        for row in rows:
            row["seats"] = json.loads(row.pop("seats_json"))
        return rows
