"""The arena's side of an upload: the archive is stored whole before its row exists, the
quotas refuse with when to try again, and a failure leaves neither file nor row."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from arena.results.store import Store, StoreError, open_store
from arena.submissions.files import SubmissionFiles
from arena.submissions.intake import OverQuota, Quota, archive_name, receive
from arena.submissions.limits import ArchiveRefused, Limits

TAR_GZ = b"\x1f\x8b\x08\x00" + bytes(60)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return open_store(tmp_path / "arena.db")


def test_the_archive_is_in_place_when_the_row_appears(store: Store, tmp_path: Path) -> None:
    root = tmp_path / "submissions"
    seen: list[bytes] = []
    add = store.add_submission

    def checking_add(submission_id: str, *args: object) -> dict[str, object]:
        seen.append(SubmissionFiles.of(root, submission_id).archive("tar.gz").read_bytes())
        return add(submission_id, *args)  # type: ignore[arg-type]

    store.add_submission = checking_add  # type: ignore[method-assign]
    row = receive(store, root, "alice", TAR_GZ, "../../etc/bot.tar.gz")
    assert seen == [TAR_GZ]
    assert row["status"] == "received" and row["archive_name"] == "bot.tar.gz"
    folder = SubmissionFiles.of(root, row["id"]).folder
    assert sorted(p.name for p in folder.iterdir()) == ["archive.tar.gz"]  # no temporary left


def test_a_failed_insert_leaves_no_archive_behind(store: Store, tmp_path: Path) -> None:
    root = tmp_path / "submissions"

    def failing_add(*args: object) -> dict[str, object]:
        raise StoreError("the disk is full")

    store.add_submission = failing_add  # type: ignore[method-assign]
    with pytest.raises(StoreError):
        receive(store, root, "alice", b"PK\x05\x06" + bytes(18), "bot.zip")
    assert list(root.iterdir()) == []


def test_refusals_are_one_line(store: Store, tmp_path: Path) -> None:
    root = tmp_path / "submissions"
    for data, says in (
        (b"", "an empty upload"),
        (b"#!/bin/sh\n", "neither a .tar.gz nor a .zip"),
        (TAR_GZ + bytes(100), "more than the 100 allowed"),
    ):
        with pytest.raises(ArchiveRefused, match=says):
            receive(store, root, "alice", data, "x", limits=Limits(archive_bytes=100))
    assert store.submissions() == []


def test_the_hourly_cap_says_when_the_oldest_leaves_the_window(
    store: Store, tmp_path: Path
) -> None:
    root = tmp_path / "submissions"
    quota = Quota(submissions=2, window_seconds=3600)
    receive(store, root, "alice", TAR_GZ, "a", quota)
    receive(store, root, "alice", TAR_GZ, "b", quota)
    earlier = (datetime.now(UTC) - timedelta(minutes=50)).isoformat(timespec="microseconds")
    store.db.execute("UPDATE submissions SET created_at = ? WHERE archive_name = 'a'", (earlier,))
    store.db.conn.commit()
    with pytest.raises(OverQuota, match="2 submissions in the last hour") as refused:
        receive(store, root, "alice", TAR_GZ, "c", quota)
    assert 590 <= refused.value.retry_after <= 601  # the first leaves the hour in 10 minutes
    receive(store, root, "bob", TAR_GZ, "d", quota)  # another author's quota is their own


def test_the_bytes_cap_counts_what_is_kept_and_this_upload(store: Store, tmp_path: Path) -> None:
    root = tmp_path / "submissions"
    quota = Quota(author_bytes=2 * len(TAR_GZ) + 1)
    row = receive(store, root, "alice", TAR_GZ, "a", quota)
    store.set_submission(row["id"], "accepted", stored_bytes=len(TAR_GZ) + 1)
    receive(store, root, "alice", TAR_GZ, "b", quota)
    with pytest.raises(OverQuota) as refused:
        receive(store, root, "alice", TAR_GZ, "c", quota)
    assert refused.value.retry_after == 3600


def test_archive_names_are_kept_short_and_printable() -> None:
    assert archive_name("C:\\Users\\me\\bot.zip") == "bot.zip"
    assert archive_name("bot\x00\n.tar.gz") == "bot.tar.gz"
    assert archive_name("") == "archive"
    assert len(archive_name("a" * 500)) == 100
