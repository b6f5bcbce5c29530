"""Shared pytest setup: results go to a temporary ARENA_HOME so tests never touch ./results."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_results(tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_HOME", str(tmp_path / "results"))


@pytest.fixture(params=["fast", "wire"])
def both_in_process_paths(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test on both in-process paths: the fast one (requests handed over without
    protobuf) and the wire one (a protobuf round trip per request, as a remote bot gets)."""
    from arena.referee.seats import InProcessSeat

    monkeypatch.setattr(InProcessSeat, "local", request.param == "fast")
    return str(request.param)
