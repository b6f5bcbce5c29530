"""``arena web``: the read-only browser front end over a results database."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from arena.scheduler import tournament as tournaments


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``arena web``."""
    web = commands.add_parser(
        "web", help="leaderboards, bots, tournaments and replays in the browser (read-only)"
    )
    web.add_argument("--db", type=Path, help="results database (default results/arena.db)")
    web.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    web.add_argument("--port", type=int, default=8000, help="port (8000; 0 picks a free one)")
    web.set_defaults(run=cmd_web)


def cmd_web(args: argparse.Namespace) -> int:
    from arena.web.serve import serve

    return serve(args.db or tournaments.default_db(), args.host, args.port)
