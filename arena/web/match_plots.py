"""A match page's plots: each player's territories and armies over the game, read from the
replay viewer's frames (one point per step, thinned to a few hundred on long matches)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markupsafe import Markup

from arena.web import plots as svg
from arena.web.frames import Frame

MAX_POINTS = 300
"""At most this many points per line: a plot's width shows no more."""

Standing = Callable[[dict[str, Any], int], tuple[int, int]]
"""(board, seat) → (territories held, armies on the board)."""


def _classic(board: dict[str, Any], seat: int) -> tuple[int, int]:
    held = [i for i, owner in enumerate(board["owner"]) if owner == seat]
    return len(held), sum(board["armies"][i] for i in held)


def _europe(board: dict[str, Any], seat: int) -> tuple[int, int]:
    held = sum(1 for t in board["territories"] if t["owner"] == seat)
    units = sum(sum(t["units"].get(str(seat), ())) for t in board["territories"])
    return held, units


STANDINGS: dict[str, Standing] = {"classic": _classic, "europe": _europe}


def _thinned(found: list[Frame]) -> list[Frame]:
    if len(found) <= MAX_POINTS:
        return found
    every = -(-len(found) // MAX_POINTS)
    return found[::every] + ([found[-1]] if (len(found) - 1) % every else [])


def series(game: str, seats: int, found: list[Frame]) -> dict[str, list[list[tuple[int, int]]]]:
    """{"territories": per seat [(step, held)], "armies": per seat [(step, armies)]}, or {}
    for a game without a board of territories."""
    standing = STANDINGS.get(game)
    if standing is None or not found:
        return {}
    out: dict[str, list[list[tuple[int, int]]]] = {
        "territories": [[] for _ in range(seats)],
        "armies": [[] for _ in range(seats)],
    }
    for frame in _thinned(found):
        for seat in range(seats):
            held, armies = standing(frame["board"], seat)
            out["territories"][seat].append((frame["step"], held))
            out["armies"][seat].append((frame["step"], armies))
    return out


def plots(game: str, seats: list[str], found: list[Frame]) -> list[tuple[str, Markup]]:
    """(caption, SVG) per figure: territories held, then armies, per player over the steps."""
    drawn = series(game, len(seats), found)
    figures = []
    for key, words in (("territories", "territories held"), ("armies", "armies on the board")):
        if key not in drawn:
            continue
        lines = [
            (f"{bot} (seat {seat})", seat, [(float(x), float(y)) for x, y in points])
            for seat, (bot, points) in enumerate(zip(seats, drawn[key], strict=True))
        ]
        title = f"{words.capitalize()} per player, step by step"
        figures.append((title, svg.lines(lines, title, "step", words)))
    return figures
