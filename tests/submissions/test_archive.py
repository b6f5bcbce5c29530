"""The quarantine unpacker: honest archives come out as plain files and folders; every hostile
one is refused with one line naming the member, leaving the target absent and nothing
written anywhere else."""

from __future__ import annotations

import gzip
import io
import stat
import struct
import tarfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.errors import ConfigError
from arena.submissions import ArchiveRefused, Limits, unpack
from arena.submissions.limits import DEFAULT_LIMITS, name_problem

MB = 1_000_000
ZEROS = bytes(MB)
GZIPPED_ZEROS = gzip.compress(ZEROS, compresslevel=9)
"""A megabyte of zeros as one gzip member: concatenated, these make a bomb in a few KB."""


def _member(name: str, kind: bytes = tarfile.REGTYPE, size: int = 0, **fields: object) -> bytes:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = size
    for key, value in fields.items():
        setattr(info, key, value)
    return info.tobuf(format=tarfile.PAX_FORMAT)


def _tar(path: Path, *members: tuple[tarfile.TarInfo, bytes]) -> Path:
    """A .tar.gz of ``members`` (each its header and data) as tarfile writes them."""
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            info.size = len(data) if info.isreg() else 0
            tar.addfile(info, io.BytesIO(data) if info.isreg() else None)
    return path


def _info(name: str, kind: bytes = tarfile.REGTYPE, **fields: object) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    for key, value in fields.items():
        setattr(info, key, value)
    return info


def _zip(path: Path, *members: tuple[zipfile.ZipInfo | str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for info, data in members:
            archive.writestr(info, data)
    return path


def _bomb(path: Path, *sizes_mb: int) -> Path:
    """A .tar.gz of members of ``sizes_mb`` megabytes of zeros, written as concatenated gzip
    members (tarfile's reader takes them as one stream) without compressing them here."""
    with path.open("wb") as out:
        for n, size in enumerate(sizes_mb):
            out.write(gzip.compress(_member(f"zeros-{n}", size=size * MB)))
            out.write(GZIPPED_ZEROS * size)
        out.write(gzip.compress(bytes(1024)))
    return path


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@pytest.fixture
def site(tmp_path: Path) -> Path:
    (tmp_path / "uploads").mkdir()
    (tmp_path / "site").mkdir()
    return tmp_path


def _refused(site: Path, archive: Path, words: str, limits: Limits = DEFAULT_LIMITS) -> str:
    """Unpack ``archive`` into ``site/site/bot``: refused with one line holding ``words``,
    and the whole temporary folder as it was before."""
    before = _tree(site)
    with pytest.raises(ArchiveRefused) as refused:
        unpack(archive, site / "site" / "bot", limits)
    message = str(refused.value)
    assert "\n" not in message and words in message, message
    assert message.startswith(archive.name + ":"), message
    assert _tree(site) == before
    assert not (site / "site" / "bot").exists()
    return message


# -- tar ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("/etc/cron.d/x", "member '/etc/cron.d/x': an absolute path"),
        ("../x", "member '../x': a '..' component"),
        ("a/../../x", "member 'a/../../x': a '..' component"),
        ("a\\..\\x", "a backslash"),
        ("a\nb", "control character"),
        ("a" * 201, "201 characters, more than 200"),
        ("/".join(["d"] * 17), "17 levels deep, more than 16"),
    ],
)
def test_a_tar_member_named_out_of_the_folder_is_refused(site: Path, name: str, words: str) -> None:
    archive = _tar(site / "uploads" / "bot.tar.gz", (_info("bot.py"), b"x"), (_info(name), b"y"))
    _refused(site, archive, words)


@pytest.mark.parametrize(
    ("info", "words"),
    [
        (_info("out", tarfile.SYMTYPE, linkname="/etc/passwd"), "'out': a symbolic link to '/"),
        (_info("in", tarfile.SYMTYPE, linkname="bot.py"), "'in': a symbolic link to 'bot.py'"),
        (_info("hard", tarfile.LNKTYPE, linkname="bot.py"), "'hard': a hard link to 'bot.py'"),
        (_info("pipe", tarfile.FIFOTYPE), "'pipe': a FIFO"),
        (_info("null", tarfile.CHRTYPE, devmajor=1, devminor=3), "'null': a character device"),
        (_info("disk", tarfile.BLKTYPE, devmajor=8, devminor=0), "'disk': a block device"),
    ],
)
def test_links_devices_and_fifos_in_a_tar_are_refused(
    site: Path, info: tarfile.TarInfo, words: str
) -> None:
    archive = _tar(site / "uploads" / "bot.tar.gz", (_info("bot.py"), b"x"), (info, b""))
    _refused(site, archive, words)


def test_a_tar_whose_header_claims_more_data_than_it_holds_is_refused(site: Path) -> None:
    archive = site / "uploads" / "short.tar.gz"
    archive.write_bytes(gzip.compress(_member("bot.py", size=10_000) + b"x" * 100))
    _refused(site, archive, "member 'bot.py': not a readable .tar.gz")


def test_a_gzip_bomb_stops_at_the_unpacked_limit(site: Path) -> None:
    """200 MB of zeros in a 0.2 MB archive: the third 40 MB member would pass 100 MB."""
    archive = _bomb(site / "uploads" / "bomb.tar.gz", 40, 40, 40, 40, 40)
    assert archive.stat().st_size < 300_000
    _refused(site, archive, "member 'zeros-2': the files would unpack to more than 100,000,000")


def test_a_member_larger_than_the_limit_is_refused_before_a_byte_is_written(site: Path) -> None:
    archive = _bomb(site / "uploads" / "big.tar.gz", 60)
    _refused(site, archive, "member 'zeros-0': 60,000,000 bytes, more than the 50,000,000")


def test_a_bomb_in_a_tar_header_stops_at_the_stream_budget(site: Path) -> None:
    """An extended header is read whole by tarfile: the decompressed stream itself is capped."""
    archive = site / "uploads" / "header-bomb.tar.gz"
    with archive.open("wb") as out:
        out.write(gzip.compress(_member("pax", tarfile.XHDTYPE, size=50 * MB)))
        out.write(GZIPPED_ZEROS * 50)
    _refused(site, archive, "bomb", Limits(unpacked_bytes=MB, members=10))


def test_too_many_members_are_refused(site: Path) -> None:
    members = [(_info(f"f{n}"), b"") for n in range(2_001)]
    archive = _tar(site / "uploads" / "many.tar.gz", *members)
    _refused(site, archive, "member 'f2000': more than 2,000 members")


@pytest.mark.parametrize(
    ("second", "words"),
    [
        (_info("bot.py"), "member 'bot.py': a duplicate name"),
        (_info("bot.py/x"), "member 'bot.py/x': inside 'bot.py', which is a file"),
        (_info("bot.py", tarfile.DIRTYPE), "member 'bot.py': a duplicate name"),
    ],
)
def test_names_that_clash_are_refused(site: Path, second: tarfile.TarInfo, words: str) -> None:
    archive = _tar(site / "uploads" / "clash.tar.gz", (_info("bot.py"), b"x"), (second, b"y"))
    _refused(site, archive, words)


def test_what_is_not_a_tar_gz_or_zip_is_refused(site: Path) -> None:
    text = site / "uploads" / "bot.tar.gz"
    text.write_text("print('hello')\n")
    _refused(site, text, "neither a .tar.gz nor a .zip archive")
    plain = site / "uploads" / "plain.tar"
    with tarfile.open(plain, "w") as tar:
        tar.addfile(_info("bot.py"), io.BytesIO(b""))
    _refused(site, plain, "neither a .tar.gz nor a .zip archive")
    gzipped_text = site / "uploads" / "text.gz"
    gzipped_text.write_bytes(gzip.compress(b"not a tar at all" * 100))
    _refused(site, gzipped_text, "not a readable .tar.gz")


def test_an_archive_larger_than_the_limit_is_refused_unread(site: Path) -> None:
    archive = _tar(site / "uploads" / "bot.tar.gz", (_info("bot.py"), bytes(range(256)) * 40))
    _refused(site, archive, "more than the 100 allowed", Limits(archive_bytes=100))


def test_modes_owners_and_times_from_the_archive_are_not_kept(site: Path) -> None:
    archive = _tar(
        site / "uploads" / "bot.tar.gz",
        (_info("./", tarfile.DIRTYPE, mode=0o777), b""),
        (_info("lib", tarfile.DIRTYPE, mode=0o1777, uid=0, gid=0), b""),
        (_info("lib/run", mode=0o4755, uid=0, mtime=0), b"#!/bin/sh\n"),
        (_info("lib/data", mode=0o2666, uid=12345, uname="evil"), b"d"),
        (_info("secret", mode=0o600), b"s"),
    )
    into = site / "site" / "bot"
    assert unpack(archive, into) == [Path("lib/run"), Path("lib/data"), Path("secret")]
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in [into, *into.rglob("*")]}
    assert modes == {"bot": 0o755, "lib": 0o755, "run": 0o755, "data": 0o644, "secret": 0o644}
    assert (into / "lib" / "run").stat().st_mtime > time.time() - 3600
    assert (into / "lib" / "run").read_bytes() == b"#!/bin/sh\n"
    assert sorted(p.name for p in (site / "site").iterdir()) == ["bot"]  # no staging left


def test_the_target_must_be_absent_or_empty(site: Path) -> None:
    archive = _tar(site / "uploads" / "bot.tar.gz", (_info("bot.py"), b"x"))
    into = site / "site" / "bot"
    into.mkdir()
    assert unpack(archive, into) == [Path("bot.py")]
    with pytest.raises(ConfigError, match="must be absent or empty"):
        unpack(archive, into)


# -- zip ------------------------------------------------------------------------------------


def _zip_info(name: str, mode: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = mode << 16
    return info


def _patch_central(archive: Path, offset: int, fmt: str, value: int) -> None:
    """Overwrite a field of the first central directory entry (where zipfile reads it)."""
    data = bytearray(archive.read_bytes())
    entry = data.index(b"PK\x01\x02")
    struct.pack_into(fmt, data, entry + offset, value)
    archive.write_bytes(bytes(data))


@pytest.mark.filterwarnings("ignore:Duplicate name")
@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda p: _zip(p, ("../x", b"y")), "member '../x': a '..' component"),
        (lambda p: _zip(p, ("/etc/x", b"y")), "member '/etc/x': an absolute path"),
        (
            lambda p: _zip(p, (_zip_info("link", stat.S_IFLNK | 0o777), b"/etc/passwd")),
            "member 'link': a symbolic link",
        ),
        (
            lambda p: _zip(p, (_zip_info("pipe", stat.S_IFIFO | 0o644), b"")),
            "member 'pipe': a FIFO",
        ),
        (lambda p: _zip(p, ("a", b"1"), ("a", b"2")), "member 'a': a duplicate name"),
    ],
)
def test_hostile_zip_members_are_refused(
    site: Path, make: Callable[[Path], Path], words: str
) -> None:
    archive = make(site / "uploads" / "bot.zip")
    _refused(site, archive, words)


def test_an_encrypted_zip_member_is_refused(site: Path) -> None:
    archive = _zip(site / "uploads" / "bot.zip", ("bot.py", b"x"))
    _patch_central(archive, 8, "<H", 0x1)  # general purpose flag: encrypted
    _refused(site, archive, "member 'bot.py': encrypted")


def test_a_zip_member_compressed_otherwise_is_refused(site: Path) -> None:
    archive = site / "uploads" / "bot.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_BZIP2) as z:
        z.writestr("bot.py", b"x" * 100)
    _refused(site, archive, "member 'bot.py': compression method 12")


def test_a_zip_bomb_is_refused_by_its_size_and_a_lying_size_by_its_checksum(site: Path) -> None:
    archive = site / "uploads" / "bomb.zip"
    with (
        zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z,
        z.open("zeros", "w", force_zip64=True) as w,
    ):
        for _ in range(60):
            w.write(ZEROS)
    assert archive.stat().st_size < 100_000
    _refused(site, archive, "member 'zeros': 60,000,000 bytes, more than the 50,000,000")
    lying = _zip(site / "uploads" / "lying.zip", ("zeros", bytes(2 * MB)))
    _patch_central(lying, 24, "<I", 1_000)  # uncompressed size: 1,000 bytes
    _refused(site, lying, "member 'zeros': not a readable .zip (Bad CRC-32")


def test_an_honest_zip_unpacks_with_its_executable_bits_only(site: Path) -> None:
    archive = _zip(
        site / "uploads" / "bot.zip",
        ("src/", b""),
        (_zip_info("src/run", stat.S_IFREG | 0o4777), b"#!/bin/sh\n"),
        ("bot.toml", b"name = 'x'\n"),
    )
    into = site / "site" / "bot"
    assert unpack(archive, into) == [Path("src/run"), Path("bot.toml")]
    assert stat.S_IMODE((into / "src" / "run").stat().st_mode) == 0o755
    assert stat.S_IMODE((into / "bot.toml").stat().st_mode) == 0o644


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("a\x00b", "NUL"),
        ("C:/x", "absolute"),
        ("", "empty"),
        ("a/./b", None),
        ("./bot.py", None),
        ("a/..b", None),
    ],
)
def test_the_name_rules(name: str, reason: str | None) -> None:
    problem = name_problem(name, Limits())
    assert (problem is None) if reason is None else (problem is not None and reason in problem)
