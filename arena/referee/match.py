"""Run one match: ask the engine who decides, ask those seats, check, apply, record.

The referee is the only authority. Clocks are measured here: each decision allows the move
time plus what is left of the seat's bank; time past the move time is taken from the bank,
and only when both are spent is it a TIMEOUT strike (the engine's documented default action
is applied). An illegal answer is rejected with the engine's reason and is a strike; the bot
may retry before its deadline. At the strike limit, or on a crash, a disconnect or a
protocol fault, the seat forfeits and the match goes on without it.

Game-neutral: everything about the game goes through :class:`~arena.games.api.Game`. The
seats a decision names are asked in parallel; a simultaneous decision's answers are each
checked against the same state and handed to the game together (:meth:`Game.apply_joint`),
recorded as one ``joint`` replay record; a seat that times out or forfeits meanwhile is
given the game's default action in it, so the game always gets an answer from every seat.
"""

from __future__ import annotations

import asyncio
import logging
import statistics
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from arena.errors import ArenaError, IllegalActionError
from arena.games.api import Decision, Game
from arena.keys import bot_seed
from arena.referee.messages import Ask, End, Reply, Result, Start
from arena.referee.seats import InProcessSeat, seats_cpu_seconds
from arena.replays.files import ReplayWriter
from arena.replays.records import Answer, DecisionRecord, Record, ReplayHeader, ResultRecord
from arena.sandbox.cpu_time import used_between
from arena.sdk.bot import Bot
from arena.statuses import SeatStatus

log = logging.getLogger(__name__)

DEFAULT_STRIKE_LIMIT = 3
FAULT_STATUS = {
    "crash": SeatStatus.CRASH,
    "disconnect": SeatStatus.DISCONNECT,
    "protocol": SeatStatus.PROTOCOL,
}
"""The seat status of each :class:`~arena.referee.seats.Reply` fault (a seat that never
connects is INIT_FAIL through ``absent``, not through a reply)."""
LEGACY_ALWAYS_MAX = "always_max_defence"
"""A declaration whose per-seat flags replay headers also keep under ``always_max``, the key
classic replays had before declarations were per game."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    """Clocks for a match, in seconds. ``move_time=None`` plays without clocks."""

    move_time: float | None = 1.0
    time_bank: float = 30.0
    startup_time: float = 10.0


NO_CLOCK = TimeControl(move_time=None, time_bank=0.0)


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """How a match is refereed, apart from its game, seats and seed: the clocks, the strikes a
    seat may take, where its replay goes, its id (made up when None), and the seats that play
    without a clock (a person at the terminal)."""

    control: TimeControl = NO_CLOCK
    strike_limit: int = DEFAULT_STRIKE_LIMIT
    replay_path: Path | None = None
    match_id: str | None = None
    untimed: frozenset[int] = frozenset()


class Seat(Protocol):
    """What the match loop needs of a seat (see :mod:`arena.referee.seats`): it is handed the
    loop's own messages (:mod:`arena.referee.messages`) and answers in the game's terms."""

    name: str
    version: str
    wants_accepted: bool
    """Whether an accepted answer is followed by a :class:`Result` for this seat."""

    @property
    def games(self) -> tuple[str, ...]:
        """The games the bot says it plays (none: it plays what its bot.toml was checked for)."""
        ...

    def declarations(self, game: str) -> dict[str, Any]:
        """What the bot declares for ``game`` before a match (from its Hello)."""
        ...

    async def start(self, start: Start) -> str | None:
        """Begin the match for this seat; a fault detail if the bot failed at it."""
        ...

    async def ask(self, ask: Ask, timeout: float | None) -> Reply: ...
    async def retry(self, result: Result, timeout: float | None) -> Reply:
        """Tell the seat its answer was rejected and wait for another, on the same clock."""
        ...

    def accepted(self, result: Result) -> None:
        """Deliver a result that asks for nothing back: an accepted answer, or the rejection
        that ends the seat's match."""
        ...

    async def drain(self) -> str | None:
        """Between requests: a fault detail if the bot sent what no one asked for."""
        ...

    async def end(self, end: End) -> None: ...
    def stop_reading(self) -> None:
        """Nothing the seat sends matters any more in this match (it forfeited, or the match
        is over): a remote seat's stream is no longer read, so it costs nothing."""
        ...


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
    cpu_s: float | None = None
    """CPU seconds its bot process (tree) used during the match, from the kernel; None for
    an in-process bot or one whose process was gone by the end."""

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
            "cpu_s": self.cpu_s,
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
    progress: dict[str, int]
    """The game's counters of how far it went (:meth:`Game.progress`; classic: turns, rounds)."""
    end_reason: str
    """How the match ended (the game's word: ``domination``, ``round_limit``, …)."""
    decisions: int
    replay: str | None
    final: Any
    """The final state (the game's own object)."""
    standings: list[dict[str, int]] = field(default_factory=list)
    """Per-seat figures at the end (:meth:`Game.standings`)."""
    out_order: tuple[int, ...] = ()
    """Seats in the order they left the game (eliminated or forfeited, earliest first): every
    forfeited seat is in it, also one that forfeited after the game was already over."""

    @property
    def turns(self) -> int:
        return self.progress.get("turns", 0)

    @property
    def rounds(self) -> int:
        return self.progress.get("rounds", 0)

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
            "progress": self.progress,
            "end": self.end_reason,
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

    action: Any = None
    forfeit: SeatStatus | None = None
    detail: str = ""
    checked: bool = False
    """Whether ``action`` was checked (or taken from the game's own choices): it is then
    applied in place without a second check or copy."""


class MatchRunner:
    """Runs one match over seats of any kind. Use :func:`run_match`."""

    def __init__(
        self,
        game: Game[Any, Any, Any],
        seats: list[Seat | None],
        seed: int,
        names: list[tuple[str, str]],
        settings: MatchSettings,
        absent: dict[int, tuple[SeatStatus, str]],
    ) -> None:
        self.game = game
        self.seats = seats
        self.seed = seed
        self.control = control = settings.control
        self.strike_limit = settings.strike_limit
        self.match_id = settings.match_id or uuid.uuid4().hex[:12]
        self.absent = dict(absent)
        untimed = settings.untimed
        self.results = [SeatResult(i, n, v) for i, (n, v) in enumerate(names)]
        self.clocks = [_Clock(NO_CLOCK if i in untimed else control) for i in range(len(seats))]
        self.pending_events: list[list[dict[str, Any]]] = [[] for _ in seats]
        self.next_request = 1
        self.decisions = 0
        self.last_request: dict[int, int] = {}
        self.last_think: dict[int, float] = {}
        self.out: list[int] = []
        """Seats that forfeited, in forfeit order (also after the game was already over,
        e.g. both seats of a 2-player match absent: the first forfeit ends it)."""
        self.replay_path = settings.replay_path
        self.writer: ReplayWriter | None = None
        name = game.info.name
        for seat, handle in enumerate(seats):
            # A Hello that lists games is held to them; one that lists none (every bot of
            # before games were declared) plays what its bot.toml was checked for.
            if handle is not None and handle.games and name not in handle.games:
                listed = ", ".join(handle.games)
                self.absent.setdefault(
                    seat,
                    (SeatStatus.INIT_FAIL, f"its Hello lists the games {listed}, not {name}"),
                )
        self.declarations = [
            handle.declarations(name) if handle is not None and seat not in self.absent else {}
            for seat, handle in enumerate(seats)
        ]
        self.state: Any = None
        self.pending: Decision | None = None
        """The decision due in ``state`` (None once the game is over)."""
        self._set_state(game.new_game(seed, self.declarations))

    def record(self, entry: Record) -> None:
        if self.writer is not None:
            self.writer.write(entry)

    def _share(self, events: list[dict[str, Any]]) -> None:
        """Queue each event, as that seat may see it, for every seat still to be asked."""
        if not events:
            return
        redact, out = self.game.redact, self.out
        for seat, queue in enumerate(self.pending_events):
            if seat not in out:
                queue.extend([redact(e, seat) for e in events])

    def _set_state(self, state: Any) -> None:
        self.state = state
        self.pending = self.game.decision(state)

    def forfeit(self, seat: int, status: SeatStatus, detail: str) -> None:
        result = self.results[seat]
        if result.status == SeatStatus.OK.value:
            result.status = status.value
            result.detail = detail
        handle = self.seats[seat]
        if handle is not None:
            handle.stop_reading()
        if seat in self.out or seat in self.game.out_order(self.state):
            return
        self.out.append(seat)
        if self.pending is None:
            return  # the game takes no forfeit after its end; the seat still goes last
        step = self.game.forfeit(self.state, seat)
        self._set_state(step.state)
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

    def _header(self) -> ReplayHeader:
        header: ReplayHeader = {
            "game": self.game.info.name,
            "match_id": self.match_id,
            "seed": self.seed,
            "rules": self.game.config(),
            "seats": [{"seat": r.seat, "bot": r.bot, "version": r.version} for r in self.results],
            "declarations": self.declarations,
            "time_control": {
                "move_time": self.control.move_time,
                "time_bank": self.control.time_bank,
            },
            "strike_limit": self.strike_limit,
        }
        if LEGACY_ALWAYS_MAX in self.game.info.declarations:
            # The header key classic replays had before declarations were per game.
            header["always_max"] = [bool(d.get(LEGACY_ALWAYS_MAX)) for d in self.declarations]
        return header

    async def run(self) -> MatchResult:
        game = self.game
        if self.replay_path is not None:
            self.writer = ReplayWriter(self.replay_path, self._header())
        cpu_before = seats_cpu_seconds(self.seats)
        try:
            await self._start_seats()
            while self.pending is not None:
                await self._play(self.pending)
            outcome = game.outcome(self.state)
            assert outcome is not None
            for r in self.results:
                r.place = outcome.places[r.seat]
            progress = game.progress(self.state)
            last: ResultRecord = {
                "type": "result",
                "places_by_seat": list(outcome.places),
                "winner": outcome.winner,
                "end": outcome.end_reason,
                "progress": progress,
                "statuses": [r.status for r in self.results],
                "strikes": [r.strikes for r in self.results],
            }
            if "turns" in progress:
                last["turns"] = progress["turns"]
            if "rounds" in progress:
                last["rounds"] = progress["rounds"]
            self.record(last)
            await self._end_seats(outcome.end_reason, outcome.winner)
            cpu_after = seats_cpu_seconds(self.seats)
            for r, before, after in zip(self.results, cpu_before, cpu_after, strict=True):
                r.cpu_s = used_between(before, after)
        finally:
            if self.writer is not None:
                self.writer.close()
        gone = game.out_order(self.state)
        return MatchResult(
            game=game.info.name,
            match_id=self.match_id,
            seed=self.seed,
            rules=game.config(),
            seats=self.results,
            winner=outcome.winner,
            progress=progress,
            end_reason=outcome.end_reason,
            decisions=self.decisions,
            replay=str(self.replay_path) if self.replay_path else None,
            final=self.state,
            standings=game.standings(self.state),
            out_order=(*gone, *(s for s in self.out if s not in gone)),
        )

    async def _play(self, decision: Decision) -> None:
        """Ask the seat a decision names, or every seat of a simultaneous one at once, then
        apply what they answered."""
        if not decision.simultaneous:  # one seat (the contract): the short, common path
            seat = decision.seats[0]
            if self.seats[seat] is None or seat in self.out:
                verdict = _Verdict(action=self.game.default_action(self.state, seat))
            else:  # awaited directly: no task, no extra turn of the event loop
                verdict = await self._decide(seat, decision.kind)
            if verdict.forfeit is not None:
                self.forfeit(seat, verdict.forfeit, verdict.detail)
            else:
                self._apply(seat, decision.kind, verdict.action, verdict.checked)
            return
        asking = [s for s in decision.seats if self.seats[s] is not None and s not in self.out]
        answered = await asyncio.gather(*(self._decide(s, decision.kind) for s in asking))
        self._apply_joint(decision, dict(zip(asking, answered, strict=True)))

    async def _start_seats(self) -> None:
        names = [r.bot for r in self.results]
        move_ms = int((self.control.move_time or 0) * 1000)
        bank_ms = int(self.control.time_bank * 1000) if self.control.move_time else 0
        for seat, (status, detail) in sorted(self.absent.items()):
            self.forfeit(seat, status, detail)
        for seat, handle in enumerate(self.seats):
            if handle is None or seat in self.absent:
                continue
            start = Start(
                self.game,
                match_id=self.match_id,
                seat=seat,
                names=names,
                bot_seed=bot_seed(self.seed, seat),
                move_time_ms=move_ms,
                time_bank_ms=bank_ms,
            )
            fault = await handle.start(start)
            if fault is not None:
                self.forfeit(seat, SeatStatus.CRASH, fault)

    async def _end_seats(self, end_reason: str, winner: int | None) -> None:
        message = End(self.match_id, [r.to_dict() for r in self.results], end_reason, winner)
        for seat, handle in enumerate(self.seats):
            if handle is None or seat in self.absent:
                continue
            if self.results[seat].status not in ("CRASH", "DISCONNECT"):
                await handle.end(message)
            handle.stop_reading()

    def _answer_record(self, seat: int, action: Any) -> Answer:
        return {
            "seat": seat,
            "action": self.game.action_to_dict(action),
            "request_id": self.last_request.get(seat),
            "think_ms": self.last_think.get(seat),
        }

    def _apply(self, seat: int, kind: str, action: Any, checked: bool = False) -> None:
        if checked:  # the referee's own state: no copy needed, and no second check
            events = self.game.apply_unchecked(self.state, seat, action)
            self._set_state(self.state)
        else:
            step = self.game.apply(self.state, seat, action)
            events = step.events
            self._set_state(step.state)
        self.decisions += 1
        self._share(events)
        if self.writer is not None:  # (the record's action dict costs: only for a replay)
            record: DecisionRecord = {
                "type": "decision",
                "seat": seat,
                "action": self.game.action_to_dict(action),
                "request_id": self.last_request.get(seat),
                "think_ms": self.last_think.get(seat),
                "kind": kind,
                "events": events,
            }
            self.writer.write(record)

    def _apply_joint(self, decision: Decision, verdicts: dict[int, _Verdict]) -> None:
        """Hand the game every seat's answer at once (a default for a seat that has none),
        then take out the seats that forfeited while answering."""
        answers: dict[int, Any] = {}
        for seat in decision.seats:
            verdict = verdicts.get(seat)
            if verdict is not None and verdict.action is not None:
                answers[seat] = verdict.action
            else:
                answers[seat] = self.game.default_action(self.state, seat)
        step = self.game.apply_joint(self.state, answers)
        self._set_state(step.state)
        self.decisions += len(answers)
        self._share(step.events)
        self.record(
            {
                "type": "joint",
                "kind": decision.kind,
                "answers": [self._answer_record(seat, answers[seat]) for seat in decision.seats],
                "events": step.events,
            }
        )
        for seat, verdict in sorted(verdicts.items()):
            if verdict.forfeit is not None:
                self.forfeit(seat, verdict.forfeit, verdict.detail)

    async def _decide(self, seat: int, kind: str) -> _Verdict:
        handle = self.seats[seat]
        assert handle is not None
        self.last_request.pop(seat, None)
        self.last_think.pop(seat, None)
        unsolicited = await handle.drain()
        if unsolicited is not None:
            return _Verdict(forfeit=SeatStatus.PROTOCOL, detail=unsolicited)
        game, state, clock, result = self.game, self.state, self.clocks[seat], self.results[seat]
        options = game.legal_options(state, seat)
        allowance = clock.allowance()
        request_id = self.next_request
        self.next_request += 1
        events, self.pending_events[seat] = self.pending_events[seat], []
        self.last_request[seat] = request_id
        ask = Ask(
            game,
            self.match_id,
            seat,
            request_id,
            kind,
            game.view(state, seat),
            options,
            deadline_ms=0 if allowance is None else int(allowance * 1000),
            time_bank_ms=int(clock.bank * 1000) if clock.move is not None else 0,
            events=events,
        )
        reply = await handle.ask(ask, allowance)
        while True:
            for text in reply.debug:
                self.record({"type": "debug", "seat": seat, "request_id": request_id, "text": text})
            if reply.fault is not None:
                return _Verdict(forfeit=FAULT_STATUS[reply.fault], detail=reply.detail)
            late = allowance is not None and reply.elapsed > allowance
            if late or reply.silent:
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
                return _Verdict(action=game.default_action(state, seat))
            listed = ask.listed if isinstance(reply.answer, int) else None
            action, answer, reason = check_answer(game, state, seat, kind, reply, options, listed)
            if reason is None:
                clock.charge(reply.elapsed)
                result.think_ms.append(reply.elapsed * 1000)
                self.last_think[seat] = round(reply.elapsed * 1000, 3)
                if handle.wants_accepted:  # built only for a seat that is sent it
                    handle.accepted(Result(request_id, accepted=True, strikes=result.strikes))
                return _Verdict(action=action, checked=True)
            result.strikes += 1
            self.record(
                {
                    "type": "rejected",
                    "seat": seat,
                    "request_id": request_id,
                    "answer": _describe(game, answer),
                    "reason": reason,
                }
            )
            rejection = Result(request_id, accepted=False, reason=reason, strikes=result.strikes)
            if result.strikes >= self.strike_limit:
                handle.accepted(rejection)  # no retry, but every answer gets its result
                return _Verdict(
                    forfeit=SeatStatus.ILLEGAL,
                    detail=f"{result.strikes} strikes, the last: {reason}",
                )
            # A retry runs on the same clock: the seat's reply times are since the request.
            reply = await handle.retry(rejection, allowance)


def check_answer(
    game: Game[Any, Any, Any],
    state: Any,
    seat: int,
    kind: str,
    reply: Reply,
    options: Any,
    listed: list[Any] | None = None,
) -> tuple[Any, Any, str | None]:
    """The reply's action if legal (and the answer as read), else the reason it is rejected.
    An index picks from the game's own choices (``listed``, computed if not given), legal by
    construction: only other answers are checked."""
    reason = reply.illegal if reply.illegal is not None else reply.unreadable
    if reason is not None:
        return None, None, reason
    answer = reply.answer
    try:
        if isinstance(answer, int):
            if listed is None:
                listed = list(game.choices(options))
            if not 0 <= answer < len(listed):
                raise IllegalActionError(
                    f"option index {answer} out of range: this {kind} decision has "
                    f"{len(listed)} options (0..{len(listed) - 1})",
                    answer,
                )
            return listed[answer], answer, None
        game.check(state, seat, answer)
    except ArenaError as exc:
        return None, answer, str(exc)
    except Exception as exc:  # the game's code failed on it: still this seat's bad answer
        log.warning("a %s answer could not be checked: %r (answer %r)", kind, exc, answer)
        return None, answer, f"malformed answer: {type(exc).__name__}: {exc}"
    return answer, answer, None


def _describe(game: Game[Any, Any, Any], answer: object) -> object:
    if isinstance(answer, int) or answer is None:
        return answer
    try:
        return game.action_to_dict(answer)
    except (ArenaError, KeyError, TypeError, AttributeError):
        return repr(answer)


async def run_match(
    game: Game[Any, Any, Any],
    seats: list[Seat | None],
    seed: int,
    names: list[tuple[str, str]] | None = None,
    settings: MatchSettings = MatchSettings(),
    absent: dict[int, tuple[SeatStatus, str]] | None = None,
) -> MatchResult:
    """Play a whole match. A ``None`` seat never connected: give its status in ``absent``."""
    if len(seats) != game.players:
        raise ArenaError(f"{game.players} players need {game.players} seats, got {len(seats)}")
    if settings.strike_limit < 1:
        raise ArenaError(f"the strike limit must be at least 1, got {settings.strike_limit}")
    names = names or [(s.name, s.version) if s else ("?", "?") for s in seats]
    return await MatchRunner(game, seats, seed, names, settings, absent or {}).run()


def play_match(
    game: Game[Any, Any, Any],
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
    settings = MatchSettings(control, strike_limit, replay_path)
    return asyncio.run(run_match(game, seats, seed, names, settings))
