"""The europe-heuristic bot plays whole RISK: Europe games legally and beats random.

The harness plays the engine directly: each decision becomes the ``Request`` an SDK bot gets
(the seat's view, the constraints, the listed choices), and every answer is checked with the
game's own ``check`` before it is applied.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from arena.catalog import find_bot, load_bot
from arena.games.europe.game import GAME, EuropeGame
from arena.sdk import Bot, MatchInfo, Request
from arena.sdk.europe import SIEGE, Bid, Reroll, battle_odds
from tests.europe_helpers import BOARD, empty, my_turn, put, t

HEURISTIC = "europe-heuristic"


@dataclass
class Played:
    """One harness game: the outcome and every decision time of the watched seats."""

    winner: int | None
    end: str
    rounds: int
    times: dict[int, list[float]] = field(default_factory=dict)


def bots(names: Sequence[str]) -> list[Bot]:
    return [load_bot(find_bot(name)) for name in names]


def play(
    players: Sequence[Bot],
    seed: int,
    options: dict[str, str] | None = None,
    game_: EuropeGame | None = None,
) -> Played:
    """Play one game of ``len(players)`` seats through SDK requests; every answer must pass
    ``game.check`` (an illegal answer fails the test)."""
    game = game_ or GAME.configure(options or {}, len(players))
    board = game.board()
    for seat, bot in enumerate(players):
        bot.start(MatchInfo("europe", game.config(), seat, len(players), seed * 10 + seat, board))
    state = game.new_game(seed, [bot.declarations("europe") for bot in players])
    times: dict[int, list[float]] = {seat: [] for seat in range(len(players))}
    while (decision := game.decision(state)) is not None:
        answers = {}
        for seat in decision.seats:
            options = game.legal_options(state, seat)
            listed = list(game.choices(options))
            request = Request(
                options.kind,
                seat,
                game.view(state, seat),
                options.constraints,
                choices=listed,
                game="europe",
            )
            started = time.perf_counter()
            answer = players[seat].choose(request)
            times[seat].append(time.perf_counter() - started)
            action = listed[answer] if isinstance(answer, int) else answer
            game.check(state, seat, action)
            answers[seat] = action
        state = game.apply_joint(state, answers).state
    outcome = game.outcome(state)
    assert outcome is not None
    return Played(outcome.winner, outcome.end_reason, game.progress(state)["rounds"], times)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_plays_whole_games_legally(players):
    for seed in (1, 2):
        names = [HEURISTIC] + ["random"] * (players - 1)
        played = play(bots(names), seed)
        assert played.end in ("crowns", "round_limit", "elimination")
        assert played.times[0]


def test_answers_every_battle_decision_legally_when_it_asks_for_them():
    kinds: set[str] = set()
    players = bots([HEURISTIC, "random", HEURISTIC, "random"])
    for bot in players[::2]:
        plain = bot.choose
        bot.declarations = lambda game: dict.fromkeys(  # type: ignore[method-assign]
            ("casualties", "castle_reroll", "battle_order"), "ask"
        )

        def choose(request, plain=plain):
            kinds.add(request.kind)
            return plain(request)

        bot.choose = choose  # type: ignore[method-assign]
    wanted = {"casualties", "reroll", "battle_order"}
    for seed in range(60):
        play(players, seed)
        if wanted <= kinds:
            break
    assert wanted <= kinds


def test_plays_legally_against_itself_with_missions():
    played = play(bots([HEURISTIC] * 3), 5, {"missions": "true"})
    assert played.end in ("crowns", "round_limit", "elimination")


WIN_BOUNDS = {4: (60, 48), 3: (30, 21), 2: (30, 21)}
"""Players → (games, wins at least). Measured over seeds 0-99 with the heuristic's seat
rotating: 100 of 100 games against random in 4, 3 and 2 players alike; the bounds (80%, 70%,
70%) leave a wide margin, and the seeds are fixed."""


@pytest.mark.parametrize("players", [4, 3, 2])
def test_beats_random_bots_clearly(players):
    games, at_least = WIN_BOUNDS[players]
    wins = 0
    for seed in range(games):
        seat = seed % players
        names = ["random"] * players
        names[seat] = HEURISTIC
        wins += play(bots(names), seed).winner == seat
    assert wins >= at_least


# ------------------------------------------------------------ scripted positions


def ask(state, game: EuropeGame, seat: int = 0):
    """The heuristic's answer to the open decision of ``state`` (checked legal), as an
    action."""
    bot = bots([HEURISTIC])[0]
    bot.start(MatchInfo("europe", game.config(), seat, game.players, 1, game.board()))
    options = game.legal_options(state, seat)
    listed = list(game.choices(options))
    view = game.view(state, seat)
    answer = bot.choose(
        Request(options.kind, seat, view, options.constraints, choices=listed, game="europe")
    )
    action = listed[answer] if isinstance(answer, int) else answer
    game.check(state, seat, action)
    return action


def turn_position(card: int, coins: int = 5):
    game = GAME.configure({}, 4)
    state = empty(game.rules)
    state.coins[0] = coins
    return game, state


def start_turn(game: EuropeGame, state, card: int) -> None:
    my_turn(state, game.rules, 0, card)


def test_expands_into_a_free_city_first():
    game, state = turn_position(3)
    put(state, "Bohemia", 0, (6, 0, 0, 0))
    start_turn(game, state, 3)
    turn = ask(state, game)
    assert turn.order == "expand"
    assert [m.target for m in turn.moves] in ([t("Saxony")], [t("Poland")])


def test_does_not_attack_at_poor_odds():
    game, state = turn_position(3)
    put(state, "Saxony", 0, (3, 0, 0, 0))
    for army, name in enumerate(("Denmark", "Friesland", "Lorraine", "Franconia", "Bohemia")):
        put(state, name, 1 + army % 3, (7, 0, 0, 0))
    start_turn(game, state, 3)
    turn = ask(state, game)
    assert turn.order != "expand"
    assert turn.bonus == "fortify" and turn.bonus_target == t("Saxony")


def test_attacks_at_good_odds():
    game, state = turn_position(3)
    put(state, "Saxony", 0, (12, 0, 2, 0))
    for name in ("Denmark", "Friesland", "Lorraine", "Franconia", "Bohemia"):
        put(state, name, 1, (1, 0, 0, 0))
    start_turn(game, state, 3)
    turn = ask(state, game)
    assert turn.order == "expand"
    (move,) = turn.moves
    assert state.owner[move.target] == 1
    odds = battle_odds(move.units, state.of(move.target, 1), False)
    assert odds.attacker >= 0.7


def test_buys_a_siege_weapon_before_a_castle():
    game, state = turn_position(0, coins=14)
    state.crown_cards_left = 0
    put(state, "Poland", 0, (5, 0, 0, 0))
    put(state, "Rusland", 1, (3, 0, 0, 0))
    state.castle[t("Rusland")] = True
    start_turn(game, state, 0)
    turn = ask(state, game)
    assert turn.order == "spend"
    assert sum(r.units[SIEGE] for r in turn.recruits) == 1


def test_buys_a_crown_card_when_affordable():
    game, state = turn_position(0, coins=10)
    put(state, "Poland", 0, (5, 0, 0, 0))
    start_turn(game, state, 0)
    turn = ask(state, game)
    assert (turn.order, turn.crown) == ("spend", True)


def test_taxes_the_largest_network():
    game, state = turn_position(0, coins=3)
    for name in ("Saxony", "Bohemia", "Franconia"):
        put(state, name, 0, (2, 0, 0, 0))
    put(state, "Rome", 0, (2, 0, 0, 0))
    start_turn(game, state, 0)
    turn = ask(state, game)
    assert (turn.order, turn.tax_city) == ("tax", t("Saxony"))


def test_setup_picks_a_gold_city_and_bids_less_than_all_its_coins():
    game = GAME.configure({}, 4)
    state = game.new_game(3)
    bid = ask(state, game)
    assert 0 < bid.coins < state.coins[0]
    while game.decision(state).kind != "kingdom":
        decision = game.decision(state)
        state = game.apply_joint(
            state, {s: game.default_action(state, s) for s in decision.seats}
        ).state
    seat = game.decision(state).seats[0]
    kingdom = ask(state, game, seat)
    assert kingdom.city in BOARD.gold_cities
    assert 1 <= kingdom.footmen_in_city <= 10


def test_rerolls_bad_dice_and_keeps_good_ones():
    bot = bots([HEURISTIC])[0]
    game = GAME.configure({}, 4)
    bot.start(MatchInfo("europe", game.config(), 1, 4, 1, game.board()))

    def reroll(rank, mine, theirs):
        options = {"rank": rank, "defender_dice": mine, "attacker_dice": theirs, "army": 1}
        choices = [Reroll(0), Reroll(rank)]
        return bot.choose(Request("reroll", 1, {}, options, choices=choices, game="europe"))

    assert reroll(2, [1, 2], [5]) == Reroll(2)
    assert reroll(2, [6, 5], [5]) == Reroll(0)
    assert reroll(4, [1, 1], [6, 5, 4]) == Reroll(4)
    assert reroll(4, [6, 6], [6, 5, 4]) == Reroll(0)


def test_never_raises_on_a_request_it_cannot_read():
    bot = bots([HEURISTIC])[0]
    game = GAME.configure({}, 4)
    bot.start(MatchInfo("europe", game.config(), 0, 4, 1, game.board()))
    for kind in ("turn", "cards", "kingdom", "bid", "casualties", "reroll", "unknown"):
        assert bot.choose(Request(kind, 0, {}, {}, choices=[Bid(0)], game="europe")) == 0
