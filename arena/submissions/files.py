"""Where a submission's files live on the arena's machine: one folder per submission under
``<results home>/submissions/``, holding the archive as uploaded, the unpacked bot folder
(the version's folder once accepted), and the build and check logs the author may read."""

from __future__ import annotations

import os
import re
import uuid
from dataclasses import dataclass
from pathlib import Path

from arena.paths import database_home

SUBMISSION_ID = re.compile(r"[0-9a-f]{16}")
"""A submission id: 16 hex digits (random, so one author cannot guess another's)."""


def new_submission_id() -> str:
    return uuid.uuid4().hex[:16]


def submissions_root(db: Path) -> Path:
    """The submissions folder of a results database (beside its logs)."""
    return database_home(db) / "submissions"


@dataclass(frozen=True)
class SubmissionFiles:
    """The paths of one submission's files."""

    folder: Path

    @classmethod
    def of(cls, root: Path, submission_id: str) -> SubmissionFiles:
        if not SUBMISSION_ID.fullmatch(submission_id):
            raise ValueError(f"not a submission id: {submission_id!r}")
        return cls(root / submission_id)

    def archive(self, kind: str) -> Path:
        """The upload as received; ``kind`` is ``tar.gz`` or ``zip``."""
        return self.folder / f"archive.{kind}"

    def received(self) -> Path | None:
        """The stored upload, whichever its kind, or None."""
        for kind in ("tar.gz", "zip"):
            if self.archive(kind).is_file():
                return self.archive(kind)
        return None

    @property
    def bot(self) -> Path:
        """The unpacked bot folder (a version's folder once accepted)."""
        return self.folder / "bot"

    @property
    def build_log(self) -> Path:
        """The setup's output."""
        return self.folder / "build.log"

    @property
    def check_log(self) -> Path:
        """The check's report, one section per game."""
        return self.folder / "check.log"


def tree_bytes(path: Path) -> int:
    """The bytes of every regular file under ``path`` (links are not followed)."""
    total = 0
    for folder, _, names in os.walk(path):
        for name in names:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except OSError:
                continue
    return total
