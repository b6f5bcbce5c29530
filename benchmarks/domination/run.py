"""Risk Arena bots against Domination's hard AI, Domination refereeing.

Domination (yura.net's GPL Java RISK) plays classic world-domination games with its
``AIDomination`` "hard" AI in every seat but one; that seat is a Risk Arena bot, loaded
in-process and asked each decision as ``arena match --move-time`` asks it (a
:class:`arena.sdk.Request` with the arena's view and legal options, a deadline of the move
time plus what is left of a 30 s bank). Seats rotate game by game. Each finished game is one
line appended to ``--out`` (JSONL); a rerun with the same bot, players and move time skips
the games already there, so a long measurement resumes. Prints the win rate with its 95%
Wilson interval, think time per decision, and the bot's rollouts per searched decision when
it searches by ``halving_search`` (``strong``).

Domination is built outside this repository (see README.md here); pass the build folder:

    python benchmarks/domination/run.py --domination /work/domination-build \\
        --bot planner --players 3 --games 6 --move-time 0.05 --out results.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from adapter import ROLLING, Mirror, next_roll
from bridge import Bridge, BridgeError, prepare

from arena import games
from arena.catalog import find_bot, load_bot
from arena.errors import ArenaError
from arena.games.classic.actions import Attack
from arena.games.classic.game import ClassicGame
from arena.protocol import envelope
from arena.results.stats import wilson_interval
from arena.sdk import Bot, MatchInfo, Request

TIME_BANK = 30.0
"""Seconds of bank, as ``arena match`` gives by default."""
CACHE = Path.home() / ".cache" / "risk-arena-domination"
"""Where the bridge is compiled and the board files are written (outside the repository)."""
STUCK = 3
"""Commands Domination may refuse in a row before the harness plays the safe default."""


class Rollouts:
    """Counts a searching bot's rollouts per decision: wraps the ``halving_search`` its
    module calls, when it has one, adding each search's ``budget.used``."""

    def __init__(self, bot: Bot) -> None:
        self.count = 0
        module = sys.modules.get(type(bot).__module__)
        self.active = module is not None and hasattr(module, "halving_search")
        if module is not None and self.active:
            search: Callable[..., int] = module.halving_search
            if not getattr(search, "_counted", False):

                def counted(candidates: Any, world: Any, play: Any, budget: Any) -> int:
                    try:
                        return search(candidates, world, play, budget)
                    finally:
                        COUNTERS[-1].count += budget.used

                counted._counted = True  # type: ignore[attr-defined]
                module.halving_search = counted
        COUNTERS.append(self)


COUNTERS: list[Rollouts] = []


RECORDED = ("owner", "armies", "card_counts", "next_set_value", "players", "seat", "to_place")
"""What ``--record`` keeps of the bot's view at each of its turn starts: what a learned value
of the position (``bots/strong/train_value.py --views``) is computed from."""


def play(
    bridge: Bridge,
    game: ClassicGame,
    ids: dict[int, int],
    bot: Bot,
    seat: int,
    move_time: float,
    views: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """One game to its end (or until the bot's seat is out); its record. With ``views``, the
    bot's view at each of its turn starts is appended to it (see :data:`RECORDED`)."""
    players = game.players
    declared = bool(getattr(bot, "always_max_defence", False))
    mirror = Mirror(game, seat, ids, tuple(declared if p == seat else True for p in range(players)))
    bot.start(
        MatchInfo(
            game="classic",
            rules=game.config(),
            seat=seat,
            players=players,
            bot_seed=seat + 1,
            board=game.board(),
            names=tuple("domination-hard" if p != seat else bot.name for p in range(players)),
            move_time_ms=int(move_time * 1000),
            time_bank_ms=int(TIME_BANK * 1000),
        )
    )
    rollouts = Rollouts(bot)
    bank = TIME_BANK
    think: list[float] = []
    searched: list[int] = []
    strikes = refused = 0
    last_refusal = ""
    started = time.perf_counter()
    snap = bridge.new_game(players, seat)
    stuck = 0
    while not snap["over"]:
        phase = mirror.phase(snap)
        if phase is None:
            before, snap = snap, bridge.send("retreat" if snap["state"] == ROLLING else "endgo")
            continue
        state = mirror.state(snap, phase)
        options = game.legal_options(state, seat)
        listed = game.choices(options)
        action = automatic(options, listed)
        if action is None and stuck >= STUCK:
            action = game.default_action(state, seat)
        if action is None:
            view = game.view(state, seat)
            if (
                views is not None
                and options.kind == "reinforce"
                and not view["conquered_this_turn"]
            ):
                views.append({k: view[k] for k in RECORDED})
            fields = envelope.local_request_fields(
                game,
                seat=seat,
                request_id=len(think) + 1,
                kind=options.kind,
                view=view,
                options=options,
                listed=listed,
                deadline_ms=int((move_time + bank) * 1000),
                time_bank_ms=int(bank * 1000),
                events=[],
            )
            rollouts.count = 0
            asked = time.perf_counter()
            answer = bot.choose(Request(**fields))
            elapsed = time.perf_counter() - asked
            bank = max(0.0, bank - max(0.0, elapsed - move_time))
            think.append(1000 * elapsed)
            if rollouts.count:
                searched.append(rollouts.count)
            action = chosen(game, state, seat, answer, listed)
            if action is None:
                strikes += 1
                action = game.default_action(state, seat)
        before = snap
        for command in mirror.commands(action, phase):
            snap = bridge.send(command)
            if snap["over"]:
                break
        if isinstance(action, Attack):
            number, rolled = mirror.number(action.source), 0
            while (command := next_roll(action, snap, number, rolled)) is not None:
                snap = bridge.send(command)
                rolled += command.startswith("roll")
        stuck = stuck + 1 if same(before, snap) else 0
        if stuck:
            refused += 1
            last_refusal = f"{action!r}: {' | '.join(snap['messages'][-2:])}"
    me = snap["players"][seat]
    return {
        "won": snap["winner"] == seat,
        "winner": snap["winner"],
        "end": "won" if snap["winner"] >= 0 else "out",
        "territories": me["territories"],
        "turns": me["turns"] - 1,
        "decisions": len(think),
        "think_ms": summary(think),
        "over_move_time": sum(1 for t in think if t > 1000 * move_time),
        "rollouts": summary([float(r) for r in searched]) if rollouts.active else None,
        "strikes": strikes,
        "refused": refused,
        "last_refusal": last_refusal,
        "seconds": round(time.perf_counter() - started, 1),
    }


def automatic(options: Any, listed: list[Any]) -> Any:
    """The answer where the arena would ask nothing: Domination asks to attack, fortify and
    occupy even when there is one choice (end the attack, end the turn, move the dice)."""
    if options.kind in ("attack", "fortify") and len(listed) == 1:
        return listed[0]
    if options.kind == "occupy" and len(listed) == 1:
        return listed[0]
    return None


def chosen(game: ClassicGame, state: Any, seat: int, answer: Any, listed: list[Any]) -> Any:
    """The bot's answer as an action, or None when it is illegal (a strike)."""
    try:
        taken = envelope.local_answer(game, answer)
        if isinstance(taken, int):
            return listed[taken] if 0 <= taken < len(listed) else None
        game.check(state, seat, taken)
        return taken
    except ArenaError:
        return None


def same(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether Domination's position did not change (it refused the command)."""
    keys = ("state", "owner", "armies", "hand", "players")
    return all(before[k] == after[k] for k in keys)


def summary(values: list[float]) -> dict[str, float] | None:
    """Mean, median, 99th percentile and maximum, rounded."""
    if not values:
        return None
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {
        "mean": round(statistics.fmean(values), 2),
        "p50": round(statistics.median(values), 2),
        "p99": round(p99, 2),
        "max": round(ordered[-1], 2),
        "n": len(values),
    }


def finished(out: Path, key: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Games already in ``out`` for this bot, players and move time, by game number."""
    found: dict[int, dict[str, Any]] = {}
    if not out.exists():
        return found
    for line in out.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if all(row.get(k) == v for k, v in key.items()):
            found[int(row["game"])] = row
    return found


def report(rows: list[dict[str, Any]], key: dict[str, Any]) -> str:
    """The summary line: wins with their 95% Wilson interval, par, think time, rollouts."""
    wins = sum(1 for r in rows if r["won"])
    n = len(rows)
    low, high = wilson_interval(wins, n)
    par = 100 / key["players"]
    think = [r["think_ms"]["mean"] for r in rows if r["think_ms"]]
    p99 = max((r["think_ms"]["p99"] for r in rows if r["think_ms"]), default=0.0)
    line = (
        f"{key['bot']} v {key['players'] - 1}× Domination hard, {1000 * key['move_time']:g} ms: "
        f"won {wins}/{n} = {100 * wins / max(1, n):.1f}% [{100 * low:.1f}, {100 * high:.1f}] "
        f"(par {par:.1f}%); think mean {statistics.fmean(think) if think else 0:.1f} ms, "
        f"worst p99 {p99:.1f} ms; strikes {sum(r['strikes'] for r in rows)}"
    )
    searched = [r["rollouts"]["mean"] for r in rows if r.get("rollouts")]
    if searched:
        line += f"; rollouts per searched decision {statistics.fmean(searched):.0f}"
    return line


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--domination", type=Path, required=True, help="Domination build folder")
    parser.add_argument("--bot", default="strong", help="arena bot name or folder")
    parser.add_argument("--players", type=int, choices=(3, 6), default=3)
    parser.add_argument("--games", type=int, default=30, help="games in all (resumed)")
    parser.add_argument("--move-time", type=float, default=0.05, help="seconds a decision")
    parser.add_argument("--out", type=Path, required=True, help="JSONL results file")
    parser.add_argument("--cache", type=Path, default=CACHE, help="bridge build folder")
    parser.add_argument(
        "--record",
        type=Path,
        help="also append each game's turn-start views and winner here (JSONL), "
        "for bots/strong/train_value.py --views",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.move_time <= 0:
        parser.error("--games and --move-time must be positive")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    game = games.load("classic").configure({}, args.players)
    assert isinstance(game, ClassicGame)
    try:
        spec = find_bot(args.bot)
        command, ids = prepare(args.domination.resolve(), args.cache, game.rules.board)
    except (ArenaError, BridgeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    key = {"bot": args.bot, "players": args.players, "move_time": args.move_time}
    done = finished(args.out, key)
    todo = [g for g in range(args.games) if g not in done]
    print(f"{len(done)} games already in {args.out}; playing {len(todo)}", flush=True)
    bridge: Bridge | None = None
    args.cache.mkdir(parents=True, exist_ok=True)
    with open(args.cache / "domination.log", "a", encoding="utf-8") as log:
        try:
            for number in todo:
                if bridge is None:
                    bridge = Bridge(command, log)
                seat = number % args.players
                views: list[dict[str, Any]] | None = [] if args.record else None
                try:
                    row = play(bridge, game, ids, load_bot(spec), seat, args.move_time, views)
                except BridgeError as exc:
                    print(f"game {number}: {exc}; not recorded", file=sys.stderr)
                    bridge.close()
                    bridge = None
                    continue
                row = {**key, "game": number, "seat": seat, **row}
                with open(args.out, "a", encoding="utf-8") as out:
                    out.write(json.dumps(row) + "\n")
                if args.record:
                    with open(args.record, "a", encoding="utf-8") as out:
                        out.write(json.dumps({"winner": row["winner"], "views": views}) + "\n")
                done[number] = row
                print(
                    f"game {number} seat {seat}: {'won' if row['won'] else 'lost'} "
                    f"({row['turns']} turns, {row['decisions']} decisions, {row['seconds']} s)",
                    flush=True,
                )
        finally:
            if bridge is not None:
                bridge.close()
    rows = [done[g] for g in sorted(done) if g < args.games]
    print(report(rows, key))
    return 0


if __name__ == "__main__":
    sys.exit(main())
