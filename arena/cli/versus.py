"""``arena versus``: is bot A better than bot B? A seat-rotated, seed-paired series with an Elo
estimate and an optional SPRT stop."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from arena import games
from arena.catalog import check_plays
from arena.cli.common import EXIT_OK, bot_finder, registry_flag
from arena.cli.progress import StatusLine
from arena.errors import ConfigError
from arena.games import DEFAULT_GAME, GAMES, check_game
from arena.results import stats
from arena.scheduler import series
from arena.seeds import new_seed


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``arena versus``."""
    versus = commands.add_parser(
        "versus", help="is A better than B? a seat-rotated, seed-paired series"
    )
    versus.add_argument("a", help="bot A (name or folder)")
    versus.add_argument("b", help="bot B (name or folder)")
    versus.add_argument(
        "--game",
        default=DEFAULT_GAME,
        help=f"game to play ({', '.join(GAMES)}; default {DEFAULT_GAME})",
    )
    versus.add_argument("--games", type=int, default=20, help="games at most (default 20)")
    versus.add_argument("--seats", type=int, default=2, help="seats per game (default 2)")
    versus.add_argument("--filler", help="bot for the other seats when --seats > 2")
    registry_flag(versus)
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


def _finite(value: float) -> float | None:
    """JSON has no infinity: a one-sided series has no finite Elo estimate."""
    return value if math.isfinite(value) else None


def cmd_versus(args: argparse.Namespace) -> int:
    check_game(args.game)
    find = bot_finder(args.db)
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
