"""A ladder's own commands: ``arena tournament add|remove|finals``.

``add`` and ``remove`` only ask (the ladder's scheduler enters or retires the bot at its next
decision, running or, if stopped, when resumed); ``finals`` freezes the entries and plays the
cutoff schedule, as ``resume`` plays the rest of a tournament.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from arena.cli.common import (
    EXIT_OK,
    db_flags,
    executor_flags,
    fault_flags,
    fault_limit,
    open_db,
)
from arena.errors import ConfigError
from arena.scheduler import ladder


def add_parsers(
    tcommands: argparse._SubParsersAction[Any], resume: Callable[[argparse.Namespace], int]
) -> None:
    """Add ``add``, ``remove`` and ``finals`` to ``arena tournament`` (``resume`` plays)."""
    add = tcommands.add_parser("add", help="enter bots in a ladder (at its next decision)")
    add.add_argument("id")
    add.add_argument(
        "--bot", action="append", required=True, metavar="BOT", help="a bot name or folder"
    )
    add.add_argument(
        "--allow-flagged", action="store_true", help="enter a version flagged for faults"
    )
    fault_flags(add)
    add.add_argument("--db", type=Path, help="results database (default results/arena.db)")
    add.set_defaults(run=cmd_add)
    remove = tcommands.add_parser("remove", help="retire bots from a ladder")
    remove.add_argument("id")
    remove.add_argument("--bot", action="append", required=True, metavar="NAME")
    remove.add_argument("--db", type=Path, help="results database (default results/arena.db)")
    remove.set_defaults(run=cmd_remove)
    finals = tcommands.add_parser(
        "finals", help="freeze a ladder's entries and play its finals (cutoff schedule)"
    )
    finals.add_argument("id")
    finals.add_argument(
        "--cut",
        required=True,
        metavar="GAMES:KEEP,...",
        help="e.g. 20:16,40:8,80:4: every survivor plays up to GAMES finals games, then the "
        "top KEEP by mu - 3 sigma stay; the next step starts from there",
    )
    finals.add_argument("--workers", type=int)
    executor_flags(finals, kept=True)
    db_flags(finals)
    finals.set_defaults(run=cmd_finals, resume=resume)


def cmd_add(args: argparse.Namespace) -> int:
    limit = None if args.allow_flagged else fault_limit(args)
    with open_db(args.db, create=False) as store:
        for bot in args.bot:
            entry = ladder.add(store, args.id, bot, limit)
            print(
                f"{entry['name']} ({entry['version_id']}) enters ladder {args.id} "
                "at its next decision"
            )
    return EXIT_OK


def cmd_remove(args: argparse.Namespace) -> int:
    with open_db(args.db, create=False) as store:
        for bot in args.bot:
            versions = ladder.remove(store, args.id, bot)
            print(f"{bot} ({', '.join(versions)}) leaves ladder {args.id} at its next decision")
    return EXIT_OK


def cmd_finals(args: argparse.Namespace) -> int:
    cuts = ladder.parse_cuts(args.cut)
    with open_db(args.db, create=False) as store:
        found = ladder.ladder_of(store, args.id)
        if found["status"] == "running":
            raise ConfigError(
                f"ladder {args.id} is running (process {found['runner_pid']} on "
                f"{found['runner_host']}): stop it (Ctrl-C) before its finals"
            )
        ladder.start_finals(store, args.id, cuts)
    steps = ", ".join(f"up to {games} games then the top {keep}" for games, keep in cuts)
    print(f"ladder {args.id}: finals with entries frozen and tau = 0: {steps}", file=sys.stderr)
    args.record_new_version = False
    args.matches = None
    resume: Callable[[argparse.Namespace], int] = args.resume
    return resume(args)
