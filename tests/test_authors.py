"""Authors of a hosted arena: ``arena authors``, their tokens (shown once, stored hashed) and
the bot names they own. Real SQLite files, the real command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.catalog import authors
from arena.catalog.remote import hash_token
from arena.errors import ConfigError
from arena.results.store import StoreError, open_store
from tests.cli_run import Capsys, run


def arena(capsys: Capsys, db: Path, *args: str) -> tuple[int, str, str]:
    return run(capsys, "authors", *args, "--db", str(db))


def one_error(code: int, err: str) -> str:
    assert code == 2 and "Traceback" not in err, err
    (line,) = [line for line in err.splitlines() if line.startswith("arena: error:")]
    return line


def test_add_prints_the_token_alone_and_stores_only_its_hash(
    tmp_path: Path, capsys: Capsys
) -> None:
    db = tmp_path / "arena.db"
    code, out, err = arena(capsys, db, "add", "alice")
    assert code == 0, err
    token = out.strip()
    assert out == token + "\n" and token.startswith(authors.TOKEN_PREFIX)
    assert len(token) > len(authors.TOKEN_PREFIX) + 40
    assert "shown only now" in err
    assert token.encode() not in db.read_bytes()
    with open_store(db) as store:
        (row,) = store.authors()
        assert row["token_hash"] == hash_token(token)
        assert authors.signed_in(store, token) == "alice"
        assert authors.signed_in(store, token + "x") is None
        assert authors.signed_in(store, "arena_" + token[len(authors.TOKEN_PREFIX) :]) is None


def test_tokens_rotate_revoke_and_disable(tmp_path: Path, capsys: Capsys) -> None:
    db = tmp_path / "arena.db"
    first = arena(capsys, db, "add", "alice")[1].strip()
    code, out, err = arena(capsys, db, "token", "alice")
    assert code == 0, err
    second = out.strip()
    assert second != first and out == second + "\n"
    with open_store(db) as store:
        assert authors.signed_in(store, first) is None
        assert authors.signed_in(store, second) == "alice"
    assert arena(capsys, db, "disable", "alice")[0] == 0
    with open_store(db) as store:
        assert authors.signed_in(store, second) is None
    assert arena(capsys, db, "enable", "alice")[0] == 0
    with open_store(db) as store:
        assert authors.signed_in(store, second) == "alice"
    code, out, _ = arena(capsys, db, "revoke", "alice")
    assert (code, out) == (0, "revoked the token of alice\n")
    assert arena(capsys, db, "revoke", "alice")[1] == "alice had no token\n"
    with open_store(db) as store:
        assert authors.signed_in(store, second) is None
    listed = json.loads(arena(capsys, db, "list", "--json")[1])
    assert [(a["name"], a["token"], a["disabled"]) for a in listed] == [("alice", "revoked", False)]


def test_a_bot_name_is_its_first_authors(tmp_path: Path, capsys: Capsys) -> None:
    db = tmp_path / "arena.db"
    for name in ("alice", "bob"):
        assert arena(capsys, db, "add", name)[0] == 0
    with open_store(db) as store:
        store.claim_bot("alice", "fox")
        store.claim_bot("alice", "fox")  # again: hers already
        with pytest.raises(StoreError, match="belongs to another author"):
            store.claim_bot("bob", "fox")
        store.add_bot("house", "python", "the operator's", "/bots/house")
        with pytest.raises(StoreError, match="already has"):
            store.claim_bot("bob", "house")
        assert store.bot_author("fox") == "alice" and store.bot_author("house") is None
    listed = {a["name"]: a["bots"] for a in json.loads(arena(capsys, db, "list", "--json")[1])}
    assert listed == {"alice": ["fox"], "bob": []}
    code, out, _ = arena(capsys, db, "remove", "alice")
    assert code == 0 and "fox" in out and "stay" in out
    with open_store(db) as store:
        assert [a["name"] for a in store.authors()] == ["bob"]
        store.claim_bot("bob", "fox")  # released
        assert store.bot_author("fox") == "bob"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["add", "<script>"], "author name '<script>'"),
        (["add", "_x"], "author name"),
        (["add", "a" * 65], "author name"),
        (["revoke", "nobody"], "no author 'nobody'"),
        (["token", "nobody"], "no author 'nobody'"),
        (["disable", "nobody"], "no author 'nobody'"),
        (["remove", "nobody"], "no author 'nobody'"),
    ],
)
def test_bad_names_and_unknown_authors_are_one_line(
    tmp_path: Path, capsys: Capsys, args: list[str], expected: str
) -> None:
    db = tmp_path / "arena.db"
    assert arena(capsys, db, "add", "alice")[0] == 0
    code, _, err = arena(capsys, db, *args)
    assert expected in one_error(code, err)


def test_a_taken_author_name_is_refused(tmp_path: Path, capsys: Capsys) -> None:
    db = tmp_path / "arena.db"
    assert arena(capsys, db, "add", "alice")[0] == 0
    code, out, err = arena(capsys, db, "add", "alice")
    assert "already exists" in one_error(code, err) and out == ""
    with open_store(db) as store, pytest.raises(ConfigError, match="already exists"):
        authors.add_author(store, "alice")


def test_listing_without_authors_says_how_to_add_one(tmp_path: Path, capsys: Capsys) -> None:
    db = tmp_path / "arena.db"
    with open_store(db):
        pass
    code, out, _ = arena(capsys, db, "list")
    assert code == 0 and "arena authors add" in out
