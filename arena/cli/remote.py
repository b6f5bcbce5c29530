"""``arena serve``: the referee on TCP for remote bots, playing the tournaments handed to it
(registering remote bots and their tokens is ``arena bots``, in :mod:`arena.cli.bots`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.errors import ConfigError
from arena.referee.server import check_address
from arena.scheduler import executors
from arena.scheduler.tournament import default_db

if TYPE_CHECKING:
    from arena.remote.hosted import HostedSettings


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
    hosting = serve.add_argument_group(
        "a hosted arena", "ladders, web pages and authors' submissions in the same process"
    )
    hosting.add_argument(
        "--web", metavar="HOST:PORT", help="serve the web pages too (e.g. 127.0.0.1:8000)"
    )
    hosting.add_argument(
        "--ladder",
        action="append",
        default=[],
        metavar="GAME:SEATS",
        help="run a ladder of GAME at tables of SEATS (repeatable; 2,3 mixes sizes), found "
        "again and resumed at the next start",
    )
    hosting.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="NAME",
        help="a house bot entered in every ladder of a game it plays (repeatable)",
    )
    hosting.add_argument(
        "--submissions",
        action="store_true",
        help="accept authors' bots through the web (needs --web, root and bubblewrap)",
    )
    hosting.add_argument(
        "--rules",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rule of the ladders' game (repeatable; `arena rules GAME` lists them)",
    )
    hosting.add_argument("--move-time", type=float, metavar="S", help="seconds per decision (1)")
    hosting.add_argument("--time-bank", type=float, metavar="S", help="seconds of bank (30)")
    hosting.add_argument("--workers", type=int, metavar="N", help="matches at once (one per core)")
    hosting.add_argument("--executor", choices=executors.EXECUTORS, help="local (default) or ray")
    hosting.add_argument(
        "--ray-address", metavar="HOST:PORT", help="the Ray cluster (default: a local instance)"
    )
    hosting.add_argument(
        "--setup-time", type=float, metavar="S", help="longest a submitted bot's setup runs (600)"
    )
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
    web = _web_address(args.web) if args.web else None
    return serve(
        Path(args.db) if args.db else default_db(), address, credentials, _hosted(args), web
    )


LADDER_ONLY = ("bot", "rules", "move_time", "time_bank", "workers", "executor", "ray_address")


def _hosted(args: argparse.Namespace) -> HostedSettings | None:
    """What the serve hosts besides the lobby, from the flags (None: nothing)."""
    from arena.remote.hosted import HostedSettings, parse_ladder, settings_for
    from arena.submissions.builder import BuildSettings

    if not args.ladder:
        given = [name for name in LADDER_ONLY if getattr(args, name) not in (None, [])]
        if given:
            flag = "--" + given[0].replace("_", "-")
            raise ConfigError(f"{flag} is for a hosted ladder: add --ladder GAME:SEATS")
    if args.setup_time is not None and not args.submissions:
        raise ConfigError("--setup-time is for submitted bots: add --submissions")
    if args.submissions and not args.web:
        raise ConfigError("--submissions needs --web HOST:PORT (authors upload through it)")
    if not args.ladder and not args.submissions:
        return None
    ladders = [parse_ladder(text) for text in args.ladder]
    if len({hosted.name for hosted in ladders}) < len(ladders):
        raise ConfigError("two --ladder flags name the same ladder")
    settings = HostedSettings(ladders=ladders, bots=list(args.bot), rules=list(args.rules))
    for flag in ("move_time", "time_bank", "workers", "executor", "ray_address"):
        if getattr(args, flag) is not None:
            setattr(settings, flag, getattr(args, flag))
    if settings.move_time <= 0 or settings.time_bank < 0:
        raise ConfigError("--move-time must be positive and --time-bank at least 0")
    if settings.workers < 0:
        raise ConfigError(f"--workers must be 0 (one per core) or more, got {settings.workers}")
    if args.setup_time is not None:
        if args.setup_time <= 0:
            raise ConfigError(f"--setup-time must be positive, got {args.setup_time:g}")
        settings.build = BuildSettings(setup_seconds=args.setup_time)
    settings.submissions = args.submissions
    for hosted in ladders:  # each game checks its settings and rules now: one line, no start
        settings_for(hosted, settings).check(entries_later=True)
    if ladders:
        executors.check(settings.executor, settings.ray_address or None)
    return settings


def _web_address(text: str) -> tuple[str, int]:
    """``--web HOST:PORT`` (``[::1]:8000`` for IPv6)."""
    host, sep, port = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ConfigError(f"--web {text!r}: expected HOST:PORT, e.g. 127.0.0.1:8000")
    return host, int(port)
