"""The test-only guessing game (tests/games/guessing.py) is registered for every test here,
so these tests can play a game that has nothing of RISK in it; other tests see the shipped
games alone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from arena import games


@pytest.fixture(autouse=True, scope="module")
def guessing_registered() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(games, "_ENTRIES", dict(games._ENTRIES))
        games.register("guessing", "tests.games.guessing")
        yield
