"""Per-bot tokens: issued once, stored hashed, replaced, revoked; what ``arena serve`` lets
a token do (one connection at a time, its own bot only, handshakes rate-limited)."""

from __future__ import annotations

import time
from pathlib import Path

import grpc
import pytest

from arena.catalog.remote import hash_token
from arena.remote.lobby import HANDSHAKES_PER_TOKEN, Bucket
from arena.results.store import open_store
from tests.remote import WAIT, arena, handshake, remote, serving


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "arena.db"


def test_a_token_is_shown_once_stored_hashed_and_replaced_by_the_next(db: Path) -> None:
    first = remote(db, "far", games="classic,europe")
    second = arena("bots", "token", "far", "--db", db).stdout.strip()
    assert first != second and first.startswith("arena_") and len(first) > 40
    with open_store(db) as store:
        (row,) = store.remote_bots()
        assert row["games"] == ["classic", "europe"]
        assert row["token_hash"] == hash_token(second)
        assert store.remote_bot_by_token(hash_token(first)) is None
    raw = b"".join(p.read_bytes() for p in db.parent.glob("arena.db*"))
    assert second.encode() not in raw and first.encode() not in raw
    listed = arena("bots", "list", "--db", db)
    assert "far" in listed.stdout and "remote" in listed.stdout


def test_bad_remote_registrations_are_one_line_errors(db: Path) -> None:
    for args, said in [
        (["--remote", "random"], "bundled bot"),
        (["--remote", "x", "--games", "chess"], "--games must name games"),
        (["--remote", "bad name!"], "remote bot name"),
        ([str(db.parent), "--remote", "x"], "not both"),
    ]:
        done = arena("bots", "add", *args, "--db", db)
        assert done.returncode == 2, done
        assert done.stderr.startswith("arena: error: ") and said in done.stderr
        assert "Traceback" not in done.stderr
    unknown = arena("bots", "token", "nobody", "--db", db)
    assert unknown.returncode == 2 and "no remote bot 'nobody'" in unknown.stderr


def test_the_serve_refuses_revoked_replaced_and_unknown_tokens(db: Path) -> None:
    old = remote(db, "far")
    new = arena("bots", "token", "far", "--db", db).stdout.strip()
    with serving(db) as (address, _):
        code, detail, _ = handshake(address, old)
        assert code == grpc.StatusCode.UNAUTHENTICATED and "unknown or revoked" in detail
        code, _, close = handshake(address, new)
        assert code is None
        close()
        assert arena("bots", "revoke", "far", "--db", db).returncode == 0
        code, detail, _ = handshake(address, new)
        assert code == grpc.StatusCode.UNAUTHENTICATED
        code, _, _ = handshake(address, "arena_" + "x" * 43)
        assert code == grpc.StatusCode.UNAUTHENTICATED


def test_one_connection_per_token_at_a_time(db: Path) -> None:
    token = remote(db, "far")
    with serving(db) as (address, _):
        code, _, close = handshake(address, token)
        assert code is None
        code, detail, _ = handshake(address, token)
        assert code == grpc.StatusCode.ALREADY_EXISTS
        assert "already connected" in detail and "'far'" in detail
        close()
        # Once the first stream is gone the token dials in again (polled: the server sees
        # the cancellation a moment later; the handshake limit refills meanwhile).
        deadline = time.monotonic() + WAIT
        while True:
            code, _, again = handshake(address, token)
            again()
            if code is None:
                break
            assert code in (grpc.StatusCode.ALREADY_EXISTS, grpc.StatusCode.RESOURCE_EXHAUSTED)
            assert time.monotonic() < deadline
            time.sleep(0.2)  # between two polls


def test_a_token_cannot_connect_as_another_remote_bot(db: Path) -> None:
    mine = remote(db, "mine")
    remote(db, "theirs")
    with serving(db) as (address, _):
        code, detail, _ = handshake(address, mine, name="theirs")
        assert code == grpc.StatusCode.PERMISSION_DENIED
        assert "'mine'" in detail and "'theirs'" in detail
        code, _, close = handshake(address, mine, name="mine")
        assert code is None
        close()


def test_handshakes_are_rate_limited_per_token(db: Path) -> None:
    token = remote(db, "far")
    with serving(db) as (address, _):
        codes = []  # the bucket holds 5 and refills one a second: dial faster than that
        while grpc.StatusCode.RESOURCE_EXHAUSTED not in codes:
            assert len(codes) < 100, codes
            code, detail, close = handshake(address, token)
            close()
            codes.append(code)
        assert len(codes) > HANDSHAKES_PER_TOKEN[0] and codes[0] is None
        assert "too many handshakes" in detail


def test_a_bucket_refills_at_its_rate() -> None:
    now = [0.0]
    bucket = Bucket(2, 0.5, clock=lambda: now[0])
    assert bucket.take() == 0 and bucket.take() == 0
    assert bucket.take() == pytest.approx(2.0)
    now[0] = 2.0
    assert bucket.take() == 0


def test_failed_handshakes_are_limited_per_address(db: Path) -> None:
    remote(db, "far")  # a bot whose token the guesses never hit
    with serving(db) as (address, _):
        codes = []  # 10 failures at once, then one every 5 s: fail faster than that
        while grpc.StatusCode.RESOURCE_EXHAUSTED not in codes:
            assert len(codes) < 100, codes
            code, detail, _ = handshake(address, "arena_guess")
            codes.append(code)
        assert set(codes) == {grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.RESOURCE_EXHAUSTED}
        assert len(codes) > 10 and "failed handshakes from this address" in detail
