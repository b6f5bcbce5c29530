"""The JavaScript example bot (bots/js-random) plays whole matches over gRPC: every seat ends
OK without a strike, and its seeded randomness makes a match reproducible. Every bundled
JavaScript bot builds on the shared library bots/js-sdk, installed as a copy, and passes
`arena check-bot` for classic (a rejected answer answered again among its checks).

Needs Node ≥ 18 and npm (its setup runs `npm ci` in the bot folder); skipped without them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from arena.catalog import bundled_bots, find_bot
from arena.cli import main
from arena.games import load
from arena.referee.local import play
from arena.referee.match import MatchResult, TimeControl
from tests.node import node_major, set_up_js_bot

CONTROL = TimeControl(move_time=2.0, time_bank=30, startup_time=20)
ENDS = {"domination", "mission", "capitals", "round_limit"}
REPO = Path(__file__).resolve().parents[1]
LIBRARY = REPO / "bots" / "js-sdk"
JS_BOTS = sorted(s.name for s in bundled_bots() if s.language.startswith("JavaScript"))


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
    for name in ("js-random", "js-heuristic"):
        set_up_js_bot(find_bot(name), home)
        assert (find_bot(name).path / "node_modules" / "@grpc" / "grpc-js").is_dir()
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


@pytest.mark.parametrize("bot", ["js-random", "js-heuristic"])
def test_check_bot_passes_for_classic(capsys: pytest.CaptureFixture[str], bot: str) -> None:
    try:
        # Generous clocks: Node starts slowly on a loaded machine.
        clocks = ["--move-time", "5", "--startup-time", "60"]
        code = main(["check-bot", bot, "--game", "classic", "--json", *clocks])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    assert code == 0, out + err
    report = json.loads(out)
    assert report["ok"] and report["bot"] == bot
    passed = {check["name"] for check in report["checks"] if check["ok"]}
    assert {"attack", "occupy", "fortify", "answers again after a rejection"} <= passed


# ---------------------------------------------- the library the JavaScript bots share


def test_every_javascript_bot_installs_the_library_as_a_copy() -> None:
    """A ``file:`` dependency on bots/js-sdk, which npm copies into ``node_modules`` (a
    symlink would point outside the folder a sandboxed bot sees), at the library's current
    version and with its dependencies (so ``npm ci`` installs them)."""
    library = json.loads((LIBRARY / "package.json").read_text())
    assert JS_BOTS == ["js-europe", "js-heuristic", "js-random"]
    for name in JS_BOTS:
        folder = REPO / "bots" / name
        manifest = json.loads((folder / "package.json").read_text())
        assert manifest["dependencies"] == {library["name"]: "file:../js-sdk"}, name
        settings = (folder / ".npmrc").read_text().splitlines()
        assert "install-links=true" in settings, name
        locked = json.loads((folder / "package-lock.json").read_text())["packages"]
        installed = locked[f"node_modules/{library['name']}"]
        assert installed["version"] == library["version"], f"{name}: run npm install there"
        assert installed["dependencies"] == library["dependencies"], name
        assert "link" not in installed, name


def test_js_random_is_a_screen_of_code() -> None:
    """The random bot needs no copy of any game's enumeration: the request says how many
    options it lists (``option_count``), and the library runs the session."""
    source = (REPO / "bots" / "js-random" / "bot.js").read_text()
    assert len(source.splitlines()) <= 60
    assert "optionCount(request)" in source and "attacks.length" not in source
