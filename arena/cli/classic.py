"""Classic RISK's own ``arena`` commands (``arena odds``) and its part of ``arena demo``: the
command line finds this module by the game's name (``arena.cli.classic``), so the rest of it
needs no classic import."""

from __future__ import annotations

import argparse
import json
from typing import Any

from arena.cli.common import EXIT_OK
from arena.errors import ConfigError
from arena.games.classic import combat
from arena.games.classic.rng import Streams
from arena.scheduler.tournament import TournamentSettings

DEMO_BOTS = ("random", "continent", "js-heuristic", "strong")
"""The ladder's bottom, middle and top rungs, in both languages (js-heuristic is JavaScript)."""
DEMO_MOVE_TIME = 0.05
"""Seconds per decision in the demo: ``strong`` searches for a share of the move time, so the
demo's clock sets how long it takes."""


def demo(workers: int) -> TournamentSettings:
    """Classic RISK's demo tournament: one round of 3-player games, 60 rounds at most."""
    return TournamentSettings(
        bots=list(DEMO_BOTS),
        name="demo",
        seats=3,
        rounds=1,
        rules={"max_rounds": "60"},
        move_time=DEMO_MOVE_TIME,
        workers=workers,
    )


def add_commands(commands: argparse._SubParsersAction[Any]) -> None:
    """Add classic's commands to the ``arena`` subcommands ``commands``."""
    odds = commands.add_parser("odds", help="exact odds of capturing a territory")
    odds.add_argument(
        "attackers", type=int, help="attacking armies that can fight (one more stays)"
    )
    odds.add_argument("defenders", type=int, help="armies on the defended territory")
    odds.add_argument("--json", action="store_true")
    odds.add_argument("--simulate", type=int, metavar="N", help="also simulate N battles")
    odds.add_argument("--seed", type=int, default=0, help="seed of the simulated dice")
    odds.set_defaults(run=cmd_odds)


def cmd_odds(args: argparse.Namespace) -> int:
    if args.attackers < 1 or args.defenders < 1:
        raise ConfigError(
            f"need at least 1 attacker and 1 defender, got {args.attackers} v {args.defenders}"
        )
    odds = combat.battle_odds(args.attackers, args.defenders)
    simulated = None
    if args.simulate:
        streams = Streams(args.seed)
        dice = (streams.die(i) for i in range(10**12))
        wins, att_loss, def_loss = combat.simulate(
            args.attackers, args.defenders, args.simulate, dice
        )
        simulated = {
            "battles": args.simulate,
            "p_win": wins / args.simulate,
            "attacker_losses": att_loss,
            "defender_losses": def_loss,
        }
    if args.json:
        print(
            json.dumps(
                {
                    "attackers": args.attackers,
                    "defenders": args.defenders,
                    "p_win": float(odds.p_win),
                    "expected_attacker_losses": float(odds.expected_attacker_losses),
                    "expected_defender_losses": float(odds.expected_defender_losses),
                    "outcomes": [
                        {"attackers_left": a, "defenders_left": d, "p": float(p)}
                        for (a, d), p in odds.outcomes.items()
                    ],
                    "simulated_p_win": None if simulated is None else simulated["p_win"],
                    "simulated": simulated,
                }
            )
        )
        return EXIT_OK
    print(
        f"{args.attackers} attacking armies (their territory holds {args.attackers + 1}) "
        f"v {args.defenders} defending, both always rolling the maximum:"
    )
    print(f"  capture probability      {float(odds.p_win):.6f}")
    print(f"  expected attacker losses {float(odds.expected_attacker_losses):.4f}")
    print(f"  expected defender losses {float(odds.expected_defender_losses):.4f}")
    print("  outcomes (attackers left, defenders left): probability")
    for (a, d), p in odds.outcomes.items():
        if float(p) >= 0.0005:
            print(f"    {a:>4} {d:>4}  {float(p):.4f}")
    if simulated:
        print(
            f"  simulated {simulated['battles']} battles: p_win {simulated['p_win']:.4f}, "
            f"losses {simulated['attacker_losses']:.3f} / {simulated['defender_losses']:.3f}"
        )
    return EXIT_OK
