"""What one bot may cost the referee's process: a read rate per seat, and file descriptors.

A seat's stream is read no faster than :data:`MAX_MESSAGES_PER_SECOND` and
:data:`MAX_BYTES_PER_SECOND` (a bot that sends faster is held back by gRPC's flow control, not
buffered); a process whose descriptors run low refuses new streams instead of failing in the
middle of a match, and a worker raises its soft descriptor limit to the hard one at start.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

MAX_MESSAGES_PER_SECOND = 10_000
"""Messages read from one seat per second, sustained (one second's worth may come at once).
An honest bot sends one answer per request (and a few debug lines): the referee's round
trip alone (about 150 µs) keeps it under 7,000 requests a second for all seats together."""
MAX_BYTES_PER_SECOND = 32 << 20
"""Bytes read from one seat per second, sustained (32 MiB; as much again may come at once).
Real answers are a few bytes."""
FD_RESERVE = 64
"""Descriptors kept free: with fewer left, new bot streams are refused (RESOURCE_EXHAUSTED),
so the referee can still open what a running match needs (a log, a pipe, a replay)."""


class Throttle:
    """Two token buckets (messages, bytes) that refill at their rate, up to one second's worth.

    :meth:`take` charges one message and returns how long to wait before reading on: the
    reader then waits, so a flood costs the referee at most the rate, never a backlog.
    """

    def __init__(
        self,
        messages_per_second: float = MAX_MESSAGES_PER_SECOND,
        bytes_per_second: float = MAX_BYTES_PER_SECOND,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.message_rate = messages_per_second
        self.byte_rate = bytes_per_second
        self.messages = messages_per_second
        self.bytes = bytes_per_second
        self._clock = clock
        self._at = clock()

    def take(self, size: int) -> float:
        """Charge one message of ``size`` bytes; seconds to wait before the next read."""
        now = self._clock()
        passed, self._at = now - self._at, now
        self.messages = min(self.message_rate, self.messages + passed * self.message_rate) - 1
        self.bytes = min(self.byte_rate, self.bytes + passed * self.byte_rate) - size
        return max(0.0, -self.messages / self.message_rate, -self.bytes / self.byte_rate)


def _open_files_limit() -> int | None:
    try:
        import resource
    except ImportError:  # not on a POSIX system
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def free_descriptors() -> int | None:
    """Descriptors this process may still open, or None where that cannot be told."""
    limit = _open_files_limit()
    if limit is None:
        return None
    try:
        used = len(os.listdir("/proc/self/fd"))
    except OSError:  # no /proc (not Linux), or no descriptor left even for the listing
        return None if not os.path.isdir("/proc/self") else 0
    return limit - used


def short_of_descriptors() -> bool:
    """Whether fewer than :data:`FD_RESERVE` descriptors are left."""
    free = free_descriptors()
    return free is not None and free < FD_RESERVE


def raise_open_files_limit() -> int | None:
    """Raise the soft descriptor limit to the hard one where allowed; the soft limit after."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # e.g. macOS refuses RLIM_INFINITY: keep the soft limit
            return soft
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]
