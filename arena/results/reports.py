"""Leaderboards and match lists: data as plain dicts, rendered as rich tables, JSON or CSV."""

from __future__ import annotations

import csv
import io
import json
import os
import sys
from collections.abc import Callable, Mapping
from typing import Any

from rich.console import Console, JustifyMethod
from rich.measure import Measurement
from rich.table import Table

from arena.errors import ArenaError
from arena.results.faults import DEFAULT_LIMIT, FaultLimit, FaultRecord, fault_records, flag_keys
from arena.results.ratings import pool_game
from arena.results.store import Store, TournamentSeat

STATUSES = ("TIMEOUT", "ILLEGAL", "CRASH", "DISCONNECT", "INIT_FAIL", "PROTOCOL")


TOURNAMENT_KEYS = (
    "id",
    "name",
    "status",
    "seed",
    "planned",
    "recorded",
    "created_at",
    "finished_at",
)
"""A tournament's fields in `tournament list` and `tournament show` (text, CSV and JSON)."""


def choose_pool(
    store: Store, pool: str | None, tournament_id: str | None, game: str | None = None
) -> str:
    """The pool a report is about: given, the tournament's, or the latest tournament's;
    with ``game``, only that game's pools (``GAME/FORMAT``) are chosen from."""

    def of_game(name: str) -> bool:
        return game is None or pool_game(name) == game

    pools = [p for p in store.pools() if of_game(p)]
    among = "" if game is None else f" of game {game!r}"
    if pool:
        if pool not in pools:
            known = ", ".join(pools) or "none yet"
            raise ArenaError(f"no ratings in pool {pool!r}{among}; pools{among}: {known}")
        return pool
    if tournament_id:
        matches = store.matches(tournament_id)
        if store.tournament(tournament_id) is None:
            raise ArenaError(f"no tournament {tournament_id!r}")
        if not matches:
            raise ArenaError(f"tournament {tournament_id!r} has no recorded matches yet")
        if not of_game(matches[0]["pool"]):
            raise ArenaError(
                f"tournament {tournament_id!r} plays {pool_game(matches[0]['pool'])!r}, "
                f"not {game!r}"
            )
        return str(matches[0]["pool"])
    tournaments = [t for t in store.tournaments() if t["recorded"]]
    for tournament in reversed(tournaments):
        latest = store.matches(tournament["id"])[0]["pool"]
        if of_game(latest):
            return str(latest)
    if not pools:
        if game is not None and store.pools():
            raise ArenaError(f"no results of game {game!r} yet; pools: {', '.join(store.pools())}")
        raise ArenaError("no results yet: run `arena demo` or `arena tournament run`")
    return pools[0]


def leaderboard(
    store: Store, pool: str, tournament_id: str | None = None, limit: FaultLimit = DEFAULT_LIMIT
) -> dict[str, Any]:
    """The ``arena leaderboard --json`` object.

    ``ratings_as_of`` says which ratings mu and sigma are: ``"now"`` (the pool's current
    ratings) or, for one tournament, ``"tournament_end"`` (as they stood after its last recorded
    match: its end once it is finished). Each row's ``flagged`` and ``fault_rate`` are over all
    the version's recorded matches (see :mod:`arena.results.faults`; ``fault_limit`` gives the rule).
    """
    rows = store.leaderboard_rows(pool, tournament_id)
    return board_of(pool, rows, tournament_id, fault_records(store, limit), limit)


def board_of(
    pool: str,
    found: list[dict[str, Any]],
    tournament_id: str | None = None,
    records: Mapping[str, FaultRecord] | None = None,
    limit: FaultLimit = DEFAULT_LIMIT,
) -> dict[str, Any]:
    """:func:`leaderboard`'s object from :meth:`Store.leaderboard_rows` output and the
    versions' fault records (:func:`arena.results.faults.fault_records`)."""
    rows = []
    for rank, row in enumerate(found, 1):
        mu, sigma = row["mu"], row["sigma"]
        rows.append(
            {
                "rank": rank,
                "bot": row["bot"],
                "version": row["label"],
                "version_id": row["version_id"],
                "mu": mu,
                "sigma": sigma,
                "mu_minus_3sigma": None if mu is None else mu - 3 * sigma,
                "games": row["matches"],
                "wins": row["wins"],
                "win_rate": row["wins"] / row["matches"] if row["matches"] else None,
                "avg_place": row["avg_place"],
                "faults": row["faults"],
                "think_ms_p50": row["think_ms_p50"],
                "think_ms_p99_p95": row["think_ms_p99_p95"],
                "think_ms_p99": row["think_ms_p99"],  # the older name of think_ms_p99_p95
                "cpu_s_per_match": row["cpu_s_per_match"],
                **flag_keys(records or {}, row["version_id"]),
            }
        )
    return {
        "pool": pool,
        "tournament": tournament_id,
        "ratings_as_of": "tournament_end" if tournament_id else "now",
        "fault_limit": limit.to_dict(),
        "rows": rows,
    }


def _console() -> Console:
    """Rich console; when piped, wide enough for the whole table unless ``COLUMNS`` says
    how wide the output may be."""
    if sys.stdout.isatty() or os.environ.get("COLUMNS", "").isdigit():
        return Console()
    return Console(width=160)


terminal_console = _console
"""The console the reports print to (what :func:`_console` says), for other report modules."""


def _num(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _faults_text(row: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(row["faults"].items())) or "-"


def _faults_total(row: dict[str, Any]) -> str:
    return str(sum(row["faults"].values())) if row["faults"] else "-"


FLAG = "⚑"
"""Beside a flagged version's bot name in the terminal (explained in the table's caption)."""


def _bot(row: dict[str, Any]) -> str:
    return f"{row['bot']} {FLAG}" if row.get("flagged") else str(row["bot"])


def _flag_note(board: dict[str, Any]) -> str | None:
    """The caption's words for the flag, when a row has one."""
    if not any(row.get("flagged") for row in board["rows"]):
        return None
    return f"{FLAG} flagged: {FaultLimit(**board.get('fault_limit', {})).describe()}"


def _version_full(row: dict[str, Any]) -> str:
    return f"{row['version']} ({row['version_id'][:8]})"


def _win(row: dict[str, Any]) -> str:
    return "-" if row["win_rate"] is None else f"{100 * row['win_rate']:.0f}"


def _think(row: dict[str, Any]) -> str:
    return f"{_num(row['think_ms_p50'])}/{_num(row['think_ms_p99_p95'])}"


def _cpu(row: dict[str, Any]) -> str:
    return _num(row.get("cpu_s_per_match"))


Cell = Callable[[dict[str, Any]], str]
Column = tuple[str, JustifyMethod, Cell]  # header, justification, cell text

_COLUMNS: dict[str, Column] = {
    "rank": ("#", "right", lambda r: str(r["rank"])),
    "bot": ("bot", "left", _bot),
    "version": ("version", "left", _version_full),
    "mu": ("μ", "right", lambda r: _num(r["mu"])),
    "sigma": ("σ", "right", lambda r: _num(r["sigma"])),
    "score": ("μ−3σ", "right", lambda r: _num(r["mu_minus_3sigma"])),
    "games": ("games", "right", lambda r: str(r["games"])),
    "wins": ("wins", "right", lambda r: str(r["wins"])),
    "win": ("win %", "right", _win),
    "place": ("avg place", "right", lambda r: _num(r["avg_place"])),
    "faults": ("faults", "left", _faults_text),
    "think": ("think ms", "right", _think),
    "cpu": ("cpu s", "right", _cpu),
}

_NARROWER: tuple[tuple[str, Cell | None], ...] = (
    ("cpu", None),
    ("think", None),
    ("version", lambda r: str(r["version"])),
    ("sigma", None),
    ("wins", None),
    ("faults", _faults_total),
    ("place", None),
    ("mu", None),
    ("version", None),
    ("faults", None),
    ("games", None),
)
"""How the table gives way to a narrow terminal, least important first: a column is dropped
(None) or shown shorter. Rank, bot, μ−3σ (the ranking) and win % always stay."""


def _leaderboard_table(board: dict[str, Any], columns: dict[str, Column]) -> Table:
    if board.get("tournament"):
        title = f"Leaderboard · {board['pool']} · tournament {board['tournament']}"
        title += " · ratings as they stood after its last recorded match"
    else:
        title = f"Leaderboard · {board['pool']} · current ratings"
    notes = ["ranked by μ−3σ"]
    if "think" in columns:
        notes.append("think ms: median of per-match p50 / 95th percentile of per-match p99")
    if "cpu" in columns:
        notes.append("cpu s: mean CPU seconds of its bot process per match (- in-process)")
    if "faults" in columns and columns["faults"][2] is _faults_total:
        notes.append("faults: forfeited seats")
    flag_note = _flag_note(board)
    if flag_note:
        notes.append(flag_note)
    table = Table(title=title, caption="; ".join(notes))
    for key, (header, justify, _cell) in columns.items():
        table.add_column(
            header,
            justify=justify,
            overflow="fold",  # never "…": a name too long for the screen wraps whole
            no_wrap=key != "bot",
        )
    for row in board["rows"]:
        table.add_row(*(cell(row) for _header, _justify, cell in columns.values()))
    return table


def render_leaderboard(board: dict[str, Any], console: Console | None = None) -> None:
    """Print the leaderboard as a table that fits the console: on a narrow one the less
    important columns are shortened or dropped (see :data:`_NARROWER`), never cut to "…"."""
    console = console or _console()
    columns = dict(_COLUMNS)
    table = _leaderboard_table(board, columns)
    unbounded = console.options.update_width(10**6)  # the width it wants, not what it gets
    for key, shorter in _NARROWER:
        if Measurement.get(console, unbounded, table).maximum <= console.width:
            break
        if shorter is None:
            columns.pop(key, None)
        elif key in columns:
            header, justify, _cell = columns[key]
            columns[key] = (header, justify, shorter)
        table = _leaderboard_table(board, columns)
    console.print(table)


def leaderboard_csv(board: dict[str, Any]) -> str:
    """The leaderboard as CSV (one column per fault status). ``think_ms_p99`` is kept for
    readers of older files; ``think_ms_p99_p95`` names the same figure for what it is."""
    out = io.StringIO()
    writer = csv.writer(out)
    head = [
        "rank",
        "bot",
        "version",
        "version_id",
        "mu",
        "sigma",
        "mu_minus_3sigma",
        "games",
        "wins",
        "avg_place",
        *(f"faults_{s}" for s in STATUSES),
        "think_ms_p50",
        "think_ms_p99",
        "think_ms_p99_p95",
        "flagged",
        "fault_rate",
    ]
    writer.writerow(head)
    for row in board["rows"]:
        writer.writerow(
            [
                row["rank"],
                row["bot"],
                row["version"],
                row["version_id"],
                row["mu"],
                row["sigma"],
                row["mu_minus_3sigma"],
                row["games"],
                row["wins"],
                row["avg_place"],
                *(row["faults"].get(s, 0) for s in STATUSES),
                row["think_ms_p50"],
                row["think_ms_p99"],
                row["think_ms_p99_p95"],
                row.get("flagged", False),
                row.get("fault_rate"),
            ]
        )
    return out.getvalue()


def matches_table(
    store: Store, tournament_id: str | None, game: str | None = None
) -> list[dict[str, Any]]:
    """Recorded matches with their seats, oldest first (with ``game``, that game's only)."""
    rows = []
    for match in store.matches(tournament_id):
        if game is not None and match["game"] != game:
            continue
        rows.append(match_row(match, store.seats_of(match["id"])))
    return rows


def match_row(match: dict[str, Any], seats: list[dict[str, Any]]) -> dict[str, Any]:
    """One row of :func:`matches_table` from a stored match and its seats."""
    return {
        "id": match["id"],
        "tournament": match["tournament_id"],
        "plan_index": match["plan_index"],
        "pool": match["pool"],
        "seed": match["seed"],
        "end": match["end_reason"],
        "winner": match["winner_seat"],
        "turns": match["turns"],
        "finished_at": match["finished_at"],
        "seats": [
            {"seat": s["seat"], "bot": s["bot"], "place": s["place"], "status": s["status"]}
            for s in seats
        ],
    }


def render_matches(rows: list[dict[str, Any]], console: Console | None = None) -> None:
    console = console or _console()
    table = Table(title=f"{len(rows)} matches")
    for name in ("match", "tournament", "#", "end", "turns", "seats (place, status)"):
        table.add_column(name)
    for row in rows:
        seats = "  ".join(
            f"{s['bot']}:{s['place']}" + ("" if s["status"] == "OK" else f" {s['status']}")
            for s in row["seats"]
        )
        table.add_row(
            row["id"],
            row["tournament"] or "-",
            "-" if row["plan_index"] is None else str(row["plan_index"]),
            row["end"],
            str(row["turns"]),
            seats,
        )
    console.print(table)


def to_json(data: Any) -> str:
    return json.dumps(data)


def matches_csv(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "id",
            "tournament",
            "plan_index",
            "pool",
            "seed",
            "end",
            "winner",
            "turns",
            "finished_at",
            "seats",
        ]
    )
    for r in rows:
        seats = ";".join(f"{s['seat']}:{s['bot']}:{s['place']}:{s['status']}" for s in r["seats"])
        writer.writerow(
            [
                r["id"],
                r["tournament"],
                r["plan_index"],
                r["pool"],
                r["seed"],
                r["end"],
                r["winner"],
                r["turns"],
                r["finished_at"],
                seats,
            ]
        )
    return out.getvalue()


def crosstable(
    store: Store, tournament_id: str, limit: FaultLimit = DEFAULT_LIMIT
) -> dict[str, Any]:
    """Pairwise results of a tournament (how often each bot finished ahead of each other bot,
    behind it, or level), its faults by bot and status, and each version's fault flag (over
    all its recorded matches, not only this tournament's)."""
    tournament = store.tournament(tournament_id)
    if tournament is None:
        raise ArenaError(f"no tournament {tournament_id!r}")
    entries = tournament["settings"].get("entries", {})
    names = {vid: f"{e['name']} {e['label']}" for vid, e in entries.items()}
    pairs: dict[tuple[str, str], list[int]] = {}
    faults: dict[str, dict[str, int]] = {}
    for seats in _seats_by_match(store.tournament_seats(tournament_id)):
        for version_id, bot, _place, status in seats:
            if status != "OK":
                by_status = faults.setdefault(names.get(version_id, bot), {})
                by_status[status] = by_status.get(status, 0) + 1
        for x_version, x_bot, x_place, _ in seats:
            for y_version, y_bot, y_place, _ in seats:
                if x_version == y_version:
                    continue
                a = names.get(x_version, x_bot)
                b = names.get(y_version, y_bot)
                tally = pairs.setdefault((a, b), [0, 0, 0])
                tally[0 if x_place < y_place else 1 if x_place > y_place else 2] += 1
    bots = sorted(names.values())
    return {
        "tournament": {k: tournament[k] for k in TOURNAMENT_KEYS}
        | {"executor": tournament["settings"].get("executor") or "local"},
        "bots": bots,
        "pairs": [
            {"a": a, "b": b, "ahead": t[0], "behind": t[1], "level": t[2], "games": sum(t)}
            for (a, b), t in sorted(pairs.items())
        ],
        "faults": faults,
        "fault_logs": fault_logs(store, tournament_id),
        "fault_limit": limit.to_dict(),
        "flags": _flags(store, entries, limit),
    }


def _seats_by_match(seats: list[TournamentSeat]) -> list[list[tuple[str, str, int, str]]]:
    """Each match's seats (version id, bot, place, status), in record order: one query for
    the whole tournament instead of one per match."""
    grouped: list[list[tuple[str, str, int, str]]] = []
    last = None
    for seat in seats:
        if seat[1] != last:
            grouped.append([])
            last = seat[1]
        grouped[-1].append((seat[5], seat[6], seat[7], seat[8]))
    return grouped


def fault_logs(store: Store, tournament_id: str) -> dict[str, list[dict[str, Any]]]:
    """Per bot (``NAME LABEL``, as in the crosstable), each seat of the tournament it did not
    finish OK, in plan order: match id, plan index, seat, status, and ``log``, the stderr log
    of its bot process (None: it played in-process, or has none), where the reason is."""
    tournament = store.tournament(tournament_id)
    entries = tournament["settings"].get("entries", {}) if tournament else {}
    names = {vid: f"{e['name']} {e['label']}" for vid, e in entries.items()}
    found: dict[str, list[dict[str, Any]]] = {}
    for seat in store.faulted_seats(tournament_id):
        found.setdefault(names.get(seat["version_id"], seat["bot"]), []).append(
            {
                "match_id": seat["match_id"],
                "plan_index": seat["plan_index"],
                "seat": seat["seat"],
                "status": seat["status"],
                "log": seat["log"],
            }
        )
    return found


def fault_log_line(bot: str, seats: list[dict[str, Any]]) -> str:
    """The log to read about a bot's faults: its last faulted seat's (and how many others)."""
    logs = list(dict.fromkeys(s["log"] for s in seats if s["log"]))
    if not logs:
        return f"{bot}: no stderr log recorded (a bot playing in-process has none)"
    last = next(s for s in reversed(seats) if s["log"])
    more = f" (and {len(logs) - 1} more: --json lists them)" if len(logs) > 1 else ""
    return f"{bot}: {last['status']} in match {last['plan_index']}, seat {last['seat']}: {last['log']}{more}"


def render_fault_logs(
    logs: dict[str, list[dict[str, Any]]], console: Console | None = None
) -> None:
    """A line per bot with faults: where its bot process's stderr log is."""
    console = console or _console()
    for bot, seats in sorted(logs.items()):
        console.print(f"fault log · {fault_log_line(bot, seats)}", markup=False, soft_wrap=True)


def _flags(
    store: Store, entries: Mapping[str, Mapping[str, Any]], limit: FaultLimit
) -> list[dict[str, Any]]:
    """Each entry's fault record, by bot name."""
    records = fault_records(store, limit, entries)
    return [
        {
            "bot": entries[vid]["name"],
            "version": entries[vid]["label"],
            "version_id": vid,
            **flag_keys(records, vid),
        }
        for vid in sorted(entries, key=lambda v: (entries[v]["name"], v))
    ]


def render_crosstable(table: dict[str, Any], console: Console | None = None) -> None:
    """Rows: a bot; columns: its opponents; cells: ahead-behind-level counts."""
    console = console or _console()
    info = table["tournament"]
    console.print(
        f"tournament {info['id']} · {info['name']} · {info['status']} · "
        f"{info['recorded']}/{info['planned']} matches · seed {info['seed']} · "
        f"executor {info.get('executor', 'local')}"
    )
    cells = {(p["a"], p["b"]): p for p in table["pairs"]}
    grid = Table(title="crosstable: row bot finished ahead–behind–level against column bot")
    grid.add_column("bot")
    for bot in table["bots"]:
        grid.add_column(bot, justify="center")
    for a in table["bots"]:
        row = [a]
        for b in table["bots"]:
            p = cells.get((a, b))
            row.append("·" if a == b or p is None else f"{p['ahead']}–{p['behind']}–{p['level']}")
        grid.add_row(*row)
    console.print(grid)
    if table["faults"]:
        for bot, by_status in sorted(table["faults"].items()):
            summary = ", ".join(f"{s} {n}" for s, n in sorted(by_status.items()))
            console.print(f"faults · {bot}: {summary}")
        render_fault_logs(table.get("fault_logs", {}), console)
    else:
        console.print("faults: none")
    flagged = [f for f in table.get("flags", []) if f["flagged"]]
    for flag in flagged:
        record = FaultRecord(flag["recorded_matches"], flag["faulted_matches"], True)
        console.print(
            f"{FLAG} flagged · {flag['bot']} {flag['version']} ({flag['version_id'][:8]}): "
            f"{record.summary()} over all its recorded matches",
            markup=False,
        )
    if flagged:
        console.print(f"{FLAG} flagged: {FaultLimit(**table['fault_limit']).describe()}")
    else:
        console.print("flagged: none")


def crosstable_csv(table: dict[str, Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["a", "b", "games", "ahead", "behind", "level"])
    for p in table["pairs"]:
        writer.writerow([p["a"], p["b"], p["games"], p["ahead"], p["behind"], p["level"]])
    return out.getvalue()
