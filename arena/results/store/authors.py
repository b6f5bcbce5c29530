"""Authors: the people who submit bots to a hosted arena (tables ``authors`` and
``author_bots``), each with a hashed token, and the bot names each owns."""

from __future__ import annotations

from typing import Any

from arena.results.store.connect import StoreConnection
from arena.results.store.errors import StoreError
from arena.results.store.rows import utc_now


class Authors(StoreConnection):
    """Adding, listing, revoking and removing authors; their tokens and their bot names."""

    def add_author(self, name: str, token_hash: str) -> None:
        """A new author with this token hash (refused if the name is taken)."""
        with self._write(f"add author {name!r}") as db:
            if db.execute("SELECT 1 FROM authors WHERE name = ?", (name,)).fetchone():
                raise StoreError(f"author {name!r} already exists")
            now = utc_now()
            db.table("authors").insert(
                {
                    "name": name,
                    "token_hash": token_hash,
                    "created_at": now,
                    "token_issued_at": now,
                    "revoked_at": None,
                    "disabled_at": None,
                }
            )

    def authors(self) -> list[dict[str, Any]]:
        """Every author, by name, with ``bots``: the bot names they own."""
        rows = self._rows("SELECT * FROM authors ORDER BY name")
        owned: dict[str, list[str]] = {}
        for bot, author in self._tuples("SELECT bot, author FROM author_bots ORDER BY bot"):
            owned.setdefault(author, []).append(bot)
        for row in rows:
            row["bots"] = owned.get(row["name"], [])
        return rows

    def set_author_token(self, name: str, token_hash: str | None) -> None:
        """A new token hash for the author (the last stops working), or with None revoke it."""
        with self._write(f"set the token of author {name!r}") as db:
            now = utc_now()
            cursor = db.execute(
                "UPDATE authors SET token_hash = ?,"
                " token_issued_at = CASE WHEN ? IS NULL THEN token_issued_at ELSE ? END,"
                " revoked_at = CASE WHEN ? IS NULL THEN ? ELSE NULL END WHERE name = ?",
                (token_hash, token_hash, now, token_hash, now, name),
            )
            if cursor.rowcount == 0:
                raise StoreError(f"no author {name!r}")

    def set_author_disabled(self, name: str, disabled: bool) -> None:
        """Disable an author (their token stops working, their bots stop being entered) or
        enable them again."""
        with self._write(f"disable author {name!r}") as db:
            cursor = db.execute(
                "UPDATE authors SET disabled_at = ? WHERE name = ?",
                (utc_now() if disabled else None, name),
            )
            if cursor.rowcount == 0:
                raise StoreError(f"no author {name!r}")

    def remove_author(self, name: str) -> list[str]:
        """Remove an author and release the bot names they owned (their bots, versions and
        matches stay: results are never deleted); returns those names."""
        with self._write(f"remove author {name!r}") as db:
            bots = [
                row[0]
                for row in db.execute(
                    "SELECT bot FROM author_bots WHERE author = ? ORDER BY bot", (name,)
                ).fetchall()
            ]
            db.execute("DELETE FROM author_bots WHERE author = ?", (name,))
            cursor = db.execute("DELETE FROM authors WHERE name = ?", (name,))
            if cursor.rowcount == 0:
                raise StoreError(f"no author {name!r}")
        return bots

    def author_by_token(self, token_hash: str) -> str | None:
        """The author whose current token has this hash and who is not disabled, or None."""
        row = self._one(
            "SELECT name FROM authors WHERE token_hash = ? AND disabled_at IS NULL",
            (token_hash,),
        )
        return None if row is None else str(row["name"])

    def claim_bot(self, author: str, bot: str) -> None:
        """Record ``bot`` as ``author``'s (a name is its first author's: another author's
        claim is refused; a bot registered by the operator cannot be claimed)."""
        with self._write(f"claim bot {bot!r} for {author!r}") as db:
            owner = db.execute("SELECT author FROM author_bots WHERE bot = ?", (bot,)).fetchone()
            if owner is not None:
                if owner[0] != author:
                    raise StoreError(f"bot name {bot!r} belongs to another author")
                return
            if db.execute("SELECT 1 FROM bots WHERE name = ?", (bot,)).fetchone():
                raise StoreError(f"bot name {bot!r} is taken by a bot the arena already has")
            db.table("author_bots").insert({"bot": bot, "author": author, "claimed_at": utc_now()})

    def bot_author(self, bot: str) -> str | None:
        """The author who owns ``bot``, or None (the operator's, or nobody's)."""
        row = self._one("SELECT author FROM author_bots WHERE bot = ?", (bot,))
        return None if row is None else str(row["author"])
