"""What a submitted archive may hold, and the error that refuses one that holds more.

A bot folder is source code and a little data: its dependencies are installed by its
``setup`` on the arena's machine (``npm ci``, ``pip install --target deps``), never uploaded.
The bundled bots are 12 KB to 190 KB each; the limits leave a hundred times that, and a
model file, while keeping one submission's disk, memory and time small and known.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from arena.errors import ConfigError

MB = 1_000_000

ARCHIVE_BYTES = 20 * MB
"""The compressed archive: source plus one modest model or opening book fits many times
over; an upload of more is not a bot folder (or carries its dependencies, which ``setup``
installs)."""

UNPACKED_BYTES = 100 * MB
"""All files together, counted as they are written: five times the archive, the ratio source
code compresses by, so an honest archive never meets it and a bomb stops here."""

MEMBER_BYTES = 50 * MB
"""One file: the largest a bot plausibly reads whole (a model's weights)."""

MEMBERS = 2_000
"""Files and folders: a source tree without ``node_modules`` or a virtual environment has
tens to hundreds; thousands of tiny files only cost inodes and time."""

PATH_CHARACTERS = 200
"""One member's path inside the folder: below every file system's 255 bytes per name and
4,096 per path, with room for the quarantine folder's own path in front."""

DEPTH = 16
"""Folders inside folders: a source tree's deepest package is a few levels down."""


@dataclass(frozen=True)
class Limits:
    """The bounds :func:`~arena.submissions.unpack` and :func:`~arena.submissions.pack`
    enforce (bytes, members, characters, levels)."""

    archive_bytes: int = ARCHIVE_BYTES
    unpacked_bytes: int = UNPACKED_BYTES
    member_bytes: int = MEMBER_BYTES
    members: int = MEMBERS
    path_characters: int = PATH_CHARACTERS
    depth: int = DEPTH


class ArchiveRefused(ConfigError):
    """An archive (or a folder to pack) that breaks a rule or a limit: one line naming the
    archive, the member when there is one, and the reason."""


WINDOWS_DRIVE = re.compile(r"[A-Za-z]:")


def name_problem(name: str, limits: Limits) -> str | None:
    """Why a member's name (``/``-separated, relative) cannot be written inside the folder,
    or None. ``.`` components and repeated slashes are harmless and dropped by
    :func:`name_parts`; ``..`` is refused wherever it stands, even where it would stay inside
    (a bot folder's own names never need it)."""
    if not name:
        return "an empty name"
    if any(ord(c) < 32 or ord(c) == 127 for c in name):
        return "a NUL or control character in the name"
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return "a name that is not UTF-8"
    if "\\" in name:
        return "a backslash in the name (a Windows separator)"
    if name.startswith("/") or WINDOWS_DRIVE.match(name):
        return "an absolute path"
    if ".." in name.split("/"):
        return "a '..' component, which may lead out of the folder"
    if len(name) > limits.path_characters:
        return f"a path of {len(name)} characters, more than {limits.path_characters}"
    if len(name_parts(name)) > limits.depth:
        return f"{len(name_parts(name))} levels deep, more than {limits.depth}"
    return None


def name_parts(name: str) -> tuple[str, ...]:
    """A name's components without empty and ``.`` ones (``./bot.py`` is ``bot.py``; ``./``
    is the folder itself: no components)."""
    return tuple(part for part in name.split("/") if part not in ("", "."))


DEFAULT_LIMITS = Limits()
"""The limits a hosted arena's submissions are unpacked under."""
