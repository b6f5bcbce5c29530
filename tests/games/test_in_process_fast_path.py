"""The in-process fast path gives a bot exactly what the wire gives it.

An in-process seat is asked without protobuf; the same seat with ``over_wire`` is asked the
wire's way, a protobuf round trip per request and per
answer. On the same seeds both must hand every bot equal requests (kind, seat, view,
options, choices, events, ids, clocks), take the same answers the same way — accepted or
rejected with the same reason, odd and malformed answers included — and end in the same
match and replay.
"""

from __future__ import annotations

import asyncio
import copy
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from arena import games
from arena.catalog import find_bot, load_bot
from arena.games.europe.actions import Bid, Cards, Move, Turn
from arena.games.europe.actions import action_to_dict as europe_action_to_dict
from arena.referee.match import MatchSettings, Seat, TimeControl, run_match
from arena.referee.seats import InProcessSeat
from arena.replays.files import read, verify
from arena.sdk import Attack, Bot, MatchInfo, Place, Request, Trade

CLOCK = TimeControl(move_time=30.0, time_bank=60.0)
"""Clocks no answer comes near: the deadlines are in the requests compared."""


class WireSeat(InProcessSeat):
    """The same in-process bot, asked the wire's way (protobuf both ways)."""

    over_wire = True


class Recording(Bot):
    """Plays like ``inner`` and keeps a copy of every request and rejection it received."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name, self.version = inner.name, inner.version
        self.seen: list[Any] = []

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.inner.start(match)
        self.seen.append(("start", match))

    def choose(self, request: Request) -> Any:
        self.seen.append(copy.deepcopy(request))
        return self.inner.choose(request)

    def rejected(self, reason: str) -> None:
        self.seen.append(("rejected", reason))


class Odd(Bot):
    """Answers in every form a bot may: indexes, actions built by hand (some not in the
    wire's canonical form: lists for tuples, an empty re-roll policy) and, every seventh
    request, something malformed or illegal first (then a legal index after the rejection)."""

    name = "odd"
    version = "1"

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.count = 0
        self.retrying = False

    def rejected(self, reason: str) -> None:
        self.retrying = True

    def choose(self, request: Request) -> Any:
        if self.retrying:
            self.retrying = False
            return len(request.choices) - 1
        self.count += 1
        if request.game == "europe":
            return self._europe(request)
        if request.game != "classic":
            return [0, {"kind": "guess", "value": 9}, None, "6", True][self.count % 5]
        if self.count % 7 == 0:
            return [None, "attack", True, -1, 10_000, Trade((1, 2)), {"kind": "x"}][
                (self.count // 7) % 7
            ]
        options = request.options
        if request.kind in ("place", "reinforce"):
            return Place([[options.territories[0], options.armies]])  # lists, not tuples
        if request.kind == "attack" and options.attacks:
            source, target, dice = options.attacks[-1]
            return Attack(source, target, dice, None, "")  # "" means "ask" on the wire
        return self.count % len(request.choices)

    def _europe(self, request: Request) -> Any:
        """Europe: malformed answers, a negative bid, action dicts, and choices rebuilt by
        hand with lists where the wire has tuples."""
        if self.count % 7 == 0:
            return [None, {"kind": "x"}, Bid(-1), "turn", True, Cards(9, 9), 10_000][
                (self.count // 7) % 7
            ]
        picked = request.choices[self.count % len(request.choices)]
        if self.count % 3 == 0:
            return europe_action_to_dict(picked)
        if isinstance(picked, Turn) and picked.moves:
            moves = [Move(m.source, m.target, list(m.units), m.via) for m in picked.moves]
            return replace(picked, moves=moves)  # type: ignore[arg-type]
        return picked


def _bots(names: list[str]) -> list[Bot]:
    return [Odd() if name == "odd" else load_bot(find_bot(name)) for name in names]


def _play(seat_type: type[InProcessSeat], game: Any, names: list[str], seed: int, tmp: Path):
    bots = [Recording(bot) for bot in _bots(names)]
    seats: list[Seat | None] = [seat_type(b, b.name, b.version) for b in bots]
    replay = tmp / f"{seat_type.__name__}.jsonl"
    result = asyncio.run(
        run_match(game, seats, seed, settings=MatchSettings(CLOCK, 10_000, replay, "m"))
    )
    check = verify(replay)
    assert check.ok, check.message
    return result, [b.seen for b in bots], read(replay)


def _timeless(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Replay records without think times (they differ from run to run)."""
    out = []
    for record in records:
        record = {k: v for k, v in record.items() if k != "think_ms"}
        if "answers" in record:
            record["answers"] = [
                {k: v for k, v in a.items() if k != "think_ms"} for a in record["answers"]
            ]
        out.append(record)
    return out


CASES = [
    ("classic", 2, {"max_rounds": "15"}, ["random", "odd"]),
    ("classic", 3, {"mode": "mission", "max_rounds": "10"}, ["aggressive", "random", "odd"]),
    ("classic", 4, {"mode": "capital", "max_rounds": "8"}, ["odd", "random", "continent", "odd"]),
    ("classic", 3, {"advantage_reroll": "true", "sets": "fixed"}, ["random", "odd", "defensive"]),
    ("guessing", 2, {"rounds": "12"}, ["odd", "odd"]),
    ("europe", 4, {"max_rounds": "6"}, ["random", "odd", "random", "odd"]),
    ("europe", 3, {"missions": "true", "max_rounds": "8"}, ["odd", "random", "odd"]),
    ("europe", 2, {"max_rounds": "6"}, ["odd", "odd"]),
]


@pytest.mark.parametrize(("name", "players", "options", "names"), CASES, ids=str)
def test_both_paths_hand_every_bot_the_same_requests(
    tmp_path: Path, name: str, players: int, options: dict[str, str], names: list[str]
) -> None:
    game = games.load(name).configure(options, players)
    fast, fast_seen, (fast_header, fast_records) = _play(InProcessSeat, game, names, 7, tmp_path)
    wire, wire_seen, (wire_header, wire_records) = _play(WireSeat, game, names, 7, tmp_path)
    for seat, (got, want) in enumerate(zip(fast_seen, wire_seen, strict=True)):
        assert len(got) == len(want), f"seat {seat}: {len(got)} messages v {len(want)}"
        for index, (a, b) in enumerate(zip(got, want, strict=True)):
            assert a == b, f"seat {seat}, message {index} differs"
    assert sum(isinstance(m, Request) for seen in fast_seen for m in seen) == fast.decisions + sum(
        r.strikes for r in fast.seats
    )
    rejections = [
        m for seen in fast_seen for m in seen if isinstance(m, tuple) and m[0] == "rejected"
    ]
    assert rejections, "the odd bot's bad answers were rejected (on both paths alike)"
    assert [s.to_dict() for s in fast.seats] == [s.to_dict() for s in wire.seats]
    assert (fast.progress, fast.end_reason, fast.decisions) == (
        wire.progress,
        wire.end_reason,
        wire.decisions,
    )
    assert {k: v for k, v in fast_header.items() if k != "match_id"} == {
        k: v for k, v in wire_header.items() if k != "match_id"
    }
    assert _timeless(fast_records) == _timeless(wire_records)
