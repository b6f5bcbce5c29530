"""Seat statuses, spelled exactly so everywhere (JSON, replay, database, leaderboard)."""

from __future__ import annotations

from enum import StrEnum


class SeatStatus(StrEnum):
    """How a seat's match went, from the referee's point of view."""

    OK = "OK"
    """Played to the end without a forfeit."""
    TIMEOUT = "TIMEOUT"
    """Forfeited after running out of time too often."""
    ILLEGAL = "ILLEGAL"
    """Forfeited after too many illegal actions."""
    CRASH = "CRASH"
    """The bot raised or its process died."""
    DISCONNECT = "DISCONNECT"
    """The bot's connection went away."""
    INIT_FAIL = "INIT_FAIL"
    """The bot never started or never connected."""
    PROTOCOL = "PROTOCOL"
    """The bot broke the protocol (garbage, floods, answers out of turn)."""
