"""Remote bots: bots with no folder that dial in, each with a hashed token (table
``remote_bots``, beside their row in ``bots``; see :mod:`arena.remote`)."""

from __future__ import annotations

import json
from typing import Any

from arena.results.store.connect import StoreConnection
from arena.results.store.errors import StoreError
from arena.results.store.rows import utc_now


class RemoteBots(StoreConnection):
    """Registering remote bots, and issuing, revoking and looking up their tokens."""

    def add_remote_bot(self, name: str, games: list[str], label: str, description: str) -> None:
        """Register a bot with no folder (it dials in), or update its games and label (its
        token, if any, is kept)."""
        with self._write(f"add remote bot {name!r}") as db:
            db.execute(
                "INSERT INTO bots (name, language, description, path, added_at)"
                " VALUES (?, 'remote', ?, '', ?) ON CONFLICT (name) DO UPDATE SET"
                " description = excluded.description",
                (name, description, utc_now()),
            )
            db.execute(
                "INSERT INTO remote_bots (name, games_json, label) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET games_json = excluded.games_json,"
                " label = excluded.label",
                (name, json.dumps(games), label),
            )

    def remote_bots(self) -> list[dict[str, Any]]:
        """Every remote bot: name, games (decoded), label, token state."""
        rows = self._rows("SELECT * FROM remote_bots ORDER BY name")
        for row in rows:
            row["games"] = json.loads(row.pop("games_json"))
        return rows

    def set_remote_token(self, name: str, token_hash: str | None) -> None:
        """Store a new token hash for the remote bot (replacing the last), or with None
        revoke it."""
        with self._write(f"set the token of remote bot {name!r}") as db:
            cursor = db.execute(
                "UPDATE remote_bots SET token_hash = ?, token_issued_at = CASE WHEN ? IS NULL"
                " THEN token_issued_at ELSE ? END, revoked_at = CASE WHEN ? IS NULL THEN ?"
                " ELSE NULL END WHERE name = ?",
                (token_hash, token_hash, utc_now(), token_hash, utc_now(), name),
            )
            if cursor.rowcount == 0:
                raise StoreError(f"no remote bot {name!r}")

    def remote_bot_by_token(self, token_hash: str) -> str | None:
        """The remote bot whose current token has this hash, or None."""
        row = self._one("SELECT name FROM remote_bots WHERE token_hash = ?", (token_hash,))
        return None if row is None else str(row["name"])

    def remote_bot_named(self, name: str) -> bool:
        """Whether ``name`` is a remote bot."""
        return self._one("SELECT 1 AS one FROM remote_bots WHERE name = ?", (name,)) is not None
