"""``examples/train_classic.py``: a short training run writes a bot folder that passes
``arena check-bot``, plays real matches in-process and over gRPC, registers and enters a
tournament, works when copied elsewhere, and holds the weights it plays with; bad
arguments are one-line errors, exit 2."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("numpy", reason="the rl extra is not installed (pip install risk-arena[rl])")
pytest.importorskip(
    "gymnasium", reason="the rl extra is not installed (pip install risk-arena[rl])"
)

import numpy as np

from arena.catalog import load_bot, read_spec
from arena.games import configure
from arena.protocol import envelope
from arena.sdk import Request, wire
from tests.cli_run import Capsys, run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SHORT = ("--episodes", "2", "--minutes", "1", "--games", "0", "--seed", "3")
"""A training run of two games, no evaluation: a second or two."""
QUICK_RULES = ("--rules", "max_rounds=8")
"""Matches cut short by the round cap: every seat still decides a few hundred times."""


@pytest.fixture(scope="module")
def example() -> Iterator[ModuleType]:
    """The example script as a module (its folder on ``sys.path``, as when it is run)."""
    sys.path.insert(0, str(EXAMPLES))
    try:
        spec = importlib.util.spec_from_file_location(
            "train_classic", EXAMPLES / "train_classic.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclasses look their module up
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.modules.pop("train_classic", None)
        sys.path.remove(str(EXAMPLES))


@pytest.fixture(scope="module")
def trained(example: ModuleType, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("trained") / "bot"
    assert example.main(["--out", str(out), *SHORT]) == 0
    return out


def _train(example: ModuleType, capsys: Capsys, *args: str) -> tuple[int, str]:
    code = example.main(list(args))
    return code, capsys.readouterr().err


def test_the_folder_holds_the_bot_its_weights_and_the_runner(trained: Path) -> None:
    assert sorted(p.name for p in trained.iterdir()) == ["bot.py", "bot.toml", "weights.npz"]
    spec = read_spec(trained)
    assert spec.name == "trained-classic"
    assert spec.games == ("classic",)
    assert spec.entry == "bot:PolicyBot"
    assert spec.command == "python bot.py"
    assert (trained / "bot.py").read_text() == (EXAMPLES / "policy_bot.py").read_text()


def test_the_bot_plays_with_the_weights_in_its_folder(trained: Path) -> None:
    saved = np.load(trained / "weights.npz")
    assert np.any(saved["weights"] != 0) and np.any(saved["position"] != 0)  # trained
    bot: Any = load_bot(read_spec(trained))
    np.testing.assert_array_equal(bot.trained.weights, saved["weights"])
    np.testing.assert_array_equal(bot.trained.bias, saved["bias"])
    np.testing.assert_array_equal(bot.trained.position, saved["position"])
    # Its answer is the greedy choice of those weights on the request's encoded view.
    game = configure("classic", [], players=2)
    bot.start(wire.match_info(_match_start(game)))
    state = game.new_game(5)
    decision = game.decision(state)
    assert decision is not None
    seat = decision.seats[0]
    options = game.legal_options(state, seat)
    listed = list(game.choices(options))
    view = game.view(state, seat)
    fields = envelope.local_request_fields(
        game,
        seat=seat,
        request_id=1,
        kind=decision.kind,
        view=view,
        options=options,
        listed=listed,
        deadline_ms=0,
        time_bank_ms=0,
        events=[],
    )
    from arena.envs import encoder_for

    observation = encoder_for(game).encode(view, decision.kind)
    allowed = len(listed)
    last, place = observation[bot.trained.kinds] @ saved["position"]
    logits = saved["weights"][:allowed] @ observation + saved["bias"][:allowed]
    logits[: allowed - 1] += place * np.linspace(0, 1, allowed - 1)
    logits[allowed - 1] += last
    assert bot.choose(Request(**fields)) == int(np.argmax(logits))


def _match_start(game: Any) -> Any:
    return envelope.match_start_to_pb(
        game,
        match_id="m",
        seat=0,
        names=["trained-classic", "random"],
        bot_seed=1,
        move_time_ms=0,
        time_bank_ms=0,
    )


def test_check_bot_passes(trained: Path, capsys: Capsys) -> None:
    code, out, err = run(capsys, "check-bot", str(trained))
    assert code == 0, out + err
    assert out.strip().splitlines()[-1] == "trained-classic (classic): all checks passed"


@pytest.mark.parametrize("path", ["in-process", "gRPC"])
def test_a_match_against_random_without_a_strike(trained: Path, capsys: Capsys, path: str) -> None:
    flags = ["--in-process"] if path == "in-process" else []
    code, out, err = run(
        capsys, "match", "--bot", str(trained), "--bot", "random", "--seed", "4",
        *QUICK_RULES, *flags, "--json", "--no-replay",
    )  # fmt: skip
    assert code == 0, err
    seats = json.loads(out)["places"]
    assert [s["status"] for s in seats] == ["OK", "OK"]
    assert [s["strikes"] for s in seats] == [0, 0]


def test_registered_it_enters_tournaments_in_process_and_over_grpc(
    trained: Path, tmp_path: Path, capsys: Capsys
) -> None:
    elsewhere = tmp_path / "copied"
    shutil.copytree(trained, elsewhere)  # the folder stands alone
    db = str(tmp_path / "arena.db")
    code, out, err = run(capsys, "bots", "add", "--db", db, str(elsewhere))
    assert code == 0, err
    for flags in (["--in-process"], []):
        code, out, err = run(
            capsys, "tournament", "run", "--db", db, "--bot", "trained-classic", "--bot",
            "random", "--seats", "2", "--rounds", "1", "--workers", "1", "--seed", "6",
            *QUICK_RULES, *flags, "--json", "--no-progress",
        )  # fmt: skip
        assert code == 0, err
        report = json.loads(out)
        faults = report.get("faults") or []
        assert not faults, faults
        matches = run(capsys, "matches", "--db", db, "--json")[1]
        statuses = {s["status"] for m in json.loads(matches) for s in m["seats"]}
        assert statuses == {"OK"}, statuses


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--minutes", "0"], "--minutes takes a number above 0 up to 1440, got '0'"),
        (["--minutes", "nan"], "--minutes takes a number above 0 up to 1440, got 'nan'"),
        (["--minutes", "soon"], "--minutes takes a number above 0 up to 1440, got 'soon'"),
        (["--episodes", "0"], "--episodes takes a number from 1 up to 1e+09, got '0'"),
    ],
)
def test_bad_numbers_are_one_line_errors(
    example: ModuleType, tmp_path: Path, capsys: Capsys, args: list[str], says: str
) -> None:
    code, err = _train(example, capsys, "--out", str(tmp_path / "bot"), *args)
    assert code == 2
    assert err == f"train_classic.py: error: {says}\n"
    assert not (tmp_path / "bot").exists()


def test_an_occupied_folder_is_refused(example: ModuleType, tmp_path: Path, capsys: Capsys) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    code, err = _train(example, capsys, "--out", str(tmp_path), *SHORT)
    assert code == 2
    assert err.count("\n") == 1 and "holding other files" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_an_unwritable_path_is_refused(example: ModuleType, tmp_path: Path, capsys: Capsys) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, err = _train(example, capsys, "--out", str(blocker / "bot"), *SHORT)
    assert code == 2
    assert err.count("\n") == 1 and "cannot be written" in err
    code, err = _train(example, capsys, "--out", str(blocker), *SHORT)
    assert code == 2
    assert err == f"train_classic.py: error: --out {blocker} is a file, not a folder\n"
