"""A bot version as a tournament's plan keeps it: all a worker needs to start it.

A plan stores its entries in the database (as JSON), and every match sent to a worker or a
Ray actor carries its seats' entries, so an entry is plain data: a typed dict.
"""

from __future__ import annotations

from pathlib import Path
from typing import NotRequired, TypedDict

from arena.catalog.manifest import BotSpec


class Entry(TypedDict):
    """One bot version in a plan."""

    version_id: str
    name: str
    label: str
    """The version's label (``bot.toml``'s ``version``, made unique within a plan)."""
    path: str
    """The bot's folder ("" for a remote bot)."""
    command: str | list[str] | None
    """As ``bot.toml`` gives it: a shell line or an argument list (None: a remote bot)."""
    setup: str | list[str] | None
    entry: NotRequired[str | None]
    """The Python class to load in-process (``module:Class``), if the bot has one."""
    remote: NotRequired[bool]
    """A remote bot: it dials in to ``arena serve``; no folder, no command."""


def plan_entry(spec: BotSpec, version_id: str) -> Entry:
    """The entry of ``spec``'s version ``version_id``."""
    return {
        "version_id": version_id,
        "name": spec.name,
        "label": spec.version,
        "path": str(spec.path),
        "command": spec.command,
        "setup": spec.setup,
        "entry": spec.entry,
    }


def entry_spec(entry: Entry) -> BotSpec:
    """The bot spec a worker starts for ``entry``."""
    return BotSpec(
        name=entry["name"],
        path=Path(entry["path"]),
        version=entry["label"],
        language="",
        description="",
        entry=entry.get("entry"),
        command=entry["command"],
        setup=entry.get("setup"),
    )
