"""Remote bots in the results database: registration, tokens, and their tournament entries.

A remote bot has no folder: it is a name, the games it plays and a version label. Its
version id is derived from the name and the label, so a new label starts a new rating, as a
changed folder does for a local bot.

Tokens are 32 random bytes (``secrets.token_urlsafe(32)``), shown once and stored only as
their SHA-256. A slow password hash (scrypt, PBKDF2) exists to make guessing a *low*-entropy
secret expensive; a 256-bit random token cannot be guessed at any speed, so one SHA-256 is
as safe here and keeps each handshake cheap for the server (no CPU to burn with bad tokens).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Any

from arena import games
from arena.catalog.entries import Entry
from arena.catalog.manifest import bundled_bots
from arena.errors import ConfigError
from arena.results.store import Store

TOKEN_PREFIX = "arena_"
"""Tokens start with this, so one found in a log or a repository is recognisable."""
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def hash_token(token: str) -> str:
    """What the database keeps of a token (see the module docstring for why SHA-256)."""
    return hashlib.sha256(token.encode()).hexdigest()


def remote_version_id(name: str, label: str) -> str:
    """A remote bot version's id: 16 hex digits of SHA-256 over its name and label."""
    return hashlib.sha256(f"remote\0{name}\0{label}".encode()).hexdigest()[:16]


def remote_bots(store: Store) -> dict[str, dict[str, Any]]:
    """The remote bots of ``store`` by name."""
    return {row["name"]: row for row in store.remote_bots()}


def add_remote(
    store: Store, name: str, games_played: list[str], label: str, description: str = ""
) -> str:
    """Register (or update) a remote bot; returns its version id."""
    if not NAME.match(name):
        raise ConfigError(
            f"remote bot name {name!r}: use letters, digits, '_', '.', '-' (at most 64)"
        )
    known = set(games.names())
    unknown = [g for g in games_played if g not in known]
    if unknown or not games_played:
        raise ConfigError(
            f"--games must name games from {', '.join(sorted(known))}, got "
            f"{','.join(games_played) or 'none'}"
        )
    if name in {spec.name for spec in bundled_bots()}:
        raise ConfigError(f"a bundled bot is already called {name!r}; choose another name")
    if name in {row["name"] for row in store.bots()} - set(remote_bots(store)):
        raise ConfigError(f"bot name {name!r} is already registered in {store.path} for a folder")
    if not label:
        raise ConfigError("the version label must not be empty")
    store.add_remote_bot(name, games_played, label, "remote bot")
    vid = remote_version_id(name, label)
    store.add_version(vid, name, label)
    return vid


def _remote(store: Store, name: str) -> dict[str, Any]:
    found = remote_bots(store).get(name)
    if found is None:
        raise ConfigError(
            f"no remote bot {name!r} in {store.path}; register it with "
            f"`arena bots add --remote {name}`"
        )
    return found


def issue_token(store: Store, name: str) -> str:
    """A new token for the remote bot (the previous one stops working); shown once."""
    _remote(store, name)
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    store.set_remote_token(name, hash_token(token))
    return token


def revoke_token(store: Store, name: str) -> bool:
    """Revoke the remote bot's token; whether it had one."""
    had = _remote(store, name)["token_hash"] is not None
    store.set_remote_token(name, None)
    return had


def is_remote(entry: Entry) -> bool:
    """Whether a tournament entry is a remote bot (it dials in; no folder, no command)."""
    return bool(entry.get("remote"))


def remote_entry(store: Store, name: str, game: str) -> Entry | None:
    """The tournament entry of remote bot ``name`` for ``game``, or None if it is not one."""
    found = remote_bots(store).get(name)
    if found is None:
        return None
    if game not in found["games"]:
        raise ConfigError(
            f"remote bot {name!r} plays {', '.join(found['games'])}, not {game} "
            f"(re-register it with `arena bots add --remote {name} --games ...`)"
        )
    return {
        "version_id": remote_version_id(name, found["label"]),
        "name": name,
        "label": found["label"],
        "path": "",
        "command": None,
        "setup": None,
        "entry": None,
        "remote": True,
    }


def has_remote(settings: dict[str, Any]) -> bool:
    """Whether a stored tournament seats a remote bot (so ``arena serve`` plays it)."""
    return any(is_remote(e) for e in settings.get("entries", {}).values())
