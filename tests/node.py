"""What the JavaScript bots' tests need to know of the machine's Node.js."""

from __future__ import annotations

import fcntl
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


def set_up_js_bot(spec: BotSpec, home: Path) -> Path:
    """Note in results ``home`` that the bot's setup (``npm ci``) ran, running it first if its
    folder has no packages yet; returns the note. The bot folders are shared by every test
    and every pytest-xdist worker, and a second ``npm ci`` there deletes ``node_modules``
    under a bot another test is running: so the setup runs once per checkout, under a lock
    on its ``package.json`` (``run_setup`` itself locks the folder), and tests copy the note
    instead of running it."""
    manifest = os.open(spec.path / "package.json", os.O_RDONLY)
    try:
        fcntl.flock(manifest, fcntl.LOCK_EX)
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("ARENA_HOME", str(home))
            if not (spec.path / "node_modules" / "@grpc" / "grpc-js").is_dir():
                run_setup(spec, force=True)
            marker = setup_marker(spec)
            if not marker.exists():
                marker.parent.mkdir(parents=True, exist_ok=True)
                marker.write_text("installed before the tests\n")
    finally:
        os.close(manifest)
    return marker
