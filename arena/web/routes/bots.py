"""Bot pages and their JSON API: every bot, and one bot's record (ratings over time per pool,
places, faults, think times, recent matches, results against each opponent, versions).

All of it comes from one query of the bot's seats (:meth:`Store.bot_seats`), the rating
history of its versions and the pool leaderboards, so a bot page stays a handful of queries.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse

from arena.results.faults import DEFAULT_LIMIT, fault_records, flag_keys
from arena.results.store import Store
from arena.web import plots
from arena.web.deps import TEMPLATES, not_found, store

router = APIRouter()
StoreDep = Annotated[Store, Depends(store)]
RECENT = 20
AD_HOC = "ad hoc"


def bot_list(db: Store) -> list[dict[str, Any]]:
    """Every bot: name, language, version count, matches played and the pools it is rated in."""
    played = db.matches_per_bot()
    versions: dict[str, list[str]] = {}
    for version in db.versions():
        versions.setdefault(version["bot"], []).append(version["id"])
    owner = {vid: bot for bot, vids in versions.items() for vid in vids}
    pools: dict[str, set[str]] = {}
    for rating in db.ratings():
        pools.setdefault(owner.get(rating["version_id"], ""), set()).add(rating["pool"])
    return [
        {
            "name": bot["name"],
            "language": bot["language"],
            "description": bot["description"],
            "versions": len(versions.get(bot["name"], [])),
            "matches": played.get(bot["name"], 0),
            "pools": sorted(pools.get(bot["name"], set())),
        }
        for bot in db.bots()
    ]


def _known(db: Store, name: str) -> dict[str, Any]:
    found = [bot for bot in db.bots() if bot["name"] == name]
    if not found:
        raise not_found(f"no bot {name!r}")
    return found[0]


def _by_match(seats: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Seats grouped per match, keeping record order."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for seat in seats:
        grouped.setdefault(seat["match_id"], []).append(seat)
    return list(grouped.values())


def history(
    db: Store, name: str, matches: list[list[dict[str, Any]]] | None = None
) -> list[dict[str, Any]]:
    """The bot's rating changes in record order; ``n`` numbers them within each pool
    (``matches``: the bot's seats per match, if already read)."""
    _known(db, name)
    if matches is None:
        matches = _by_match(db.bot_seats(name))
    order = {match[0]["match_id"]: i for i, match in enumerate(matches)}
    labels = {v["id"]: v["label"] for v in db.versions(name)}
    changes = [c for vid in labels for c in db.rating_history(vid)]
    changes.sort(key=lambda c: (order.get(c["match_id"], len(order)), c["version_id"]))
    counts: dict[str, int] = {}
    points = []
    for change in changes:
        counts[change["pool"]] = counts.get(change["pool"], 0) + 1
        points.append(
            {
                "pool": change["pool"],
                "n": counts[change["pool"]],
                "match_id": change["match_id"],
                "version_id": change["version_id"],
                "label": labels[change["version_id"]],
                "mu": change["mu_after"],
                "sigma": change["sigma_after"],
                "mu_before": change["mu_before"],
                "sigma_before": change["sigma_before"],
            }
        )
    return points


def _score(ahead: int, level: int, games: int) -> float | None:
    return round(100 * (ahead + level / 2) / games, 1) if games else None


def _crosstable_row(name: str, matches: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Per pool and opponent: how often the bot finished ahead, behind or level, and its
    score % (a level finish counts half)."""
    tallies: dict[tuple[str, str], list[int]] = {}
    for seats in matches:
        for mine in (s for s in seats if s["bot"] == name):
            for other in (s for s in seats if s["bot"] != name):
                tally = tallies.setdefault((mine["pool"], other["bot"]), [0, 0, 0])
                diff = mine["place"] - other["place"]
                tally[0 if diff < 0 else 1 if diff > 0 else 2] += 1
    return [
        {
            "pool": pool,
            "opponent": opponent,
            "games": sum(t),
            "ahead": t[0],
            "behind": t[1],
            "level": t[2],
            "score_pct": _score(t[0], t[2], sum(t)),
        }
        for (pool, opponent), t in sorted(tallies.items())
    ]


def _faults(name: str, matches: list[list[dict[str, Any]]], db: Store) -> list[dict[str, Any]]:
    """Per tournament (in record order; ad-hoc matches together): the bot's matches and its
    seats' statuses other than OK."""
    names = {t["id"]: t["name"] for t in db.tournaments()}
    rows: dict[str, dict[str, Any]] = {}
    for seats in matches:
        key = seats[0]["tournament_id"] or AD_HOC
        row = rows.setdefault(
            key,
            {
                "tournament": seats[0]["tournament_id"],
                "name": names.get(key, AD_HOC),
                "matches": 0,
                "faults": {},
            },
        )
        row["matches"] += 1
        for seat in seats:
            if seat["bot"] == name and seat["status"] != "OK":
                row["faults"][seat["status"]] = row["faults"].get(seat["status"], 0) + 1
    return list(rows.values())


def _versions(db: Store, name: str, matches: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Each version with its matches, when it was seen and its fault flag (over all of its
    recorded matches: :mod:`arena.results.faults`)."""
    versions = db.versions(name)
    records = fault_records(db, DEFAULT_LIMIT, [v["id"] for v in versions])
    seen: dict[str, list[str]] = {}
    for seats in matches:
        for seat in seats:
            if seat["bot"] == name:
                seen.setdefault(seat["version_id"], []).append(seat["finished_at"])
    return [
        {
            "version_id": v["id"],
            "label": v["label"],
            "created_at": v["created_at"],
            "matches": len(seen.get(v["id"], [])),
            "first_seen": min(seen[v["id"]]) if v["id"] in seen else None,
            "last_seen": max(seen[v["id"]]) if v["id"] in seen else None,
            **flag_keys(records, v["id"]),
        }
        for v in versions
    ]


def _pools(db: Store, name: str, matches: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Per pool the bot played in: its versions' leaderboard rows (rating, think times) and
    how often it finished in each place."""
    found: dict[str, dict[str, Any]] = {}
    for seats in matches:
        pool = seats[0]["pool"]
        entry = found.setdefault(pool, {"pool": pool, "seat_count": 0, "places": {}})
        entry["seat_count"] = max(entry["seat_count"], len(seats))
        for seat in seats:
            if seat["bot"] == name:
                entry["places"][seat["place"]] = entry["places"].get(seat["place"], 0) + 1
    for pool, entry in found.items():
        entry["places"] = {
            str(place): entry["places"].get(place, 0)
            for place in range(1, max([entry["seat_count"], *entry["places"]]) + 1)
        }
        entry["rows"] = [row for row in db.leaderboard_rows(pool) if row["bot"] == name]
    return [found[pool] for pool in sorted(found)]


def _recent(name: str, matches: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    recent = []
    for seats in reversed(matches[-RECENT:]):
        mine = next(s for s in seats if s["bot"] == name)
        recent.append(
            {
                "id": mine["match_id"],
                "pool": mine["pool"],
                "tournament": mine["tournament_id"],
                "finished_at": mine["finished_at"],
                "seat": mine["seat"],
                "place": mine["place"],
                "status": mine["status"],
                "seats": [
                    {"seat": s["seat"], "bot": s["bot"], "place": s["place"], "status": s["status"]}
                    for s in seats
                ],
            }
        )
    return recent


def bot_detail(
    db: Store, name: str, matches: list[list[dict[str, Any]]] | None = None
) -> dict[str, Any]:
    """Everything the bot page shows but the plots, as the JSON API gives it."""
    bot = _known(db, name)
    if matches is None:
        matches = _by_match(db.bot_seats(name))
    return {
        "name": bot["name"],
        "language": bot["language"],
        "description": bot["description"],
        "added_at": bot["added_at"],
        "matches": len(matches),
        "versions": _versions(db, name, matches),
        "fault_limit": DEFAULT_LIMIT.to_dict(),
        "pools": _pools(db, name, matches),
        "crosstable": _crosstable_row(name, matches),
        "faults": _faults(name, matches, db),
        "recent": _recent(name, matches),
    }


# -- pages ------------------------------------------------------------------------------------


@router.get("/bots", response_class=HTMLResponse)
def bots_page(request: Request, db: StoreDep) -> HTMLResponse:
    """Every bot with its language, versions, matches and pools."""
    return TEMPLATES.TemplateResponse(request, "bots.html", {"bots": bot_list(db)})


@router.get("/bots/{name}", response_class=HTMLResponse)
def bot_page(request: Request, name: str, db: StoreDep) -> HTMLResponse:
    """One bot's record, with its rating history and place distribution drawn as SVG."""
    matches = _by_match(db.bot_seats(name))
    detail = bot_detail(db, name, matches)
    points = history(db, name, matches)
    for entry in detail["pools"]:
        mine = [p for p in points if p["pool"] == entry["pool"]]
        entry["history_svg"] = plots.rating_history(mine, f"{name}: rating in {entry['pool']}")
        entry["places_svg"] = plots.bars(
            list(entry["places"].items()), f"{name}: places in {entry['pool']}", "place", "matches"
        )
        entry["history_points"] = len(mine)
    statuses = sorted({s for row in detail["faults"] for s in row["faults"]})
    faults_svg = plots.stacked_bars(
        [(row["name"], row["faults"]) for row in detail["faults"]],
        statuses,
        f"{name}: faults per tournament",
        "tournament (oldest first)",
        "faulty seats",
    )
    context = {"bot": detail, "statuses": statuses, "faults_svg": faults_svg}
    return TEMPLATES.TemplateResponse(request, "bot.html", context)


# -- JSON API ---------------------------------------------------------------------------------


@router.get("/api/bots")
def api_bots(db: StoreDep) -> list[dict[str, Any]]:
    """Every bot: name, language, versions, matches, the pools it is rated in."""
    return bot_list(db)


@router.get("/api/bots/{name}")
def api_bot(name: str, db: StoreDep) -> dict[str, Any]:
    """One bot's record: versions, per-pool ratings and places, crosstable row, faults per
    tournament, recent matches."""
    return bot_detail(db, name)


@router.get("/api/bots/{name}/history")
def api_bot_history(name: str, db: StoreDep) -> list[dict[str, Any]]:
    """The bot's rating changes (μ and σ after each rated match), numbered per pool."""
    return history(db, name)
