"""The error hierarchy: small types whose messages say what was wrong and what was expected.

The CLI prints any :class:`ArenaError` as one line without a traceback.
"""

from __future__ import annotations

from typing import Any


class ArenaError(Exception):
    """Root of every error Risk Arena raises on purpose."""


class ConfigError(ArenaError, ValueError):
    """Bad settings: an unknown rules key or value, or a combination the rule book forbids."""


class RulesError(ArenaError, ValueError):
    """Something the rules of the game do not allow."""


class IllegalActionError(RulesError):
    """An action that is not legal for this seat in this position.

    ``reason`` is the human-readable explanation (what was wrong, what was expected);
    ``action`` is the offending action as it was given.
    """

    def __init__(self, reason: str, action: Any = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.action = action


class MalformedActionError(ArenaError, ValueError):
    """An action that cannot even be decoded (wrong shape, unknown kind, bad types)."""


class ReplayError(ArenaError):
    """A replay file that cannot be read, or that diverges when re-played."""


class BotError(ArenaError):
    """A bot that cannot be found, loaded or run."""
