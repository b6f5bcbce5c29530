"""The installation's secret key and the per-seat bot seeds keyed by it.

A seat's ``bot_seed`` is HMAC-SHA-256 of the match seed and the seat under the installation's
secret key (32 random bytes in ``$ARENA_HOME/secret``, mode 0600, made on first use; or the 64
hex digits of ``$ARENA_SECRET``, to share one key between machines), so nothing a seat
receives leads back to the match seed, from which every die and card could be foreseen. On
one installation the same seed still gives the same bot seeds.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from pathlib import Path

from arena.errors import ConfigError
from arena.paths import results_home

KEY_FILE = "secret"
KEY_ENV = "ARENA_SECRET"
KEY_BYTES = 32

_KEYS: dict[Path, bytes] = {}
"""Each installation key once read (a worker reads it once, not per match)."""


def installation_key(home: Path | None = None) -> bytes:
    """The installation's secret key: ``$ARENA_SECRET`` (hex) when set, else
    ``$ARENA_HOME/secret``, made on first use: created exclusively with mode 0600, so two
    processes making it at once agree on one key."""
    shared = os.environ.get(KEY_ENV) if home is None else None
    if shared:
        try:
            key = bytes.fromhex(shared)
        except ValueError:
            key = b""
        if len(key) != KEY_BYTES:
            raise ConfigError(f"{KEY_ENV} must be {2 * KEY_BYTES} hex digits ({KEY_BYTES} bytes)")
        return key
    path = ((home or results_home()) / KEY_FILE).resolve()
    known = _KEYS.get(path)
    if known is not None:
        return known
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot make the installation key {path}: {exc.strerror}") from None
    else:
        key = secrets.token_bytes(KEY_BYTES)
        with os.fdopen(descriptor, "wb") as file:
            file.write(key)
    if len(key) != KEY_BYTES:  # a file still being written by another process, or damaged
        key = _reread(path)
    _KEYS[path] = key
    return key


def _reread(path: Path) -> bytes:
    for _ in range(100):  # bounded: the writer writes 32 bytes in one call
        key = path.read_bytes()
        if len(key) == KEY_BYTES:
            return key
    raise ConfigError(
        f"the installation key {path} holds {len(key)} bytes, not {KEY_BYTES}: remove it to "
        "make a new one (bot seeds then change)"
    )


def bot_seed(seed: int, seat: int, key: bytes | None = None) -> int:
    """The per-seat seed a bot may use for reproducible randomness of its own: keyed, so the
    match seed cannot be recovered from it."""
    mac = hmac.new(key if key is not None else installation_key(), digestmod=hashlib.sha256)
    mac.update(f"{seed}/bot/{seat}".encode())
    return int.from_bytes(mac.digest()[:8], "big")
