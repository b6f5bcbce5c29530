"""The author's side: a bundled bot packs deterministically, without caches, dependencies or
the arena's outputs, and unpacks to the same files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arena.paths import bundled_bots_dir
from arena.submissions import ArchiveRefused, Limits, pack, unpack


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


@pytest.mark.parametrize("bot", ["random", "js-heuristic"])
def test_a_bundled_bot_packs_and_unpacks_to_the_same_files(tmp_path: Path, bot: str) -> None:
    folder = bundled_bots_dir() / bot
    packed = pack(folder, tmp_path / "a.tar.gz")
    unpacked = unpack(tmp_path / "a.tar.gz", tmp_path / "bot")
    assert unpacked == packed
    expected = {k: v for k, v in _files(folder).items() if "node_modules" not in k}
    assert _files(tmp_path / "bot") == expected
    pack(folder, tmp_path / "b.tar.gz")
    assert (tmp_path / "a.tar.gz").read_bytes() == (tmp_path / "b.tar.gz").read_bytes()


def test_caches_dependencies_and_the_arenas_outputs_are_left_out(tmp_path: Path) -> None:
    folder = tmp_path / "mybot"
    kept = ["bot.toml", "bot.py", "lib/helpers.py", "lib/results/table.txt"]
    left = [
        ".git/config",
        "node_modules/x/index.js",
        "__pycache__/bot.cpython-311.pyc",
        "lib/old.pyc",
        ".mypy_cache/x",
        "results/arena.db",
        "logs/tournament.log",
    ]
    for name in kept + left:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(name)
    (folder / ".venv" / "bin").mkdir(parents=True)
    os.symlink("/usr/bin/python3", folder / ".venv" / "bin" / "python")  # left out, not refused
    assert pack(folder, folder / "upload.tar.gz") == sorted(Path(k) for k in kept)
    unpack(folder / "upload.tar.gz", tmp_path / "out")
    assert set(_files(tmp_path / "out")) == set(kept)


def test_a_link_a_missing_manifest_or_a_broken_limit_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "mybot"
    folder.mkdir()
    out = tmp_path / "upload.tar.gz"
    with pytest.raises(ArchiveRefused, match="not a bot folder"):
        pack(folder, out)
    (folder / "bot.toml").write_text("name = 'mybot'\n")
    (folder / "big.bin").write_bytes(bytes(2_000))
    with pytest.raises(ArchiveRefused, match=r"big.bin: 2,000 bytes, more than the 1,000"):
        pack(folder, out, Limits(member_bytes=1_000))
    with pytest.raises(ArchiveRefused, match=r"more than the 100 allowed"):
        pack(folder, out, Limits(archive_bytes=100))
    (folder / "data").symlink_to("/etc")
    with pytest.raises(ArchiveRefused, match=r"data: a symbolic link"):
        pack(folder, out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mybot"]
