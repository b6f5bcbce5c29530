"""Seats: how the referee asks a bot for a decision, in-process or over a gRPC stream.

Both take the match loop's own messages (:mod:`arena.referee.messages`) and carry them their
own way: a remote seat encodes protobuf; an in-process seat builds the very request the SDK
would decode, without protobuf (the fast path, proven equal to the wire's by a test), or,
with ``over_wire``, through a protobuf round trip. Either way the answer comes back as the
game reads it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from arena.errors import ArenaError
from arena.games.api import Game
from arena.protocol import envelope
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.referee.messages import Ask, End, Reply, Result, Start
from arena.referee.server import Closed, Session
from arena.sandbox.launcher import BotProcess, cpu_seconds
from arena.sdk import wire
from arena.sdk.bot import Bot, MatchInfo, Request

log = logging.getLogger(__name__)

MAX_MESSAGES_PER_REQUEST = 200
"""Messages a bot may send while one request is open before it counts as a flood."""
DEBUG_TEXT_CAP = 4096
EXIT_WAIT = 5.0
"""Seconds to wait, when a stream ends, for the bot process to exit: an exit makes it a crash
(or a clean disconnect with code 0), a process still running after this a disconnect. Generous
so that a crash is still told from a disconnect on a loaded machine; it costs this much only
once, when a bot that closed its stream but kept running forfeits."""


def seats_cpu_seconds(seats: Sequence[object]) -> list[float | None]:
    """CPU seconds each seat's bot process has used so far (sampled at a match's start and
    end: the difference is the match's). None for a seat with no process of its own: an
    in-process bot (its CPU is the worker's, not told apart), a remote bot that dialled in,
    an absent seat."""
    return cpu_seconds([s.process if isinstance(s, RemoteSeat) else None for s in seats])


def read_answer(
    game: Game[Any, Any, Any],
    read: Callable[[Game[Any, Any, Any], Any], Any],
    raw: Any,
    elapsed: float,
    debug: list[str],
) -> Reply:
    """A reply holding ``raw`` as the game reads it (``read(game, raw)``: an option index or
    the game's action), or why it reads as no answer: the rejection's reason."""
    try:
        answer = read(game, raw)
    except ArenaError as exc:
        return Reply(elapsed=elapsed, unreadable=str(exc), debug=debug)
    except Exception as exc:  # the game's code failed on it: still this seat's bad answer
        log.warning("an answer could not be read: %r (answer %r)", exc, raw)
        reason = f"malformed answer: {type(exc).__name__}: {exc}"
        return Reply(elapsed=elapsed, unreadable=reason, debug=debug)
    return Reply(answer=answer, elapsed=elapsed, debug=debug)


def start_to_pb(start: Start) -> pb.MatchStart:
    """The MatchStart a seat is sent."""
    return envelope.match_start_to_pb(
        start.game,
        match_id=start.match_id,
        seat=start.seat,
        names=start.names,
        bot_seed=start.bot_seed,
        move_time_ms=start.move_time_ms,
        time_bank_ms=start.time_bank_ms,
    )


def ask_to_pb(ask: Ask) -> pb.DecisionRequest:
    """The DecisionRequest a seat is sent (stamped with the referee's time of sending)."""
    return envelope.request_to_pb(
        ask.game,
        request_id=ask.request_id,
        match_id=ask.match_id,
        kind=ask.kind,
        view=ask.view,
        options=ask.options,
        deadline_ms=ask.deadline_ms,
        time_bank_ms=ask.time_bank_ms,
        server_time_ms=int(time.time() * 1000),
        events=ask.events,
        listed=ask.listed,  # kept by the ask: an answer by index picks from the same list
    )


def result_to_pb(result: Result) -> pb.ActionResult:
    return pb.ActionResult(
        request_id=result.request_id,
        accepted=result.accepted,
        reason=result.reason,
        strikes=result.strikes,
    )


def end_to_pb(end: End) -> pb.MatchEnd:
    return envelope.match_end_to_pb(end.match_id, end.lines, end.end_reason, end.winner)


def _round_trip(message: Any) -> Any:
    """``message`` serialised and parsed back: exactly what the other end of a stream gets."""
    return type(message).FromString(message.SerializeToString())


class InProcessSeat:
    """A Python :class:`Bot` called directly. It receives what a remote bot receives: built
    without protobuf by default, or through a protobuf round trip with ``over_wire`` (what
    ``arena check-bot`` uses, and what the tests compare the fast path with)."""

    wants_accepted = False
    """An in-process bot is told nothing of an accepted answer (a rejection it is told)."""
    over_wire = False
    """Whether requests and answers go through protobuf (the default for every seat made
    without the ``over_wire`` argument)."""

    def __init__(self, bot: Bot, name: str, version: str, *, over_wire: bool | None = None):
        self.bot = bot
        self.name = name
        self.version = version
        if over_wire is not None:
            self.over_wire = over_wire
        self.hello = wire.hello(bot)
        """The Hello the bot would send over gRPC: its games and declarations come from it."""
        self.games = tuple(self.hello.games)
        self._game: Game[Any, Any, Any] | None = None
        self._request: Request | None = None
        self._spent = 0.0
        self._match: MatchInfo | None = None
        """The current match (from its MatchStart), as a remote SDK keeps it."""

    def declarations(self, game: str) -> dict[str, Any]:
        """What the bot declares for ``game`` (read back from its Hello, as for a remote bot)."""
        return envelope.declarations_from_hello(game, self.hello)

    async def start(self, start: Start) -> str | None:
        """Deliver MatchStart; returns a fault detail if the bot raised."""
        self._game = start.game
        try:
            self._match = wire.match_info(_round_trip(start_to_pb(start)))
            self.bot.start(self._match)
        except Exception as exc:
            return f"start raised {exc!r}"
        return None

    async def ask(self, ask: Ask, timeout: float | None) -> Reply:
        self._spent = 0.0
        if self.over_wire:
            self._request = wire.request(_round_trip(ask_to_pb(ask)), self._match)
        else:  # the same request, handed over without protobuf
            fields = envelope.local_request_fields(
                ask.game,
                seat=ask.seat,
                request_id=ask.request_id,
                kind=ask.kind,
                view=ask.view,
                options=ask.options,
                listed=ask.listed,
                deadline_ms=ask.deadline_ms,
                time_bank_ms=ask.time_bank_ms,
                events=ask.events,
            )
            self._request = Request(**fields)
        return self._call()

    async def retry(self, result: Result, timeout: float | None) -> Reply:
        """After a rejection, ask the bot again (it is told why through ``rejected``)."""
        try:
            self.bot.rejected(result.reason)
        except Exception as exc:
            return Reply(fault="crash", detail=f"rejected() raised {exc!r}")
        return self._call()

    def _call(self) -> Reply:
        request, game = self._request, self._game
        assert request is not None and game is not None, "asked before the match started"
        started = time.perf_counter()
        try:
            answer = self.bot.choose(request)
        except Exception as exc:
            return Reply(
                elapsed=self._spent + time.perf_counter() - started,
                fault="crash",
                detail=f"choose raised {exc!r}",
            )
        # Time is cumulative over retries of one request, as for a remote bot.
        elapsed = self._spent = self._spent + time.perf_counter() - started
        debug = self.bot.take_debug()
        if not self.over_wire:
            return read_answer(game, envelope.local_answer, answer, elapsed, debug)
        try:
            message = envelope.answer_to_pb(request.game, request.request_id, answer)
        except (ArenaError, TypeError, ValueError, AttributeError) as exc:
            return Reply(
                elapsed=elapsed, illegal=f"malformed answer {answer!r}: {exc}", debug=debug
            )
        return read_answer(game, envelope.answer_from_pb, _round_trip(message), elapsed, debug)

    def accepted(self, result: Result) -> None:
        if not result.accepted:  # the rejection that forfeits the seat: no retry follows
            try:
                self.bot.rejected(result.reason)
            except Exception:  # the seat is out already; a failing callback changes nothing
                return

    async def drain(self) -> str | None:
        return None

    def stop_reading(self) -> None:
        return None

    async def end(self, end: End) -> None:
        try:
            self.bot.finish(envelope.match_end_to_dict(end_to_pb(end)))
        except Exception:  # the result is final; a failing clean-up changes nothing
            return

    async def close(self) -> None:
        return None


class RemoteSeat:
    """A bot process connected over a Play stream."""

    def __init__(self, session: Session, process: BotProcess | None, name: str) -> None:
        self.session = session
        self.process = process
        self.name = name or session.hello.bot_name
        self.version = session.hello.bot_version
        self.hello = session.hello
        self._skip_accepted = session.hello.skip_accepted_results
        self.wants_accepted = not self._skip_accepted
        """Whether an accepted answer gets its ActionResult (a v1 bot's does)."""
        # Request ids on the wire never repeat on one stream: a match numbers its requests
        # from 1, and this seat sends them shifted past every id an earlier match sent on
        # this stream (``_offset``). A late answer from an earlier match then has an id at
        # or below the offset and is ignored, never taken for an answer in this match.
        self._offset = 0
        self._highest = 0
        self._sent: set[int] = set()
        """Wire ids sent in this match (the match's own requests, so bounded by its length)."""
        self._current = -1
        self._game: Game[Any, Any, Any] | None = None
        self._match_start: pb.MatchStart | None = None
        """This match's MatchStart as sent (a lobby seat sends it again to a new stream)."""
        self._request: pb.DecisionRequest | None = None
        """The request last sent, with its id on the wire."""
        self._started = 0.0
        self._idle_debug: list[str] = []
        self.timed_out = False
        """Whether a request went unanswered past its time in this match: the process may
        still be busy with it (or be frozen), so it should not be handed another match as is."""

    @property
    def games(self) -> tuple[str, ...]:
        """The games its Hello lists (none: a bot of before games were declared)."""
        return tuple(self.hello.games)

    def declarations(self, game: str) -> dict[str, Any]:
        """What the bot declared for ``game`` in its Hello."""
        return envelope.declarations_from_hello(game, self.hello)

    async def start(self, start: Start) -> str | None:
        # Late messages from a previous match on this stream belong to that match (and what
        # came after it was over is read now: late answers have old ids and are ignored).
        self.session.inbox.discard()
        self.session.resume_reading()
        self._offset = self._highest
        self._sent.clear()
        self.timed_out = False
        self._game = start.game
        self._request = None
        self._match_start = start_to_pb(start)
        self.session.send(pb.RefereeMessage(match_start=self._match_start))
        return None

    def _wire_id(self, request_id: int) -> int:
        """The id on the wire of this match's request ``request_id``."""
        return self._offset + request_id

    def _was_sent(self, wire_id: int) -> bool:
        """Whether ``wire_id`` went to this seat: in an earlier match, or in this one."""
        return 0 < wire_id <= self._offset or wire_id in self._sent

    async def ask(self, ask: Ask, timeout: float | None) -> Reply:
        request = self._request = ask_to_pb(ask)
        wire_id = request.request_id = self._wire_id(ask.request_id)
        message = pb.RefereeMessage(decision=request)
        self._current = wire_id
        self._sent.add(wire_id)
        self._highest = max(self._highest, wire_id)
        self._started = time.perf_counter()
        self.session.send(message)
        return await self._wait(timeout)

    def _result(self, result: Result) -> pb.RefereeMessage:
        message = pb.RefereeMessage(action_result=result_to_pb(result))
        message.action_result.request_id = self._wire_id(result.request_id)
        return message

    async def retry(self, result: Result, timeout: float | None) -> Reply:
        self.session.send(self._result(result))
        return await self._wait(timeout)

    def accepted(self, result: Result) -> None:
        """Send the result, unless it is an acceptance and the bot's Hello said it needs none."""
        if result.accepted and self._skip_accepted:
            return
        self.session.send(self._result(result))

    async def _wait(self, timeout: float | None) -> Reply:
        debug, self._idle_debug = self._idle_debug, []
        count = 0
        deadline = None if timeout is None else self._started + timeout
        while True:
            remaining = None if deadline is None else deadline - time.perf_counter()
            if remaining is not None and remaining <= 0:
                self.timed_out = True
                return Reply(elapsed=time.perf_counter() - self._started, debug=debug)
            inbox = self.session.inbox
            message = inbox.get_nowait() if inbox.qsize() else await inbox.get(remaining)
            if message is None:  # nothing within the time left
                self.timed_out = True
                return Reply(elapsed=time.perf_counter() - self._started, debug=debug)
            elapsed = time.perf_counter() - self._started
            if isinstance(message, Closed):
                left = None if deadline is None else deadline - time.perf_counter()
                if await self._rejoined(message, left):
                    continue  # a remote bot dialled in again (or the clock is to run out)
                fault = await self._closed_fault(message)
                detail = message.detail
                if fault == "crash" and self.process is not None:
                    detail = f"the bot process exited with code {self.process.process.returncode}"
                return Reply(elapsed=elapsed, fault=fault, detail=detail, debug=debug)
            count += 1
            if count > MAX_MESSAGES_PER_REQUEST:
                return Reply(
                    elapsed=elapsed,
                    fault="protocol",
                    debug=debug,
                    detail=f"flood: more than {MAX_MESSAGES_PER_REQUEST} messages for one request",
                )
            kind = message.WhichOneof("message")
            if kind == "debug":
                debug.append(message.debug.text[:DEBUG_TEXT_CAP])
                continue
            if kind != "action":
                return Reply(
                    elapsed=elapsed,
                    fault="protocol",
                    debug=debug,
                    detail=f"unexpected {kind or 'empty'} message during a match",
                )
            rid = message.action.request_id
            if rid != self._current:
                if self._was_sent(rid):
                    continue  # a late answer to an older request, maybe of an earlier match
                return Reply(
                    elapsed=elapsed,
                    fault="protocol",
                    debug=debug,
                    detail=f"answer to request {rid}, which was never sent to this seat",
                )
            assert self._game is not None, "an answer before the match started"
            return read_answer(self._game, envelope.answer_from_pb, message.action, elapsed, debug)

    async def _rejoined(self, closed: Closed, left: float | None) -> bool:
        """Whether to keep waiting for the answer after the stream ended (``closed``) with
        ``left`` seconds on the clock: a remote bot may dial in again and get the request
        re-sent (:class:`arena.remote.lobby.LobbySeat`). A bot process started here cannot:
        its stream is its process's."""
        return False

    async def _closed_fault(self, closed: Closed) -> str:
        if closed.why == "protocol":
            return "protocol"
        if self.process is not None and await self.process.wait_exit(EXIT_WAIT):
            return "crash" if self.process.process.returncode != 0 else "disconnect"
        return "disconnect"

    async def drain(self) -> str | None:
        """Between requests: look at what the bot sent unasked; a fault detail if any.

        Debug text goes with the next request's reply (into the replay); late answers to
        earlier requests are ignored; more than ``MAX_MESSAGES_PER_REQUEST`` is a flood.
        """
        count = 0
        while not self.session.inbox.empty():
            message = self.session.inbox.get_nowait()
            if isinstance(message, Closed):
                self.session.inbox.put_nowait(message)
                return None
            count += 1
            if count > MAX_MESSAGES_PER_REQUEST:
                return (
                    f"flood: more than {MAX_MESSAGES_PER_REQUEST} messages while no decision "
                    "was asked of this seat"
                )
            kind = message.WhichOneof("message")
            if kind == "debug":
                self._idle_debug.append(message.debug.text[:DEBUG_TEXT_CAP])
                continue
            if kind == "action" and self._was_sent(message.action.request_id):
                continue
            return f"{kind or 'empty'} message sent while no decision was asked of this seat"
        return None

    async def end(self, end: End) -> None:
        self.session.send(pb.RefereeMessage(match_end=end_to_pb(end)))

    def stop_reading(self) -> None:
        """The match needs nothing more from this seat: read nothing more until the next
        MatchStart (see :meth:`Session.stop_reading`)."""
        self.session.stop_reading()

    async def close(self) -> None:
        self.session.finish()
