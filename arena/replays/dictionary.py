"""Preset dictionaries that compact replays are deflated with before the results database
stores them: a few hundred bytes of a replay (its header, the names of its records and
actions, runs of typical values) are then already known to zlib, which codes them in a few bits.

One file per game and version, ``dictionaries/<game>-<n>.zdict`` beside this module, made by
``scripts/build_replay_dictionary.py`` from seeded matches of bundled bots. A file never
changes once replays use it: a stored replay names its dictionary (by name in its marker
line, and by the dictionary's Adler-32 in the zlib header, which is how a reader finds it
before it can read anything), so a better dictionary is a new file with the next ``n``.
"""

from __future__ import annotations

import functools
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "dictionaries"
"""Where the dictionaries are shipped."""
_FILE = re.compile(r"(?P<game>[A-Za-z_][A-Za-z0-9_]*)-(?P<number>[1-9][0-9]*)\.zdict")
"""A dictionary's file name: its game and its number."""


@dataclass(frozen=True, slots=True)
class Dictionary:
    """One shipped dictionary: ``name`` is ``<game>-<n>``, ``data`` the preset bytes."""

    game: str
    number: int
    data: bytes

    @property
    def name(self) -> str:
        return f"{self.game}-{self.number}"

    @property
    def id(self) -> int:
        """The Adler-32 of the bytes: what zlib writes in the header of data deflated with it."""
        return zlib.adler32(self.data)


def file_name(game: str, number: int) -> str:
    """The file name of dictionary ``number`` of ``game``."""
    return f"{game}-{number}.zdict"


@functools.cache
def shipped() -> tuple[Dictionary, ...]:
    """Every dictionary in :data:`FOLDER`, by game then number."""
    found = []
    for path in sorted(FOLDER.glob("*.zdict")):
        match = _FILE.fullmatch(path.name)
        if match is not None:
            found.append(Dictionary(match["game"], int(match["number"]), path.read_bytes()))
    return tuple(sorted(found, key=lambda d: (d.game, d.number)))


def newest(game: str) -> Dictionary | None:
    """The dictionary new replays of ``game`` are deflated with (its highest number), or None
    when the game has none."""
    own = [d for d in shipped() if d.game == game]
    return own[-1] if own else None


def by_id(dictionary_id: int) -> Dictionary | None:
    """The shipped dictionary whose Adler-32 is ``dictionary_id``, or None."""
    return next((d for d in shipped() if d.id == dictionary_id), None)
