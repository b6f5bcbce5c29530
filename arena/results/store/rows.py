"""What the table groups share about rows: timestamps, the keys a caller must give, and the
order records are read in."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from arena.results.store.errors import StoreError

RECORD_ORDER = "COALESCE(t.created_at, m.started_at), t.rowid, m.plan_index, m.started_at, m.rowid"
"""Chronological record order: a tournament's matches by plan, ad-hoc matches by start time
(``m`` is the matches table, ``t`` its tournament, left-joined)."""


def utc_now() -> str:
    """UTC timestamps with microseconds, so text order is time order."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def checked_row(
    kind: str, given: dict[str, Any], required: tuple[str, ...], optional: dict[str, Any]
) -> dict[str, Any]:
    """The row a caller described, refusing missing or unknown keys (silent drops lose data)."""
    missing = [key for key in required if key not in given]
    unknown = sorted(set(given) - set(required) - set(optional))
    if missing or unknown:
        raise StoreError(
            f"{kind}: missing {missing or 'nothing'}, unknown {unknown or 'nothing'}; "
            f"expected {list(required)} and optionally {list(optional)}"
        )
    return {**optional, **given}
