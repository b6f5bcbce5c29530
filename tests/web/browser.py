"""What the end-to-end browser tests need: a real ``arena web`` server on a free port, Debian's
headless chromium driven by selenium through ``/usr/bin/chromedriver``, and polling helpers
(the tests wait for what they expect with a generous bound, never for a fixed time)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
STARTUP_SECONDS = 90.0
"""How long a server or browser may take to start on a heavily loaded machine."""
WAIT_SECONDS = 60.0
"""How long a page may take to show what a test waits for."""

T = TypeVar("T")


def missing_browser() -> str | None:
    """Why the browser tests cannot run here (None if they can)."""
    for path, package in ((CHROMIUM, "chromium"), (CHROMEDRIVER, "chromium-driver")):
        if not os.access(path, os.X_OK):
            return f"{path} is missing: apt-get install {package} (as .ci/run does)"
    return None


def free_port() -> int:
    """A port nothing listens on now (bound to port 0 and released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def poll(what: str, check: Callable[[], T | None], timeout: float = WAIT_SECONDS) -> T:
    """The first true value ``check`` gives, trying again until ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.1)


def arena_command(*args: str) -> list[str]:
    """The ``arena`` command line, run by this interpreter."""
    return [sys.executable, "-c", "import sys; from arena.cli import main; sys.exit(main())", *args]


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.load(answer)


@contextmanager
def web_server(db: Path, log: Path) -> Iterator[str]:
    """``arena web --db DB`` on a free port, until the block ends; yields its base URL."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with log.open("w") as out:
        server = subprocess.Popen(
            arena_command("web", "--db", str(db), "--port", str(port)),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:

        def answers() -> bool:
            if server.poll() is not None:
                raise AssertionError(f"arena web exited {server.returncode}: {log.read_text()}")
            try:
                get_json(f"{url}/api/pools")
            except (OSError, urllib.error.URLError):
                return False
            return True

        poll("arena web to answer", answers, STARTUP_SECONDS)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@contextmanager
def chromium(profile: Path) -> Iterator[Any]:
    """Headless chromium with a fresh profile, its console log kept for the tests."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    driver.set_page_load_timeout(WAIT_SECONDS)
    try:
        yield driver
    finally:
        driver.quit()


def console_errors(driver: Any) -> list[str]:
    """The browser console's errors since the last call (the log is drained as it is read)."""
    return [e["message"] for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def shown_status(driver: Any) -> str | None:
    """The submission page's status, or None while the page is reloading (it reloads itself
    until the build ends: read in one script call, and any error of a page between two
    documents means "not yet")."""
    from selenium.common.exceptions import WebDriverException

    try:
        found = driver.execute_script(
            "const e = document.getElementById('status'); return e ? e.textContent : null"
        )
    except WebDriverException:
        return None
    return None if found is None else str(found).strip()
