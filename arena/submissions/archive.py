"""Unpack a submitted ``.tar.gz`` or ``.zip`` into a quarantine folder, under :class:`Limits`.

The archive comes from a stranger: every member is checked before a byte of it is written,
bytes are counted as they are written (never trusting a header), and only plain folders and
regular files come out, with modes 0755 and 0644 (0755 for a file marked executable), owned
by whoever unpacks and with no setuid, setgid or sticky bit, no owner and no time from the
archive. Links (symbolic and hard, wherever they point), devices, FIFOs and sockets are
refused: a bot folder needs none. The members go into a hidden temporary sibling of the
target, renamed to it at the end; on a refusal that sibling is removed, so the target is
left as it was (absent or empty) and nothing stays outside it.
"""

from __future__ import annotations

import gzip
import os
import shutil
import stat
import tarfile
import tempfile
import zipfile
import zlib
from pathlib import Path, PurePosixPath
from typing import IO, NoReturn

from arena.errors import ConfigError
from arena.submissions.limits import (
    DEFAULT_LIMITS,
    ArchiveRefused,
    Limits,
    name_parts,
    name_problem,
)

GZIP_MAGIC = b"\x1f\x8b"
ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")  # a zip with members; an empty zip
CHUNK = 1 << 16
HEADER_ALLOWANCE = 4096
"""Tar bytes a member may take besides its data (its header, a long name's extended header,
padding): with the data limit, what the decompressed stream may reach in all."""

READ_ERRORS = (tarfile.TarError, zipfile.BadZipFile, EOFError, zlib.error, OSError)
"""What a corrupt, truncated or lying archive raises while it is read."""

TAR_KINDS = {
    tarfile.SYMTYPE: "a symbolic link",
    tarfile.LNKTYPE: "a hard link",
    tarfile.CHRTYPE: "a character device",
    tarfile.BLKTYPE: "a block device",
    tarfile.FIFOTYPE: "a FIFO",
    tarfile.GNUTYPE_SPARSE: "a sparse file",
}
ZIP_KINDS = {
    stat.S_IFLNK: "a symbolic link",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
}
ZIP_METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED)
"""What every zip tool writes; other methods are refused."""


def unpack(archive: Path, into: Path, limits: Limits = DEFAULT_LIMITS) -> list[Path]:
    """Unpack ``archive`` (a ``.tar.gz`` or a ``.zip``, told by its first bytes) into
    ``into``, which must be absent or an empty folder; returns the files written, relative to
    ``into``, in archive order. Raises :class:`ArchiveRefused` (one line: the archive, the
    member, the reason) and leaves ``into`` as it was."""
    if into.is_symlink() or (into.exists() and (not into.is_dir() or any(into.iterdir()))):
        raise ConfigError(f"{into}: the folder to unpack into must be absent or empty")
    if not into.parent.is_dir():
        raise ConfigError(f"{into.parent}: no such folder to unpack into")
    staging = Path(tempfile.mkdtemp(prefix=f".{into.name}.", suffix=".unpacking", dir=into.parent))
    try:
        writer = _Writer(staging, archive.name, limits)
        try:
            raw = archive.open("rb")
        except OSError as exc:
            writer.refuse(None, f"cannot be read: {exc.strerror}")
        with raw:
            _unpack_stream(raw, writer)
        staging.chmod(0o755)
        if into.exists():
            into.rmdir()
        staging.rename(into)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return writer.files


def _unpack_stream(raw: IO[bytes], writer: _Writer) -> None:
    """Check the archive's size and kind, then unpack it member by member."""
    info = os.fstat(raw.fileno())
    if not stat.S_ISREG(info.st_mode):
        writer.refuse(None, "not a regular file")
    if info.st_size > writer.limits.archive_bytes:
        writer.refuse(
            None, f"{info.st_size:,} bytes, more than the {writer.limits.archive_bytes:,} allowed"
        )
    magic = raw.read(4)
    raw.seek(0)
    if magic.startswith(GZIP_MAGIC):
        _unpack_tar(raw, writer)
    elif magic in ZIP_MAGICS:
        _unpack_zip(raw, writer)
    else:
        writer.refuse(None, "neither a .tar.gz nor a .zip archive")


class _Budget:
    """A decompressed stream that refuses to be read past ``cap`` bytes: tarfile reads a
    header's extended data whole, so a bomb hidden in a header stops here too."""

    def __init__(self, stream: gzip.GzipFile, cap: int) -> None:
        self.stream = stream
        self.left = cap

    def read(self, size: int = -1) -> bytes:
        wanted = self.left + 1 if size < 0 else min(size, self.left + 1)
        data = self.stream.read(wanted)
        self.left -= len(data)
        if self.left < 0:
            raise _OverBudget
        return data


class _OverBudget(Exception):
    """The decompressed stream went past its cap."""


def _unpack_tar(raw: IO[bytes], writer: _Writer) -> None:
    limits = writer.limits
    cap = limits.unpacked_bytes + (limits.members + 1) * HEADER_ALLOWANCE
    stream = _Budget(gzip.GzipFile(fileobj=raw, mode="rb"), cap)
    try:
        with tarfile.open(fileobj=stream, mode="r|") as tar:  # type: ignore[call-overload]
            for member in tar:
                writer.begin(member.name)
                if member.isdir():
                    writer.directory(member.name)
                elif member.type in (tarfile.REGTYPE, tarfile.AREGTYPE):
                    data = tar.extractfile(member)
                    assert data is not None  # a regular member always has its data
                    writer.file(member.name, member.size, data, bool(member.mode & 0o111))
                else:
                    kind = TAR_KINDS.get(member.type, f"a member of type {member.type!r}")
                    target = f" to {member.linkname!r}" if member.issym() or member.islnk() else ""
                    writer.refuse(member.name, f"{kind}{target}: only files and folders")
                writer.end()
    except _OverBudget:
        writer.refuse(writer.current, f"unpacks to more than {cap:,} bytes (an archive bomb)")
    except READ_ERRORS as exc:
        writer.refuse(writer.current, f"not a readable .tar.gz ({_one_line(exc)})")


def _unpack_zip(raw: IO[bytes], writer: _Writer) -> None:
    limits = writer.limits
    try:
        with zipfile.ZipFile(raw) as archive:
            infos = archive.infolist()
            if len(infos) > limits.members:
                writer.refuse(None, f"{len(infos):,} members, more than {limits.members:,}")
            for info in infos:
                name = info.orig_filename  # `filename` is cut at a NUL
                writer.begin(name)
                mode = info.external_attr >> 16 if info.create_system == 3 else 0
                kind = stat.S_IFMT(mode)
                if kind in ZIP_KINDS:
                    writer.refuse(name, f"{ZIP_KINDS[kind]}: only files and folders")
                if info.flag_bits & 0x1:
                    writer.refuse(name, "encrypted")
                if name.endswith("/") or kind == stat.S_IFDIR:
                    writer.directory(name)
                elif info.compress_type not in ZIP_METHODS:
                    writer.refuse(
                        name, f"compression method {info.compress_type}: only stored or deflated"
                    )
                else:
                    with archive.open(info) as data:
                        writer.file(name, info.file_size, data, bool(mode & 0o111))
                writer.end()
    except READ_ERRORS as exc:
        writer.refuse(writer.current, f"not a readable .zip ({_one_line(exc)})")


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


class _Writer:
    """Writes checked members under ``root``, keeping the counts the limits bound."""

    def __init__(self, root: Path, label: str, limits: Limits) -> None:
        self.root = root
        self.resolved_root = root.resolve()
        self.label = label
        self.limits = limits
        self.files: list[Path] = []
        self.kinds: dict[PurePosixPath, str] = {}  # every path made: "file" or "folder"
        self.named: set[PurePosixPath] = set()  # the paths members named
        self.members = 0
        self.written = 0
        self.current: str | None = None

    def refuse(self, member: str | None, reason: str) -> NoReturn:
        where = f"{self.label}: member {member!r}" if member is not None else self.label
        raise ArchiveRefused(f"{where}: {reason}") from None

    def begin(self, member: str) -> None:
        self.current = member
        self.members += 1
        if self.members > self.limits.members:
            self.refuse(member, f"more than {self.limits.members:,} members")

    def end(self) -> None:
        self.current = None

    def directory(self, member: str) -> None:
        path = self._claim(member, "folder")
        if path is not None:
            self._make_folders(path)

    def file(self, member: str, size: int, data: IO[bytes], executable: bool) -> None:
        path = self._claim(member, "file")
        if path is None:
            self.refuse(member, "a file named as the folder itself")
        limits = self.limits
        if size > limits.member_bytes:
            self.refuse(member, f"{size:,} bytes, more than the {limits.member_bytes:,} allowed")
        if self.written + size > limits.unpacked_bytes:
            self.refuse(
                member, f"the files would unpack to more than {limits.unpacked_bytes:,} bytes"
            )
        self._make_folders(path.parent)
        self.kinds[path] = "file"
        target = self.root.joinpath(*path.parts)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            out = os.fdopen(os.open(target, flags, 0o600), "wb")
        except OSError as exc:
            self.refuse(member, f"cannot be written: {exc.strerror}")
        with out:
            copied = 0
            while chunk := data.read(CHUNK):
                copied += len(chunk)
                if copied > size:
                    self.refuse(member, f"holds more than the {size:,} bytes its header says")
                if self.written + copied > limits.unpacked_bytes:
                    self.refuse(member, f"unpacks past {limits.unpacked_bytes:,} bytes in all")
                out.write(chunk)
            os.fchmod(out.fileno(), 0o755 if executable else 0o644)
        self.written += copied
        self.files.append(Path(*path.parts))

    def _claim(self, member: str, kind: str) -> PurePosixPath | None:
        """The member's path inside the folder once every rule about names holds (None: the
        folder itself, as ``./`` names it)."""
        problem = name_problem(member, self.limits)
        if problem is not None:
            self.refuse(member, problem)
        parts = name_parts(member)
        if not parts:
            return None
        path = PurePosixPath(*parts)
        if path in self.named:
            self.refuse(member, "a duplicate name")
        for folder in path.parents:
            if self.kinds.get(folder) == "file":
                self.refuse(member, f"inside {str(folder)!r}, which is a file")
        made = self.kinds.get(path)
        if made is not None and made != kind:
            self.refuse(member, f"a {kind} where the archive has a {made}")
        target = self.root.joinpath(*parts).resolve()
        if not target.is_relative_to(self.resolved_root):
            self.refuse(member, "leads out of the folder")
        self.named.add(path)
        return path

    def _make_folders(self, path: PurePosixPath) -> None:
        """Make ``path`` and its parents inside the root, each 0755."""
        for folder in [*reversed(path.parents), path][1:]:
            if folder not in self.kinds:
                target = self.root.joinpath(*folder.parts)
                os.mkdir(target, 0o755)
                target.chmod(0o755)
                self.kinds[folder] = "folder"
        self.kinds.setdefault(path, "folder")
