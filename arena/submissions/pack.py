"""Pack a bot folder as its author uploads it: a deterministic ``.tar.gz`` of the bot's own
files, checked against the same :class:`Limits` the arena unpacks under.

Left out: what :data:`arena.catalog.versions.IGNORED_PARTS` names (version control,
``node_modules``, virtual environments, caches), compiled Python (``*.pyc``), and the arena's
outputs (``results/`` and ``logs/`` at the top, and the results home in use when it lies
inside the folder). The same files give the same bytes: sorted members, no times, owners or
modes beyond 0644/0755, a gzip header without name or time.
"""

from __future__ import annotations

import gzip
import os
import stat
import tarfile
import tempfile
from pathlib import Path
from typing import IO

from arena.catalog.versions import IGNORED_PARTS
from arena.paths import results_home
from arena.submissions.archive import unpack
from arena.submissions.limits import DEFAULT_LIMITS, ArchiveRefused, Limits, name_problem

OUTPUT_FOLDERS = ("results", "logs")
"""Folders at the top of a bot folder that hold the arena's outputs (``arena`` run inside a
bot's folder writes ``./results``; a results home keeps ``logs/``)."""

COMPILED_SUFFIXES = (".pyc", ".pyo")


def pack(folder: Path, out: Path, limits: Limits = DEFAULT_LIMITS) -> list[Path]:
    """Write the bot folder's files to ``out`` (a ``.tar.gz``, replaced whole or not at all)
    and return them, relative to the folder. Refuses, with :class:`ArchiveRefused`, a folder
    without ``bot.toml``, one holding a link or a special file, or one whose archive would
    break ``limits``: the result is unpacked once with :func:`unpack` before it is kept."""
    if not (folder / "bot.toml").is_file():
        raise ArchiveRefused(f"{folder}: not a bot folder (no bot.toml)")
    files = _bot_files(folder, out)
    _check(folder, files, limits)
    handle, temporary = tempfile.mkstemp(prefix=f".{out.name}.", dir=out.parent)
    written = Path(temporary)
    try:
        with os.fdopen(handle, "wb") as raw:
            _write(folder, files, raw)
        with tempfile.TemporaryDirectory(prefix="arena-pack-") as scratch:
            unpack(written, Path(scratch) / "bot", limits)
        written.chmod(0o644)
        written.replace(out)
    except BaseException:
        written.unlink(missing_ok=True)
        raise
    return files


def _bot_files(folder: Path, out: Path) -> list[Path]:
    """The folder's files that make the bot, sorted; a link or special file is refused."""
    skipped = {(folder / name).resolve() for name in OUTPUT_FOLDERS}
    skipped |= {results_home().resolve(), out.resolve()}
    files: list[Path] = []
    for here, folders, names in os.walk(folder):
        base = Path(here)
        kept = []
        for name in sorted(folders):
            path = base / name
            if name in IGNORED_PARTS or (path.resolve() in skipped and not path.is_symlink()):
                continue
            if path.is_symlink():
                raise ArchiveRefused(f"{path}: a symbolic link; a submitted bot holds no links")
            kept.append(name)
        folders[:] = kept
        for name in names:
            path = base / name
            if name in IGNORED_PARTS or name.endswith(COMPILED_SUFFIXES):
                continue
            mode = path.lstat().st_mode
            if stat.S_ISLNK(mode):
                raise ArchiveRefused(f"{path}: a symbolic link; a submitted bot holds no links")
            if not stat.S_ISREG(mode):
                raise ArchiveRefused(f"{path}: not a regular file (a device, FIFO or socket)")
            if path.resolve() not in skipped:
                files.append(path.relative_to(folder))
    return sorted(files, key=lambda p: p.as_posix())


def _check(folder: Path, files: list[Path], limits: Limits) -> None:
    """Refuse, before writing, what :func:`unpack` would refuse, naming the file."""
    if len(files) > limits.members:
        raise ArchiveRefused(f"{folder}: {len(files):,} files, more than {limits.members:,}")
    total = 0
    for relative in files:
        problem = name_problem(relative.as_posix(), limits)
        if problem is not None:
            raise ArchiveRefused(f"{folder / relative}: {problem}")
        size = (folder / relative).stat().st_size
        if size > limits.member_bytes:
            raise ArchiveRefused(
                f"{folder / relative}: {size:,} bytes, more than the {limits.member_bytes:,} allowed"
            )
        total += size
    if total > limits.unpacked_bytes:
        raise ArchiveRefused(
            f"{folder}: {total:,} bytes of files, more than the {limits.unpacked_bytes:,} allowed"
        )


def _write(folder: Path, files: list[Path], raw: IO[bytes]) -> None:
    """The archive's bytes: a member per file, in order, with nothing from the machine."""
    with (
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as zipped,
        tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as tar,
    ):
        for relative in files:
            path = folder / relative
            info = tarfile.TarInfo(relative.as_posix())
            info.size = path.stat().st_size
            info.mode = 0o755 if path.stat().st_mode & 0o111 else 0o644
            info.mtime = 0
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            with path.open("rb") as data:
                tar.addfile(info, data)
