"""The JavaScript example bot (bots/js-random) plays whole matches over gRPC: every seat ends
OK without a strike, and its seeded randomness makes a match reproducible.

Needs Node ≥ 18 and npm (its setup runs `npm ci` in the bot folder); skipped without them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

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
    """A results home shared by this module's tests, where the bot's setup is noted as done
    (so `npm ci` runs once here rather than before every match)."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("the JavaScript bot needs `node` and `npm` on PATH")
    major = node_major()
    if major is None or major < 18:
        pytest.skip(f"the JavaScript bot needs Node ≥ 18 (found {major})")
    home = tmp_path_factory.mktemp("arena-home")
    set_up_js_bot(find_bot("js-random"), home)
    assert (find_bot("js-random").path / "node_modules" / "@grpc" / "grpc-js").is_dir()
    return home


@pytest.fixture(autouse=True)
def _shared_home(arena_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARENA_HOME", str(arena_home))


def _play(
    bots: list[str], seed: int, rules: dict[str, str], replay: Path | None = None
) -> MatchResult:
    game = load("classic").configure({"max_rounds": "15", **rules}, len(bots))
    return play(game, [find_bot(b) for b in bots], seed, CONTROL, replay)


def _assert_clean(result: MatchResult) -> None:
    for seat in result.seats:
        assert (seat.status, seat.strikes) == ("OK", 0), (seat.to_dict(), seat.detail)
        assert seat.think_ms, f"seat {seat.seat} was never asked anything"
    assert result.end_reason in ENDS
    assert result.turns > 0 and result.decisions > 0


def _decisions(replay: Path, seat: int) -> list[tuple[str, dict[str, Any]]]:
    """(decision kind, action) of every answer ``seat`` gave, from a replay file."""
    lines = [json.loads(line) for line in replay.read_text().splitlines()]
    return [
        (e["kind"], e["action"]) for e in lines if e.get("type") == "decision" and e["seat"] == seat
    ]


def _summary(result: MatchResult) -> tuple[Any, ...]:
    return ([s.to_dict() for s in result.seats], result.winner, result.turns, result.end_reason)


@pytest.mark.parametrize("seed", [3, 8])
def test_two_player_game_against_the_python_bot(seed: int) -> None:
    result = _play(["js-random", "random"], seed, {})
    _assert_clean(result)
    assert [s.bot for s in result.seats] == ["js-random", "random"]


def test_three_player_mission_game_with_two_js_seats() -> None:
    result = _play(["js-random", "random", "js-random"], 5, {"mode": "mission"})
    _assert_clean(result)
    assert result.rules["mode"] == "mission"


def test_same_seed_same_match(tmp_path: Path) -> None:
    first = _play(["js-random", "random"], 21, {"advantage_reroll": "true"}, tmp_path / "a.jsonl")
    again = _play(["js-random", "random"], 21, {"advantage_reroll": "true"}, tmp_path / "b.jsonl")
    _assert_clean(first)
    assert _summary(first) == _summary(again)
    assert first.decisions == again.decisions
    # The JavaScript seat answered exactly the same way, decision by decision ...
    answers = _decisions(tmp_path / "a.jsonl", 0)
    assert answers == _decisions(tmp_path / "b.jsonl", 0)
    # ... including structured answers: reinforcements spread over several territories.
    assert any(kind == "reinforce" and len(a["placements"]) > 1 for kind, a in answers)
