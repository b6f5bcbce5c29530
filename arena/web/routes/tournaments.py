"""Tournament pages and their JSON API: every tournament, and one tournament's settings, plan,
progress and ETA, crosstable, faults and its matches a page at a time; its standings (μ ± σ,
settled, games still needed), match quality, pairwise matrix with intervals and cycles,
gauntlet scores, matches queued or playing and latest results (:mod:`arena.results.
tournament_report`), whose part of the page refreshes itself while the tournament runs."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse

from arena.results import reports
from arena.results.settling import MAX_ESTIMATE
from arena.results.store import Store
from arena.results.tournament_report import pairwise_report, tournament_report
from arena.web.deps import TEMPLATES, default_game, not_found, store

router = APIRouter()
StoreDep = Annotated[Store, Depends(store)]
PER_PAGE = 50
MAX_PAGE = 100_000
Page = Annotated[int, Query(ge=1, le=MAX_PAGE, description="1 is the first page")]


def _game(settings: dict[str, Any]) -> str:
    return str(settings.get("game") or default_game())


def tournament_list(db: Store) -> list[dict[str, Any]]:
    """Every tournament, oldest first: status, game, pool and progress."""
    pools = db.tournament_pools()
    return [
        {
            "id": t["id"],
            "name": t["name"],
            "status": t["status"],
            "game": _game(t["settings"]),
            "pool": pools.get(t["id"]),
            "bots": t["settings"].get("bots", []),
            "planned": t["planned"],
            "recorded": t["recorded"],
            "created_at": t["created_at"],
            "finished_at": t["finished_at"],
        }
        for t in db.tournaments()
    ]


def _known(db: Store, id: str) -> dict[str, Any]:
    tournament = db.tournament(id)
    if tournament is None:
        raise not_found(f"no tournament {id!r}")
    return tournament


def _when(stamp: str) -> datetime:
    moment = datetime.fromisoformat(stamp)
    return moment.replace(tzinfo=None)  # all stored times are UTC


def progress(tournament: dict[str, Any], matches: list[dict[str, Any]]) -> dict[str, Any]:
    """Matches recorded of planned and, while running, the time left at the pace so far
    (from the first recorded match's start to the last one's finish)."""
    first = min((m["started_at"] for m in matches), key=_when, default=None)
    last = max((m["finished_at"] for m in matches), key=_when, default=None)
    return paced(tournament, len(matches), first, last)


def paced(
    tournament: dict[str, Any], recorded: int, first: str | None, last: str | None
) -> dict[str, Any]:
    """:func:`progress` from the count of recorded matches, the first one's start and the
    last one's finish (:meth:`~arena.results.store.Store.match_span`)."""
    planned = tournament["planned"]
    done = {
        "planned": planned,
        "recorded": recorded,
        "percent": round(100 * recorded / planned, 1) if planned else 100.0,
        "seconds_per_match": None,
        "eta_seconds": None,
    }
    if recorded and first is not None and last is not None:
        span = (_when(last) - _when(first)).total_seconds()
        pace = max(span, 1.0) / recorded  # times have 1 s steps
        done["seconds_per_match"] = round(pace, 3)
        if tournament["status"] == "running":
            done["eta_seconds"] = round(pace * max(planned - recorded, 0))
    return done


def _plan(db: Store, tournament: dict[str, Any], matches: list[dict[str, Any]]) -> list[Any]:
    """The seat lineups per plan index, with the match that played each (if recorded)."""
    played = {m["plan_index"]: m["id"] for m in matches}
    entries = db.planned(tournament["id"])
    return [_plan_entry(tournament, e, played.get(e["plan_index"])) for e in entries]


def _plan_entry(tournament: dict[str, Any], entry: dict[str, Any], match: str | None) -> Any:
    entries = tournament["settings"].get("entries", {})
    return {
        "plan_index": entry["plan_index"],
        "round": entry["round"],
        "rotation_group": entry["rotation_group"],
        "seed": entry["seed"],
        "seats": [
            {
                "version_id": vid,
                "bot": entries.get(vid, {}).get("name", vid),
                "label": entries.get(vid, {}).get("label", ""),
            }
            for vid in entry["seats"]
        ],
        "match": match,
    }


def _page_detail(db: Store, id: str, page: int) -> dict[str, Any]:
    """:func:`tournament_detail` for the page: the plan only the page's share of it, the
    progress from one aggregate (a page of a ten-thousand-match tournament reads no more than
    it shows)."""
    tournament = _known(db, id)
    recorded, first, last = db.match_span(id)
    earliest = db.match_slice(id, 0, 1)
    pool = earliest[0]["pool"] if earliest else None
    share = db.plan_slice(id, (page - 1) * PER_PAGE, PER_PAGE)
    return {
        **{k: v for k, v in tournament.items() if k not in ("runner_pid", "runner_host")},
        "game": _game(tournament["settings"]),
        "pool": pool,
        "leaderboard": f"/pools/{pool}?tournament={id}" if pool else None,
        "progress": paced(tournament, recorded, first, last),
        "plan": [_plan_entry(tournament, e, e["match"]) for e in share],
    }


def crosstable(db: Store, id: str) -> dict[str, Any]:
    """:func:`arena.results.reports.crosstable` with each pair's score % (a level finish counts half)."""
    _known(db, id)
    table = reports.crosstable(db, id)
    for pair in table["pairs"]:
        games = pair["games"]
        pair["score_pct"] = round(100 * (pair["ahead"] + pair["level"] / 2) / games, 1)
    return table


def tournament_detail(db: Store, id: str) -> dict[str, Any]:
    """Everything the tournament page shows but the crosstable and the match list."""
    tournament = _known(db, id)
    matches = db.matches(id)
    pool = matches[0]["pool"] if matches else None
    return {
        **{k: v for k, v in tournament.items() if k not in ("runner_pid", "runner_host")},
        "game": _game(tournament["settings"]),
        "pool": pool,
        "leaderboard": f"/pools/{pool}?tournament={id}" if pool else None,
        "progress": progress(tournament, matches),
        "plan": _plan(db, tournament, matches),
    }


def standings(db: Store, id: str) -> dict[str, Any]:
    """:func:`arena.results.tournament_report.tournament_report` of a known tournament."""
    _known(db, id)
    return tournament_report(db, id)


def _shade(score: float) -> str:
    """A matrix cell's background: green above ½, red below, stronger further from ½."""
    strength = min(1.0, abs(score - 0.5) * 2)
    hue = 130 if score > 0.5 else 0
    return f"hsla({hue}, 60%, 45%, {0.08 + 0.5 * strength:.2f})"


def _live_context(db: Store, id: str) -> dict[str, Any]:
    """What the refreshing part of the tournament page shows."""
    detail = _known(db, id)
    report = standings(db, id)
    views = []
    for view in report["pools"]:
        names = {row["version_id"]: row["name"] for row in view["standings"]}
        on_cycle = {(a, b) for c in view["cycles"] for a, b in _ring_edges(c["versions"])}
        cells = {
            (c["a"], c["b"]): {
                **c,
                "shade": _shade(c["score"]),
                "on_cycle": (c["a"], c["b"]) in on_cycle,
            }
            for c in view["pairwise"]["cells"]
        }
        views.append({**view, "names": names, "cells": cells})
    recorded, first, last = db.match_span(id)
    return {
        "t": {**detail, "progress": paced(detail, recorded, first, last)},
        "report": report,
        "views": views,
        "cap": MAX_ESTIMATE,
    }


def _ring_edges(versions: list[str]) -> list[tuple[str, str]]:
    return [(versions[i], versions[(i + 1) % len(versions)]) for i in range(len(versions))]


def match_page(db: Store, id: str, page: int) -> dict[str, Any]:
    """One page of the tournament's matches (:func:`arena.results.reports.matches_table` rows), with
    the page count; a page past the last is empty and says so."""
    _known(db, id)
    total = db.match_span(id)[0]
    pages = max(1, math.ceil(total / PER_PAGE))
    found = [
        reports.match_row(match, match["seats"])
        for match in db.match_slice(id, (page - 1) * PER_PAGE, PER_PAGE)
    ]
    message = None
    if page > pages:
        message = f"page {page} is past the last page ({pages}): {total} matches recorded"
    return {
        "page": page,
        "pages": pages,
        "per_page": PER_PAGE,
        "total": total,
        "matches": found,
        "message": message,
    }


# -- pages ------------------------------------------------------------------------------------


@router.get("/tournaments", response_class=HTMLResponse)
def tournaments_page(request: Request, db: StoreDep) -> HTMLResponse:
    """Every tournament with its status, game and progress."""
    context = {"tournaments": tournament_list(db)}
    return TEMPLATES.TemplateResponse(request, "tournaments.html", context)


@router.get("/tournaments/{id}", response_class=HTMLResponse)
def tournament_page(request: Request, id: str, db: StoreDep, page: Page = 1) -> HTMLResponse:
    """One tournament: settings, plan, progress and ETA, crosstable, faults, matches paged."""
    detail = _page_detail(db, id, page)
    table = crosstable(db, id)
    context = {
        **_live_context(db, id),
        "t": detail,
        "table": table,
        "cells": {(p["a"], p["b"]): p for p in table["pairs"]},
        "statuses": sorted({s for by in table["faults"].values() for s in by}),
        "listing": match_page(db, id, page),
        "plan": detail["plan"],  # the page's share
    }
    return TEMPLATES.TemplateResponse(request, "tournament.html", context)


@router.get("/fragments/tournaments/{id}/live", response_class=HTMLResponse)
def tournament_live_fragment(request: Request, id: str, db: StoreDep) -> HTMLResponse:
    """The tournament page's live part alone (progress, matches queued or playing, latest
    results, standings, quality, pairwise matrix, cycles, gauntlet), for the page to swap in
    when the tournament records a match."""
    return TEMPLATES.TemplateResponse(request, "_tournament_live.html", _live_context(db, id))


# -- JSON API ---------------------------------------------------------------------------------


@router.get("/api/tournaments")
def api_tournaments(db: StoreDep) -> list[dict[str, Any]]:
    """Every tournament, oldest first: status, game, pool, planned and recorded matches."""
    return tournament_list(db)


@router.get("/api/tournaments/{id}")
def api_tournament(id: str, db: StoreDep) -> dict[str, Any]:
    """One tournament: settings, plan (seat lineups per plan index), progress and ETA, and
    its pool leaderboard's address."""
    return tournament_detail(db, id)


@router.get("/api/tournaments/{id}/crosstable")
def api_crosstable(id: str, db: StoreDep) -> dict[str, Any]:
    """Pairwise results (ahead, behind, level, games, score %) and faults by bot and status."""
    return crosstable(db, id)


@router.get("/api/tournaments/{id}/matches")
def api_matches(id: str, db: StoreDep, page: Page = 1) -> dict[str, Any]:
    """The tournament's matches, 50 a page, oldest first."""
    return match_page(db, id, page)


@router.get("/api/tournaments/{id}/standings")
def api_standings(id: str, db: StoreDep) -> dict[str, Any]:
    """Per pool each version's games, μ ± σ, settled and games still needed, the match
    quality, the pairwise matrix with 95 % intervals and its cycles; the gauntlet's scores,
    the matches queued or playing and the latest results (the keys `tournament show --json`
    adds)."""
    return standings(db, id)


@router.get("/api/tournaments/{id}/pairwise")
def api_pairwise(id: str, db: StoreDep) -> dict[str, Any]:
    """Per pool the versions in standings order, every ordered pair's score with its 95 %
    interval, the non-transitive cycles; and the gauntlet's scores."""
    return pairwise_report(standings(db, id))
