"""Failed sign-ins counted per client address over a sliding window, in the server's memory:
past the limit, that address must wait (a token is 256 random bits, so this guards the
server's time more than the tokens)."""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable

FAILURES = 10
WINDOW_SECONDS = 600.0
"""Ten failed sign-ins in ten minutes: enough for a person mistyping, not for a script."""
ADDRESSES = 10_000
"""Addresses remembered at most; past that the least recently failing are forgotten."""


class FailedAttempts:
    """A sliding window of failures per key (a client address)."""

    def __init__(
        self,
        limit: int = FAILURES,
        window: float = WINDOW_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def retry_after(self, key: str) -> int | None:
        """Seconds ``key`` must wait before trying again, or None if it may try now."""
        with self._lock:
            recent = self._recent(key)
            if len(recent) < self.limit:
                return None
            return max(1, math.ceil(recent[0] + self.window - self.clock()))

    def failed(self, key: str) -> None:
        """Count a failure of ``key``'s."""
        with self._lock:
            recent = self._recent(key)
            recent.append(self.clock())
            self._failures.pop(key, None)
            self._failures[key] = recent  # most recent last, for forgetting the oldest
            while len(self._failures) > ADDRESSES:
                del self._failures[next(iter(self._failures))]

    def _recent(self, key: str) -> deque[float]:
        recent = self._failures.get(key, deque())
        while recent and recent[0] <= self.clock() - self.window:
            recent.popleft()
        if not recent:
            self._failures.pop(key, None)
        return recent
