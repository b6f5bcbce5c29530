"""Authors' sign-in sessions on a hosted arena's pages (table ``author_sessions``).

A session is good only while it has not expired and its author exists, is not disabled, and
holds a token issued no later than the session began: revoking an author's token, or issuing
a new one, ends every session they had (so does disabling them, for as long as they stay
disabled). Nothing needs deleting for that: :meth:`Sessions.author_session` checks it on
every read.
"""

from __future__ import annotations

from typing import Any

from arena.results.store.connect import StoreConnection
from arena.results.store.rows import utc_now


class Sessions(StoreConnection):
    """Starting, reading and ending sign-in sessions."""

    def add_session(self, id_hash: str, author: str, csrf: str, expires_at: str) -> None:
        """A new session of ``author``'s (``id_hash``: the SHA-256 of the cookie's secret);
        expired sessions are cleared on the way."""
        now = utc_now()
        with self._write(f"sign in {author!r}") as db:
            db.execute("DELETE FROM author_sessions WHERE expires_at <= ?", (now,))
            db.table("author_sessions").insert(
                {
                    "id_hash": id_hash,
                    "author": author,
                    "csrf": csrf,
                    "created_at": now,
                    "expires_at": expires_at,
                }
            )

    def author_session(self, id_hash: str) -> dict[str, Any] | None:
        """The session (``author``, ``csrf``, times) if it is still good, else None."""
        return self._one(
            "SELECT s.* FROM author_sessions s JOIN authors a ON a.name = s.author"
            " WHERE s.id_hash = ? AND s.expires_at > ? AND a.disabled_at IS NULL"
            " AND a.token_hash IS NOT NULL AND a.token_issued_at <= s.created_at",
            (id_hash, utc_now()),
        )

    def end_session(self, id_hash: str) -> None:
        """Sign a session out (nothing happens for an unknown one)."""
        with self._write("sign out") as db:
            db.execute("DELETE FROM author_sessions WHERE id_hash = ?", (id_hash,))
