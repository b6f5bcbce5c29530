"""``arena check-bot`` checks a bot for the game its ``bot.toml`` lists when ``--game`` is not
given: a Europe-only bot is checked for Europe, not refused for classic."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.catalog import read_spec
from arena.errors import BotError
from arena.paths import bundled_bots_dir
from arena.referee.checkbot import game_to_check
from tests.cli_run import Capsys, run


def bot_listing(root: Path, games: str) -> Path:
    """A bot folder whose ``bot.toml`` lists ``games`` (a TOML array); its process would
    leave ``started`` in ``root``."""
    folder = root / "several"
    folder.mkdir()
    (folder / "bot.py").write_text(f"open({str(root / 'started')!r}, 'w').close()\n")
    (folder / "bot.toml").write_text(
        f'name = "several"\ncommand = "python bot.py"\ngames = {games}\n'
    )
    return folder


def test_a_europe_only_bot_is_checked_for_europe_without_game(capsys: Capsys) -> None:
    folder = bundled_bots_dir() / "europe-heuristic"
    code, out, err = run(
        capsys, "check-bot", str(folder), "--json", "--move-time", "5", "--startup-time", "60"
    )
    assert code == 0, out + err
    report = json.loads(out)
    assert (report["ok"], report["game"], report["bot"]) == (True, "europe", "europe-heuristic")
    names = {check["name"] for check in report["checks"]}
    assert {"bid", "kingdom", "turn"} <= names


def test_the_text_report_names_the_game(capsys: Capsys) -> None:
    code, out, err = run(capsys, "check-bot", "random", "--in-process", "--move-time", "30")
    assert code == 0, out + err
    assert out.splitlines()[-1] == "random (classic): all checks passed"


def test_a_bot_of_several_games_defaults_to_classic(tmp_path: Path) -> None:
    spec = read_spec(bot_listing(tmp_path, '["europe", "classic"]'))
    assert game_to_check(spec, None) == "classic"
    assert game_to_check(spec, "europe") == "europe"


def test_a_bot_of_several_other_games_must_be_told_which(capsys: Capsys, tmp_path: Path) -> None:
    folder = bot_listing(tmp_path, '["europe", "guessing"]')
    code, out, err = run(capsys, "check-bot", str(folder))
    assert (code, out) == (2, "")
    assert err.strip().splitlines()[-1] == (
        "arena: error: bot 'several' plays europe, guessing: say which with --game"
    )
    assert not (tmp_path / "started").exists()


def test_an_explicit_game_the_bot_does_not_list_is_still_refused(tmp_path: Path) -> None:
    spec = read_spec(bot_listing(tmp_path, '["europe"]'))
    with pytest.raises(BotError, match="plays europe, not classic"):
        game_to_check(spec, "classic")
