"""What the hosted arena's tests share: a copy of the web tests' database with two authors
who own bots that played (and a seat log each), a bot folder to submit, and the application
served by uvicorn on a free port in a background thread."""

from __future__ import annotations

import re
import shutil
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import uvicorn
from fastapi.testclient import TestClient

from arena.catalog import authors
from arena.results.store import open_store
from arena.submissions.intake import Quota
from arena.web.app import create_app
from arena.web.serve import base_url, listening_socket
from tests.web.browser import STARTUP_SECONDS, poll

OWNED = {"alice": "random", "bob": "aggressive"}
"""Who owns which bot of the test database's classic matches (continent stays the
operator's: no author)."""


@dataclass
class Hosted:
    db: Path
    root: Path
    tokens: dict[str, str]
    match_id: str
    logs: dict[int, Path]
    """{seat: its log file} of ``match_id``, every seat's."""
    seats: dict[str, int]
    """{bot: its seat in ``match_id``}."""


def hosted_copy(results_db: Path, folder: Path) -> Hosted:
    """A writable copy of ``results_db`` with authors alice and bob owning random and
    aggressive, and a stderr log recorded for every seat of the first classic match."""
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "arena.db"
    shutil.copyfile(results_db, db)
    db.chmod(0o644)
    with open_store(db) as store:
        tokens = {name: authors.add_author(store, name) for name in OWNED}
    with sqlite3.connect(db) as conn:
        for author, bot in OWNED.items():  # bots the operator's tournaments played, claimed
            conn.execute(
                "INSERT INTO author_bots (bot, author, claimed_at) VALUES (?, ?, '2026')",
                (bot, author),
            )
        (match_id,) = conn.execute(
            "SELECT id FROM matches WHERE game = 'classic' ORDER BY plan_index LIMIT 1"
        ).fetchone()
        seats = dict(conn.execute("SELECT bot, seat FROM seats WHERE match_id = ?", (match_id,)))
        logs = {}
        for bot, seat in seats.items():
            log = folder / "logs" / f"{match_id}-{seat}.log"
            log.parent.mkdir(exist_ok=True)
            log.write_text(f"stderr of {bot} in seat {seat} <b>not markup</b>\n")
            logs[seat] = log
            conn.execute(
                "INSERT INTO seat_logs (match_id, seat, path) VALUES (?, ?, ?)",
                (match_id, seat, str(log)),
            )
    return Hosted(db, folder / "submissions", tokens, match_id, logs, seats)


def bot_folder(folder: Path, name: str = "mybot") -> Path:
    """A small bot folder to pack and submit."""
    folder.mkdir(parents=True)
    (folder / "bot.toml").write_text(
        f'name = "{name}"\nversion = "1.0"\nlanguage = "Python"\ngames = ["classic"]\n'
        'command = "python bot.py"\nentry = "bot:MyBot"\n'
    )
    (folder / "bot.py").write_text("from arena.sdk import Bot\n\n\nclass MyBot(Bot):\n    pass\n")
    return folder


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def form_csrf(html: str) -> str:
    """The CSRF token in a page's form."""
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "the page has a form with a CSRF field"
    return found.group(1)


def sign_in(client: TestClient, token: str) -> None:
    """Sign ``client`` in through the sign-in form."""
    page = client.get("/sign-in")
    answer = client.post(
        "/sign-in", data={"token": token, "csrf": form_csrf(page.text)}, follow_redirects=False
    )
    assert answer.status_code == 303, answer.text


@contextmanager
def hosted_client(hosted: Hosted, quota: Quota | None = None) -> Iterator[TestClient]:
    with TestClient(create_app(hosted.db, submissions=hosted.root, quota=quota)) as client:
        yield client


@contextmanager
def hosted_server(db: Path, root: Path, quota: Quota | None = None) -> Iterator[str]:
    """The hosted application on a free port, served by uvicorn in a thread; its base URL."""
    app = create_app(db, submissions=root, quota=quota)
    bound = listening_socket("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [bound]}, daemon=True)
    thread.start()
    try:
        poll("uvicorn to start", lambda: server.started or not thread.is_alive(), STARTUP_SECONDS)
        assert thread.is_alive(), "the server stopped while starting"
        yield base_url("127.0.0.1", bound)
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        bound.close()
