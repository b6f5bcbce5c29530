"""The SDK's Bot is game-neutral: a kind without a method gets the first option, never a crash."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from arena.catalog import read_spec
from arena.referee import local
from arena.referee.match import TimeControl, play_match
from arena.sdk import Answer, Bot, EndAttack, Request
from arena.sdk.classic import KINDS
from tests.classic_helpers import game_of, rules_for

pytestmark = pytest.mark.usefixtures("both_in_process_paths")
"""Every test here runs on both in-process paths (see tests/conftest.py)."""

STARTUP = 60.0
"""Generous: a loaded machine may take many seconds to start a Python bot."""


class Bare(Bot):
    """No methods at all: everything comes from the SDK's defaults."""

    name = "bare"


class Recording(Bot):
    """No decision methods; notes the game of every request it is asked."""

    name = "recording"

    def __init__(self) -> None:
        self.games: list[str] = []

    def choose(self, request: Request) -> Answer:
        self.games.append(request.game)
        return super().choose(request)


class OnlyAttack(Bot):
    name = "only-attack"

    def attack(self, request: Request) -> Answer:
        return EndAttack()


class Bidder(Bot):
    name = "bidder"

    def bid(self, request: Request) -> Answer:
        return len(request.choices) - 1


def foreign(kind: str, choices: int = 2, game: str = "europe") -> Request:
    """A request of another game, as the SDK would decode it: options opaque to classic."""
    return Request(
        kind, 0, {}, {"kind": kind}, choices=[{"bid": i} for i in range(choices)], game=game
    )


def test_a_kind_without_a_method_gets_the_first_option():
    for bot in (Bare(), OnlyAttack()):
        assert bot.choose(foreign("bid")) == 0
        assert bot.choose(foreign("bid", game="classic")) == 0


def test_a_method_named_after_a_kind_answers_it_in_any_game():
    assert Bidder().choose(foreign("bid", choices=3)) == 2


def test_classic_defaults_are_not_applied_to_another_games_kind_of_the_same_name():
    # classic's ``place`` reads ``options.armies``; another game's ``place`` gets option 0
    for kind in KINDS:
        assert Bare().choose(foreign(kind)) == 0


def test_a_kind_named_like_a_lifecycle_method_never_calls_it():
    bot = Bare()
    for kind in ("start", "finish", "run", "rejected", "choose", "debug", "_weakest", "name"):
        assert bot.choose(foreign(kind)) == 0
    assert bot.match is None


def test_a_bot_without_methods_plays_a_whole_match_in_process():
    bots = [Recording(), Bare(), OnlyAttack()]
    result = play_match(game_of(rules_for(3, max_rounds=10)), bots, seed=5)
    assert result.game == "classic"
    assert [(s.status, s.strikes) for s in result.seats] == [("OK", 0)] * 3
    assert bots[0].games and set(bots[0].games) == {"classic"}


def _bot_folder(tmp_path: Path) -> Path:
    """A bot with no decision methods, run by ``arena.sdk.run``; it notes each request's game."""
    folder = tmp_path / "bare"
    folder.mkdir()
    (folder / "bot.toml").write_text(
        'name = "bare"\nversion = "1"\nlanguage = "Python"\ncommand = "python bot.py"\n'
    )
    (folder / "bot.py").write_text(
        textwrap.dedent(
            """
            from arena.sdk import Bot


            class Bare(Bot):
                name = "bare"

                def choose(self, request):
                    self.debug("game=" + request.game)
                    return super().choose(request)


            if __name__ == "__main__":
                Bare().run()
            """
        )
    )
    return folder


def test_a_bot_without_methods_plays_a_whole_match_over_grpc(tmp_path):
    spec = read_spec(_bot_folder(tmp_path))
    replay = tmp_path / "replay.jsonl"
    control = TimeControl(move_time=2.0, time_bank=10.0, startup_time=STARTUP)
    result = local.play(
        game_of(rules_for(3, max_rounds=10)), [spec, spec, Bare()], 7, control, replay
    )
    assert [(s.status, s.strikes) for s in result.seats] == [("OK", 0)] * 3
    records: list[dict[str, Any]] = [json.loads(line) for line in replay.read_text().splitlines()]
    debug = [r for r in records if r.get("type") == "debug"]
    assert {r["text"] for r in debug} == {"game=classic"}
    assert {r["seat"] for r in debug} == {0, 1}


@pytest.mark.parametrize("over_wire", [False, True], ids=["fast", "wire"])
def test_an_in_process_seat_tells_its_bot_the_game_of_the_match(monkeypatch, over_wire) -> None:
    """The in-process seat hands its bot requests of the match's game, on both of its paths,
    as the remote SDK does (not a fixed "classic")."""
    import asyncio
    import dataclasses

    import arena.protocol
    from arena.games import load
    from arena.referee.messages import Ask, Start
    from arena.referee.seats import InProcessSeat

    # A variant that travels in classic's messages, for this test only.
    monkeypatch.setattr(arena.protocol, "_CODECS", dict(arena.protocol._CODECS))
    monkeypatch.setattr(arena.protocol, "_LOADED", dict(arena.protocol._LOADED))
    arena.protocol.register_codec("classic-variant", "arena.protocol.classic")
    game = load("classic").configure({}, 3)
    game.info = dataclasses.replace(game.info, name="classic-variant")  # type: ignore[misc]
    state = game.new_game(1)
    decision = game.decision(state)
    seat = decision.seats[0]
    bot = Recording()
    handle = InProcessSeat(bot, "recorder", "1", over_wire=over_wire)
    start = Start(game, "m", seat, ["a", "b", "c"], bot_seed=1, move_time_ms=0, time_bank_ms=0)
    view, options = game.view(state, seat), game.legal_options(state, seat)
    request = Ask(game, "m", seat, 1, decision.kind, view, options, 0, 0, [])
    assert asyncio.run(handle.start(start)) is None
    asyncio.run(handle.ask(request, None))
    assert bot.games == ["classic-variant"]
