"""Versions the operator has barred from tournaments: disabled ones (``arena bots disable``)
and every version of a disabled author's bots (``arena authors disable``).

A barred version is refused when a tournament is made or a bot is added to a ladder, and a
running ladder retires it at its next decision (:mod:`.ladder`, leave reason ``disabled``).
"""

from __future__ import annotations

from collections.abc import Mapping

from arena.catalog.entries import Entry
from arena.errors import ConfigError
from arena.results.store import Store

DISABLED = "disabled"
"""A ladder's leave reason for a version it retired because it was barred."""


def refuse_barred(store: Store, by_version: Mapping[str, Entry]) -> None:
    """Refuse, in one line, entries whose version is barred, saying how to allow each."""
    barred = store.barred_versions() & by_version.keys()
    if not barred:
        return
    reasons = [
        why_barred(store, by_version[version]["name"], version)
        for version in sorted(barred, key=lambda v: (by_version[v]["name"], v))
    ]
    raise ConfigError("; ".join(reasons))


def why_barred(store: Store, bot: str, version: str) -> str:
    """Why ``bot``'s ``version`` may not be entered, and the command that allows it again."""
    author = disabled_author(store, bot)
    if author is not None:
        return f"bot {bot!r} is disabled with its author {author!r} (arena authors enable {author})"
    return (
        f"bot {bot!r} version {version[:8]} is disabled "
        f"(arena bots enable {bot} --version {version[:8]})"
    )


def disabled_author(store: Store, bot: str) -> str | None:
    """The author who owns ``bot`` if that author is disabled, else None."""
    author = store.bot_author(bot)
    if author is None:
        return None
    disabled = {row["name"] for row in store.authors() if row["disabled_at"] is not None}
    return author if author in disabled else None
