"""One replay file in the browser (``arena replay view FILE``): the match page and its replay
viewer, with no results database (``arena match`` keeps its matches only as files).

The page's header and seats come from the file itself: the replay's header (game, rules,
seed, seats) and its ``result`` record (places, statuses, strikes, why it ended), think times
from the recorded decisions. The routes are those of a stored match's page, so the same
viewer script reads the same frames API.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from arena.errors import ArenaError, ReplayError
from arena.replays import files as replay
from arena.results.ratings import pool_key
from arena.web import frames
from arena.web.app import base_app
from arena.web.deps import not_found
from arena.web.routes.matches import Count, Start, frames_answer, render_match


@dataclass(frozen=True)
class FileMatch:
    """A replay file read once: its bytes (the viewer's frames) and the match page's header."""

    path: Path
    data: bytes
    detail: dict[str, Any]


def _think_times(records: list[dict[str, Any]]) -> dict[int, list[float]]:
    """Every seat's recorded think times in ms (one-seat decisions and joint answers)."""
    found: dict[int, list[float]] = {}
    for record in records:
        answers = record.get("answers") if record.get("type") == "joint" else [record]
        if record.get("type") not in ("decision", "joint") or not isinstance(answers, list):
            continue
        for answer in answers:
            if isinstance(answer.get("think_ms"), int | float):
                found.setdefault(int(answer["seat"]), []).append(float(answer["think_ms"]))
    return found


def _percentile(values: list[float], q: int) -> float | None:
    """The nearest-rank-style percentile the referee reports (None without values)."""
    if not values:
        return None
    if len(values) == 1:
        return round(values[0], 3)
    return round(statistics.quantiles(values, n=100, method="inclusive")[q - 1], 3)


def _seats(
    header: dict[str, Any], result: dict[str, Any], records: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The match page's seats: the header's bots with the result's places and statuses."""
    places = result.get("places_by_seat") or []
    statuses = result.get("statuses") or []
    strikes = result.get("strikes") or []
    think = _think_times(records)
    found: list[dict[str, Any]] = []
    for seat in header.get("seats", []):
        n = int(seat.get("seat", len(found)))
        found.append(
            {
                "seat": n,
                "bot": str(seat.get("bot")),
                "version_id": seat.get("version"),
                "place": places[n] if n < len(places) else None,
                "status": statuses[n] if n < len(statuses) else None,
                "strikes": strikes[n] if n < len(strikes) else None,
                "think_ms_p50": _percentile(think.get(n, []), 50),
                "think_ms_p99": _percentile(think.get(n, []), 99),
                "cpu_s": None,  # measured by the referee, not kept in a replay
            }
        )
    return found


def file_match(path: Path) -> FileMatch:
    """A replay file checked and re-played once (a file that is no replay, or cannot be
    re-played, is a one-line error now rather than on the page)."""
    header, records = replay.read(path)
    data = path.read_bytes()
    try:
        count = len(frames.replay_frames(data))
    except ArenaError as exc:
        raise ReplayError(f"{path}: {exc}") from None
    game = replay.game_from_header(header)
    result: dict[str, Any] = next((r for r in reversed(records) if r.get("type") == "result"), {})
    progress = result.get("progress") or {}
    finished = datetime.fromtimestamp(path.stat().st_mtime, UTC).isoformat(timespec="seconds")
    detail = {
        "id": str(header.get("match_id") or path.stem),
        "game": header["game"],
        "pool": pool_key(header["game"], game.rating_format()),
        "rules": {k: v for k, v in header["rules"].items() if k != "players"},
        "tournament_id": None,
        "tournament_name": None,
        "plan_index": None,
        "seed": header.get("seed"),
        "end_reason": result.get("end", "unfinished"),
        "rounds": result.get("rounds", progress.get("rounds")),
        "turns": result.get("turns", progress.get("turns")),
        "decisions": sum(1 for r in records if r.get("type") in ("decision", "joint")),
        "finished_at": finished,
        "seats": _seats(header, result, records),
        "frames": count,
        "replay_error": None,
        "replay_file": str(path),
    }
    return FileMatch(path, data, detail)


def create_replay_app(match: FileMatch) -> FastAPI:
    """The match page of one replay file at ``/matches/{id}`` (``/`` leads there), its header
    and frames under ``/api/matches/{id}``, and the API's documentation."""
    app = base_app(f"One replay file, {match.path.name}: its match page and frames.")
    app.state.replay_only = True
    router = APIRouter()
    shown_id = match.detail["id"]

    def known(match_id: str) -> None:
        if match_id != shown_id:
            raise not_found(f"no match {match_id!r}: this server shows only match {shown_id!r}")

    @router.get("/", include_in_schema=False)
    def front() -> Response:
        return RedirectResponse(f"/matches/{shown_id}")

    @router.get("/matches/{match_id}", response_class=HTMLResponse)
    def match_page(request: Request, match_id: str) -> HTMLResponse:
        """The match: its header, seats, plots and the replay viewer."""
        known(match_id)
        return render_match(request, match.detail, match.data)

    @router.get("/api/matches/{match_id}")
    def api_match(match_id: str) -> dict[str, Any]:
        """The match's header and seats (status, strikes, think times) and its frame count."""
        known(match_id)
        return match.detail

    @router.get("/api/matches/{match_id}/frames")
    def api_frames(match_id: str, start: Start = 0, count: Count = 200) -> dict[str, Any]:
        """Frames ``start`` to ``start + count`` of the replay viewer."""
        known(match_id)
        return frames_answer(match.data, start, count)

    app.include_router(router)
    return app
