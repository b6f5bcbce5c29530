"""Waiting for a condition, not for a time: how tests stay independent of the machine's speed."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_until(condition: Callable[[], object], seconds: float = 30.0) -> bool:
    """Poll ``condition`` every 20 ms until it is true (True) or ``seconds`` pass (False)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True
