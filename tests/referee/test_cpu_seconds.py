"""CPU seconds per seat: a bot process's tree, from the kernel, over one match.

A bot that spins at its first decision (in itself, or in a child it waits for) records more
CPU than the random bots beside it; an in-process seat records none.
"""

from __future__ import annotations

import pytest

from arena.referee.match import TimeControl
from tests.referee import RANDOM, STARTUP, Arena, broken

SPIN = 1.0
"""CPU seconds the burner spins for (bounded by CPU time, not wall time)."""
ROOMY = TimeControl(move_time=60.0, time_bank=60.0, startup_time=STARTUP)
"""Clocks no spinning comes near, however busy the machine."""


@pytest.fixture
def arena(tmp_path, monkeypatch) -> Arena:
    return Arena(tmp_path, monkeypatch)


@pytest.mark.parametrize("mode", ["burn", "fork"])
def test_a_bot_that_burns_cpu_records_more_than_one_that_answers_at_once(arena, mode):
    played = arena.play(
        [broken("burner"), RANDOM, RANDOM],
        control=ROOMY,
        mode=mode,
        env={"ARENA_TEST_CPU": str(SPIN)},
    )
    assert played.statuses == ["OK", "OK", "OK"]
    cpu = [s.cpu_s for s in played.result.seats]
    assert all(c is not None for c in cpu), cpu
    burner, *others = cpu
    assert burner is not None
    # the spin alone is SPIN seconds of CPU (less a clock tick of rounding)
    assert burner >= SPIN * 0.9, cpu
    assert all(o is not None and burner > 2 * o for o in others), cpu
    timing = played.result.to_dict()["timing"]
    assert [t["cpu_s"] for t in timing] == cpu


def test_an_in_process_seat_records_no_cpu(arena):
    from arena.sdk import Bot

    class Idle(Bot):
        name = "idle"
        version = "1.0"

        def choose(self, request):  # type: ignore[no-untyped-def]
            return 0

    played = arena.play([Idle(), RANDOM, RANDOM], control=ROOMY)
    assert played.result.seats[0].cpu_s is None
    assert played.result.seats[1].cpu_s is not None
