"""The builder of submitted bots, on real archives, real setups and real check-bot runs: what
is accepted becomes a registered version; every way to fail is rejected with one line, and
the logs tell more; a build cut short is done again from the start.

Runs with whatever isolation layers the machine allows; the tests that are about a layer
(the setup's seat user, its processes killed) skip without it."""

from __future__ import annotations

import os
import tarfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.results.store import Store, open_store
from arena.submissions.builder import Builder, BuildSettings
from arena.submissions.files import SubmissionFiles, new_submission_id
from tests.processes import marked
from tests.submissions import bot_folder, received, submit
from tests.waiting import wait_until

REPO = Path(__file__).resolve().parents[2]
RANDOM = REPO / "bots" / "random"


@pytest.fixture
def store(results_folder: Path) -> Iterator[Store]:
    with open_store(results_folder / "arena.db") as opened:
        opened.add_author("ann", "hash-ann")
        opened.add_author("bob", "hash-bob")
        yield opened


def build(store: Store, submission: str, **settings: float) -> dict[str, Any]:
    builder = Builder(store.path, store.path.parent / "submissions", BuildSettings(**settings))
    builder.build(store, submission)
    found = store.submission(submission)
    assert found is not None
    return found


def files_of(store: Store, submission: str) -> SubmissionFiles:
    return SubmissionFiles.of(store.path.parent / "submissions", submission)


def test_a_bot_that_passes_is_accepted_and_registered_with_its_setup_output_kept(
    store: Store, tmp_path: Path
) -> None:
    folder = bot_folder(tmp_path, "ann-random", setup="python setup_step.py")
    (folder / "setup_step.py").write_text(
        "import os\nopen('made.txt', 'w').write('x')\nprint('setup ran as uid', os.getuid())\n"
    )
    submission = submit(store, "ann", folder, tmp_path)
    found = build(store, submission)
    assert found["status"] == "accepted", found["reason"]
    assert found["bot"] == "ann-random" and found["games"] == ["classic"]
    versions = store.versions("ann-random")
    assert [v["id"] for v in versions] == [found["version_id"]]
    files = files_of(store, submission)
    assert "setup ran as uid" in files.build_log.read_text()
    assert "ann-random (classic): all checks passed" in files.check_log.read_text()
    registered = {row["name"]: row["path"] for row in store.bots()}
    assert Path(registered["ann-random"]) == files.bot
    assert (files.bot / "made.txt").stat().st_uid == os.getuid()  # handed back after setup
    assert store.bot_author("ann-random") == "ann"
    assert int(found["stored_bytes"]) >= files.bot.joinpath("bot.py").stat().st_size


def test_a_new_submission_of_the_same_bot_is_a_new_version(store: Store, tmp_path: Path) -> None:
    folder = bot_folder(tmp_path, "ann-random")
    first = build(store, submit(store, "ann", folder, tmp_path))
    (folder / "bot.py").write_text((folder / "bot.py").read_text() + "\n# v2\n")
    second = build(store, submit(store, "ann", folder, tmp_path))
    assert first["status"] == second["status"] == "accepted"
    assert first["version_id"] != second["version_id"]
    assert {v["id"] for v in store.versions("ann-random")} == {
        first["version_id"],
        second["version_id"],
    }


def test_a_bot_that_crashes_at_start_is_rejected_with_its_check_report(
    store: Store, tmp_path: Path
) -> None:
    folder = bot_folder(tmp_path, "ann-crash", command="python crash.py")
    (folder / "crash.py").write_text("import sys\nprint('no luck', file=sys.stderr)\nsys.exit(3)\n")
    found = build(store, submit(store, "ann", folder, tmp_path), startup_time=20.0)
    assert found["status"] == "rejected"
    reason = str(found["reason"])
    assert reason.startswith("check-bot failed: classic: connects and says Hello"), reason
    assert "\n" not in reason and str(store.path.parent) not in reason
    report = files_of(store, found["id"]).check_log.read_text()
    assert "FAIL  connects and says Hello" in report
    assert store.versions("ann-crash") == []  # nothing registered
    assert not files_of(store, str(found["id"])).bot.exists()  # the rejected folder is gone


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("<script>alert(1)</script>", "the bot's name in bot.toml must be"),
        ("random", "is taken by a bot the arena already has"),
    ],
)
def test_a_bad_or_taken_name_is_rejected(store: Store, tmp_path: Path, name: str, why: str) -> None:
    from arena.catalog import read_spec
    from arena.scheduler.tournament import register

    register(store, read_spec(RANDOM))  # the operator's own bot
    folder = bot_folder(tmp_path, "x")
    text = (folder / "bot.toml").read_text().replace('name = "x"', f"name = {name!r}")
    (folder / "bot.toml").write_text(text.replace("'", '"'))
    found = build(store, submit(store, "ann", folder, tmp_path))
    assert found["status"] == "rejected" and why in str(found["reason"]), found["reason"]


def test_another_authors_bot_name_is_refused(store: Store, tmp_path: Path) -> None:
    folder = bot_folder(tmp_path, "ann-random")
    assert build(store, submit(store, "ann", folder, tmp_path))["status"] == "accepted"
    found = build(store, submit(store, "bob", folder, tmp_path))
    assert found["status"] == "rejected"
    assert "belongs to another author" in str(found["reason"])
    assert store.bot_author("ann-random") == "ann"


def test_a_failing_setup_is_rejected_with_the_end_of_its_output(
    store: Store, tmp_path: Path
) -> None:
    folder = bot_folder(tmp_path, "ann-broken", setup="python setup_step.py")
    (folder / "setup_step.py").write_text("print('compiling...')\nraise SystemExit('error: no')\n")
    found = build(store, submit(store, "ann", folder, tmp_path))
    assert found["status"] == "rejected"
    assert "exited 1" in str(found["reason"]) and "error: no" in str(found["reason"])
    assert "compiling..." in files_of(store, str(found["id"])).build_log.read_text()


def test_a_setup_past_its_time_limit_is_rejected(store: Store, tmp_path: Path) -> None:
    folder = bot_folder(tmp_path, "ann-slow", setup="python setup_step.py")
    (folder / "setup_step.py").write_text(
        "import time\nprint('waiting', flush=True)\ntime.sleep(600)\n"
    )
    found = build(store, submit(store, "ann", folder, tmp_path), setup_seconds=2.0)
    assert found["status"] == "rejected"
    assert "took longer than 2 s" in str(found["reason"])


def test_a_setup_that_floods_its_output_keeps_only_the_first_megabyte(
    store: Store, tmp_path: Path
) -> None:
    folder = bot_folder(tmp_path, "ann-loud", setup="python setup_step.py")
    (folder / "setup_step.py").write_text(
        "import sys\nfor _ in range(400):\n    sys.stdout.write('x' * 100_000)\nprint()\n"
    )
    found = build(store, submit(store, "ann", folder, tmp_path))
    assert found["status"] == "accepted", found["reason"]
    log = files_of(store, str(found["id"])).build_log
    assert 1_000_000 <= log.stat().st_size < 1_100_000
    assert log.read_text().endswith("[the rest of the output was not kept]\n")


def test_a_setup_leaving_a_link_out_of_the_folder_is_rejected(store: Store, tmp_path: Path) -> None:
    folder = bot_folder(tmp_path, "ann-link", setup="python setup_step.py")
    (folder / "setup_step.py").write_text("import os\nos.symlink('/etc', 'system')\n")
    found = build(store, submit(store, "ann", folder, tmp_path))
    assert found["status"] == "rejected"
    assert found["reason"] == "the setup left a link leading out of the folder: system"


def test_a_hostile_archive_is_rejected_and_writes_nothing_outside(
    store: Store, tmp_path: Path
) -> None:
    archive = tmp_path / "evil.tar.gz"
    target = tmp_path / "outside"
    with tarfile.open(archive, "w:gz") as tar:
        link = tarfile.TarInfo("bot.toml")
        link.type = tarfile.SYMTYPE
        link.linkname = str(target)
        tar.addfile(link)
    submission = received(store, "ann", archive)
    found = build(store, submission)
    assert found["status"] == "rejected"
    assert str(found["reason"]).startswith("archive.tar.gz: member 'bot.toml': a symbolic link")
    assert not target.exists()
    assert sorted(p.name for p in files_of(store, submission).folder.iterdir()) == [
        "archive.tar.gz"
    ]


def test_an_archive_of_the_folder_itself_is_read_from_its_one_folder(
    store: Store, tmp_path: Path
) -> None:
    folder = bot_folder(tmp_path, "ann-nested")
    archive = tmp_path / "nested.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(folder, arcname="ann-nested")
    found = build(store, received(store, "ann", archive))
    assert found["status"] == "accepted", found["reason"]


def test_a_build_cut_short_is_done_again_from_the_start(store: Store, tmp_path: Path) -> None:
    """As after the serve was killed mid-build: the row says ``building`` and the folder
    holds part of a build; the builder's queue finds it and builds it anew."""
    submission = submit(store, "ann", bot_folder(tmp_path, "ann-random"), tmp_path)
    store.set_submission(submission, "building")
    files = files_of(store, submission)
    files.bot.mkdir()
    (files.bot / "half-written").write_text("x")
    assert store.unfinished_submissions() == [submission]
    stopping = threading.Event()
    builder = Builder(store.path, files.folder.parent)
    thread = threading.Thread(target=builder.run, args=(stopping,), daemon=True)
    thread.start()
    try:
        assert wait_until(
            lambda: (store.submission(submission) or {})["status"] == "accepted", 120
        ), store.submission(submission)
    finally:
        stopping.set()
        thread.join(60)
    assert not (files.bot / "half-written").exists()
    assert store.unfinished_submissions() == []


def test_the_setup_runs_as_a_seat_user_and_leaves_no_process_behind(
    every_layer: None, store: Store, tmp_path: Path
) -> None:
    marker = f"arena-daemon-{new_submission_id()}"
    folder = bot_folder(tmp_path, "ann-daemon", setup="python setup_step.py")
    (folder / "setup_step.py").write_text(
        "import os, subprocess, sys\n"
        "print('uid', os.getuid())\n"
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}],"
        " start_new_session=True)\n"
        "open('/etc/arena-owned', 'w')\n"  # a read-only system: refused
    )
    found = build(store, submit(store, "ann", folder, tmp_path))
    assert found["status"] == "rejected"  # writing into /etc failed the setup
    log = files_of(store, str(found["id"])).build_log.read_text()
    uid = int(log.split("uid ", 1)[1].split()[0])
    assert uid != os.getuid() and uid >= 1_000_000
    assert "Read-only file system" in log or "Permission denied" in log
    assert not Path("/etc/arena-owned").exists()
    assert wait_until(lambda: not marked(marker)), "the setup's daemon was not killed"


def test_a_disabled_authors_waiting_submission_is_rejected(store: Store, tmp_path: Path) -> None:
    submission = submit(store, "ann", bot_folder(tmp_path, "ann-random"), tmp_path)
    store.set_author_disabled("ann", True)
    found = build(store, submission)
    assert (found["status"], found["reason"]) == ("rejected", "the author 'ann' is disabled")
    assert store.versions("ann-random") == []
