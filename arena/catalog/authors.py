"""Authors: the people who submit bots to a hosted arena, each signing in with a token.

A token is shown once when issued and stored only as its SHA-256, as a remote bot's is
(:mod:`arena.catalog.remote` says why one SHA-256 suffices for a 256-bit random secret).
Author tokens start with ``arena_author_``, so one pasted in the wrong place is told apart
from a remote bot's. A bot name belongs to the first author who submits it; a disabled author
cannot sign in, and their bots are not entered.
"""

from __future__ import annotations

import secrets

from arena.catalog.remote import NAME, hash_token
from arena.errors import ConfigError
from arena.results.store import Store, StoreError

TOKEN_PREFIX = "arena_author_"
"""An author token's first characters (a remote bot's are ``arena_``, without ``author_``)."""


def check_name(name: str) -> str:
    """An author name: letters, digits, ``_``, ``.``, ``-``; 1-64 characters, first a letter
    or digit (the same rule as bot names, so a name is safe in a path, a URL or a page)."""
    if not NAME.match(name):
        raise ConfigError(
            f"author name {name!r}: use 1-64 letters, digits, '_', '.' or '-', "
            "starting with a letter or digit"
        )
    return name


def new_token() -> str:
    """A fresh author token (shown once)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def add_author(store: Store, name: str) -> str:
    """Register an author; returns their token (shown once, stored hashed)."""
    token = new_token()
    try:
        store.add_author(check_name(name), hash_token(token))
    except StoreError as exc:
        raise ConfigError(str(exc)) from None
    return token


def issue_token(store: Store, name: str) -> str:
    """A new token for the author (the previous one stops working); shown once."""
    token = new_token()
    _known(store, name)
    store.set_author_token(name, hash_token(token))
    return token


def revoke_token(store: Store, name: str) -> bool:
    """Revoke the author's token; whether they had one."""
    had = _known(store, name)["token_hash"] is not None
    store.set_author_token(name, None)
    return had


def signed_in(store: Store, token: str) -> str | None:
    """The author this token signs in (None: unknown, revoked, or the author disabled)."""
    if not token.startswith(TOKEN_PREFIX):
        return None
    return store.author_by_token(hash_token(token))


def _known(store: Store, name: str) -> dict[str, object]:
    found = {row["name"]: row for row in store.authors()}.get(name)
    if found is None:
        raise ConfigError(f"no author {name!r} in {store.path} (arena authors list)")
    return found
