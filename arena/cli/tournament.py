"""Tournaments and their results: ``arena tournament run|resume|list|show``, ``arena
leaderboard``, ``arena matches``, ``arena ratings rebuild`` and ``arena demo`` (two short
tournaments), which all run or read the results database."""

from __future__ import annotations

import argparse
import contextlib
import csv
import dataclasses
import io
import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from arena import games
from arena.catalog import find_bot, run_setup
from arena.catalog.remote import has_remote
from arena.cli import ladder as ladder_commands
from arena.cli.common import (
    EXIT_OK,
    Parser,
    check_numbers,
    db_flags,
    executor_flags,
    fault_flags,
    fault_limit,
    format_flags,
    open_db,
)
from arena.cli.progress import ProgressBar
from arena.errors import ArenaError, ConfigError
from arena.games import DEFAULT_GAME, GAMES, check_game
from arena.paths import arena_command
from arena.remote.handoff import Follower, require_serve
from arena.results import reports
from arena.results.faults import DEFAULT_LIMIT, FaultLimit
from arena.results.store import Store
from arena.results.tournament_report import tournament_report
from arena.results.tournament_text import render_tournament_show
from arena.scheduler import executors, ladder
from arena.scheduler import tournament as tournaments
from arena.scheduler.ladder import runner_class


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``arena tournament``, ``leaderboard``, ``matches`` and ``ratings``."""
    tournament = commands.add_parser("tournament", help="run and resume tournaments")
    tcommands = tournament.add_subparsers(
        dest="tournament_command", required=True, parser_class=Parser
    )
    trun = tcommands.add_parser(
        "run", help="plan a tournament (round-robin, gauntlet or ladder) and run it"
    )
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
        "--game", help=f"game to play ({', '.join(GAMES)}; default {DEFAULT_GAME}, or the file's)"
    )
    trun.add_argument("--rules", action="append", default=[], metavar="KEY=VALUE")
    trun.add_argument(
        "--format",
        choices=tournaments.FORMATS,
        help="round-robin (default): every table of the bots; gauntlet: each match a "
        "--challenger against the --bot field; ladder: continuous matchmaking by rating",
    )
    trun.add_argument(
        "--challenger",
        action="append",
        default=[],
        metavar="BOT",
        help="a gauntlet's challenger (repeatable); the --bot bots are its field",
    )
    trun.add_argument(
        "--seats",
        type=seat_counts,
        metavar="N[,N...]",
        help="seats per match, 2-6 (default 2); a ladder may mix sizes: 2,3,6",
    )
    trun.add_argument("--rounds", type=int, help="rounds of the schedule (default 1)")
    trun.add_argument(
        "--matches", type=int, metavar="N", help="a ladder stops after N matches (default: never)"
    )
    trun.add_argument(
        "--until-settled",
        action="store_true",
        help="a ladder stops once every version's rating has settled (sigma <= 1.5)",
    )
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
    executor_flags(trun)
    trun.add_argument(
        "--allow-flagged",
        action="store_true",
        help="seat bot versions flagged for faults (see --fault-limit) instead of refusing them",
    )
    fault_flags(trun)
    db_flags(trun)
    trun.set_defaults(run=cmd_tournament_run)
    tresume = tcommands.add_parser("resume", help="play the unrecorded rest of a tournament")
    tresume.add_argument("id")
    tresume.add_argument("--workers", type=int)
    tresume.add_argument(
        "--matches", type=int, metavar="N", help="a ladder: play on until N matches in all"
    )
    executor_flags(tresume, kept=True)
    tresume.add_argument(
        "--record-new-version",
        action="store_true",
        help="a bot changed since the tournament was planned: play its remaining matches "
        "as the new version (rated apart from the old one)",
    )
    db_flags(tresume)
    tresume.set_defaults(run=cmd_tournament_resume)
    tlist = tcommands.add_parser("list", help="list tournaments")
    tlist.add_argument("--db", type=Path)
    format_flags(tlist)
    tlist.set_defaults(run=cmd_tournament_list)
    tshow = tcommands.add_parser("show", help="a tournament's crosstable and fault summary")
    tshow.add_argument("id")
    tshow.add_argument("--db", type=Path)
    fault_flags(tshow)
    format_flags(tshow)
    tshow.set_defaults(run=cmd_tournament_show)
    ladder_commands.add_parsers(tcommands, resume=cmd_tournament_resume)

    board = commands.add_parser("leaderboard", help="ratings and results, best first")
    board.add_argument(
        "--game", help=f"only this game's pools ({', '.join(GAMES)}; default: every game)"
    )
    board.add_argument("--tournament", metavar="ID")
    board.add_argument(
        "--pool", help=f"rating pool, e.g. {DEFAULT_GAME}/3p/world (default: the latest)"
    )
    board.add_argument("--db", type=Path)
    fault_flags(board)
    format_flags(board)
    board.set_defaults(run=cmd_leaderboard)

    matches = commands.add_parser("matches", help="recorded matches")
    matches.add_argument("--tournament", metavar="ID")
    matches.add_argument(
        "--game", help=f"only this game's matches ({', '.join(GAMES)}; default: every game)"
    )
    matches.add_argument("--db", type=Path)
    format_flags(matches)
    matches.set_defaults(run=cmd_matches)

    ratings = commands.add_parser("ratings", help="rating maintenance")
    rcommands = ratings.add_subparsers(dest="ratings_command", required=True, parser_class=Parser)
    rebuild = rcommands.add_parser("rebuild", help="recompute every rating from the stored matches")
    rebuild.add_argument("--db", type=Path)
    rebuild.set_defaults(run=cmd_ratings_rebuild)


def add_demo_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``arena demo`` (``arena --help`` lists it after ``arena web``)."""
    demo = commands.add_parser(
        "demo", help="a short tournament of the bundled bots, then the leaderboard"
    )
    demo.add_argument("--db", type=Path)
    demo.add_argument("--workers", type=int)
    demo.add_argument("--no-progress", action="store_true")
    demo.set_defaults(run=cmd_demo)


def seat_counts(text: str) -> int | list[int]:
    """``--seats``: one table size, or a ladder's sizes separated by commas (``2,3,6``)."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a whole number or a list such as 2,3,6, got {text!r}"
        ) from None
    return counts[0] if len(counts) == 1 else counts


def _settings_from_args(args: argparse.Namespace) -> tournaments.TournamentSettings:
    if args.config:
        try:
            settings = tournaments.TournamentSettings.from_toml(args.config)
        except UnicodeDecodeError as exc:
            raise ConfigError(f"{args.config}: not UTF-8 text (TOML is UTF-8): {exc}") from None
        except OSError as exc:
            raise ConfigError(f"{args.config}: cannot read it: {exc.strerror or exc}") from None
        check_numbers(dataclasses.asdict(settings), lambda key: f"{args.config}: {key}")
    else:
        settings = tournaments.TournamentSettings()
    if args.bot:
        settings.bots = list(args.bot)
    if args.rules:
        game = getattr(args, "game", None) or settings.game
        settings.rules = {**settings.rules, **games.parse_rules(args.rules, game)}
    if args.challenger:
        settings.challengers = list(args.challenger)
    if args.until_settled:
        settings.until_settled = True
    for flag in (
        "name",
        "game",
        "seats",
        "format",
        "matches",
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
    found = store.tournament(tournament_id)
    if found is None:
        raise ConfigError(f"no tournament {tournament_id!r} in {store.path}")
    tournaments.setup_logging(tournament_id, store.path)
    total = found["planned"] or "?"  # a ladder without a match target: open-ended
    hint = f"resume with: {_resume_command(store, tournament_id)}"
    handed = has_remote(found["settings"])
    with ProgressBar(f"tournament {tournament_id}", enabled=not quiet) as bar:
        # Remote bots: `arena serve` plays; a ladder decides its matches as it goes.
        kind = Follower if handed else runner_class(found["settings"])
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
    boards = [reports.leaderboard(store, pool, tournament_id, limit) for pool in runner.pools]
    per_pool = {b["pool"]: dict(b) for b in boards}
    board = boards[0]
    board["executor"] = runner.executor
    board["fault_logs"] = reports.fault_logs(store, tournament_id)
    if len(boards) > 1:  # a ladder of mixed table sizes: a table per pool as well
        board["pools"] = per_pool
    if as_json:
        print(reports.to_json(board))
    else:
        for each in boards:
            reports.render_leaderboard(each)
        reports.render_fault_logs(board["fault_logs"])
        done = _recorded_count(store, tournament_id, runner.rater.next_index)
        print(f"tournament {tournament_id}: {done} matches recorded in {store.path}")
    return EXIT_OK


def cmd_tournament_run(args: argparse.Namespace) -> int:
    settings = _settings_from_args(args)
    settings.check()
    executors.check(settings.executor, settings.ray_address or None)
    limit = fault_limit(args)
    with open_db(args.db) as store:
        require_serve(store, settings.bots, settings.executor)
        make = ladder.create if settings.format == tournaments.LADDER else tournaments.create
        tournament_id = make(store, settings, None if args.allow_flagged else limit)
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
    with open_db(database, create=False) as store:
        found = store.tournament(args.id)
        if found is None:
            raise ConfigError(f"no tournament {args.id!r} in {store.path}")
        is_ladder = found["settings"].get("format") == tournaments.LADDER
        if args.matches is not None:
            if not is_ladder:
                raise ConfigError(f"--matches is for a ladder; tournament {args.id} is not one")
            ladder.extend(store, args.id, args.matches)
            found = store.tournament(args.id) or found
        if not is_ladder and (
            found["stored_status"] == "finished" or found["recorded"] == found["planned"]
        ):
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
        # A ladder takes a bot's new version by itself: its decided, unplayed matches seat it.
        new_version = args.record_new_version or is_ladder
        for note in tournaments.record_new_versions(store, args.id, new_version):
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


def cmd_tournament_list(args: argparse.Namespace) -> int:
    with open_db(args.db, read_only=True) as store:
        rows = [{k: r[k] for k in reports.TOURNAMENT_KEYS} for r in store.tournaments()]
    if args.json:
        print(json.dumps(rows))
    elif args.csv:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=reports.TOURNAMENT_KEYS)
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
    with open_db(args.db, read_only=True) as store:
        if store.tournament(args.id) is None:
            raise ConfigError(f"no tournament {args.id!r} in {store.path}")
        table = reports.crosstable(store, args.id, fault_limit(args))
        table.update(tournament_report(store, args.id))
    return _emit(args, table, reports.crosstable_csv, render_tournament_show)


def cmd_leaderboard(args: argparse.Namespace) -> int:
    if args.game is not None:
        check_game(args.game)
    with open_db(args.db, read_only=True) as store:
        pool = reports.choose_pool(store, args.pool, args.tournament, args.game)
        board = reports.leaderboard(store, pool, args.tournament, fault_limit(args))
    return _emit(args, board, reports.leaderboard_csv, reports.render_leaderboard)


def cmd_matches(args: argparse.Namespace) -> int:
    if args.game is not None:
        check_game(args.game)
    with open_db(args.db, read_only=True) as store:
        if args.tournament and store.tournament(args.tournament) is None:
            raise ConfigError(f"no tournament {args.tournament!r}")
        rows = reports.matches_table(store, args.tournament, args.game)
    return _emit(args, rows, reports.matches_csv, reports.render_matches)


def cmd_ratings_rebuild(args: argparse.Namespace) -> int:
    with open_db(args.db, create=False) as store:
        count = tournaments.rebuild_ratings(store)
    print(f"recomputed ratings from {count} matches")
    return EXIT_OK


def cmd_demo(args: argparse.Namespace) -> int:
    """A short tournament of every game that has a demo (``demo(workers)`` in its own
    commands' module, ``arena.cli.NAME``), in listing order, each ending with its board."""
    runs = []
    for name in games.names():
        demo = getattr(games.layer_module("arena.cli", name), "demo", None)
        if demo is not None:
            runs.append(demo(args.workers or 0))
    with open_db(args.db) as store:
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
