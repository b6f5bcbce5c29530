"""A fuzzer against the referee: hypothesis drives a client that sends a real server malformed,
out-of-order, oversized, duplicated and random messages and handshakes while a match runs.

Each example starts a server (:func:`start_server` with its :class:`Registry`), plays a short
match between a fuzzed remote seat and the bundled random bot in-process, and meanwhile lets
side connections attack the same socket: raw bytes that are not HTTP/2, streams of bytes that
are no protobuf, Hellos with wrong tokens, a stolen (already claimed) token, a wrong protocol
version, a Hello twice, streams that say nothing. The fuzzed seat's own messages are drawn
from answers to requests never sent, wrong request ids, duplicates, a second Hello, empty
messages, actions of the other game, unparsable JSON, huge repeated fields, oversized and
random bytes, silence, and now and then a right answer.

Whatever it sends, the referee must not crash or log a traceback (logging and the process's
stderr are captured), the match must end with a recorded status for every seat, and the
in-process seat must finish OK. A short run is in the default suite; ``-m slow`` runs long.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.catalog import load_bot, read_spec
from arena.games import load as load_game
from arena.protocol._pb.riskarena.classic.v1 import classic_pb2 as cpb
from arena.protocol._pb.riskarena.europe.v1 import europe_pb2 as epb
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.protocol.envelope import PROTOCOL_VERSION
from arena.referee.match import MatchSettings, TimeControl, run_match
from arena.referee.seats import InProcessSeat, RemoteSeat
from arena.referee.server import Registry, start_server
from arena.statuses import SeatStatus
from tests.referee import REPO, STATUSES

PLAY = "/riskarena.v1.Referee/Play"
HELLO_TIMEOUT = 3.0
"""The fuzzed servers' hello timeout: long enough for a loaded machine to send a Hello at
once, short enough that silent side streams end within an example."""
BOUND = 120.0
"""Seconds any one wait of an example may take (a loaded machine)."""
CONTROL = TimeControl(move_time=0.3, time_bank=0.3, startup_time=BOUND)
"""Short clocks: a silent fuzzed seat times out quickly."""
MIB = 1 << 20

# ------------------------------------------------------------------ what is sent


@dataclass(frozen=True)
class Raw:
    """Bytes sent as one gRPC message, whatever they parse as."""

    data: bytes


def _hello(token: str, **fields: Any) -> pb.BotMessage:
    fields = {
        "protocol_version": PROTOCOL_VERSION,
        "bot_name": "fuzz",
        "bot_version": "0",
        **fields,
    }
    return pb.BotMessage(hello=pb.Hello(token=token, **fields))


def _parsed(kind: Any, data: bytes) -> Any:
    """``data`` parsed as a ``kind`` message, or an empty one where it does not parse."""
    try:
        return kind.FromString(data)
    except Exception:  # protobuf's DecodeError, or worse: only a message is wanted here
        return kind()


def odd_hello(token: str, noise: list[bytes]) -> pb.BotMessage:
    """A Hello with the right token and odd declarations: games listed from noise, each
    game's own Hello parsed from random bytes, a name of control characters."""
    games = [n.decode("latin-1") for n in noise[1:]] + (["classic", "europe"] if noise[0] else [])
    return _hello(
        token,
        bot_name=noise[0].decode("latin-1"),
        games=games,
        always_max_defence=len(noise) % 2 == 0,
        classic=_parsed(cpb.ClassicHello, noise[-1]),
        europe=_parsed(epb.EuropeHello, noise[0]),
        skip_accepted_results=len(noise) > 2,
    )


def _classic(**fields: Any) -> cpb.ClassicAction:
    return cpb.ClassicAction(**fields)


REPLIES = st.sampled_from(
    [
        "answer",  # option 0 of the current request: a right answer
        "answer",
        "duplicate",  # the right answer twice
        "unsent",  # an answer to a request never sent
        "zero_id",
        "huge_id",
        "stale",  # an answer to an earlier request
        "hello",  # a second Hello
        "empty",  # a BotMessage with nothing set
        "no_answer",  # an Action with the request id and no answer
        "huge_index",
        "other_game",  # an action of the game not being played
        "bad_json",
        "json_types",
        "huge_repeated",
        "unknown_kind",
        "debug",
        "oversized",  # a debug text over 1 MiB
        "random_bytes",
        "truncated",  # a right answer cut short
        "silence",  # no answer at all: a timeout
        "half_close",
    ]
)


def reply_messages(
    what: str, rid: int, earlier: int, game: str, noise: bytes, token: str
) -> list[pb.BotMessage | Raw | None]:
    """The messages the fuzzed seat sends for ``what`` (None: it closes its side)."""
    right = pb.BotMessage(action=pb.Action(request_id=rid, option_index=0))
    other = "europe" if game == "classic" else "classic"
    messages: dict[str, Callable[[], list[pb.BotMessage | Raw | None]]] = {
        "answer": lambda: [right],
        "duplicate": lambda: [right, right],
        "unsent": lambda: [pb.BotMessage(action=pb.Action(request_id=rid + 1000, option_index=0))],
        "zero_id": lambda: [pb.BotMessage(action=pb.Action(request_id=0, option_index=0))],
        "huge_id": lambda: [pb.BotMessage(action=pb.Action(request_id=2**64 - 1, option_index=0))],
        "stale": lambda: [pb.BotMessage(action=pb.Action(request_id=earlier, option_index=0))],
        "hello": lambda: [_hello(token)],
        "empty": lambda: [pb.BotMessage()],
        "no_answer": lambda: [pb.BotMessage(action=pb.Action(request_id=rid))],
        "huge_index": lambda: [
            pb.BotMessage(action=pb.Action(request_id=rid, option_index=2**32 - 1))
        ],
        "other_game": lambda: [
            pb.BotMessage(
                action=pb.Action(request_id=rid, europe=epb.EuropeAction(kind="bid", bids=[1]))
                if other == "europe"
                else pb.Action(request_id=rid, classic=_classic(kind="claim", territory=3))
            )
        ],
        "bad_json": lambda: [
            pb.BotMessage(action=pb.Action(request_id=rid, action_json=noise.hex()))
        ],
        "json_types": lambda: [
            pb.BotMessage(
                action=pb.Action(
                    request_id=rid,
                    action_json='{"kind": ["x"], "territory": {}, "cards": "abc", "bids": null}',
                )
            )
        ],
        "huge_repeated": lambda: [
            pb.BotMessage(
                action=pb.Action(
                    request_id=rid,
                    classic=_classic(
                        kind="reinforce",
                        placements=[
                            cpb.Placement(territory=i % 50, armies=1) for i in range(50_000)
                        ],
                        cards=list(range(10_000)),
                    ),
                )
            )
            if game == "classic"
            else pb.BotMessage(
                action=pb.Action(
                    request_id=rid, europe=epb.EuropeAction(kind="bid", bids=list(range(100_000)))
                )
            )
        ],
        "unknown_kind": lambda: [
            pb.BotMessage(
                action=pb.Action(request_id=rid, classic=_classic(kind=noise.hex() or "x"))
                if game == "classic"
                else pb.Action(request_id=rid, europe=epb.EuropeAction(kind=noise.hex() or "x"))
            )
        ],
        "debug": lambda: [pb.BotMessage(debug=pb.DebugText(text=noise.decode("latin-1"))), right],
        "oversized": lambda: [pb.BotMessage(debug=pb.DebugText(text="x" * (MIB + 10)))],
        "random_bytes": lambda: [Raw(noise)],
        "truncated": lambda: [Raw(right.SerializeToString()[:-1])],
        "silence": lambda: [],
        "half_close": lambda: [None],
    }
    return messages[what]()  # built only when drawn: some are large


SIDE_ATTACKS = st.sampled_from(
    [
        "raw_socket",  # bytes that are not HTTP/2
        "preface_then_junk",  # the HTTP/2 preface, then garbage frames
        "random_first",  # a stream whose first message is random bytes
        "wrong_token",
        "stolen_token",  # the fuzzed seat's token, claimed already
        "wrong_version",
        "action_first",  # an Action before any Hello
        "hello_twice",  # a Hello with a wrong token, then another
        "silent_stream",  # a stream that never sends anything
        "half_closed",  # a stream closed at once
        "no_stream",  # a connection that never starts a stream
    ]
)


@dataclass(frozen=True)
class Example:
    """One fuzzing run: the game, how the seat shakes hands, its replies, side attacks."""

    game: str
    handshake: str
    replies: list[str]
    side: list[str]
    noise: list[bytes]
    seed: int


EXAMPLES = st.builds(
    Example,
    game=st.sampled_from(["classic", "europe"]),
    handshake=st.sampled_from(
        ["hello", "hello", "odd_hello", "junk_first", "wrong_token", "other_version", "nothing"]
    ),
    replies=st.lists(REPLIES, min_size=1, max_size=12),
    side=st.lists(SIDE_ATTACKS, max_size=4),
    noise=st.lists(st.binary(max_size=300), min_size=1, max_size=4),
    seed=st.integers(0, 2**31 - 1),
)


# ------------------------------------------------------------------- the clients


class Stream:
    """The client side of a Play stream that sends raw bytes."""

    def __init__(self, channel: grpc.aio.Channel) -> None:
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        method = channel.stream_stream(
            PLAY, request_serializer=lambda data: data, response_deserializer=lambda data: data
        )
        self.call = method(self._requests())

    async def _requests(self) -> AsyncIterator[bytes]:
        while (data := await self.queue.get()) is not None:
            yield data

    def send(self, message: pb.BotMessage | Raw | None) -> None:
        if message is None:
            self.queue.put_nowait(None)
        elif isinstance(message, Raw):
            self.queue.put_nowait(message.data)
        else:
            self.queue.put_nowait(message.SerializeToString())

    def close(self) -> None:
        """End this side and the call, so that no task of the client is left pending."""
        self.queue.put_nowait(None)
        self.call.cancel()

    async def read(self) -> pb.RefereeMessage | None:
        """The referee's next message; None once the stream is over (however it ended)."""
        try:
            data = await self.call.read()
        except grpc.aio.AioRpcError:
            return None
        if data is grpc.aio.EOF:
            return None
        return pb.RefereeMessage.FromString(data)


def _channel(target: str) -> grpc.aio.Channel:
    return grpc.aio.insecure_channel(
        target,
        options=[("grpc.max_send_message_length", -1), ("grpc.use_local_subchannel_pool", 1)],
    )


async def play_fuzzed(stream: Stream, example: Example, token: str) -> None:
    """Answer every request with the next drawn reply, until the referee ends the stream."""
    replies = iter(example.replies * 1000)
    earlier = 0
    noise = iter(example.noise * 100_000)
    while (message := await stream.read()) is not None:
        kind = message.WhichOneof("message")
        if kind == "decision" or (kind == "action_result" and not message.action_result.accepted):
            rid = (
                message.decision.request_id
                if kind == "decision"
                else message.action_result.request_id
            )
            what = next(replies)
            for out in reply_messages(what, rid, earlier, example.game, next(noise), token):
                stream.send(out)
            earlier = rid
        elif kind == "match_end":
            stream.send(None)


async def side_attack(what: str, target: str, token: str, noise: bytes) -> None:
    """One side connection's attack; it ends when the referee ends it (or is cancelled)."""
    path = target[len("unix:") :]
    if what in ("raw_socket", "preface_then_junk", "no_stream"):
        reader, writer = await asyncio.open_unix_connection(path)
        try:
            if what == "raw_socket":
                writer.write(noise or b"\x00")
            elif what == "preface_then_junk":
                writer.write(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + noise + b"\xff" * 9)
            await writer.drain()
            await reader.read()  # until the referee closes it
        except OSError:
            pass
        finally:
            writer.close()
        return
    async with _channel(target) as channel:
        stream = Stream(channel)
        first: list[pb.BotMessage | Raw | None] = {
            "random_first": [Raw(noise)],
            "wrong_token": [_hello("not-a-token")],
            "stolen_token": [_hello(token)],
            "wrong_version": [_hello("x", protocol_version=PROTOCOL_VERSION + 7)],
            "action_first": [pb.BotMessage(action=pb.Action(request_id=1, option_index=0))],
            "hello_twice": [_hello("a"), _hello("b")],
            "silent_stream": [],
            "half_closed": [None],
        }[what]
        for message in first:
            stream.send(message)
        try:
            while await stream.read() is not None:
                pass
        finally:
            stream.close()


async def fuzzed_match(tmp: Path, example: Example) -> Any:
    """Play one example's match; returns its result (None if the seat never connected)."""
    registry = Registry()
    server, target = await start_server(
        registry, f"unix:{tmp}/referee.sock", hello_timeout=HELLO_TIMEOUT
    )
    sides: list[asyncio.Task[None]] = []
    try:
        token = registry.issue("fuzzed seat")
        game = load_game(example.game).configure({"max_rounds": "2"}, 2)
        channel = _channel(target)
        stream = Stream(channel)
        handshake: list[pb.BotMessage | Raw | None] = {
            "hello": [_hello(token)],
            "odd_hello": [odd_hello(token, example.noise)],
            "junk_first": [Raw(example.noise[0] + b"\xff"), _hello(token)],
            "wrong_token": [_hello(token + "x")],
            "other_version": [_hello(token, protocol_version=PROTOCOL_VERSION + 1)],
            "nothing": [None],
        }[example.handshake]
        for message in handshake:
            stream.send(message)
        if example.handshake in ("hello", "odd_hello"):
            session = await registry.wait(token, BOUND)
            assert session is not None, "a right Hello is always taken"
        else:  # refused: the stream ends with an error status, and no session is made
            while await asyncio.wait_for(stream.read(), BOUND) is not None:
                pass
            session = await registry.wait(token, 0)
            assert session is None, f"a {example.handshake} handshake was taken"
        # Side attacks once the seat's handshake is settled (so that a stolen token comes
        # second, as it would from another process), and all through its match.
        sides = [
            asyncio.create_task(side_attack(what, target, token, noise))
            for what, noise in zip(example.side, example.noise * 4, strict=False)
        ]
        bot = load_bot(read_spec(REPO / "bots" / "random"))
        seats: list[Any] = [
            None if session is None else RemoteSeat(session, None, "fuzz"),
            InProcessSeat(bot, "random", "1.0"),
        ]
        absent = {} if session is not None else {0: (SeatStatus.INIT_FAIL, "refused handshake")}
        client = asyncio.create_task(play_fuzzed(stream, example, token))
        try:
            result = await asyncio.wait_for(
                run_match(
                    game, seats, example.seed, settings=MatchSettings(CONTROL), absent=absent
                ),
                BOUND,
            )
        finally:
            if isinstance(seats[0], RemoteSeat):
                await seats[0].close()
            await asyncio.wait_for(client, BOUND)
            stream.close()
            await channel.close()
        return result
    finally:
        for task in sides:
            task.cancel()
        await asyncio.gather(*sides, return_exceptions=True)
        await server.stop(0)


# ------------------------------------------------------------------- the checks


class Tracebacks(logging.Handler):
    """Every log record that carries an exception (a traceback), or says Traceback."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.found: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info or "Traceback" in text or record.levelno >= logging.ERROR:
            self.found.append(f"{record.name}: {text}")


@pytest.fixture(scope="module")
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """One event loop for every example, as a referee has one: grpc's completion queue keeps
    to the loop it started on, and reports a closed one when a later example runs on another."""
    running = asyncio.new_event_loop()
    yield running
    # As asyncio.run ends: what grpc still has pending (tasks of RPCs the last server's stop
    # cancelled) finishes its cancellation before the loop closes.
    running.run_until_complete(_finish_pending())
    running.run_until_complete(running.shutdown_asyncgens())
    running.close()


async def _finish_pending() -> None:
    """Cancel every other task of the running loop and wait until each has ended."""
    pending = asyncio.all_tasks() - {asyncio.current_task()}
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


def check_example(
    tmp: Path,
    example: Example,
    capfd: pytest.CaptureFixture[str],
    loop: asyncio.AbstractEventLoop,
) -> None:
    handler = Tracebacks()
    root = logging.getLogger()
    root.addHandler(handler)
    capfd.readouterr()
    try:
        result = loop.run_until_complete(fuzzed_match(tmp, example))
    finally:
        root.removeHandler(handler)
        (tmp / "referee.sock").unlink(missing_ok=True)
    err = capfd.readouterr().err
    assert not handler.found, handler.found
    assert "Traceback" not in err, err
    statuses = [s.status for s in result.seats]
    assert len(statuses) == 2 and set(statuses) <= set(STATUSES), statuses
    assert statuses[1] == "OK", result.to_dict()
    if example.handshake not in ("hello", "odd_hello"):
        assert statuses[0] == "INIT_FAIL"


FUZZ_SETTINGS = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    "derandomize": True,  # the same examples in every run of the suite
}


@settings(max_examples=30, **FUZZ_SETTINGS)
@given(example=EXAMPLES)
def test_the_referee_survives_fuzzed_clients(tmp_path, capfd, loop, example):
    check_example(tmp_path, example, capfd, loop)


@pytest.mark.slow
@settings(max_examples=600, **{**FUZZ_SETTINGS, "derandomize": False})
@given(example=EXAMPLES)
def test_the_referee_survives_fuzzed_clients_long(tmp_path, capfd, loop, example):
    check_example(tmp_path, example, capfd, loop)


def test_raw_bytes_on_the_socket_leave_the_server_serving(tmp_path):
    """Not a gRPC client at all: whatever bytes come, the next real client is served."""

    async def main() -> None:
        registry = Registry()
        server, target = await start_server(registry, f"unix:{tmp_path}/referee.sock", 3.0)
        try:
            for noise in (b"", b"\x00" * 100, b"GET / HTTP/1.1\r\n\r\n", bytes(range(256)) * 8):
                sock = socket.socket(socket.AF_UNIX)
                sock.connect(target[len("unix:") :])
                sock.sendall(noise)
                sock.close()
            token = registry.issue("seat")
            async with _channel(target) as channel:
                stream = Stream(channel)
                stream.send(_hello(token))
                welcome = await asyncio.wait_for(stream.read(), BOUND)
                assert welcome is not None and welcome.HasField("welcome")
                stream.send(None)
        finally:
            await server.stop(0)

    asyncio.run(main())
