"""Compact replays: what the results database stores of a replay, a few times smaller than
the replay file, from which the same bytes are derived again when it is read.

A replay records, per decision, what only the match could know (who answered what, how
fast, which request it was) and what the game derives from that (the events each answer
caused, the kind of decision asked, the seat asked when only one was). :func:`compact` keeps
the first and drops the second, and lays the kept values out in columns (all think times
together, all attack origins together, request ids as steps from the previous one), which
compress far better than lines of JSON objects. :func:`expand` re-plays the match through
the game to put back what was dropped, and gives the replay's bytes exactly.

:func:`compact` expands what it made before it returns it and keeps the original replay
whenever the two differ (or the replay is not one it can re-play), so storing the compact form
never changes a replay that is read back. A compact replay starts with :data:`MARKER`.

:func:`deflate` is what the results database stores of a compact replay: its payload
deflated with its game's preset dictionary (:mod:`arena.replays.deflated`), checked to read
back as the same compact replay. :func:`expand` reads that too; any other bytes (a full
replay, as every replay stored before compact ones was) are returned as they are.
"""

from __future__ import annotations

import json
from typing import Any

from arena.errors import ArenaError, ReplayError
from arena.games.api import Game
from arena.replays import deflated
from arena.replays.files import apply_record, parse, start

MARKER = b'{"format":"risk-arena-replay-compact","version":1}\n'
"""The first line of a compact replay (a replay file's first line is its header)."""

_DERIVED = "="
"""Prefixes a key whose value the re-play gives (its column holds nothing)."""
_APPLIED = ("decision", "joint", "forfeit")
"""The records that change the game, and whose events the game gives."""


def compact(replay: bytes) -> bytes:
    """The compact form of a replay's JSONL, or the replay itself when the compact form
    would not expand to exactly these bytes."""
    try:
        packed = _pack(replay)
    except (ArenaError, LookupError, TypeError, ValueError, AttributeError, AssertionError):
        return replay
    if packed is None or expand(packed) != replay:
        return replay
    return packed


def deflate(packed: bytes) -> bytes | None:
    """A compact replay (:func:`compact`'s output) deflated with its game's newest preset
    dictionary, or None when ``packed`` is no compact replay, its game has no dictionary, or
    the deflated form would not read back as exactly ``packed``."""
    if not packed.startswith(MARKER):
        return None
    try:
        payload = json.loads(packed[len(MARKER) :])
        game = json.loads(payload["header"])["game"]
    except (LookupError, TypeError, ValueError):
        return None
    data = deflated.deflate(payload, game) if isinstance(game, str) else None
    if data is None or MARKER + _line(deflated.inflate(data)).encode() != packed:
        return None
    return data


def expand(data: bytes) -> bytes:
    """A stored replay's JSONL: a compact replay (deflated or not) re-played to its full
    bytes, anything else as it is. A damaged compact replay raises
    :class:`arena.errors.ReplayError`."""
    try:
        if deflated.is_deflated(data):
            payload = deflated.inflate(data)
        elif data.startswith(MARKER):
            payload = json.loads(data[len(MARKER) :])
        else:
            return data
        return _unpack(payload)
    except ArenaError:
        raise
    except (LookupError, TypeError, ValueError, AttributeError, StopIteration) as exc:
        raise ReplayError(f"the stored compact replay is damaged: {exc!r}") from None


def _line(record: dict[str, Any]) -> str:
    """A record as the referee writes it."""
    return json.dumps(record, separators=(",", ":"))


class _Columns:
    """The kept values, one list per column, and the shapes of records and actions."""

    def __init__(self) -> None:
        self.shapes: dict[tuple[str, tuple[str, ...]], int] = {}
        self.actions: dict[tuple[str, tuple[str, ...]], int] = {}
        self.columns: dict[str, list[Any]] = {}
        self.order: list[int] = []
        self.request = 0

    def put(self, column: str, value: Any) -> None:
        self.columns.setdefault(column, []).append(value)

    def value(self, column: str, value: Any) -> None:
        """One kept value, in the encoding its column uses (:meth:`_Reader.value` reverses)."""
        key = column.rpartition(".")[2]
        if key == "request_id" and type(value) is int:
            self.put(column, value - self.request)
            self.request = value
        elif key == "think_ms" and type(value) is float and round(value * 1000) / 1000 == value:
            self.put(column, round(value * 1000))
        elif key == "action" and isinstance(value, dict) and isinstance(value.get("kind"), str):
            shape = (value["kind"], tuple(value))
            self.put(column, self.actions.setdefault(shape, len(self.actions)))
            for name, part in value.items():
                if name != "kind":
                    self.put(f"a.{value['kind']}.{name}", part)
        else:
            self.put(column, [value])  # as it is

    def payload(self, header_line: str) -> bytes:
        return (
            MARKER
            + _line(
                {
                    "header": header_line,
                    "shapes": [[kind, list(keys)] for kind, keys in self.shapes],
                    "actions": [[kind, list(keys)] for kind, keys in self.actions],
                    "order": self.order,
                    "columns": self.columns,
                }
            ).encode()
        )


def _pack(replay: bytes) -> bytes | None:
    text = replay.decode("utf-8")
    lines = text.split("\n")
    if not text.endswith("\n") or any(not line for line in lines[:-1]):
        return None  # only the referee's own layout: one record a line, each ended
    header, records = parse(text)
    game, state = start(header)
    kept = _Columns()
    for record in records:
        kind = record["type"]
        derived = {"type"}
        if kind in _APPLIED:
            derived |= _asked(game, state, record)
            step = apply_record(game, state, record)
            assert step is not None
            if "events" in record and step.events == record["events"]:
                derived.add("events")
            state = step.state
        keys = tuple(_DERIVED + key if key in derived else key for key in record)
        kept.order.append(kept.shapes.setdefault((kind, keys), len(kept.shapes)))
        for key, value in record.items():
            if key not in derived:
                kept.value(f"{kind}.{key}", value)
    return kept.payload(lines[0])


def _asked(game: Game[Any, Any, Any], state: Any, record: dict[str, Any]) -> set[str]:
    """The keys of ``record`` the game's next decision gives: its kind, and its seat when
    only one seat is asked."""
    decision = game.decision(state)
    if decision is None:
        return set()
    found = set()
    if record.get("kind") == decision.kind:
        found.add("kind")
    seats = list(decision.seats)
    if record["type"] == "decision" and len(seats) == 1 and record.get("seat") == seats[0]:
        found.add("seat")
    return found


class _Reader:
    """The columns of a compact replay, read back in order."""

    def __init__(self, payload: dict[str, Any]) -> None:
        self.actions = [(kind, keys) for kind, keys in payload["actions"]]
        self.columns = {name: iter(values) for name, values in payload["columns"].items()}
        self.request = 0

    def next(self, column: str) -> Any:
        return next(self.columns[column])

    def value(self, column: str) -> Any:
        stored = self.next(column)
        if isinstance(stored, list):
            return stored[0]
        key = column.rpartition(".")[2]
        if key == "request_id":
            self.request += stored
            return self.request
        if key == "think_ms":
            return stored / 1000
        kind, keys = self.actions[stored]
        return {name: kind if name == "kind" else self.next(f"a.{kind}.{name}") for name in keys}


def _unpack(payload: dict[str, Any]) -> bytes:
    header_line: str = payload["header"]
    header, _ = parse(header_line)
    game, state = start(header)
    shapes = [(kind, keys) for kind, keys in payload["shapes"]]
    reader = _Reader(payload)
    lines = [header_line]
    for index in payload["order"]:
        kind, keys = shapes[index]
        record: dict[str, Any] = {}
        for key in keys:
            if key.startswith(_DERIVED):
                record[key[len(_DERIVED) :]] = None  # its place; filled below
            else:
                record[key] = reader.value(f"{kind}.{key}")
        if "type" in record:
            record["type"] = kind
        if kind in _APPLIED:
            decision = game.decision(state)
            if decision is None and any(k.startswith(_DERIVED) for k in keys if k != "=type"):
                raise ReplayError("the stored compact replay is damaged: it goes on after the end")
            if _DERIVED + "kind" in keys:
                record["kind"] = decision.kind if decision else None
            if _DERIVED + "seat" in keys:
                record["seat"] = next(iter(decision.seats)) if decision else None
            step = apply_record(game, state, record)
            assert step is not None
            if _DERIVED + "events" in keys:
                record["events"] = step.events
            state = step.state
        lines.append(_line(record))
    return ("\n".join(lines) + "\n").encode()
