"""The form the results database stores a compact replay in: its payload laid out for
deflate, deflated by zlib with its game's preset dictionary (:mod:`arena.replays.dictionary`).

The text deflated is three parts: a marker line that names the dictionary
(``{"format":"risk-arena-replay-compact","version":2,"dictionary":"classic-1"}``), the
compact payload as one JSON line in which every column of integers from 0 up (think times,
territories, request id steps, record shapes: nearly all of them) is replaced by its length,
and then those columns' values, in the line's order, as varints (7 bits a byte, low bits
first, the high bit set on every byte but a value's last): one byte for most values, where
JSON spends two or three and a comma. The zlib header carries the dictionary's Adler-32, by
which a reader finds the dictionary before it can read the marker line.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from arena.errors import ReplayError
from arena.replays import dictionary

DEFLATE_LEVEL = 9
"""zlib's best: a replay of a few KB takes about a millisecond, in the worker that played it."""
VERSION = 2
"""The compact replay's version in the marker line: version 1 is the payload as JSON alone."""
_PRESET_DICTIONARY = 0x20
"""The FDICT bit of a zlib header's second byte: a preset dictionary's Adler-32 follows."""
_ORDER = "order"
"""The payload's list of record shapes, laid out like a column."""


class DamagedStreamError(ReplayError):
    """A deflated replay whose zlib stream no longer inflates (zlib checks every byte: as
    for a gzipped replay, the stored bytes were changed); ``reason`` is zlib's."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the stored compact replay is damaged: {reason}")
        self.reason = reason


def deflate(payload: dict[str, Any], game: str) -> bytes | None:
    """A compact replay's payload deflated with the newest dictionary of ``game``, or None
    when the game has none."""
    preset = dictionary.newest(game)
    if preset is None:
        return None
    deflater = zlib.compressobj(DEFLATE_LEVEL, zdict=preset.data)
    return deflater.compress(laid_out(payload, preset.name)) + deflater.flush()


def inflate(data: bytes) -> dict[str, Any]:
    """The payload of a deflated compact replay; :class:`ReplayError` if it is damaged or
    needs a dictionary this arena does not ship."""
    preset = _dictionary_of(data)
    inflater = zlib.decompressobj(zdict=preset.data)
    try:
        text = inflater.decompress(data) + inflater.flush()
    except zlib.error as exc:
        raise DamagedStreamError(str(exc)) from None
    if not inflater.eof or inflater.unused_data:
        raise DamagedStreamError("its zlib stream is cut or runs on")
    marker, _, rest = text.partition(b"\n")
    if marker + b"\n" != _marker(preset.name):
        raise ReplayError("the stored compact replay is damaged: its first line is no marker")
    line, _, tail = rest.partition(b"\n")
    try:
        return _read_columns(json.loads(line), tail)
    except (LookupError, TypeError, ValueError, AttributeError) as exc:
        raise ReplayError(f"the stored compact replay is damaged: {exc!r}") from None


def is_deflated(data: bytes) -> bool:
    """Whether ``data`` starts as a zlib stream deflated with a preset dictionary (a replay
    file starts with ``{``, a gzip file with 0x1f: neither can)."""
    return (
        len(data) >= 6
        and data[0] & 0x0F == zlib.DEFLATED
        and (data[0] << 8 | data[1]) % 31 == 0
        and bool(data[1] & _PRESET_DICTIONARY)
    )


def laid_out(payload: dict[str, Any], dictionary_name: str) -> bytes:
    """The text :func:`deflate` compresses with dictionary ``dictionary_name`` (which the
    dictionaries are built from, too)."""
    tail = bytearray()

    def lay(values: Any) -> Any:
        if not _varints_fit(values):
            return values
        _put_varints(tail, values)
        return len(values)

    line = dict(payload)
    line[_ORDER] = lay(payload[_ORDER])
    line["columns"] = {name: lay(values) for name, values in payload["columns"].items()}
    text = json.dumps(line, separators=(",", ":")).encode()
    return _marker(dictionary_name) + text + b"\n" + bytes(tail)


def _varints_fit(values: Any) -> bool:
    """Whether a column is laid out as varints: a non-empty list of integers from 0 up."""
    return (
        isinstance(values, list) and bool(values) and all(type(v) is int and v >= 0 for v in values)
    )


def _put_varints(tail: bytearray, values: list[int]) -> None:
    for value in values:
        while value >= 0x80:
            tail.append(value & 0x7F | 0x80)
            value >>= 7
        tail.append(value)


def _read_columns(line: dict[str, Any], tail: bytes) -> dict[str, Any]:
    """The payload of a JSON line and its varint columns."""
    reader = _Varints(tail)
    if isinstance(line[_ORDER], int):
        line[_ORDER] = reader.take(line[_ORDER])
    line["columns"] = {
        name: reader.take(values) if isinstance(values, int) else values
        for name, values in line["columns"].items()
    }
    if reader.position != len(tail):
        raise ValueError("bytes left after the last column")
    return line


class _Varints:
    """Varints read one after the other."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.position = 0

    def take(self, count: int) -> list[int]:
        values = []
        data, position = self.data, self.position
        for _ in range(count):
            value, shift = 0, 0
            while True:
                byte = data[position]  # IndexError when cut: damaged
                position += 1
                value |= (byte & 0x7F) << shift
                shift += 7
                if byte < 0x80:
                    break
            values.append(value)
        self.position = position
        return values


def _marker(name: str) -> bytes:
    """The first line of a compact replay deflated with dictionary ``name``."""
    fields = {"format": "risk-arena-replay-compact", "version": VERSION, "dictionary": name}
    return json.dumps(fields, separators=(",", ":")).encode() + b"\n"


def _dictionary_of(data: bytes) -> dictionary.Dictionary:
    """The shipped dictionary a zlib stream names in its header."""
    dictionary_id = int.from_bytes(data[2:6], "big")
    preset = dictionary.by_id(dictionary_id)
    if preset is None:
        raise ReplayError(
            f"the stored compact replay needs preset dictionary {dictionary_id:#010x}, which"
            " this arena does not ship (a newer arena stored it)"
        )
    return preset
