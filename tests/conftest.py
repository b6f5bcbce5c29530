"""Shared pytest setup: results go to a temporary ARENA_HOME so tests never touch ./results."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_results(tmp_path, monkeypatch):
    monkeypatch.setenv("ARENA_HOME", str(tmp_path / "results"))
