"""What this installation offers and how well it isolates bots: ``arena doctor``, ``arena
rules`` and ``arena games`` (nothing here plays a match or writes results)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from arena import games
from arena.cli.common import EXIT_FAILED, EXIT_OK
from arena.games import check_game


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``arena doctor``, ``rules`` and ``games``."""
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


def cmd_doctor(args: argparse.Namespace) -> int:
    from arena.referee import doctor

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
