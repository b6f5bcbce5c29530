"""``arena check-bot``: put a bot through scripted positions before it enters a tournament.

Every decision kind of the game is asked once from a real position (the game's own, found by
seeded play: :meth:`GameType.positions`), each as its own short match on one stream, so the
bot also shows it can play many matches in a row. Error paths: a deliberately rejected answer must be followed by
a new answer to the same request, and answers must arrive within the move time.
"""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid
from dataclasses import dataclass, replace
from pathlib import Path

from arena.catalog import BotSpec, check_plays
from arena.errors import BotError
from arena.games import DEFAULT_GAME
from arena.games import load as load_game
from arena.games.api import Position
from arena.keys import bot_seed
from arena.referee.host import BotHost, logs_dir
from arena.referee.match import Seat, check_answer
from arena.referee.messages import Ask, End, Reply, Result, Start
from arena.referee.seats import InProcessSeat, RemoteSeat
from arena.sdk.bot import Bot

BURST = 100


def game_to_check(spec: BotSpec, asked: str | None) -> str:
    """The game ``spec`` is checked for: the one asked for, else the only game its
    ``bot.toml`` lists, else classic among several; a bot of several other games must be
    told which, since checking it for a game it does not play would only refuse it."""
    if asked is not None:
        game = asked
    elif len(spec.games) == 1:
        game = spec.games[0]
    elif DEFAULT_GAME in spec.games:
        game = DEFAULT_GAME
    else:
        listed = ", ".join(spec.games)
        raise BotError(f"bot {spec.name!r} plays {listed}: say which with --game")
    check_plays(spec, game)
    return game


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One line of the report."""

    name: str
    ok: bool
    detail: str
    ms: float | None = None


def find_positions(seed: int = 1, game: str = DEFAULT_GAME) -> dict[str, Position]:
    """A real position of every decision kind of ``game`` (deterministic), in its order."""
    return {p.kind: p for p in load_game(game).positions(seed)}


class _Checker:
    def __init__(self, seat: Seat, move_time: float) -> None:
        self.seat = seat
        self.move_time = move_time
        self.latencies: list[float] = []
        self.next_id = 1

    async def _open(self, position: Position) -> str:
        match_id = uuid.uuid4().hex[:12]
        names = [f"seat{i}" for i in range(position.game.players)]
        start = Start(
            position.game,
            match_id=match_id,
            seat=position.seat,
            names=names,
            bot_seed=bot_seed(position.seed, position.seat),
            move_time_ms=int(self.move_time * 1000),
            time_bank_ms=0,
        )
        fault = await self.seat.start(start)
        if fault:
            raise RuntimeError(fault)
        return match_id

    async def _close(self, match_id: str, position: Position) -> None:
        lines = [
            {"seat": i, "bot": f"seat{i}", "place": 1, "status": "OK", "strikes": 0}
            for i in range(position.game.players)
        ]
        await self.seat.end(End(match_id, lines, "round_limit", None))

    def _request(self, match_id: str, position: Position) -> Ask:
        game, state, seat = position.game, position.state, position.seat
        request = Ask(
            game,
            match_id,
            seat,
            request_id=self.next_id,
            kind=position.kind,
            view=game.view(state, seat),
            options=game.legal_options(state, seat),
            deadline_ms=int(self.move_time * 1000),
            time_bank_ms=0,
            events=[],
        )
        self.next_id += 1
        return request

    def _judge(self, position: Position, reply: Reply) -> str | None:
        """Why the reply fails, or None when it is a legal, timely answer."""
        if reply.fault:
            return f"{reply.fault}: {reply.detail}"
        if reply.illegal:
            return f"malformed answer: {reply.illegal}"
        if reply.silent or reply.elapsed > self.move_time:
            return f"no answer within the move time ({self.move_time:g} s)"
        game, state, seat = position.game, position.state, position.seat
        options = game.legal_options(state, seat)
        _, _, reason = check_answer(game, state, seat, position.kind, reply, options)
        return None if reason is None else f"illegal answer: {reason}"

    async def decision(self, position: Position) -> CheckResult:
        match_id = await self._open(position)
        reply = await self.seat.ask(self._request(match_id, position), self.move_time * 2)
        problem = self._judge(position, reply)
        if problem is None:
            self.latencies.append(reply.elapsed * 1000)
            self.seat.accepted(Result(self.next_id - 1, accepted=True))
        await self._close(match_id, position)
        return CheckResult(
            position.kind, problem is None, problem or "legal answer in time", reply.elapsed * 1000
        )

    async def rejection(self, position: Position) -> CheckResult:
        match_id = await self._open(position)
        request = self._request(match_id, position)
        first = await self.seat.ask(request, self.move_time * 2)
        problem = self._judge(position, first)
        if problem is None:
            rejected = Result(
                request_id=request.request_id,
                accepted=False,
                reason="check-bot rejects this answer on purpose",
                strikes=1,
            )
            second = await self.seat.retry(rejected, self.move_time * 4)
            problem = self._judge(position, second)
            if problem is not None:
                problem = f"after a rejection: {problem}"
        await self._close(match_id, position)
        return CheckResult(
            "answers again after a rejection",
            problem is None,
            problem or "re-answered the same request",
        )

    async def burst(self, position: Position) -> CheckResult:
        match_id = await self._open(position)
        problems = []
        for _ in range(BURST):
            reply = await self.seat.ask(self._request(match_id, position), self.move_time * 2)
            problem = self._judge(position, reply)
            if problem:
                problems.append(problem)
                break
            self.latencies.append(reply.elapsed * 1000)
            self.seat.accepted(Result(self.next_id - 1, accepted=True))
        await self._close(match_id, position)
        return CheckResult(
            f"{BURST} decisions in a row",
            not problems,
            problems[0] if problems else "all legal and in time",
        )


async def check_bot(
    player: BotSpec | Bot,
    move_time: float = 1.0,
    startup_time: float = 10.0,
    game: str = DEFAULT_GAME,
) -> tuple[list[CheckResult], list[float]]:
    """Run every check of ``game`` against ``player``; returns the results and the latencies
    (ms)."""
    positions = find_positions(game=game)
    results: list[CheckResult] = []
    async with BotHost() as host:
        seat: Seat
        log: Path | None = None
        if isinstance(player, Bot):
            # over the wire format, as a remote bot is asked: the check speaks for both
            seat = InProcessSeat(player, player.name, player.version, over_wire=True)
            results.append(CheckResult("runs in-process", True, "loaded"))
        else:
            started = time.perf_counter()
            name = f"check-{player.path.name}-{uuid.uuid4().hex[:6]}"
            log = logs_dir() / f"{name}.log"
            remote, why = await host.connect(player, name, startup_time)
            if remote is None:
                return [CheckResult("connects and says Hello", False, f"{why}; log: {log}")], []
            seat = remote
            hello = remote.session.hello
            results.append(
                CheckResult(
                    "connects and says Hello",
                    True,
                    f"{hello.bot_name} {hello.bot_version} in "
                    f"{(time.perf_counter() - started) * 1000:.0f} ms",
                )
            )
        checker = _Checker(seat, move_time)

        def gone() -> bool:
            """The bot's process or stream ended: the remaining checks cannot run."""
            return isinstance(seat, RemoteSeat) and not BotHost.alive(seat)

        for kind in positions:
            if gone():
                results.append(CheckResult(kind, False, "not run: the bot is gone"))
            else:
                try:
                    results.append(await checker.decision(positions[kind]))
                except RuntimeError as exc:
                    results.append(CheckResult(kind, False, str(exc)))
        # The error paths are tried on one position: classic's attack, which has the most
        # ways to go wrong, else the game's first.
        repeated = positions.get("attack") or next(iter(positions.values()), None)
        if repeated is not None:
            for label, check in (
                ("answers again after a rejection", checker.rejection),
                (f"{BURST} decisions in a row", checker.burst),
            ):
                if gone():
                    results.append(CheckResult(label, False, "not run: the bot is gone"))
                else:
                    results.append(await check(repeated))
        failed = next((i for i, r in enumerate(results) if not r.ok), None)
        if failed is not None and log is not None:  # where its traceback, if any, is
            first = results[failed]
            results[failed] = replace(first, detail=f"{first.detail}; bot's stderr: {log}")
        return results, checker.latencies


def percentile(values: list[float], q: int) -> float:
    """The q-th percentile (1..99) of ``values``."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def run(
    player: BotSpec | Bot, move_time: float, startup_time: float, game: str = DEFAULT_GAME
) -> tuple[list[CheckResult], list[float]]:
    """Synchronous :func:`check_bot`."""
    return asyncio.run(check_bot(player, move_time, startup_time, game))
