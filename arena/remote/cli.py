"""The command line of remote bots: ``arena bots add --remote``, ``bots token``, ``bots
revoke`` and ``arena serve`` (the rest of the CLI is :mod:`arena.cli`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from arena.errors import ConfigError
from arena.paths import arena_command
from arena.referee.server import check_address
from arena.remote import bots
from arena.results.store import open_store
from arena.scheduler.tournament import default_db


def _db(args: argparse.Namespace) -> Path:
    return Path(args.db) if args.db else default_db()


def add(args: argparse.Namespace) -> int:
    """``arena bots add --remote NAME [--games LIST] [--label LABEL]``."""
    if args.remote is None:
        raise ConfigError("name the bot folder, or a remote bot with --remote NAME")
    if args.path is not None:
        raise ConfigError("a remote bot has no folder: give --remote NAME or a folder, not both")
    games = [g.strip() for g in (args.games or "classic").split(",") if g.strip()]
    db = _db(args)
    with open_store(db) as store:
        vid = bots.add_remote(store, args.remote, games, args.label or "1")
        has_token = bots.remote_bots(store)[args.remote]["token_hash"] is not None
    print(f"registered remote bot {args.remote} {args.label or '1'} (version {vid}) in {db}")
    if not has_token:
        print(f"issue its token with: {arena_command()} bots token {args.remote} --db {db}")
    return 0


def token(args: argparse.Namespace) -> int:
    """``arena bots token NAME``: print a new token once (the previous one stops working)."""
    with open_store(_db(args)) as store:
        secret = bots.issue_token(store, args.name)
    print(secret)
    return 0


def revoke(args: argparse.Namespace) -> int:
    """``arena bots revoke NAME``."""
    with open_store(_db(args)) as store:
        had = bots.revoke_token(store, args.name)
    print(f"revoked the token of {args.name}" if had else f"{args.name} had no token")
    return 0


def add_serve_parser(commands: Any, parser_class: type[argparse.ArgumentParser]) -> None:
    """The ``arena serve`` subcommand."""
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
    return serve(_db(args), address, credentials)


def listed(store: Any) -> list[dict[str, Any]]:
    """The remote bots as ``arena bots list`` shows bots (source ``remote``, no folder)."""
    return [
        {
            "name": row["name"],
            "version": row["label"],
            "version_id": bots.remote_version_id(row["name"], row["label"]),
            "source": "remote",
            "language": "remote",
            "description": f"plays {', '.join(row['games'])}; token "
            + ("issued" if row["token_hash"] else "none"),
            "path": "",
            "command": None,
            "setup": None,
            "in_process": False,
            "games": row["games"],
        }
        for row in bots.remote_bots(store).values()
    ]
