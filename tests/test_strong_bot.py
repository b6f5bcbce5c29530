"""The searching top bot: legal in every classic variant, replayable under a node budget, and
within its share of the clock at a long move time too."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest

from arena.catalog import find_bot, load_bot
from arena.catalog.loader import bot_module
from arena.games.classic import ClassicConfig
from arena.games.classic.board import classic_board
from arena.games.classic.game import ClassicGame
from arena.games.classic.state import Phase
from arena.referee.match import play_match
from arena.sdk import Attack, Occupy, Place
from arena.sdk.bot import Bot, Request
from arena.sdk.tactics import chain_odds
from arena.statuses import SeatStatus
from tests.classic_helpers import make_state, rules_for, tid
from tests.test_bot_positions import POSITIONS, _ask, _started

VARIANTS = {
    "2 players and the neutral": (2, {}),
    "secret missions": (4, {"mode": "mission"}),
    "capital, full goal": (3, {"mode": "capital"}),
    "capital, short goal": (5, {"mode": "capital", "capital_goal": "short"}),
    "fixed sets": (4, {"sets": "fixed"}),
    "progressive sets, connected fortify": (3, {"sets": "progressive", "fortify": "connected"}),
    "advantage re-roll": (3, {"advantage_reroll": "true"}),
    "6 players, claimed deal": (6, {}),
}
ROUNDS = 8
"""Rounds per variant game: enough for trades, eliminations and missions to come up."""


def _strong(nodes: int) -> Bot:
    bot = load_bot(find_bot("strong"))
    bot.nodes = nodes  # type: ignore[attr-defined]
    return bot


def _game(players: int, options: dict[str, str], rounds: int = ROUNDS) -> ClassicGame:
    return ClassicGame(ClassicConfig.parse({**options, "max_rounds": str(rounds)}, players))


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_strong_plays_every_variant_without_a_strike(variant):
    players, options = VARIANTS[variant]
    bots = [_strong(12)] + [load_bot(find_bot("planner")) for _ in range(players - 1)]
    result = play_match(_game(players, options), bots, seed=players * 101 + len(options))
    seat = result.seats[0]
    assert (seat.status, seat.strikes) == (SeatStatus.OK, 0), seat.detail
    assert result.end_reason is not None


def test_a_node_budget_makes_the_search_replayable():
    def play() -> tuple:
        bots = [_strong(25), _strong(25), load_bot(find_bot("planner"))]
        result = play_match(_game(3, {}, rounds=5), bots, seed=4242)
        final = result.final
        return final.owner, final.armies, final.dice_i, final.turns, result.decisions

    first = play()
    assert first == play()


@pytest.mark.parametrize("players", [3, 2, 4])
def test_a_three_player_game_opens_with_the_planners_turns_only(players):
    """With three players the setup and the first round are the planner's, every decision of
    them; from the second round on, and in games of other sizes, the search decides."""
    bot = _strong(8)
    asked: list[tuple[int, str]] = []
    by_planner: list[tuple[int, str]] = []
    strong_choose = bot.choose

    def choose(request: Request):
        asked.append((request.view["round"], request.kind))
        if len(asked) == 1:  # started: watch what its planner answers
            planner_choose = bot.planner.choose  # type: ignore[attr-defined]

            def planner_answers(inner: Request):
                by_planner.append((inner.view["round"], inner.kind))
                return planner_choose(inner)

            bot.planner.choose = planner_answers  # type: ignore[attr-defined]
        return strong_choose(request)

    bot.choose = choose  # type: ignore[method-assign]
    others = [load_bot(find_bot("planner")) for _ in range(players - 1)]
    play_match(_game(players, {}, rounds=3), [bot, *others], seed=77)
    assert max(r for r, _ in asked) >= 2
    expected = [(r, k) for r, k in asked if r <= 1] if players == 3 else []
    assert (1, "attack") in expected or players != 3
    assert by_planner == expected


@pytest.mark.parametrize("position", list(POSITIONS))
def test_strong_answers_in_time_at_a_one_second_move_time(position):
    rules, state = POSITIONS[position]()
    decision = rules.decision(state)
    assert decision is not None
    seat = decision.seats[0]
    bot = _started("strong", rules, seat, move_time_ms=1000)
    action, elapsed = _ask(bot, rules, state, seat)
    rules.check(state, seat, action)
    assert elapsed < 1.0, f"took {elapsed:.2f} CPU s on {position}"


def test_the_search_thinks_less_as_its_bank_drains():
    """Overruns are paid from the bank; with half of it gone the search shrinks with it, so a
    stalled machine late in a match does not turn into strikes."""
    rules, state = POSITIONS[next(iter(POSITIONS))]()
    decision = rules.decision(state)
    assert decision is not None
    seat = decision.seats[0]
    bot = _started("strong", rules, seat, move_time_ms=1000, time_bank_ms=4000)
    options = rules.legal_options(state, seat)
    view = rules.view(state, seat)

    def thinking(bank_ms: int) -> float:
        request = Request.make(
            seat, view, options, deadline_ms=1000 + bank_ms, time_bank_ms=bank_ms
        )
        return bot._budget(request).seconds  # type: ignore[attr-defined]

    assert thinking(4000) == thinking(2000) == pytest.approx(0.4)
    assert thinking(1000) == pytest.approx(0.2)
    assert thinking(0) == pytest.approx(0.1)


def _train_value():
    path = Path(find_bot("strong").path) / "train_value.py"
    spec = importlib.util.spec_from_file_location("strong_train_value", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_value_is_trained_on_labelled_turn_starts():
    train = _train_value()
    samples = train.play(11)
    assert len(samples) > 10
    for rows, target, mover in samples:
        assert len(rows) == len(target) >= 2 and 0 <= mover < len(rows)
        assert abs(sum(target) - 1) < 1e-9
        assert all(len(row) == len(rows[0]) for row in rows)
    # A feature that decides every game gets a large positive weight, a useless one none.
    rng = random.Random(3)
    synthetic = []
    for _ in range(200):
        a, b = rng.random(), rng.random()
        noise = rng.random()
        synthetic.append(([[a, noise], [b, noise]], [float(a > b), float(a <= b)], 0))
    weights = train.fit(synthetic, 2, steps=150)
    assert weights[0] > 3 and abs(weights[1]) < 0.5
    assert train.log_loss(weights, synthetic) < train.log_loss([0.0, 0.0], synthetic)


def test_recorded_games_are_labelled_by_their_winner(tmp_path):
    """``train_value.py --views``: a game recorded elsewhere (``benchmarks/domination/run.py
    --record``) gives one sample per turn-start view, its target the recorded winner."""
    train = _train_value()
    harness = Path(__file__).resolve().parent.parent / "benchmarks" / "domination" / "run.py"
    spec = importlib.util.spec_from_file_location("domination_run", harness)
    assert spec is not None and spec.loader is not None
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    rules = rules_for(3)
    owner = {t: t % 3 for t in range(42)}
    views = []
    for seat in (1, 1):
        state = make_state(rules, owner, seat=seat, phase=Phase.REINFORCE, to_place=4, round=2)
        views.append({k: rules.view(state, seat)[k] for k in run.RECORDED})
    lines = [{"winner": 2, "views": views}, {"winner": -1, "views": views}]
    path = tmp_path / "views.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    (game,) = train.recorded(path)  # a game without a winner is left out
    assert len(game) == 2
    for rows, target, mover in game:
        assert target == [0.0, 0.0, 1.0] and mover == 1 and len(rows) == 3


def _strong_part(module: str):
    """A module of the strong bot's package, imported as the arena imports the bot."""
    return bot_module(find_bot("strong").path, module)


def _geometry():
    return _strong_part("geometry").Geometry(classic_board())


def _cornered(phase: Phase):
    """Seat 1 holds only Peru (2) and Argentina (3); seat 0 borders both from Brazil."""
    rules = rules_for(3)
    owner = {tid("Brazil"): 0, tid("Peru"): 1, tid("Argentina"): 1, tid("Egypt"): 0}
    armies = {tid("Brazil"): 12, tid("Peru"): 2, tid("Argentina"): 3}
    state = make_state(
        rules, owner, default_owner=2, armies=armies, phase=phase, to_place=5, round=2
    )
    return rules, state


def test_a_kill_plan_is_the_likeliest_path_through_a_rivals_territories():
    kills = _strong_part("kills")
    _, state = _cornered(Phase.ATTACK)
    g = _geometry()
    peru, argentina, brazil = tid("Peru"), tid("Argentina"), tid("Brazil")
    odds, path = kills.kill_plan(g, state.owner, state.armies, 0)
    both = {
        (peru, argentina): chain_odds(11, [2, 3]),
        (argentina, peru): chain_odds(11, [3, 2]),
    }
    assert path[0] == brazil and odds == max(both.values())
    assert both[tuple(path[1:])] == odds
    # Five new armies on Brazil make it likelier; too few armies make no plan at all.
    assert kills.kill_plan(g, state.owner, state.armies, 0, 5, [brazil])[0] > odds
    state.armies[brazil] = 4
    assert kills.kill_plan(g, state.owner, state.armies, 0) is None


def test_strong_follows_a_likely_elimination_without_searching():
    rules, state = _cornered(Phase.REINFORCE)
    bot = _started("strong", rules, 0)
    action, _ = _ask(bot, rules, state, 0)
    assert action == Place(((tid("Brazil"), 5),))
    rules, state = _cornered(Phase.ATTACK)
    action, _ = _ask(bot, rules, state, 0)
    _, path = _strong_part("kills").kill_plan(_geometry(), state.owner, state.armies, 0)
    assert isinstance(action, Attack) and action.until == 1  # rolls to the capture
    assert [action.source, action.target] == path[:2]
    # Peru taken: the whole stack moves on towards Argentina.
    rules, state = _cornered(Phase.OCCUPY)
    state.owner[tid("Peru")], state.armies[tid("Peru")] = 0, 3
    state.armies[tid("Brazil")] = 9
    state.occupy = (tid("Brazil"), tid("Peru"), 3)
    action, _ = _ask(bot, rules, state, 0)
    assert action == Occupy(11)


def _spread(phase: Phase):
    """Seat 1 holds Peru, Argentina, Egypt and East Africa (1 army each): no single path
    takes them all, but Brazil and the Middle East (8 armies each) can between them."""
    rules = rules_for(3)
    rival = ("Peru", "Argentina", "Egypt", "East Africa")
    owner = {tid("Brazil"): 0, tid("Middle East"): 0} | {tid(t): 1 for t in rival}
    armies = {tid("Brazil"): 8, tid("Middle East"): 8}
    state = make_state(
        rules, owner, default_owner=2, armies=armies, phase=phase, to_place=3, round=2
    )
    return rules, state, {tid(t) for t in rival}


def test_strong_sweeps_a_rival_that_one_path_cannot_take():
    rules, state, rival = _spread(Phase.REINFORCE)
    assert _strong_part("kills").kill_plan(_geometry(), state.owner, state.armies, 0) is None
    bot = _started("strong", rules, 0)
    action, _ = _ask(bot, rules, state, 0)
    assert isinstance(action, Place)
    ((where, count),) = action.placements
    assert where in (tid("Brazil"), tid("Middle East")) and count == 3
    rules, state, rival = _spread(Phase.ATTACK)
    action, _ = _ask(bot, rules, state, 0)
    assert isinstance(action, Attack) and action.target in rival and action.until == 1
    # Too many defenders for the stacks next to them: no sweep is started.
    rules, state, rival = _spread(Phase.ATTACK)
    for t in rival:
        state.armies[t] = 5
    bot = _started("strong", rules, 0)
    _ask(bot, rules, state, 0)
    assert bot.kill is None  # type: ignore[attr-defined]


def test_a_sweep_attacks_with_the_widest_margin_and_moves_where_the_rival_is():
    sweeps = _strong_part("sweeps")
    g = _geometry()
    _, state, _ = _spread(Phase.ATTACK)
    brazil, peru, argentina = tid("Brazil"), tid("Peru"), tid("Argentina")
    state.armies[tid("Middle East")] = 3
    assert sweeps.sweep_attack(g, state.owner, state.armies, 0, 1) == (brazil, peru)
    state.armies[brazil] = 2
    state.armies[peru] = state.armies[argentina] = 2
    state.armies[tid("Egypt")] = state.armies[tid("East Africa")] = 3
    assert sweeps.sweep_attack(g, state.owner, state.armies, 0, 1) is None  # no margin left
    # Peru taken from Brazil: Argentina borders both, so the stack goes on whole.
    state.owner[peru] = 0
    assert sweeps.sweep_occupy(g, state.owner, state.armies, 1, brazil, peru, 3, 9) == 9
    # Argentina taken from Brazil, Peru still the rival's: it borders both too.
    state.owner[peru], state.owner[argentina] = 1, 0
    assert sweeps.sweep_occupy(g, state.owner, state.armies, 1, brazil, argentina, 3, 9) == 9
    # Egypt taken from the Middle East: East Africa borders both; North Africa, the
    # rival's now too, only Egypt: all go on.
    state.owner[tid("North Africa")] = 1
    middle_east, egypt = tid("Middle East"), tid("Egypt")
    state.owner[egypt] = 0
    assert sweeps.sweep_occupy(g, state.owner, state.armies, 1, middle_east, egypt, 3, 9) == 9
    # Nothing of the rival's next to the captured territory, some next to the source: stay.
    state.owner[tid("North Africa")] = state.owner[tid("East Africa")] = 2
    state.owner[tid("Ukraine")] = 1
    assert sweeps.sweep_occupy(g, state.owner, state.armies, 1, middle_east, egypt, 3, 9) == 3


def test_an_elimination_under_way_chases_the_last_territory_through_others():
    """No stack borders Madagascar, the rival's last territory: the kill goes on from the
    Congo through a third seat's territory next to it."""
    sweeps, eliminations = _strong_part("sweeps"), _strong_part("eliminations")
    g = _geometry()
    rules = rules_for(3)
    congo, madagascar = tid("Congo"), tid("Madagascar")
    state = make_state(
        rules, {congo: 0, madagascar: 1}, default_owner=2, armies={congo: 10}, to_place=3
    )
    owner, armies = state.owner, state.armies
    assert sweeps.sweep_attack(g, owner, armies, 0, 1) is None
    (src, dst), path = eliminations.kill_step(g, owner, armies, 0, 1, None)
    assert src == congo and dst in (tid("South Africa"), tid("East Africa"))
    assert path == [congo, dst, madagascar]
    # A rival out of reach of every stack is given up.
    armies[congo] = 3
    assert eliminations.kill_step(g, owner, armies, 0, 1, None) == (None, None)


@pytest.mark.parametrize("players", [2, 3])
def test_two_player_rollouts_leave_the_reply_to_the_value(players):
    """With two players a rollout stops when the opponent is to move (the fast policy's
    reply misjudged `planner`'s); with more it plays every reply until this seat's turn."""
    rules = rules_for(players)
    owner = {t: (t % players if t % 7 else -1 if players == 2 else 1) for t in range(42)}
    state = make_state(rules, owner, armies={t: 4 for t in range(42)}, phase=Phase.FORTIFY)
    bot = _started("strong", rules, 0)
    sim, rollout = bot.sim, bot.rollout  # type: ignore[attr-defined]
    world = sim.sample(rules.view(state, 0), random.Random(3))
    board = (list(world.owner), list(world.armies))
    value = rollout.finish(world)
    assert 0.0 <= value <= 1.0
    if players == 2:
        # Its own turn ended (no fortify: the value alone judges those), nothing else played.
        assert (world.seat, world.turns) == (1, state.turns + 1)
        assert world.phase in (Phase.REINFORCE, Phase.TRADE)
        assert (list(world.owner), list(world.armies)) == board
    else:
        assert (world.seat, world.turns) == (0, state.turns + players)
        assert (list(world.owner), list(world.armies)) != board


def test_rollout_attacks_favour_a_continent_and_a_last_territory():
    """The rollouts' attack rule: a margin of two armies, or less when the capture completes
    a continent or takes a rival's last territory (the cards come with it)."""
    rules = rules_for(3)
    new_guinea, east, west = tid("New Guinea"), tid("Eastern Australia"), tid("Western Australia")
    owner = {tid("Indonesia"): 0, new_guinea: 0, west: 0, east: 2, tid("Argentina"): 1}
    armies = {new_guinea: 3, east: 1, west: 1, tid("Indonesia"): 1}
    state = make_state(rules, owner, default_owner=2, armies=armies, default_armies=6)
    rollout = _started("strong", rules, 0).rollout  # type: ignore[attr-defined]
    attack = rollout.attack(state, 0)
    # One army up on the last territory of Australia: taken.
    assert (attack.source, attack.target) == (new_guinea, east)
    # The same margin with Western Australia lost completes nothing: no attack.
    state.owner[west], state.armies[west] = 2, 6
    assert rollout.attack(state, 0) is None
    # A rival's last territory, one army up, beats a margin of four elsewhere.
    state.owner[tid("Argentina")], state.armies[tid("Argentina")] = 2, 6
    state.owner[east] = 1
    state.owner[tid("Siam")], state.armies[tid("Siam")] = 0, 6
    state.owner[tid("India")], state.armies[tid("India")] = 2, 1
    attack = rollout.attack(state, 0)
    assert (attack.source, attack.target) == (new_guinea, east)
    # Without the elimination the wider margin is the better attack.
    state.owner[tid("Argentina")] = 1
    attack = rollout.attack(state, 0)
    assert (attack.source, attack.target) == (tid("Siam"), tid("India"))


@pytest.mark.parametrize("sets", ["progressive", "fixed"])
def test_strong_trades_the_set_that_brings_the_territory_bonus(sets):
    """Of two sets worth the same, the one holding a card of its own territory (+2 armies on
    it), and a wild is kept when a plain set does as well."""
    from arena.games.classic.board import INFANTRY, WILD, classic_board

    symbols = classic_board().card_symbols
    infantry = [c for c, k in enumerate(symbols) if k == INFANTRY][:4]
    wild = symbols.index(WILD)
    rules = rules_for(3, sets=sets)
    mine = infantry[-1]  # the last of the sets, so not the first offered
    others = [t for t in range(42) if t not in infantry]
    owner = {mine: 0, others[0]: 0, others[1]: 2, others[2]: 2}
    hands = {0: [*infantry, wild]}
    state = make_state(
        rules, owner, default_owner=1, phase=Phase.TRADE, hands=hands, to_place=3, round=2
    )
    options = rules.legal_options(state, 0)
    assert mine not in options.sets[0]
    bot = _started("strong", rules, 0)
    action, _ = _ask(bot, rules, state, 0)
    rules.check(state, 0, action)
    assert mine in action.cards and wild not in action.cards
    assert action.bonus_territory == mine


def test_strongs_copy_of_the_planner_is_the_frozen_planners_code() -> None:
    """``bots/strong/planner/`` is a copy of ``bots/planner``'s modules (a bot's version is
    the hash of its own folder, and a sandboxed bot sees only its folder): a change to one
    that misses the other fails here, so a divergence is always a decision."""
    bots = Path(__file__).resolve().parent.parent / "bots"
    frozen = {p.name: p.read_text() for p in (bots / "planner").glob("*.py")}
    copied = {p.name: p.read_text() for p in (bots / "strong" / "planner").glob("*.py")}
    assert set(copied) - {"__init__.py"} == set(frozen)
    assert all(copied[name] == text for name, text in frozen.items())
