"""Replay files: one JSON object per line, enough to re-play a match exactly.

Line 1 is the header (format, game, rules, seed, seats, defence declarations). Then one line
per record: ``decision`` (seat, kind, the answer as an action, think time, events),
``rejected`` (an illegal answer and the engine's reason), ``forfeit`` (seat, status, events),
and last ``result``. :func:`verify` re-plays the decisions and forfeits through the engine and
reports the first event that differs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from arena.errors import ArenaError, ReplayError
from arena.games.classic.actions import action_from_dict
from arena.games.classic.config import ClassicConfig
from arena.games.classic.rules import ClassicRules

FORMAT = "risk-arena-replay"
VERSION = 1


class ReplayWriter:
    """Appends records to a replay file as the match goes (a crash keeps what was played)."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._file: IO[str] = path.open("x", encoding="utf-8")
        self.write({"type": "header", "format": FORMAT, "version": VERSION, **header})

    def write(self, record: dict[str, Any]) -> None:
        self._file.write(json.dumps(record, separators=(",", ":")) + "\n")

    def close(self) -> None:
        self._file.close()


def read(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the records of a replay file."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ReplayError(f"cannot read replay {str(path)!r}: {exc.strerror}") from None
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ReplayError(f"{path}:{number}: not JSON ({exc.msg})") from None
        if not isinstance(record, dict):
            raise ReplayError(f"{path}:{number}: a record must be a JSON object")
        records.append(record)
    if not records or records[0].get("format") != FORMAT:
        raise ReplayError(f"{path}: not a Risk Arena replay (no {FORMAT!r} header)")
    header = records[0]
    if header.get("version") != VERSION:
        raise ReplayError(f"{path}: replay version {header.get('version')!r}, expected {VERSION}")
    return header, records[1:]


@dataclass(frozen=True, slots=True)
class Verification:
    """The outcome of re-playing a replay: ``ok``, how far it got, and the first divergence."""

    ok: bool
    records: int
    message: str


def rules_from_header(header: dict[str, Any]) -> ClassicRules:
    """The rules a replay was played under."""
    if header.get("game") != "classic":
        raise ReplayError(f"unsupported game {header.get('game')!r} in replay")
    rules = header.get("rules")
    if not isinstance(rules, dict):
        raise ReplayError("the replay header has no rules object")
    try:
        return ClassicRules(ClassicConfig.from_dict(rules))
    except (ArenaError, TypeError, ValueError) as exc:
        raise ReplayError(f"the replay header's rules are invalid: {exc}") from None


def verify(path: Path) -> Verification:
    """Re-play a replay file through the engine and compare every event and the result."""
    header, records = read(path)
    rules = rules_from_header(header)
    seed = header.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ReplayError(f"the replay header's seed must be an integer, got {seed!r}")
    state = rules.new_game(seed, header.get("always_max", ()))
    for number, record in enumerate(records, 2):
        kind = record.get("type")
        try:
            if kind == "decision":
                step = rules.apply(state, record["seat"], action_from_dict(record["action"]))
            elif kind == "forfeit":
                step = rules.forfeit(state, record["seat"])
            elif kind == "result":
                outcome = rules.outcome(state)
                got = None if outcome is None else list(outcome.places)
                if got != record.get("places_by_seat"):
                    return Verification(
                        False,
                        number,
                        f"line {number}: result places {record.get('places_by_seat')} but the "
                        f"engine gives {got}",
                    )
                continue
            else:
                continue
        except (ArenaError, KeyError, TypeError) as exc:
            return Verification(False, number, f"line {number}: {kind} cannot be applied: {exc}")
        expected = record.get("events", [])
        if step.events != expected:
            for i, (want, got_event) in enumerate(zip(expected, step.events, strict=False)):
                if want != got_event:
                    return Verification(
                        False,
                        number,
                        f"line {number}: event {i} differs: replay has {want}, engine gives "
                        f"{got_event}",
                    )
            return Verification(
                False,
                number,
                f"line {number}: replay has {len(expected)} events, engine gives "
                f"{len(step.events)}",
            )
        state = step.state
    if rules.outcome(state) is None:
        return Verification(False, len(records) + 1, "the replay ends before the game is over")
    return Verification(True, len(records) + 1, f"{len(records)} records re-played, all match")
