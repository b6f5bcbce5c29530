"""Fit the strong bot's learned value from games of the bundled bots; writes ``value.json``.

Plays seeded in-process games (no clock) of 2 to 6 seats drawn from ``planner``,
``aggressive`` and ``continent``, records :func:`features.seat_features` of every seat at the
start of every turn (from the view of the seat to move: public information only), and labels
each position with who won the game (a shared first place splits the win). The value is a
softmax over the seats of a linear score of their features, ``P(seat wins) =
exp(w·f_seat) / Σ exp(w·f_other)``, fitted by full-batch gradient descent on the log loss
with a little L2. It prints the fit against the uniform guess on held-out games.

``--views FILE`` (repeatable) adds games recorded elsewhere, one JSON line each with the
winner and the views of one seat at its turn starts: ``benchmarks/domination/run.py
--record`` writes them from games against Domination's hard AI. Their held-out tenth is
scored apart.

    python bots/strong/train_value.py [--games 2000] [--workers 2] [--seed 1] [--views FILE]
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import multiprocessing
import random
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
PLAYERS = (2, 3, 3, 3, 4, 5, 6, 6)
"""Seat counts drawn per game: 3 and 6 players weigh most, as in the ladder's tables."""
LINEUP = ("planner", "planner", "planner", "aggressive", "continent")
"""Bots drawn per seat: mostly the reference, with two other styles for variety."""

Sample = tuple[list[list[float]], list[float], int]
"""A position: per-seat features, per-seat win share, index of the seat to move."""


def _strong(module: str) -> Any:
    """A module of the strong bot (``features``, ``geometry``), imported as the arena imports
    the bot: its folder a package of its own (this script runs beside it, not inside it)."""
    from arena.catalog.loader import bot_module

    return bot_module(HERE, module)


@functools.cache
def _geometry() -> Any:
    from arena.games.classic.board import classic_board

    return _strong("geometry").Geometry(classic_board())


def view_features(view: dict[str, Any]) -> dict[int, list[float]]:
    """The features of every seat at a turn start, from the view of the seat to move."""
    features: dict[int, list[float]] = _strong("features").seat_features(
        _geometry(),
        view["owner"],
        view["armies"],
        view["card_counts"],
        (view.get("next_set_value") or 7) / 3,
        view["players"],
        view["seat"],
        view["to_place"],
    )
    return features


def labelled(
    positions: list[tuple[dict[int, list[float]], int]], firsts: list[int]
) -> list[Sample]:
    """Samples of one game's positions, labelled by its winners (a shared first place
    splits the win); positions with one seat left, or none of the winners, are dropped."""
    samples: list[Sample] = []
    for features, mover in positions:
        seats = sorted(features)
        if len(seats) < 2:
            continue
        winners = sum(1 for p in seats if p in firsts)
        if winners == 0:
            continue
        target = [1.0 / winners if p in firsts else 0.0 for p in seats]
        samples.append(([features[p] for p in seats], target, seats.index(mover)))
    return samples


def recorded(path: Path) -> list[list[Sample]]:
    """The games of a ``--views`` file, each as its labelled samples."""
    games = []
    for line in path.read_text(encoding="utf-8").splitlines():
        game = json.loads(line)
        if game["winner"] < 0:
            continue
        positions = [(view_features(v), v["seat"]) for v in game["views"]]
        games.append(labelled(positions, [game["winner"]]))
    return games


def play(seed: int) -> list[Sample]:
    """One game's positions, labelled by its result."""
    from arena.catalog import find_bot, load_bot
    from arena.games.classic import ClassicConfig
    from arena.games.classic.game import ClassicGame
    from arena.referee.match import play_match
    from arena.sdk import Answer, Bot, MatchInfo, Request

    rng = random.Random(seed)
    players = rng.choice(PLAYERS)
    positions: list[tuple[dict[int, list[float]], int]] = []

    class Recorder(Bot):
        """Plays as ``inner`` and records the position at each of its turn starts."""

        def __init__(self, inner: Bot) -> None:
            self.inner = inner

        def start(self, match: MatchInfo) -> None:
            super().start(match)
            self.inner.start(match)

        def choose(self, request: Request) -> Answer:
            view = request.view
            if request.kind == "reinforce" and not view["conquered_this_turn"]:
                positions.append((view_features(view), view["seat"]))
            return self.inner.choose(request)

    bots: list[Bot] = [Recorder(load_bot(find_bot(rng.choice(LINEUP)))) for _ in range(players)]
    game = ClassicGame(ClassicConfig.parse({}, players))
    result = play_match(game, bots, seed)
    places = [s.place for s in result.seats]
    return labelled(positions, [p for p in range(players) if places[p] == 1])


def log_loss(weights: list[float], data: list[Sample]) -> float:
    loss = 0.0
    for rows, target, _ in data:
        scores = [sum(w * x for w, x in zip(weights, row, strict=True)) for row in rows]
        top = max(scores)
        norm = math.log(sum(math.exp(s - top) for s in scores)) + top
        loss -= sum(t * (s - norm) for t, s in zip(target, scores, strict=True))
    return loss / max(1, len(data))


def fit(data: list[Sample], features: int, steps: int = 150, l2: float = 1e-4) -> list[float]:
    """Full-batch Adam on the softmax log loss."""
    w = [0.0] * features
    m = [0.0] * features
    v = [0.0] * features
    rate, b1, b2 = 0.1, 0.9, 0.999
    for step in range(1, steps + 1):
        grad = [0.0] * features
        for rows, target, _ in data:
            scores = [sum(wk * x for wk, x in zip(w, row, strict=True)) for row in rows]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            z = sum(exps)
            for row, t, e in zip(rows, target, exps, strict=True):
                coef = e / z - t
                for k in range(features):
                    grad[k] += coef * row[k]
        for k in range(features):
            g = grad[k] / len(data) + l2 * w[k]
            m[k] = b1 * m[k] + (1 - b1) * g
            v[k] = b2 * v[k] + (1 - b2) * g * g
            w[k] -= rate * (m[k] / (1 - b1**step)) / (math.sqrt(v[k] / (1 - b2**step)) + 1e-8)
    return w


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=HERE / "value.json")
    parser.add_argument(
        "--views", type=Path, action="append", default=[], help="recorded games (JSONL)"
    )
    args = parser.parse_args()
    seeds = [args.seed * 1_000_003 + i for i in range(args.games)]
    with multiprocessing.Pool(args.workers) as pool:
        games = pool.map(play, seeds, chunksize=8)
    others = [g for path in args.views for g in recorded(path)]
    held, held_others = max(1, len(games) // 10), len(others) // 10
    train = [s for g in games[held:] + others[held_others:] for s in g]
    test = [s for g in games[:held] for s in g]
    test_others = [s for g in others[:held_others] for s in g]
    names = _strong("features").FEATURES
    weights = fit(train, len(names))
    uniform = [0.0] * len(names)
    report: dict[str, Any] = {
        "features": list(names),
        "weights": [round(w, 4) for w in weights],
        "games": len(games),
        "positions": sum(len(g) for g in games),
        "held_out_log_loss": round(log_loss(weights, test), 4),
        "uniform_log_loss": round(log_loss(uniform, test), 4),
        "seed": args.seed,
    }
    if others:
        report["recorded"] = {
            "files": [p.name for p in args.views],
            "games": len(others),
            "positions": sum(len(g) for g in others),
            "held_out_log_loss": round(log_loss(weights, test_others), 4),
            "uniform_log_loss": round(log_loss(uniform, test_others), 4),
        }
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
