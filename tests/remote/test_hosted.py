"""A hosted arena, ``arena serve --web … --ladder GAME:SEATS --submissions``, as real processes:
its ladder plays the house bots and enters submitted bots once they are accepted; killed with
``kill -9`` mid-build and mid-match, it resumes without losing a submission or recording a
match twice; without every isolation layer it refuses to accept submissions."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from arena.results.store import open_store
from arena.submissions.files import new_submission_id
from tests.processes import marked
from tests.remote import ROOT, WAIT, Lines, arena, stop_server
from tests.submissions import bot_folder, submit
from tests.waiting import wait_until
from tests.web.browser import missing_browser, shown_status

HOUSE = ["--bot", "random", "--bot", "aggressive"]
SMALL = ["--rules", "max_rounds=4", "--workers", "1"]


@contextmanager
def hosting(db: Path, *flags: str) -> Iterator[tuple[subprocess.Popen[str], Lines]]:
    """``arena serve`` hosting a ladder with submissions on, on free ports."""
    command = [sys.executable, "-m", "arena.cli", "serve", "--port", "0", "--db", str(db)]
    command += ["--web", "127.0.0.1:0", "--submissions", *flags]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT
    )
    lines = Lines(process.stdout)
    try:
        lines.wait_for(lambda line: "accepting submissions" in line)
        yield process, lines
    finally:
        stop_server(process)


def read(db: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    """Rows read through a connection of its own, read-only (the serve writes meanwhile)."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as connection:
        return connection.execute(sql, params).fetchall()


def status_of(db: Path, submission: str) -> str:
    return str(read(db, "SELECT status FROM submissions WHERE id = ?", submission)[0][0])


def seated(db: Path, bot: str) -> int:
    """Recorded ladder matches ``bot`` sat in."""
    return int(read(db, "SELECT COUNT(*) FROM seats WHERE bot = ?", bot)[0][0])


def test_an_accepted_submission_enters_the_running_ladder(
    every_layer: None, results_folder: Path, tmp_path: Path
) -> None:
    db = results_folder / "arena.db"
    with open_store(db) as store:
        store.add_author("ann", "hash-ann")
        with hosting(db, "--ladder", "classic:2", *HOUSE, *SMALL) as (_, lines):
            assert wait_until(lambda: seated(db, "random") > 0, WAIT), lines.so_far()
            submission = submit(store, "ann", bot_folder(tmp_path, "ann-bot"), tmp_path)
            assert wait_until(lambda: status_of(db, submission) == "accepted", WAIT)
            assert wait_until(lambda: seated(db, "ann-bot") >= 2, WAIT), lines.so_far()
        (ladder,) = read(db, "SELECT id FROM tournaments WHERE name = 'hosted classic 2p'")
        board = arena("leaderboard", "--tournament", str(ladder[0]), "--json", "--db", db)
        assert board.returncode == 0, board.stderr
        assert '"ann-bot"' in board.stdout


def test_a_serve_killed_mid_build_and_mid_match_resumes_losing_nothing(
    every_layer: None, results_folder: Path, tmp_path: Path
) -> None:
    db = results_folder / "arena.db"
    folder = bot_folder(tmp_path, "ann-slow", setup="python setup_step.py")
    (folder / "setup_step.py").write_text(
        "import time\nprint('setup started', flush=True)\ntime.sleep(3)\n"
    )
    with open_store(db) as store:
        store.add_author("ann", "hash-ann")
        with hosting(db, "--ladder", "classic:2", *HOUSE, *SMALL) as (process, lines):
            assert wait_until(lambda: seated(db, "random") > 0, WAIT), lines.so_far()
            submission = submit(store, "ann", folder, tmp_path)
            log = results_folder / "submissions" / submission / "build.log"
            assert wait_until(lambda: log.exists() and "setup started" in log.read_text(), WAIT)
            process.kill()  # SIGKILL: mid-build, and with ladder matches in flight
            process.wait(WAIT)
        assert status_of(db, submission) == "building"
        before = read(db, "SELECT id, tournament_id, plan_index FROM matches")
        with hosting(db, "--ladder", "classic:2", *HOUSE, *SMALL) as (_, lines):
            assert wait_until(lambda: status_of(db, submission) == "accepted", WAIT), lines.so_far()
            assert wait_until(lambda: seated(db, "ann-slow") >= 1, WAIT), lines.so_far()
    ladders = read(db, "SELECT id FROM tournaments WHERE name = 'hosted classic 2p'")
    assert len(ladders) == 1  # the same ladder resumed, not a second one
    after = read(db, "SELECT id, tournament_id, plan_index FROM matches")
    assert set(before) <= set(after)  # nothing recorded was lost
    indices = [row[2] for row in after]
    assert len(indices) == len(set(indices))  # no match recorded twice
    planned = {row[0] for row in read(db, "SELECT plan_index FROM plan")}
    assert set(indices) <= planned


def test_submissions_are_refused_without_every_isolation_layer(results_folder: Path) -> None:
    """Without bubblewrap on the PATH (and as any user but root) a layer is missing: one line,
    exit 2, and nothing started."""
    db = results_folder / "arena.db"
    done = arena(
        "serve", "--port", "0", "--db", db, "--web", "127.0.0.1:0", "--submissions",
        env={"PATH": str(results_folder)},
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert "--submissions needs every isolation layer" in done.stderr
    assert "listening" not in done.stdout


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--submissions"], "--submissions needs --web HOST:PORT"),
        (["--setup-time", "60"], "--setup-time is for submitted bots"),
        (["--bot", "random"], "--bot is for a hosted ladder: add --ladder GAME:SEATS"),
        (["--ladder", "nogame:2"], "no game 'nogame'"),
        (["--ladder", "4"], "expected GAME:SEATS"),
        (["--web", "localhost"], "expected HOST:PORT"),
        (["--ladder", "classic:2", "--rules", "nosuchrule=1"], "nosuchrule"),
    ],
)
def test_bad_hosting_flags_are_one_line_and_exit_2(
    results_folder: Path, flags: list[str], said: str
) -> None:
    done = arena("serve", "--port", "0", "--db", results_folder / "arena.db", *flags)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr
    assert not (results_folder / "arena.db").exists() or "listening" not in done.stdout


HOSTILE = ROOT / "tests" / "referee" / "hostile_bots"


def hostile_copy(tmp_path: Path, kind: str, name: str) -> Path:
    """A copy of the hostile test bot ``kind`` named ``name``, playing classic."""
    folder = tmp_path / name
    shutil.copytree(HOSTILE / kind, folder, ignore=shutil.ignore_patterns("__pycache__"))
    manifest = folder / "bot.toml"
    manifest.write_text(manifest.read_text().replace(f'name = "{kind}"', f'name = "{name}"'))
    return folder


def hostile_reports(db: Path, bot: str) -> list[dict[str, Any]]:
    """The ``HOSTILE`` lines ``bot`` wrote to its stderr logs in ladder matches."""
    import json

    paths = read(
        db,
        "SELECT DISTINCT seat_logs.path FROM seat_logs JOIN seats USING (match_id, seat)"
        " WHERE seats.bot = ?",
        bot,
    )
    found = []
    for (path,) in paths:
        for line in Path(path).read_text(errors="replace").splitlines():
            if line.startswith("HOSTILE "):
                found.append(json.loads(line.removeprefix("HOSTILE ")))
    return found


def test_submitted_hostile_bots_are_contained(
    every_layer: None, results_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A submitted spy reads neither the database, the key, the submissions nor another
    author's bot; a submitted forker's grandchild does not outlive the serve; a flooder
    (illegal answers, then 1 MiB messages without end) is rejected by its check while the
    other submissions are accepted and play."""
    db = results_folder / "arena.db"
    mark = f"arena-hosted-forker-{new_submission_id()}"
    monkeypatch.setenv("ARENA_TEST_MARK", mark)
    with open_store(db) as store:
        store.add_author("ann", "hash-ann")
        store.add_author("eve", "hash-eve")
        honest = submit(store, "ann", bot_folder(tmp_path, "ann-bot"), tmp_path)
        targets = [
            db,
            results_folder / "secret",
            results_folder / "submissions",
            results_folder / "submissions" / honest / "bot" / "bot.py",
            results_folder / "logs",
        ]
        monkeypatch.setenv("ARENA_TEST_SPY", os.pathsep.join(map(str, targets)))
        spy = submit(store, "eve", hostile_copy(tmp_path, "spy", "eve-spy"), tmp_path)
        forker = submit(store, "eve", hostile_copy(tmp_path, "forker", "eve-forker"), tmp_path)
        flooder = submit(store, "eve", hostile_copy(tmp_path, "flooder", "eve-flood"), tmp_path)
        with hosting(db, "--ladder", "classic:2", "--bot", "random", *SMALL) as (_, lines):
            for submission in (honest, spy, forker):
                assert wait_until(lambda s=submission: status_of(db, s) == "accepted", WAIT), (
                    lines.so_far()
                )
            assert wait_until(lambda: status_of(db, flooder) == "rejected", WAIT)
            assert wait_until(lambda: bool(hostile_reports(db, "eve-spy")), WAIT), lines.so_far()
            assert wait_until(lambda: bool(hostile_reports(db, "eve-forker")), WAIT)
    (report, *_) = hostile_reports(db, "eve-spy")
    assert report["uid"] != os.getuid()
    assert set(report["tried"]) >= set(map(str, targets))
    tried = dict(report["tried"])
    # Its sandbox makes the folders above its own bot folder, each holding only the next one:
    # the submissions folder it lists is that one-entry stand-in, not the real one (three).
    assert tried.pop(str(results_folder / "submissions")) in ("LISTED 1", "PermissionError")
    for path, outcome in tried.items():
        assert not outcome.startswith(("READ", "LISTED")), (path, outcome)
    assert wait_until(lambda: not marked(mark)), "the forker's grandchild outlived the serve"
    with open_store(db) as store:
        reason = str((store.submission(flooder) or {})["reason"])
    assert reason.startswith("check-bot failed: classic:"), reason


def web_url(lines: Lines) -> str:
    """The hosted web's root, from the serve's start-up line."""
    (line,) = [line for line in lines.so_far() if "web pages at " in line]
    return line.split("web pages at ", 1)[1].strip().rstrip("/")


@pytest.mark.skipif(missing_browser() is not None, reason=str(missing_browser()))
def test_three_authors_submit_and_climb_the_ladder(
    every_layer: None, results_folder: Path, tmp_path: Path
) -> None:
    """ann and bob submit with ``arena submit``, carol through the upload form in headless
    chromium; every version is accepted, plays ladder matches beside the house bot, and is
    on the leaderboard; no author reads another's submission."""
    from arena.submissions.pack import pack
    from tests.web.browser import chromium, poll

    db = results_folder / "arena.db"
    tokens = {}
    for author in ("ann", "bob", "carol"):
        added = arena("authors", "add", author, "--db", db)
        assert added.returncode == 0, added.stderr
        tokens[author] = added.stdout.strip()
    with hosting(db, "--ladder", "classic:3", "--bot", "random", *SMALL) as (_, lines):
        url = web_url(lines)
        submitted = {}
        for author in ("ann", "bob"):
            done = arena(
                "submit", bot_folder(tmp_path, f"{author}-bot"), "--to", url, "--wait", "--json",
                env={"ARENA_AUTHOR_TOKEN": tokens[author]},
            )  # fmt: skip
            assert done.returncode == 0, done.stdout + done.stderr
            answers = [json.loads(line) for line in done.stdout.splitlines()]
            assert answers[-1]["status"] == "accepted", answers
            submitted[author] = answers[-1]["id"]
        archive = tmp_path / "carol.tar.gz"
        pack(bot_folder(tmp_path, "carol-bot"), archive)
        with chromium(tmp_path / "profile") as driver:
            driver.get(f"{url}/sign-in")
            driver.find_element("css selector", "#token").send_keys(tokens["carol"])
            driver.find_element("css selector", "#sign-in button").click()
            poll("carol's page", lambda: driver.current_url == f"{url}/me")
            driver.find_element("css selector", "#archive").send_keys(str(archive))
            driver.find_element("css selector", "#upload button").click()
            poll("the submission's page", lambda: "/submissions/" in driver.current_url)
            submitted["carol"] = driver.current_url.rsplit("/", 1)[1]
            poll(
                "carol's bot accepted (the page reloads itself)",
                lambda: shown_status(driver) == "accepted",
                timeout=WAIT,
            )
        for bot in ("ann-bot", "bob-bot", "carol-bot"):
            assert wait_until(lambda b=bot: seated(db, b) >= 2, WAIT), lines.so_far()
        for author, other in (("ann", "bob"), ("bob", "carol"), ("carol", "ann")):
            request = urllib.request.Request(
                f"{url}/api/submissions/{submitted[other]}",
                headers={"Authorization": f"Bearer {tokens[author]}"},
            )
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=WAIT)
            assert refused.value.code == 404
    (ladder,) = read(db, "SELECT id FROM tournaments WHERE name = 'hosted classic 3p'")
    board = arena("leaderboard", "--tournament", str(ladder[0]), "--json", "--db", db)
    assert board.returncode == 0, board.stderr
    ranked = {row["bot"] for row in json.loads(board.stdout)["rows"]}
    assert ranked >= {"random", "ann-bot", "bob-bot", "carol-bot"}


@pytest.mark.slow  # a second local Ray instance beside the Ray tests' own may not start
# within Ray's fixed 30 s on a loaded 2-core machine (`make test-slow` runs it)
def test_hosted_ladders_play_on_ray_and_stop_cleanly(results_folder: Path) -> None:
    """Two hosted ladders on one local Ray instance (a CPU per worker of each), stopped by
    SIGTERM: each plays, and the serve ends with exit 0, its ladders stopped to resume."""
    pytest.importorskip("ray")
    db = results_folder / "arena.db"
    command = [sys.executable, "-m", "arena.cli", "serve", "--port", "0", "--db", str(db)]
    command += ["--ladder", "classic:2", "--ladder", "classic:3", "--executor", "ray"]
    command += ["--bot", "random", "--bot", "aggressive", "--bot", "continent", *SMALL]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT
    )
    lines = Lines(process.stdout)
    try:
        # Ray's local instance may take up to 120 s to come up on a loaded machine
        lines.wait_for(lambda line: "hosted classic 3p" in line, timeout=2 * WAIT)
        played = "SELECT COUNT(DISTINCT tournament_id) FROM matches"
        assert wait_until(lambda: read(db, played)[0][0] == 2, WAIT), lines.so_far()
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(WAIT)
    assert code == 0, lines.so_far()
    statuses = read(db, "SELECT name, status FROM tournaments ORDER BY name")
    assert statuses == [("hosted classic 2p", "stopped"), ("hosted classic 3p", "stopped")]
