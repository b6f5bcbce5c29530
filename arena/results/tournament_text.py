"""A tournament's report (:mod:`.tournament_report`) in the terminal, readable at twenty
versions: names abbreviated, the matrix's columns numbered by standing, numbers aligned."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from arena.results import reports
from arena.results.settling import MAX_ESTIMATE

NAME_WIDTH = 22
"""Names longer than this are shortened to it (ending in "…") in tables."""
ARROW = " > "
MATRIX_NOTE = (
    "pairwise: the row version's score % against the column version (ahead 1, level ½, a"
    " forfeit a loss), its 95 % interval below; bold: the interval excludes 50"
)


def abbreviate(name: str, width: int = NAME_WIDTH) -> str:
    """``name`` cut to ``width`` characters, the last one "…" when cut."""
    return name if len(name) <= width else name[: width - 1] + "…"


def percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}"


def needed_text(needed: int | str | None, cap: int) -> str:
    """The games-needed column: "-" (no games yet), "0", "never", "12" or ">1000"."""
    if needed is None:
        return "-"
    if isinstance(needed, int) and needed > cap:
        return f">{cap}"
    return str(needed)


def interval_text(cell: Mapping[str, Any]) -> str:
    return f"{percent(cell['low'])}–{percent(cell['high'])}"


def _standings_table(view: Mapping[str, Any], settled_sigma: float, cap: int) -> Table:
    table = Table(
        title=f"standings · {view['pool']} · {view['matches']} matches",
        caption=f"settled: σ ≤ {settled_sigma:g}; needs: games still needed to settle (estimate)",
        box=box.SIMPLE_HEAD,
    )
    for header in ("#", "version", "games", "μ ± σ", "μ−3σ", "settled", "needs"):
        table.add_column(header, justify="left" if header == "version" else "right", no_wrap=True)
    for row in view["standings"]:
        rated = row["mu"] is not None
        table.add_row(
            str(row["rank"]),
            abbreviate(row["name"]),
            str(row["games"]),
            f"{row['mu']:.2f} ± {row['sigma']:.2f}" if rated else "-",
            f"{row['mu_minus_3sigma']:.2f}" if rated else "-",
            "✓" if row["settled"] else "",
            needed_text(row["games_needed"], cap),
        )
    return table


def quality_line(summary: Mapping[str, Any]) -> str:
    """``match quality · mean 0.43 (0.07–0.83) · by thirds: 0.44 → 0.43 → 0.42``."""
    if not summary["matches"]:
        return "match quality · no rated match yet"
    thirds = " → ".join(
        "-" if third["mean"] is None else f"{third['mean']:.2f}" for third in summary["thirds"]
    )
    return (
        f"match quality · mean {summary['mean']:.2f} ({summary['min']:.2f}–{summary['max']:.2f})"
        f" over {summary['matches']} matches · by thirds of the tournament: {thirds}"
    )


CELL_WIDTH = 6
"""A matrix cell's width: a score over its interval, at most ``99–100``."""


def _matrix_tables(view: Mapping[str, Any], width: int) -> list[Table]:
    """The matrix as tables of as many columns as fit ``width`` (twenty versions make two
    tables on a 160-column terminal rather than one whose cells are cut)."""
    rows = view["standings"]
    label = max(len(f"{r['rank']:>2} {abbreviate(r['name'])}") for r in rows)
    fits = max(1, (width - label - 4) // (CELL_WIDTH + 2))
    chunks = [rows[i : i + fits] for i in range(0, len(rows), fits)]
    if len(chunks) > 1:  # as many columns in each part, give or take one
        size = -(-len(rows) // len(chunks))
        chunks = [rows[i : i + size] for i in range(0, len(rows), size)]
    return [_matrix_table(view, rows, chunk, label, len(chunks) > 1) for chunk in chunks]


def _matrix_table(
    view: Mapping[str, Any],
    rows: Sequence[Mapping[str, Any]],
    columns: Sequence[Mapping[str, Any]],
    label: int,
    part: bool,
) -> Table:
    cells = {(c["a"], c["b"]): c for c in view["pairwise"]["cells"]}
    title = f"pairwise · {view['pool']}"
    if part:
        title += f" · against #{columns[0]['rank']}–#{columns[-1]['rank']}"
    table = Table(title=title, box=box.SIMPLE_HEAD, padding=(0, 1))
    table.add_column("version", no_wrap=True, min_width=label)
    for row in columns:
        table.add_column(str(row["rank"]), justify="center", no_wrap=True, min_width=CELL_WIDTH)
    for a in rows:
        line: list[Text | str] = [f"{a['rank']:>2} {abbreviate(a['name'])}"]
        for b in columns:
            cell = cells.get((a["version_id"], b["version_id"]))
            if cell is None:
                line.append("·")
                continue
            style = ""
            if cell["significant"]:
                style = "bold green" if cell["score"] > 0.5 else "bold red"
            line.append(Text(f"{percent(cell['score'])}\n{interval_text(cell)}", style=style))
        table.add_row(*line)
    return table


def cycle_text(versions: Sequence[str], names: Mapping[str, str]) -> str:
    """``A > B > C > A``: each beats the next."""
    ring = [abbreviate(names[v]) for v in versions]
    return ARROW.join([*ring, ring[0]])


def _cycles(view: Mapping[str, Any], console: Console) -> None:
    names = {row["version_id"]: row["name"] for row in view["standings"]}
    if not view["cycles"]:
        console.print("non-transitive cycles · none", markup=False)
        return
    for cycle in view["cycles"]:
        mark = "significant" if cycle["significant"] else "not significant"
        console.print(
            f"non-transitive cycle · {cycle_text(cycle['versions'], names)} ({mark})",
            markup=False,
            soft_wrap=True,
        )


def _gauntlet(rows: Sequence[Mapping[str, Any]], console: Console) -> None:
    for row in rows:
        table = Table(
            title=f"gauntlet · {row['name']} · {row['pool']}",
            caption="its score % against each opponent (ahead 1, level ½) with the 95 % interval",
            box=box.SIMPLE_HEAD,
        )
        for header in ("opponent", "games", "score %", "95 % interval", "W–L–T"):
            table.add_column(header, justify="left" if header == "opponent" else "right")
        for cell in row["opponents"]:
            table.add_row(
                abbreviate(cell["name"]),
                str(cell["games"]),
                percent(cell["score"]),
                interval_text(cell),
                f"{cell['wins']}–{cell['losses']}–{cell['ties']}",
            )
        console.print(table)


def seats_text(seats: Sequence[Mapping[str, Any]]) -> str:
    """A lineup in seat order, or a result by place: ``1 a · 2 b CRASH``."""
    if seats and "place" in seats[0]:
        by_place = sorted(seats, key=lambda seat: seat["place"])
        return " · ".join(
            f"{seat['place']} {abbreviate(seat['name'])}"
            + ("" if seat["status"] == "OK" else f" {seat['status']}")
            for seat in by_place
        )
    return " · ".join(abbreviate(seat["name"]) for seat in seats)


def _live(live: Mapping[str, Any], fmt: str, console: Console) -> None:
    if not live["unrecorded"]:
        return
    if not live["running"]:
        what = "not played yet (the tournament is not running)"
    elif fmt == "round-robin":
        what = "up next / playing"
    else:
        what = "queued or playing"
    shown = len(live["matches"])
    more = f", the first {shown} shown" if shown < live["unrecorded"] else ""
    console.print(f"{what} · {live['unrecorded']} matches{more}", markup=False)
    for match in live["matches"]:
        console.print(f"  #{match['plan_index']:<5} {seats_text(match['seats'])}", markup=False)


def _recent(recent: Sequence[Mapping[str, Any]], console: Console) -> None:
    if not recent:
        return
    console.print("latest results (each version by its place):", markup=False)
    for match in recent:
        q = "-" if match["quality"] is None else f"{match['quality']:.2f}"
        console.print(
            f"  #{match['plan_index']:<5} {match['match_id']}  quality {q}  "
            f"{seats_text(match['seats'])}",
            markup=False,
            soft_wrap=True,
        )


def _entries(
    entries: Sequence[Mapping[str, Any]], finals: Mapping[str, Any] | None, console: Console
) -> None:
    """A ladder's entries: from which match each played, until which, and why it left."""
    if not entries:
        return
    table = Table(title="entries", box=box.SIMPLE_HEAD)
    for column, justify in (("version", "left"), ("from", "right"), ("until", "right")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    table.add_column("status")
    for row in entries:
        table.add_row(
            abbreviate(row["name"]),
            "-" if row["joined_index"] is None else f"#{row['joined_index']}",
            "-" if row["left_index"] is None else f"#{row['left_index']}",
            row["status"],
        )
    console.print(table)
    if finals:
        steps = ", ".join(f"{games}:{keep}" for games, keep in finals["cut"])
        done = len(finals["cuts"])
        console.print(
            f"finals from match #{finals['start']} (entries frozen, tau = 0): cuts {steps}; "
            f"{done} of {len(finals['cut'])} made",
            markup=False,
        )


def render_tournament_report(
    report: Mapping[str, Any], console: Console | None = None, cap: int = MAX_ESTIMATE
) -> None:
    """Print the report: per pool the standings, quality, matrix and cycles; the gauntlet's
    scores; the matches queued or playing and the latest results. ``cap``: the largest
    games-needed estimate shown as a number."""
    console = console or reports.terminal_console()
    line = f"format · {report['format']}"
    if report["challengers"]:
        line += f" · challengers: {', '.join(report['challengers'])}"
    console.print(line, markup=False)
    _entries(report.get("entries") or [], report.get("finals"), console)
    for view in report["pools"]:
        console.print(_standings_table(view, report["settled_sigma"], cap))
        console.print(quality_line(view["quality"]), markup=False)
        if view["pairwise"]["cells"]:
            for table in _matrix_tables(view, console.width):
                console.print(table)
            console.print(MATRIX_NOTE, markup=False)
        _cycles(view, console)
    _gauntlet(report["gauntlet"], console)
    _live(report["live"], report["format"], console)
    _recent(report["recent"], console)


def render_tournament_show(table: Mapping[str, Any], console: Console | None = None) -> None:
    """``arena tournament show``: the crosstable and faults, then the tournament's report."""
    console = console or reports.terminal_console()
    reports.render_crosstable(dict(table), console)
    render_tournament_report(table, console)
