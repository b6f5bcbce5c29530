"""RISK: Europe's encoder: fixed shape and bounds over random play, the layout, what moves the
numbers (public facts, the seat's own secrets) and what must not (another seat's secrets)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from arena import games  # noqa: E402
from arena.envs.games import europe  # noqa: E402
from arena.errors import ArenaError  # noqa: E402
from arena.games.europe.actions import Cards  # noqa: E402
from arena.games.europe.board import europe_board  # noqa: E402
from arena.games.europe.config import ARMIES  # noqa: E402
from arena.games.europe.game import KINDS  # noqa: E402

ASK_ALL = {"casualties": "ask", "castle_reroll": "ask", "battle_order": "ask"}
CONFIGS = [(players, missions) for players in (2, 3, 4) for missions in ("false", "true")]
GAMES_PER_CONFIG = 2


@dataclass
class Sample:
    """One seat's decision met in random play."""

    game: Any
    state: Any
    seat: int
    kind: str
    choices: int


def _configured(players: int, missions: str = "false") -> Any:
    return games.load("europe").configure({"missions": missions}, players)


def _play(players: int, missions: str, seed: int) -> list[Sample]:
    game = _configured(players, missions)
    rng = random.Random(seed)
    state = game.new_game(seed, [ASK_ALL] * players)
    found = []
    while (decision := game.decision(state)) is not None:
        picks = {}
        for seat in decision.seats:
            choices = game.choices(game.legal_options(state, seat))
            found.append(Sample(game, state, seat, decision.kind, len(choices)))
            picks[seat] = rng.choice(list(choices))
        state = game.apply_joint(state, picks).state
    return found


@pytest.fixture(scope="module")
def samples() -> list[Sample]:
    """Every decision of a few random games per configuration, then the game's own first
    position of every kind (a castle re-roll is rare in random play)."""
    played = [
        sample
        for players, missions in CONFIGS
        for seed in range(GAMES_PER_CONFIG)
        for sample in _play(players, missions, 1000 * players + seed)
    ]
    firsts = [
        Sample(
            p.game,
            p.state,
            p.seat,
            p.kind,
            len(p.game.choices(p.game.legal_options(p.state, p.seat))),
        )
        for p in games.load("europe").positions()
    ]
    return played + firsts


def _block(encoder: Any, name: str) -> slice:
    start = 0
    for block, length in encoder.layout():
        if block == name:
            return slice(start, start + length)
        start += length
    raise AssertionError(f"no block {name!r}")


def _encoded(sample: Sample, seat: int | None = None) -> Any:
    seat = sample.seat if seat is None else seat
    return europe.encoder(sample.game).encode(sample.game.view(sample.state, seat), sample.kind)


def _first(samples: list[Sample], kind: str, players: int, missions: str = "false") -> Sample:
    for sample in samples:
        config = sample.game.config()
        if (
            sample.kind == kind
            and sample.game.players == players
            and config["missions"] == (missions == "true")
        ):
            return sample
    raise AssertionError(f"no {kind} decision with {players} players, missions={missions}")


def test_every_random_state_encodes_to_the_fixed_shape_within_bounds(
    samples: list[Sample],
) -> None:
    encoders = {}
    for sample in samples[::3]:
        key = id(sample.game)
        encoder = encoders.setdefault(key, europe.encoder(sample.game))
        encoded = encoder.encode(sample.game.view(sample.state, sample.seat), sample.kind)
        assert encoded.dtype == np.float32
        assert encoded.shape == (encoder.observation_size(),)
        assert encoded.min() >= 0.0 and encoded.max() <= 1.0, sample.kind
    assert {s.kind for s in samples} == set(KINDS)


def test_the_layout_names_blocks_whose_lengths_sum_to_the_size() -> None:
    for players in (2, 3, 4):
        encoder = europe.encoder(_configured(players))
        layout = encoder.layout()
        assert sum(length for _, length in layout) == encoder.observation_size()
        assert len({name for name, _ in layout}) == len(layout)
        assert all(length > 0 for _, length in layout)
    assert europe.encoder(_configured(2)).observation_size() == encoder.observation_size()


def test_max_actions_covers_every_choice_list_of_random_play(samples: list[Sample]) -> None:
    encoder = europe.encoder(_configured(4))
    assert max(s.choices for s in samples) <= encoder.max_actions
    board = europe_board()  # the largest list: every gold city free for the first kingdom
    kingdoms = sum(
        1 + 2 * sum(1 for t in board.adjacent[c] if not board.tax[t]) for c in board.gold_cities
    )
    assert max(s.choices for s in samples if s.kind == "kingdom") == kingdoms
    assert kingdoms <= encoder.max_actions


def test_the_kind_block_is_one_hot_on_the_decision_kind(samples: list[Sample]) -> None:
    sample = _first(samples, "turn", 3)
    encoder = europe.encoder(sample.game)
    view = sample.game.view(sample.state, sample.seat)
    block = _block(encoder, "kind")
    for i, kind in enumerate(KINDS):
        one_hot = encoder.encode(view, kind)[block]
        assert one_hot.sum() == 1.0 and one_hot[i] == 1.0


def test_an_unknown_kind_is_a_one_line_error(samples: list[Sample]) -> None:
    sample = samples[0]
    with pytest.raises(ArenaError, match="europe has no decision kind 'attack'"):
        europe.encoder(sample.game).encode(sample.game.view(sample.state, 0), "attack")


def _differing_blocks(encoder: Any, a: Any, b: Any) -> set[str]:
    changed = set(np.flatnonzero(a != b))
    found, start = set(), 0
    for name, length in encoder.layout():
        if changed & set(range(start, start + length)):
            found.add(name)
        start += length
    return found


def test_a_unit_moving_and_a_coin_paid_change_the_encoding(samples: list[Sample]) -> None:
    sample = _first(samples, "turn", 4)
    game, state = sample.game, sample.state
    encoder = europe.encoder(game)
    other = (sample.seat + 1) % 4
    held = [t for t in range(len(state.owner)) if state.owner[t] == other]
    source = next(t for t in held if state.of(t, other)[0] >= 2)
    target = next(t for t in held if t != source)
    moved = game.copy(state)
    moved.units[(source * ARMIES + other) * 4] -= 1
    moved.units[(target * ARMIES + other) * 4] += 1
    paid = game.copy(state)
    paid.coins[other] -= 1
    before = encoder.encode(game.view(state, sample.seat), sample.kind)
    after_move = encoder.encode(game.view(moved, sample.seat), sample.kind)
    after_pay = encoder.encode(game.view(paid, sample.seat), sample.kind)
    assert _differing_blocks(encoder, before, after_move) == {"units"}
    assert _differing_blocks(encoder, before, after_pay) == {"coins"}


def test_armies_are_seen_from_the_observing_seat(samples: list[Sample]) -> None:
    sample = _first(samples, "turn", 4)
    game, state = sample.game, sample.state
    encoder = europe.encoder(game)
    owner = _block(encoder, "owner")
    for seat in range(4):
        held = np.flatnonzero(encoder.encode(game.view(state, seat), "turn")[owner][0::ARMIES])
        assert [int(t) for t in held] == [
            t for t in range(len(state.owner)) if state.owner[t] == seat
        ]


def _after_cards(sample: Sample, second: int) -> Any:
    """The state after every seat chose its cards, seat 1 choosing its hand's first card for
    turn 1 and ``second`` for turn 2 (the others their first two)."""
    game, state = sample.game, sample.state
    picks = {}
    for seat in game.decision(state).seats:
        hand = [c for c in range(8) if state.hand[seat] >> c & 1]
        picks[seat] = Cards(hand[0], second if seat == 1 else hand[1])
    return game.apply_joint(state, picks).state


def test_another_seats_hidden_card_and_hand_leave_the_encoding_unchanged(
    samples: list[Sample],
) -> None:
    sample = _first(samples, "cards", 4)
    game = sample.game
    hand = [c for c in range(8) if sample.state.hand[1] >> c & 1]
    one, two = _after_cards(sample, hand[1]), _after_cards(sample, hand[2])
    assert one.second[1] != two.second[1] and one.hand[1] != two.hand[1]
    encoder = europe.encoder(game)
    kind = game.decision(one).kind
    assert kind == game.decision(two).kind
    for seat in (0, 2, 3):  # seat 1's turn-2 card stays face down until turn 2
        assert game.view(one, seat) == game.view(two, seat)
        mine, theirs = (
            encoder.encode(game.view(one, seat), kind),
            encoder.encode(game.view(two, seat), kind),
        )
        assert (mine == theirs).all()
    changed = _differing_blocks(
        encoder, encoder.encode(game.view(one, 1), kind), encoder.encode(game.view(two, 1), kind)
    )
    assert changed == {"cards", "hand"}


def test_the_seats_own_hand_and_cards_are_encoded(samples: list[Sample]) -> None:
    sample = _first(samples, "cards", 3)
    game, state = sample.game, sample.state
    encoder = europe.encoder(game)
    hand_block = _block(encoder, "hand")
    for seat in range(3):
        encoded = encoder.encode(game.view(state, seat), "cards")
        own = encoded[hand_block][:8]
        assert [int(c) for c in np.flatnonzero(own)] == [
            c for c in range(8) if state.hand[seat] >> c & 1
        ]
        assert encoded[_block(encoder, "hand_seen")][0] == 1.0
        others = encoded[hand_block][8 : 8 * game.players]
        assert not others.any()  # other seats' hands are not in their views


def test_another_seats_missions_are_hidden_and_the_seats_own_are_encoded(
    samples: list[Sample],
) -> None:
    sample = _first(samples, "turn", 4, missions="true")
    game = sample.game
    encoder = europe.encoder(game)
    one, two = game.copy(sample.state), game.copy(sample.state)
    one.missions[1], two.missions[1] = [2], [5]
    for seat in (0, 2, 3):
        assert (
            encoder.encode(game.view(one, seat), "turn")
            == encoder.encode(game.view(two, seat), "turn")
        ).all()
    mine = _block(encoder, "my_missions")
    assert np.flatnonzero(encoder.encode(game.view(one, 1), "turn")[mine]).tolist() == [2]
    assert np.flatnonzero(encoder.encode(game.view(two, 1), "turn")[mine]).tolist() == [5]


def test_the_decision_context_is_encoded(samples: list[Sample]) -> None:
    """A battle's re-roll shows the battle; a casualty choice the loss; a kept mission's
    draw the two missions."""
    encoder = europe.encoder(_configured(4))
    reroll = next(s for s in samples if s.kind == "reroll")
    encoded = _encoded(reroll)
    fight = reroll.state.battle
    assert encoded[_block(encoder, "battle_here")][fight.territory] == 1.0
    assert encoded[_block(encoder, "battle")][fight.rank - 1] == 1.0
    assert encoded[_block(encoder, "acting")][0] == 1.0  # the defender decides: itself
    casualties = next(s for s in samples if s.kind == "casualties")
    loss = casualties.state.losses[0]
    assert _encoded(casualties)[_block(encoder, "loss_here")][loss.territory] == 1.0
    mission = next(s for s in samples if s.kind == "mission")
    drawn = _encoded(mission)[_block(encoder, "drawn")]
    first, second = mission.state.drawn
    assert drawn[first] == 1.0 and drawn[8 + second] == 1.0
    others = (mission.seat + 1) % mission.game.players
    assert not _encoded(mission, others)[_block(encoder, "drawn")].any()
