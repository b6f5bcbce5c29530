"""Shared pytest setup: results go to a temporary ARENA_HOME so tests never touch ./results.

Every test's home is one installation with a fixed secret key, so a seed gives the same bot
seeds (and so the same games) in every run, as it does on one real installation."""

from __future__ import annotations

from pathlib import Path

import pytest

TEST_KEY = bytes(range(32))
"""The installation key of every test's results home (a real one is random)."""


def same_key_home(home: Path) -> Path:
    """``home`` made (if need be) with the tests' installation key in it."""
    from arena.seeds import KEY_FILE

    home.mkdir(parents=True, exist_ok=True)
    key = home / KEY_FILE
    if not key.exists():
        key.write_bytes(TEST_KEY)
        key.chmod(0o600)
    return home


@pytest.fixture(autouse=True)
def _isolated_results(tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_HOME", str(same_key_home(tmp_path / "results")))


@pytest.fixture(params=["fast", "wire"])
def both_in_process_paths(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test on both in-process paths: the fast one (requests handed over without
    protobuf) and the wire one (a protobuf round trip per request, as a remote bot gets)."""
    from arena.referee.seats import InProcessSeat

    monkeypatch.setattr(InProcessSeat, "local", request.param == "fast")
    return str(request.param)
