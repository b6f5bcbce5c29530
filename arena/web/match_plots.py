"""A match page's plots: each player's territories and armies over the game, read from the
replay viewer's frames (one point per step, thinned to a few hundred on long matches).

A game's spectator module (:func:`arena.web.frames.spectator_module`) may say what a seat's
standing is in its board, as ``standing(board, seat)``; without one, the standing is read from
what the viewer draws: the territories a seat holds, and its units on the board (its labelled
units wherever they stand, or else the counts on the territories it holds)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markupsafe import Markup

from arena.web import plots as svg
from arena.web.frames import Frame, spectator_module

MAX_POINTS = 300
"""At most this many points per line: a plot's width shows no more."""

Standing = Callable[[Frame, int], tuple[int, int]]
"""(frame, seat) → (territories held, armies on the board)."""


def drawn_standing(frame: Frame, seat: int) -> tuple[int, int]:
    """A seat's standing as the viewer draws it (see the module's docstring)."""
    regions = frame["regions"]
    held = [i for i, owner in enumerate(regions["owner"]) if owner == seat]
    if "units" not in regions:
        return len(held), sum(regions["count"][i] for i in held)
    units = sum(
        sum(group["counts"].values())
        for here in regions["units"]
        for group in here
        if group["side"] == seat
    )
    return len(held), units


def standing_of(game: str) -> Standing:
    """The game's own ``standing(board, seat)`` from its spectator module, else the standing
    the viewer draws."""
    own: Callable[[dict[str, Any], int], tuple[int, int]] | None = getattr(
        spectator_module(game), "standing", None
    )
    if own is None:
        return drawn_standing
    return lambda frame, seat: own(frame["board"], seat)


def _thinned(found: list[Frame]) -> list[Frame]:
    if len(found) <= MAX_POINTS:
        return found
    every = -(-len(found) // MAX_POINTS)
    return found[::every] + ([found[-1]] if (len(found) - 1) % every else [])


def series(game: str, seats: int, found: list[Frame]) -> dict[str, list[list[tuple[int, int]]]]:
    """{"territories": per seat [(step, held)], "armies": per seat [(step, armies)]}, or {}
    for a game whose frames draw no territories."""
    if not found or not found[0]["regions"]["owner"]:
        return {}
    standing = standing_of(game)
    out: dict[str, list[list[tuple[int, int]]]] = {
        "territories": [[] for _ in range(seats)],
        "armies": [[] for _ in range(seats)],
    }
    for frame in _thinned(found):
        for seat in range(seats):
            held, armies = standing(frame, seat)
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
