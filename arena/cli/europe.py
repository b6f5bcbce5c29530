"""RISK: Europe's part of ``arena demo``: the command line finds this module by the game's
name (``arena.cli.europe``). Europe adds no commands of its own."""

from __future__ import annotations

from arena.scheduler.tournament import TournamentSettings

DEMO_BOTS = ("random", "js-random", "js-europe", "europe-heuristic")
"""RISK: Europe's bots, random and heuristic, in both languages."""


def demo(workers: int) -> TournamentSettings:
    """RISK: Europe's demo tournament: one round of 4-player games, 15 rounds at most."""
    return TournamentSettings(
        bots=list(DEMO_BOTS),
        name="demo-europe",
        game="europe",
        seats=4,
        rounds=1,
        rules={"max_rounds": "15"},
        workers=workers,
    )
