"""Referee tests: fault handling with real bot processes, and the wire protocol.

The helpers here play a match through :func:`arena.referee.local.play` with bots from
``broken_bots/`` next to random bots, then check what every fault test needs: the match
completed, the replay re-plays, and no bot process outlived the match.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from arena.catalog import BotSpec, read_spec
from arena.games.classic import ClassicConfig, ClassicRules
from arena.games.classic.actions import action_from_dict
from arena.games.classic.game import ClassicGame
from arena.games.classic.state import ClassicState
from arena.referee import host, local
from arena.referee.match import MatchResult, TimeControl
from arena.replays.files import read, verify
from arena.sdk.bot import Bot

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
BROKEN = HERE / "broken_bots"
RANDOM = read_spec(REPO / "bots" / "random")
STATUSES = ("OK", "TIMEOUT", "ILLEGAL", "CRASH", "DISCONNECT", "INIT_FAIL", "PROTOCOL")
ENDS = ("domination", "mission", "capitals", "round_limit")

STARTUP = 60.0
"""Startup budget where startup is not what a test is about: a loaded machine may take many
seconds to start a Python bot, and a bot that connects early costs nothing of it."""
FAST = TimeControl(move_time=2.0, time_bank=5.0, startup_time=STARTUP)
"""Generous clocks: random bots never come near them, even on a loaded machine."""


def broken(name: str) -> BotSpec:
    """A test bot from ``broken_bots/``."""
    return read_spec(BROKEN / name)


def rules_for(players: int = 3, **options: object) -> ClassicRules:
    options.setdefault("max_rounds", 8)
    return ClassicRules(ClassicConfig.parse({k: str(v) for k, v in options.items()}, players))


@dataclass
class Played:
    """A finished match with its replay and what the test bots wrote."""

    result: MatchResult
    rules: ClassicRules
    header: dict[str, Any]
    records: list[dict[str, Any]]
    out: Path
    pids: list[int]
    seconds: float

    @property
    def statuses(self) -> list[str]:
        return [s.status for s in self.result.seats]

    def lines(self, name: str) -> list[dict[str, Any]]:
        """The JSON lines a test bot logged under ``name`` (none if it never wrote)."""
        path = self.out / name
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]

    def of(self, kind: str, seat: int | None = None) -> list[dict[str, Any]]:
        return [
            r for r in self.records if r["type"] == kind and (seat is None or r.get("seat") == seat)
        ]

    def forfeit_index(self, seat: int) -> int:
        """Where the seat's forfeit record is in the replay."""
        found = [
            i for i, r in enumerate(self.records) if r["type"] == "forfeit" and r["seat"] == seat
        ]
        assert len(found) == 1, f"seat {seat} has {len(found)} forfeit records"
        return found[0]

    def state_before(self, index: int) -> ClassicState:
        """The engine state after re-playing the records before ``records[index]``."""
        state = self.rules.new_game(self.header["seed"], self.header["always_max"])
        for record in self.records[:index]:
            if record["type"] == "decision":
                state = self.rules.apply(
                    state, record["seat"], action_from_dict(record["action"])
                ).state
            elif record["type"] == "joint":
                answers = {a["seat"]: action_from_dict(a["action"]) for a in record["answers"]}
                state = ClassicGame(self.rules.config).apply_joint(state, answers).state
            elif record["type"] == "forfeit":
                state = self.rules.forfeit(state, record["seat"]).state
        return state


class Arena:
    """Plays matches with subprocess bots; records every pid a match started."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.tmp = tmp_path
        self.monkeypatch = monkeypatch
        self.count = 0
        self.launched: list[int] = []
        real_launch = host.launch

        async def launch(*args: Any, **kwargs: Any) -> Any:
            process = await real_launch(*args, **kwargs)
            self.launched.append(process.pid)
            return process

        monkeypatch.setattr(host, "launch", launch)

    def play(
        self,
        players: list[BotSpec | Bot],
        *,
        rules: ClassicRules | None = None,
        seed: int = 1,
        control: TimeControl = FAST,
        strike_limit: int = 3,
        untimed: frozenset[int] = frozenset(),
        mode: str = "",
        phase: str = "",
        env: dict[str, str] | None = None,
    ) -> Played:
        """Play one match; checks that it completed and that no bot process survived it."""
        self.count += 1
        out = self.tmp / f"out{self.count}"
        pids = self.tmp / f"pids{self.count}"
        out.mkdir()
        pids.mkdir()
        for key, value in {
            "ARENA_TEST_OUT": str(out),
            "ARENA_TEST_PIDS": str(pids),
            "ARENA_TEST_MODE": mode,
            "ARENA_TEST_PHASE": phase,
            **(env or {}),
        }.items():
            self.monkeypatch.setenv(key, value)
        rules = rules or rules_for(len(players))
        replay = self.tmp / f"replay{self.count}.jsonl"
        self.launched = []
        folders = {spec.path: _files(spec.path) for spec in players if isinstance(spec, BotSpec)}
        started = time.perf_counter()
        result = local.play(
            ClassicGame(rules.config),
            players,
            seed,
            control,
            replay,
            strike_limit=strike_limit,
            untimed=untimed,
        )
        seconds = time.perf_counter() - started
        for folder, files in folders.items():
            assert _files(folder) == files, f"something was written into {folder}"
        all_pids = sorted({*self.launched, *(int(p.name) for p in pids.iterdir())})
        assert_all_gone(all_pids)
        header, records = read(replay)
        played = Played(result, rules, header, records, out, all_pids, seconds)
        check_completed(played)
        return played


def _files(folder: Path) -> set[tuple[str, int]]:
    return {(str(p.relative_to(folder)), p.stat().st_mtime_ns) for p in folder.rglob("*")}


def alive(pid: int) -> bool:
    """Whether a process exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def assert_all_gone(pids: list[int], wait: float = 30.0) -> None:
    deadline = time.monotonic() + wait
    while (left := [p for p in pids if alive(p)]) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not left, f"bot processes outlived their match: {left}"


def check_completed(played: Played) -> None:
    """The match ran to its end: a result, valid places, statuses spelled right, a replay."""
    result, n = played.result, played.rules.n
    assert result.end_reason in ENDS
    places = [s.place for s in result.seats]
    assert all(1 <= p <= n for p in places)
    for p in places:  # standard competition ranking: ties share a place, the next is skipped
        assert p == 1 + sum(q < p for q in places), places
    assert {s.status for s in result.seats} <= set(STATUSES)
    last = played.records[-1]
    assert last["type"] == "result"
    assert last["places_by_seat"] == places
    assert last["statuses"] == played.statuses
    check = verify(Path(played.result.replay or ""))
    assert check.ok, check.message


def kept_playing(played: Played, seat: int, status: str) -> None:
    """``seat`` forfeited with ``status``; every other seat is OK and decided after that."""
    assert played.statuses[seat] == status, played.result.to_dict()
    index = played.forfeit_index(seat)
    assert played.records[index]["status"] == status
    later = played.records[index + 1 :]
    assert not [r for r in later if r.get("seat") == seat and r["type"] == "decision"]
    for other in range(played.rules.n):
        if other == seat:
            continue
        assert played.statuses[other] == "OK", played.result.to_dict()
        assert played.result.seats[other].strikes == 0
        assert [r for r in later if r["type"] == "decision" and r["seat"] == other], (
            f"seat {other} made no decision after seat {seat} forfeited"
        )
    # A forfeited seat ranks behind every seat still in the game.
    assert played.result.seats[seat].place == max(s.place for s in played.result.seats)
