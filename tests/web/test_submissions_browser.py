"""In a real browser (headless chromium through selenium): an author signs in with their
token, uploads a packed bot folder through the form on their page, and lands on the
submission's page, which says ``received`` (no builder runs here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.submissions.pack import pack
from tests.web.browser import chromium, console_errors, missing_browser, poll, shown_status
from tests.web.hosted import bot_folder, hosted_copy, hosted_server

pytestmark = pytest.mark.skipif(missing_browser() is not None, reason=str(missing_browser()))


def test_an_author_signs_in_and_uploads_through_the_form(results_db: Path, tmp_path: Path) -> None:
    hosted = hosted_copy(results_db, tmp_path / "hosted")
    archive = tmp_path / "mybot.tar.gz"
    pack(bot_folder(tmp_path / "mybot"), archive)
    with hosted_server(hosted.db, hosted.root) as url, chromium(tmp_path / "profile") as driver:
        driver.get(f"{url}/me")  # not signed in: sent to the sign-in form
        poll("the sign-in form", lambda: driver.current_url == f"{url}/sign-in")
        driver.find_element("css selector", "#token").send_keys(hosted.tokens["alice"])
        driver.find_element("css selector", "#sign-in button").click()
        poll("the author's page", lambda: driver.current_url == f"{url}/me")
        assert driver.find_element("css selector", "h1").text == "alice"
        assert driver.get_cookie("arena_session")["httpOnly"] is True

        driver.find_element("css selector", "#archive").send_keys(str(archive))
        driver.find_element("css selector", "#upload button").click()
        poll("the submission's page", lambda: "/submissions/" in driver.current_url)
        assert poll("its status", lambda: shown_status(driver)) == "received"
        submission_id = driver.current_url.rsplit("/", 1)[1]
        driver.save_screenshot(str(tmp_path / "submission.png"))
        assert console_errors(driver) == []

    stored = hosted.root / submission_id / "archive.tar.gz"
    assert stored.read_bytes() == archive.read_bytes()
