"""Run one match: ask the engine who decides, ask those seats, check, apply, record.

The referee is the only authority. Clocks are measured here: each decision allows the move
time plus what is left of the seat's bank; time past the move time is taken from the bank,
and only when both are spent is it a TIMEOUT strike (the engine's documented default action
is applied). An illegal answer is rejected with the engine's reason and is a strike; the bot
may retry before its deadline. At the strike limit, or on a crash, a disconnect or a
protocol fault, the seat forfeits and the match goes on without it.
"""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from arena.errors import ArenaError
from arena.games.classic.actions import Action, action_to_dict
from arena.games.classic.events import redact
from arena.games.classic.options import action_from_index
from arena.games.classic.rules import ClassicRules
from arena.games.classic.state import ClassicState, Phase
from arena.protocol import codec
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.referee.seats import InProcessSeat, Reply
from arena.replay import ReplayWriter
from arena.sdk.bot import Bot
from arena.seeds import bot_seed
from arena.statuses import SeatStatus

DEFAULT_STRIKE_LIMIT = 3
FAULT_STATUS = {
    "crash": SeatStatus.CRASH,
    "disconnect": SeatStatus.DISCONNECT,
    "protocol": SeatStatus.PROTOCOL,
}
"""The seat status of each :class:`~arena.referee.seats.Reply` fault (a seat that never
connects is INIT_FAIL through ``absent``, not through a reply)."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Clocks for a match, in seconds. ``move_time=None`` plays without clocks."""

    move_time: float | None = 1.0
    time_bank: float = 30.0
    startup_time: float = 10.0


NO_CLOCK = TimeControl(move_time=None, time_bank=0.0)


class Seat(Protocol):
    """What the match loop needs of a seat (see :mod:`arena.referee.seats`)."""

    name: str
    version: str
    always_max: bool

    async def start(self, message: pb.MatchStart) -> str | None: ...
    async def ask(self, request: pb.DecisionRequest, timeout: float | None) -> Reply: ...
    async def retry(self, result: pb.ActionResult, timeout: float | None) -> Reply: ...
    def accepted(self, result: pb.ActionResult) -> None:
        """Deliver an ActionResult that asks for nothing back: an accepted answer, or the
        rejection that ends the seat's match."""
        ...

    async def drain(self) -> str | None: ...
    async def end(self, message: pb.MatchEnd) -> None: ...


@dataclass(slots=True)
class SeatResult:
    """One seat's line in a match result."""

    seat: int
    bot: str
    version: str
    place: int = 0
    status: str = SeatStatus.OK.value
    strikes: int = 0
    detail: str = ""
    think_ms: list[float] = field(default_factory=list)

    def think_percentile(self, q: float) -> float | None:
        """Think time percentile in ms (q in 0..100), or None without decisions."""
        if not self.think_ms:
            return None
        if len(self.think_ms) == 1:
            return self.think_ms[0]
        cuts = statistics.quantiles(self.think_ms, n=100, method="inclusive")
        return cuts[min(98, max(0, round(q) - 1))]

    def to_dict(self) -> dict[str, Any]:
        """The seat's entry in ``places``: the same for the same seed, rules and bots."""
        return {
            "seat": self.seat,
            "bot": self.bot,
            "version": self.version,
            "place": self.place,
            "status": self.status,
            "strikes": self.strikes,
        }

    def timing(self) -> dict[str, Any]:
        """Think-time figures (these vary from run to run)."""
        p50, p99 = self.think_percentile(50), self.think_percentile(99)
        return {
            "seat": self.seat,
            "decisions": len(self.think_ms),
            "think_ms_p50": None if p50 is None else round(p50, 3),
            "think_ms_p99": None if p99 is None else round(p99, 3),
        }


@dataclass(slots=True)
class MatchResult:
    """A finished match: places and statuses per seat, why it ended, where the replay is."""

    game: str
    match_id: str
    seed: int
    rules: dict[str, Any]
    seats: list[SeatResult]
    winner: int | None
    turns: int
    rounds: int
    end: str
    decisions: int
    replay: str | None
    final: ClassicState
    out_order: tuple[int, ...] = ()
    """Seats in the order they left the game (eliminated or forfeited, earliest first): every
    forfeited seat is in it, also one that forfeited after the game was already over."""

    def to_dict(self) -> dict[str, Any]:
        """The ``arena match --json`` object."""
        return {
            "game": self.game,
            "match_id": self.match_id,
            "seed": self.seed,
            "rules": self.rules,
            "places": [s.to_dict() for s in self.seats],
            "winner": self.winner,
            "turns": self.turns,
            "rounds": self.rounds,
            "end": self.end,
            "decisions": self.decisions,
            "timing": [s.timing() for s in self.seats],
            "replay": self.replay,
        }


class _Clock:
    def __init__(self, control: TimeControl) -> None:
        self.move = control.move_time
        self.bank = control.time_bank

    def allowance(self) -> float | None:
        return None if self.move is None else self.move + self.bank

    def charge(self, elapsed: float) -> None:
        if self.move is not None:
            self.bank = max(0.0, self.bank - max(0.0, elapsed - self.move))


@dataclass(slots=True)
class _Verdict:
    """What one seat's decision came to: an action to apply, or a forfeit."""

    action: Action | None = None
    forfeit: SeatStatus | None = None
    detail: str = ""


class MatchRunner:
    """Runs one match over seats of any kind. Use :func:`run_match`."""

    def __init__(
        self,
        rules: ClassicRules,
        seats: list[Seat | None],
        seed: int,
        names: list[tuple[str, str]],
        control: TimeControl,
        replay_path: Path | None,
        strike_limit: int,
        match_id: str,
        absent: dict[int, tuple[SeatStatus, str]],
        untimed: frozenset[int] = frozenset(),
    ) -> None:
        self.rules = rules
        self.seats = seats
        self.seed = seed
        self.control = control
        self.strike_limit = strike_limit
        self.match_id = match_id
        self.absent = absent
        self.results = [SeatResult(i, n, v) for i, (n, v) in enumerate(names)]
        self.clocks = [_Clock(NO_CLOCK if i in untimed else control) for i in range(len(seats))]
        self.pending_events: list[list[dict[str, Any]]] = [[] for _ in seats]
        self.next_request = 1
        self.decisions = 0
        self.last_request: dict[int, int] = {}
        self.last_think: dict[int, float] = {}
        self.late_forfeits: list[int] = []
        """Seats that forfeited once the game was already over (e.g. both seats of a
        2-player match absent: the first forfeit ends it), in forfeit order."""
        self.replay_path = replay_path
        self.writer: ReplayWriter | None = None
        self.state = rules.new_game(seed, [bool(s and s.always_max) for s in seats])

    def record(self, entry: dict[str, Any]) -> None:
        if self.writer is not None:
            self.writer.write(entry)

    def _share(self, events: list[dict[str, Any]]) -> None:
        for seat, queue in enumerate(self.pending_events):
            queue.extend(redact(e, seat) for e in events)

    def forfeit(self, seat: int, status: SeatStatus, detail: str) -> None:
        result = self.results[seat]
        if result.status == SeatStatus.OK.value:
            result.status = status.value
            result.detail = detail
        if not self.state.alive(seat):
            return
        if self.state.phase == Phase.OVER:
            # The engine takes no forfeit after the end, but the seat did leave: it goes
            # last in the out order, so its status never sits outside that order.
            if seat not in self.late_forfeits:
                self.late_forfeits.append(seat)
            return
        step = self.rules.forfeit(self.state, seat)
        self.state = step.state
        self._share(step.events)
        self.record(
            {
                "type": "forfeit",
                "seat": seat,
                "status": status.value,
                "detail": detail,
                "events": step.events,
            }
        )

    async def run(self) -> MatchResult:
        rules = self.rules
        if self.replay_path is not None:
            self.writer = ReplayWriter(
                self.replay_path,
                {
                    "game": "classic",
                    "match_id": self.match_id,
                    "seed": self.seed,
                    "rules": rules.config.to_dict(),
                    "seats": [
                        {"seat": r.seat, "bot": r.bot, "version": r.version} for r in self.results
                    ],
                    "always_max": list(self.state.always_max),
                    "time_control": {
                        "move_time": self.control.move_time,
                        "time_bank": self.control.time_bank,
                    },
                    "strike_limit": self.strike_limit,
                },
            )
        try:
            await self._start_seats()
            while (decision := rules.decision(self.state)) is not None:
                asking = [s for s in decision.seats if self.seats[s] is not None]
                verdicts = await asyncio.gather(*(self._decide(s) for s in asking))
                for seat, verdict in zip(asking, verdicts, strict=True):
                    if verdict.forfeit is not None:
                        self.forfeit(seat, verdict.forfeit, verdict.detail)
                    elif verdict.action is not None and self.state.phase != Phase.OVER:
                        self._apply(seat, decision.kind, verdict.action)
            outcome = rules.outcome(self.state)
            assert outcome is not None
            for r in self.results:
                r.place = outcome.places[r.seat]
            self.record(
                {
                    "type": "result",
                    "places_by_seat": list(outcome.places),
                    "winner": outcome.winner,
                    "end": outcome.termination,
                    "turns": self.state.turns,
                    "rounds": self.state.round,
                    "statuses": [r.status for r in self.results],
                    "strikes": [r.strikes for r in self.results],
                }
            )
            await self._end_seats(outcome.termination, outcome.winner)
        finally:
            if self.writer is not None:
                self.writer.close()
        return MatchResult(
            game="classic",
            match_id=self.match_id,
            seed=self.seed,
            rules=rules.config.to_dict(),
            seats=self.results,
            winner=outcome.winner,
            turns=self.state.turns,
            rounds=self.state.round,
            end=outcome.termination,
            decisions=self.decisions,
            replay=str(self.replay_path) if self.replay_path else None,
            final=self.state,
            out_order=(*self.state.eliminated, *self.late_forfeits),
        )

    async def _start_seats(self) -> None:
        board = self.rules.board.to_dict()
        names = [r.bot for r in self.results]
        move_ms = int((self.control.move_time or 0) * 1000)
        bank_ms = int(self.control.time_bank * 1000) if self.control.move_time else 0
        for seat, (status, detail) in sorted(self.absent.items()):
            self.forfeit(seat, status, detail)
        for seat, handle in enumerate(self.seats):
            if handle is None:
                continue
            message = codec.match_start_to_pb(
                match_id=self.match_id,
                rules=self.rules.config.to_dict(),
                seat=seat,
                names=names,
                bot_seed=bot_seed(self.seed, seat),
                board=board,
                move_time_ms=move_ms,
                time_bank_ms=bank_ms,
            )
            fault = await handle.start(message)
            if fault is not None:
                self.forfeit(seat, SeatStatus.CRASH, fault)

    async def _end_seats(self, end: str, winner: int | None) -> None:
        lines = [r.to_dict() for r in self.results]
        message = codec.match_end_to_pb(self.match_id, lines, end, winner)
        for seat, handle in enumerate(self.seats):
            if handle is not None and self.results[seat].status not in ("CRASH", "DISCONNECT"):
                await handle.end(message)

    def _apply(self, seat: int, kind: str, action: Action) -> None:
        step = self.rules.apply(self.state, seat, action)
        self.state = step.state
        self.decisions += 1
        self._share(step.events)
        self.record(
            {
                "type": "decision",
                "seat": seat,
                "kind": kind,
                "action": action_to_dict(action),
                "request_id": self.last_request[seat],
                "think_ms": self.last_think[seat],
                "events": step.events,
            }
        )

    async def _decide(self, seat: int) -> _Verdict:
        handle = self.seats[seat]
        assert handle is not None
        unsolicited = await handle.drain()
        if unsolicited is not None:
            return _Verdict(forfeit=SeatStatus.PROTOCOL, detail=unsolicited)
        rules, state, clock, result = self.rules, self.state, self.clocks[seat], self.results[seat]
        options = rules.legal_options(state, seat)
        allowance = clock.allowance()
        request_id = self.next_request
        self.next_request += 1
        events, self.pending_events[seat] = self.pending_events[seat], []
        request = codec.request_to_pb(
            request_id=request_id,
            match_id=self.match_id,
            view=rules.view(state, seat),
            options=options,
            deadline_ms=0 if allowance is None else int(allowance * 1000),
            time_bank_ms=int(clock.bank * 1000) if clock.move is not None else 0,
            server_time_ms=int(time.time() * 1000),
            events=events,
        )
        self.last_request[seat] = request_id
        reply = await handle.ask(request, allowance)
        while True:
            for text in reply.debug:
                self.record({"type": "debug", "seat": seat, "request_id": request_id, "text": text})
            if reply.fault is not None:
                return _Verdict(forfeit=FAULT_STATUS[reply.fault], detail=reply.detail)
            late = allowance is not None and reply.elapsed > allowance
            if late or (reply.answer is None and reply.illegal is None):
                clock.bank = 0.0
                result.strikes += 1
                result.think_ms.append(reply.elapsed * 1000)
                self.record(
                    {
                        "type": "timeout",
                        "seat": seat,
                        "request_id": request_id,
                        "think_ms": round(reply.elapsed * 1000, 3),
                    }
                )
                if result.strikes >= self.strike_limit:
                    return _Verdict(
                        forfeit=SeatStatus.TIMEOUT,
                        detail=f"{result.strikes} strikes, the last a timeout",
                    )
                self.last_think[seat] = round(reply.elapsed * 1000, 3)
                return _Verdict(action=rules.default_action(state, seat))
            action, reason = _checked(rules, state, seat, reply, options)
            if reason is None:
                clock.charge(reply.elapsed)
                result.think_ms.append(reply.elapsed * 1000)
                self.last_think[seat] = round(reply.elapsed * 1000, 3)
                handle.accepted(
                    pb.ActionResult(request_id=request_id, accepted=True, strikes=result.strikes)
                )
                return _Verdict(action=action)
            result.strikes += 1
            self.record(
                {
                    "type": "rejected",
                    "seat": seat,
                    "request_id": request_id,
                    "answer": _describe(reply.answer),
                    "reason": reason,
                }
            )
            rejection = pb.ActionResult(
                request_id=request_id, accepted=False, reason=reason, strikes=result.strikes
            )
            if result.strikes >= self.strike_limit:
                handle.accepted(rejection)  # no retry, but every answer gets its result
                return _Verdict(
                    forfeit=SeatStatus.ILLEGAL,
                    detail=f"{result.strikes} strikes, the last: {reason}",
                )
            # A retry runs on the same clock: the seat's reply times are since the request.
            reply = await handle.retry(rejection, allowance)


def _checked(
    rules: ClassicRules, state: ClassicState, seat: int, reply: Reply, options: Any
) -> tuple[Action | None, str | None]:
    """The reply's action if legal, else the reason it is rejected."""
    if reply.illegal is not None:
        return None, reply.illegal
    answer = reply.answer
    try:
        action = action_from_index(options, answer) if isinstance(answer, int) else answer
        assert action is not None
        rules.check(state, seat, action)
    except ArenaError as exc:
        return None, str(exc)
    return action, None


def _describe(answer: object) -> object:
    if isinstance(answer, int) or answer is None:
        return answer
    try:
        return action_to_dict(answer)  # type: ignore[arg-type]
    except (KeyError, TypeError):
        return repr(answer)


async def run_match(
    rules: ClassicRules,
    seats: list[Seat | None],
    seed: int,
    names: list[tuple[str, str]] | None = None,
    control: TimeControl = NO_CLOCK,
    replay_path: Path | None = None,
    strike_limit: int = DEFAULT_STRIKE_LIMIT,
    match_id: str | None = None,
    absent: dict[int, tuple[SeatStatus, str]] | None = None,
    untimed: frozenset[int] = frozenset(),
) -> MatchResult:
    """Play a whole match. A ``None`` seat never connected: give its status in ``absent``."""
    if len(seats) != rules.n:
        raise ArenaError(f"{rules.n} players need {rules.n} seats, got {len(seats)}")
    if strike_limit < 1:
        raise ArenaError(f"the strike limit must be at least 1, got {strike_limit}")
    names = names or [(s.name, s.version) if s else ("?", "?") for s in seats]
    runner = MatchRunner(
        rules,
        seats,
        seed,
        names,
        control,
        replay_path,
        strike_limit,
        match_id or uuid.uuid4().hex[:12],
        absent or {},
        untimed,
    )
    return await runner.run()


def play_match(
    rules: ClassicRules,
    bots: list[Bot],
    seed: int,
    names: list[tuple[str, str]] | None = None,
    replay_path: Path | None = None,
    strike_limit: int = DEFAULT_STRIKE_LIMIT,
    control: TimeControl = NO_CLOCK,
) -> MatchResult:
    """Play a match with in-process bots (the fast path), synchronously."""
    names = names or [(b.name, b.version) for b in bots]
    seats: list[Seat | None] = [
        InProcessSeat(bot, n, v) for bot, (n, v) in zip(bots, names, strict=True)
    ]
    return asyncio.run(run_match(rules, seats, seed, names, control, replay_path, strike_limit))
