"""Each game's SDK package is found by the game's name: the neutral Bot gets that game's
default answers and declarations from it, each game's bot base class carries only its own
game's methods, and ``arena match --bot human`` finds the game's terminal seat there."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from arena import games
from arena.catalog import find_bot, load_bot
from arena.cli.common import EXIT_USAGE
from arena.games.classic.game import GAME as CLASSIC
from arena.sdk import Bot, EndAttack, MatchInfo, Place, Request, default_answer, game_sdk
from arena.sdk.classic import KINDS, ClassicBot
from arena.sdk.europe import EuropeBot, EuropeMap
from arena.sdk.europe.human import HumanBot as EuropeHuman
from arena.sdk.human_seat import human_games, human_seat
from tests.cli_run import Capsys, run

GUESSER = Path(__file__).resolve().parent / "games" / "bots" / "guesser"


class Bare(Bot):
    name = "bare"


class Defends(Bot):
    """A bot on the neutral Bot that declares classic's always-max defence, as bots written
    before ClassicBot existed do."""

    always_max_defence = True


class Classic(ClassicBot):
    name = "classic-bot"


def classic_request(kind: str) -> Request:
    """A real classic request of ``kind`` from a seeded game (the first one met)."""
    game = CLASSIC.configure({}, 3)
    state = game.new_game(3)
    while (decision := game.decision(state)) is not None:
        seat = decision.seats[0]
        options = game.legal_options(state, seat)
        if decision.kind == kind:
            return Request.make(seat, game.view(state, seat), options)
        state = game.apply(state, seat, game.default_action(state, seat)).state
    raise AssertionError(f"no {kind} decision met")


def test_the_neutral_bot_answers_option_0_to_an_unknown_games_kind() -> None:
    request = Request("place", 0, {}, {}, choices=["a", "b"], game="no-such-game")
    assert Bare().choose(request) == 0
    assert default_answer(request) == 0
    assert Bare().declarations("no-such-game") == {}


def test_the_neutral_bot_plays_a_games_defaults_from_its_sdk_package() -> None:
    assert Bare().choose(classic_request("attack")) == EndAttack()
    reinforce = classic_request("reinforce")
    answer = Bare().choose(reinforce)
    assert isinstance(answer, Place) and answer == Classic().choose(reinforce)


def test_declarations_come_from_the_games_package() -> None:
    assert Bare().declarations("classic") == {"always_max_defence": False}
    assert Defends().declarations("classic") == {"always_max_defence": True}
    assert Defends().declarations("europe") == {}


def test_a_europe_bot_class_has_none_of_classics_per_kind_methods() -> None:
    heuristic = type(load_bot(find_bot("europe-heuristic")))
    for cls in (EuropeBot, EuropeHuman, heuristic, Bot):
        assert not [kind for kind in KINDS if hasattr(cls, kind)], cls
    assert all(callable(getattr(ClassicBot, kind)) for kind in KINDS)


def test_a_classic_bots_defaults_answer_classic_requests_only() -> None:
    # classic's ``place`` reads ``options.armies``; another game's ``place`` gets option 0
    for kind in KINDS:
        request = Request(kind, 0, {}, {"kind": kind}, choices=[{}, {}], game="europe")
        assert Classic().choose(request) == 0


def test_a_europe_bot_knows_the_map_of_its_match() -> None:
    bot = EuropeBot()
    assert bot.declarations("europe") == {}
    assert bot.declarations("classic") == {"always_max_defence": False}
    game = games.load("europe").configure({}, 2)
    bot.start(MatchInfo("europe", {}, 0, 2, 1, game.board()))
    assert isinstance(bot.map, EuropeMap) and bot.map.size == len(game.board()["territories"])


def test_a_game_is_found_by_name_and_an_sdk_module_is_not_a_game() -> None:
    assert game_sdk.package("classic") is not None
    for name in ("wire", "bot", "no_such_game", "classic-variant", ""):
        assert game_sdk.package(name) is None
    assert game_sdk.module("europe", "human") is not None
    assert game_sdk.module("europe", "no_such_module") is None


def test_each_games_human_seat_is_found_by_name() -> None:
    from arena.sdk.classic.human import HumanBot as ClassicHuman

    assert human_seat("classic") is ClassicHuman
    assert human_seat("europe") is EuropeHuman
    assert human_seat("no-such-game") is None
    assert human_games() == ("classic", "europe")


@pytest.fixture
def guessing() -> Iterator[None]:
    """The test-only guessing game registered: a game without an SDK package."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(games, "_ENTRIES", dict(games._ENTRIES))
        games.register("guessing", "tests.games.guessing")
        yield


@pytest.mark.usefixtures("guessing")
def test_the_human_seat_names_the_games_it_plays(capsys: Capsys) -> None:
    assert human_seat("guessing") is None
    code, _, err = run(
        capsys, "match", "--game", "guessing", "--bot", "human", "--bot", str(GUESSER)
    )
    assert code == EXIT_USAGE
    assert err == "arena: error: the human seat plays only classic and europe, not guessing\n"
