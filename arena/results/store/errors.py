"""What the store raises: each error names the file, what was being done and why it failed."""

from __future__ import annotations

from arena.errors import ArenaError


class StoreError(ArenaError):
    """The results database cannot be opened, read or written as asked."""


class StoreBusyError(StoreError):
    """Another connection held the write lock for longer than the busy timeout."""


class DamagedReplayError(StoreError):
    """A stored replay whose compressed bytes no longer decompress."""


class DuplicateMatchError(StoreError):
    """A match (or a tournament's plan entry) that is already recorded; nothing was written."""
