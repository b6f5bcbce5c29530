"""Shared pytest setup: results go to a temporary ARENA_HOME so tests never touch ./results.

Every test runs on one installation with a fixed secret key (``ARENA_SECRET``, inherited by
the processes a test starts), so a seed gives the same bot seeds, and so the same games, in
every run, as it does on one real installation.

Bot processes run without isolation layers (``ARENA_ISOLATION=off``): the suite's test bots
write what they saw into the test's folders and import helpers from beside their own
folder, which a sandbox rightly forbids. Tests of the layers turn them on themselves (the
``isolation`` fixture of ``tests/referee/test_isolation.py``).

The terminal's ``COLUMNS`` is not inherited: piped reports are as wide as their tables, and
the tests that check wrapping set it themselves.

Ctrl-C reaches the processes a test starts even when the suite itself was started in the
background of a script, which leaves SIGINT ignored for it and for everything it starts: the
tests that stop a tournament with SIGINT would see it finish instead."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

signal.signal(signal.SIGINT, signal.default_int_handler)

TEST_KEY = bytes(range(32))
"""The tests' installation key (a real one is random)."""


@pytest.fixture(autouse=True, scope="session")
def _one_installation() -> Iterator[None]:
    """The key for the whole session, so fixtures of any scope (set up before the per-test
    ones) play under it too."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ARENA_SECRET", TEST_KEY.hex())
        patch.setenv("ARENA_ISOLATION", "off")
        patch.delenv("COLUMNS", raising=False)
        yield


@pytest.fixture(autouse=True)
def _isolated_results(tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_HOME", str(tmp_path / "results"))


@pytest.fixture(params=["fast", "wire"])
def both_in_process_paths(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test on both in-process paths: the fast one (requests handed over without
    protobuf) and the wire one (a protobuf round trip per request, as a remote bot gets)."""
    from arena.referee.seats import InProcessSeat

    monkeypatch.setattr(InProcessSeat, "over_wire", request.param != "fast")
    return str(request.param)


@pytest.fixture
def results_folder() -> Path:
    """The test's results home, made (private to the referee, as the arena makes it)."""
    folder = Path(os.environ["ARENA_HOME"])
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def every_layer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every isolation layer on and strict (``ARENA_ISOLATION=users,namespaces``, passed on
    to the processes the test starts), or the test skipped with the reason."""
    from arena.sandbox.isolation import detect

    monkeypatch.setenv("ARENA_ISOLATION", "auto")
    off = [layer for layer in detect().layers if not layer.active]
    if off:
        pytest.skip("; ".join(f"layer {layer.name} is off: {layer.why}" for layer in off))
    monkeypatch.setenv("ARENA_ISOLATION", "users,namespaces")
