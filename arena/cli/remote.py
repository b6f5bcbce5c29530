"""``arena serve``: the referee on TCP for remote bots, playing the tournaments handed to it
(registering remote bots and their tokens is ``arena bots``, in :mod:`arena.cli.bots`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from arena.errors import ConfigError
from arena.referee.server import check_address
from arena.scheduler.tournament import default_db


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``arena serve``."""
    serve = commands.add_parser(
        "serve",
        help="serve the referee on TCP for remote bots and play the tournaments handed to it",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=50051, help="port (50051; 0 picks one)")
    serve.add_argument("--tls-cert", type=Path, metavar="FILE", help="PEM certificate chain")
    serve.add_argument("--tls-key", type=Path, metavar="FILE", help="PEM private key")
    serve.add_argument("--db", type=Path, help="results database (default results/arena.db)")
    serve.set_defaults(run=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    """``arena serve``."""
    from arena.remote.serve import serve, server_credentials

    if not 0 <= args.port <= 65535:
        raise ConfigError(f"--port must be 0-65535, got {args.port}")
    host = f"[{args.host}]" if ":" in args.host and not args.host.startswith("[") else args.host
    address = f"{host}:{args.port}"
    check_address(address)
    credentials = server_credentials(args.tls_cert, args.tls_key)
    return serve(Path(args.db) if args.db else default_db(), address, credentials)
