"""Train a small policy for classic RISK against ``random`` and write it as a bot folder.

    python examples/train_classic.py --out DIR [--minutes M] [--seed S] [--episodes N]
                                     [--games G] [--name NAME]

numpy only: a linear softmax over the action space (masked to the decision's choices) from
the encoder's observation, trained by REINFORCE with a baseline (Adam steps) in the 2-player
game, one seat against the bundled ``random`` bot (``arena.envs.single_agent_env``), the
sampling cooled from temperature 1 towards greedy play (the bot plays greedily). An
episode's return is its place's reward (+1 first, -1 second; the place the round cap's
ranking gives when the game is stopped there) plus the territory margin at its end (mine
minus the opponent's, over 42), so a lost game that was close still teaches something.

DIR becomes a bot folder (``bot.toml``, ``weights.npz`` and the runner ``bot.py``, a copy of
``examples/policy_bot.py``) that ``arena check-bot DIR`` passes and ``arena bots add DIR``
enters in tournaments. At the end the trained bot plays ``G`` seeded 2-player games against
``random`` through the arena's own match runner, in-process, seats rotated and seed-paired as
``arena versus`` plays them, and the script prints its score (ahead of ``random``: 1, level:
½); before that, the training curve: the share of training games won, minute by minute.

Needs the ``rl`` extra: ``pip install 'risk-arena[rl]'``.
"""

from __future__ import annotations

import argparse
import math
import shutil
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
GAME = "classic"
PLAYERS = 2
OPPONENT = "random"
RUNNER = Path(__file__).resolve().with_name("policy_bot.py")
"""The bot folder's ``bot.py``: the runner that loads the weights and plays."""
MAX_MINUTES = 24 * 60
SEED_LIMIT = 2**63
WEIGHTS_RATE = 1e-4
"""Adam's step for the weights and bias. Small: ~100 observation values are non-zero, so a
logit moves by about a hundredth per update, and Adam moves every weight alike, those the
games say little about too; larger steps leave the greedy choice to that noise."""
POSITION_RATE = 0.05
"""Adam's step for the position terms (one pair per decision kind)."""
COOLEST = 0.2
"""The sampling temperature training ends at. The bot plays greedily, and a policy sampled
at temperature 1 may win by its randomness alone: its greedy choices of different decision
kinds need not fit together (say, reinforcing one territory but attacking from another).
Cooling the sampling towards greedy play lets the games teach the greedy policy."""
COOLED_BY = 0.7
"""The share of the training (time, or games with ``--episodes``) by which the temperature
has fallen linearly from 1 to :data:`COOLEST`; it stays there for the rest."""
BASELINE_KEEP = 0.95
"""The baseline is a running mean of the returns: what it keeps of itself per game."""
TERRITORY_FIGURE = 1
"""Where a seat's territory share sits among its figures in the ``seats`` block."""


class UsageError(Exception):
    """A bad argument: one line, exit 2."""


@dataclass
class Adam:
    """Adam steps (ascent) on a list of parameter arrays, updated in place."""

    params: list[Any]
    rate: float
    beta1: float = 0.9
    beta2: float = 0.999
    steps: int = 0
    first: list[Any] = field(default_factory=list)
    second: list[Any] = field(default_factory=list)

    def step(self, grads: Sequence[Any]) -> None:
        import numpy as np

        if not self.first:
            self.first = [np.zeros_like(p) for p in self.params]
            self.second = [np.zeros_like(p) for p in self.params]
        self.steps += 1
        scale = math.sqrt(1 - self.beta2**self.steps) / (1 - self.beta1**self.steps)
        for p, g, m, v in zip(self.params, grads, self.first, self.second, strict=True):
            m *= self.beta1
            m += (1 - self.beta1) * g
            v *= self.beta2
            v += (1 - self.beta2) * g * g
            p += self.rate * scale * m / (np.sqrt(v) + 1e-8)


@dataclass
class Curve:
    """Training games won (the policy sampling its actions), by the minute they began in."""

    won: list[int] = field(default_factory=list)
    played: list[int] = field(default_factory=list)

    def add(self, minute: int, won: bool) -> None:
        while len(self.played) <= minute:
            self.won.append(0)
            self.played.append(0)
        self.played[minute] += 1
        self.won[minute] += int(won)

    def lines(self) -> list[str]:
        return [
            f"  minute {m + 1}: won {w} of {p} games ({100 * w / p:.0f}%)"
            for m, (w, p) in enumerate(zip(self.won, self.played, strict=True))
            if p
        ]


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="train_classic.py",
        description="Train a small classic RISK policy against random; write it as a bot folder.",
    )
    parser.add_argument("--out", required=True, type=Path, help="the bot folder to write")
    parser.add_argument("--minutes", default="3", help="training time, wall clock (default 3)")
    parser.add_argument("--seed", default="1", help="seed of the whole run (default 1)")
    parser.add_argument("--episodes", default=None, help="stop after this many training games")
    parser.add_argument(
        "--games", default="200", help="evaluation games against random (default 200; 0: none)"
    )
    parser.add_argument("--name", default="trained-classic", help="the bot's name in bot.toml")
    args = parser.parse_args(argv)
    args.minutes = _number(args.minutes, "--minutes", float, 0.0, MAX_MINUTES, open_low=True)
    args.seed = _number(args.seed, "--seed", int, 0, SEED_LIMIT - 1)
    if args.episodes is not None:
        args.episodes = _number(args.episodes, "--episodes", int, 1, 10**9)
    args.games = _number(args.games, "--games", int, 0, 100_000)
    if not args.name or any(c.isspace() or c in "/\\\"'" for c in args.name):
        raise UsageError(
            f"--name must be a bot name without spaces, quotes or slashes: {args.name!r}"
        )
    check_out(args.out)
    return args


def _number(
    text: str,
    flag: str,
    kind: Callable[[str], Any],
    low: float,
    high: float,
    open_low: bool = False,
) -> Any:
    try:
        value = kind(text)
    except ValueError:
        value = None
    if (
        value is None
        or not math.isfinite(value)
        or value > high
        or value < low
        or (open_low and value == low)
    ):
        bound = f"above {low:g}" if open_low else f"from {low:g}"
        raise UsageError(f"{flag} takes a number {bound} up to {high:g}, got {text!r}")
    return value


def check_out(out: Path) -> None:
    """``--out`` must be a new folder, an empty one, or a bot folder this script wrote (it is
    then replaced), and writable: checked before any training."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file, not a folder")
    if out.is_dir():
        present = {p.name for p in out.iterdir()}
        if present and not {"bot.toml", "weights.npz", "bot.py"} <= present:
            raise UsageError(
                f"--out {out} is a folder holding other files: give a new or empty folder "
                "(or one this script wrote)"
            )
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-check"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise UsageError(f"--out {out} cannot be written: {exc.strerror or exc}") from None


def train(
    minutes: float, seed: int, episodes: int | None, log: Callable[[str], None]
) -> tuple[Any, Curve, int]:
    """The trained policy (the runner's :class:`LinearPolicy`), its curve, its game count."""
    import numpy as np
    from policy_bot import LinearPolicy

    from arena.envs import single_agent_env

    env = single_agent_env(GAME, opponents=[OPPONENT])
    encoder = env.encoder
    layout = encoder.layout()
    starts = dict(_starts(layout))
    mine = starts["seats"] + TERRITORY_FIGURE
    theirs = mine + starts["seats_stride"]
    size, actions = encoder.observation_size(), encoder.max_actions
    policy = LinearPolicy(
        np.zeros((actions, size), dtype=np.float32),
        np.zeros(actions, dtype=np.float32),
        np.zeros((dict(layout)["decision_kind"], 2), dtype=np.float32),
        layout,
    )
    steps = [
        Adam([policy.weights, policy.bias], rate=WEIGHTS_RATE),
        Adam([policy.position], rate=POSITION_RATE),
    ]
    rng = np.random.default_rng(seed)
    baseline: float | None = None
    curve = Curve()
    began = time.monotonic()
    deadline = began + 60 * minutes
    played = 0
    while (now := time.monotonic()) < deadline and (episodes is None or played < episodes):
        minute = int((now - began) // 60)
        done = (now - began) / (60 * minutes)
        if episodes is not None:
            done = max(done, played / episodes)
        temperature = 1.0 - (1.0 - COOLEST) * min(1.0, done / COOLED_BY)
        observation, _ = env.reset(seed=int(rng.integers(0, 2**62)))
        seen: list[Any] = []
        allowed: list[int] = []
        chosen: list[int] = []
        while True:
            obs = observation["observation"]
            k = int(observation["action_mask"].sum())
            action = 0
            if k > 1:
                z = policy.logits(obs, k) / temperature
                p = np.exp(z - z.max())
                action = int(rng.choice(k, p=p / p.sum()))
                seen.append(obs)
                allowed.append(k)
                chosen.append(action)
            observation, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                break
        final = observation["observation"]
        won = info.get("place") == 1
        ret = (1.0 if won else -1.0) + float(final[mine] - final[theirs])
        baseline = ret if baseline is None else BASELINE_KEEP * baseline + (1 - BASELINE_KEEP) * ret
        if chosen and ret != baseline:
            grads = _gradients(
                policy, np.stack(seen), np.array(allowed), np.array(chosen), temperature
            )
            scale = (ret - baseline) / (len(chosen) * temperature)
            steps[0].step([grads[0] * scale, grads[1] * scale])
            steps[1].step([grads[2] * scale])
        played += 1
        curve.add(minute, won)
        if played % 50 == 0:
            log(f"  {played} training games, {time.monotonic() - began:.0f} s")
    return policy, curve, played


def _gradients(policy: Any, x: Any, allowed: Any, chosen: Any, temperature: float) -> list[Any]:
    """The gradients of the summed log-probabilities of the ``chosen`` actions (one per
    row of observations ``x``, each among its first ``allowed``, sampled at
    ``temperature``) by weights, bias and position, times the temperature."""
    import numpy as np

    rows = np.arange(len(chosen))
    index = np.arange(policy.max_actions)[None, :]
    open_ = index < allowed[:, None]
    last = (index == (allowed - 1)[:, None]).astype(np.float32)
    before_last = (allowed - 1)[:, None]
    place = np.where(index < before_last, index / np.maximum(before_last - 1, 1), 0.0)
    place = place.astype(np.float32)
    kinds = x[:, policy.kinds]
    by_kind = kinds @ policy.position
    z = x @ policy.weights.T + policy.bias + by_kind[:, :1] * last + by_kind[:, 1:] * place
    z = np.where(open_, z / temperature, -np.inf)
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    g = -p
    g[rows, chosen] += 1.0
    position = np.stack([kinds.T @ (g * last).sum(axis=1), kinds.T @ (g * place).sum(axis=1)], 1)
    return [g.T @ x, g.sum(axis=0), position]


def _starts(layout: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Where each block starts, and the stride of one seat's figures in ``seats``."""
    found: list[tuple[str, int]] = []
    at = 0
    for name, length in layout:
        found.append((name, at))
        if name == "seats":
            found.append(("seats_stride", length // PLAYERS))
        at += length
    return found


def write_folder(out: Path, policy: Any, name: str, note: str) -> None:
    """The bot folder: ``bot.toml``, ``weights.npz`` and the runner, readable by every user
    (the arena may run bots as users of their own)."""
    manifest = "\n".join(
        [
            f'name = "{name}"',
            'version = "1"',
            'language = "Python"',
            f'description = "A linear policy trained against random by examples/train_classic.py ({note})."',
            f'games = ["{GAME}"]',
            'command = "python bot.py"',
            'entry = "bot:PolicyBot"',
            "",
        ]
    )
    (out / "bot.toml").write_text(manifest)
    policy.save(out / "weights.npz")
    shutil.copyfile(RUNNER, out / "bot.py")
    out.chmod(0o755)
    for file in ("bot.toml", "weights.npz", "bot.py"):
        (out / file).chmod(0o644)


def evaluate(out: Path, games: int, seed: int) -> tuple[float, int, int, int]:
    """``games`` seeded 2-player games of the folder's bot against ``random``, in-process,
    through the arena's match runner: seats rotated and seed-paired as ``arena versus``
    plays them. Returns the score (ahead 1, level ½) and the ahead, level, behind counts."""
    from arena import games as registry
    from arena.catalog import find_bot, read_spec, version_id
    from arena.catalog.entries import plan_entry
    from arena.referee.match import TimeControl
    from arena.scheduler.records import MatchSpec
    from arena.scheduler.series import score, series
    from arena.scheduler.worker import WorkerHost

    trained, opponent = read_spec(out), find_bot(OPPONENT)
    bots = {
        "A": plan_entry(trained, version_id(trained)),
        "B": plan_entry(opponent, version_id(opponent)),
    }
    game = registry.load(GAME).configure({}, PLAYERS)
    host = WorkerHost()
    total, ahead, level, behind = 0.0, 0, 0, 0
    try:
        for number, paired in enumerate(series(games, PLAYERS, seed)):
            record = host.play(
                MatchSpec(
                    tournament_id="train-classic",
                    plan_index=number,
                    seed=paired.seed,
                    game=GAME,
                    rules=game.config(),
                    seats=tuple(bots[s] for s in paired.seats),
                    control=TimeControl(move_time=1.0, time_bank=30.0, startup_time=10.0),
                    in_process=True,
                )
            )
            points = score(record.places, paired.seats)
            total += points
            ahead += points == 1.0
            level += points == 0.5
            behind += points == 0.0
    finally:
        host.close()
    return total / max(games, 1), ahead, level, behind


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = parse(argv)
    except UsageError as exc:
        print(f"train_classic.py: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        import numpy  # noqa: F401

        import arena.envs  # noqa: F401
    except ImportError as exc:
        print(
            f"train_classic.py: error: {exc.name} is missing: pip install 'risk-arena[rl]'",
            file=sys.stderr,
        )
        return EXIT_USAGE
    sys.path.insert(0, str(RUNNER.parent))

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    started = time.monotonic()
    log(f"training against {OPPONENT} for {args.minutes:g} min (seed {args.seed})")
    try:
        policy, curve, played = train(args.minutes, args.seed, args.episodes, log)
    except KeyboardInterrupt:
        print("train_classic.py: interrupted: nothing written", file=sys.stderr)
        return EXIT_INTERRUPTED
    trained_for = time.monotonic() - started
    note = f"{played} games, {trained_for / 60:.1f} min, seed {args.seed}"
    write_folder(args.out, policy, args.name, note)
    print(f"trained for {trained_for:.0f} s: {played} games against {OPPONENT}")
    print("training curve (sampled actions):")
    for line in curve.lines():
        print(line)
    print(f"wrote {args.out}: bot.toml, weights.npz, bot.py")
    if args.games:
        sys.stdout.flush()
        log(f"playing {args.games} games against {OPPONENT} ...")
        began = time.monotonic()
        try:
            share, ahead, level, behind = evaluate(args.out, args.games, args.seed)
        except KeyboardInterrupt:
            print(f"train_classic.py: interrupted: {args.out} is written", file=sys.stderr)
            return EXIT_INTERRUPTED
        print(
            f"{args.name} v {OPPONENT}: {args.games} 2-player games (greedy, seats rotated): "
            f"ahead {ahead}, level {level}, behind {behind} (score {100 * share:.1f}%), "
            f"played in {time.monotonic() - began:.0f} s"
        )
    folder = str(args.out)
    if not (args.out.is_absolute() or folder.startswith(".")):
        folder = f"./{folder}"  # a bare name would be read as a bot's name
    print(f"next: arena check-bot {folder} && arena bots add {folder}")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
