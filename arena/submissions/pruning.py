"""Freeing what superseded submissions keep on disk: the unpacked folder (with what its
setup installed) of an accepted version that a newer version of its bot replaced and that
nothing may play any more. The archive and the logs stay, so the author's page still shows
them and the version could be built again; the author's stored bytes shrink by the folder."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from arena.results.store import Store
from arena.submissions.builder import clear_folder
from arena.submissions.files import SubmissionFiles, tree_bytes


@dataclass(frozen=True)
class Pruned:
    """One submission's folder removed (or, in a dry run, removable)."""

    submission_id: str
    author: str
    bot: str
    version_id: str
    freed: int


def prunable(store: Store, root: Path, author: str | None = None) -> list[Pruned]:
    """Accepted submissions whose folder is still there but is no longer their bot's
    registered folder, and whose version no unfinished ladder or unplayed match holds."""
    registered = {row["name"]: Path(row["path"]) for row in store.bots()}
    found = []
    for row in store.submissions(author, limit=1_000_000):
        if row["status"] != "accepted" or not row["version_id"]:
            continue
        files = SubmissionFiles.of(root, row["id"])
        if not files.bot.is_dir() or registered.get(row["bot"]) == files.bot:
            continue
        if store.version_in_use(row["version_id"]):
            continue
        found.append(
            Pruned(row["id"], row["author"], row["bot"], row["version_id"], tree_bytes(files.bot))
        )
    return found


def prune(store: Store, root: Path, author: str | None = None) -> list[Pruned]:
    """Remove every prunable folder; what was removed."""
    done = prunable(store, root, author)
    for each in done:
        files = SubmissionFiles.of(root, each.submission_id)
        clear_folder(files.bot)
        store.set_stored_bytes(each.submission_id, tree_bytes(files.folder))
    return done
