"""Fault flags: a bot version whose recorded matches too often ended in a fault.

A version is *flagged* when it has at least :attr:`FaultLimit.min_matches` recorded matches
(every pool and tournament) and more than :attr:`FaultLimit.percent` of them ended with its
seat in a status other than OK (TIMEOUT, CRASH, ...). Leaderboards and ``tournament show``
mark flagged versions, and a new tournament refuses to seat one unless told otherwise, so
a broken or hostile bot does not quietly hand its opponents free wins.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from arena.errors import ConfigError
from arena.results.store import Store

DEFAULT_PERCENT = 10.0
"""The fault rate (percent of recorded matches) above which a version is flagged."""
DEFAULT_MIN_MATCHES = 5
"""Recorded matches a version needs before it can be flagged (fewer say too little)."""


@dataclass(frozen=True, slots=True)
class FaultLimit:
    """When a version is flagged: ``percent`` of at least ``min_matches`` matches."""

    percent: float = DEFAULT_PERCENT
    min_matches: int = DEFAULT_MIN_MATCHES

    def to_dict(self) -> dict[str, Any]:
        return {"percent": self.percent, "min_matches": self.min_matches}

    def describe(self) -> str:
        """The rule in words, for captions and titles."""
        return (
            f"more than {self.percent:g}% of its recorded matches (at least "
            f"{self.min_matches}) ended in a fault"
        )


@dataclass(frozen=True, slots=True)
class FaultRecord:
    """A version's recorded matches, those that ended with its seat not OK, and its flag."""

    matches: int
    faulted: int
    flagged: bool

    @property
    def rate(self) -> float | None:
        return self.faulted / self.matches if self.matches else None

    def keys(self) -> dict[str, Any]:
        """What a leaderboard row or ``tournament show`` adds for the version."""
        return {
            "flagged": self.flagged,
            "fault_rate": self.rate,
            "faulted_matches": self.faulted,
            "recorded_matches": self.matches,
        }

    def summary(self) -> str:
        """``3 of 10 matches faulted (30%)``."""
        percent = 100 * (self.rate or 0.0)
        return f"{self.faulted} of {self.matches} matches faulted ({percent:.0f}%)"


NO_MATCHES = FaultRecord(0, 0, False)
DEFAULT_LIMIT = FaultLimit()


def judge(matches: int, faulted: int, limit: FaultLimit) -> FaultRecord:
    """The record of a version with ``faulted`` of ``matches`` matches faulted. Exactly
    ``percent`` is not flagged (compared as ``faulted * 100 > percent * matches``, with no
    division to round)."""
    flagged = matches >= limit.min_matches and faulted * 100 > limit.percent * matches
    return FaultRecord(matches, faulted, flagged)


def fault_records(
    store: Store, limit: FaultLimit, version_ids: Iterable[str] | None = None
) -> dict[str, FaultRecord]:
    """{version id: its record} for every version with recorded matches (or only these)."""
    counts = store.fault_counts(version_ids)
    return {vid: judge(matches, faulted, limit) for vid, (matches, faulted) in counts.items()}


def flag_keys(records: Mapping[str, FaultRecord], version_id: str) -> dict[str, Any]:
    """The flag keys of ``version_id`` (a version with no recorded match is not flagged)."""
    return records.get(version_id, NO_MATCHES).keys()


class FlaggedBots(ConfigError):
    """A new tournament names a flagged bot version (exit 2 unless ``--allow-flagged``)."""


def refuse_flagged(
    store: Store, entries: Mapping[str, Mapping[str, Any]], limit: FaultLimit
) -> None:
    """Refuse, in one line naming each with its fault rate, flagged versions among ``entries``
    ({version id: plan entry with ``name`` and ``label``})."""
    records = fault_records(store, limit, entries)
    flagged = [
        f"{entries[vid]['name']!r} {entries[vid]['label']} (version {vid}): "
        f"{records[vid].summary()}"
        for vid in sorted(entries, key=lambda v: (entries[v]["name"], v))
        if vid in records and records[vid].flagged
    ]
    if flagged:
        what = "a bot version" if len(flagged) == 1 else "bot versions"
        raise FlaggedBots(
            f"{what} flagged for faults ({limit.describe()}): {'; '.join(flagged)}; "
            "fix the bot (a new version starts afresh), or pass --allow-flagged to seat it anyway"
        )
