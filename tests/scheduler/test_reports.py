"""Crosstable, replay show/export/verify by match id, versus, leaderboards and the read
commands' errors, through the CLI."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from arena import games
from arena.cli import main
from arena.errors import ConfigError
from arena.results import reports
from arena.results.store import connect as store_connect
from arena.results.store import open_store
from arena.scheduler import tournament as tournaments
from arena.scheduler.tournament import TournamentSettings
from tests.scheduler.test_tournament import arena, db_path, ok, query
from tests.test_store import corrupt_a_page

Capsys = pytest.CaptureFixture[str]


def small_tournament(seed: int = 3) -> str:
    out = ok(
        "tournament",
        "run",
        "--game",
        "classic",
        "--bot",
        "random",
        "--bot",
        "aggressive",
        "--seats",
        "2",
        "--rounds",
        "1",
        "--rules",
        "max_rounds=5",
        "--seed",
        str(seed),
        "--workers",
        "1",
        "--no-progress",
        "--json",
    )
    assert json.loads(out)["rows"]
    return json.loads(ok("tournament", "list", "--json"))[-1]["id"]


Recorded = Callable[[], str]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    """``small_tournament()``'s database in this test's results folder; it is played once per
    module and copied afterwards (the reports only read it, or damage their own copy)."""
    kept = tmp_path_factory.mktemp("recorded") / "arena.db"
    ids: list[str] = []

    def copy() -> str:
        if not ids:
            ids.append(small_tournament())
            shutil.copy(db_path(), kept)
        else:
            db_path().parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(kept, db_path())
        return ids[0]

    return copy


def test_crosstable_counts_every_pairing_and_matches_the_places(recorded: Recorded) -> None:
    tid = recorded()
    table = json.loads(ok("tournament", "show", tid, "--json"))
    assert table["tournament"]["id"] == tid and table["tournament"]["recorded"] == 2
    pairs = {(p["a"], p["b"]): p for p in table["pairs"]}
    ab = pairs[("aggressive 1.0", "random 1.0")]
    ba = pairs[("random 1.0", "aggressive 1.0")]
    assert ab["games"] == ba["games"] == 2
    assert (ab["ahead"], ab["behind"], ab["level"]) == (ba["behind"], ba["ahead"], ba["level"])
    matches = json.loads(ok("matches", "--tournament", tid, "--json"))
    ahead = sum(
        1
        for m in matches
        if {s["bot"]: s["place"] for s in m["seats"]}["aggressive"]
        < {s["bot"]: s["place"] for s in m["seats"]}["random"]
    )
    assert ab["ahead"] == ahead
    rows = list(csv.reader(io.StringIO(ok("tournament", "show", tid, "--csv"))))
    assert rows[0] == ["a", "b", "games", "ahead", "behind", "level"] and len(rows) == 3
    text = ok("tournament", "show", tid)
    assert "crosstable" in text and "faults" in text
    assert arena("tournament", "show", "nope").returncode == 2


def test_replays_of_stored_matches_show_export_and_verify(
    tmp_path: Path, recorded: Recorded
) -> None:
    tid = recorded()
    match_id = json.loads(ok("matches", "--tournament", tid, "--json"))[0]["id"]
    assert ok("replay", "verify", match_id).startswith("ok:")
    shown = ok("replay", "show", match_id)
    assert "Round 1" in shown and "Game over" in shown
    target = tmp_path / "out" / "match.jsonl"
    ok("replay", "export", match_id, str(target))
    header = json.loads(target.read_text().splitlines()[0])
    assert header["format"] == "risk-arena-replay" and header["match_id"] == match_id
    assert ok("replay", "verify", str(target)).startswith("ok:")
    assert arena("replay", "export", "nope", str(target)).returncode == 2
    assert arena("replay", "show", "nope").returncode == 2  # an unknown id is bad input
    assert arena("replay", "verify", "nope").returncode == 2  # an unknown id is bad input


def test_versus_reports_a_rotated_series_and_the_sprt_stops_early():
    out = json.loads(
        ok(
            "versus",
            "aggressive",
            "random",
            "--games",
            "12",
            "--rules",
            "max_rounds=30",
            "--sprt",
            "0,100",
            "--seed",
            "4",
            "--json",
        )
    )
    assert out["a"] == "aggressive" and out["wins"] + out["draws"] + out["losses"] == out["games"]
    assert out["sprt"]["verdict"] == "H1" and out["games"] < 12
    seats = [tuple(r["seats"]) for r in out["results"][:2]]
    assert seats == [("A", "B"), ("B", "A")]
    assert out["results"][0]["seed"] == out["results"][1]["seed"]
    three = json.loads(
        ok(
            "versus",
            "aggressive",
            "random",
            "--seats",
            "3",
            "--filler",
            "random",
            "--games",
            "3",
            "--rules",
            "max_rounds=10",
            "--json",
        )
    )
    assert [tuple(r["seats"]) for r in three["results"]] == [
        ("A", "B", "filler"),
        ("B", "filler", "A"),
        ("filler", "A", "B"),
    ]
    assert arena("versus", "aggressive", "random", "--seats", "3").returncode == 2
    assert arena("versus", "aggressive", "random", "--sprt", "50,0").returncode == 2


# ------------------------------------------------------------------------ leaderboards


def test_a_tournament_leaderboard_shows_the_ratings_as_they_stood_at_its_end(
    recorded: Recorded,
) -> None:
    first = recorded()
    second = small_tournament(seed=4)  # the same pool: it moves the current ratings on
    board = json.loads(ok("leaderboard", "--tournament", first, "--json"))
    assert board["tournament"] == first and board["ratings_as_of"] == "tournament_end"
    last = {
        version: (mu, sigma)
        for version, mu, sigma in query(
            "SELECT h.version_id, h.mu_after, h.sigma_after FROM rating_history h"
            " JOIN matches m ON m.id = h.match_id WHERE m.tournament_id = ?"
            " ORDER BY m.plan_index",
            (first,),
        )
    }
    assert {r["version_id"]: (r["mu"], r["sigma"]) for r in board["rows"]} == last
    assert [r["games"] for r in board["rows"]] == [2, 2]  # that tournament's matches
    now = json.loads(ok("leaderboard", "--json"))
    assert now["ratings_as_of"] == "now"
    current = {r["version_id"]: r["mu"] for r in now["rows"]}
    assert all(current[v] != mu for v, (mu, _sigma) in last.items())
    assert json.loads(ok("leaderboard", "--tournament", second, "--json"))["rows"][0]["mu"] in (
        current.values()
    )
    assert "ratings as they stood after its last recorded match" in ok(
        "leaderboard", "--tournament", first
    )
    assert "current ratings" in ok("leaderboard")


def board_of(names: list[str]) -> dict[str, Any]:
    """A leaderboard with wide figures in every column."""
    rows = []
    for rank, name in enumerate(names, 1):
        rows.append(
            {
                "rank": rank,
                "bot": name,
                "version": "10.2.1",
                "version_id": f"{rank:02d}abcdef0123456789",
                "mu": 35.123456 - rank,
                "sigma": 1.2345,
                "mu_minus_3sigma": 31.419 - rank,
                "games": 1200,
                "wins": 450,
                "win_rate": 0.375,
                "avg_place": 1.875,
                "faults": {"DISCONNECT": 12, "INIT_FAIL": 2, "TIMEOUT": 3} if rank % 2 else {},
                "think_ms_p50": 12.345,
                "think_ms_p99_p95": 1234.56,
                "think_ms_p99": 1234.56,
            }
        )
    return {"pool": "classic/3p/world", "tournament": "abcd1234", "rows": rows}


def rendered(board: dict[str, Any], width: int) -> str:
    console = Console(width=width, record=True, file=io.StringIO(), force_terminal=False)
    reports.render_leaderboard(board, console)
    return console.export_text()


@pytest.mark.parametrize("width", [80, 60])
def test_the_leaderboard_fits_the_terminal_without_cutting_names_or_numbers(width: int) -> None:
    names = ["js-heuristic", "continent-keeper", "aggressive", "strong"]
    text = rendered(board_of(names), width)
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= width
    for rank, name in enumerate(names, 1):
        line = next(line for line in text.splitlines() if f" {name} " in line)
        assert f"{31.419 - rank:.2f}" in line  # the ranking figure, whole
    wide = rendered(board_of(names), 160)
    assert "…" not in wide and "12.35/1234.56" in wide and "TIMEOUT 3" in wide
    assert "95th percentile of per-match p99" in wide


def test_the_leaderboard_csv_and_json_name_the_think_tail_for_what_it_is() -> None:
    board = board_of(["a", "b"])
    rows = list(csv.DictReader(io.StringIO(reports.leaderboard_csv(board))))
    assert rows[0]["think_ms_p99_p95"] == rows[0]["think_ms_p99"] == "1234.56"


# ----------------------------------------------------------------- read commands' errors


def run(capsys: Capsys, *args: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``arena ARGS`` called in-process."""
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def one_error(err: str) -> str:
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("arena: error:")]
    assert len(lines) == 1, err
    return lines[0]


def test_read_commands_never_make_a_database_of_a_mistyped_path(
    capsys: Capsys, tmp_path: Path
) -> None:
    typo = tmp_path / "reslts" / "arena.db"
    commands: list[tuple[list[str], int]] = [
        (["leaderboard"], 2),
        (["matches"], 2),
        (["tournament", "list"], 2),
        (["tournament", "show", "abc"], 2),
        (["replay", "show", "abc"], 2),
        (["replay", "export", "abc", str(tmp_path / "out.jsonl")], 2),
        (["replay", "verify", "abc"], 2),
        (["tournament", "resume", "abc"], 2),
        (["ratings", "rebuild"], 2),
    ]
    for args, expected in commands:
        code, _out, err = run(capsys, *args, "--db", str(typo))
        assert code == expected, (args, err)
        assert f"no results database at {typo}" in one_error(err), args
        assert not typo.parent.exists(), args
    # The default database not made yet: readers see no results, and make nothing either.
    assert run(capsys, "matches", "--json")[:2] == (0, "[]\n")
    assert run(capsys, "tournament", "list", "--json")[:2] == (0, "[]\n")
    assert "no results yet" in one_error(run(capsys, "leaderboard")[2])
    assert not db_path().exists() and not db_path().parent.exists()


def test_unknown_games_and_match_ids_are_bad_input(capsys: Capsys) -> None:
    code, _, err = run(capsys, "leaderboard", "--game", "chess")
    assert code == 2 and "unknown game 'chess'; choose one of: classic, europe" in one_error(err)
    code, _, err = run(capsys, "replay", "show", "nosuchid")
    assert code == 2 and "'nosuchid' is neither a replay file" in one_error(err)


def test_a_settings_file_with_negative_workers_is_refused_in_plain_words() -> None:
    settings = TournamentSettings(bots=["random", "aggressive"], workers=-1)
    with pytest.raises(ConfigError) as caught:
        settings.check()
    assert str(caught.value) == "workers must be 0 (one per core) or more, got -1"


def test_a_read_only_database_is_read_without_being_written(
    capsys: Capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, recorded: Recorded
) -> None:
    tid = recorded()
    match_id = json.loads(ok("matches", "--json"))[0]["id"]
    folder = tmp_path / "read-only"
    folder.mkdir()
    shutil.copy(db_path(), folder / "arena.db")
    db = folder / "arena.db"
    before = db.read_bytes()
    db.chmod(0o444)
    folder.chmod(0o555)
    real = store_connect._may_write  # root ignores the bits: answer as for anyone else
    monkeypatch.setattr(
        store_connect, "_may_write", lambda p: real(p) and not p.resolve().is_relative_to(folder)
    )
    try:
        for args in (
            ["leaderboard", "--json"],
            ["leaderboard", "--tournament", tid, "--json"],
            ["matches", "--json"],
            ["tournament", "list", "--json"],
            ["tournament", "show", tid, "--json"],
            ["replay", "verify", match_id],
            ["replay", "show", match_id],
        ):
            code, out, err = run(capsys, *args, "--db", str(db))
            assert code == 0 and out, (args, err)
        assert sorted(os.listdir(folder)) == ["arena.db"]  # not even a -wal or -shm
        assert db.read_bytes() == before
    finally:
        folder.chmod(0o755)
        db.chmod(0o644)


def test_a_damaged_stored_replay_is_a_one_line_error(capsys: Capsys, recorded: Recorded) -> None:
    recorded()
    match_id = json.loads(run(capsys, "matches", "--json")[1])[0]["id"]
    conn = sqlite3.connect(db_path())
    blob = conn.execute("SELECT replay FROM matches WHERE id = ?", (match_id,)).fetchone()[0]
    conn.execute(
        "UPDATE matches SET replay = ? WHERE id = ?",
        (blob[:12] + b"\xff" * 8 + blob[20:], match_id),
    )
    conn.commit()
    conn.close()
    for args, code in (
        (["replay", "show", match_id], 2),
        (["replay", "export", match_id, str(db_path().parent / "x.jsonl")], 2),
        (["replay", "verify", match_id], 1),
    ):
        done, _out, err = run(capsys, *args)
        assert done == code, (args, err)
        assert f"the stored replay of match {match_id!r} is damaged" in one_error(err)


def test_a_tournament_is_not_run_into_a_corrupt_database(
    capsys: Capsys, recorded: Recorded
) -> None:
    recorded()
    corrupt_a_page(db_path())
    before = db_path().read_bytes()
    code, _, err = run(
        capsys, "tournament", "run", "--bot", "random", "--bot", "aggressive", "--no-progress"
    )
    assert code == 2
    line = one_error(err)
    assert f"results database {db_path()} is corrupt" in line and "will not be written" in line
    assert db_path().read_bytes() == before


def test_piped_leaderboard_is_whole_unless_columns_says_how_wide(
    monkeypatch: pytest.MonkeyPatch, capsys: Capsys
) -> None:
    """Piped into a file the whole table is kept; ``COLUMNS=80`` (e.g. ``| less`` in an
    80-column terminal) fits it to 80 like a terminal of that width."""
    board = board_of(["js-heuristic", "continent-keeper", "aggressive", "strong"])
    monkeypatch.delenv("COLUMNS", raising=False)
    reports.render_leaderboard(board)
    wide = capsys.readouterr().out
    assert max(len(line) for line in wide.splitlines()) > 80
    monkeypatch.setenv("COLUMNS", "80")
    reports.render_leaderboard(board)
    narrow = capsys.readouterr().out
    assert max(len(line) for line in narrow.splitlines()) <= 80 and "…" not in narrow


# ----------------------------------------------------------------- --game on every command


def test_every_command_that_plays_or_reports_refuses_an_unknown_game(capsys: Capsys) -> None:
    for args in (
        ["tournament", "run", "--bot", "random", "--bot", "aggressive"],
        ["versus", "random", "aggressive", "--games", "1"],
        ["check-bot", "random"],
        ["leaderboard"],
        ["matches"],
    ):
        code, out, err = run(capsys, *args, "--game", "chess")
        assert code == 2, (args, err)
        assert (
            one_error(err) == "arena: error: unknown game 'chess'; choose one of: classic, europe"
        )
        assert out == "", args
    assert not db_path().exists()


def test_a_tournament_file_names_its_game_and_an_unknown_one_is_refused(
    capsys: Capsys, tmp_path: Path
) -> None:
    settings = tmp_path / "t.toml"
    settings.write_text('bots = ["random", "aggressive"]\ngame = "chess"\n')
    code, _, err = run(capsys, "tournament", "run", "--config", str(settings))
    assert code == 2 and "unknown game 'chess'; choose one of: classic, europe" in one_error(err)
    settings.write_text('bots = ["random", "aggressive"]\ngame = "classic"\n')
    assert TournamentSettings.from_toml(settings).check().rating_format() == "2p/world"


def test_a_tournament_records_its_game_and_the_pool_its_game_names(recorded: Recorded) -> None:
    tournament = recorded()
    rows = query("SELECT game, pool FROM matches WHERE tournament_id = ?", (tournament,))
    assert rows and set(rows) == {("classic", "classic/2p/world")}
    assert {pool for (pool,) in query("SELECT DISTINCT pool FROM ratings")} == {"classic/2p/world"}


@pytest.mark.parametrize(
    ("config", "pool"),
    [
        ({"players": 2, "mode": "world"}, "classic/2p/world"),
        ({"players": 3, "mode": "mission"}, "classic/3p/mission"),
        ({"players": 4, "mode": "capital"}, "classic/4p/capital"),
    ],
)
def test_stored_tournaments_keep_their_pools(config: dict[str, Any], pool: str) -> None:
    """Tournaments stored before the game had a contract (no ``game`` key) and after it rate
    into the same pools as they always did."""
    assert tournaments.stored_pool({"config": config}) == pool
    assert tournaments.stored_pool({"game": "classic", "config": config}) == pool


def test_leaderboard_and_matches_filter_by_game(
    capsys: Capsys, recorded: Recorded, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = recorded()
    monkeypatch.setattr(games, "_ENTRIES", dict(games._ENTRIES))
    games.register("guessing", "tests.games.guessing")
    every = json.loads(run(capsys, "matches", "--json")[1])
    assert len(every) == 2
    assert json.loads(run(capsys, "matches", "--game", "classic", "--json")[1]) == every
    assert run(capsys, "matches", "--game", "guessing", "--json")[:2] == (0, "[]\n")
    code, _, err = run(capsys, "leaderboard", "--game", "guessing")
    assert code == 2 and "no results of game 'guessing' yet" in one_error(err)
    code, out, _ = run(capsys, "leaderboard", "--game", "classic", "--json")
    assert code == 0 and json.loads(out)["pool"] == "classic/2p/world"
    # One match moved to another game's pool: each filter sees its own game's share.
    conn = sqlite3.connect(db_path())
    with conn:
        conn.execute(
            "UPDATE matches SET game = 'guessing', pool = 'guessing/2p' WHERE id = ?",
            (every[1]["id"],),
        )
    conn.close()
    with open_store(db_path()) as store:  # rows edited by hand: their totals recomputed
        store.rebuild_totals()
    classic = json.loads(run(capsys, "matches", "--game", "classic", "--json")[1])
    guessing = json.loads(run(capsys, "matches", "--game", "guessing", "--json")[1])
    assert [m["id"] for m in classic] == [every[0]["id"]]
    assert [(m["id"], m["pool"]) for m in guessing] == [(every[1]["id"], "guessing/2p")]
    assert len(json.loads(run(capsys, "matches", "--json")[1])) == 2
    code, out, _ = run(capsys, "leaderboard", "--game", "guessing", "--json")
    assert code == 0 and json.loads(out)["pool"] == "guessing/2p"
    code, out, _ = run(capsys, "leaderboard", "--game", "classic", "--json")
    assert code == 0 and json.loads(out)["pool"] == "classic/2p/world"
    code, _, err = run(capsys, "leaderboard", "--game", "guessing", "--pool", "classic/2p/world")
    assert code == 2 and "no ratings in pool 'classic/2p/world' of game 'guessing'" in err
    code, _, err = run(capsys, "leaderboard", "--game", "guessing", "--tournament", tournament)
    assert code == 2 and "plays 'classic', not 'guessing'" in one_error(err)


def test_versus_and_check_bot_take_the_game_the_bots_must_list(
    capsys: Capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(
        capsys,
        "versus",
        "random",
        "aggressive",
        "--game",
        "classic",
        "--games",
        "1",
        "--seed",
        "2",
        "--rules",
        "max_rounds=5",
        "--json",
    )
    assert code == 0, err
    assert json.loads(out)["games"] == 1
    code, out, err = run(
        capsys, "check-bot", "random", "--game", "classic", "--in-process", "--json"
    )
    assert code == 0 and json.loads(out)["ok"], err
    # A registered game the bundled bots do not list: refused, naming the bot and its games.
    monkeypatch.setattr(games, "_ENTRIES", dict(games._ENTRIES))
    games.register("guessing", "tests.games.guessing")
    for args in (["versus", "random", "aggressive", "--games", "1"], ["check-bot", "random"]):
        code, _, err = run(capsys, *args, "--game", "guessing")
        line = one_error(err)
        assert code == 2 and "'random'" in line and "guessing" in line, (args, line)
