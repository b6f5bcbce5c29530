"""What a tournament shows, any format: per rating pool each version's games, μ ± σ, whether
it has settled and the games it still needs; the match quality of the pairings played; the
pairwise score matrix with intervals and its non-transitive cycles; for a gauntlet each
challenger's score against each opponent; and the matches queued or playing and the latest
results. ``arena tournament show`` and the tournament page share it.

The store is read in three queries (every seat of the tournament with its rating change; the
latest matches; the first unrecorded plan entries) and everything else is one pass over the
seats, so a tournament of ten thousand matches reads in a fraction of a second. The maths is
in :mod:`.pairwise`, :mod:`.cycles`, :mod:`.quality` and :mod:`.settling`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.errors import ArenaError
from arena.results import cycles, pairwise, quality, settling
from arena.results.ratings import CONSERVATIVE_K, OK, ranks_from_result
from arena.results.store import Store, TournamentSeat

FORMATS = ("round-robin", "gauntlet", "ladder")
"""Tournament formats (``settings["format"]``; absent: round-robin)."""
RECENT = 10
"""How many of the latest results are shown."""
UP_NEXT_PER_WORKER = 2
"""A round-robin shows this many unrecorded plan entries per worker as up next / playing..."""
UP_NEXT_DEFAULT = 8
"""...or this many when its settings name no worker count."""
LIVE_LIMIT = 50
"""At most this many of a ladder's or gauntlet's queued or playing matches are listed."""


def tournament_format(settings: Mapping[str, Any]) -> str:
    """The tournament's format; settings made before there was a choice are round-robin."""
    return str(settings.get("format") or "round-robin")


@dataclass(slots=True)
class _Version:
    """One version's figures in one pool, gathered seat by seat."""

    games: int = 0
    mu: float | None = None
    sigma: float | None = None
    changes: list[settling.Change] = field(default_factory=list)


@dataclass(slots=True)
class _Match:
    """One recorded match as read from its seats."""

    plan_index: int
    match_id: str
    pool: str
    out_order: str | None
    versions: list[str] = field(default_factory=list)
    bots: list[str] = field(default_factory=list)
    places: list[int] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)
    before: list[tuple[float, float] | None] = field(default_factory=list)

    def ranks(self) -> list[int]:
        """The ratings' ranks: places, with forfeits never ahead of a seat still playing."""
        if all(status == OK for status in self.statuses):
            return [place - 1 for place in self.places]
        out = None if self.out_order is None else list(json.loads(self.out_order))
        try:
            return ranks_from_result(self.places, self.statuses, out)
        except ValueError:  # an out order that does not fit: judge by places alone
            return ranks_from_result(self.places, self.statuses)

    def quality(self) -> float | None:
        """The match quality of the seats' ratings before it (None if a seat had none)."""
        ratings = [r for r in self.before if r is not None]
        if len(ratings) != len(self.before) or len(ratings) < 2:
            return None
        return quality.match_quality(ratings)


def _matches(seats: Sequence[TournamentSeat]) -> list[_Match]:
    """The seats grouped by match, in plan order."""
    found: list[_Match] = []
    for (
        plan_index,
        match_id,
        pool,
        out_order,
        _seat,
        vid,
        bot,
        place,
        status,
        mu0,
        s0,
        _,
        _,
    ) in seats:
        if not found or found[-1].match_id != match_id:
            found.append(_Match(plan_index, match_id, pool, out_order))
        match = found[-1]
        match.versions.append(vid)
        match.bots.append(bot)
        match.places.append(place)
        match.statuses.append(status)
        match.before.append(None if mu0 is None or s0 is None else (mu0, s0))
    return found


def _versions(seats: Sequence[TournamentSeat]) -> dict[str, dict[str, _Version]]:
    """{pool: {version id: games, last μ and σ, σ history}} in one pass."""
    pools: dict[str, dict[str, _Version]] = {}
    for _, _, pool, _, _, vid, _, _, _, _, sigma_before, mu_after, sigma_after in seats:
        version = pools.setdefault(pool, {}).setdefault(vid, _Version())
        version.games += 1
        if mu_after is not None and sigma_before is not None and sigma_after is not None:
            version.mu, version.sigma = mu_after, sigma_after
            version.changes.append(settling.Change(sigma_before, sigma_after))
    return pools


def _names(
    entries: Mapping[str, Any], seats: Sequence[TournamentSeat]
) -> dict[str, dict[str, str]]:
    """{version id: bot, version label, name ("BOT LABEL")} from the entries, or the seats."""
    names = {
        vid: {"bot": str(e.get("name", vid)), "version": str(e.get("label", ""))}
        for vid, e in entries.items()
    }
    for seat in seats:
        names.setdefault(seat[5], {"bot": seat[6], "version": ""})
    for info in names.values():
        info["name"] = f"{info['bot']} {info['version']}".strip()
    return names


def _standings(
    versions: Mapping[str, _Version], names: Mapping[str, Mapping[str, str]]
) -> list[dict[str, Any]]:
    """One row per version of a pool, best μ − 3σ first (unrated last)."""
    rows: list[dict[str, Any]] = []
    for vid, v in versions.items():
        rated = v.mu is not None and v.sigma is not None
        rows.append(
            {
                "version_id": vid,
                **names[vid],
                "games": v.games,
                "mu": v.mu,
                "sigma": v.sigma,
                "mu_minus_3sigma": v.mu - CONSERVATIVE_K * v.sigma
                if v.mu is not None and v.sigma is not None
                else None,
                "settled": rated and v.sigma is not None and settling.is_settled(v.sigma),
                "games_needed": settling.games_needed(v.changes),
            }
        )
    rows.sort(
        key=lambda r: (
            r["mu_minus_3sigma"] is None,
            -(r["mu_minus_3sigma"] or 0.0),
            r["name"],
            r["version_id"],
        )
    )
    for rank, row in enumerate(rows, 1):
        row["rank"] = rank
    return rows


def _pool_view(
    pool: str,
    matches: Sequence[_Match],
    versions: Mapping[str, _Version],
    names: Mapping[str, Mapping[str, str]],
    qualities: Mapping[str, float | None],
) -> dict[str, Any]:
    standings = _standings(versions, names)
    order = [row["version_id"] for row in standings]
    cells = pairwise.matrix((m.versions, m.ranks()) for m in matches)
    position = {vid: i for i, vid in enumerate(order)}
    found = cycles.find_cycles(cells)
    played = [q for m in matches if (q := qualities[m.match_id]) is not None]
    return {
        "pool": pool,
        "matches": len(matches),
        "standings": standings,
        "quality": quality.summary(played),
        "pairwise": {
            "versions": order,
            "cells": [
                cell.to_dict()
                for _, cell in sorted(
                    cells.items(), key=lambda kv: (position[kv[0][0]], position[kv[0][1]])
                )
            ],
        },
        "cycles": [{"versions": list(c.versions), "significant": c.significant} for c in found],
        "cyclic_groups": cycles.cyclic_versions(cycles.beats_graph(cells.values())),
    }


def _gauntlet(
    challengers: Sequence[str], pools: Sequence[dict[str, Any]], names: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Per pool and challenger version: its score against each other version it met."""
    wanted = set(challengers)
    rows = []
    for view in pools:
        cells = {(c["a"], c["b"]): c for c in view["pairwise"]["cells"]}
        order = view["pairwise"]["versions"]
        for vid in order:
            if names[vid]["bot"] not in wanted:
                continue
            opponents = [
                {**names[other], "version_id": other, **cells[(vid, other)]}
                for other in order
                if names[other]["bot"] not in wanted and (vid, other) in cells
            ]
            rows.append(
                {"pool": view["pool"], "challenger": vid, **names[vid], "opponents": opponents}
            )
    return rows


def _seat_names(
    vids: Sequence[str], names: Mapping[str, Mapping[str, str]]
) -> list[dict[str, Any]]:
    return [
        {"version_id": vid, **names.get(vid, {"bot": vid, "version": "", "name": vid})}
        for vid in vids
    ]


def _live(
    store: Store, tournament: Mapping[str, Any], fmt: str, names: Mapping[str, Mapping[str, str]]
) -> dict[str, Any]:
    """The unrecorded plan entries: a round-robin's next few (its whole plan is stored up
    front), every one of a ladder's or gauntlet's (each decided, so queued or playing)."""
    if fmt == "round-robin":
        workers = int(tournament["settings"].get("workers") or 0)
        limit = UP_NEXT_PER_WORKER * workers if workers > 0 else UP_NEXT_DEFAULT
    else:
        limit = LIVE_LIMIT
    rows, total = store.unrecorded_plan(tournament["id"], limit)
    return {
        "running": tournament["status"] == "running",
        "unrecorded": total,
        "matches": [
            {
                "plan_index": r["plan_index"],
                "round": r["round"],
                "seats": _seat_names(r["seats"], names),
            }
            for r in rows
        ],
    }


def _recent(
    store: Store,
    tournament_id: str,
    by_id: Mapping[str, _Match],
    names: Mapping[str, Mapping[str, str]],
    qualities: Mapping[str, float | None],
) -> list[dict[str, Any]]:
    """The latest recorded matches, newest first, with each seat's place and status."""
    rows = []
    for found in store.latest_matches(tournament_id, RECENT):
        match = by_id.get(found["id"])
        if match is None:  # recorded after the seats were read
            continue
        seats = _seat_names(match.versions, names)
        for seat, place, status in zip(seats, match.places, match.statuses, strict=True):
            seat.update(place=place, status=status)
        rows.append(
            {
                "match_id": found["id"],
                "plan_index": found["plan_index"],
                "pool": found["pool"],
                "end": found["end_reason"],
                "turns": found["turns"],
                "finished_at": found["finished_at"],
                "quality": qualities[found["id"]],
                "seats": seats,
            }
        )
    return rows


def _ladder_entries(
    store: Store, tournament_id: str, names: Mapping[str, Mapping[str, str]]
) -> list[dict[str, Any]]:
    """A ladder's versions in the order they were entered: from which match each played
    (``joined_index``), until which (``left_index``), and its ``status``: ``waiting`` (asked
    for, the ladder has not decided since), ``active``, or why it left (``removed``,
    ``replaced`` by a new version, ``flagged`` for faults, ``disabled`` by the operator,
    ``cut`` in the finals)."""
    rows = []
    for row in store.ladder_entries(tournament_id):
        if row["left_index"] is not None:
            status = str(row["leave_reason"])
        elif row["joined_index"] is None:
            status = "waiting"
        else:
            status = "leaving" if row["leave_requested_at"] else "active"
        label = str(row["entry"].get("label", ""))
        known = names.get(row["version_id"])
        rows.append(
            {
                "version_id": row["version_id"],
                "bot": row["bot"],
                "name": known["name"] if known else f"{row['bot']} {label}".strip(),
                "joined_index": row["joined_index"],
                "left_index": row["left_index"],
                "status": status,
            }
        )
    return rows


def tournament_report(store: Store, tournament_id: str) -> dict[str, Any]:
    """The standings, quality, pairwise matrix, cycles, gauntlet scores, live matches and
    latest results of one tournament (keys documented in docs/tournaments.md)."""
    tournament = store.tournament(tournament_id)
    if tournament is None:
        raise ArenaError(f"no tournament {tournament_id!r}")
    settings = tournament["settings"]
    fmt = tournament_format(settings)
    seats = store.tournament_seats(tournament_id)
    names = _names(settings.get("entries", {}), seats)
    matches = _matches(seats)
    qualities = {m.match_id: m.quality() for m in matches}
    by_pool: dict[str, list[_Match]] = {}
    for match in matches:
        by_pool.setdefault(match.pool, []).append(match)
    versions = _versions(seats)
    pools = [
        _pool_view(pool, by_pool[pool], versions[pool], names, qualities)
        for pool in sorted(by_pool)
    ]
    challengers = [str(c) for c in settings.get("challengers", [])] if fmt == "gauntlet" else []
    return {
        "format": fmt,
        "settled_sigma": settling.SETTLED_SIGMA,
        "challengers": challengers,
        "pools": pools,
        "gauntlet": _gauntlet(challengers, pools, names),
        "live": _live(store, tournament, fmt, names),
        "entries": _ladder_entries(store, tournament_id, names) if fmt == "ladder" else [],
        "finals": settings.get("finals"),
        "recent": _recent(store, tournament_id, {m.match_id: m for m in matches}, names, qualities),
    }


def pairwise_report(report: Mapping[str, Any]) -> dict[str, Any]:
    """The matrix part of :func:`tournament_report`: per pool its versions (with names, in
    standings order), cells, cycles and cyclic groups, and the gauntlet's scores."""
    return {
        "format": report["format"],
        "pools": [
            {
                "pool": view["pool"],
                "versions": [
                    {k: row[k] for k in ("version_id", "bot", "version", "name", "rank")}
                    for row in view["standings"]
                ],
                "cells": view["pairwise"]["cells"],
                "cycles": view["cycles"],
                "cyclic_groups": view["cyclic_groups"],
            }
            for view in report["pools"]
        ],
        "gauntlet": report["gauntlet"],
    }
