"""The bots: ``arena bots list|add|setup|token|revoke|disable|enable`` (bot folders and
remote bots in the registry; versions the operator bars from tournaments) and
``arena check-bot`` (a bot through every decision kind and the error paths)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from arena.catalog import BotSpec, bundled_bots, load_bot, read_spec, run_setup, version_id
from arena.catalog import remote as remote_bots
from arena.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    Parser,
    bot_finder,
    open_db,
    pick_versions,
    registered,
    registry_flag,
)
from arena.errors import ConfigError
from arena.games import DEFAULT_GAME, GAMES, check_game
from arena.paths import arena_command
from arena.referee import checkbot
from arena.results.store import open_store
from arena.scheduler import tournament as tournaments
from arena.scheduler.barring import disabled_author
from arena.sdk.bot import Bot


def add_check_bot_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``arena check-bot`` (``arena --help`` lists it after ``arena match``)."""
    check = commands.add_parser(
        "check-bot", help="put a bot through every decision kind and the error paths"
    )
    check.add_argument("bot", help="bundled or registered bot name, or bot folder path")
    check.add_argument(
        "--game",
        default=None,
        help="the game the bot is checked for; its bot.toml must list it "
        f"({', '.join(GAMES)}; default: the bot's only game, else {DEFAULT_GAME})",
    )
    registry_flag(check)
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


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``arena bots`` and its subcommands."""
    bots = commands.add_parser(
        "bots",
        help="list the bundled and registered bots, register one, run a bot's setup, or "
        "disable versions of one",
    )
    bots.add_argument("--json", action="store_true")
    registry_flag(bots)
    bots.set_defaults(run=cmd_bots)
    bots_commands = bots.add_subparsers(dest="bots_command", parser_class=Parser)
    bots_list = bots_commands.add_parser("list", help="list the bundled and registered bots")
    # SUPPRESS: `arena bots --json list` keeps the --json given before `list`.
    bots_list.add_argument("--json", action="store_true", default=argparse.SUPPRESS)
    registry_flag(bots_list, default=argparse.SUPPRESS)
    bots_list.set_defaults(run=cmd_bots)
    bots_add = bots_commands.add_parser(
        "add", help="register a bot folder under its name (runs its setup)"
    )
    bots_add.add_argument("path", type=Path, nargs="?", help="the bot's folder (with bot.toml)")
    bots_add.add_argument(
        "--remote", metavar="NAME", help="register a remote bot (no folder: it dials in)"
    )
    bots_add.add_argument(
        "--games",
        metavar="LIST",
        help=f"with --remote: the games it plays (default {DEFAULT_GAME})",
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
    for verb, what in (
        ("disable", "stop versions of a bot being entered (ladders retire them)"),
        ("enable", "undo disable"),
    ):
        command = bots_commands.add_parser(verb, help=what)
        command.add_argument("name", help="the bot's name")
        command.add_argument(
            "--version",
            metavar="VERSION",
            help="one version: its id, a unique prefix of it, or its label (default: every "
            "version recorded so far)",
        )
        command.add_argument("--db", type=Path, help="results database (default results/arena.db)")
        command.set_defaults(run=cmd_bots_disable if verb == "disable" else cmd_bots_enable)
    bots_setup = bots_commands.add_parser("setup", help="run a bot's setup command (again)")
    bots_setup.add_argument("bot", help="bundled or registered bot name, or bot folder path")
    registry_flag(bots_setup)
    bots_setup.set_defaults(run=cmd_bots_setup)


def cmd_check_bot(args: argparse.Namespace) -> int:
    if args.game is not None:
        check_game(args.game)
    spec = bot_finder(args.db)(args.bot)
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


def cmd_bots(args: argparse.Namespace) -> int:
    rows = [(s, "bundled") for s in bundled_bots()]
    db = getattr(args, "db", None) or tournaments.default_db()
    if db.exists():
        with open_db(db, read_only=True) as store:
            bundled = {s.path for s, _ in rows}
            for folder in sorted(tournaments.registered_bots(store).values()):
                if folder.resolve() not in bundled and (folder / "bot.toml").is_file():
                    rows.append((read_spec(folder), "registered"))
            remote = _remote_listed(store)
            barred = store.barred_versions()
    else:
        remote, barred = [], set()
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
    for b in listed:
        b["disabled"] = b["version_id"] in barred
    if args.json:
        print(json.dumps(listed))
        return EXIT_OK
    for b in listed:
        print(
            f"{b['name']:<16} {b['version']:<6} {b['version_id'][:8]}  {b['source']:<10} "
            f"{b['language']:<24} {b['description']}" + ("  [disabled]" if b["disabled"] else "")
        )
    return EXIT_OK


def cmd_bots_add(args: argparse.Namespace) -> int:
    if args.remote is not None or args.path is None:
        return _add_remote(args)
    if args.games is not None or args.label is not None:
        raise ConfigError("--games and --label are for a remote bot (--remote NAME)")
    if not (args.path / "bot.toml").is_file():
        raise ConfigError(f"{args.path} is not a bot folder: it has no bot.toml")
    spec = read_spec(args.path)
    if any(b.name == spec.name and b.path != spec.path for b in bundled_bots()):
        raise ConfigError(f"a bundled bot is already called {spec.name!r}; rename yours")
    db = args.db or tournaments.default_db()
    before = registered(db).get(spec.name)
    if before is not None and before.resolve() != spec.path and not args.replace:
        raise ConfigError(
            f"bot name {spec.name!r} is already registered in {db} for {before}; "
            f"rename the bot in {spec.path / 'bot.toml'}, or repoint the name with --replace"
        )
    run_setup(spec, force=True)
    with open_db(db) as store:
        entry = tournaments.register(store, spec, replace=args.replace)
    moved = before is not None and before.resolve() != spec.path
    what = f"{spec.name} {spec.version} (version {entry['version_id']})"
    if moved:
        print(f"repointed {what} from {before} to {spec.path} in {db}")
    else:
        print(f"registered {what} from {spec.path} in {db}")
    return EXIT_OK


def cmd_bots_token(args: argparse.Namespace) -> int:
    """``arena bots token NAME``: print a new token once (the previous one stops working)."""
    with open_store(_remote_db(args)) as store:
        secret = remote_bots.issue_token(store, args.name)
    print(secret)
    return EXIT_OK


def cmd_bots_revoke(args: argparse.Namespace) -> int:
    """``arena bots revoke NAME``."""
    with open_store(_remote_db(args)) as store:
        had = remote_bots.revoke_token(store, args.name)
    print(f"revoked the token of {args.name}" if had else f"{args.name} had no token")
    return EXIT_OK


def cmd_bots_disable(args: argparse.Namespace) -> int:
    """``arena bots disable NAME [--version VERSION]``: running ladders retire the versions at
    their next decision; no tournament or ladder enters them until enabled."""
    return _set_disabled(args, True)


def cmd_bots_enable(args: argparse.Namespace) -> int:
    """``arena bots enable NAME [--version VERSION]``: the versions may be entered again (a
    ladder that retired one does not take it back by itself)."""
    return _set_disabled(args, False)


def _set_disabled(args: argparse.Namespace, disabled: bool) -> int:
    with open_db(args.db, create=False) as store:
        versions = pick_versions(store, args.name, args.version)
        for version in versions:
            store.set_version_disabled(version, disabled)
        author = disabled_author(store, args.name)
    what = "disabled" if disabled else "enabled"
    print(f"{what} {args.name} {' '.join(v[:8] for v in versions)}")
    if author is not None and not disabled:
        print(
            f"its author {author} is disabled, so it is still not entered "
            f"(arena authors enable {author})",
            file=sys.stderr,
        )
    return EXIT_OK


def cmd_bots_setup(args: argparse.Namespace) -> int:
    spec = bot_finder(args.db)(args.bot)
    if spec.setup is None:
        print(f"bot {spec.name!r} has no setup step")
        return EXIT_OK
    run_setup(spec, force=True)
    print(f"bot {spec.name!r}: setup done")
    return EXIT_OK


def _remote_db(args: argparse.Namespace) -> Path:
    return Path(args.db) if args.db else tournaments.default_db()


def _add_remote(args: argparse.Namespace) -> int:
    """``arena bots add --remote NAME [--games LIST] [--label LABEL]``."""
    if args.remote is None:
        raise ConfigError("name the bot folder, or a remote bot with --remote NAME")
    if args.path is not None:
        raise ConfigError("a remote bot has no folder: give --remote NAME or a folder, not both")
    played = [g.strip() for g in (args.games or DEFAULT_GAME).split(",") if g.strip()]
    db = _remote_db(args)
    with open_store(db) as store:
        vid = remote_bots.add_remote(store, args.remote, played, args.label or "1")
        has_token = remote_bots.remote_bots(store)[args.remote]["token_hash"] is not None
    print(f"registered remote bot {args.remote} {args.label or '1'} (version {vid}) in {db}")
    if not has_token:
        print(f"issue its token with: {arena_command()} bots token {args.remote} --db {db}")
    return EXIT_OK


def _remote_listed(store: Any) -> list[dict[str, Any]]:
    """The remote bots as ``arena bots list`` shows bots (source ``remote``, no folder)."""
    return [
        {
            "name": row["name"],
            "version": row["label"],
            "version_id": remote_bots.remote_version_id(row["name"], row["label"]),
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
        for row in remote_bots.remote_bots(store).values()
    ]
