"""``arena submissions list|show|requeue``: the operator's view of every author's builds."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from arena.cli import main
from arena.results.store import open_store
from arena.submissions.builder import Builder
from arena.submissions.files import SubmissionFiles, submissions_root
from tests.submissions import bot_folder, submit


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A database with ann's accepted bot and bob's rejected one (a crash at start)."""
    path = Path(os.environ["ARENA_HOME"]) / "arena.db"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open_store(path) as store:
        store.add_author("ann", "hash-ann")
        store.add_author("bob", "hash-bob")
        good = bot_folder(tmp_path, "ann-bot")
        bad = bot_folder(tmp_path, "bob-bot", command="python crash.py")
        (bad / "crash.py").write_text("raise SystemExit(3)\n")
        builder = Builder(path, submissions_root(path))
        for author, folder in (("ann", good), ("bob", bad)):
            builder.build(store, submit(store, author, folder, tmp_path))
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["submissions", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_list_shows_everyone_s_newest_first_and_filters(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "list", "--json", "--db", str(db))
    rows = json.loads(out)
    assert code == 0 and [row["author"] for row in rows] == ["bob", "ann"]
    assert [row["status"] for row in rows] == ["rejected", "accepted"]
    code, out, _ = run(capsys, "list", "--status", "accepted", "--db", str(db))
    assert code == 0 and "ann-bot" in out and "bob" not in out
    code, out, _ = run(capsys, "list", "--author", "bob", "--db", str(db))
    assert "check-bot failed" in out and "ann" not in out


def test_show_prints_the_reason_and_the_logs_and_requeue_builds_it_again(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with open_store(db) as store:
        (rejected,) = [row for row in store.submissions() if row["status"] == "rejected"]
    code, out, _ = run(capsys, "show", rejected["id"], "--db", str(db))
    assert code == 0 and "status      rejected" in out and "--- check log" in out
    assert "FAIL  connects and says Hello" in out
    assert run(capsys, "requeue", rejected["id"], "--db", str(db))[0] == 0
    with open_store(db) as store:
        again = store.submission(rejected["id"]) or {}
        assert (again["status"], again["reason"], again["finished_at"]) == ("received", None, None)
        assert store.unfinished_submissions() == [rejected["id"]]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["show", "0123456789abcdef"], "no submission '0123456789abcdef'"),
        (["show", "../../etc"], "no submission '../../etc'"),
        (["list", "--limit", "0"], "--limit must be at least 1"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    db: Path, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    code, out, err = run(capsys, *args, "--db", str(db))
    assert code == 2 and out == "" and err.count("\n") == 1 and said in err, err


def test_requeue_refuses_what_is_not_rejected(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(db) as store:
        (accepted,) = [row for row in store.submissions() if row["status"] == "accepted"]
    code, _, err = run(capsys, "requeue", accepted["id"], "--db", str(db))
    assert code == 2 and "is accepted; only a rejected one" in err


def test_prune_frees_superseded_versions_nothing_plays(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ann's first version, replaced by a second and in no ladder, loses its folder (its
    archive and logs stay, and her stored bytes shrink); the current one keeps it; a
    version a ladder still holds keeps it too."""
    from arena.submissions.files import SubmissionFiles

    root = submissions_root(db)
    with open_store(db) as store:
        (first,) = [row for row in store.submissions("ann")]
        folder = tmp_path / "ann-bot"
        (folder / "bot.py").write_text((folder / "bot.py").read_text() + "\n# v2\n")
        second = submit(store, "ann", folder, tmp_path)
        Builder(db, root).build(store, second)
        before = (store.submission(first["id"]) or {})["stored_bytes"]
    code, out, _ = run(capsys, "prune", "--dry-run", "--db", str(db))
    assert code == 0 and "1 superseded folder(s): would free" in out and first["id"] in out
    assert SubmissionFiles.of(root, first["id"]).bot.is_dir()  # a dry run removes nothing
    code, out, _ = run(capsys, "prune", "--db", str(db))
    assert code == 0 and f"{first['id']}" in out and second not in out
    old = SubmissionFiles.of(root, first["id"])
    assert not old.bot.exists() and old.received() is not None and old.check_log.exists()
    assert SubmissionFiles.of(root, second).bot.is_dir()
    with open_store(db) as store:
        assert (store.submission(first["id"]) or {})["stored_bytes"] < before
    assert "0 superseded folder(s)" in run(capsys, "prune", "--db", str(db))[1]


def test_prune_keeps_a_version_a_ladder_still_holds(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from arena.scheduler import ladder
    from arena.scheduler.tournament import TournamentSettings

    root = submissions_root(db)
    with open_store(db) as store:
        (first,) = store.submissions("ann")
        settings = TournamentSettings(bots=["ann-bot", "random"], format="ladder", seats=2)
        ladder.create(store, settings)
        folder = tmp_path / "ann-bot"
        (folder / "bot.py").write_text((folder / "bot.py").read_text() + "\n# v2\n")
        Builder(db, root).build(store, submit(store, "ann", folder, tmp_path))
    code, out, _ = run(capsys, "prune", "--db", str(db))
    assert code == 0 and "0 superseded folder(s)" in out, out
    assert SubmissionFiles.of(root, first["id"]).bot.is_dir()
