"""Matches, their seats and replays (tables ``matches``, ``seats`` and ``seat_logs``),
recorded together with their rating changes in one transaction.

A planned match is recorded exactly once, and only if its tournament's plan has it; a replay is
stored compressed, by a worker so the scheduler need not: a compact replay deflated with its
game's preset dictionary (``arena.replays.compact.deflate``, which this layer does not read:
:meth:`Matches.replay` gives it as stored), or else gzipped (:func:`compress_replay`).
"""

from __future__ import annotations

import gzip
import json
import zlib
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from arena.results.store import totals
from arena.results.store.connect import StoreConnection
from arena.results.store.errors import DamagedReplayError, DuplicateMatchError, StoreError
from arena.results.store.ratings import CHANGE_OPTIONAL, CHANGE_REQUIRED, rating_rows
from arena.results.store.rows import RECORD_ORDER, checked_row

# Columns a caller gives for each kind of row: required names, and optional ones with defaults.
_MATCH_REQUIRED = (
    "id",
    "game",
    "pool",
    "rules",
    "seed",
    "end_reason",
    "turns",
    "rounds",
    "decisions",
    "started_at",
    "finished_at",
)
_MATCH_OPTIONAL: dict[str, Any] = {
    "tournament_id": None,
    "plan_index": None,
    "winner_seat": None,
    "seat_count": None,
    "out_order": None,
}
_SEAT_REQUIRED = ("seat", "version_id", "bot", "place", "status")
_SEAT_OPTIONAL: dict[str, Any] = {
    "match_id": None,
    "strikes": 0,
    "think_ms_p50": None,
    "think_ms_p99": None,
    "cpu_s": None,
    "log": None,
}
"""A seat's ``log`` (its bot process's stderr log, if it ran as one) goes to ``seat_logs``."""
_MATCH_COLUMNS = (
    "m.id, m.tournament_id, m.plan_index, m.game, m.pool, m.seat_count,"
    " COALESCE(r.rules_json, m.rules_json) AS rules_json,"
    " m.out_order_json, m.seed,"
    " m.end_reason, m.winner_seat, m.turns, m.rounds, m.decisions, m.started_at, m.finished_at"
)
_MATCH_RULES = "LEFT JOIN match_rules r ON r.id = m.rules_id"
"""What a query of :data:`_MATCH_COLUMNS` joins: a match's rules, stored once for all the
matches that share them (matches recorded before keep theirs in ``rules_json``)."""


REPLAY_GZIP_LEVEL = 6
"""zlib's own default: about three times faster than level 9 for replays a few percent larger
(compressing is most of what recording a match costs the scheduler)."""


_ZLIB_PRESET_DICTIONARY = 0x20
"""The FDICT bit of a zlib header's second byte."""


@dataclass(frozen=True, slots=True)
class CompressedReplay:
    """A replay already compressed (by a worker, so the scheduler need not), as stored: gzip,
    or a compact replay deflated with a preset dictionary."""

    data: bytes

    def decompressed(self) -> bytes:
        """The replay as :meth:`Matches.replay` gives it back."""
        return _stored_replay(self.data)


def compress_replay(replay_bytes: bytes) -> CompressedReplay:
    """A replay as the results database stores it (deterministic bytes: no timestamp)."""
    return CompressedReplay(
        gzip.compress(bytes(replay_bytes), compresslevel=REPLAY_GZIP_LEVEL, mtime=0)
    )


def _stored_replay(blob: bytes) -> bytes:
    """A stored replay with its gzip undone; a zlib stream deflated with a preset dictionary
    (a compact replay that ``arena.replays.compact.expand`` inflates) as it is."""
    if _deflated_with_dictionary(blob):
        return blob
    return gzip.decompress(blob)


def _deflated_with_dictionary(blob: bytes) -> bool:
    """Whether ``blob`` has a zlib header naming a preset dictionary (a gzip file starts
    with 0x1f 0x8b, which is none)."""
    return (
        len(blob) >= 6
        and blob[0] & 0x0F == zlib.DEFLATED
        and (blob[0] << 8 | blob[1]) % 31 == 0
        and bool(blob[1] & _ZLIB_PRESET_DICTIONARY)
    )


class Matches(StoreConnection):
    """Recording a finished match, and reading matches and their replays back."""

    def record_match(
        self,
        match: dict[str, Any],
        seats: list[dict[str, Any]],
        replay_bytes: bytes | CompressedReplay,
        rating_changes: list[dict[str, Any]],
        ratings: list[dict[str, Any]],
    ) -> None:
        """Write a finished match, its seats, its gzipped replay, rating history, current
        ratings and its pool's leaderboard totals in one transaction, so a crash never leaves
        a half-recorded match."""
        match_row = _match_row(match, seats, replay_bytes)
        match_id = match_row["id"]
        seat_rows = [_child_row("seat", s, _SEAT_REQUIRED, _SEAT_OPTIONAL, match_id) for s in seats]
        log_rows = [
            {"match_id": match_id, "seat": row["seat"], "path": str(log)}
            for row in seat_rows
            if (log := row.pop("log")) is not None
        ]
        change_rows = [
            _child_row("rating change", c, CHANGE_REQUIRED, CHANGE_OPTIONAL, match_id)
            for c in rating_changes
        ]
        current_rows = rating_rows(ratings)
        with self._write(f"record match {match_id!r}") as db:
            _refuse_duplicate(db, match_row)
            _check_seat_versions(db, seat_rows)
            match_row["rules_id"] = _rules_id(db, match_row.pop("rules_json"))
            match_row["rules_json"] = ""  # the rules are in match_rules
            db.table("matches").insert(match_row)
            db.table("seats").insert_all(seat_rows)
            db.table("rating_history").insert_all(change_rows)
            db.table("seat_logs").insert_all(log_rows)
            db.table("ratings").upsert_all(current_rows, pk=("pool", "version_id"))
            totals.add_match(db, match_row["pool"], seat_rows)

    def matches(self, tournament_id: str | None = None) -> list[dict[str, Any]]:
        """Matches in record order (without replay bytes), optionally one tournament's."""
        where, params = (
            ("WHERE m.tournament_id = ?", (tournament_id,)) if tournament_id else ("", ())
        )
        return self._match_rows(where, params)

    def match(self, id: str) -> dict[str, Any] | None:
        rows = self._match_rows("WHERE m.id = ?", (id,))
        return rows[0] if rows else None

    def _match_rows(self, where: str, params: tuple[Any, ...]) -> list[dict[str, Any]]:
        rows = self._rows(
            f"SELECT {_MATCH_COLUMNS} FROM matches m {_MATCH_RULES}"
            f" LEFT JOIN tournaments t ON t.id = m.tournament_id {where} ORDER BY {RECORD_ORDER}",
            params,
        )
        for row in rows:
            row["rules"] = json.loads(row.pop("rules_json"))
            out_order = row.pop("out_order_json")
            row["out_order"] = None if out_order is None else json.loads(out_order)
        return rows

    def replay(self, match_id: str) -> bytes:
        """The match's replay as stored, gzip undone: its JSONL, a compact replay, or a compact
        replay deflated with a preset dictionary (``arena.replays.compact.expand`` gives
        the JSONL of each)."""
        row = self._one("SELECT replay FROM matches WHERE id = ?", (match_id,))
        if row is None:
            raise StoreError(f"no match {match_id!r}")
        try:
            return _stored_replay(row["replay"])
        except (OSError, EOFError, zlib.error, TypeError) as exc:  # TypeError: not a blob
            raise DamagedReplayError(
                f"the stored replay of match {match_id!r} is damaged: {exc}"
            ) from None

    def all_match_records(self) -> list[dict[str, Any]]:
        """Every match with its ``seats`` list, in (tournament created_at, plan_index) order —
        the order a ratings rebuild replays them in. Ad-hoc matches sort by their start time."""
        records = self._match_rows("", ())
        by_match: dict[str, list[dict[str, Any]]] = {}
        for seat in self._rows("SELECT * FROM seats ORDER BY match_id, seat"):
            by_match.setdefault(seat["match_id"], []).append(seat)
        for record in records:
            record["seats"] = by_match.get(record["id"], [])
        return records

    def match_count(self) -> tuple[int, int]:
        """(matches recorded, the rowid of the newest one or 0), in index probes, not a scan:
        a tournament's matches are a prefix of its plan (highest index plus one), and only
        the ad-hoc matches are counted."""
        row = self._one(
            "SELECT (SELECT COUNT(*) FROM matches WHERE tournament_id IS NULL)"
            " + (SELECT COALESCE(SUM((SELECT COALESCE(MAX(m.plan_index) + 1, 0) FROM matches m"
            "    WHERE m.tournament_id = t.id)), 0) FROM tournaments t) AS n,"
            " (SELECT COALESCE(MAX(rowid), 0) FROM matches) AS newest"
        )
        assert row is not None
        return int(row["n"]), int(row["newest"])

    def tournament_pools(self) -> dict[str, str]:
        """{tournament id: the rating pool of its recorded matches} (one pool per tournament;
        tournaments with nothing recorded yet are absent)."""
        rows = self._rows(
            "SELECT tournament_id, MIN(pool) AS pool FROM matches"
            " WHERE tournament_id IS NOT NULL GROUP BY tournament_id"
        )
        return {row["tournament_id"]: row["pool"] for row in rows}


def _match_row(
    match: dict[str, Any], seats: list[dict[str, Any]], replay_bytes: bytes | CompressedReplay
) -> dict[str, Any]:
    """The matches row: rules as JSON, seat count checked against the seats, replay
    compressed."""
    row = checked_row("match", match, _MATCH_REQUIRED, _MATCH_OPTIONAL)
    if row["seat_count"] is not None and row["seat_count"] != len(seats):
        raise StoreError(
            f"match {row['id']!r}: seat_count {row['seat_count']} but {len(seats)} seats given"
        )
    if not isinstance(replay_bytes, bytes | bytearray | memoryview | CompressedReplay):
        raise StoreError(
            f"match {row['id']!r}: the replay must be bytes, not {type(replay_bytes).__name__}"
        )
    row["seat_count"] = len(seats)
    row["rules_json"] = json.dumps(row.pop("rules"), sort_keys=True)
    out_order = row.pop("out_order")
    row["out_order_json"] = None if out_order is None else json.dumps(list(out_order))
    if not isinstance(replay_bytes, CompressedReplay):
        replay_bytes = compress_replay(replay_bytes)
    row["replay"] = replay_bytes.data
    return row


def _rules_id(db: Database, rules_json: str) -> int:
    """The id of these rules in ``match_rules``, added the first time they are recorded."""
    db.execute("INSERT OR IGNORE INTO match_rules (rules_json) VALUES (?)", (rules_json,))
    found = db.execute("SELECT id FROM match_rules WHERE rules_json = ?", (rules_json,)).fetchone()
    return int(found[0])


def _child_row(
    kind: str,
    given: dict[str, Any],
    required: tuple[str, ...],
    optional: dict[str, Any],
    match_id: str,
) -> dict[str, Any]:
    """A row belonging to one match: its match_id is filled in, or must agree."""
    row = checked_row(kind, given, required, optional)
    if row["match_id"] not in (None, match_id):
        raise StoreError(f"{kind} of match {match_id!r} names match {row['match_id']!r}")
    row["match_id"] = match_id
    return row


def _refuse_duplicate(db: Database, match: dict[str, Any]) -> None:
    """A planned match is recorded exactly once, and only if the plan has it."""
    if db.execute("SELECT 1 FROM matches WHERE id = ?", (match["id"],)).fetchone():
        raise DuplicateMatchError(f"match {match['id']!r} is already recorded; nothing was written")
    tournament, index = match["tournament_id"], match["plan_index"]
    if tournament is None:
        return
    key = (tournament, index)
    if db.execute(
        "SELECT 1 FROM matches WHERE tournament_id = ? AND plan_index = ?", key
    ).fetchone():
        raise DuplicateMatchError(
            f"tournament {tournament!r} already has a match for plan index {index}; nothing was written"
        )
    if not db.execute(
        "SELECT 1 FROM plan WHERE tournament_id = ? AND plan_index = ?", key
    ).fetchone():
        raise StoreError(
            f"tournament {tournament!r} has no plan entry {index}; nothing was written"
        )


def _check_seat_versions(db: Database, seats: list[dict[str, Any]]) -> None:
    """Name the unknown version instead of a bare foreign key failure."""
    for seat in seats:
        known = db.execute(
            "SELECT bot FROM versions WHERE id = ?", (seat["version_id"],)
        ).fetchone()
        if known is None or known[0] != seat["bot"]:
            raise StoreError(
                f"seat {seat['seat']}: no version {seat['version_id']!r} of bot {seat['bot']!r}"
                " (add_bot and add_version first); nothing was written"
            )
