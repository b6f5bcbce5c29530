"""The top bot's search speed: rollouts a second on the positions of real games, on one core.

`strong`'s strength at a given move time is the number of rollouts it fits in its share of
it (40%), so this is the figure its speed work moves. The positions are those of seeded
games of `strong` (a fixed budget of rollouts, so the same positions every run) against
`planner`, 2 and 3 players: each reinforcement and attack it was asked. For each
position a bot is started as its seat would be, worlds are sampled from the seat's view with
a seeded RNG, and each world is rolled out from that decision to the rollout's horizon and
scored, as the search does. Prints per player count: positions, µs to sample a world, µs a
rollout (its moves on the engine and the value), µs of that in the value alone, rollouts a
second, and how many fit in 20 ms (what a 50 ms move time buys).

``--compare OLD`` loads ``OLD/bots/strong`` (an older checkout, e.g. ``git worktree add
/tmp/strong-old HEAD~1``) beside this tree's, each folder the package of its own the arena
imports it as, on this tree's engine and SDK (a ``strong`` that still imported the planner
from the SDK, ``arena.sdk.classic.planner``, does not load), runs both on the same
positions interleaved, and prints the medians of ``--repeat`` runs side by side with the
speed-up. Times are the process's CPU seconds.

    python benchmarks/search.py [--games N] [--worlds W] [--repeat R] [--compare OLD]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

from arena import games
from arena.catalog import find_bot, load_bot
from arena.catalog.loader import bot_module
from arena.referee.match import play_match
from arena.sdk import MatchInfo, Request
from arena.sdk.bot import Answer as AnyAnswer

HERE = Path(__file__).resolve().parents[1]
SEARCHED = ("reinforce", "attack")
"""Request kinds `strong` answers by a rollout search from the position as sampled (an
occupation's search first restores the battle the view no longer shows)."""
Position = tuple[MatchInfo, Request]


def load_strong(root: Path) -> ModuleType:
    """The ``bot`` module of ``root/bots/strong``, its folder imported as the package the
    arena imports it as: two trees' versions sit side by side, each with its own modules."""
    folder = root / "bots" / "strong"
    if not (folder / "bot.py").is_file():
        raise ValueError(f"no strong bot at {folder / 'bot.py'}")
    return bot_module(folder, "bot")


def record_positions(strong: ModuleType, players: int, seeds: range) -> list[Position]:
    """Every searched decision of ``strong`` (20 rollouts a search) in seeded games."""
    positions: list[Position] = []

    class Recorder(strong.StrongBot):  # type: ignore[name-defined]
        def start(self, match: MatchInfo) -> None:
            super().start(match)
            self.match = match

        def choose(self, request: Request) -> AnyAnswer:
            if request.kind in SEARCHED:
                positions.append((self.match, request))
            answer: AnyAnswer = super().choose(request)
            return answer

    classic = games.load("classic")
    for seed in seeds:
        game = classic.from_config(games.configure("classic", [], players).config())
        lineup = [Recorder(20)] + [load_bot(find_bot("planner")) for _ in range(players - 1)]
        play_match(game, lineup, seed)
    return positions


def time_rollouts(strong: ModuleType, positions: list[Position], worlds: int) -> dict[str, float]:
    """µs to sample a world, µs a rollout and µs of the value in it, rollouts/s."""
    sample = rollout = value = 0.0
    count = 0
    clock = time.process_time
    for match, request in positions:
        bot = strong.StrongBot(nodes=worlds)
        bot.start(match)
        bot._prepare(request)
        rng = random.Random(1)
        sim, finish, evaluate = bot.sim, bot.rollout.finish, bot.evaluate
        for _ in range(worlds):
            t0 = clock()
            s = sim.sample(request.view, rng)
            t1 = clock()
            finish(s)
            t2 = clock()
            evaluate(s)
            t3 = clock()
            sample += t1 - t0
            rollout += t2 - t1
            value += t3 - t2
            count += 1
    return {
        "sample µs": 1e6 * sample / count,
        "rollout µs": 1e6 * rollout / count,
        "of it value µs": 1e6 * value / count,
        "rollouts/s": count / (sample + rollout),
        "rollouts in 20 ms": 0.020 * count / (sample + rollout),
    }


def run(modules: dict[str, ModuleType], games_per_count: int, worlds: int, repeat: int) -> None:
    recorder = next(iter(modules.values()))
    for players in (2, 3):
        positions = record_positions(recorder, players, range(1, games_per_count + 1))
        runs: dict[str, list[dict[str, float]]] = {label: [] for label in modules}
        for _ in range(repeat):
            for label, module in modules.items():
                runs[label].append(time_rollouts(module, positions, worlds))
        medians = {
            label: {k: statistics.median(r[k] for r in rs) for k in rs[0]}
            for label, rs in runs.items()
        }
        print(
            f"\n{players} players: {len(positions)} positions from {games_per_count} game(s), "
            f"{worlds} worlds each, median of {repeat} run(s), CPU time"
        )
        labels = list(medians)
        print(f"{'row':<20}" + "".join(f"{label:>12}" for label in labels))
        for key in medians[labels[0]]:
            values = [medians[label][key] for label in labels]
            row = "".join(f"{v:>12,.1f}" for v in values)
            if len(values) == 2:
                gain = values[0] / values[1] if key.endswith("µs") else values[1] / values[0]
                row += f"{gain:>8.2f}×"
            print(f"{key:<20}{row}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="recorded games per player count")
    parser.add_argument("--worlds", type=int, default=20, help="rollouts per position")
    parser.add_argument("--repeat", type=int, default=3, help="interleaved runs per version")
    parser.add_argument("--compare", type=Path, metavar="OLD", help="tree to compare against")
    args = parser.parse_args()
    try:
        for name in ("games", "worlds", "repeat"):
            if getattr(args, name) < 1:
                raise ValueError(f"--{name} must be at least 1")
        modules: dict[str, ModuleType] = {}
        if args.compare is not None:
            modules["before"] = load_strong(args.compare)
        modules["after" if args.compare is not None else "strong"] = load_strong(HERE)
    except ValueError as exc:
        print(f"search.py: error: {exc}", file=sys.stderr)
        return 2
    run(modules, args.games, args.worlds, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
