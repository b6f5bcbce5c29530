"""``arena match``: one match, bots or a person at the terminal in the seats, its result
printed and its replay kept as a file (only tournament matches go to the database)."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from arena import games
from arena.catalog import BotSpec, check_plays, load_bot
from arena.cli.common import EXIT_OK, bot_finder, registry_flag
from arena.errors import ArenaError, ConfigError
from arena.games import DEFAULT_GAME, GAMES, check_game
from arena.paths import arena_command, replays_dir
from arena.referee.local import play, seat_log
from arena.referee.match import MatchResult, TimeControl
from arena.sdk.bot import Bot
from arena.sdk.human_seat import human_games, human_seat
from arena.seeds import new_seed


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``arena match``."""
    match = commands.add_parser(
        "match",
        help="play one match and print the result",
        description="Play one match and print the result. The match is kept as a replay file "
        "(results/replays/), not in the results database: only tournament matches are stored "
        "there, so `arena replay show` takes this match's file path, not its id.",
    )
    match.add_argument("--game", default=DEFAULT_GAME, help=f"game to play ({', '.join(GAMES)})")
    match.add_argument(
        "--bot",
        action="append",
        required=True,
        metavar="BOT",
        help="a bundled or registered bot's name, a bot folder path, or `human` to play a "
        "seat yourself at this terminal (no clock); repeat once per seat (seats 0, 1, …)",
    )
    registry_flag(match)
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


def cmd_match(args: argparse.Namespace) -> int:
    check_game(args.game)
    find = bot_finder(args.db)
    specs = [None if name == "human" else find(name) for name in args.bot]
    for spec in specs:
        if spec is not None:
            check_plays(spec, args.game)
    human = human_seat(args.game) if None in specs else None  # `--bot human`: found by name
    if None in specs and human is None:
        raise ConfigError(
            f"the human seat plays only {' and '.join(human_games())}, not {args.game}"
        )
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
    if result.end_reason == "domination" and result.winner is not None:
        others = [s for s in result.out_order if s != result.winner]
        if others and result.seats[others[-1]].status != "OK":
            last = result.seats[others[-1]]
            return f"forfeit (seat {last.seat}, {last.bot}: {last.status})"
    return result.end_reason


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
    title = result.game  # the default game by its title's first words ("classic RISK")
    if result.game == DEFAULT_GAME:
        title = games.load(result.game).info.title.partition(" (")[0]
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
