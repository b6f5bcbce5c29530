"""What the CLI takes from the game registry: each game's own commands (classic: ``arena
odds``) and its replay narrator for ``arena replay show`` (a game without one is shown as
JSON events, record by record)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from arena import games
from arena.cli import main
from arena.games.classic import narrate
from arena.games.classic.game import GAME as CLASSIC
from arena.replays.files import FORMAT, VERSION
from arena.sdk.classic import human_view

Capsys = pytest.CaptureFixture[str]


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def add_commands(commands: argparse._SubParsersAction[Any]) -> None:
    """A game's own command, as a game's CLI module defines it (registered by the tests)."""
    hint = commands.add_parser("guess-hint", help="how to guess well (a test game's command)")
    hint.add_argument("--json", action="store_true")
    hint.set_defaults(run=_hint)


def _hint(args: argparse.Namespace) -> int:
    print("guess 3 or 4")
    return 0


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry as it is, restored after the test."""
    for table in ("_ENTRIES", "_COMMANDS", "_NARRATORS"):
        monkeypatch.setattr(games, table, dict(getattr(games, table)))


# ------------------------------------------------------------------ commands


def test_arena_help_lists_classic_odds_found_by_the_games_name(
    capsys: Capsys, registry: None, monkeypatch: pytest.MonkeyPatch
):
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert (
        exit_.value.code == 0 and "exact odds of capturing a territory" in capsys.readouterr().out
    )
    monkeypatch.setitem(sys.modules, "arena.cli.classic", None)  # no arena.cli.classic: no odds
    with pytest.raises(SystemExit):
        main(["--help"])
    assert " odds " not in capsys.readouterr().out
    with pytest.raises(SystemExit) as exit_:
        main(["odds", "3", "2"])
    assert exit_.value.code == 2 and "invalid choice: 'odds'" in capsys.readouterr().err


def test_a_registered_games_command_is_added(capsys: Capsys, registry: None):
    games.register("guessing", "tests.games.guessing", commands=__name__)
    assert games.command_module("guessing") == __name__
    assert games.command_module("classic") is None  # found as arena.cli.classic
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "guess-hint" in out and "odds" in out
    assert run(capsys, "guess-hint") == (0, "guess 3 or 4\n", "")


# ------------------------------------------------------------------ replay show


def write_replay(path: Path, game: str, rules: dict[str, Any], records: list[dict]) -> Path:
    header = {
        "type": "header",
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "match_id": "m1",
        "seed": 9,
        "rules": rules,
        "seats": [{"seat": 0, "bot": "left", "version": "1"}, {"seat": 1, "bot": "right"}],
    }
    lines = [json.dumps(header), *(json.dumps(r) for r in records)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_replay_show_of_a_game_without_a_narrator_prints_json_events(
    capsys: Capsys, registry: None, tmp_path: Path
):
    games.register("guessing", "tests.games.guessing")
    assert games.narrator("guessing") is None and games.narrator("classic") is not None
    revealed = {"type": "revealed", "die": 4, "guesses": [3, 5], "scores": [0, 0]}
    answers = [{"seat": 0, "action": {"value": 3}}, {"seat": 1, "action": {"value": 5}}]
    records = [
        {"type": "joint", "kind": "guess", "answers": answers, "events": [revealed]},
        {"type": "rejected", "seat": 1, "answer": "7", "reason": "a guess is 1-6"},
        {"type": "forfeit", "seat": 1, "status": "ILLEGAL", "events": [{"type": "forfeited"}]},
        {"type": "result", "end": "forfeit", "winner": 0},
    ]
    replay = write_replay(tmp_path / "guess.jsonl", "guessing", {"rounds": 1}, records)
    code, out, err = run(capsys, "replay", "show", str(replay))
    assert (code, err) == (0, "")
    assert out.splitlines() == [
        "guessing · seed 9 · seat 0: left, seat 1: right",
        "#1 joint · seats 0, 1 · guess",
        '  {"type":"revealed","die":4,"guesses":[3,5],"scores":[0,0]}',
        "#2 rejected · seat 1 · a guess is 1-6",
        "#3 forfeit · seat 1 · ILLEGAL",
        '  {"type":"forfeited"}',
        "#4 result · forfeit",
    ]


def test_classic_replay_and_human_seat_tell_an_event_in_the_same_words(tmp_path: Path):
    """One narrator: `replay show` is the spectator's wording of what the seat is told,
    and it names a battle's defender from the deal of the replay's rules and seed."""
    game = CLASSIC.configure({}, 2)
    owner = game.view(game.new_game(9), 0)["owner"]
    target = next(t for t, o in enumerate(owner) if o == 1)
    turn = {"type": "turn", "seat": 0, "round": 1, "reinforcements": 3}
    battle = {
        "type": "battle",
        "seat": 0,
        "from": 0,
        "to": target,
        "attacker_dice": [2, 6],
        "defender_dice": [5],
        "attacker_losses": 0,
        "defender_losses": 1,
    }
    records = [{"type": "decision", "seat": 0, "kind": "attack", "events": [turn, battle]}]
    header = json.loads(
        write_replay(tmp_path / "c.jsonl", "classic", game.config(), []).read_text()
    )
    blocks = list(narrate.replay_blocks(header, records))
    name = game.board()["territories"]
    assert blocks == [
        [],
        [
            "Round 1: left's turn (3 new armies)",
            f"  left attacks right's {name[target]} from {name[0]}: 6 2 against 5; "
            "left loses 0, right loses 1.",
        ],
    ]
    seat = human_view.Narrator(1, ["left", "right"], game.board())
    assert seat.events([turn, battle], owner) == [
        "Round 1: left's turn (3 new armies)",
        f"left attacks your {name[target]} from {name[0]}: 6 2 against 5; "
        "left loses 0, you lose 1.",
    ]
