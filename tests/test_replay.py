"""Replays: a match played by the referee re-plays exactly; any tampering is caught with the
line where it happened."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from arena.catalog import find_bot, load_bot
from arena.errors import ReplayError
from arena.games.classic import Attack, ClassicConfig, Fortify, Place
from arena.games.classic.game import ClassicGame
from arena.referee.match import MatchResult, play_match
from arena.replays.files import FORMAT, VERSION, ReplayWriter, read, verify
from arena.sdk import Bot, Request
from tests.classic_helpers import game_of, rules_for

BOTH_PATHS = pytest.mark.usefixtures("both_in_process_paths")
"""Every test that records a match runs on both in-process paths (see tests/conftest.py); the
checks of a recorded file (tampering, headers) do not depend on how it was played."""


def random_bots(n: int) -> list[Bot]:
    return [load_bot(find_bot("random")) for _ in range(n)]


def play(
    tmp_path: Path,
    players: int = 3,
    seed: int = 5,
    bots: list[Bot] | None = None,
    name: str = "match.jsonl",
    **options: str,
) -> tuple[MatchResult, Path]:
    rules = rules_for(players, **options)
    path = tmp_path / name
    result = play_match(game_of(rules), bots or random_bots(players), seed, replay_path=path)
    return result, path


def lines_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def write_lines(path: Path, records: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))


def first_line(records: list[dict[str, Any]], predicate: Any) -> int:
    """Index (0-based) of the first record matching ``predicate``; its line number is +1."""
    return next(i for i, r in enumerate(records) if predicate(r))


def has_event(kind: str) -> Any:
    return lambda r: r.get("type") == "decision" and any(e["type"] == kind for e in r["events"])


# ------------------------------------------------------------------ good replays

VARIANTS = [
    (3, {"max_rounds": "40"}),
    (2, {"max_rounds": "40"}),
    (4, {"mode": "capital", "capital_goal": "short", "max_rounds": "40"}),
    (3, {"mode": "mission", "max_rounds": "40"}),
    (5, {"advantage_reroll": "true", "sets": "fixed", "max_rounds": "40"}),
    (6, {"fortify": "connected", "deal": "random", "sets": "progressive", "max_rounds": "40"}),
]


@BOTH_PATHS
@pytest.mark.parametrize(("players", "options"), VARIANTS)
def test_replay_verifies(tmp_path: Path, players: int, options: dict[str, str]) -> None:
    result, path = play(tmp_path, players, seed=players * 11, **options)
    report = verify(path)
    assert report.ok, report.message
    assert report.records == len(path.read_text().splitlines())
    assert result.replay == str(path)


@BOTH_PATHS
def test_full_length_match_verifies(tmp_path: Path) -> None:
    result, path = play(tmp_path, 3, seed=5)
    assert result.end_reason in ("domination", "round_limit")
    assert verify(path).ok


@BOTH_PATHS
def test_replay_records_match_the_result(tmp_path: Path) -> None:
    result, path = play(tmp_path, 4, seed=9, max_rounds="30", mode="capital")
    header, records = read(path)
    assert header["format"] == FORMAT and header["version"] == VERSION
    assert header["game"] == "classic" and header["seed"] == 9
    assert ClassicConfig.from_dict(header["rules"]) == ClassicConfig.parse(
        {"max_rounds": "30", "mode": "capital"}, 4
    )
    assert header["rules"] == result.rules
    assert [(s["seat"], s["bot"], s["version"]) for s in header["seats"]] == [
        (s.seat, s.bot, s.version) for s in result.seats
    ]
    assert header["always_max"] == [False] * 4
    decisions = [r for r in records if r["type"] == "decision"]
    joint = [r for r in records if r["type"] == "joint"]
    # Capital RISK's secret headquarters: one joint record answering for all four seats.
    assert [(r["kind"], [a["seat"] for a in r["answers"]]) for r in joint] == [
        ("headquarters", [0, 1, 2, 3])
    ]
    assert joint[0]["events"][0]["type"] == "headquarters_revealed"
    assert not [r for r in decisions if r["kind"] == "headquarters"]
    assert len(decisions) + 4 == result.decisions
    assert header["declarations"] == [{"always_max_defence": False}] * 4
    assert records[-1]["type"] == "result"
    assert sum(r["type"] == "result" for r in records) == 1
    final = records[-1]
    assert final["places_by_seat"] == [s.place for s in result.seats]
    assert final["winner"] == result.winner
    assert final["end"] == result.end_reason
    assert final["turns"] == result.turns and final["rounds"] == result.rounds
    assert final["statuses"] == [s.status for s in result.seats]
    assert final["strikes"] == [s.strikes for s in result.seats]
    game_over = decisions[-1]["events"][-1]
    assert game_over["type"] == "game_over"
    assert game_over["places"] == final["places_by_seat"]
    assert game_over["winner"] == result.winner and game_over["reason"] == result.end_reason
    # The match result agrees with the engine's final state.
    assert result.final.places == tuple(final["places_by_seat"])
    assert result.to_dict()["places"] == [s.to_dict() for s in result.seats]


@BOTH_PATHS
def test_same_seed_same_replay(tmp_path: Path) -> None:
    _, first = play(tmp_path, 3, seed=21, name="a.jsonl", max_rounds="25")
    _, second = play(tmp_path, 3, seed=21, name="b.jsonl", max_rounds="25")

    varying = {"think_ms", "match_id"}  # clock readings and the match's unique id

    def strip(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in r.items() if k not in varying} for r in records]

    assert strip(lines_of(first)) == strip(lines_of(second))
    _, third = play(tmp_path, 3, seed=22, name="c.jsonl", max_rounds="25")
    assert strip(lines_of(third)) != strip(lines_of(first))


def test_writer_never_overwrites(tmp_path: Path) -> None:
    _, path = play(tmp_path, 2, max_rounds="5")
    before = path.read_text()
    with pytest.raises(FileExistsError):
        ReplayWriter(path, {"game": "classic"})
    assert path.read_text() == before


# ----------------------------------------------------------------------- tampering


@pytest.fixture
def replay(tmp_path: Path) -> Path:
    _, path = play(tmp_path, 3, seed=13, max_rounds="30", advantage_reroll="true")
    assert verify(path).ok
    return path


def assert_diverges_at(path: Path, line: int) -> None:
    report = verify(path)
    assert not report.ok
    assert report.records == line
    assert report.message.startswith(f"line {line}:"), report.message


def test_tampered_die_is_caught(replay: Path) -> None:
    records = lines_of(replay)
    i = first_line(records, has_event("battle"))
    battle = next(e for e in records[i]["events"] if e["type"] == "battle")
    battle["attacker_dice"][0] = battle["attacker_dice"][0] % 6 + 1
    write_lines(replay, records)
    assert_diverges_at(replay, i + 1)
    assert "differs" in verify(replay).message


def test_tampered_defender_die_late_in_the_game_is_caught(replay: Path) -> None:
    records = lines_of(replay)
    battles = [i for i, r in enumerate(records) if has_event("battle")(r)]
    i = battles[len(battles) * 3 // 4]
    battle = next(e for e in records[i]["events"] if e["type"] == "battle")
    battle["defender_dice"][-1] = battle["defender_dice"][-1] % 6 + 1
    write_lines(replay, records)
    assert_diverges_at(replay, i + 1)


def test_tampered_action_is_caught(replay: Path) -> None:
    records = lines_of(replay)
    # The first claim: any other territory is also legal, but its events differ.
    i = first_line(records, lambda r: r.get("kind") == "claim")
    records[i]["action"]["territory"] = (records[i]["action"]["territory"] + 1) % 42
    write_lines(replay, records)
    assert_diverges_at(replay, i + 1)


def test_illegal_tampered_action_is_caught(replay: Path) -> None:
    records = lines_of(replay)
    i = first_line(records, lambda r: r.get("kind") == "attack" and r["action"]["kind"] == "attack")
    records[i]["action"]["dice"] = 7
    write_lines(replay, records)
    assert_diverges_at(replay, i + 1)
    assert "cannot be applied" in verify(replay).message


def test_malformed_action_is_caught(replay: Path) -> None:
    records = lines_of(replay)
    i = first_line(records, lambda r: r.get("type") == "decision" and r["kind"] == "reinforce")
    records[i]["action"] = {"kind": "teleport"}
    write_lines(replay, records)
    assert_diverges_at(replay, i + 1)


def test_removed_record_is_caught(replay: Path) -> None:
    records = lines_of(replay)
    i = first_line(records, has_event("conquered"))
    del records[i]
    write_lines(replay, records)
    report = verify(replay)
    assert not report.ok
    assert re.match(r"line \d+:", report.message)


def test_tampered_result_is_caught(replay: Path) -> None:
    records = lines_of(replay)
    records[-1]["places_by_seat"] = list(reversed(records[-1]["places_by_seat"]))
    if records[-1]["places_by_seat"] == lines_of(replay)[-1]["places_by_seat"]:
        records[-1]["places_by_seat"] = [1, 1, 1]
    write_lines(replay, records)
    assert_diverges_at(replay, len(records))
    assert "result" in verify(replay).message


def test_truncated_replay_is_caught(replay: Path) -> None:
    records = lines_of(replay)
    write_lines(replay, records[: len(records) // 2])
    report = verify(replay)
    assert not report.ok
    assert "ends before the game is over" in report.message


def test_replay_cut_mid_line_is_caught(replay: Path) -> None:
    text = replay.read_text()
    lines = text.splitlines()
    keep = len(lines) // 2
    cut = "\n".join(lines[:keep]) + "\n" + lines[keep][: len(lines[keep]) // 2]
    replay.write_text(cut)
    with pytest.raises(ReplayError, match=rf":{keep + 1}: not JSON"):
        verify(replay)


def test_garbage_line_is_caught(replay: Path) -> None:
    lines = replay.read_text().splitlines()
    lines.insert(9, "this is not {json")
    replay.write_text("\n".join(lines) + "\n")
    with pytest.raises(ReplayError, match=r":10: not JSON"):
        verify(replay)


def test_json_line_that_is_not_a_record_is_caught(replay: Path) -> None:
    lines = replay.read_text().splitlines()
    lines.insert(5, "[1, 2, 3]")
    replay.write_text("\n".join(lines) + "\n")
    with pytest.raises(ReplayError, match=r":6:"):
        verify(replay)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "something-else"}, "not a Risk Arena replay"),
        ({"version": 99}, "version"),
        ({"game": "chess"}, "unsupported game"),
    ],
)
def test_wrong_header_is_refused(replay: Path, change: dict[str, Any], message: str) -> None:
    records = lines_of(replay)
    records[0].update(change)
    write_lines(replay, records)
    with pytest.raises(ReplayError, match=message):
        verify(replay)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rules": {"players": 3, "mode": "conquest"}}, "mode"),
        ({"rules": None}, "rules"),
        ({"seed": None}, "seed"),
    ],
)
def test_broken_header_is_a_replay_error(
    replay: Path, change: dict[str, Any], message: str
) -> None:
    """A header with bad rules or no seed is a broken replay: ReplayError (exit 1 in the CLI),
    not a ConfigError, KeyError or TypeError escaping from the engine."""
    records = lines_of(replay)
    for key, value in change.items():
        if value is None:
            del records[0][key]
        else:
            records[0][key] = value
    write_lines(replay, records)
    with pytest.raises(ReplayError, match=message):
        verify(replay)


def test_wrong_seed_in_header_diverges(replay: Path) -> None:
    records = lines_of(replay)
    records[0]["seed"] += 1
    write_lines(replay, records)
    report = verify(replay)
    assert not report.ok
    assert re.match(r"line \d+:", report.message)


@pytest.mark.parametrize("content", ["", "\n\n", '{"type": "decision"}\n'])
def test_not_a_replay_is_refused(tmp_path: Path, content: str) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text(content)
    with pytest.raises(ReplayError, match="not a Risk Arena replay"):
        verify(path)


def test_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match="cannot read replay"):
        verify(tmp_path / "nope.jsonl")


# ------------------------------------------------- strikes, forfeits and crashes


class IllegalBot(Bot):
    """Answers every decision with an out-of-range option index."""

    name = "illegal"

    def choose(self, request: Request) -> Any:
        return 10_000


class CrashingBot(Bot):
    """Plays the defaults, then raises on its ``crash_at``-th decision."""

    name = "crashing"

    def __init__(self, crash_at: int) -> None:
        self.crash_at = crash_at
        self.seen = 0

    def choose(self, request: Request) -> Any:
        self.seen += 1
        if self.seen >= self.crash_at:
            raise RuntimeError("boom")
        return super().choose(request)


@BOTH_PATHS
@pytest.mark.parametrize("players", [2, 3, 4])
def test_strikes_and_forfeit_replay(tmp_path: Path, players: int) -> None:
    bots = [IllegalBot(), *random_bots(players - 1)]
    result, path = play(tmp_path, players, seed=3, bots=bots, max_rounds="20")
    assert result.seats[0].status == "ILLEGAL"
    assert result.seats[0].strikes == 3
    assert result.seats[0].place == players
    records = lines_of(path)
    assert sum(r["type"] == "rejected" for r in records) == 3
    forfeits = [r for r in records if r["type"] == "forfeit"]
    assert [(r["seat"], r["status"]) for r in forfeits] == [(0, "ILLEGAL")]
    report = verify(path)
    assert report.ok, report.message


@BOTH_PATHS
@pytest.mark.parametrize(("crash_at", "mode"), [(1, "world"), (30, "capital"), (60, "world")])
def test_crash_forfeit_replay(tmp_path: Path, crash_at: int, mode: str) -> None:
    bots = [*random_bots(2), CrashingBot(crash_at), *random_bots(1)]
    result, path = play(tmp_path, 4, seed=8, bots=bots, max_rounds="20", mode=mode)
    assert result.seats[2].status == "CRASH"
    assert result.seats[2].place == 4
    report = verify(path)
    assert report.ok, report.message


# ------------------------------------- answers whose numbers are not plain integers


class OddNumberBot(Bot):
    """Plays randomly but answers attacks, fortifies or reinforcements with non-int numbers
    (floats or bools), as a sloppy in-process bot might."""

    name = "odd"

    def __init__(self, kind: str, value: object) -> None:
        self.kind = kind
        self.value = value
        self.inner = load_bot(find_bot("random"))

    def start(self, match: Any) -> None:
        super().start(match)
        self.inner.start(match)

    def choose(self, request: Request) -> Any:
        options = request.options
        if self.kind == "attack" and request.kind == "attack" and options.attacks:
            src, dst, _ = options.attacks[0]
            return Attack(src, dst, self.value)  # type: ignore[arg-type]
        if self.kind == "fortify" and request.kind == "fortify" and options.fortifies:
            src, dst, _ = options.fortifies[0]
            return Fortify(src, dst, self.value)  # type: ignore[arg-type]
        if self.kind == "reinforce" and request.kind == "reinforce":
            first, *rest = options.territories
            if rest:
                return Place(((first, self.value), (rest[0], options.armies - 1)))  # type: ignore[arg-type]
        return self.inner.choose(request)


@BOTH_PATHS
@pytest.mark.parametrize(
    ("kind", "value"),
    [("attack", 1.0), ("attack", True), ("fortify", 1.0), ("reinforce", True)],
)
def test_non_integer_answers_are_refused_and_the_replay_verifies(
    tmp_path: Path, kind: str, value: object
) -> None:
    """An action whose numbers are not plain ints must be rejected as a strike (the replay
    format only holds plain integers); it must neither crash the referee, nor put non-int
    armies on the board, nor make the replay unverifiable."""
    bots = [OddNumberBot(kind, value), *random_bots(2)]
    result, path = play(tmp_path, 3, seed=4, bots=bots, max_rounds="6")
    assert all(type(a) is int for a in result.final.armies)
    assert result.seats[0].strikes > 0
    report = verify(path)
    assert report.ok, report.message


@BOTH_PATHS
def test_rules_from_a_replay_header_rebuild_the_same_engine(tmp_path: Path) -> None:
    _, path = play(tmp_path, 5, mode="mission", max_rounds="10", seed=31)
    header, _ = read(path)
    from arena.replays.files import game_from_header

    game = game_from_header(header)
    assert isinstance(game, ClassicGame)
    assert game.rules.config == ClassicConfig.parse({"mode": "mission", "max_rounds": "10"}, 5)
