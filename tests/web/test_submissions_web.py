"""The hosted arena's web side: uploads through the API and the pages' form, who may see
what (a submission, its page, a bot's seat log: its author's alone, 404 for anyone else),
sign-in sessions and their cookie, CSRF on every form, the quotas and limits, and the
read-only arena left without any of it."""

from __future__ import annotations

import io
import sqlite3
import tarfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from arena.catalog import authors
from arena.results.store import open_store
from arena.submissions.files import SubmissionFiles
from arena.submissions.intake import Quota
from arena.submissions.limits import ARCHIVE_BYTES
from arena.submissions.pack import pack
from arena.web.app import create_app
from tests.web.hosted import (
    Hosted,
    bearer,
    bot_folder,
    form_csrf,
    hosted_client,
    hosted_copy,
    sign_in,
)


@pytest.fixture
def hosted(results_db: Path, tmp_path: Path) -> Hosted:
    return hosted_copy(results_db, tmp_path / "hosted")


@pytest.fixture
def archive(tmp_path: Path) -> bytes:
    """A real packed bot folder, as ``arena submit`` sends it."""
    out = tmp_path / "mybot.tar.gz"
    pack(bot_folder(tmp_path / "mybot"), out)
    return out.read_bytes()


def upload(client: TestClient, token: str, data: bytes, name: str = "mybot.tar.gz") -> object:
    return client.post("/api/submissions", files={"archive": (name, data)}, headers=bearer(token))


def rows(db: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT id, author, status FROM submissions ORDER BY rowid").fetchall()


def test_an_upload_through_the_api_is_stored_then_recorded_received(
    hosted: Hosted, archive: bytes
) -> None:
    with hosted_client(hosted) as client:
        answer = client.post(
            "/api/submissions",
            files={"archive": ("mybot.tar.gz", archive)},
            headers=bearer(hosted.tokens["alice"]),
        )
        assert answer.status_code == 201, answer.text
        made = answer.json()
        assert made["status"] == "received"
        assert made["url"].endswith(f"/submissions/{made['id']}")
        assert rows(hosted.db) == [(made["id"], "alice", "received")]
        stored = SubmissionFiles.of(hosted.root, made["id"]).archive("tar.gz")
        assert stored.read_bytes() == archive
        with tarfile.open(fileobj=io.BytesIO(stored.read_bytes())) as tar:
            assert sorted(tar.getnames()) == ["bot.py", "bot.toml"]

        shown = client.get(f"/api/submissions/{made['id']}", headers=bearer(hosted.tokens["alice"]))
        assert shown.status_code == 200
        assert shown.json() == {
            "id": made["id"],
            "author": "alice",
            "status": "received",
            "reason": None,
            "bot": None,
            "version_id": None,
            "games": [],
            "created_at": shown.json()["created_at"],
            "updated_at": shown.json()["created_at"],
            "finished_at": None,
            "archive_bytes": len(archive),
        }
        listed = client.get("/api/submissions", headers=bearer(hosted.tokens["alice"])).json()
        assert [s["id"] for s in listed] == [made["id"]]


def test_a_zip_is_taken_too(hosted: Hosted) -> None:
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("bot.toml", 'name = "zipped"\n')
    with hosted_client(hosted) as client:
        answer = upload(client, hosted.tokens["bob"], buffer.getvalue(), "zipped.zip")
        assert answer.status_code == 201
        files = SubmissionFiles.of(hosted.root, answer.json()["id"])
        assert files.archive("zip").read_bytes() == buffer.getvalue()


def test_no_wrong_revoked_or_reissued_token_and_a_disabled_author_are_401(
    hosted: Hosted, archive: bytes
) -> None:
    with hosted_client(hosted) as client:
        for headers in (
            {},
            bearer("arena_author_wrong"),
            bearer("nonsense"),
            {"Authorization": "Basic x"},
        ):
            answer = client.post(
                "/api/submissions", files={"archive": ("a.tar.gz", archive)}, headers=headers
            )
            assert answer.status_code == 401
            assert answer.json()["status"] == 401 and "token" in answer.json()["error"]
            assert answer.headers["www-authenticate"] == "Bearer"
        with open_store(hosted.db) as store:
            authors.revoke_token(store, "alice")
            store.set_author_disabled("bob", True)
        assert upload(client, hosted.tokens["alice"], archive).status_code == 401
        assert upload(client, hosted.tokens["bob"], archive).status_code == 401
        with open_store(hosted.db) as store:
            store.set_author_disabled("bob", False)
            old = hosted.tokens["bob"]
            new = authors.issue_token(store, "bob")
        assert upload(client, old, archive).status_code == 401
        assert upload(client, new, archive).status_code == 201
    assert [row[1] for row in rows(hosted.db)] == ["bob"]


def test_the_hourly_cap_answers_429_with_when_to_retry(hosted: Hosted, archive: bytes) -> None:
    with hosted_client(hosted, Quota(submissions=2)) as client:
        for _ in range(2):
            assert upload(client, hosted.tokens["alice"], archive).status_code == 201
        refused = upload(client, hosted.tokens["alice"], archive)
        assert refused.status_code == 429
        assert 3500 <= int(refused.headers["retry-after"]) <= 3600
        assert "2 submissions in the last hour" in refused.json()["error"]
        assert upload(client, hosted.tokens["bob"], archive).status_code == 201  # per author
    assert len(rows(hosted.db)) == 3


def test_the_bytes_an_author_keeps_are_capped(hosted: Hosted, archive: bytes) -> None:
    with hosted_client(hosted, Quota(author_bytes=len(archive) * 2)) as client:
        for _ in range(2):
            assert upload(client, hosted.tokens["alice"], archive).status_code == 201
        refused = upload(client, hosted.tokens["alice"], archive)
        assert refused.status_code == 429
        assert refused.headers["retry-after"] == "3600"
        assert f"{len(archive) * 2:,} allowed" in refused.json()["error"]


def test_an_archive_over_the_limit_is_413_and_nothing_is_kept(hosted: Hosted) -> None:
    over = b"\x1f\x8b" + bytes(ARCHIVE_BYTES - 1)  # one byte past the limit
    with hosted_client(hosted) as client:
        answer = upload(client, hosted.tokens["alice"], over)
        assert answer.status_code == 413
        assert f"{ARCHIVE_BYTES:,}" in answer.json()["error"]
        far_over = upload(client, hosted.tokens["alice"], over + bytes(200_000))
        assert far_over.status_code == 413  # refused by the bound on bodies
        assert far_over.json()["status"] == 413
    assert rows(hosted.db) == []
    assert not hosted.root.exists() or not any(hosted.root.iterdir())


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"just some text", "neither a .tar.gz nor a .zip"),
        (b"", "an empty upload"),
        (b"PK\x01\x02 not a zip start", "neither a .tar.gz nor a .zip"),
    ],
)
def test_what_is_not_an_archive_is_refused_in_one_line(
    hosted: Hosted, data: bytes, says: str
) -> None:
    with hosted_client(hosted) as client:
        answer = upload(client, hosted.tokens["alice"], data, "notes.txt")
    assert answer.status_code == 422
    assert says in answer.json()["error"] and "\n" not in answer.json()["error"]
    assert rows(hosted.db) == []


def test_an_upload_without_the_archive_field_is_400(hosted: Hosted) -> None:
    with hosted_client(hosted) as client:
        answer = client.post(
            "/api/submissions",
            files={"other": ("a.tar.gz", b"\x1f\x8b")},
            headers=bearer(hosted.tokens["alice"]),
        )
    assert answer.status_code == 400
    assert "'archive'" in answer.json()["error"]


def test_an_author_never_sees_anothers_submission(hosted: Hosted, archive: bytes) -> None:
    with hosted_client(hosted) as client:
        theirs = upload(client, hosted.tokens["bob"], archive).json()["id"]
        alice = bearer(hosted.tokens["alice"])
        hidden = client.get(f"/api/submissions/{theirs}", headers=alice)
        unknown = client.get("/api/submissions/0123456789abcdef", headers=alice)
        assert hidden.status_code == unknown.status_code == 404
        assert hidden.json()["error"] == f"no submission {theirs!r}"
        assert client.get("/api/submissions", headers=alice).json() == []
        assert client.get(f"/api/submissions/{theirs}").status_code == 401

        sign_in(client, hosted.tokens["alice"])
        page = client.get(f"/submissions/{theirs}")
        assert page.status_code == 404 and "received" not in page.text
        assert client.get(f"/api/submissions/{theirs}").status_code == 404  # by session too
        assert client.get("/submissions/../../etc").status_code == 404

    with hosted_client(hosted) as anonymous:
        assert anonymous.get(f"/submissions/{theirs}").status_code == 404


def test_a_seat_log_is_its_bots_authors_alone(hosted: Hosted) -> None:
    match = hosted.match_id
    alice_seat, bob_seat = hosted.seats["random"], hosted.seats["aggressive"]
    operators_seat = hosted.seats["continent"]
    with hosted_client(hosted) as client:
        assert client.get(f"/matches/{match}/seats/{alice_seat}/log").status_code == 404
        sign_in(client, hosted.tokens["alice"])
        mine = client.get(f"/matches/{match}/seats/{alice_seat}/log")
        assert mine.status_code == 200
        assert mine.text == hosted.logs[alice_seat].read_text()
        assert mine.headers["content-type"].startswith("text/plain")
        assert mine.headers["x-content-type-options"] == "nosniff"
        for seat in (bob_seat, operators_seat, 9):
            assert client.get(f"/matches/{match}/seats/{seat}/log").status_code == 404

        page = client.get(f"/matches/{match}").text
        assert f'href="/matches/{match}/seats/{alice_seat}/log"' in page
        assert f"/seats/{bob_seat}/log" not in page and f"/seats/{operators_seat}/log" not in page

    with hosted_client(hosted) as client:
        sign_in(client, hosted.tokens["bob"])
        assert client.get(f"/matches/{match}/seats/{bob_seat}/log").status_code == 200
        assert client.get(f"/matches/{match}/seats/{alice_seat}/log").status_code == 404
        assert f"/seats/{alice_seat}/log" not in client.get(f"/matches/{match}").text


def test_a_long_seat_log_is_shown_from_its_end(hosted: Hosted) -> None:
    seat = hosted.seats["random"]
    hosted.logs[seat].write_text("early line\n" * 30_000 + "the last line\n")
    with hosted_client(hosted) as client:
        sign_in(client, hosted.tokens["alice"])
        shown = client.get(f"/matches/{hosted.match_id}/seats/{seat}/log").text
    assert shown.startswith("[the first ") and shown.endswith("the last line\n")
    assert len(shown.encode()) < 200_100


def test_signing_in_sets_a_session_cookie_scripts_cannot_read(hosted: Hosted) -> None:
    with hosted_client(hosted) as client:
        page = client.get("/sign-in")
        answer = client.post(
            "/sign-in",
            data={"token": hosted.tokens["alice"], "csrf": form_csrf(page.text)},
            follow_redirects=False,
        )
        assert answer.status_code == 303 and answer.headers["location"] == "/me"
        cookie = next(
            c for c in answer.headers.get_list("set-cookie") if c.startswith("arena_session=")
        )
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
        assert "Secure" not in cookie  # plain http: a Secure cookie would never come back
        me = client.get("/me")
        assert me.status_code == 200 and "<h1>alice</h1>" in me.text
        assert 'href="/bots/random"' in me.text  # her bot's ratings over time and matches
        assert 'href="/bots/random#opponents"' in me.text  # and its pairwise results

    # Behind a proxy that says the browser used https, and over https itself: Secure.
    app = create_app(hosted.db, submissions=hosted.root)
    for base, headers in (
        ("http://testserver", {"X-Forwarded-Proto": "https"}),
        ("https://testserver", {}),
    ):
        with TestClient(app, base_url=base) as client:
            page = client.get("/sign-in", headers=headers)
            double = page.cookies["arena_sign_in"]  # Secure: the http client would not send it
            answer = client.post(
                "/sign-in",
                data={"token": hosted.tokens["bob"], "csrf": form_csrf(page.text)},
                headers={**headers, "Cookie": f"arena_sign_in={double}"},
                follow_redirects=False,
            )
            cookie = next(
                c for c in answer.headers.get_list("set-cookie") if c.startswith("arena_session=")
            )
            assert "Secure" in cookie and "HttpOnly" in cookie, base


def test_the_sign_in_form_needs_its_own_cookie(hosted: Hosted) -> None:
    with hosted_client(hosted) as client:
        forged = client.post(
            "/sign-in",
            data={"token": hosted.tokens["alice"], "csrf": "made-up"},
            follow_redirects=False,
        )
        assert forged.status_code == 403
        assert "arena_session" not in forged.headers.get("set-cookie", "")


def test_a_session_ends_with_sign_out_revocation_reissue_or_disabling(hosted: Hosted) -> None:
    with hosted_client(hosted) as client:
        sign_in(client, hosted.tokens["alice"])
        csrf = form_csrf(client.get("/me").text)
        assert client.post("/sign-out", data={"csrf": "wrong"}).status_code == 403
        assert client.get("/me", follow_redirects=False).status_code == 200
        out = client.post("/sign-out", data={"csrf": csrf}, follow_redirects=False)
        assert out.status_code == 303
        assert client.get("/me", follow_redirects=False).headers["location"] == "/sign-in"

    for end in ("revoke", "reissue", "disable"):
        with hosted_client(hosted) as client:
            with open_store(hosted.db) as store:
                store.set_author_disabled("bob", False)
                hosted.tokens["bob"] = authors.issue_token(store, "bob")
            sign_in(client, hosted.tokens["bob"])
            assert client.get("/me", follow_redirects=False).status_code == 200
            with open_store(hosted.db) as store:
                if end == "revoke":
                    authors.revoke_token(store, "bob")
                elif end == "reissue":
                    authors.issue_token(store, "bob")
                else:
                    store.set_author_disabled("bob", True)
            assert client.get("/me", follow_redirects=False).status_code == 303, end


def test_the_upload_form_needs_the_sessions_csrf_token(hosted: Hosted, archive: bytes) -> None:
    files = {"archive": ("mybot.tar.gz", archive)}
    with hosted_client(hosted) as client:
        sign_in(client, hosted.tokens["alice"])
        csrf = form_csrf(client.get("/me").text)
        for data in ({}, {"csrf": ""}, {"csrf": csrf[:-1] + "x"}):
            refused = client.post("/submissions", files=files, data=data, follow_redirects=False)
            assert refused.status_code == 403
        assert rows(hosted.db) == []
        taken = client.post(
            "/submissions", files=files, data={"csrf": csrf}, follow_redirects=False
        )
        assert taken.status_code == 303
        (made,) = rows(hosted.db)
        assert taken.headers["location"] == f"/submissions/{made[0]}"
        page = client.get(taken.headers["location"])
        assert page.status_code == 200
        assert '<dd id="status" class="status-received">received</dd>' in page.text
        assert 'http-equiv="refresh"' in page.text  # unfinished: it reloads itself
        assert made[0] in client.get("/me").text

    with hosted_client(hosted) as client:  # a bearer token is no session for a form
        anonymous = client.post(
            "/submissions", files=files, data={"csrf": csrf}, headers=bearer(hosted.tokens["alice"])
        )
        assert anonymous.status_code == 403


def test_failed_sign_ins_are_limited_per_address(hosted: Hosted) -> None:
    with hosted_client(hosted) as client:
        csrf = form_csrf(client.get("/sign-in").text)
        for _ in range(10):
            failed = client.post("/sign-in", data={"token": "arena_author_guess", "csrf": csrf})
            assert failed.status_code == 401
            assert "signs no one in" in failed.text
            csrf = form_csrf(failed.text)
        limited = client.post("/sign-in", data={"token": hosted.tokens["alice"], "csrf": csrf})
        assert limited.status_code == 429
        assert 1 <= int(limited.headers["retry-after"]) <= 600
        assert "too many failed sign-ins" in limited.text


def test_the_submission_page_shows_the_verdict_and_the_logs_escaped(
    hosted: Hosted, archive: bytes
) -> None:
    with hosted_client(hosted) as client:
        made = upload(client, hosted.tokens["alice"], archive).json()["id"]
        files = SubmissionFiles.of(hosted.root, made)
        files.build_log.write_text("x" * 300_000 + "\ninstalled <script>alert(1)</script>\n")
        files.check_log.write_text("classic: 3 trial matches OK\n")
        with open_store(hosted.db) as store:
            store.set_submission(made, "rejected", reason="setup failed: <script>alert(2)</script>")
        sign_in(client, hosted.tokens["alice"])
        page = client.get(f"/submissions/{made}").text
    assert "<script>alert" not in page
    assert "installed &lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "setup failed: &lt;script&gt;alert(2)&lt;/script&gt;" in page
    assert "classic: 3 trial matches OK" in page
    assert "The last 200,000 of its 300," in page
    assert 'http-equiv="refresh"' not in page  # finished: no more reloading


def test_names_from_bots_and_uploads_are_escaped_on_the_authors_pages(
    hosted: Hosted, archive: bytes
) -> None:
    evil = "<script>alert(3)</script>"
    with sqlite3.connect(hosted.db) as conn:
        conn.execute(
            "INSERT INTO author_bots (bot, author, claimed_at) VALUES (?, 'alice', '2026')",
            (evil,),
        )
    with hosted_client(hosted) as client:
        made = upload(client, hosted.tokens["alice"], archive, f"{evil}.tar.gz").json()["id"]
        with open_store(hosted.db) as store:
            store.set_submission(made, "accepted", bot=evil, version_id="v1", games=[evil])
        sign_in(client, hosted.tokens["alice"])
        for path in ("/me", f"/submissions/{made}"):
            page = client.get(path)
            assert page.status_code == 200
            assert "<script>alert" not in page.text, path
            assert "&lt;script&gt;alert(3)&lt;/script&gt;" in page.text, path


def test_a_read_only_arena_has_none_of_it(results_db: Path) -> None:
    with TestClient(create_app(results_db)) as client:
        for path in ("/sign-in", "/me", "/api/submissions", "/submissions/0123456789abcdef"):
            assert client.get(path).status_code == 404, path
        assert client.post("/api/submissions", files={"archive": ("a", b"x")}).status_code == 404
        assert client.post("/sign-in", data={"token": "x"}).status_code == 404
        assert "My bots" not in client.get("/").text
