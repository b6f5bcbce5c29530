"""The ``arena`` command line: a thin layer over the library, one module per command group
(each adds its subcommands and holds their handlers); this module assembles the parser and
turns errors and signals into exit codes.

Exit codes: 0 success; 1 a check failed (e.g. a replay diverged); 2 bad input (unknown bot,
rules key or value, bad arguments). Errors print as one line without a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

os.environ.setdefault("GRPC_VERBOSITY", "ERROR")  # before grpc loads: no fork() notices

from arena import __version__, games
from arena.cli import (
    authors,
    bots,
    info,
    ladder,
    match,
    remote,
    replay,
    submissions,
    submit,
    tournament,
    versus,
    web,
)
from arena.cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE, Parser, check_numbers
from arena.errors import ArenaError, ConfigError, ReplayError
from arena.paths import bot_folder_around, results_home
from arena.sandbox.isolation import detect

__all__ = ["EXIT_FAILED", "EXIT_OK", "EXIT_USAGE", "build_parser", "main"]


def _name_commands(parser: argparse.ArgumentParser) -> None:
    """Give every (sub)command's namespace its ``command_prog`` (``arena tournament run``), so
    that an unknown flag, found by the top parser, names the command's help."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                sub.set_defaults(command_prog=sub.prog)
                _name_commands(sub)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="arena", description="Risk Arena: pit RISK-playing programs against each other."
    )
    parser.add_argument("--version", action="version", version=f"arena {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    # The order is that of `arena --help`.
    match.add_parser(commands)
    bots.add_check_bot_parser(commands)
    tournament.add_parser(commands)
    web.add_parser(commands)
    tournament.add_demo_parser(commands)
    versus.add_parser(commands)
    info.add_parser(commands)
    for add_commands in _game_commands():  # each game's own commands (classic: odds)
        add_commands(commands)
    replay.add_parser(commands)
    bots.add_parser(commands)
    remote.add_parser(commands)
    authors.add_parser(commands)
    submissions.add_parser(commands)
    submit.add_parser(commands)
    _name_commands(parser)
    return parser


def _game_commands() -> list[Callable[[argparse._SubParsersAction[Any]], None]]:
    """The ``add_commands`` of every registered game that has commands of its own, in listing
    order: from the module it was registered with, else from ``arena.cli.NAME`` when there
    is one (classic: ``arena odds``); a game with neither adds none."""
    found = []
    for name in games.names():
        registered = games.command_module(name)
        if registered is not None:
            found.append(importlib.import_module(registered).add_commands)
            continue
        add_commands = getattr(games.layer_module(__name__, name), "add_commands", None)
        if add_commands is not None:  # not a command group that shares the game's name
            found.append(add_commands)
    return found


EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
"""Exit codes of a command stopped by Ctrl-C (SIGINT) and by SIGTERM: 128 + the signal."""


@contextlib.contextmanager
def _sigterm_stops_like_ctrl_c() -> Iterator[list[bool]]:
    """While inside, SIGTERM (what ``timeout`` and service managers send) stops a command
    exactly as Ctrl-C does, through whatever handles SIGINT at that moment (a match ends its
    bots and keeps its replay, a tournament stops resumable); the list yielded says whether
    it came."""
    terminated = [False]
    if threading.current_thread() is not threading.main_thread():
        yield terminated
        return

    def on_sigterm(signum: int, frame: FrameType | None) -> None:
        terminated[0] = True
        handler = signal.getsignal(signal.SIGINT)
        if callable(handler):
            handler(signal.SIGINT, frame)
        else:  # SIGINT ignored (a background job): stop all the same
            raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        yield terminated
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    with _sigterm_stops_like_ctrl_c() as terminated:
        code = _run_command(args, terminated)
    return EXIT_TERMINATED if terminated[0] and code == EXIT_INTERRUPTED else code


def _run_command(args: argparse.Namespace, terminated: list[bool]) -> int:
    """Run the parsed command: bad input is one line and exit 2, an interrupt exit 130."""
    try:
        check_numbers(vars(args), lambda key: "--" + key.replace("_", "-"))
        if args.run in STARTS_BOTS:
            detect()  # a bad $ARENA_ISOLATION, or a required layer missing: before anything
            _say_if_writing_into_a_bot_folder(getattr(args, "db", None))
        return int(args.run(args))
    except ConfigError as exc:
        print(f"arena: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ReplayError as exc:
        print(f"arena: error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except ArenaError as exc:
        print(f"arena: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # output piped into e.g. `head`
        sys.stderr.close()
        return EXIT_OK
    except KeyboardInterrupt:
        print("arena: terminated" if terminated[0] else "arena: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


STARTS_BOTS = frozenset(
    {
        match.cmd_match,
        tournament.cmd_tournament_run,
        tournament.cmd_tournament_resume,
        ladder.cmd_finals,
        versus.cmd_versus,
        tournament.cmd_demo,
        bots.cmd_check_bot,
        bots.cmd_bots_add,
        bots.cmd_bots_setup,
        remote.cmd_serve,
    }
)
"""Commands that start bot processes (or their setup): the isolation settings are checked
before they do anything."""


def _say_if_writing_into_a_bot_folder(db: Path | None) -> None:
    """One line when the results (the results home, or ``--db``) would land inside a bot's
    folder: they are not part of its version, but the author should know where they go."""
    for where in (results_home(), db):
        folder = bot_folder_around(where) if where is not None else None
        if folder is not None:
            print(
                f"arena: note: writing results into the bot folder {folder} ({where}); they are"
                " not part of the bot's version (set ARENA_HOME or --db to keep them elsewhere)",
                file=sys.stderr,
            )
            return
