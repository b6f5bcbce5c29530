"""How many choices a decision offers, measured: the most ``Game.choices`` listed for each
decision kind over seeded games of random legal play, for every player count and every value
of each enumerated rules option (one option changed from the defaults at a time).

``arena.envs`` fixes each game's ``max_actions`` from these figures (docs/training.md): run
``python benchmarks/choices.py --game NAME [--games N]`` to see them again.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter

from arena import games
from arena.errors import ArenaError
from arena.games.api import Game, GameInfo


def variants(info: GameInfo) -> list[dict[str, str]]:
    """The defaults, then each enumerated option's other values one at a time."""
    found: list[dict[str, str]] = [{}]
    for option in info.options:
        found += [{option.key: value} for value in option.choices[1:]]
    return found


def widest(game: Game[object, object, object], seed: int) -> Counter[str]:
    """The most choices each decision kind offered in one game of random legal play."""
    rng = random.Random(seed)
    state = game.new_game(seed)
    most: Counter[str] = Counter()
    while (decision := game.decision(state)) is not None:
        answers = {}
        for seat in decision.seats:
            listed = game.choices(game.legal_options(state, seat))
            most[decision.kind] = max(most[decision.kind], len(listed))
            answers[seat] = rng.choice(listed)
        if decision.simultaneous:
            state = game.apply_joint(state, answers).state
        else:
            seat = decision.seats[0]
            game.apply_unchecked(state, seat, answers[seat])
    return most


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default=games.DEFAULT_GAME, help="registered game name")
    parser.add_argument("--games", type=int, default=10, help="games per configuration")
    args = parser.parse_args(argv)
    try:
        kind = games.load(args.game)
    except ArenaError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    overall: Counter[str] = Counter()
    info = kind.info
    for players in range(info.min_players, info.max_players + 1):
        for options in variants(info):
            try:
                game = kind.configure(options, players)
            except ArenaError:
                continue  # a combination the rules refuse (e.g. missions with 2 players)
            most: Counter[str] = Counter()
            for seed in range(1, args.games + 1):
                for kind_name, count in widest(game, seed).items():
                    most[kind_name] = max(most[kind_name], count)
            for kind_name, count in most.items():
                overall[kind_name] = max(overall[kind_name], count)
            label = " ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
            print(f"{players}p {label}: " + ", ".join(f"{k} {v}" for k, v in sorted(most.items())))
    print("per kind: " + ", ".join(f"{k} {v}" for k, v in sorted(overall.items())))
    print(f"max {max(overall.values())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
