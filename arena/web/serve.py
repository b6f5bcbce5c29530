"""``arena web`` and ``arena replay view``: check what is served and the address, then serve
with uvicorn on a socket bound here (so ``--port 0`` prints the port it got)."""

from __future__ import annotations

import errno
import socket
from pathlib import Path
from typing import Any

from arena.errors import ConfigError
from arena.results.store import open_store


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port`` (port 0: a free one), or a one-line error: once
    it exists, the URL printed can be fetched (the request waits until the server runs)."""
    if not 0 <= port <= 65535:
        raise ConfigError(f"--port must be 0-65535, got {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ConfigError(f"--host {host!r}: {exc.strerror}") from None
    family, kind, proto, _, address = infos[0]
    bound = socket.socket(family, kind, proto)
    bound.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        bound.bind(address)
        bound.listen(128)  # connections wait from now on, before the server starts accepting
    except OSError as exc:
        bound.close()
        why = "is in use" if exc.errno == errno.EADDRINUSE else f"cannot be used: {exc.strerror}"
        raise ConfigError(f"{host}:{port} {why}") from None
    return bound


def base_url(host: str, bound: socket.socket) -> str:
    """``http://host:port`` with the port the socket really got."""
    port = bound.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def check_db(db: Path) -> None:
    """A one-line error now, not one per page, for a missing or unreadable database."""
    if not db.exists():
        raise ConfigError(
            f"no results database at {db}: run `arena demo` or `arena tournament run` first"
        )
    open_store(db, read_only=True).close()


def run(app: Any, bound: socket.socket) -> None:
    """Serve ``app`` on ``bound`` until interrupted (Ctrl-C ends as KeyboardInterrupt)."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    with bound:
        server.run(sockets=[bound])


def serve(db: Path, host: str, port: int) -> int:
    """``arena web``: serve ``db`` read-only at ``http://host:port/`` until interrupted."""
    from arena.web.app import create_app

    check_db(db)
    bound = listening_socket(host, port)
    url = base_url(host, bound)
    print(f"arena web: serving {db} read-only at {url}/ (Ctrl-C stops)", flush=True)
    run(create_app(db), bound)
    return 0


def serve_match(db: Path, match_id: str, host: str, port: int) -> int:
    """``arena replay view ID``: the whole database, its URL that of the match's page."""
    from arena.web.app import create_app

    check_db(db)
    bound = listening_socket(host, port)
    print(f"{base_url(host, bound)}/matches/{match_id}", flush=True)
    print(f"arena replay view: serving {db} read-only (Ctrl-C stops)", flush=True)
    run(create_app(db), bound)
    return 0


def serve_replay_file(path: Path, host: str, port: int) -> int:
    """``arena replay view FILE``: one replay file's match page, no database needed."""
    from arena.web.replay_app import create_replay_app, file_match

    match = file_match(path)
    bound = listening_socket(host, port)
    print(f"{base_url(host, bound)}/matches/{match.detail['id']}", flush=True)
    print(f"arena replay view: serving {path} read-only (Ctrl-C stops)", flush=True)
    run(create_replay_app(match), bound)
    return 0
