"""Bots and their content-hashed versions (tables ``bots`` and ``versions``)."""

from __future__ import annotations

from typing import Any

from arena.results.store.connect import StoreConnection
from arena.results.store.errors import StoreError
from arena.results.store.rows import utc_now


class Bots(StoreConnection):
    """Registering bots and versions; both are kept for ever (matches name them)."""

    def add_bot(self, name: str, language: str, description: str, path: str) -> None:
        """Register a bot, or refresh its language, description and path (added_at is kept)."""
        with self._write(f"add bot {name!r}") as db:
            db.execute(
                "INSERT INTO bots (name, language, description, path, added_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET"
                " language = excluded.language, description = excluded.description,"
                " path = excluded.path",
                (name, language, description, str(path), utc_now()),
            )

    def add_version(self, version_id: str, bot: str, label: str) -> None:
        """Record a content-hashed version of a bot; adding it again changes nothing."""
        with self._write(f"add version {version_id!r}") as db:
            known = db.execute("SELECT bot FROM versions WHERE id = ?", (version_id,)).fetchone()
            if known is not None:
                if known[0] != bot:
                    raise StoreError(
                        f"version {version_id!r} already belongs to bot {known[0]!r}, not {bot!r}"
                    )
                return
            if db.execute("SELECT 1 FROM bots WHERE name = ?", (bot,)).fetchone() is None:
                raise StoreError(
                    f"cannot add version {version_id!r}: unknown bot {bot!r} (add_bot first)"
                )
            db.table("versions").insert(
                {"id": version_id, "bot": bot, "label": label, "created_at": utc_now()}
            )

    def bots(self) -> list[dict[str, Any]]:
        return self._rows("SELECT * FROM bots ORDER BY name")

    def versions(self, bot: str | None = None) -> list[dict[str, Any]]:
        where, params = ("WHERE bot = ?", (bot,)) if bot is not None else ("", ())
        return self._rows(f"SELECT * FROM versions {where} ORDER BY bot, created_at", params)
