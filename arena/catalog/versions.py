"""A bot version's identity: a hash of the files that make the bot, and only those."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from arena.catalog.manifest import BotSpec
from arena.paths import results_home

IGNORED_PARTS = {
    "node_modules",
    "__pycache__",
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
    ".cache",
    ".tox",
    ".nox",
    ".eggs",
    ".gradle",
    ".idea",
    ".vscode",
    ".DS_Store",
}
"""Names never part of a bot's identity: installed packages, caches, version control and
editor state."""

BUILD_FOLDERS = {"build", "dist", "target", "out", "obj", "CMakeFiles"}
"""Folders a ``setup`` builds into: not part of a version when the bot has a ``setup``
(they are its output, made anew on every machine). A bot without one ships what it runs,
so there they count."""

ARENA_OUTPUTS = ("arena.db", "secret", "replays", "logs", "setup")
"""What the arena writes into a results home: a bot subfolder holding any of these is the
arena's (``arena`` run inside a bot's folder makes ``./results`` there), never the bot's."""


def _ignored_folders(folder: Path) -> set[Path]:
    """The bot's subfolders that hold the arena's outputs: ``results/`` when it holds the
    arena's files, and the results home in use wherever it lies inside the folder."""
    ignored = set()
    results = folder / "results"
    if results.is_dir() and any((results / name).exists() for name in ARENA_OUTPUTS):
        ignored.add(results)
    home = results_home().resolve()
    if home.is_relative_to(folder.resolve()) and home != folder.resolve():
        ignored.add(folder / home.relative_to(folder.resolve()))
    return ignored


def _counts(relative: Path, spec: BotSpec) -> bool:
    """Whether a file (its path inside the bot's folder) is part of the bot's version."""
    parts = relative.parts
    if IGNORED_PARTS.intersection(parts):
        return False
    return spec.setup is None or not BUILD_FOLDERS.intersection(parts[:-1])


def _tracked_files(folder: Path, spec: BotSpec) -> list[Path]:
    """The folder's files minus caches, build output, the arena's outputs and, inside a git
    work tree, git-ignored files."""
    outputs = _ignored_folders(folder)
    files = [
        p
        for p in folder.rglob("*")
        if p.is_file()
        and _counts(p.relative_to(folder), spec)
        and not any(p.is_relative_to(o) for o in outputs)
    ]
    try:
        listed = subprocess.run(
            ["git", "check-ignore", "--stdin", "-z"],
            cwd=folder,
            capture_output=True,
            input=b"\0".join(str(p).encode() for p in files),
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return sorted(files)
    if listed.returncode not in (0, 1):  # 128: not a git work tree; keep everything
        return sorted(files)
    ignored = {Path(x.decode()) for x in listed.stdout.split(b"\0") if x}
    return sorted(p for p in files if p not in ignored)


def version_id(spec: BotSpec) -> str:
    """A bot version's identity: a SHA-256 over its files' paths and contents (16 hex digits).

    The ``bot.toml`` version is only a label; editing any file makes a new version, which
    gets ratings of its own.
    """
    digest = hashlib.sha256()
    for path in _tracked_files(spec.path, spec):
        digest.update(str(path.relative_to(spec.path)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
