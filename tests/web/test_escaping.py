"""No HTML from a bot's ``bot.toml`` reaches a page unescaped: a bot named and described
with markup plays a real tournament, and every page that names it shows the text, not tags."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from arena.cli import main
from arena.results.store import open_store
from arena.web.app import create_app

NAME = '<img src=x onerror="alert(1)">'
DESCRIPTION = "<script>alert(2)</script>"
RAW = ("<img src=x", "<script>alert(2)", 'onerror="alert(1)"')
"""What must never appear in a page as it was written."""


@pytest.fixture(scope="module")
def hostile_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("escaping")
    folder = home / "markup-bot"
    shutil.copytree(Path(__file__).resolve().parents[2] / "bots" / "random", folder)
    toml = folder / "bot.toml"
    text = toml.read_text().replace('name = "random"', f"name = '{NAME}'")
    text = "\n".join(
        f"description = '{DESCRIPTION}'" if line.startswith("description") else line
        for line in text.splitlines()
    )
    toml.write_text(text + "\n")
    db = home / "arena.db"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ARENA_HOME", str(home))
        for extra in ([], ["--format", "ladder", "--matches", "3"]):
            args = ["tournament", "run", "--bot", str(folder), "--bot", "aggressive", *extra]
            args += ["--rules", "max_rounds=4", "--in-process", "--no-progress", "--db", str(db)]
            assert main(args) == 0
    yield db


@pytest.fixture(scope="module")
def hostile_client(hostile_db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(hostile_db)) as client:
        yield client


def test_markup_in_a_bots_name_and_description_is_escaped_on_every_page(
    hostile_db: Path, hostile_client: TestClient
) -> None:
    with open_store(hostile_db, read_only=True) as store:
        tournaments = [t["id"] for t in store.tournaments()]
        matches = [m["id"] for m in store.matches()]
    pages = ["/", "/tournaments", f"/bots/{quote(NAME, safe='')}"]
    pages += [f"/tournaments/{t}" for t in tournaments]
    pages += [f"/fragments/tournaments/{t}/live" for t in tournaments]
    pages += [f"/matches/{m}" for m in matches[:2]]
    for page in pages:
        answer = hostile_client.get(page)
        assert answer.status_code == 200, (page, answer.status_code)
        for raw in RAW:
            assert raw not in answer.text, (page, raw)
    # The text itself is there, escaped, where the bot is named.
    assert "&lt;img src=x" in hostile_client.get("/").text
    bot_page = hostile_client.get(f"/bots/{quote(NAME, safe='')}").text
    assert "&lt;script&gt;alert(2)" in bot_page
