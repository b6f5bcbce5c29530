"""RISK: Europe's verdicts never depend on randomness still to come: judging an answer (and
listing a decision's options) reads none of the match's random streams, so a bot cannot probe
the next dice (or anything else drawn later) at the price of a refusal.

Positions come from seeded random games of every player count, with and without Kingdom
Missions, every seat asking for every battle decision; at every decision each listed choice
and variants built to lean on a Siege Assault's dice (an Expand into the territory it
attacks, footmen only or with the weapons, before or after the bonus) are judged on a copy
whose streams fail the test when read, and under a different seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from arena.errors import IllegalActionError
from arena.games.europe.actions import Action, Cards, Move, Turn
from arena.games.europe.board import SIEGE
from arena.games.europe.config import ARMIES, EuropeConfig
from arena.games.europe.game import ASK_ALL, EuropeGame
from arena.games.europe.state import NOBODY, EuropeState
from arena.games.streams import Streams

GAMES = [
    (players, missions, seed)
    for players in (2, 3, 4)
    for missions in (False, True)
    for seed in (1, 2)
]
"""(players, missions, seed) of the games whose positions are judged."""
ROUNDS = 4
"""Rounds played of each game (enough for siege weapons to be bought and used)."""
SIEGE_CARD = 5
"""The one King's Orders card with the Siege Assault bonus."""
LEAN = 0.8
"""How often the players pick a choice leading to Siege Assaults when one is listed."""


class NoDraws(Streams):
    """Streams that fail the test when anything reads them."""

    def __init__(self) -> None:
        super().__init__(0)

    def _block(self, stream: str, index: int) -> list[float]:
        raise AssertionError(f"the {stream!r} stream was read while judging or listing")

    def rng(self, stream: str) -> random.Random:
        raise AssertionError(f"the {stream!r} stream was read while judging or listing")


def verdict(game: EuropeGame, state: EuropeState, seat: int, action: Action) -> str | None:
    """None if ``action`` is legal, else the reason it is refused."""
    try:
        game.check(state, seat, action)
    except IllegalActionError as exc:
        return str(exc)
    return None


def with_streams(state: EuropeState, streams: Streams) -> EuropeState:
    probe = state.copy()
    probe.streams = streams
    return probe


def siege_variants(
    game: EuropeGame, state: EuropeState, army: int, listed: list[Action]
) -> Iterator[Turn]:
    """Turns whose later parts could lean on a Siege Assault's dice: every assault the card
    allows, then an Expand into its target from each own neighbour (footmen only, or with the
    weapons), the assault first or last; and the listed orders with each assault first."""
    board = game.rules.board
    card = board.deck[game.rules.card(state, army)]
    if card.bonus != "siege_assault":
        return
    for source in range(board.size):
        if state.owner[source] != army or not state.units[(source * ARMIES + army) * 4 + SIEGE]:
            continue
        for target in sorted(board.land[source]):
            if state.owner[target] in (army, NOBODY):
                continue
            assault = Turn(bonus="siege_assault", bonus_source=source, bonus_target=target)
            yield assault
            for turn in listed:
                if isinstance(turn, Turn) and turn.bonus == "none":
                    yield replace(
                        turn,
                        bonus="siege_assault",
                        bonus_first=True,
                        bonus_source=source,
                        bonus_target=target,
                    )
            for order in ("expand", "split_expand"):
                if order not in card.orders:
                    continue
                for start in board.adjacent[target]:
                    have = state.of(start, army)
                    if state.owner[start] != army or sum(have) < 2:
                        continue
                    for units in ((have[0] - 1, 0, 0, 0), (0, 0, 0, have[SIEGE])):
                        for first in (True, False):
                            yield replace(
                                assault,
                                order=order,
                                moves=(Move(start, target, units),),
                                bonus_first=first,
                            )


def sieges(action: Action) -> bool:
    """Whether ``action`` buys a siege weapon, uses a Siege Assault or plays its card (5)."""
    if isinstance(action, Cards):
        return SIEGE_CARD in (action.first, action.second)
    if not isinstance(action, Turn):
        return False
    return action.bonus == "siege_assault" or any(r.units[SIEGE] for r in action.recruits)


def pick(listed: list[Action], rng: random.Random) -> Action:
    """A random listed choice, mostly one that leads to Siege Assaults when there is one."""
    leading = [a for a in listed if sieges(a)]
    if leading and rng.random() < LEAN:
        return rng.choice(leading)
    return rng.choice(listed)


def positions(
    players: int, missions: bool, seed: int
) -> Iterator[tuple[EuropeGame, EuropeState, int]]:
    """Every (game, position, seat to answer) of a seeded random game's first rounds."""
    game = EuropeGame(EuropeConfig.parse({"missions": str(missions).lower()}, players))
    state = game.new_game(seed, [ASK_ALL] * players)
    rng = random.Random(seed)
    while (decision := game.decision(state)) is not None and state.round <= ROUNDS:
        for seat in decision.seats:
            yield game, state, seat
        picks = {
            seat: pick(list(game.choices(game.legal_options(state, seat))), rng)
            for seat in decision.seats
        }
        state = game.apply_joint(state, picks).state


def armed(game: EuropeGame, state: EuropeState) -> EuropeState:
    """The turn position with the Siege Assault card face up instead and a siege weapon (from
    the reserve, while it lasts) on each of the army's territories bordering an opponent's."""
    rules, board = game.rules, game.rules.board
    army = rules.acting_army(state)
    probe = state.copy()
    if probe.turn == 1:
        probe.first[army] = SIEGE_CARD
    else:
        probe.second[army] = SIEGE_CARD
    for source in range(board.size):
        opponents = [u for u in board.land[source] if probe.owner[u] not in (army, NOBODY)]
        if probe.owner[source] == army and opponents and probe.reserve[army * 4 + SIEGE]:
            probe.reserve[army * 4 + SIEGE] -= 1
            probe.units[(source * ARMIES + army) * 4 + SIEGE] += 1
    return probe


def judge(game: EuropeGame, state: EuropeState, seat: int) -> tuple[int, int]:
    """Judge every listed choice (and, at a turn, the Siege Assault variants) blind, under
    the match's streams and under another seed: the same verdict each time, listed choices
    legal, no die rolled. Returns (answers judged, Siege Assault variants among them)."""
    blind = with_streams(state, NoDraws())
    other = with_streams(state, Streams(state.streams.seed + 1))
    listed = list(game.choices(game.legal_options(blind, seat)))
    variants: list[Turn] = []
    decision = game.decision(state)
    if decision is not None and decision.kind == "turn" and not state.losses:
        variants = list(siege_variants(game, state, game.rules.acting_army(state), listed))
    for action in listed + variants:
        seen = verdict(game, blind, seat, action)
        assert seen == verdict(game, state, seat, action) == verdict(game, other, seat, action)
        if action in listed:
            assert seen is None, f"a listed choice is refused: {seen}"
    assert state.dice == blind.dice == other.dice
    return len(listed) + len(variants), len(variants)


@pytest.mark.parametrize(("players", "missions", "seed"), GAMES)
def test_judging_and_listing_read_no_randomness(players: int, missions: bool, seed: int) -> None:
    judged = leaning = 0
    for game, state, seat in positions(players, missions, seed):
        positions_ = [state]
        decision = game.decision(state)
        if decision is not None and decision.kind == "turn" and not state.losses:
            positions_.append(armed(game, state))
        for position in positions_:
            answers, variants = judge(game, position, seat)
            judged += answers
            leaning += variants
    assert judged > 1000
    assert leaning > 20, "few Siege Assaults judged: the games do not test what they should"
