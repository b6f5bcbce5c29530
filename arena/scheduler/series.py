"""``arena versus``: is A better than B? A seat-rotated, seed-paired series, optionally an SPRT.

Games come in rotation groups sharing one seed (the same deal and dice): with two seats A and
B swap seats; with K seats A, B and K−2 filler bots rotate through every seat. Each game
scores 1 for A when A finishes ahead of B, 0 when behind, ½ when level.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import FrameType
from typing import Any

from arena.catalog import BotSpec, version_id
from arena.catalog.entries import plan_entry
from arena.games.api import Game as Configured
from arena.referee.match import TimeControl
from arena.results.stats import Tally, sprt_decision
from arena.scheduler.records import MatchRecord, MatchSpec
from arena.scheduler.worker import WorkerHost
from arena.seeds import derive


@dataclass(frozen=True, slots=True)
class Game:
    """One game of the series: its seed and the bot at each seat ("A", "B" or "filler")."""

    seed: int
    seats: tuple[str, ...]


def series(games: int, seats: int, seed: int) -> Iterator[Game]:
    """The first ``games`` games of the rotated, seed-paired series."""
    lineup = ("A", "B") + ("filler",) * (seats - 2)
    group = 0
    made = 0
    while made < games:
        group_seed = derive(seed, "versus", group) >> 1
        for shift in range(seats):
            if made == games:
                return
            yield Game(group_seed, lineup[shift:] + lineup[:shift])
            made += 1
        group += 1


def score(places: list[int], seats: tuple[str, ...]) -> float:
    """1 if A finished ahead of B, 0 if behind, ½ if level."""
    a, b = places[seats.index("A")], places[seats.index("B")]
    return 1.0 if a < b else 0.0 if a > b else 0.5


def run_series(
    a: BotSpec,
    b: BotSpec,
    filler: BotSpec | None,
    game: Configured[Any, Any, Any],
    games: int,
    seed: int,
    control: dict[str, float],
    sprt: tuple[float, float] | None,
    on_game: Callable[[int, Tally], None] | None = None,
) -> tuple[Tally, str | None, list[dict[str, Any]]]:
    """Play the series; returns the tally, the SPRT verdict (if any) and per-game records."""
    bots = {"A": plan_entry(a, version_id(a)), "B": plan_entry(b, version_id(b))}
    if filler is not None:
        bots["filler"] = plan_entry(filler, version_id(filler))
    host = _SeriesHost()
    tally, verdict, played = Tally(), None, []
    with host.stopped_by_ctrl_c():
        try:
            for number, paired in enumerate(series(games, game.players, seed)):
                result = host.play(
                    MatchSpec(
                        tournament_id="versus",
                        plan_index=number,
                        seed=paired.seed,
                        game=game.info.name,
                        rules=game.config(),
                        seats=tuple(bots[s] for s in paired.seats),
                        control=TimeControl(**control),
                    )
                )
                places = result.places
                tally = tally.add(score(places, paired.seats))
                played.append(
                    {
                        "seed": paired.seed,
                        "seats": list(paired.seats),
                        "places": places,
                        "statuses": result.statuses,
                    }
                )
                if on_game:
                    on_game(number + 1, tally)
                if sprt is not None:
                    verdict = sprt_decision(tally, *sprt)
                    if verdict is not None:
                        break
        finally:
            host.close()
    return tally, verdict, played


class _SeriesHost(WorkerHost):
    """The series' referee. Ctrl-C cancels the game being played, which ends its bots as
    any match does; then the host closes and :class:`KeyboardInterrupt` stops the series.

    A ``KeyboardInterrupt`` raised wherever the event loop happens to be would instead
    leave the game's task half-run, to go on cleaning up its seats while the host closes
    the same processes."""

    def __init__(self) -> None:
        super().__init__()
        self.interrupted = False
        self._game: asyncio.Task[MatchRecord] | None = None

    def play(self, job: MatchSpec) -> MatchRecord:
        if self.interrupted:
            raise KeyboardInterrupt
        self._game = self.loop.create_task(self._play(job))
        try:
            result = self.loop.run_until_complete(self._game)
        except asyncio.CancelledError:
            if self.interrupted:
                raise KeyboardInterrupt from None
            raise
        finally:
            self._game = None
        if self.interrupted:  # pressed as the game ended
            raise KeyboardInterrupt
        return result

    @contextlib.contextmanager
    def stopped_by_ctrl_c(self) -> Iterator[None]:
        """While inside, the first Ctrl-C (or SIGTERM, which the CLI turns into one) stops
        the series through :meth:`play`; later presses are ignored while it cleans up. Once
        out, a press that came raises :class:`KeyboardInterrupt`."""
        if threading.current_thread() is not threading.main_thread() or (
            signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        ):
            yield
            return
        previous = signal.signal(signal.SIGINT, self._on_sigint)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)
        if self.interrupted:
            raise KeyboardInterrupt

    def _on_sigint(self, signum: int, frame: FrameType | None) -> None:
        if self.interrupted:
            return
        self.interrupted = True
        game = self._game
        if game is not None and not game.done():
            self.loop.call_soon_threadsafe(game.cancel)


def describe_elo(elo: float, low: float, high: float) -> str:
    """The Elo estimate and its 95% interval in words.

    A series won (or lost) in every game has no finite estimate yet: say so rather than print
    ``+inf``; an interval open on one side is a bound. ``-0`` is printed ``+0``.
    """

    def signed(value: float) -> str:
        return f"{round(value):+d}"

    if not math.isfinite(elo):
        return "Elo difference not yet measurable (one bot was ahead in every game)"
    if math.isfinite(low) and math.isfinite(high):
        interval = f"{signed(low)} to {signed(high)}"
    elif math.isfinite(low):
        interval = f"at least {signed(low)}"
    elif math.isfinite(high):
        interval = f"at most {signed(high)}"
    else:
        interval = "not yet measurable"
    return f"Elo difference {signed(elo)} (95% interval {interval})"
