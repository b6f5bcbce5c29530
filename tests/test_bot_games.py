"""Bots declare the games they play (``bot.toml`` ``games``): a bot entered in any other game
is refused with one line before a process starts or a database row is written."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import tomllib
from pathlib import Path

import pytest

from arena.catalog import DEFAULT_GAMES, bundled_bots, check_plays, read_spec
from arena.errors import BotError
from arena.paths import bundled_bots_dir
from tests.cli_run import Capsys, run

REFUSED = "arena: error: bot 'europa' plays europe, not classic"


def error_line(err: str) -> str:
    """The one line stderr holds: an ``arena: error:``, no traceback."""
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def traced_bot(root: Path, name: str, games: str | None) -> Path:
    """A bot folder whose import, process and setup each leave a file in ``root``: proof of
    whether anything of it ever ran. ``games`` is the TOML value of its ``games`` key."""
    folder = root / name
    folder.mkdir()
    started = json.dumps(str(root / f"{name}.started"))
    (folder / "bot.py").write_text(
        f"from pathlib import Path\n\nPath({started}).touch()\n\n"
        "from arena.sdk import Bot\n\n\nclass TracedBot(Bot):\n    pass\n"
    )
    setup = json.dumps(["python", "-c", f"open({str(root / f'{name}.setup')!r}, 'w').close()"])
    lines = [
        f'name = "{name}"',
        'command = "python bot.py"',
        'entry = "bot:TracedBot"',
        f"setup = {setup}",
    ]
    if games is not None:
        lines.append(f"games = {games}")
    (folder / "bot.toml").write_text("\n".join(lines) + "\n")
    return folder


def nothing_ran(root: Path) -> bool:
    """No traced bot was imported, started or set up."""
    return not list(root.glob("*.started")) and not list(root.glob("*.setup"))


@pytest.fixture
def europa(tmp_path: Path) -> Path:
    """A bot that plays only a game this arena does not have."""
    return traced_bot(tmp_path, "europa", '["europe"]')


def replays() -> list[Path]:
    home = Path(os.environ["ARENA_HOME"]) / "replays"
    return sorted(home.glob("*")) if home.is_dir() else []


@pytest.mark.parametrize("in_process", [False, True])
def test_match_refuses_a_bot_of_another_game(
    capsys: Capsys, tmp_path: Path, europa: Path, in_process: bool
) -> None:
    flags = ["--in-process"] if in_process else []
    code, out, err = run(capsys, "match", "--bot", "random", "--bot", str(europa), *flags)
    assert (code, out) == (2, "")
    assert error_line(err) == REFUSED
    assert nothing_ran(tmp_path)
    assert replays() == []


def test_tournament_run_refuses_a_bot_of_another_game(
    capsys: Capsys, tmp_path: Path, europa: Path
) -> None:
    db = tmp_path / "arena.db"
    code, out, err = run(
        capsys,
        "tournament",
        "run",
        "--bot",
        "random",
        "--bot",
        str(europa),
        "--db",
        str(db),
        "--no-progress",
    )
    assert (code, out) == (2, "")
    assert error_line(err) == REFUSED
    assert nothing_ran(tmp_path)
    if db.exists():  # the schema (and its migrations' bookkeeping) may be there, no row
        con = sqlite3.connect(db)
        try:
            listed = con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            tables = [name for (name,) in listed if not name.startswith(("_", "sqlite_"))]
            rows = {t: con.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables}
        finally:
            con.close()
        assert "bots" in rows and "tournaments" in rows
        assert set(rows.values()) == {0}, rows


@pytest.mark.parametrize(
    "args",
    [
        ("{bot}", "random"),
        ("random", "{bot}"),
        ("random", "aggressive", "--seats", "3", "--filler", "{bot}"),
    ],
    ids=["a", "b", "filler"],
)
def test_versus_refuses_a_bot_of_another_game(
    capsys: Capsys, tmp_path: Path, europa: Path, args: tuple[str, ...]
) -> None:
    filled = [a.format(bot=europa) for a in args]
    code, out, err = run(capsys, "versus", *filled, "--games", "1")
    assert (code, out) == (2, "")
    assert error_line(err) == REFUSED
    assert nothing_ran(tmp_path)


@pytest.mark.parametrize("in_process", [False, True])
def test_check_bot_refuses_a_bot_of_another_game(
    capsys: Capsys, tmp_path: Path, europa: Path, in_process: bool
) -> None:
    flags = ["--in-process"] if in_process else []
    code, out, err = run(capsys, "check-bot", str(europa), "--game", "classic", *flags)
    assert (code, out) == (2, "")
    assert error_line(err) == REFUSED
    assert nothing_ran(tmp_path)


def test_the_message_names_every_listed_game_and_marks_the_unknown(tmp_path: Path) -> None:
    spec = read_spec(traced_bot(tmp_path, "several", '["europe", "capital", "europe"]'))
    assert spec.games == ("europe", "capital")  # repeats dropped, order kept
    with pytest.raises(BotError) as refused:
        check_plays(spec, "classic", known=("classic", "europe"))
    assert str(refused.value) == "bot 'several' plays europe, capital (unknown here), not classic"
    check_plays(spec, "europe", known=("classic", "europe"))  # listed: no error


def test_a_bot_of_several_games_plays_classic(tmp_path: Path) -> None:
    spec = read_spec(traced_bot(tmp_path, "both", '["europe", "classic"]'))
    check_plays(spec, "classic")


def test_games_defaults_to_classic_when_absent(capsys: Capsys, tmp_path: Path) -> None:
    """A bot written before ``games`` existed is a classic bot and plays a classic match."""
    folder = tmp_path / "old-random"
    shutil.copytree(bundled_bots_dir() / "random", folder)
    manifest = folder / "bot.toml"
    lines = manifest.read_text().splitlines()
    manifest.write_text("\n".join(line for line in lines if not line.startswith("games")) + "\n")
    assert "games" not in tomllib.loads(manifest.read_text())
    assert read_spec(folder).games == DEFAULT_GAMES == ("classic",)
    code, out, err = run(
        capsys,
        "match",
        "--json",
        "--in-process",
        "--no-replay",
        "--bot",
        "random",
        "--bot",
        str(folder),
        "--seed",
        "3",
        "--rules",
        "max_rounds=5",
    )
    assert code == 0, err
    assert [s["status"] for s in json.loads(out)["places"]] == ["OK", "OK"]


@pytest.mark.parametrize(
    "value", ['"classic"', "[]", "[1]", '["classic", 2]', '[""]', "{ classic = true }", "true"]
)
def test_a_malformed_games_value_is_one_line_naming_the_file(
    capsys: Capsys, tmp_path: Path, value: str
) -> None:
    folder = traced_bot(tmp_path, "odd", value)
    with pytest.raises(BotError, match="'games' must be a list of game names"):
        read_spec(folder)
    code, out, err = run(capsys, "match", "--bot", "random", "--bot", str(folder))
    assert (code, out) == (2, "")
    line = error_line(err)
    assert line.startswith(f"arena: error: {folder / 'bot.toml'}: 'games' must be a list")
    assert nothing_ran(tmp_path)


def test_every_bundled_bot_declares_its_games() -> None:
    """Every bundled bot plays classic, but for the RISK: Europe ones; `random` and
    `js-random` play both."""
    specs = bundled_bots()
    assert specs
    both, europe = ["classic", "europe"], ["europe"]
    special = {
        "random": both,
        "js-random": both,
        "europe-heuristic": europe,
        "europe-strong": europe,
        "js-europe": europe,
    }
    for spec in specs:
        declared = tomllib.loads((spec.path / "bot.toml").read_text())
        expected = special.get(spec.name, ["classic"])
        assert declared["games"] == expected, spec.name
        assert spec.games == tuple(expected)
