"""``arena replay view`` and ``arena web --port 0`` as real subprocesses: the first line printed
is the URL with the port really listened on, the page and the replay data are served from it,
and Ctrl-C ends the server as it ends every command (exit 130, ``arena: interrupted``)."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import pytest

from arena.cli import main
from arena.results.store import open_store
from tests.web.browser import STARTUP_SECONDS, arena_command


def _first_line(stream: IO[str], seconds: float) -> str:
    """The stream's first line, read on a thread so a server that prints nothing fails the test
    instead of hanging it."""
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: lines.put(stream.readline()), daemon=True).start()
    try:
        return lines.get(timeout=seconds)
    except queue.Empty:
        raise AssertionError(f"nothing printed in {seconds:.0f} s") from None


@contextmanager
def serving(*args: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``arena ARGS`` started; yields the first line it printed and the process (killed at the
    end if the test did not stop it)."""
    server = subprocess.Popen(
        arena_command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert server.stdout is not None
        yield _first_line(server.stdout, STARTUP_SECONDS).strip(), server
    finally:
        if server.poll() is None:
            server.kill()
        server.communicate(timeout=30)


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, answer.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8")


def _interrupt(server: subprocess.Popen[str]) -> tuple[int, str]:
    """Ctrl-C: the exit code and what the server wrote on stderr."""
    server.send_signal(signal.SIGINT)
    _, err = server.communicate(timeout=60)
    return server.returncode, err


def _frames(base: str, match_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    while True:
        status, text = _get(f"{base}/api/matches/{match_id}/frames?start={len(found)}&count=1000")
        assert status == 200, text
        page = json.loads(text)
        found += page["frames"]
        if len(found) >= page["total"]:
            return found


URL = re.compile(r"(http://127\.0\.0\.1:(\d+))/matches/([0-9a-f]+)")


@pytest.mark.parametrize("by", ["file", "match id"])
def test_arena_match_prints_the_view_command_which_serves_its_replay_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], by: str
) -> None:
    monkeypatch.setenv("ARENA_HOME", str(tmp_path))  # the replays folder, for the server too
    args = ["match", "--bot", "random", "--bot", "aggressive", "--seed", "3", "--in-process"]
    assert main([*args, "--rules", "max_rounds=3"]) == 0
    printed = capsys.readouterr().out
    command = re.search(r"^watch it in the browser: arena replay view (\S+)$", printed, re.M)
    assert command is not None, printed
    replay_file = Path(command.group(1))
    records = [json.loads(line) for line in replay_file.read_text().splitlines()]
    ref = str(replay_file) if by == "file" else records[0]["match_id"]
    with serving("replay", "view", ref, "--port", "0") as (first, server):
        found = URL.fullmatch(first)
        assert found is not None, first
        base, port, match_id = found.groups()
        assert int(port) > 0 and match_id == records[0]["match_id"]
        status, page = _get(first)
        assert status == 200
        assert f'data-match="{match_id}"' in page and 'id="map"' in page
        assert all(f">{s['bot']}<" in page for s in records[0]["seats"])
        frames = _frames(base, match_id)
        assert len(frames) == len(records)  # the header's frame, then one per record
        result = records[-1]
        detail = json.loads(_get(f"{base}/api/matches/{match_id}")[1])
        assert [s["place"] for s in detail["seats"]] == result["places_by_seat"]
        assert detail["end_reason"] == result["end"]
        assert _get(f"{base}/")[1] == page  # the front page leads to the match
        assert _get(f"{base}/matches/other")[0] == 404
        code, err = _interrupt(server)
    assert code == 130 and err.strip().splitlines()[-1] == "arena: interrupted"


def test_a_recorded_match_is_viewed_in_its_database(results_db: Path) -> None:
    with open_store(results_db, read_only=True) as store:
        match = store.matches()[0]
    args = ("replay", "view", match["id"], "--db", str(results_db), "--port", "0")
    with serving(*args) as (first, server):
        found = URL.fullmatch(first)
        assert found is not None and found.group(3) == match["id"], first
        status, page = _get(first)
        assert status == 200 and f'data-match="{match["id"]}"' in page
        assert len(_frames(found.group(1), match["id"])) > 1
        code, _ = _interrupt(server)
    assert code == 130


def test_arena_web_on_port_0_prints_the_port_it_got(results_db: Path) -> None:
    with serving("web", "--db", str(results_db), "--port", "0") as (first, server):
        found = re.search(r"at (http://127\.0\.0\.1:(\d+))/ ", first)
        assert found is not None and int(found.group(2)) > 0, first
        status, text = _get(f"{found.group(1)}/api/pools")
        assert status == 200 and json.loads(text)
        code, err = _interrupt(server)
    assert code == 130 and "arena: interrupted" in err


@pytest.mark.parametrize(
    "ref, message",
    [
        ("missing.jsonl", "'missing.jsonl' is neither a replay file nor a recorded match id"),
        ("0123456789ab", "a file, not in the database: arena replay view "),
        ("0123456789ab", "is neither a replay file nor a recorded match id in"),
    ],
)
def test_a_missing_file_or_unknown_id_is_one_line_and_exit_2(
    results_db: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    ref: str,
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ARENA_HOME", str(tmp_path))
    args = ["replay", "view", ref, "--db", str(results_db), "--port", "0"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and message in err, err


def test_a_file_that_is_no_replay_is_refused_before_serving(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    assert main(["replay", "view", str(bad), "--port", "0"]) == 1  # as `arena replay show`
    err = capsys.readouterr().err
    assert err.startswith("arena: error: ") and len(err.strip().splitlines()) == 1
    assert os.path.basename(bad) in err
