"""What the JavaScript bots' tests need to know of the machine's Node.js."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
from pathlib import Path

import pytest

from arena.catalog import BotSpec, run_setup, setup_marker


def node_major() -> int | None:
    """The major version of ``node`` on PATH, or None without a working one."""
    try:
        out = subprocess.run(
            ["node", "--version"], capture_output=True, text=True, timeout=30, check=True
        ).stdout
        return int(out.strip().lstrip("v").split(".")[0])
    except (OSError, subprocess.SubprocessError, ValueError):
        return None


def local_libraries(folder: Path) -> dict[Path, Path]:
    """The ``file:`` dependencies of the package in ``folder``: where each is installed (in
    its ``node_modules``) and the folder it is copied from."""
    manifest = json.loads((folder / "package.json").read_text())
    return {
        folder / "node_modules" / name: (folder / spec.removeprefix("file:")).resolve()
        for name, spec in manifest.get("dependencies", {}).items()
        if spec.startswith("file:")
    }


def installed_as_it_is(copy: Path, source: Path) -> bool:
    """Whether ``copy`` in ``node_modules`` holds the library ``source`` as it is now: every
    file it packs (``files`` of its ``package.json``, and that file), with the same bytes."""
    manifest = json.loads((source / "package.json").read_text())
    packed = ["package.json", *manifest.get("files", [])]
    return all(
        (copy / name).is_file() and (copy / name).read_bytes() == (source / name).read_bytes()
        for name in packed
    )


def packages_ready(folder: Path) -> bool:
    """Whether the bot folder's ``npm ci`` has run and its local libraries are current (a
    copy made before the library changed is stale: the bot's own files did not change, so
    its setup would not run again by itself)."""
    if not (folder / "node_modules" / "@grpc" / "grpc-js").is_dir():
        return False
    return all(installed_as_it_is(c, s) for c, s in local_libraries(folder).items())


def set_up_js_bot(spec: BotSpec, home: Path) -> Path:
    """Note in results ``home`` that the bot's setup (``npm ci``) ran, running it first if its
    folder has no packages yet (or a stale copy of a local library); returns the note. The
    bot folders are shared by every test and every pytest-xdist worker, and a second ``npm
    ci`` there deletes ``node_modules`` under a bot another test is running: so the setup
    runs once per checkout, under a lock on its ``package.json`` (``run_setup`` itself locks
    the folder), and tests copy the note instead of running it."""
    manifest = os.open(spec.path / "package.json", os.O_RDONLY)
    try:
        fcntl.flock(manifest, fcntl.LOCK_EX)
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("ARENA_HOME", str(home))
            if not packages_ready(spec.path):
                run_setup(spec, force=True)
            marker = setup_marker(spec)
            if not marker.exists():
                marker.parent.mkdir(parents=True, exist_ok=True)
                marker.write_text("installed before the tests\n")
    finally:
        os.close(manifest)
    return marker
