"""Submitted bots: archives, the builder, and what the tests of a hosted arena share."""

from __future__ import annotations

import shutil
from pathlib import Path

from arena.results.store import Store
from arena.submissions import pack
from arena.submissions.files import SubmissionFiles, new_submission_id

REPO = Path(__file__).resolve().parents[2]
RANDOM = REPO / "bots" / "random"


def bot_folder(where: Path, name: str, **manifest: str) -> Path:
    """A copy of the bundled random bot named ``name``, playing classic, with ``manifest``'s
    keys (``setup``, ``command``) set."""
    folder = where / name
    shutil.copytree(RANDOM, folder, ignore=shutil.ignore_patterns("__pycache__"))
    lines = [
        line
        for line in (folder / "bot.toml").read_text().splitlines()
        if not line.startswith(("name ", "games ", *(f"{key} " for key in manifest)))
    ]
    lines.insert(0, f"name = {name!r}".replace("'", '"'))
    lines.append('games = ["classic"]')
    lines += [f"{key} = {value!r}".replace("'", '"') for key, value in manifest.items()]
    (folder / "bot.toml").write_text("\n".join(lines) + "\n")
    return folder


def received(store: Store, author: str, archive: Path) -> str:
    """Record ``archive`` as ``author``'s new submission (as the web's intake does)."""
    submission = new_submission_id()
    files = SubmissionFiles.of(store.path.parent / "submissions", submission)
    files.folder.mkdir(parents=True)
    shutil.copyfile(archive, files.archive("tar.gz"))
    store.add_submission(submission, author, archive.name, archive.stat().st_size)
    return submission


def submit(store: Store, author: str, folder: Path, tmp_path: Path) -> str:
    archive = tmp_path / f"{folder.name}-{new_submission_id()}.tar.gz"
    pack(folder, archive)
    return received(store, author, archive)
