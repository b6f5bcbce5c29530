"""The JavaScript heuristic bot (bots/js-heuristic) plays whole matches over gRPC: every seat
ends OK without a strike, in a 2-player game and in a 3-player Capital RISK game.

Needs Node ≥ 18 and npm (its setup runs `npm ci` in the bot folder); skipped without them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from arena.catalog import find_bot
from arena.games import load
from arena.referee.local import play
from arena.referee.match import MatchResult, TimeControl
from tests.node import node_major, set_up_js_bot

CONTROL = TimeControl(move_time=2.0, time_bank=30, startup_time=20)
ENDS = {"domination", "mission", "capitals", "round_limit"}


@pytest.fixture(scope="module")
def arena_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results home shared by this module's tests, where the bots' setup is noted as done
    (so `npm ci` runs once here rather than before every match)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("the JavaScript bot needs `node` and `npm` on PATH")
    major = node_major()
    if major is None or major < 18:
        pytest.skip(f"the JavaScript bot needs Node ≥ 18 (found {major})")
    home = tmp_path_factory.mktemp("arena-home")
    set_up_js_bot(find_bot("js-heuristic"), home)
    assert (find_bot("js-heuristic").path / "node_modules" / "@grpc" / "grpc-js").is_dir()
    return home


@pytest.fixture(autouse=True)
def _shared_home(arena_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_HOME", str(arena_home))


def _play(bots: list[str], seed: int, rules: dict[str, str]) -> MatchResult:
    game = load("classic").configure({"max_rounds": "12", **rules}, len(bots))
    return play(game, [find_bot(b) for b in bots], seed, CONTROL)


def _assert_clean(result: MatchResult) -> None:
    for seat in result.seats:
        assert (seat.status, seat.strikes) == ("OK", 0), (seat.to_dict(), seat.detail)
    assert result.end_reason in ENDS
    assert result.turns > 0 and result.decisions > 0


def test_two_player_game_against_the_python_bot() -> None:
    result = _play(["js-heuristic", "random"], 4, {"advantage_reroll": "true"})
    _assert_clean(result)
    assert [s.bot for s in result.seats] == ["js-heuristic", "random"]


def test_three_player_capital_game() -> None:
    result = _play(["random", "js-heuristic", "random"], 7, {"mode": "capital"})
    _assert_clean(result)
    assert result.rules["mode"] == "capital"
    assert result.seats[1].bot == "js-heuristic"
