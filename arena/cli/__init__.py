"""The ``arena`` command line: a thin layer over the library.

Exit codes: 0 success; 1 a check failed (e.g. a replay diverged); 2 bad input (unknown bot,
rules key or value, bad arguments). Errors print as one line without a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import dataclasses
import importlib
import io
import json
import math
import os
import shlex
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

os.environ.setdefault("GRPC_VERBOSITY", "ERROR")  # before grpc loads: no fork() notices

from arena import __version__, games
from arena.catalog import (
    BotSpec,
    bundled_bots,
    check_plays,
    find_bot,
    load_bot,
    read_spec,
    run_setup,
    version_id,
)
from arena.errors import ArenaError, ConfigError, ReplayError
from arena.games import GAMES, check_game
from arena.paths import arena_command, bot_folder_around, replays_dir, results_home
from arena.progress import ProgressBar, StatusLine
from arena.referee import checkbot
from arena.referee.local import play, seat_log
from arena.referee.match import MatchResult, TimeControl
from arena.remote import cli as remote_cli
from arena.remote.bots import has_remote
from arena.remote.handoff import Follower, require_serve
from arena.replays import text as replay_text
from arena.replays.files import read as read_replay
from arena.replays.files import verify
from arena.results import reports, stats
from arena.results.faults import DEFAULT_LIMIT, DEFAULT_MIN_MATCHES, DEFAULT_PERCENT, FaultLimit
from arena.results.store import DamagedReplayError, Store, empty_store, open_store
from arena.sandbox.isolation import detect
from arena.scheduler import executors, series
from arena.scheduler import tournament as tournaments
from arena.sdk.bot import Bot
from arena.sdk.classic.human import HumanBot
from arena.sdk.europe_human import EuropeHumanBot
from arena.seeds import new_seed

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse with exit code 2 and one line for a usage error: what is wrong and where the
    command's help is (the whole usage block buries the flag that was wrong)."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extra = super().parse_known_args(args, namespace)
        if extra and self.prog == "arena":  # name the command whose flags they are not
            command = getattr(parsed, "command_prog", self.prog)
            self._fail(command, f"unrecognized arguments: {' '.join(extra)}")
        return parsed, extra

    def error(self, message: str) -> NoReturn:
        self._fail(self.prog, message)

    def _fail(self, prog: str, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"arena: error: {message} (see `{prog} --help`)\n")


def _name_commands(parser: argparse.ArgumentParser) -> None:
    """Give every (sub)command's namespace its ``command_prog`` (``arena tournament run``), so
    that an unknown flag, found by the top parser, names the command's help."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                sub.set_defaults(command_prog=sub.prog)
                _name_commands(sub)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="arena", description="Risk Arena: pit RISK-playing programs against each other."
    )
    parser.add_argument("--version", action="version", version=f"arena {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    match = commands.add_parser(
        "match",
        help="play one match and print the result",
        description="Play one match and print the result. The match is kept as a replay file "
        "(results/replays/), not in the results database: only tournament matches are stored "
        "there, so `arena replay show` takes this match's file path, not its id.",
    )
    match.add_argument("--game", default="classic", help=f"game to play ({', '.join(GAMES)})")
    match.add_argument(
        "--bot",
        action="append",
        required=True,
        metavar="BOT",
        help="a bundled or registered bot's name, a bot folder path, or `human` to play a "
        "seat yourself at this terminal (no clock); repeat once per seat (seats 0, 1, …)",
    )
    _registry_flag(match)
    match.add_argument("--seed", type=int, help="match seed (default: random, printed)")
    match.add_argument(
        "--rules",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="rules option, repeatable (see `arena rules`)",
    )
    match.add_argument(
        "--in-process",
        action="store_true",
        help="run Python bots inside the referee process (fast path) instead of as gRPC subprocesses",
    )
    match.add_argument("--json", action="store_true", help="print one JSON object")
    match.add_argument("--no-replay", action="store_true", help="do not write a replay file")
    match.add_argument(
        "--strike-limit",
        type=int,
        default=3,
        help="strikes (timeouts, illegal answers) before a seat forfeits",
    )
    match.add_argument(
        "--move-time",
        type=float,
        default=1.0,
        metavar="S",
        help="seconds per decision before the bank is drawn on (default 1)",
    )
    match.add_argument(
        "--time-bank",
        type=float,
        default=30.0,
        metavar="S",
        help="seconds of bank per seat for the whole match (default 30)",
    )
    match.add_argument(
        "--startup-time",
        type=float,
        default=10.0,
        metavar="S",
        help="seconds a bot process has to connect (default 10)",
    )
    match.add_argument("--no-clock", action="store_true", help="play without clocks")
    match.add_argument(
        "--address",
        metavar="HOST:PORT",
        help="serve bots over TCP here (default: a private unix socket)",
    )
    match.set_defaults(run=cmd_match)

    check = commands.add_parser(
        "check-bot", help="put a bot through every decision kind and the error paths"
    )
    check.add_argument("bot", help="bundled or registered bot name, or bot folder path")
    check.add_argument(
        "--game",
        default=None,
        help="the game the bot is checked for; its bot.toml must list it "
        f"({', '.join(GAMES)}; default: the bot's only game, else classic)",
    )
    _registry_flag(check)
    check.add_argument("--in-process", action="store_true", help="load the Python bot in-process")
    check.add_argument(
        "--move-time",
        type=float,
        default=1.0,
        metavar="S",
        help="seconds allowed per answer (default 1)",
    )
    check.add_argument("--startup-time", type=float, default=10.0, metavar="S")
    check.add_argument("--json", action="store_true")
    check.set_defaults(run=cmd_check_bot)

    tournament = commands.add_parser("tournament", help="run and resume tournaments")
    tcommands = tournament.add_subparsers(
        dest="tournament_command", required=True, parser_class=_Parser
    )
    trun = tcommands.add_parser("run", help="plan a round-robin tournament and run it")
    trun.add_argument("--config", type=Path, metavar="FILE", help="settings from a TOML file")
    trun.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="BOT",
        help="a bot name or folder; repeat for each bot",
    )
    trun.add_argument("--name", help="a name for the tournament")
    trun.add_argument(
        "--game", help=f"game to play ({', '.join(GAMES)}; default classic, or the file's)"
    )
    trun.add_argument("--rules", action="append", default=[], metavar="KEY=VALUE")
    trun.add_argument("--seats", type=int, help="seats per match, 2-6 (default 2)")
    trun.add_argument("--rounds", type=int, help="rounds of the schedule (default 1)")
    trun.add_argument("--move-time", type=float, metavar="S")
    trun.add_argument("--time-bank", type=float, metavar="S")
    trun.add_argument("--startup-time", type=float, metavar="S")
    trun.add_argument("--strike-limit", type=int)
    trun.add_argument("--seed", type=int, help="tournament seed (default: random)")
    trun.add_argument(
        "--workers",
        type=int,
        help="worker processes (default: one per usable core, with or without --in-process: "
        "more than cores measured no faster, as a match keeps its core busy; more can pay "
        "with bots that wait on something else than the CPU)",
    )
    trun.add_argument(
        "--fresh-process", action="store_true", help="start every bot anew for each match"
    )
    trun.add_argument(
        "--in-process",
        action="store_true",
        help="play Python bots that have an entry inside the workers (same results, faster; "
        "other bots still run as processes); kept by resume",
    )
    _executor_flags(trun)
    trun.add_argument(
        "--allow-flagged",
        action="store_true",
        help="seat bot versions flagged for faults (see --fault-limit) instead of refusing them",
    )
    _fault_flags(trun)
    _db_flags(trun)
    trun.set_defaults(run=cmd_tournament_run)
    tresume = tcommands.add_parser("resume", help="play the unrecorded rest of a tournament")
    tresume.add_argument("id")
    tresume.add_argument("--workers", type=int)
    _executor_flags(tresume, kept=True)
    tresume.add_argument(
        "--record-new-version",
        action="store_true",
        help="a bot changed since the tournament was planned: play its remaining matches "
        "as the new version (rated apart from the old one)",
    )
    _db_flags(tresume)
    tresume.set_defaults(run=cmd_tournament_resume)
    tlist = tcommands.add_parser("list", help="list tournaments")
    tlist.add_argument("--db", type=Path)
    _format_flags(tlist)
    tlist.set_defaults(run=cmd_tournament_list)
    tshow = tcommands.add_parser("show", help="a tournament's crosstable and fault summary")
    tshow.add_argument("id")
    tshow.add_argument("--db", type=Path)
    _fault_flags(tshow)
    _format_flags(tshow)
    tshow.set_defaults(run=cmd_tournament_show)

    board = commands.add_parser("leaderboard", help="ratings and results, best first")
    board.add_argument(
        "--game", help=f"only this game's pools ({', '.join(GAMES)}; default: every game)"
    )
    board.add_argument("--tournament", metavar="ID")
    board.add_argument("--pool", help="rating pool, e.g. classic/3p/world (default: the latest)")
    board.add_argument("--db", type=Path)
    _fault_flags(board)
    _format_flags(board)
    board.set_defaults(run=cmd_leaderboard)

    matches = commands.add_parser("matches", help="recorded matches")
    matches.add_argument("--tournament", metavar="ID")
    matches.add_argument(
        "--game", help=f"only this game's matches ({', '.join(GAMES)}; default: every game)"
    )
    matches.add_argument("--db", type=Path)
    _format_flags(matches)
    matches.set_defaults(run=cmd_matches)

    ratings = commands.add_parser("ratings", help="rating maintenance")
    rcommands = ratings.add_subparsers(dest="ratings_command", required=True, parser_class=_Parser)
    rebuild = rcommands.add_parser("rebuild", help="recompute every rating from the stored matches")
    rebuild.add_argument("--db", type=Path)
    rebuild.set_defaults(run=cmd_ratings_rebuild)

    web = commands.add_parser(
        "web", help="leaderboards, bots, tournaments and replays in the browser (read-only)"
    )
    web.add_argument("--db", type=Path, help="results database (default results/arena.db)")
    web.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    web.add_argument("--port", type=int, default=8000, help="port (8000; 0 picks a free one)")
    web.set_defaults(run=cmd_web)

    demo = commands.add_parser(
        "demo", help="a short tournament of the bundled bots, then the leaderboard"
    )
    demo.add_argument("--db", type=Path)
    demo.add_argument("--workers", type=int)
    demo.add_argument("--no-progress", action="store_true")
    demo.set_defaults(run=cmd_demo)

    versus = commands.add_parser(
        "versus", help="is A better than B? a seat-rotated, seed-paired series"
    )
    versus.add_argument("a", help="bot A (name or folder)")
    versus.add_argument("b", help="bot B (name or folder)")
    versus.add_argument(
        "--game", default="classic", help=f"game to play ({', '.join(GAMES)}; default classic)"
    )
    versus.add_argument("--games", type=int, default=20, help="games at most (default 20)")
    versus.add_argument("--seats", type=int, default=2, help="seats per game (default 2)")
    versus.add_argument("--filler", help="bot for the other seats when --seats > 2")
    _registry_flag(versus)
    versus.add_argument(
        "--sprt",
        metavar="ELO0,ELO1",
        help="stop as soon as an SPRT (α = β = 0.05) decides Elo0 v Elo1",
    )
    versus.add_argument("--rules", action="append", default=[], metavar="KEY=VALUE")
    versus.add_argument("--seed", type=int)
    versus.add_argument("--move-time", type=float, default=1.0, metavar="S")
    versus.add_argument("--time-bank", type=float, default=30.0, metavar="S")
    versus.add_argument("--json", action="store_true")
    versus.set_defaults(run=cmd_versus)

    doctor = commands.add_parser(
        "doctor", help="which isolation layers protect bot processes here, and why not"
    )
    doctor.add_argument(
        "--no-trial", action="store_true", help="do not start a bundled bot to try the layers"
    )
    doctor.add_argument("--json", action="store_true")
    doctor.set_defaults(run=cmd_doctor)

    rules = commands.add_parser("rules", help="list the rules options and their values")
    rules.add_argument(
        "game", nargs="?", help="one game (default: every registered game, see `arena games`)"
    )
    rules.add_argument("--json", action="store_true")
    rules.set_defaults(run=cmd_rules)

    listed_games = commands.add_parser("games", help="list the registered games")
    listed_games.add_argument("--json", action="store_true")
    listed_games.set_defaults(run=cmd_games)

    for module in games.command_modules():  # each game's own commands (classic: odds)
        importlib.import_module(module).add_commands(commands)

    replay = commands.add_parser("replay", help="work with replay files")
    replay_commands = replay.add_subparsers(
        dest="replay_command", required=True, parser_class=_Parser
    )
    verify_cmd = replay_commands.add_parser(
        "verify", help="re-play a replay and compare every event"
    )
    verify_cmd.add_argument("replay", metavar="MATCH_ID|FILE")
    verify_cmd.add_argument("--json", action="store_true")
    verify_cmd.add_argument("--db", type=Path)
    verify_cmd.set_defaults(run=cmd_replay_verify)
    show_cmd = replay_commands.add_parser("show", help="print a match turn by turn")
    show_cmd.add_argument("replay", metavar="MATCH_ID|FILE")
    show_cmd.add_argument(
        "--step",
        action="store_true",
        help="wait for Enter after each turn (q or end of input quits)",
    )
    show_cmd.add_argument("--db", type=Path)
    show_cmd.set_defaults(run=cmd_replay_show)
    export_cmd = replay_commands.add_parser("export", help="write a stored match's replay file")
    export_cmd.add_argument("match_id")
    export_cmd.add_argument("file", type=Path)
    export_cmd.add_argument("--db", type=Path)
    export_cmd.set_defaults(run=cmd_replay_export)
    view_cmd = replay_commands.add_parser(
        "view", help="watch a match in the browser: serve its replay viewer until Ctrl-C"
    )
    view_cmd.add_argument("replay", metavar="MATCH_ID|FILE")
    view_cmd.add_argument("--db", type=Path, help="results database (default results/arena.db)")
    view_cmd.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    view_cmd.add_argument("--port", type=int, default=8000, help="port (8000; 0 picks a free one)")
    view_cmd.set_defaults(run=cmd_replay_view)

    bots = commands.add_parser(
        "bots", help="list the bundled and registered bots, register one, or run a bot's setup"
    )
    bots.add_argument("--json", action="store_true")
    _registry_flag(bots)
    bots.set_defaults(run=cmd_bots)
    bots_commands = bots.add_subparsers(dest="bots_command", parser_class=_Parser)
    bots_list = bots_commands.add_parser("list", help="list the bundled and registered bots")
    # SUPPRESS: `arena bots --json list` keeps the --json given before `list`.
    bots_list.add_argument("--json", action="store_true", default=argparse.SUPPRESS)
    _registry_flag(bots_list, default=argparse.SUPPRESS)
    bots_list.set_defaults(run=cmd_bots)
    bots_add = bots_commands.add_parser(
        "add", help="register a bot folder under its name (runs its setup)"
    )
    bots_add.add_argument("path", type=Path, nargs="?", help="the bot's folder (with bot.toml)")
    bots_add.add_argument(
        "--remote", metavar="NAME", help="register a remote bot (no folder: it dials in)"
    )
    bots_add.add_argument(
        "--games", metavar="LIST", help="with --remote: the games it plays (default classic)"
    )
    bots_add.add_argument(
        "--label", metavar="LABEL", help="with --remote: its version label (default 1)"
    )
    bots_add.add_argument(
        "--db", type=Path, help="results database to register it in (default results/arena.db)"
    )
    bots_add.add_argument(
        "--replace",
        action="store_true",
        help="repoint the name when it is already registered for another folder",
    )
    bots_add.set_defaults(run=cmd_bots_add)
    for verb, what in (("token", "issue a new token for"), ("revoke", "revoke the token of")):
        command = bots_commands.add_parser(verb, help=f"{what} a remote bot")
        command.add_argument("name", help="the remote bot's name")
        command.add_argument("--db", type=Path, help="results database (default results/arena.db)")
        command.set_defaults(run=cmd_bots_token if verb == "token" else cmd_bots_revoke)
    bots_setup = bots_commands.add_parser("setup", help="run a bot's setup command (again)")
    bots_setup.add_argument("bot", help="bundled or registered bot name, or bot folder path")
    _registry_flag(bots_setup)
    bots_setup.set_defaults(run=cmd_bots_setup)
    remote_cli.add_serve_parser(commands, _Parser)
    _name_commands(parser)
    return parser


DAY = 86_400.0
"""The longest clock setting in seconds: the wire carries milliseconds in 32 bits (~49 days)."""

INT64 = 2**63

_NUMBERS: dict[str, tuple[Any, str]] = {
    "move_time": (lambda v: 0 < v <= DAY, "seconds above 0, at most 86400"),
    "time_bank": (lambda v: 0 <= v <= DAY, "seconds from 0 to 86400"),
    "startup_time": (lambda v: 0 < v <= DAY, "seconds above 0, at most 86400"),
    "strike_limit": (lambda v: 1 <= v < INT64, "a whole number of at least 1"),
    "seed": (lambda v: -INT64 <= v < INT64, "a whole number from -2**63 to 2**63-1"),
    "games": (lambda v: 1 <= v <= 1_000_000, "a whole number from 1 to 1000000"),
    "rounds": (lambda v: 1 <= v <= 10_000, "a whole number from 1 to 10000"),
    "workers": (lambda v: 0 <= v <= 1024, "a whole number from 0 (one per core) to 1024"),
    "simulate": (lambda v: 1 <= v < INT64, "a positive number of battles"),
    "fault_limit": (lambda v: 0 <= v <= 100, "a percentage from 0 to 100"),
    "fault_min_matches": (lambda v: 1 <= v < INT64, "a whole number of at least 1"),
}
"""Every numeric setting of every command, checked the same way (NaN fails every test)."""


def _check_numbers(values: dict[str, Any], name: Any) -> None:
    """Refuse out-of-range, infinite or NaN numbers up front, before they reach a bot or the
    database (where they raise deep inside); ``name(key)`` says how the user wrote the key."""
    for key, (ok, what) in _NUMBERS.items():
        value = values.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool) and not ok(value):
            raise ConfigError(f"{name(key)} must be {what}, got {value}")


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
        _check_numbers(vars(args), lambda key: "--" + key.replace("_", "-"))
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


HUMAN_SEATS: dict[str, type[HumanBot] | type[EuropeHumanBot]] = {
    "classic": HumanBot,
    "europe": EuropeHumanBot,
}
"""The terminal seat (`--bot human`) of each game that has one."""


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


def cmd_match(args: argparse.Namespace) -> int:
    check_game(args.game)
    find = _bot_finder(args.db)
    specs = [None if name == "human" else find(name) for name in args.bot]
    for spec in specs:
        if spec is not None:
            check_plays(spec, args.game)
    human = HUMAN_SEATS.get(args.game)
    if None in specs and human is None:
        raise ConfigError(f"the human seat plays only {' and '.join(HUMAN_SEATS)}, not {args.game}")
    game = games.configure(args.game, args.rules, players=len(specs))
    control = TimeControl(
        move_time=None if args.no_clock else args.move_time,
        time_bank=args.time_bank,
        startup_time=args.startup_time,
    )
    seed = args.seed if args.seed is not None else new_seed()
    players: list[BotSpec | Bot] = []
    for spec in specs:
        if spec is None:  # with --json the seat talks on stderr: stdout stays one object
            assert human is not None
            players.append(human(stdout=sys.stderr if args.json else None))
        elif args.in_process:
            players.append(load_bot(spec))
        else:
            players.append(spec)
    untimed = frozenset(i for i, spec in enumerate(specs) if spec is None)
    replay_path = None if args.no_replay else _new_replay_path(args.game, seed)
    result = play(
        game,
        players,
        seed,
        control,
        replay_path,
        strike_limit=args.strike_limit,
        address=args.address,
        untimed=untimed,
    )
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        logs = {
            seat: seat_log(result.match_id, seat, player)
            for seat, player in enumerate(players)
            if isinstance(player, BotSpec)
        }
        _print_summary(result, logs)
    return EXIT_OK


def _new_replay_path(game: str, seed: int) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    folder = replays_dir()
    for n in range(1000):
        suffix = f"-{n}" if n else ""
        path = folder / f"{game}-{stamp}-seed{seed}{suffix}.jsonl"
        if not path.exists():
            return path
    raise ArenaError(f"too many replays named {game}-{stamp}-seed{seed}* in {folder}")


def _ended_by(result: MatchResult) -> str:
    """Why the match ended, in words: "domination" when the last seat standing won because the
    others forfeited (not by conquest) is reported as a forfeit; ``end`` itself stays as is."""
    if result.end == "domination" and result.winner is not None:
        others = [s for s in result.out_order if s != result.winner]
        if others and result.seats[others[-1]].status != "OK":
            last = result.seats[others[-1]]
            return f"forfeit (seat {last.seat}, {last.bot}: {last.status})"
    return result.end


_FIGURE_HEADS = {"territories": "terr."}
"""Short column heads for a game's standings figures (others show their own key)."""


def _print_summary(result: MatchResult, logs: dict[int, Path] | None = None) -> None:
    """The text form of ``arena match``; ``logs`` are the stderr logs of subprocess seats."""
    rules = ", ".join(
        f"{k}={str(v).lower() if isinstance(v, bool) else v}"
        for k, v in result.rules.items()
        if k != "players"
    )
    players = len(result.seats)
    title = "classic RISK" if result.game == "classic" else result.game
    print(f"{title} · match {result.match_id} · {players} players · seed {result.seed}")
    print(f"rules: {rules}")
    print()
    figures = list(result.standings[0]) if result.standings else []
    heads = "".join(f" {_FIGURE_HEADS.get(k, k):>6}" for k in figures)
    print(f"{'place':>5}  {'seat':>4}  {'bot':<16} {'status':<10} {'strikes':>7}{heads}")
    for s in sorted(result.seats, key=lambda s: (s.place, s.seat)):
        values = "".join(f" {result.standings[s.seat][k]:>6}" for k in figures)
        print(f"{s.place:>5}  {s.seat:>4}  {s.bot:<16} {s.status:<10} {s.strikes:>7}{values}")
    print()
    winner = (
        "none (tie)"
        if result.winner is None
        else f"seat {result.winner} ({result.seats[result.winner].bot})"
    )
    counted = ", ".join(f"{n} {k}" for k, n in result.progress.items())
    print(
        f"winner: {winner} · ended by {_ended_by(result)} after {counted or 'no turns'} "
        f"({result.decisions} decisions)"
    )
    for s in result.seats:
        if s.status != "OK" and s.detail:
            print(f"seat {s.seat} ({s.bot}, {s.status}): {s.detail}")
        log = (logs or {}).get(s.seat)
        if s.status != "OK" and log is not None and log.is_file():
            print(f"seat {s.seat} ({s.bot}, {s.status}) stderr log: {log}")
    if result.replay:
        print(f"replay: {result.replay}")
        arena, replay = arena_command(), shlex.quote(result.replay)
        print(f"view it: {arena} replay show {replay}")
        print(f"watch it in the browser: {arena} replay view {replay}")
    print("(only tournament matches are kept in the results database, not `arena match`)")


def _db_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, help="results database (default results/arena.db)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="print the leaderboard as JSON")


def _executor_flags(parser: argparse.ArgumentParser, kept: bool = False) -> None:
    """Where a tournament's matches run (see arena/scheduler/executors.py)."""
    default = "the tournament's" if kept else "local"
    parser.add_argument(
        "--executor",
        choices=executors.EXECUTORS,
        help=f"run the matches on this machine's process pool (local) or on a Ray cluster "
        f"(ray: pip install 'risk-arena[ray]'); default {default}",
    )
    parser.add_argument(
        "--ray-address",
        metavar="HOST:PORT",
        help="the Ray cluster to run on (its head's `ray start --head` address; default: "
        + ("the tournament's, or " if kept else "")
        + "a local Ray instance started for the run)",
    )


def _fault_flags(parser: argparse.ArgumentParser) -> None:
    """``--fault-limit`` and ``--fault-min-matches``: when a bot version is flagged."""
    parser.add_argument(
        "--fault-limit",
        type=float,
        default=DEFAULT_PERCENT,
        metavar="PERCENT",
        help="flag a bot version when more than PERCENT of its recorded matches ended with its "
        f"seat not OK (TIMEOUT, CRASH, ...) (default {DEFAULT_PERCENT:g})",
    )
    parser.add_argument(
        "--fault-min-matches",
        type=int,
        default=DEFAULT_MIN_MATCHES,
        metavar="N",
        help=f"recorded matches a version needs before it can be flagged (default "
        f"{DEFAULT_MIN_MATCHES})",
    )


def _fault_limit(args: argparse.Namespace) -> FaultLimit:
    return FaultLimit(args.fault_limit, args.fault_min_matches)


def _format_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--json", action="store_true")
    group.add_argument("--csv", action="store_true")


def _registry_flag(parser: argparse.ArgumentParser, default: Any = None) -> None:
    """``--db``: the results database whose registered bot names (``arena bots add``) apply."""
    parser.add_argument(
        "--db",
        type=Path,
        default=default,
        help="results database for registered bot names (default results/arena.db)",
    )


def _registered(db: Path | None = None) -> dict[str, Path]:
    """Registered bots of ``db`` (default results/arena.db), if it exists (never creates it)."""
    path = db or tournaments.default_db()
    if not path.exists():
        return {}
    with open_store(path, read_only=True) as store:
        return tournaments.registered_bots(store)


def _bot_finder(db: Path | None) -> Any:
    """``find_bot`` with the registered names of ``db``; its errors say which database."""
    path = db or tournaments.default_db()
    known = _registered(path)
    registry = str(path) if path.exists() else f"{path} (no such database)"
    return lambda name: find_bot(name, known, registry)


def _open_db(path: Path | None, *, read_only: bool = False, create: bool = True) -> Store:
    """The results database (default results/arena.db). Commands that only read pass
    ``read_only``: a mistyped path is an error instead of a new empty database, and a
    read-only file, folder or filesystem can still be read. Until the default database is
    made, readers see it empty (and do not make it)."""
    if path is None and read_only and not tournaments.default_db().exists():
        return empty_store(tournaments.default_db())
    return open_store(path or tournaments.default_db(), read_only=read_only, create=create)


def _settings_from_args(args: argparse.Namespace) -> tournaments.TournamentSettings:
    if args.config:
        try:
            settings = tournaments.TournamentSettings.from_toml(args.config)
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{args.config}: not UTF-8 text (TOML is UTF-8): {exc}") from None
        except OSError as exc:
            raise ConfigError(f"{args.config}: cannot read it: {exc.strerror or exc}") from None
        _check_numbers(dataclasses.asdict(settings), lambda key: f"{args.config}: {key}")
    else:
        settings = tournaments.TournamentSettings()
    if args.bot:
        settings.bots = list(args.bot)
    if args.rules:
        game = getattr(args, "game", None) or settings.game
        settings.rules = {**settings.rules, **games.parse_rules(args.rules, game)}
    for flag in (
        "name",
        "game",
        "seats",
        "rounds",
        "move_time",
        "time_bank",
        "startup_time",
        "strike_limit",
        "seed",
        "workers",
        "executor",
        "ray_address",
    ):
        value = getattr(args, flag)
        if value is not None:
            setattr(settings, flag, value)
    if args.fresh_process:
        settings.fresh_process = True
    if args.in_process:
        settings.in_process = True
    if not settings.bots:
        raise ConfigError("name the bots: --bot NAME (repeat) or bots = [...] in --config")
    return settings


def _recorded_count(store: Store, tournament_id: str, rated: int) -> int:
    """Matches the database holds (what a resume skips); ``rated`` if it cannot be read.

    A stop can fall between rating a match and writing it, so the rater's count may be one
    ahead of the database.
    """
    try:
        return len(store.recorded_indices(tournament_id))
    except ArenaError:
        return rated


def _run_tournament(
    store: Store,
    tournament_id: str,
    workers: int | None,
    quiet: bool,
    as_json: bool,
    limit: FaultLimit = DEFAULT_LIMIT,
    executor: str | None = None,
    ray_address: str | None = None,
) -> int:
    if store.tournament(tournament_id) is None:
        raise ConfigError(f"no tournament {tournament_id!r} in {store.path}")
    tournaments.setup_logging(tournament_id, store.path)
    total = len(store.planned(tournament_id))
    hint = f"resume with: {_resume_command(store, tournament_id)}"
    found = store.tournament(tournament_id)
    handed = found is not None and has_remote(found["settings"])
    with ProgressBar(f"tournament {tournament_id}", enabled=not quiet) as bar:
        kind = Follower if handed else tournaments.Runner  # remote bots: `arena serve` plays
        runner = kind(store, tournament_id, workers or 0, bar.update, executor, ray_address)
        try:
            runner.run()
        except KeyboardInterrupt:
            store.set_tournament_status(tournament_id, "stopped")
            bar.__exit__()
            done = _recorded_count(store, tournament_id, runner.rater.next_index)
            print(f"stopped after {done}/{total} matches; {hint}", file=sys.stderr)
            return 130
        except ArenaError as exc:
            with contextlib.suppress(ArenaError):
                store.set_tournament_status(tournament_id, "stopped")
            done = _recorded_count(store, tournament_id, runner.rater.next_index)
            if isinstance(exc, tournaments.BotsCannotStart):
                # A resume hint would only fail the same way until the bot is fixed.
                raise ConfigError(
                    f"{exc}; tournament {tournament_id} stopped after {done}/{total} matches "
                    "(a resume fails the same way until the bot can start)"
                ) from exc
            raise ArenaError(f"{exc} (after {done}/{total} matches; {hint})") from exc
    board = reports.leaderboard(store, runner.pool, tournament_id, limit)
    board["executor"] = runner.executor
    board["fault_logs"] = reports.fault_logs(store, tournament_id)
    if as_json:
        print(reports.to_json(board))
    else:
        reports.render_leaderboard(board)
        reports.render_fault_logs(board["fault_logs"])
        print(f"tournament {tournament_id}: {total} matches recorded in {store.path}")
    return EXIT_OK


def cmd_tournament_run(args: argparse.Namespace) -> int:
    settings = _settings_from_args(args)
    settings.check()
    executors.check(settings.executor, settings.ray_address or None)
    limit = _fault_limit(args)
    with _open_db(args.db) as store:
        require_serve(store, settings.bots, settings.executor)
        tournament_id = tournaments.create(store, settings, None if args.allow_flagged else limit)
        return _run_tournament(
            store, tournament_id, settings.workers, args.no_progress, args.json, limit
        )


def _resume_command(store: Store, tournament_id: str) -> str:
    """The command that resumes the tournament, with ``--db`` unless it is the default."""
    command = f"arena tournament resume {tournament_id}"
    if store.path.resolve() != tournaments.default_db().resolve():
        command += f" --db {shlex.quote(str(store.path))}"
    return command


def cmd_tournament_resume(args: argparse.Namespace) -> int:
    database = args.db or tournaments.default_db()
    if not database.exists():
        raise ConfigError(f"no tournament {args.id!r}: no results database at {database}")
    with _open_db(database, create=False) as store:
        found = store.tournament(args.id)
        if found is None:
            raise ConfigError(f"no tournament {args.id!r} in {store.path}")
        if found["stored_status"] == "finished" or found["recorded"] == found["planned"]:
            if found["stored_status"] != "finished":
                store.set_tournament_status(args.id, "finished")
            pool = tournaments.stored_pool(found["settings"])
            print(
                f"tournament {args.id} is already finished: {found['recorded']}/"
                f"{found['planned']} matches recorded in {store.path}; nothing to resume",
                file=sys.stderr,
            )
            board = reports.leaderboard(store, pool, args.id)
            if args.json:
                print(reports.to_json(board))
            else:
                reports.render_leaderboard(board)
            return EXIT_OK
        if found["status"] == "running" and found.get("runner_pid") != os.getpid():
            raise ConfigError(
                f"tournament {args.id} is being run by process {found['runner_pid']} on "
                f"{found['runner_host']} (last heartbeat {found['heartbeat_at']}); "
                "stop it (Ctrl-C) before resuming"
            )
        executor = args.executor or found["settings"].get("executor") or executors.LOCAL
        address = args.ray_address
        if address is None and executor == found["settings"].get("executor"):
            address = found["settings"].get("ray_address") or ""
        executors.check(executor, address or None)
        for note in tournaments.record_new_versions(store, args.id, args.record_new_version):
            print(note, file=sys.stderr)
        return _run_tournament(
            store,
            args.id,
            args.workers,
            args.no_progress,
            args.json,
            executor=executor,
            ray_address=address or "",
        )


TOURNAMENT_KEYS = (
    "id",
    "name",
    "status",
    "seed",
    "planned",
    "recorded",
    "created_at",
    "finished_at",
)


def cmd_tournament_list(args: argparse.Namespace) -> int:
    with _open_db(args.db, read_only=True) as store:
        rows = [{k: r[k] for k in TOURNAMENT_KEYS} for r in store.tournaments()]
    if args.json:
        print(json.dumps(rows))
    elif args.csv:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=TOURNAMENT_KEYS)
        writer.writeheader()
        writer.writerows(rows)
        print(out.getvalue(), end="")
    else:
        for r in rows:
            print(
                f"{r['id']}  {r['status']:<11} {r['recorded']:>5}/{r['planned']:<5} "
                f"{r['created_at']}  {r['name']}"
            )
    return EXIT_OK


def _emit(args: argparse.Namespace, data: Any, to_csv: Any, render: Any) -> int:
    """Print a report as JSON (``--json``), CSV (``--csv``) or a table."""
    if args.json:
        print(reports.to_json(data))
    elif args.csv:
        print(to_csv(data), end="")
    else:
        render(data)
    return EXIT_OK


def cmd_tournament_show(args: argparse.Namespace) -> int:
    with _open_db(args.db, read_only=True) as store:
        if store.tournament(args.id) is None:
            raise ConfigError(f"no tournament {args.id!r} in {store.path}")
        table = reports.crosstable(store, args.id, _fault_limit(args))
    return _emit(args, table, reports.crosstable_csv, reports.render_crosstable)


def cmd_leaderboard(args: argparse.Namespace) -> int:
    if args.game is not None:
        check_game(args.game)
    with _open_db(args.db, read_only=True) as store:
        pool = reports.choose_pool(store, args.pool, args.tournament, args.game)
        board = reports.leaderboard(store, pool, args.tournament, _fault_limit(args))
    return _emit(args, board, reports.leaderboard_csv, reports.render_leaderboard)


def cmd_matches(args: argparse.Namespace) -> int:
    if args.game is not None:
        check_game(args.game)
    with _open_db(args.db, read_only=True) as store:
        if args.tournament and store.tournament(args.tournament) is None:
            raise ConfigError(f"no tournament {args.tournament!r}")
        rows = reports.matches_table(store, args.tournament, args.game)
    return _emit(args, rows, reports.matches_csv, reports.render_matches)


def cmd_ratings_rebuild(args: argparse.Namespace) -> int:
    with _open_db(args.db, create=False) as store:
        count = tournaments.rebuild_ratings(store)
    print(f"recomputed ratings from {count} matches")
    return EXIT_OK


DEMO_BOTS = ("random", "continent", "js-heuristic", "strong")
DEMO_MOVE_TIME = 0.05
"""Seconds per decision in the classic demo: ``strong`` searches for a share of the move
time, so the demo's clock sets how long it takes."""
"""The ladder's bottom, middle and top rungs, in both languages (js-heuristic is JavaScript)."""
DEMO_EUROPE_BOTS = ("random", "js-random", "js-europe", "europe-heuristic")
"""RISK: Europe's bots, random and heuristic, in both languages."""


def cmd_web(args: argparse.Namespace) -> int:
    from arena.web.serve import serve

    return serve(args.db or tournaments.default_db(), args.host, args.port)


def cmd_demo(args: argparse.Namespace) -> int:
    """Two short tournaments: classic RISK, then RISK: Europe, each ending with its board."""
    runs = [
        tournaments.TournamentSettings(
            bots=list(DEMO_BOTS),
            name="demo",
            seats=3,
            rounds=1,
            rules={"max_rounds": "60"},
            move_time=DEMO_MOVE_TIME,
            workers=args.workers or 0,
        ),
        tournaments.TournamentSettings(
            bots=list(DEMO_EUROPE_BOTS),
            name="demo-europe",
            game="europe",
            seats=4,
            rounds=1,
            rules={"max_rounds": "15"},
            workers=args.workers or 0,
        ),
    ]
    with _open_db(args.db) as store:
        for name in sorted({name for settings in runs for name in settings.bots}):
            run_setup(find_bot(name))  # all setups first: no install output amid the boards
        for settings in runs:
            tournament_id = tournaments.create(store, settings)
            code = _run_tournament(store, tournament_id, settings.workers, args.no_progress, False)
            if code != EXIT_OK:
                return code
    db = args.db or tournaments.default_db()
    print(f"see it in the browser: {arena_command()} web --db {db}  →  http://127.0.0.1:8000/")
    return EXIT_OK


def _finite(value: float) -> float | None:
    """JSON has no infinity: a one-sided series has no finite Elo estimate."""
    return value if math.isfinite(value) else None


def cmd_versus(args: argparse.Namespace) -> int:
    check_game(args.game)
    find = _bot_finder(args.db)
    a, b = find(args.a), find(args.b)
    if args.seats > 2 and not args.filler:
        raise ConfigError("--seats above 2 needs --filler BOT for the other seats")
    filler = find(args.filler) if args.filler else None
    for spec in (a, b, filler):
        if spec is not None:
            check_plays(spec, args.game)
    game = games.configure(args.game, args.rules, players=args.seats)
    sprt = None
    if args.sprt:
        try:
            elo0, elo1 = (float(x) for x in args.sprt.split(","))
        except ValueError:
            raise ConfigError(f"--sprt takes ELO0,ELO1 like 0,50, got {args.sprt!r}") from None
        if not all(math.isfinite(x) and abs(x) <= 1000 for x in (elo0, elo1)):
            raise ConfigError(f"--sprt takes Elo values from -1000 to 1000, got {args.sprt!r}")
        if elo0 >= elo1:
            raise ConfigError(f"--sprt needs ELO0 < ELO1, got {args.sprt!r}")
        sprt = (elo0, elo1)
    seed = args.seed if args.seed is not None else new_seed()
    control = {"move_time": args.move_time, "time_bank": args.time_bank, "startup_time": 10.0}

    status = StatusLine(sys.stderr, enabled=not args.json)

    def progress(n: int, tally: stats.Tally) -> None:
        status.show(f"game {n}/{args.games}: +{tally.wins} ={tally.draws} -{tally.losses}")

    try:
        tally, verdict, played = series.run_series(
            a, b, filler, game, args.games, seed, control, sprt, progress
        )
    finally:
        status.close()
    elo, low, high = stats.elo_interval(tally)
    summary = {
        "a": a.name,
        "b": b.name,
        "seats": args.seats,
        "seed": seed,
        "games": tally.games,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "score": tally.score,
        "elo": _finite(elo),
        "elo_low": _finite(low),
        "elo_high": _finite(high),
        "los": stats.likelihood_of_superiority(tally),
        "sprt": None
        if sprt is None
        else {
            "elo0": sprt[0],
            "elo1": sprt[1],
            "llr": stats.sprt_llr(tally, *sprt),
            "bounds": list(stats.sprt_bounds()),
            "verdict": verdict,
        },
        "results": played,
    }
    if args.json:
        print(json.dumps(summary, default=str))
        return EXIT_OK
    print(f"{a.name} v {b.name}: {tally.games} games, {args.seats} seats, seed {seed}")
    print(
        f"  {a.name} ahead {tally.wins}, level {tally.draws}, behind {tally.losses} "
        f"(score {100 * tally.score:.1f}%)"
    )
    print(
        f"  {series.describe_elo(elo, low, high)}, "
        f"likelihood of superiority {100 * summary['los']:.1f}%"
    )
    if sprt is not None:
        meaning = {
            "H1": f"{a.name} is better by about {sprt[1]:g} Elo",
            "H0": f"{a.name} is not better by {sprt[1]:g} Elo",
            None: "undecided within --games",
        }[verdict]
        print(
            f"  SPRT [{sprt[0]:g}, {sprt[1]:g}]: LLR {summary['sprt']['llr']:.2f} "
            f"(bounds {stats.sprt_bounds()[0]:.2f}, {stats.sprt_bounds()[1]:.2f}): {meaning}"
        )
    return EXIT_OK


def cmd_check_bot(args: argparse.Namespace) -> int:
    if args.game is not None:
        check_game(args.game)
    spec = _bot_finder(args.db)(args.bot)
    game = checkbot.game_to_check(spec, args.game)
    check_game(game)
    player: BotSpec | Bot = load_bot(spec) if args.in_process else spec
    results, latencies = checkbot.run(player, args.move_time, args.startup_time, game)
    p50 = checkbot.percentile(latencies, 50) if latencies else None
    p99 = checkbot.percentile(latencies, 99) if latencies else None
    failed = [r for r in results if not r.ok]
    if args.json:
        print(
            json.dumps(
                {
                    "bot": spec.name,
                    "game": game,
                    "ok": not failed,
                    "checks": [
                        {"name": r.name, "ok": r.ok, "detail": r.detail, "ms": r.ms}
                        for r in results
                    ],
                    "latency_ms_p50": p50,
                    "latency_ms_p99": p99,
                }
            )
        )
    else:
        for r in results:
            timing = f"{r.ms:8.2f} ms" if r.ms is not None else " " * 11
            print(f"{'PASS' if r.ok else 'FAIL'}  {r.name:<34} {timing}  {r.detail}")
        if latencies:
            print(f"latency over {len(latencies)} answers: p50 {p50:.2f} ms, p99 {p99:.2f} ms")
        verdict = "all checks passed" if not failed else f"{len(failed)} check(s) failed"
        print(f"{spec.name} ({game}): {verdict}")
    return EXIT_OK if not failed else EXIT_FAILED


def cmd_doctor(args: argparse.Namespace) -> int:
    from arena import doctor

    checks = doctor.diagnose(trial=not args.no_trial)
    if args.json:
        print(json.dumps(doctor.as_json(checks), indent=2))
    else:
        print(doctor.render(checks))
    return EXIT_FAILED if any(c.state == doctor.FAIL for c in checks) else EXIT_OK


def cmd_rules(args: argparse.Namespace) -> int:
    """Each game's rules options with values, default and description (``--json``: one row
    per option, with its ``game``)."""
    names = [check_game(args.game)] if args.game else list(games.names())
    rows: list[dict[str, Any]] = []
    for name in names:
        info = games.load(name).info
        for option in info.options:
            rows.append(
                {
                    "game": name,
                    "key": option.key,
                    "values": list(option.choices or (option.value,)),
                    "default": option.default,
                    "description": option.description,
                    "approximation": option.approximation,
                }
            )
    if args.json:
        print(json.dumps(rows))
        return EXIT_OK
    for name in names:
        info = games.load(name).info
        if len(names) > 1 or not args.game:
            print(f"{name}: {info.title}, {info.min_players}-{info.max_players} players")
        for row in (r for r in rows if r["game"] == name):
            stand_in = "  [APPROXIMATION]" if row["approximation"] else ""
            print(f"{row['key']}={'|'.join(row['values'])}  (default {row['default']}){stand_in}")
            print(f"    {row['description']}")
        for note in info.notes:
            print(note)
        for text in info.approximations:
            print(f"APPROXIMATION: {text}")
    return EXIT_OK


def cmd_games(args: argparse.Namespace) -> int:
    """The registered games by name, with their player counts."""
    rows = []
    for name in games.names():
        info = games.load(name).info
        rows.append(
            {
                "name": name,
                "title": info.title,
                "min_players": info.min_players,
                "max_players": info.max_players,
            }
        )
    if args.json:
        print(json.dumps(rows))
        return EXIT_OK
    for row in rows:
        players = f"{row['min_players']}-{row['max_players']} players"
        print(f"{row['name']:<12} {players:<12} {row['title']}")
    return EXIT_OK


def _replay_file(
    ref: str, db: Path | None, stack: contextlib.ExitStack, damaged: type[ArenaError]
) -> Path:
    """A replay given as a file path or as a stored match id (extracted to a temp file).

    A ref that is neither is bad input (exit 2) for every command; a stored replay that is
    damaged raises ``damaged``: bad input for ``show`` (exit 2), a failed check for
    ``verify`` (exit 1, as for a replay file that cannot be read).
    """
    path = Path(ref)
    if path.exists():
        return path
    neither = f"{ref!r} is neither a replay file nor a recorded match id"
    database = db or tournaments.default_db()
    if not database.exists():
        raise ConfigError(f"{neither} (no results database at {database})")
    with _open_db(database, read_only=True) as store:
        if store.match(ref) is None:
            raise ConfigError(f"{neither} in {store.path}")
        try:
            data = store.replay(ref)
        except DamagedReplayError as exc:
            raise damaged(str(exc)) from None
    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="arena-replay-")))
    extracted = folder / f"{ref}.jsonl"
    extracted.write_bytes(data)
    return extracted


@contextlib.contextmanager
def _suggest_replay_file(ref: str) -> Iterator[None]:
    """Add to "neither a file nor a recorded match" the hint that `arena match` replays are
    files (the scheduler stores only tournament matches)."""
    try:
        yield
    except (ConfigError, ReplayError) as exc:
        if Path(ref).exists() or "recorded match" not in str(exc):
            raise
        hint = replay_text.missing_replay_hint(ref, replays_dir())
        raise type(exc)(f"{exc}; {hint}") from None


def cmd_replay_show(args: argparse.Namespace) -> int:
    with contextlib.ExitStack() as stack, _suggest_replay_file(args.replay):
        header, records = read_replay(_replay_file(args.replay, args.db, stack, ConfigError))
    blocks = replay_text.turns(header, records)
    replay_text.page(blocks, args.step, sys.stdout, sys.stderr, sys.stdin)
    return EXIT_OK


def cmd_replay_export(args: argparse.Namespace) -> int:
    with _open_db(args.db, read_only=True) as store:
        if store.match(args.match_id) is None:
            raise ConfigError(f"no recorded match {args.match_id!r}")
        data = store.replay(args.match_id)
    args.file.parent.mkdir(parents=True, exist_ok=True)
    args.file.write_bytes(data)
    print(f"wrote {args.file} ({len(data)} bytes)")
    return EXIT_OK


def cmd_replay_view(args: argparse.Namespace) -> int:
    """Serve one match's page: a replay file on its own, a recorded match in its database, or
    an `arena match` id by its file in the replays folder."""
    from arena.web.serve import serve_match, serve_replay_file

    path = Path(args.replay)
    if path.exists():
        return serve_replay_file(path, args.host, args.port)
    try:
        with contextlib.ExitStack() as stack, _suggest_replay_file(args.replay):
            _replay_file(args.replay, args.db, stack, ConfigError)  # a recorded match, readable
    except ConfigError as exc:
        found = _arena_match_file(args.replay)
        if found is None:  # the hint names this command
            raise ConfigError(str(exc).replace("arena replay show", "arena replay view")) from None
        return serve_replay_file(found, args.host, args.port)
    return serve_match(args.db or tournaments.default_db(), args.replay, args.host, args.port)


def _arena_match_file(ref: str) -> Path | None:
    """The replay file of `arena match` id ``ref`` in the replays folder, if there is one."""
    return None if "/" in ref else replay_text.find_match_file(ref, replays_dir())


def cmd_replay_verify(args: argparse.Namespace) -> int:
    with contextlib.ExitStack() as stack, _suggest_replay_file(args.replay):
        report = verify(_replay_file(args.replay, args.db, stack, ReplayError))
    if args.json:
        print(json.dumps({"ok": report.ok, "records": report.records, "message": report.message}))
    else:
        print(("ok: " if report.ok else "DIVERGED: ") + report.message)
    return EXIT_OK if report.ok else EXIT_FAILED


def cmd_bots(args: argparse.Namespace) -> int:
    rows = [(s, "bundled") for s in bundled_bots()]
    db = getattr(args, "db", None) or tournaments.default_db()
    if db.exists():
        with _open_db(db, read_only=True) as store:
            bundled = {s.path for s, _ in rows}
            for folder in sorted(tournaments.registered_bots(store).values()):
                if folder.resolve() not in bundled and (folder / "bot.toml").is_file():
                    rows.append((read_spec(folder), "registered"))
            remote = remote_cli.listed(store)
    else:
        remote = []
    listed: list[dict[str, Any]] = [
        {
            "name": s.name,
            "version": s.version,
            "version_id": version_id(s),
            "source": source,
            "language": s.language,
            "description": s.description,
            "path": str(s.path),
            "command": s.command,
            "setup": s.setup,
            "in_process": s.entry is not None,
        }
        for s, source in rows
    ] + remote
    if args.json:
        print(json.dumps(listed))
        return EXIT_OK
    for b in listed:
        print(
            f"{b['name']:<16} {b['version']:<6} {b['version_id'][:8]}  {b['source']:<10} "
            f"{b['language']:<24} {b['description']}"
        )
    return EXIT_OK


def cmd_bots_add(args: argparse.Namespace) -> int:
    if args.remote is not None or args.path is None:
        return remote_cli.add(args)
    if args.games is not None or args.label is not None:
        raise ConfigError("--games and --label are for a remote bot (--remote NAME)")
    if not (args.path / "bot.toml").is_file():
        raise ConfigError(f"{args.path} is not a bot folder: it has no bot.toml")
    spec = read_spec(args.path)
    if any(b.name == spec.name and b.path != spec.path for b in bundled_bots()):
        raise ConfigError(f"a bundled bot is already called {spec.name!r}; rename yours")
    db = args.db or tournaments.default_db()
    before = _registered(db).get(spec.name)
    if before is not None and before.resolve() != spec.path and not args.replace:
        raise ConfigError(
            f"bot name {spec.name!r} is already registered in {db} for {before}; "
            f"rename the bot in {spec.path / 'bot.toml'}, or repoint the name with --replace"
        )
    run_setup(spec, force=True)
    with _open_db(db) as store:
        entry = tournaments.register(store, spec, replace=args.replace)
    moved = before is not None and before.resolve() != spec.path
    what = f"{spec.name} {spec.version} (version {entry['version_id']})"
    if moved:
        print(f"repointed {what} from {before} to {spec.path} in {db}")
    else:
        print(f"registered {what} from {spec.path} in {db}")
    return EXIT_OK


def cmd_bots_token(args: argparse.Namespace) -> int:
    return remote_cli.token(args)


def cmd_bots_revoke(args: argparse.Namespace) -> int:
    return remote_cli.revoke(args)


def cmd_bots_setup(args: argparse.Namespace) -> int:
    spec = _bot_finder(args.db)(args.bot)
    if spec.setup is None:
        print(f"bot {spec.name!r} has no setup step")
        return EXIT_OK
    run_setup(spec, force=True)
    print(f"bot {spec.name!r}: setup done")
    return EXIT_OK


STARTS_BOTS = frozenset(
    {
        cmd_match,
        cmd_tournament_run,
        cmd_tournament_resume,
        cmd_versus,
        cmd_demo,
        cmd_check_bot,
        cmd_bots_add,
        cmd_bots_setup,
        remote_cli.cmd_serve,
    }
)
"""Commands that start bot processes (or their setup): the isolation settings are checked
before they do anything."""


if __name__ == "__main__":
    sys.exit(main())
