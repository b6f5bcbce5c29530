"""RISK: Europe through the arena: `arena match` in-process and over gRPC, the result keys
classic has, `arena rules europe`, bad options, and `arena replay verify` / `show`."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from arena.cli import main
from arena.games.europe.game import GAME
from arena.referee.match import play_match
from arena.sdk import Bot, Request

Capsys = pytest.CaptureFixture[str]
ENDS = {"crowns", "round_limit", "elimination"}


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def match_json(capsys: Capsys, players: int, *extra: str) -> dict:
    bots = [arg for _ in range(players) for arg in ("--bot", "random")]
    code, out, err = run(capsys, "match", "--game", "europe", *bots, "--json", *extra)
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_bots_play_europe_in_process_to_a_result_with_classics_keys(
    capsys: Capsys, players: int
) -> None:
    europe = match_json(capsys, players, "--in-process", "--seed", "5")
    classic_code, classic_out, _ = run(
        capsys,
        "match",
        "--bot",
        "random",
        "--bot",
        "random",
        "--in-process",
        "--json",
        "--seed",
        "5",
        "--no-replay",
    )
    assert classic_code == 0
    assert set(europe) == set(json.loads(classic_out))
    assert [p["seat"] for p in europe["places"]] == list(range(players))
    assert all(p["status"] == "OK" and p["strikes"] == 0 for p in europe["places"])
    assert europe["end"] in ENDS
    assert europe["rounds"] == europe["progress"]["rounds"] and 1 <= europe["rounds"] <= 30
    assert europe["turns"] == europe["progress"]["turns"] > 0
    places = sorted(p["place"] for p in europe["places"])
    assert places[0] == 1
    if europe["winner"] is not None:
        assert europe["places"][europe["winner"]]["place"] == 1 and places.count(1) == 1


def test_one_crown_to_win_ends_the_game_after_round_one_by_crowns(capsys: Capsys) -> None:
    result = match_json(capsys, 4, "--in-process", "--rules", "crowns_to_win=1", "--no-replay")
    assert (result["end"], result["rounds"]) == ("crowns", 1)
    assert result["turns"] == 8  # two turns for each of the four players


def test_a_europe_match_over_grpc_finishes_with_every_seat_ok(capsys: Capsys) -> None:
    result = match_json(capsys, 3, "--rules", "max_rounds=3", "--seed", "2")
    assert all(p["status"] == "OK" for p in result["places"])
    assert result["rounds"] == 3 or result["end"] != "round_limit"


def test_replays_of_europe_verify_and_show(capsys: Capsys) -> None:
    result = match_json(capsys, 4, "--in-process", "--seed", "9", "--rules", "max_rounds=4")
    replay = Path(result["replay"])
    code, out, err = run(capsys, "replay", "verify", str(replay))
    assert code == 0 and out.startswith("ok:"), err
    code, out, err = run(capsys, "replay", "show", str(replay))
    assert code == 0 and "europe · seed 9" in out and len(out.splitlines()) > 20


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--rules", "nope=1"],
            "unknown rules key 'nope' for europe; valid keys: crowns_to_win, max_rounds, missions",
        ),
        (["--rules", "missions=maybe"], "missions must be true or false"),
        (["--rules", "max_rounds=-3"], "max_rounds must be a positive integer"),
        (["--rules", "crowns_to_win=25"], "crowns_to_win=25 can never be reached"),
        (
            ["--bot", "random", "--bot", "random", "--bot", "random"],
            "europe takes 2, 3 or 4 players, got 5",
        ),
    ],
    ids=["unknown-key", "bad-boolean", "bad-rounds", "unreachable-crowns", "five-players"],
)
def test_bad_europe_options_are_one_line_errors_with_exit_2(
    capsys: Capsys, argv: list[str], message: str
) -> None:
    code, out, err = run(
        capsys,
        "match",
        "--game",
        "europe",
        "--bot",
        "random",
        "--bot",
        "random",
        "--in-process",
        *argv,
    )
    assert code == 2 and out == ""
    assert err.strip() == f"arena: error: {message}" or message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_arena_rules_europe_lists_options_and_labels_approximations(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "rules", "europe")
    assert code == 0
    for key in ("crowns_to_win=", "max_rounds=", "missions="):
        assert key in out
    assert out.count("APPROXIMATION") >= 6
    assert "Kingdom Missions" in out and "Mercenary" in out


@pytest.mark.parametrize("in_process", [False, True], ids=["grpc", "in-process"])
def test_check_bot_passes_random_on_every_europe_decision_kind(
    capsys: Capsys, in_process: bool
) -> None:
    flags = ["--in-process"] if in_process else []
    code, out, err = run(capsys, "check-bot", "random", "--game", "europe", "--json", *flags)
    assert code == 0, out + err
    report = json.loads(out)
    names = " ".join(json.dumps(check) for check in report["checks"])
    for kind in (
        "bid",
        "kingdom",
        "mercenary_bid",
        "cards",
        "mercenary_cards",
        "turn",
        "mission",
        "battle_order",
        "reroll",
        "casualties",
    ):
        assert f'"{kind}"' in names, kind


class Declaring(Bot):
    """Plays the first choice and declares that it answers every battle decision itself."""

    name = "declaring"
    version = "1"
    games = ("europe",)

    def __init__(self) -> None:
        self.kinds: set[str] = set()
        self.rng = random.Random(1)

    def declarations(self, game: str) -> dict[str, str]:
        return {"casualties": "ask", "castle_reroll": "ask", "battle_order": "ask"}

    def choose(self, request: Request) -> int:
        self.kinds.add(request.kind)
        return self.rng.randrange(len(request.choices))


def test_standing_policies_declared_in_hello_are_honoured(both_in_process_paths: str) -> None:
    """A bot that declares `ask` for the three battle decisions is asked them (through its
    Hello's europe field), while bots that declare nothing never are."""
    game = GAME.configure({"max_rounds": "20"}, 4)
    declaring = [Declaring() for _ in range(2)]
    quiet = [Kinds(), Kinds()]
    play_match(game, [declaring[0], quiet[0], declaring[1], quiet[1]], seed=4)
    asked = declaring[0].kinds | declaring[1].kinds
    assert "casualties" in asked  # battles are few in random play: at least casualties
    assert not ({"casualties", "reroll", "battle_order"} & (quiet[0].kinds | quiet[1].kinds))


class Kinds(Declaring):
    """The same play, declaring nothing."""

    name = "kinds"

    def declarations(self, game: str) -> dict[str, str]:
        return {}


def test_check_bot_fails_a_bot_that_answers_europe_illegally(capsys: Capsys) -> None:
    broken = Path(__file__).resolve().parents[2] / "referee" / "broken_bots" / "illegal"
    code, out, err = run(capsys, "check-bot", str(broken), "--game", "europe", "--json")
    assert code == 1, out + err
    report = json.loads(out)
    failed = [check for check in report["checks"] if not check["ok"]]
    assert failed and any(check["name"] == "bid" for check in failed)


def test_versus_plays_a_seat_rotated_europe_series(capsys: Capsys) -> None:
    code, out, err = run(
        capsys,
        "versus",
        "europe-heuristic",
        "random",
        "--game",
        "europe",
        "--games",
        "4",
        "--rules",
        "max_rounds=8",
        "--seed",
        "3",
        "--json",
    )
    assert code == 0, err
    summary = json.loads(out)
    assert (summary["a"], summary["b"], summary["games"]) == ("europe-heuristic", "random", 4)
    assert summary["wins"] + summary["draws"] + summary["losses"] == 4
    assert summary["wins"] >= 3  # the heuristic against random: it won 100/100 in its own tests


def test_a_two_player_europe_tournament_with_two_mercenary_armies(capsys: Capsys) -> None:
    code, out, err = run(
        capsys,
        "tournament",
        "run",
        "--game",
        "europe",
        "--bot",
        "random",
        "--bot",
        "europe-heuristic",
        "--seats",
        "2",
        "--rounds",
        "2",
        "--rules",
        "max_rounds=6",
        "--seed",
        "5",
        "--in-process",
        "--no-progress",
        "--json",
    )
    assert code == 0, err
    board = json.loads(out)
    assert {row["bot"] for row in board["rows"]} == {"random", "europe-heuristic"}
    assert board["pool"] == "europe/2p"
