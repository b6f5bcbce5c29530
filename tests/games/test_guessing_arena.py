"""The test-only guessing game through the whole arena: the referee (in-process and over
gRPC), a tournament, the leaderboard, the match list and ``replay verify``. Nothing above
the game contract may assume classic RISK; this game has nothing of it.

Its one decision is simultaneous: both seats guess in secret under one deadline. The
referee must ask both before either answers, give a seat that times out the default guess,
take a bad answer as that seat's strike only, ignore a second answer, and hand the game one
joint answer per round.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from arena.catalog import BotSpec, load_bot, read_spec
from arena.cli import main
from arena.games import load as load_game
from arena.keys import bot_seed
from arena.referee import local
from arena.referee.match import MatchResult, TimeControl, play_match
from arena.replays.files import read, verify
from tests.games.guessing import GAME, Guess, GuessingGame

GUESSER = Path(__file__).resolve().parent / "bots" / "guesser"
GENEROUS = TimeControl(move_time=10.0, time_bank=20.0, startup_time=60.0)
"""Clocks no answer comes near, even on a loaded machine (timing is not tested with them)."""

SEED = 5
Capsys = pytest.CaptureFixture[str]


@pytest.fixture(autouse=True)
def bot_folder_untouched() -> Iterator[None]:
    """A bot writes nothing into its own folder, whatever the test makes it do."""
    before = sorted(p.name for p in GUESSER.iterdir())
    yield
    assert sorted(p.name for p in GUESSER.iterdir()) == before


@pytest.fixture
def joint_calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[int, int]]:
    """Every joint answer the game is handed, as {seat: guess}."""
    calls: list[dict[int, int]] = []
    real = GuessingGame.apply_joint

    def recording(self: GuessingGame, state: Any, actions: Mapping[int, Guess]) -> Any:
        calls.append({seat: action.value for seat, action in actions.items()})
        return real(self, state, actions)

    monkeypatch.setattr(GuessingGame, "apply_joint", recording)
    return calls


@pytest.fixture
def out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "out"
    folder.mkdir()
    monkeypatch.setenv("ARENA_TEST_GUESSER_OUT", str(folder))
    yield folder


def records_of(result: MatchResult) -> list[dict[str, Any]]:
    assert result.replay is not None
    return read(Path(result.replay))[1]


def joint_records(result: MatchResult) -> list[dict[str, Any]]:
    return [r for r in records_of(result) if r["type"] == "joint"]


def play_remote(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    mode: str,
    rounds: int = 4,
    control: TimeControl = GENEROUS,
    untimed: frozenset[int] = frozenset(),
) -> MatchResult:
    monkeypatch.setenv("ARENA_TEST_GUESSER_MODE", mode)
    game = GAME.configure({"rounds": str(rounds)}, 2)
    spec = read_spec(GUESSER)
    players: list[BotSpec | Any] = [spec, spec]
    replay = tmp_path / f"replay-{len(list(tmp_path.glob('replay-*')))}.jsonl"
    return local.play(game, players, SEED, control, replay, untimed=untimed)


def verified(result: MatchResult) -> None:
    """``replay verify`` re-derives the match (after the joint answers were counted: it
    hands the game the same answers again)."""
    check = verify(Path(result.replay or ""))
    assert check.ok, check.message


def test_plays_in_process_and_replays_exactly(tmp_path: Path, joint_calls: list) -> None:
    game = GAME.configure({"rounds": "4"}, 2)
    bots = [load_bot(read_spec(GUESSER)) for _ in range(2)]
    result = play_match(game, bots, 3, replay_path=tmp_path / "match.jsonl")
    assert [s.status for s in result.seats] == ["OK", "OK"]
    assert result.game == "guessing" and result.progress == {"rounds": 4}
    assert result.decisions == 8 and result.end_reason == "rounds"
    assert result.standings == [{"score": s} for s in result.final.scores]
    joint = joint_records(result)
    assert [[a["seat"] for a in r["answers"]] for r in joint] == [[0, 1]] * 4
    assert [{a["seat"]: a["action"]["value"] for a in r["answers"]} for r in joint] == joint_calls
    header = read(tmp_path / "match.jsonl")[0]
    assert header["game"] == "guessing" and header["declarations"] == [{}, {}]
    assert "always_max" not in header
    check = verify(tmp_path / "match.jsonl")
    assert check.ok, check.message


def test_over_grpc_both_seats_are_asked_before_either_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, out: Path, joint_calls: list
) -> None:
    # Seat 0 answers odd rounds only once seat 1 was asked, seat 1 even rounds only once
    # seat 0 was: answers arrive in both orders, and asking one seat after the other's
    # answer would leave the waiting seat without its marker.
    result = play_remote(tmp_path, monkeypatch, "0=alternate;1=alternate")
    assert [(s.status, s.strikes) for s in result.seats] == [("OK", 0), ("OK", 0)]
    waited = sorted(p.name for p in out.glob("waited-*"))
    assert waited == ["waited-0-1-ok", "waited-0-3-ok", "waited-1-2-ok", "waited-1-4-ok"]
    assert len(joint_calls) == 4 and all(sorted(c) == [0, 1] for c in joint_calls)
    verified(result)


def test_over_grpc_a_seat_that_times_out_gets_the_default_guess(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, out: Path, joint_calls: list
) -> None:
    control = TimeControl(move_time=2.0, time_bank=0.0, startup_time=60.0)
    result = play_remote(tmp_path, monkeypatch, "0=silent", control=control, untimed=frozenset({1}))
    assert [(s.status, s.strikes) for s in result.seats] == [("OK", 1), ("OK", 0)]
    records = records_of(result)
    assert [r["seat"] for r in records if r["type"] == "timeout"] == [0]
    second_round = joint_records(result)[1]
    assert second_round["answers"][0]["action"] == {"kind": "guess", "value": 3}  # the default
    assert joint_calls[1][0] == 3
    assert len(joint_calls) == 4
    verified(result)


def test_over_grpc_a_bad_answer_is_that_seats_strike_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, out: Path, joint_calls: list
) -> None:
    result = play_remote(tmp_path, monkeypatch, "0=illegal", rounds=2)
    assert [(s.status, s.strikes) for s in result.seats] == [("OK", 2), ("OK", 0)]
    rejected = [r for r in records_of(result) if r["type"] == "rejected"]
    assert [r["seat"] for r in rejected] == [0, 0]
    assert all("a guess is 1-6" in r["reason"] for r in rejected)
    assert all(1 <= guess <= 6 for call in joint_calls for guess in call.values())
    assert len(joint_calls) == 2
    verified(result)


def test_over_grpc_a_second_answer_to_one_request_is_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, out: Path, joint_calls: list
) -> None:
    result = play_remote(tmp_path, monkeypatch, "0=twice")
    assert [(s.status, s.strikes) for s in result.seats] == [("OK", 0), ("OK", 0)]
    logged = [json.loads(line) for line in (out / "seat0.jsonl").read_text().splitlines()]
    assert [e["round"] for e in logged] == [1, 2, 3, 4]
    # Applied: what seat 0 sent first each round, not its second answer (one more, wrapped).
    first = [(bot_seed(SEED, 0) + r) % 6 + 1 for r in (1, 2, 3, 4)]
    assert [r["answers"][0]["action"]["value"] for r in joint_records(result)] == first
    assert [c[0] for c in joint_calls] == first
    verified(result)


def test_no_seat_sees_the_other_guess_before_the_reveal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, out: Path
) -> None:
    result = play_remote(tmp_path, monkeypatch, "")
    joint = joint_records(result)
    for seat in (0, 1):
        seen = [json.loads(line) for line in (out / f"seat{seat}.jsonl").read_text().splitlines()]
        for asked in seen:
            round_ = asked["round"]
            # The view and events of round r hold rounds before r only: no guess of round r.
            assert len(asked["view"]["history"]) == round_ - 1
            assert [e["guesses"] for e in asked["events"]] == (
                []
                if round_ == 1
                else [[a["action"]["value"] for a in joint[round_ - 2]["answers"]]]
            )


def run(capsys: Capsys, *args: str) -> tuple[int, str, str]:
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_tournament_the_leaderboard_and_replay_verify(tmp_path: Path, capsys: Capsys) -> None:
    db = str(tmp_path / "arena.db")
    for name in ("guesser-a", "guesser-b"):
        folder = tmp_path / name
        shutil.copytree(GUESSER, folder)
        toml = (folder / "bot.toml").read_text().replace('name = "guesser"', f'name = "{name}"')
        (folder / "bot.toml").write_text(toml)
        assert run(capsys, "bots", "add", str(folder), "--db", db)[0] == 0
    code, _, err = run(
        capsys,
        *("tournament", "run", "--game", "guessing", "--bot", "guesser-a", "--bot", "guesser-b"),
        *("--seats", "2", "--rounds", "2", "--rules", "rounds=3", "--db", db, "--no-progress"),
    )
    assert code == 0, err
    code, shown, err = run(capsys, "leaderboard", "--game", "guessing", "--db", db, "--json")
    assert code == 0, err
    rows = json.loads(shown)
    rows = rows["rows"] if isinstance(rows, dict) else rows
    assert sorted(r["bot"] for r in rows) == ["guesser-a", "guesser-b"]
    code, listed, err = run(capsys, "matches", "--game", "guessing", "--db", db, "--json")
    assert code == 0, err
    matches = json.loads(listed)
    assert len(matches) == 4
    for match in matches:
        code, said, err = run(capsys, "replay", "verify", match["id"], "--db", db)
        assert code == 0 and said.startswith("ok:"), err


def test_a_bot_whose_hello_lists_other_games_is_refused_its_seat(tmp_path: Path) -> None:
    # The guesser's Hello lists only "guessing": in a classic match its seat never starts.
    classic = load_game("classic").configure({"max_rounds": "3"}, 2)
    random_bot = read_spec(Path(__file__).resolve().parents[2] / "bots" / "random")
    result = local.play(classic, [read_spec(GUESSER), random_bot], 4, GENEROUS, None)
    assert [s.status for s in result.seats] == ["INIT_FAIL", "OK"]
    assert result.seats[0].detail == "its Hello lists the games guessing, not classic"


def test_arena_match_plays_the_game_named(tmp_path: Path, capsys: Capsys) -> None:
    code, shown, err = run(
        capsys,
        "match",
        "--game",
        "guessing",
        "--bot",
        str(GUESSER),
        "--bot",
        str(GUESSER),
        "--seed",
        "2",
        "--json",
    )
    assert code == 0, err
    played = json.loads(shown)
    assert played["game"] == "guessing" and played["progress"] == {"rounds": 3}
    assert [p["status"] for p in played["places"]] == ["OK", "OK"]
    check = verify(Path(played["replay"]))
    assert check.ok, check.message
    code, text, err = run(
        capsys,
        "match",
        "--game",
        "guessing",
        "--bot",
        str(GUESSER),
        "--bot",
        str(GUESSER),
        "--seed",
        "2",
        "--no-replay",
    )
    assert code == 0, err
    assert text.startswith("guessing · match ") and "score" in text and "after 3 rounds" in text


@pytest.mark.parametrize("in_process", [False, True], ids=["grpc", "in-process"])
def test_check_bot_checks_a_bot_of_the_game(capsys: Capsys, in_process: bool) -> None:
    flags = ["--in-process"] if in_process else []
    code, shown, err = run(
        capsys, "check-bot", "--game", "guessing", str(GUESSER), "--json", *flags
    )
    assert code == 0, (shown, err)
    report = json.loads(shown)
    assert report["ok"]
    names = [c["name"] for c in report["checks"]]
    assert "guess" in names and "answers again after a rejection" in names


def test_versus_plays_a_series_of_the_game(tmp_path: Path, capsys: Capsys) -> None:
    code, shown, err = run(
        capsys,
        "versus",
        "--game",
        "guessing",
        str(GUESSER),
        str(GUESSER),
        "--games",
        "4",
        "--seed",
        "3",
        "--json",
    )
    assert code == 0, err
    series = json.loads(shown)
    assert series["games"] == 4 and len(series["results"]) == 4
    assert all(r["statuses"] == ["OK", "OK"] for r in series["results"])
