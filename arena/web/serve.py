"""``arena web``: check the database and the address, then serve with uvicorn."""

from __future__ import annotations

import errno
import socket
from pathlib import Path

from arena.errors import ConfigError
from arena.store import open_store


def check_address(host: str, port: int) -> None:
    """A one-line error unless ``host:port`` can be listened on now."""
    if not 0 <= port <= 65535:
        raise ConfigError(f"--port must be 0-65535, got {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ConfigError(f"--host {host!r}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            why = (
                "is in use" if exc.errno == errno.EADDRINUSE else f"cannot be used: {exc.strerror}"
            )
            raise ConfigError(f"{host}:{port} {why}") from None


def serve(db: Path, host: str, port: int) -> int:
    """Serve ``db`` read-only at ``http://host:port/`` until interrupted."""
    import uvicorn

    from arena.web.app import create_app

    if not db.exists():
        raise ConfigError(
            f"no results database at {db}: run `arena demo` or `arena tournament run` first"
        )
    open_store(db, read_only=True).close()  # a bad file is a one-line error now, not per page
    check_address(host, port)
    shown = f"[{host}]" if ":" in host else host
    print(f"arena web: serving {db} read-only at http://{shown}:{port}/ (Ctrl-C stops)")
    uvicorn.run(create_app(db), host=host, port=port, log_level="warning")
    return 0
