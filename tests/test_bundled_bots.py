"""Bundled Python bots play every classic variant to the end without a strike."""

from __future__ import annotations

import pytest

from arena.catalog import bundled_bots, find_bot, load_bot
from arena.referee.match import play_match
from tests.classic_helpers import game_of, rules_for

# One in-process path (the fast one, the default): tests/games/test_in_process_fast_path.py
# shows that both paths hand every bot the same requests.

VARIANTS = [
    (2, {}),
    (3, {"mode": "mission"}),
    (4, {"mode": "capital", "capital_goal": "short"}),
    (3, {"advantage_reroll": "true", "sets": "progressive"}),
    (5, {"fortify": "connected", "sets": "fixed"}),
]
PYTHON_BOTS = [
    s.name
    for s in bundled_bots()
    if s.entry is not None and "classic" in s.games and s.name != "strong"
]
"""Every bundled in-process classic bot but ``strong``, whose search tests/test_strong_bot.py
plays through every variant (more of them than here) against ``planner``."""


@pytest.mark.parametrize("name", PYTHON_BOTS)
@pytest.mark.parametrize(("players", "options"), VARIANTS, ids=lambda v: str(v))
def test_bot_finishes_every_variant_without_strikes(name, players, options):
    rules = rules_for(players, max_rounds=40, **options)
    bots = [load_bot(find_bot(name))] + [load_bot(find_bot("random")) for _ in range(players - 1)]
    result = play_match(game_of(rules), bots, seed=11)
    seat = result.seats[0]
    assert (seat.status, seat.strikes) == ("OK", 0)
    assert result.end_reason in ("domination", "mission", "capitals", "round_limit")


def test_aggressive_beats_random_most_of_the_time():
    wins = 0
    for seed in range(6):
        bots = [
            load_bot(find_bot("aggressive")),
            load_bot(find_bot("random")),
            load_bot(find_bot("random")),
        ]
        result = play_match(game_of(rules_for(3, max_rounds=60)), bots, seed=seed)
        wins += result.seats[0].place == 1
    assert wins >= 5


def test_bundled_field_has_two_languages():
    languages = {s.language.split()[0] for s in bundled_bots()}
    assert {"Python", "JavaScript"} <= languages
