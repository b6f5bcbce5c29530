"""Plots drawn on the server as inline SVG: no JavaScript library, no build step, and the
figures are in the page's HTML (testable, and readable without scripts)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from typing import Any

from markupsafe import Markup

WIDTH, HEIGHT = 560, 240
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 14, 40


@dataclass(frozen=True)
class Frame:
    """The plot area and the data ranges it maps to screen coordinates."""

    x0: float
    x1: float
    y0: float
    y1: float

    def x(self, value: float) -> float:
        span = self.x1 - self.x0 or 1.0
        return LEFT + (value - self.x0) / span * (WIDTH - LEFT - RIGHT)

    def y(self, value: float) -> float:
        span = self.y1 - self.y0 or 1.0
        return HEIGHT - BOTTOM - (value - self.y0) / span * (HEIGHT - TOP - BOTTOM)


def ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering [low, high] (1, 2 or 5 times a power of ten apart)."""
    if high <= low:
        return [low]
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step) * step
    return [round(first + i * step, 10) for i in range(int((high - first) / step + 1e-9) + 1)]


def _label(value: float) -> str:
    return f"{value:g}"


def _axes(
    frame: Frame,
    x_label: str,
    y_label: str,
    x_ticks: list[float] | None = None,
    counts: bool = False,
) -> str:
    """Axes with ticks and labels (``counts``: whole-number ticks on the y axis only)."""
    bottom, right = HEIGHT - BOTTOM, WIDTH - RIGHT
    parts = [
        f'<line class="axis" x1="{LEFT}" y1="{bottom}" x2="{right}" y2="{bottom}"/>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{bottom}"/>',
    ]
    for value in ticks(frame.y0, frame.y1):
        if counts and not float(value).is_integer():
            continue
        y = frame.y(value)
        parts.append(f'<line class="grid" x1="{LEFT}" y1="{y:.1f}" x2="{right}" y2="{y:.1f}"/>')
        parts.append(
            f'<text class="tick" x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end">'
            f"{_label(value)}</text>"
        )
    for value in x_ticks if x_ticks is not None else ticks(frame.x0, frame.x1):
        x = frame.x(value)
        parts.append(
            f'<line class="axis" x1="{x:.1f}" y1="{bottom}" x2="{x:.1f}" y2="{bottom + 4}"/>'
        )
        parts.append(
            f'<text class="tick" x="{x:.1f}" y="{bottom + 16}" text-anchor="middle">'
            f"{_label(value)}</text>"
        )
    parts.append(
        f'<text class="axis-label" x="{(LEFT + right) / 2}" y="{HEIGHT - 6}" '
        f'text-anchor="middle">{escape(x_label)}</text>'
    )
    parts.append(
        f'<text class="axis-label" x="12" y="{(TOP + bottom) / 2}" text-anchor="middle" '
        f'transform="rotate(-90 12 {(TOP + bottom) / 2})">{escape(y_label)}</text>'
    )
    return "".join(parts)


def _svg(kind: str, title: str, body: str) -> Markup:
    return Markup(
        f'<svg class="plot {kind}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>{body}</svg>'
    )


def rating_history(points: list[dict[str, Any]], title: str) -> Markup:
    """μ against match number with the μ±3σ band; one marker per rating change.

    ``points``: dicts with ``n`` (match number), ``mu``, ``sigma`` and ``label`` (the version).
    """
    if not points:
        return _svg("rating-history", title, "")
    lows = [p["mu"] - 3 * p["sigma"] for p in points]
    highs = [p["mu"] + 3 * p["sigma"] for p in points]
    frame = Frame(
        min(p["n"] for p in points) - 0.5,
        max(p["n"] for p in points) + 0.5,
        math.floor(min(lows)),
        math.ceil(max(highs)),
    )
    edge = [
        (frame.x(p["n"]), frame.y(h), frame.y(lo))
        for p, h, lo in zip(points, highs, lows, strict=True)
    ]
    upper = " ".join(f"{x:.1f},{y:.1f}" for x, y, _ in edge)
    lower = " ".join(f"{x:.1f},{y:.1f}" for x, _, y in reversed(edge))
    line = " ".join(f"{frame.x(p['n']):.1f},{frame.y(p['mu']):.1f}" for p in points)
    marks = "".join(
        f'<circle class="point" cx="{frame.x(p["n"]):.1f}" cy="{frame.y(p["mu"]):.1f}" r="3" '
        f'data-n="{p["n"]}" data-mu="{p["mu"]:.4f}" data-sigma="{p["sigma"]:.4f}">'
        f"<title>match {p['n']} · {escape(str(p['label']))}: μ {p['mu']:.2f}, "
        f"σ {p['sigma']:.2f}</title></circle>"
        for p in points
    )
    x_ticks = [t for t in ticks(frame.x0, frame.x1) if float(t).is_integer()]
    body = (
        _axes(frame, "match number", "rating μ (band: μ ± 3σ)", x_ticks)
        + f'<polygon class="band" points="{upper} {lower}"/>'
        + f'<polyline class="mu" points="{line}"/>'
        + marks
    )
    return _svg("rating-history", title, body)


def bars(counts: list[tuple[str, int]], title: str, x_label: str, y_label: str) -> Markup:
    """A bar per (label, count), e.g. how often a bot finished in each place."""
    top = max([count for _, count in counts] + [1])
    frame = Frame(0, len(counts), 0, top)
    slot = (WIDTH - LEFT - RIGHT) / max(len(counts), 1)
    parts = []
    for i, (label, count) in enumerate(counts):
        x, y = frame.x(i) + slot * 0.15, frame.y(count)
        parts.append(
            f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{slot * 0.7:.1f}" '
            f'height="{HEIGHT - BOTTOM - y:.1f}" data-label="{escape(label)}" data-count="{count}">'
            f"<title>{escape(label)}: {count}</title></rect>"
            f'<text class="tick" x="{x + slot * 0.35:.1f}" y="{y - 3:.1f}" '
            f'text-anchor="middle">{count}</text>'
        )
    axes = _axes(frame, x_label, y_label, x_ticks=[], counts=True)
    names = "".join(
        f'<text class="tick" x="{frame.x(i + 0.5):.1f}" y="{HEIGHT - BOTTOM + 16}" '
        f'text-anchor="middle">{escape(label)}</text>'
        for i, (label, _) in enumerate(counts)
    )
    return _svg("bars", title, axes + names + "".join(parts))


def stacked_bars(
    columns: list[tuple[str, dict[str, int]]],
    keys: list[str],
    title: str,
    x_label: str,
    y_label: str,
) -> Markup:
    """A bar per column made of one block per key (e.g. per tournament, its faults by status)."""
    top = max([sum(counts.values()) for _, counts in columns] + [1])
    frame = Frame(0, len(columns), 0, top)
    slot = (WIDTH - LEFT - RIGHT) / max(len(columns), 1)
    parts = []
    for i, (label, counts) in enumerate(columns):
        base = 0
        for k, key in enumerate(keys):
            count = counts.get(key, 0)
            if not count:
                continue
            y_top, y_bottom = frame.y(base + count), frame.y(base)
            parts.append(
                f'<rect class="bar key-{k}" x="{frame.x(i) + slot * 0.15:.1f}" y="{y_top:.1f}" '
                f'width="{slot * 0.7:.1f}" height="{y_bottom - y_top:.1f}" '
                f'data-label="{escape(label)}" data-key="{escape(key)}" data-count="{count}">'
                f"<title>{escape(label)}: {escape(key)} {count}</title></rect>"
            )
            base += count
        parts.append(
            f'<text class="tick" x="{frame.x(i + 0.5):.1f}" y="{HEIGHT - BOTTOM + 16}" '
            f'text-anchor="middle">{escape(label)}</text>'
        )
    legend = "".join(
        f'<rect class="bar key-{k}" x="{WIDTH - RIGHT - 110}" y="{TOP + 14 * k}" width="10" '
        f'height="10"/><text class="tick" x="{WIDTH - RIGHT - 96}" y="{TOP + 14 * k + 9}">'
        f"{escape(key)}</text>"
        for k, key in enumerate(keys)
    )
    body = _axes(frame, x_label, y_label, x_ticks=[], counts=True) + "".join(parts) + legend
    return _svg("stacked-bars", title, body)


def lines(
    series: list[tuple[str, int, list[tuple[float, float]]]],
    title: str,
    x_label: str,
    y_label: str,
) -> Markup:
    """A line per (label, seat, points): the seat picks the line's colour (its owner colour
    on the board), and each line carries its seat and last value for scripts and tests."""
    points = [p for _, _, found in series for p in found]
    if not points:
        return _svg("lines", title, "")
    frame = Frame(
        min(x for x, _ in points),
        max(x for x, _ in points),
        0,
        max(max(y for _, y in points), 1),
    )
    parts = []
    for label, seat, found in series:
        drawn = " ".join(f"{frame.x(x):.1f},{frame.y(y):.1f}" for x, y in found)
        last = found[-1][1] if found else 0
        parts.append(
            f'<polyline class="series owner-{seat % 6}" points="{drawn}" data-seat="{seat}" '
            f'data-last="{last:g}" data-points="{len(found)}"><title>{escape(label)}: '
            f"{last:g} at the end</title></polyline>"
        )
    legend = "".join(
        f'<rect class="key owner-{seat % 6}" x="{LEFT + 8}" y="{TOP + 4 + 14 * k}" width="10" '
        f'height="10"/><text class="tick" x="{LEFT + 22}" y="{TOP + 13 + 14 * k}">'
        f"{escape(label)}</text>"
        for k, (label, seat, _) in enumerate(series)
    )
    body = _axes(frame, x_label, y_label) + "".join(parts) + legend
    return _svg("lines", title, body)
