"""The ``arena`` command line: called in-process through ``arena.cli.main``, plus one run of the
installed console script."""

from __future__ import annotations

import io
import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from arena.cli.progress import ProgressBar, StatusLine
from arena.games.classic.config import CHOICES, ClassicConfig
from arena.paths import arena_command
from arena.scheduler.series import describe_elo
from arena.scheduler.tournament import Progress as Update
from tests.cli_run import Capsys, run


def match_json(capsys: Capsys, *args: str) -> dict[str, Any]:
    code, out, err = run(capsys, "match", "--json", *args)
    assert code == 0, err
    assert err == ""
    assert len(out.strip().splitlines()) == 1
    return json.loads(out)


def error_line(err: str) -> str:
    """The single ``arena: error:`` line of stderr (a usage line may precede it)."""
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("arena: error:")]
    assert len(lines) == 1, err
    return lines[0]


def replays_home() -> Path:
    return Path(os.environ["ARENA_HOME"]) / "replays"


THREE = ("--bot", "random", "--bot", "random", "--bot", "random")
RULES = ("--rules", "max_rounds=10")
VALID_KEYS = sorted(set(ClassicConfig.__dataclass_fields__) - {"players"})


# ------------------------------------------------------------------------- match


def test_match_json(capsys: Capsys) -> None:
    data = match_json(
        capsys, "--game", "classic", *THREE, "--seed", "5", "--rules", "max_rounds=40"
    )
    assert {"seed", "places", "winner", "turns", "end", "replay"} <= data.keys()
    assert data["seed"] == 5
    assert data["game"] == "classic"
    assert len(data["places"]) == 3
    for seat, entry in enumerate(data["places"]):
        assert {"seat", "bot", "place", "status", "strikes"} <= entry.keys()
        assert entry["seat"] == seat
        assert entry["bot"] == "random"
        assert entry["status"] == "OK"
        assert entry["strikes"] == 0
        assert 1 <= entry["place"] <= 3
    places = [p["place"] for p in data["places"]]
    if data["winner"] is not None:
        assert places[data["winner"]] == 1 and places.count(1) == 1
    assert data["end"] in ("domination", "round_limit")
    assert data["turns"] > 0
    assert data["rules"] == ClassicConfig.parse({"max_rounds": "40"}, 3).to_dict()
    replay = Path(data["replay"])
    assert replay.is_file()
    assert replay.resolve().parent == replays_home().resolve()
    header = json.loads(replay.read_text().splitlines()[0])
    assert header["seed"] == 5 and header["rules"]["players"] == 3


def test_match_same_seed_same_result(capsys: Capsys) -> None:
    args = (*THREE, "--seed", "5", "--rules", "max_rounds=40")
    first = match_json(capsys, *args)
    second = match_json(capsys, *args)
    keys = ("seed", "places", "winner", "turns", "end", "rounds", "decisions", "rules")
    assert {k: first[k] for k in keys} == {k: second[k] for k in keys}
    # Two replay files, both kept.
    assert first["replay"] != second["replay"]
    assert Path(first["replay"]).is_file() and Path(second["replay"]).is_file()
    assert len(list(replays_home().iterdir())) == 2


def test_match_without_seed_picks_one_and_reports_it(capsys: Capsys) -> None:
    data = match_json(capsys, *THREE, "--rules", "max_rounds=3")
    assert isinstance(data["seed"], int) and data["seed"] >= 0
    again = match_json(capsys, *THREE, "--rules", "max_rounds=3", "--seed", str(data["seed"]))
    assert again["places"] == data["places"] and again["turns"] == data["turns"]


def test_two_bots_play_the_neutral_game(capsys: Capsys) -> None:
    data = match_json(capsys, "--bot", "random", "--bot", "random", "--seed", "2")
    assert data["rules"]["players"] == 2
    assert data["rules"]["deal"] == "random"
    assert len(data["places"]) == 2
    header = json.loads(Path(data["replay"]).read_text().splitlines()[0])
    assert header["rules"]["players"] == 2 and header["rules"]["deal"] == "random"


@pytest.mark.parametrize(
    ("bots", "rules", "expected"),
    [
        (3, ["mode=mission"], {"mode": "mission", "deal": "random"}),
        (4, ["mode=capital", "capital_goal=short"], {"mode": "capital", "capital_goal": "short"}),
        (2, ["mode=capital"], {"mode": "capital", "deal": "random"}),
        (3, ["sets=fixed", "fortify=connected"], {"sets": "fixed", "fortify": "connected"}),
        (3, ["advantage_reroll=true", "deal=random"], {"advantage_reroll": True, "deal": "random"}),
        (3, ["MODE=World", "sets=progressive"], {"mode": "world", "sets": "progressive"}),
        (3, ["mode=mission", "mode=world"], {"mode": "world"}),
    ],
)
def test_rules_options_are_accepted(
    capsys: Capsys, bots: int, rules: list[str], expected: dict[str, Any]
) -> None:
    args = ["--bot", "random"] * bots + ["--seed", "1", "--rules", "max_rounds=8"]
    for item in rules:
        args += ["--rules", item]
    data = match_json(capsys, *args)
    assert data["rules"]["max_rounds"] == 8
    for key, value in expected.items():
        assert data["rules"][key] == value


def test_match_text_summary(capsys: Capsys) -> None:
    code, out, err = run(capsys, "match", *THREE, "--seed", "5", "--rules", "max_rounds=10")
    assert code == 0 and err == ""
    assert "seed 5" in out
    assert "winner:" in out
    assert "replay:" in out


def test_no_replay(capsys: Capsys) -> None:
    data = match_json(capsys, *THREE, "--seed", "5", "--rules", "max_rounds=5", "--no-replay")
    assert data["replay"] is None
    assert not replays_home().exists() or not list(replays_home().iterdir())


def test_bot_given_by_folder_path(capsys: Capsys) -> None:
    folder = Path(__file__).resolve().parent.parent / "bots" / "random"
    data = match_json(
        capsys, "--bot", str(folder), "--bot", "random", "--seed", "3", "--rules", "max_rounds=5"
    )
    assert [p["bot"] for p in data["places"]] == ["random", "random"]


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (("--bot", "random", "--bot", "nosuchbot"), ["nosuchbot", "random"]),
        ((*THREE, "--rules", "colour=red"), ["colour", *VALID_KEYS]),
        ((*THREE, "--rules", "mode=conquest"), ["conquest", *CHOICES["mode"]]),
        ((*THREE, "--rules", "sets=double"), list(CHOICES["sets"])),
        ((*THREE, "--rules", "advantage_reroll=yes"), list(CHOICES["advantage_reroll"])),
        ((*THREE, "--rules", "max_rounds=0"), ["max_rounds", "positive integer"]),
        ((*THREE, "--rules", "max_rounds=many"), ["max_rounds", "positive integer"]),
        (("--bot", "random", "--bot", "random", "--rules", "mode=mission"), ["mode=world"]),
        (("--bot", "random", "--bot", "random", "--rules", "deal=claim"), ["deal=random"]),
        ((*THREE, "--rules", "capital_goal=short", "--rules", "mode=capital"), ["capital_goal"]),
        ((*THREE, "--rules", "mode"), ["KEY=VALUE"]),
        ((*THREE, "--rules", "=world"), ["KEY=VALUE"]),
        ((*THREE, "--rules", "mode="), ["KEY=VALUE"]),
        (("--bot", "random"), ["2-6 players"]),
        (("--bot", "random") * 7, ["2-6 players"]),
        ((*THREE, "--game", "chess"), ["chess", "classic"]),
        ((*THREE, "--strike-limit", "0"), ["strike-limit"]),
    ],
)
def test_bad_match_input_exits_2_with_one_line(
    capsys: Capsys, args: tuple[str, ...], names: list[str]
) -> None:
    code, out, err = run(capsys, "match", "--seed", "1", *args)
    assert code == 2
    assert out == ""
    message = error_line(err)
    for name in names:
        assert name in message, (name, message)
    assert not replays_home().exists() or not list(replays_home().iterdir())


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("match",),
        ("match", "--bot", "random", "--bot", "random", "--seed", "x"),
        ("fly",),
        ("replay",),
        ("odds", "3"),
    ],
)
def test_usage_errors_exit_2(capsys: Capsys, args: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    error_line(err)


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (("match", "--bot", "random", "--bot", "random", "--colour", "red"), "arena match"),
        (("tournament", "run", "--bot", "random", "--bogus"), "arena tournament run"),
        (("replay", "show", "x.jsonl", "--fast"), "arena replay show"),
    ],
)
def test_an_unknown_flag_is_one_line_naming_it_and_the_commands_help(
    capsys: Capsys, args: tuple[str, ...], command: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1, err  # no usage block
    assert args[-1] in error_line(err) or args[-2] in error_line(err)
    assert error_line(err).endswith(f"(see `{command} --help`)")


@pytest.mark.parametrize(
    "args",
    [
        ("tournament", "run", "--bot", "random", "--bot", "continent", "--rounds", "1"),
        ("bots", "add", str(Path(__file__).parent.parent / "bots" / "random")),
        ("demo",),
    ],
)
def test_a_writer_refuses_a_database_in_a_folder_that_does_not_exist(
    capsys: Capsys, tmp_path: Path, args: tuple[str, ...]
) -> None:
    db = tmp_path / "typo" / "arena.db"
    code, _, err = run(capsys, *args, "--db", str(db))
    assert code == 2, err
    assert f"no folder {db.parent}" in error_line(err)
    assert not db.parent.exists()  # nothing made, nothing lost


def test_the_results_home_is_made_on_first_use(capsys: Capsys) -> None:
    home = Path(os.environ["ARENA_HOME"])
    assert not home.exists()
    code, _, err = run(capsys, "bots", "add", str(Path(__file__).parent.parent / "bots" / "random"))
    assert code == 0, err
    assert (home / "arena.db").is_file()


def test_version(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out.startswith("arena ")


# ------------------------------------------------------------------ replay verify


def a_replay(capsys: Capsys) -> Path:
    data = match_json(capsys, *THREE, "--seed", "7", "--rules", "max_rounds=20")
    return Path(data["replay"])


def test_replay_verify_good(capsys: Capsys) -> None:
    path = a_replay(capsys)
    code, out, err = run(capsys, "replay", "verify", str(path))
    assert code == 0 and err == ""
    assert out.startswith("ok:")
    code, out, _ = run(capsys, "replay", "verify", str(path), "--json")
    assert code == 0
    report = json.loads(out)
    assert report["ok"] is True
    assert report["records"] == len(path.read_text().splitlines())


def test_replay_verify_tampered(capsys: Capsys) -> None:
    path = a_replay(capsys)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    line = next(
        i
        for i, r in enumerate(records)
        if r["type"] == "decision" and any(e["type"] == "battle" for e in r["events"])
    )
    battle = next(e for e in records[line]["events"] if e["type"] == "battle")
    battle["defender_dice"][0] = battle["defender_dice"][0] % 6 + 1
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    code, out, _ = run(capsys, "replay", "verify", str(path))
    assert code == 1
    assert out.startswith("DIVERGED:")
    assert f"line {line + 1}:" in out
    code, out, _ = run(capsys, "replay", "verify", str(path), "--json")
    assert code == 1
    report = json.loads(out)
    assert report["ok"] is False and report["records"] == line + 1


NO_SEED = {"type": "header", "format": "risk-arena-replay", "version": 1, "game": "classic"}


@pytest.mark.parametrize(
    "content",
    [
        "not json at all\n",
        "",
        "[1, 2, 3]\n",  # JSON, but not a record
        json.dumps({**NO_SEED, "rules": {"players": 3}}) + "\n",  # no seed
        json.dumps({**NO_SEED, "seed": 1, "rules": {"players": 9}}) + "\n",  # bad rules
    ],
)
def test_replay_verify_unreadable(capsys: Capsys, tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    code, out, err = run(capsys, "replay", "verify", str(path))
    assert code == 1
    assert out == ""
    error_line(err)


def test_replay_verify_missing_file(capsys: Capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "replay", "verify", str(tmp_path / "missing.jsonl"))
    assert code == 2  # no such file or match id: bad input, like `replay show`
    assert "missing.jsonl" in error_line(err)


# ------------------------------------------------------------------ listings


def test_rules_json(capsys: Capsys) -> None:
    code, out, err = run(capsys, "rules", "--json")
    assert code == 0 and err == ""
    rows = json.loads(out)
    assert {row["game"] for row in rows} == {"classic", "europe"}
    assert {row["key"] for row in rows if row["game"] == "europe"} == {
        "crowns_to_win",
        "max_rounds",
        "missions",
    }
    by_key = {row["key"]: row for row in rows if row["game"] == "classic"}
    fields = set(ClassicConfig.__dataclass_fields__) - {"players"}
    assert set(by_key) == fields
    defaults = ClassicConfig().to_dict()
    for key, row in by_key.items():
        assert {"key", "values", "default", "description"} <= row.keys()
        assert row["description"]
        assert row["default"] == str(defaults[key]).lower()
        if key in CHOICES:
            assert row["values"] == list(CHOICES[key])
            assert row["default"] in row["values"]


def test_rules_text(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0
    for key in CHOICES:
        assert key in out
    assert "max_rounds" in out


def test_rules_of_one_game_and_of_every_game(capsys: Capsys) -> None:
    """``arena rules [GAME]``: one game's options, or every registered game's with a header
    naming it; JSON rows name their game; an unknown game is bad input."""
    code, every, _ = run(capsys, "rules")
    assert code == 0 and every.startswith("classic: classic RISK")
    assert "2-6 players" in every.splitlines()[0]
    code, one, _ = run(capsys, "rules", "classic")
    assert code == 0 and not one.startswith("classic:") and "max_rounds=positive integer" in one
    code, out, _ = run(capsys, "rules", "classic", "--json")
    assert code == 0 and {row["game"] for row in json.loads(out)} == {"classic"}
    code, _, err = run(capsys, "rules", "chess")
    assert code == 2 and "unknown game 'chess'; choose one of: classic" in error_line(err)


def test_games_lists_the_registered_games(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "games")
    assert code == 0 and out.split()[:2] == ["classic", "2-6"]
    code, out, _ = run(capsys, "games", "--json")
    assert code == 0
    assert json.loads(out)[0] | {"title": ""} == {
        "name": "classic",
        "title": "",
        "min_players": 2,
        "max_players": 6,
    }


def test_bots_json(capsys: Capsys) -> None:
    code, out, err = run(capsys, "bots", "--json")
    assert code == 0 and err == ""
    bots = json.loads(out)
    names = [b["name"] for b in bots]
    assert "random" in names
    random_bot = bots[names.index("random")]
    assert {"name", "version", "language", "description", "path"} <= random_bot.keys()
    assert (Path(random_bot["path"]) / "bot.toml").is_file()
    assert random_bot["language"] == "Python"


def test_bots_text(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "bots")
    assert code == 0
    assert "random" in out


# ------------------------------------------------------------ the console script


def arena_script() -> str:
    beside = Path(sys.executable).parent / "arena"
    if beside.is_file():
        return str(beside)
    found = shutil.which("arena")
    if found is None:
        pytest.skip("the arena console script is not installed")
    return found


def test_console_script(tmp_path: Path) -> None:
    script = arena_script()
    env = {**os.environ, "ARENA_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [script, "match", "--bot", "random", "--bot", "random", "--seed", "3", "--json", *RULES],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["seed"] == 3 and len(data["places"]) == 2
    replay = Path(data["replay"])
    assert replay.is_file() and (tmp_path / "home" / "replays") in replay.parents
    verified = subprocess.run(
        [script, "replay", "verify", str(replay)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert verified.returncode == 0 and verified.stdout.startswith("ok:")
    bad = subprocess.run(
        [script, "match", "--bot", "random", "--bot", "nosuchbot"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr.strip().splitlines() == [bad.stderr.strip()]
    assert "nosuchbot" in bad.stderr and "random" in bad.stderr


# ------------------------------------------------------------------ numeric flags

HUGE = str(2**70)


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (("match", "--bot", "random", "--bot", "random", "--move-time", "nan"), "--move-time"),
        (("match", "--bot", "random", "--bot", "random", "--move-time", "inf"), "--move-time"),
        (("match", "--bot", "random", "--bot", "random", "--move-time", "1e12"), "--move-time"),
        (("match", "--bot", "random", "--bot", "random", "--time-bank", "inf"), "--time-bank"),
        (("match", "--bot", "random", "--bot", "random", "--time-bank", "-1"), "--time-bank"),
        (("match", "--bot", "random", "--bot", "random", "--startup-time", "nan"), "--startup"),
        (("match", "--bot", "random", "--bot", "random", "--strike-limit", "0"), "--strike-limit"),
        (("match", "--bot", "random", "--bot", "random", "--seed", HUGE), "--seed"),
        (("versus", "random", "random", "--games", "1", "--move-time", "-1"), "--move-time"),
        (("versus", "random", "random", "--games", "1", "--time-bank", "-1"), "--time-bank"),
        (("versus", "random", "random", "--games", "1", "--move-time", "nan"), "--move-time"),
        (("versus", "random", "random", "--games", "1", "--time-bank", "1e12"), "--time-bank"),
        (("versus", "random", "random", "--games", "0"), "--games"),
        (("versus", "random", "random", "--games", "1", "--seed", HUGE), "--seed"),
        (("check-bot", "random", "--move-time", "inf"), "--move-time"),
        (("check-bot", "random", "--startup-time", "nan"), "--startup-time"),
        (("tournament", "run", "--bot", "random", "--bot", "continent", "--seed", HUGE), "--seed"),
        (
            ("tournament", "run", "--bot", "random", "--bot", "continent", "--rounds", HUGE),
            "--rounds",
        ),
        (
            ("tournament", "run", "--bot", "random", "--bot", "continent", "--move-time", "inf"),
            "--move-time",
        ),
        (
            ("tournament", "run", "--bot", "random", "--bot", "continent", "--workers", "-1"),
            "--workers",
        ),
        (("tournament", "resume", "abc", "--workers", "-1"), "--workers"),
        (("demo", "--workers", "-1"), "--workers"),
        (("odds", "3", "2", "--simulate", "0"), "--simulate"),
        (("versus", "random", "random", "--sprt", "nan,50"), "--sprt"),
        (("versus", "random", "random", "--sprt", "0,inf"), "--sprt"),
    ],
)
def test_bad_numbers_exit_2_with_one_line(
    capsys: Capsys, tmp_path: Path, args: tuple[str, ...], flag: str
) -> None:
    """Out-of-range, infinite and NaN numbers are refused before anything runs."""
    if args[0] in ("tournament", "demo"):
        args = (*args, "--db", str(tmp_path / "t.db"), "--no-progress")
    code, out, err = run(capsys, *args)
    assert code == 2, err
    assert out == ""
    assert flag in error_line(err)
    assert not (tmp_path / "t.db").exists()


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("move_time = nan\n", "move_time"),
        ("time_bank = inf\n", "time_bank"),
        ("startup_time = -1.0\n", "startup_time"),
        (f"seed = {2**70}\n", "seed"),
        (f"rounds = {2**70}\n", "rounds"),
        ("workers = -2\n", "workers"),
    ],
)
def test_bad_numbers_in_a_config_file(capsys: Capsys, tmp_path: Path, text: str, key: str) -> None:
    config = tmp_path / "t.toml"
    config.write_text('bots = ["random", "continent"]\n' + text)
    db = tmp_path / "t.db"
    code, out, err = run(capsys, "tournament", "run", "--config", str(config), "--db", str(db))
    assert code == 2, err
    assert out == ""
    line = error_line(err)
    assert key in line and str(config) in line
    assert not db.exists()


def test_config_file_not_utf8(capsys: Capsys, tmp_path: Path) -> None:
    config = tmp_path / "t.toml"
    config.write_bytes(b'bots = ["random", "continent"]\nname = "\xff\xfe"\n')
    code, out, err = run(capsys, "tournament", "run", "--config", str(config), "--no-progress")
    assert code == 2, err
    assert out == ""
    line = error_line(err)
    assert str(config) in line and "UTF-8" in line


# ------------------------------------------------------------------ progress output


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_without_a_terminal_is_one_full_line_per_update() -> None:
    stream = io.StringIO()
    started = time.time() - 60
    with ProgressBar("tournament abc", stream=stream) as bar:
        assert not bar.live
        for done in (1, 2, 3):
            bar.update(Update(done=done, total=3, started=started, leader="strong"))
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("tournament abc: 1/3 matches, ")
    assert "matches/min" in lines[0] and " left, leader: strong" in lines[0]
    assert lines[2].startswith("tournament abc: 3/3 matches, ") and "left" not in lines[2]
    assert "\r" not in stream.getvalue() and "\x1b" not in stream.getvalue()


def test_progress_rate_counts_only_this_run() -> None:
    """A resumed run reports the matches it played per minute, not those recorded earlier."""
    stream = io.StringIO()
    bar = ProgressBar("t", stream=stream)
    bar.update(Update(done=50, total=50, started=time.time() - 60, leader="x", resumed_from=50))
    bar.update(Update(done=51, total=60, started=time.time() - 60, leader="x", resumed_from=50))
    first, second = stream.getvalue().splitlines()
    assert first == "t: 50/50 matches, leader: x"
    assert "matches/min" in second and float(second.split(", ")[1].split()[0]) < 2


def test_progress_disabled_prints_nothing() -> None:
    stream = _Terminal()
    with ProgressBar("t", enabled=False, stream=stream) as bar:
        bar.update(Update(done=1, total=2, started=time.time(), leader="x"))
    assert stream.getvalue() == ""


def test_progress_on_a_terminal_is_a_live_bar() -> None:
    with ProgressBar("t", stream=_Terminal()) as bar:
        assert bar.live and bar.bar.live.is_started
    assert not bar.bar.live.is_started


def test_status_line_redraws_on_a_terminal_and_prints_lines_otherwise() -> None:
    piped, terminal = io.StringIO(), _Terminal()
    for stream in (piped, terminal):
        status = StatusLine(stream)
        status.show("game 1")
        status.show("game 2")
        status.close()
    assert piped.getvalue() == "game 1\ngame 2\n"
    assert terminal.getvalue().count("\r") == 2 and terminal.getvalue().endswith("game 2\n")


def test_versus_progress_piped_is_one_line_per_game(tmp_path: Path) -> None:
    done = subprocess.run(
        [arena_script(), "versus", "random", "continent", "--games", "3", "--seed", "4", *RULES],
        capture_output=True,
        text=True,
        env={**os.environ, "ARENA_HOME": str(tmp_path / "home")},
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "\r" not in done.stderr
    lines = done.stderr.splitlines()
    assert [line.split(":")[0] for line in lines] == ["game 1/3", "game 2/3", "game 3/3"]
    assert "inf" not in done.stdout and "-0 " not in done.stdout


def test_tournament_progress_piped_is_one_line_per_match(tmp_path: Path) -> None:
    args = ["tournament", "run", "--bot", "random", "--bot", "continent", "--rounds", "2"]
    done = subprocess.run(
        [arena_script(), *args, *RULES, "--seed", "3", "--db", str(tmp_path / "t.db")],
        capture_output=True,
        text=True,
        env={**os.environ, "ARENA_HOME": str(tmp_path / "home"), "COLUMNS": "40"},
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) >= 2 and "\r" not in done.stderr
    counts = [line.split(": ")[1].split(",")[0] for line in lines]
    assert counts[0] == "0/4 matches" and counts[-1] == "4/4 matches"
    assert counts == sorted(counts)
    assert all(" leader: " in line for line in lines)
    assert ", leader: " in lines[-1] and "matches/min" in lines[-1]
    assert "…" not in done.stderr


@pytest.mark.parametrize(
    ("numbers", "text"),
    [
        ((math.inf, math.inf, math.inf), "Elo difference not yet measurable"),
        ((-math.inf, -math.inf, -math.inf), "Elo difference not yet measurable"),
        ((-0.3, -12.2, 11.8), "Elo difference +0 (95% interval -12 to +12)"),
        ((-0.0, 0.0, 0.0), "Elo difference +0 (95% interval +0 to +0)"),
        ((191.0, 35.4, math.inf), "Elo difference +191 (95% interval at least +35)"),
        ((-191.0, -math.inf, -35.4), "Elo difference -191 (95% interval at most -35)"),
        ((0.0, -math.inf, math.inf), "Elo difference +0 (95% interval not yet measurable)"),
    ],
)
def test_elo_in_words(numbers: tuple[float, float, float], text: str) -> None:
    assert describe_elo(*numbers).startswith(text)


# ------------------------------------------------------------------ match summary

CRASHER = str(Path(__file__).resolve().parent / "referee" / "broken_bots" / "crasher")


def test_match_text_names_the_match_and_where_it_is_kept(capsys: Capsys) -> None:
    code, out, err = run(capsys, "match", *THREE, "--seed", "5", *RULES)
    assert code == 0 and err == ""
    replay = next(line for line in out.splitlines() if line.startswith("replay: "))[8:]
    match_id = json.loads(Path(replay).read_text().splitlines()[0])["match_id"]
    assert f"match {match_id} " in out.splitlines()[0]
    assert f"arena replay show {replay}" in out
    assert "not `arena match`" in out and "results database" in out
    assert "stderr log" not in out  # no seat failed
    code, out, _ = run(capsys, "match", *THREE, "--seed", "5", *RULES, "--no-replay")
    assert code == 0 and "replay show" not in out and "results database" in out


def test_match_won_by_forfeit_says_so_and_names_the_log(
    capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ARENA_TEST_PHASE", "place")
    code, out, err = run(capsys, "match", "--bot", CRASHER, "--bot", "random", "--seed", "4")
    assert code == 0, err
    ended = next(line for line in out.splitlines() if line.startswith("winner:"))
    assert "ended by forfeit (seat 0, crasher: CRASH)" in ended and "domination" not in ended
    match_id = out.splitlines()[0].split("match ")[1].split()[0]
    log_line = next(line for line in out.splitlines() if "stderr log:" in line)
    assert log_line.startswith("seat 0 (crasher, CRASH) stderr log: ")
    log = Path(log_line.split("stderr log: ")[1])
    assert log.is_file() and log.parent.name == "logs" and log.name.startswith(f"{match_id}-seat0")
    assert sum("stderr log:" in line for line in out.splitlines()) == 1
    data = match_json(capsys, "--bot", CRASHER, "--bot", "random", "--seed", "4")
    assert data["end"] == "domination"  # the JSON keeps the documented values
    assert data["places"][0]["status"] == "CRASH"


# ------------------------------------------------------------------ replay show


def show(path: Path, *args: str, answers: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [arena_script(), "replay", "show", str(path), *args],
        input=answers,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_replay_show_step_quits_on_q_and_at_end_of_input(capsys: Capsys) -> None:
    path = a_replay(capsys)
    everything = show(path, answers="")
    assert everything.returncode == 0 and everything.stderr == ""
    rounds = everything.stdout.count("\nRound ")
    assert rounds > 3
    two = show(path, "--step", answers="\nq\n")
    assert two.returncode == 0, two.stderr
    assert two.stdout.count("\nRound ") == 1 and "Traceback" not in two.stderr
    assert two.stderr.count("q: quit") == 2
    assert show(path, "--step", answers="").stdout.count("\nRound ") == 0  # EOF: first block only
    assert show(path, "--step", answers="\n\n\n").stdout.count("\nRound ") == 3
    stepped = show(path, "--step", answers="\n" * 1000)
    assert stepped.stdout == everything.stdout


def test_replay_show_of_an_arena_match_id_points_at_its_file(capsys: Capsys) -> None:
    data = match_json(capsys, *THREE, "--seed", "7", *RULES)
    code, out, err = run(capsys, "replay", "show", data["match_id"])
    assert code == 2 and out == ""
    assert f"arena replay show {data['replay']}" in error_line(err)
    code, out, err = run(capsys, "replay", "show", "nosuchid")
    assert code == 2 and out == ""
    line = error_line(err)
    assert "'nosuchid'" in line and f"arena replay show {replays_home()}" in line
    code, out, _ = run(capsys, "replay", "show", data["replay"])
    assert code == 0 and out.startswith("classic · seed 7")


def test_match_help_says_single_matches_are_files_not_in_the_database(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "match", "--help")
    assert code == 0
    assert "not in the results database" in " ".join(out.split())


def test_versus_progress_on_a_terminal_redraws_one_line(tmp_path: Path) -> None:
    """stderr a real terminal (a pty): the game counter is redrawn in place, then ended."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    process = subprocess.Popen(
        [arena_script(), "versus", "random", "continent", "--games", "2", "--seed", "4", *RULES],
        stdout=subprocess.PIPE,
        stderr=slave,
        text=True,
        env={**os.environ, "ARENA_HOME": str(tmp_path / "home")},
    )
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the terminal's last writer is gone
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    out, _ = process.communicate(timeout=300)
    assert process.returncode == 0, seen
    text = seen.decode()
    assert "game 1/2" in text and "game 2/2" in text
    assert text.count("\r\x1b[K") == 2  # each game redraws the line ...
    assert text.count("\n") == 1 and text.endswith("\n")  # ... which ends once, at the end
    assert out.startswith("random v continent: 2 games")


def test_printed_commands_say_arena_as_this_shell_can_run_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After ``make demo`` the program is ``.venv/bin/arena``, not on the PATH: a command the
    arena prints for the user to copy must work as printed."""
    program = tmp_path / ".venv" / "bin" / "arena"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setattr(sys, "argv", [str(program), "demo"])
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert arena_command() == ".venv/bin/arena"
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    assert arena_command() == str(program.resolve())
    monkeypatch.setenv("PATH", f"{program.parent}:/usr/bin:/bin")  # the venv activated
    assert arena_command() == "arena"


def test_the_match_summary_says_why_a_seat_did_not_start(capsys: Capsys, tmp_path: Path) -> None:
    folder = tmp_path / "compiled"
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "compiled"\ncommand = "./cppbot"\n')
    code, out, err = run(capsys, "match", "--bot", "random", "--bot", str(folder), *RULES)
    assert code == 0, err
    line = next(x for x in out.splitlines() if x.startswith("seat 1 (compiled, INIT_FAIL): "))
    assert "./cppbot" in line or "cppbot" in line, line
