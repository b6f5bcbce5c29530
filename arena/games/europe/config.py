"""RISK: Europe rules options (``--rules KEY=VALUE``) and player counts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from arena.errors import ConfigError

MIN_PLAYERS = 2
MAX_PLAYERS = 4
ARMIES = 4
"""Armies on the board in every game: the players', and Mercenary Armies for the rest."""
CROWNS_TO_WIN = 7
CROWNS_TO_WIN_MERCENARY = 8
"""The crowns to win with 2 or 3 players (the Mercenary Army variant)."""
MAX_ROUNDS = 30
MAX_CROWNS = 24
"""Every crown there is: 16 on the board's cities (Rome 2) and 8 crown cards (or missions)."""

DESCRIPTIONS = {
    "crowns_to_win": (
        f"crowns a player must hold at the end of a round to win ({CROWNS_TO_WIN}; "
        f"{CROWNS_TO_WIN_MERCENARY} with 2 or 3 players)"
    ),
    "max_rounds": (
        f"rounds before the game stops (default {MAX_ROUNDS}); places then go by crowns, "
        "territories, then coins with the First Player Marker counting 10"
    ),
    "missions": "the Kingdom Missions variant: crown cards become secret missions (true/false)",
}
BOOLEAN = ("false", "true")


@dataclass(frozen=True, slots=True)
class EuropeConfig:
    """One configuration: the player count and the rules options."""

    players: int = 4
    crowns_to_win: int = CROWNS_TO_WIN
    max_rounds: int = MAX_ROUNDS
    missions: bool = False

    @property
    def mercenaries(self) -> int:
        """Mercenary Armies on the board (4 armies in all: one per missing player)."""
        return ARMIES - self.players

    @classmethod
    def parse(cls, options: Mapping[str, str], players: int) -> EuropeConfig:
        """From ``--rules`` items; a one-line :class:`ConfigError` naming the valid choices."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ConfigError(
                f"europe takes {MIN_PLAYERS}, 3 or {MAX_PLAYERS} players, got {players}"
            )
        unknown = sorted(set(options) - set(DESCRIPTIONS))
        if unknown:
            raise ConfigError(
                f"unknown rules key {unknown[0]!r} for europe; valid keys: {', '.join(DESCRIPTIONS)}"
            )
        default_crowns = CROWNS_TO_WIN if players == MAX_PLAYERS else CROWNS_TO_WIN_MERCENARY
        crowns = _positive(options, "crowns_to_win", default_crowns)
        if crowns > MAX_CROWNS:
            raise ConfigError(
                f"crowns_to_win={crowns} can never be reached: there are {MAX_CROWNS} crowns "
                "in all (16 on the cities, 8 crown cards or missions); choose 1-24"
            )
        rounds = _positive(options, "max_rounds", MAX_ROUNDS)
        missions = options.get("missions", "false").strip().lower()
        if missions not in BOOLEAN:
            raise ConfigError(f"missions must be true or false, got {missions!r}")
        return cls(players, crowns, rounds, missions == "true")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EuropeConfig:
        """Back from :meth:`to_dict` output, with the same checks as :meth:`parse`."""
        known = {"crowns_to_win", "max_rounds", "missions"}
        options = {
            k: str(v).lower() if isinstance(v, bool) else str(v)
            for k, v in data.items()
            if k in known
        }
        return cls.parse(options, int(data.get("players", MAX_PLAYERS)))


def _positive(options: Mapping[str, str], key: str, default: int) -> int:
    raw = options.get(key)
    if raw is None:
        return default
    text = raw.strip()
    if not text.isdigit() or int(text) < 1:
        raise ConfigError(f"{key} must be a positive integer, got {raw!r}")
    return int(text)
