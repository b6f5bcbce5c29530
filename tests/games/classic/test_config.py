"""ClassicConfig.parse: the rule book's variant checks, defaults and error messages."""

from __future__ import annotations

import pytest

from arena.errors import ConfigError
from arena.games.classic import ClassicConfig
from arena.games.classic.config import parse_rules_args

# ----------------------------------------------------------------------------- rejections


@pytest.mark.parametrize(
    ("options", "players", "fragments"),
    [
        pytest.param({"colour": "red"}, 3, ("colour", "valid keys", "mode"), id="unknown-key"),
        pytest.param({"players": "4"}, 3, ("players",), id="players-is-not-a-rules-key"),
        pytest.param(
            {"mode": "conquest"}, 3, ("mode", "world", "mission", "capital"), id="bad-mode"
        ),
        pytest.param({"sets": "double"}, 3, ("increasing", "progressive", "fixed"), id="bad-sets"),
        pytest.param({"fortify": "anywhere"}, 3, ("adjacent", "connected"), id="bad-fortify"),
        pytest.param({"deal": "draft"}, 3, ("claim", "random"), id="bad-deal"),
        pytest.param({"capital_goal": "half"}, 4, ("full", "short"), id="bad-capital-goal"),
        pytest.param({"advantage_reroll": "maybe"}, 3, ("false", "true"), id="bad-bool"),
        pytest.param({"mode": "mission"}, 2, ("mission", "3-6"), id="mission-with-2-players"),
        pytest.param({"deal": "claim"}, 2, ("deal",), id="claim-with-2-players"),
        pytest.param(
            {"mode": "capital", "deal": "claim"}, 2, ("deal",), id="claim-with-2-players-capital"
        ),
        pytest.param({"mode": "mission", "deal": "claim"}, 4, ("deal",), id="claim-with-mission"),
        pytest.param({"capital_goal": "short"}, 4, ("capital",), id="short-without-capital"),
        pytest.param(
            {"mode": "mission", "capital_goal": "short"}, 5, ("capital",), id="short-with-mission"
        ),
        pytest.param(
            {"mode": "capital", "capital_goal": "short"}, 3, ("4-6",), id="short-with-3-players"
        ),
        pytest.param(
            {"mode": "capital", "capital_goal": "short"}, 2, ("4-6",), id="short-with-2-players"
        ),
        pytest.param({"max_rounds": "0"}, 3, ("max_rounds",), id="max-rounds-zero"),
        pytest.param({"max_rounds": "-5"}, 3, ("max_rounds",), id="max-rounds-negative"),
        pytest.param({"max_rounds": "ten"}, 3, ("max_rounds",), id="max-rounds-word"),
        pytest.param({"max_rounds": "2.5"}, 3, ("max_rounds",), id="max-rounds-fraction"),
        pytest.param({"max_rounds": ""}, 3, ("max_rounds",), id="max-rounds-empty"),
        pytest.param({}, 1, ("2-6",), id="one-player"),
        pytest.param({}, 0, ("2-6",), id="no-players"),
        pytest.param({}, 7, ("2-6",), id="seven-players"),
        pytest.param({"mode": "mission"}, 7, ("2-6",), id="seven-players-mission"),
    ],
)
def test_parse_rejects(options, players, fragments):
    with pytest.raises(ConfigError) as info:
        ClassicConfig.parse(options, players)
    message = str(info.value)
    assert "\n" not in message, "config errors are one line"
    for fragment in fragments:
        assert fragment in message, f"{fragment!r} missing from {message!r}"


def test_config_error_is_a_value_error():
    with pytest.raises(ValueError):
        ClassicConfig.parse({"mode": "nope"}, 3)


# ------------------------------------------------------------------------------- accepted


@pytest.mark.parametrize(
    ("options", "players", "expected"),
    [
        pytest.param({}, 3, {"mode": "world", "deal": "claim"}, id="world-3p-claims"),
        pytest.param({}, 6, {"mode": "world", "deal": "claim"}, id="world-6p-claims"),
        pytest.param({}, 2, {"mode": "world", "deal": "random"}, id="2p-deals"),
        pytest.param({"mode": "capital"}, 2, {"deal": "random"}, id="2p-capital-deals"),
        pytest.param({"mode": "mission"}, 3, {"deal": "random"}, id="mission-3p-deals"),
        pytest.param({"mode": "mission"}, 6, {"deal": "random"}, id="mission-6p-deals"),
        pytest.param({"mode": "capital"}, 4, {"deal": "claim"}, id="capital-4p-claims"),
        pytest.param({"deal": "random"}, 4, {"deal": "random"}, id="explicit-random"),
        pytest.param({"deal": "random"}, 2, {"deal": "random"}, id="explicit-random-2p"),
        pytest.param(
            {"mode": "mission", "deal": "random"}, 5, {"deal": "random"}, id="mission-random"
        ),
        pytest.param({"max_rounds": "1"}, 3, {"max_rounds": 1}, id="max-rounds-one"),
        pytest.param({"max_rounds": " 40 "}, 3, {"max_rounds": 40}, id="max-rounds-spaces"),
        pytest.param({"advantage_reroll": "true"}, 3, {"advantage_reroll": True}, id="reroll-true"),
        pytest.param(
            {"advantage_reroll": "false"}, 3, {"advantage_reroll": False}, id="reroll-false"
        ),
        pytest.param(
            {"mode": "capital", "capital_goal": "short"},
            4,
            {"capital_goal": "short"},
            id="short-4p",
        ),
        pytest.param({"mode": "capital", "capital_goal": "full"}, 3, {}, id="full-3p"),
        pytest.param({"fortify": "connected", "sets": "fixed"}, 5, {}, id="fortify-sets"),
    ],
)
def test_parse_accepts(options, players, expected):
    config = ClassicConfig.parse(options, players)
    assert config.players == players
    for key, value in expected.items():
        assert getattr(config, key) == value, key


def test_defaults():
    config = ClassicConfig.parse({}, 3)
    assert config.mode == "world"
    assert config.capital_goal == "full"
    assert config.sets == "increasing"
    assert config.fortify == "adjacent"
    assert config.advantage_reroll is False
    assert config.deal == "claim"
    assert config.max_rounds >= 1


@pytest.mark.parametrize(
    ("players", "armies", "neutral"),
    [
        pytest.param(2, 40, True, id="2p-40-plus-neutral"),
        pytest.param(3, 35, False, id="3p-35"),
        pytest.param(4, 30, False, id="4p-30"),
        pytest.param(5, 25, False, id="5p-25"),
        pytest.param(6, 20, False, id="6p-20"),
    ],
)
def test_starting_armies(players, armies, neutral):
    config = ClassicConfig.parse({}, players)
    assert config.starting_armies == armies
    assert config.neutral is neutral


@pytest.mark.parametrize(
    ("players", "options", "needed"),
    [
        pytest.param(4, {"mode": "capital", "capital_goal": "short"}, 2, id="4p-short-2"),
        pytest.param(5, {"mode": "capital", "capital_goal": "short"}, 3, id="5p-short-3"),
        pytest.param(6, {"mode": "capital", "capital_goal": "short"}, 3, id="6p-short-3"),
        pytest.param(4, {"mode": "capital"}, 0, id="4p-full-all"),
        pytest.param(4, {}, 0, id="world"),
    ],
)
def test_short_capitals(players, options, needed):
    assert ClassicConfig.parse(options, players).short_capitals == needed


@pytest.mark.parametrize(
    ("options", "players"),
    [
        pytest.param({}, 2, id="2p"),
        pytest.param({"mode": "mission", "sets": "progressive"}, 5, id="mission"),
        pytest.param(
            {"mode": "capital", "capital_goal": "short", "max_rounds": "12"}, 6, id="capital"
        ),
        pytest.param({"advantage_reroll": "true", "fortify": "connected"}, 3, id="reroll"),
    ],
)
def test_dict_round_trip(options, players):
    config = ClassicConfig.parse(options, players)
    assert ClassicConfig.from_dict(config.to_dict()) == config


def test_from_dict_applies_the_same_checks():
    data = ClassicConfig.parse({}, 3).to_dict()
    data["mode"] = "mission"
    data["deal"] = "claim"
    with pytest.raises(ConfigError):
        ClassicConfig.from_dict(data)


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        pytest.param(["mode=mission"], {"mode": "mission"}, id="one"),
        pytest.param(["mode=world", "mode=capital"], {"mode": "capital"}, id="later-wins"),
        pytest.param(
            ["Deal=random", "max_rounds=9"], {"deal": "random", "max_rounds": "9"}, id="two"
        ),
    ],
)
def test_parse_rules_args(items, expected):
    assert parse_rules_args(items) == expected


@pytest.mark.parametrize("item", ["mode", "mode=", "=mission", " = "], ids=str)
def test_parse_rules_args_rejects(item):
    with pytest.raises(ConfigError):
        parse_rules_args([item])
