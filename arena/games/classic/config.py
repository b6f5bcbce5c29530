"""Rules options of the classic game, parsed from ``KEY=VALUE`` pairs and checked against the
rule book (which variants exist, for how many players, and how they combine)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from arena.errors import ConfigError

MIN_PLAYERS, MAX_PLAYERS = 2, 6

CHOICES: dict[str, tuple[str, ...]] = {
    "mode": ("world", "mission", "capital"),
    "capital_goal": ("full", "short"),
    "sets": ("increasing", "progressive", "fixed"),
    "fortify": ("adjacent", "connected"),
    "advantage_reroll": ("false", "true"),
    "deal": ("claim", "random"),
}
"""Every enumerated key with its allowed values; ``max_rounds`` takes a positive integer."""

DESCRIPTIONS: dict[str, str] = {
    "mode": "world domination, Secret Mission RISK, or Capital RISK",
    "capital_goal": "Capital RISK: capture every opposing HQ (full) or 2 of them with 4 players, "
    "3 with 5-6 (short)",
    "sets": "card set values: 4,6,8,10,12,15,+5 (increasing); 4,5,6,… (progressive); "
    "by set type (fixed)",
    "fortify": "one fortify per turn to an adjacent territory, or along a chain of own territories",
    "advantage_reroll": "re-roll one attacking die per battle when holding the card of either "
    "territory",
    "max_rounds": "round cap; at the cap survivors are ranked by territories, then armies",
    "deal": "claim territories one at a time, or deal them at random "
    "(the 2-player game and Secret Mission RISK always deal)",
}

STARTING_ARMIES = {2: 40, 3: 35, 4: 30, 5: 25, 6: 20}


@dataclass(frozen=True, slots=True)
class ClassicConfig:
    """One classic game's rules. Build it with :meth:`parse` to get the rule book's checks."""

    players: int = 3
    mode: str = "world"
    capital_goal: str = "full"
    sets: str = "increasing"
    fortify: str = "adjacent"
    advantage_reroll: bool = False
    max_rounds: int = 150
    deal: str = "claim"

    @property
    def neutral(self) -> bool:
        """The 2-player game is played with a third, neutral army."""
        return self.players == 2

    @property
    def starting_armies(self) -> int:
        """Armies each player (and the neutral) starts with."""
        return STARTING_ARMIES[self.players]

    @property
    def short_capitals(self) -> int:
        """Opposing HQs needed under the short capital goal (0 = all of them)."""
        if self.mode != "capital" or self.capital_goal != "short":
            return 0
        return 2 if self.players == 4 else 3

    def to_dict(self) -> dict[str, object]:
        """The options as plain data (for replays and JSON output)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> ClassicConfig:
        """Rebuild from :meth:`to_dict` output, with the same checks as :meth:`parse`."""
        # Whatever the replay or job held: int() accepts what it can and raises for the rest.
        players: Any = data.get("players", 3)
        pairs = {k: _text(v) for k, v in data.items() if k != "players"}
        return cls.parse(pairs, int(players))

    @classmethod
    def parse(cls, options: dict[str, str], players: int) -> ClassicConfig:
        """Check ``KEY=VALUE`` options for ``players`` seats and build the config.

        Raises :class:`ConfigError` with a one-line message naming the valid choices.
        """
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ConfigError(
                f"classic RISK takes {MIN_PLAYERS}-{MAX_PLAYERS} players, got {players}"
            )
        known = {f.name for f in fields(cls)} - {"players"}
        values: dict[str, object] = {"players": players}
        for key, raw in options.items():
            if key not in known:
                raise ConfigError(
                    f"unknown rules key {key!r}; valid keys: {', '.join(sorted(known))}"
                )
            values[key] = _convert(key, raw.strip().lower())
        mode = values.get("mode", "world")
        deal = values.get("deal")
        if players == 2 and mode == "mission":
            raise ConfigError(
                "mode=mission needs 3-6 players (the rule book's Secret Mission RISK); "
                "with 2 players choose mode=world or mode=capital"
            )
        if players == 2 and deal == "claim":
            raise ConfigError(
                "the 2-player game deals the territories in three piles; use deal=random "
                "or leave deal unset"
            )
        if mode == "mission" and deal == "claim":
            raise ConfigError(
                "Secret Mission RISK deals the territory cards; use deal=random or leave deal unset"
            )
        if values.get("capital_goal") == "short":
            if mode != "capital":
                raise ConfigError("capital_goal=short applies only with mode=capital")
            if players < 4:
                raise ConfigError(
                    "capital_goal=short is defined for 4-6 players (2 HQs with 4, 3 with 5-6); "
                    "use capital_goal=full"
                )
        if deal is None:
            values["deal"] = "random" if players == 2 or mode == "mission" else "claim"
        return cls(**values)  # type: ignore[arg-type]


def _text(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _convert(key: str, raw: str) -> object:
    if key == "max_rounds":
        try:
            rounds = int(raw)
        except ValueError:
            rounds = 0
        if rounds < 1:
            raise ConfigError(f"max_rounds must be a positive integer, got {raw!r}")
        return rounds
    choices = CHOICES[key]
    if raw not in choices:
        raise ConfigError(f"invalid {key}={raw!r}; choose one of: {', '.join(choices)}")
    if key == "advantage_reroll":
        return raw == "true"
    return raw


def parse_rules_args(items: list[str]) -> dict[str, str]:
    """Turn repeated ``KEY=VALUE`` command-line items into a dict (later items win)."""
    from arena.games import parse_rules

    return parse_rules(items, "classic")
