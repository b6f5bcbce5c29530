"""``arena submit`` against a real hosted arena (uvicorn on a free port): the folder packed
and uploaded with the token from the environment, the verdict waited for, and every failure
one line with exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.catalog import authors
from arena.results.store import open_store
from arena.submissions.files import SubmissionFiles
from arena.submissions.intake import Quota
from arena.submissions.pack import pack
from tests.cli_run import Capsys, run
from tests.web.browser import arena_command, free_port, poll
from tests.web.hosted import bot_folder, hosted_server


@pytest.fixture
def arena(tmp_path: Path) -> Iterator[tuple[str, Path, Path, str]]:
    """A hosted arena's URL, database and submissions folder, and alice's token."""
    db, root = tmp_path / "arena.db", tmp_path / "submissions"
    with open_store(db) as store:
        token = authors.add_author(store, "alice")
    with hosted_server(db, root, Quota(submissions=3)) as url:
        yield url, db, root, token


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return bot_folder(tmp_path / "mybot")


def one_line(code: int, err: str) -> str:
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err.strip()


def test_submit_packs_and_uploads_the_folder(
    arena: tuple[str, Path, Path, str],
    folder: Path,
    tmp_path: Path,
    capsys: Capsys,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, db, root, token = arena
    monkeypatch.setenv("ARENA_AUTHOR_TOKEN", token)
    code, out, err = run(capsys, "submit", str(folder), "--to", url + "/")
    assert code == 0, err
    with open_store(db) as store:
        (row,) = store.submissions("alice")
    assert out == f"submission {row['id']} received\n"
    expected = tmp_path / "expected.tar.gz"
    pack(folder, expected)
    stored = SubmissionFiles.of(root, row["id"]).archive("tar.gz")
    assert stored.read_bytes() == expected.read_bytes()  # packing is deterministic
    assert row["archive_name"] == "mybot.tar.gz"

    code, out, err = run(capsys, "submit", str(folder), "--to", url, "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["status"] == "received" and answer["url"] == f"{url}/submissions/{answer['id']}"


def test_submit_waits_for_the_verdict(
    arena: tuple[str, Path, Path, str],
    folder: Path,
    capsys: Capsys,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, db, _, token = arena
    monkeypatch.setenv("ARENA_AUTHOR_TOKEN", token)

    def reject_when_received() -> None:  # what the builder would do
        with open_store(db) as store:
            row = poll("the submission", lambda: store.submissions("alice"))[0]
            store.set_submission(row["id"], "building")
            store.set_submission(row["id"], "rejected", reason="setup failed:\nexit 1")

    judge = threading.Thread(target=reject_when_received)
    judge.start()
    code, out, err = run(capsys, "submit", str(folder), "--to", url, "--wait", "--timeout", "60")
    judge.join()
    assert code == 1, err
    first, final = out.splitlines()
    submission_id = first.split()[1]
    assert first == f"submission {submission_id} received"
    assert final == f"submission {submission_id} rejected: setup failed: exit 1"


def test_submit_gives_up_waiting_after_its_timeout(
    arena: tuple[str, Path, Path, str],
    folder: Path,
    capsys: Capsys,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, _, _, token = arena
    monkeypatch.setenv("ARENA_AUTHOR_TOKEN", token)
    code, out, err = run(capsys, "submit", str(folder), "--to", url, "--wait", "--timeout", "0.1")
    assert "still received after 0.1 s" in one_line(code, err)
    assert out.startswith("submission ")


def test_submit_failures_are_one_line(
    arena: tuple[str, Path, Path, str],
    folder: Path,
    tmp_path: Path,
    capsys: Capsys,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url, db, _, token = arena
    monkeypatch.delenv("ARENA_AUTHOR_TOKEN", raising=False)
    code, _, err = run(capsys, "submit", str(folder), "--to", url)
    assert "ARENA_AUTHOR_TOKEN" in one_line(code, err)

    monkeypatch.setenv("ARENA_AUTHOR_TOKEN", "arena_author_wrong")
    code, _, err = run(capsys, "submit", str(folder), "--to", url)
    assert one_line(code, err).startswith("arena submit: 401 no valid author token")

    monkeypatch.setenv("ARENA_AUTHOR_TOKEN", token)
    code, _, err = run(capsys, "submit", str(tmp_path / "nowhere"), "--to", url)
    assert "not a bot folder" in one_line(code, err)

    code, _, err = run(capsys, "submit", str(folder), "--to", "ftp://example")
    assert "give the arena's web address" in one_line(code, err)

    code, _, err = run(capsys, "submit", str(folder), "--to", f"http://127.0.0.1:{free_port()}")
    assert one_line(code, err).startswith("arena submit: cannot reach http://127.0.0.1:")

    for _ in range(3):
        assert run(capsys, "submit", str(folder), "--to", url)[0] == 0
    code, _, err = run(capsys, "submit", str(folder), "--to", url)
    line = one_line(code, err)
    assert line.startswith("arena submit: 429 3 submissions in the last hour")
    assert line.endswith(" s)") and "(retry after " in line

    with open_store(db) as store:
        store.set_author_disabled("alice", True)
    code, _, err = run(capsys, "submit", str(folder), "--to", url)
    assert one_line(code, err).startswith("arena submit: 401 ")


def test_submit_as_a_command(arena: tuple[str, Path, Path, str], folder: Path) -> None:
    url, db, _, token = arena
    done = subprocess.run(
        arena_command("submit", str(folder), "--to", url),
        env={**os.environ, "ARENA_AUTHOR_TOKEN": token},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    with open_store(db) as store:
        (row,) = store.submissions("alice")
    assert done.stdout == f"submission {row['id']} received\n"
