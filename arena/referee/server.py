"""The gRPC side of the referee: the Play stream, handshakes and per-bot sessions.

The servicer only moves messages: every bot stream becomes a :class:`Session` with an inbox
and an outbox; the match loop (:mod:`arena.referee.match`) decides what they mean.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import sys
import traceback
import types
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

import grpc

from arena import __version__
from arena.errors import ArenaError
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.protocol._pb.riskarena.v1 import arena_pb2_grpc
from arena.protocol.envelope import PROTOCOL_VERSION
from arena.sandbox.resources import Throttle, short_of_descriptors

MAX_MESSAGE_BYTES = 1 << 20
"""Largest message a bot may send (1 MiB); a larger one ends its stream as a protocol fault."""
TRANSPORT_MAX_BYTES = 2 * MAX_MESSAGE_BYTES
"""Largest message gRPC reads at all (2 MiB). Over this gRPC cancels the stream itself and the
referee only sees it end, like a disconnect; between the two the referee reads the message and
calls it a protocol fault (gRPC's own limit cannot be told apart from the bot closing its
stream). Each stream may make the referee hold this much (several times over, as bytes and
parsed) while it reads one message: at 16 MiB, 32 streams sending at once took 2 GiB."""
MAX_HANDSHAKES = 8
"""Streams of one server that may wait for their Hello at once; more are refused at once
(RESOURCE_EXHAUSTED), before anything of theirs is read."""


MAX_QUEUED_BYTES = 4 * MAX_MESSAGE_BYTES
MAX_QUEUED_MESSAGES = 1000
"""What a seat may have sent and the referee not yet read, at any moment (4 MiB, 1,000
messages): past either its stream ends as a protocol fault, so a bot that keeps sending
between requests cannot make the referee hold more for it. Once its seat is out of the match
(or the match is over) the referee stops reading it at all (:meth:`Session.stop_reading`)."""

MAX_CONNECTIONS = 32
"""Connections one referee server accepts at once (gRPC closes any more as they come): an
honest bot needs one. Each bot process has a server of its own unless an address is shared."""
MAX_STREAMS = 32
"""Play streams one server runs at once (more are refused with RESOURCE_EXHAUSTED)."""
MAX_STREAMS_PER_CONNECTION = 4
"""Play streams at once on one connection (HTTP/2's concurrent streams setting)."""

T = TypeVar("T")


class _CancelledRpcFilter(logging.Filter):
    """Drops grpc's report of an RPC cancelled before its handler ever ran.

    grpc.aio cancels an RPC's task when its client (or the server's stop) cancels the call;
    if that lands before the task's first step, the cancellation escapes grpc's own handling
    and grpc logs it with a traceback ("Exception not handled by _handle_exceptions") and
    prints it to stderr. Nothing of the referee ran and nothing failed, and any client can
    provoke it at will: it must not read as a crash.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        return not _cancelled(record.exc_info[1] if record.exc_info else None)


def _cancelled(exc: BaseException | None) -> bool:
    return isinstance(exc, asyncio.CancelledError)


class _QuietTraceback(types.ModuleType):
    """grpc's ``traceback`` module, whose ``print_exc`` skips a cancellation (see above)."""

    def __getattr__(self, name: str) -> object:
        return getattr(traceback, name)

    def print_exc(self, *args: object, **kwargs: object) -> None:
        if not _cancelled(sys.exc_info()[1]):
            traceback.print_exc(*args, **kwargs)  # type: ignore[arg-type]


def _quiet_cancelled_rpcs() -> None:
    logging.getLogger("grpc._cython.cygrpc").addFilter(_CancelledRpcFilter())
    from grpc._cython import cygrpc  # type: ignore[attr-defined]

    if getattr(cygrpc, "traceback", None) is traceback:
        cygrpc.traceback = _QuietTraceback("traceback")


_quiet_cancelled_rpcs()

UNREADABLE_FIRST = "the first message must be Hello; it could not be read as a BotMessage"
"""The detail of the INVALID_ARGUMENT status that ends a stream whose first bytes do not parse."""


@dataclass(slots=True)
class Closed:
    """Put in a session's inbox when its stream ends; ``why`` is disconnect or protocol."""

    why: str
    detail: str


class Mailbox(Generic[T]):
    """A queue with one reader, which may wait with a time limit.

    Lighter than ``asyncio.wait_for(queue.get(), t)``, which starts a task for every
    message: a waiting reader parks on one future, woken by the next put or by a timer.
    """

    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def get_nowait(self) -> T:
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    def qsize(self) -> int:
        return len(self._items)

    def empty(self) -> bool:
        return not self._items

    async def get(self, timeout: float | None = None) -> T | None:
        """The next item; None if none came within ``timeout`` seconds (None: no limit)."""
        if not self._items:
            loop = asyncio.get_running_loop()
            deadline = None if timeout is None else loop.time() + timeout
            while not self._items:
                if deadline is not None and loop.time() >= deadline:
                    return None
                waiter = self._waiter = loop.create_future()
                timer = None if deadline is None else loop.call_at(deadline, _wake, waiter)
                try:
                    await waiter
                finally:
                    self._waiter = None
                    if timer is not None:
                        timer.cancel()
        return self._items.popleft()


class Inbox(Mailbox[pb.BotMessage | Closed]):
    """A seat's inbox: a mailbox that counts the messages and bytes queued in it unread."""

    def __init__(self) -> None:
        super().__init__()
        self._sizes: deque[int] = deque()
        self.queued_bytes = 0

    def put_nowait(self, item: pb.BotMessage | Closed, size: int = 0) -> None:
        self._sizes.append(size)
        self.queued_bytes += size
        super().put_nowait(item)

    def _taken(self) -> None:
        self.queued_bytes -= self._sizes.popleft()

    def get_nowait(self) -> pb.BotMessage | Closed:
        item = super().get_nowait()
        self._taken()
        return item

    async def get(self, timeout: float | None = None) -> pb.BotMessage | Closed | None:
        item = await super().get(timeout)
        if item is not None:
            self._taken()
        return item

    def discard(self) -> None:
        """Drop every message queued unread (an end of the stream stays)."""
        kept = [item for item in self._items if isinstance(item, Closed)]
        self._items.clear()
        self._items.extend(kept)
        self._sizes.clear()
        self._sizes.extend(0 for _ in kept)
        self.queued_bytes = 0

    def overflow(self, size: int) -> str | None:
        """Why one more message of ``size`` bytes would be too much unread, if it would."""
        if self.qsize() >= MAX_QUEUED_MESSAGES:
            return f"flood: more than {MAX_QUEUED_MESSAGES} messages sent and not yet read"
        if self.queued_bytes + size > MAX_QUEUED_BYTES:
            return f"flood: more than {MAX_QUEUED_BYTES >> 20} MiB sent and not yet read"
        return None


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class Session:
    """One bot process's stream: what it said in its Hello, its inbox and its outbox."""

    def __init__(self, token: str, hello: pb.Hello) -> None:
        self.token = token
        self.hello = hello
        self.inbox = Inbox()
        self.outbox: Mailbox[pb.RefereeMessage | None] = Mailbox()
        self.closed: Closed | None = None
        self.reading = asyncio.Event()
        """Set while the referee reads the stream; cleared once nothing it sends matters."""
        self.reading.set()
        self.throttle = Throttle()

    def stop_reading(self) -> None:
        """Read nothing more from this stream (its seat is out of the match, or the match is
        over) and drop what waits unread: gRPC's flow control then holds the bot back, so
        whatever it keeps sending costs the referee nothing. The stream stays open for the
        referee's own messages (the ActionResult of a last answer, MatchEnd)."""
        self.reading.clear()
        self.inbox.discard()

    def resume_reading(self) -> None:
        """Read the stream again (its next match starts)."""
        self.reading.set()

    def send(self, message: pb.RefereeMessage) -> None:
        if self.closed is None:
            self.outbox.put_nowait(message)

    def finish(self) -> None:
        """End the stream from the referee's side (no more matches)."""
        self.outbox.put_nowait(None)


class Refused(Exception):
    """A handshake a registry turns down, with the gRPC status and detail the bot gets."""

    def __init__(self, code: grpc.StatusCode, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


class Registry:
    """Tokens the referee handed out, and the sessions that presented them."""

    def __init__(self) -> None:
        self._expected: dict[str, str] = {}
        self._waiting: dict[str, asyncio.Future[Session]] = {}

    def issue(self, label: str) -> str:
        """A fresh token for a bot process about to be started."""
        token = secrets.token_urlsafe(24)
        self._expected[token] = label
        self._waiting[token] = asyncio.get_running_loop().create_future()
        return token

    def claim(self, token: str, peer: str = "", name: str = "") -> asyncio.Future[Session] | None:
        """The future to give the session presenting ``token`` (from ``peer``, saying it is
        bot ``name``); None for an unknown token. A registry may raise :class:`Refused`."""
        future = self._waiting.get(token)
        if future is None or future.done():
            return None
        return future

    async def wait(self, token: str, timeout: float) -> Session | None:
        """The session that presents ``token``, or None if none does within ``timeout`` s."""
        future = self._waiting[token]
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout)
        except TimeoutError:
            return None


class RefereeServicer(arena_pb2_grpc.RefereeServicer):
    """Accepts bot streams whose Hello carries a token the registry issued."""

    def __init__(
        self, registry: Registry, hello_timeout: float = 10.0, max_handshakes: int = MAX_HANDSHAKES
    ) -> None:
        self.registry = registry
        self.hello_timeout = hello_timeout
        self.max_handshakes = max_handshakes
        self.handshakes = 0
        """Streams waiting for their Hello now."""

    async def _first(self, request_iterator: AsyncIterator[pb.BotMessage]) -> pb.BotMessage:
        """The stream's first message (counted among the handshakes while it is awaited)."""
        self.handshakes += 1
        try:
            return await asyncio.wait_for(anext(request_iterator), self.hello_timeout)
        finally:
            self.handshakes -= 1

    async def Play(
        self,
        request_iterator: AsyncIterator[pb.BotMessage],
        context: grpc.aio.ServicerContext[pb.BotMessage, pb.RefereeMessage],
    ) -> AsyncIterator[pb.RefereeMessage]:
        if short_of_descriptors():
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "the referee is short of file descriptors; try again later",
            )
            return
        if self.handshakes >= self.max_handshakes:
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"more than {self.max_handshakes} streams waiting to send Hello; try again later",
            )
            return
        try:
            first = await self._first(request_iterator)
        except (TimeoutError, StopAsyncIteration):
            await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "send Hello first")
            return
        except Exception:  # grpc raises its own types for bytes that do not parse
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, UNREADABLE_FIRST)
            return
        if first.WhichOneof("message") != "hello":
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "the first message must be Hello")
            return
        hello = first.hello
        if hello.protocol_version != PROTOCOL_VERSION:
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"protocol version {hello.protocol_version} is not supported; this referee "
                f"speaks version {PROTOCOL_VERSION}",
            )
            return
        try:
            waiting = self.registry.claim(hello.token, context.peer(), hello.bot_name)
        except Refused as exc:
            await context.abort(exc.code, exc.detail)
            return
        if waiting is None:
            await context.abort(grpc.StatusCode.UNAUTHENTICATED, "unknown or already used token")
            return
        session = Session(hello.token, hello)
        waiting.set_result(session)
        reader = asyncio.create_task(_pump(request_iterator, session))
        yield pb.RefereeMessage(
            welcome=pb.Welcome(protocol_version=PROTOCOL_VERSION, referee_version=__version__)
        )
        try:
            outbox = session.outbox
            while True:
                message = outbox.get_nowait() if outbox.qsize() else await outbox.get()
                if message is None:
                    break
                yield message
        finally:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reader
            if session.closed is None:
                # Cancelled before the reader saw the end: the seat must still learn of it.
                session.closed = Closed("disconnect", "stream ended")
                session.inbox.put_nowait(session.closed)


async def _pump(request_iterator: AsyncIterator[pb.BotMessage], session: Session) -> None:
    """Copy a bot's messages into its inbox, no faster than its throttle allows and only while
    the session is read; record how the stream ended."""
    reading, throttle = session.reading, session.throttle
    try:
        while True:
            if not reading.is_set():
                await reading.wait()
            try:
                message = await anext(request_iterator)
            except StopAsyncIteration:
                closed = Closed("disconnect", "the bot closed its stream")
                break
            if not reading.is_set():
                continue  # arrived as the referee stopped reading: nobody wants it
            size = message.ByteSize()
            if size > MAX_MESSAGE_BYTES:
                closed = Closed(
                    "protocol",
                    f"a message of {size} bytes; the limit is {MAX_MESSAGE_BYTES} bytes (1 MiB)",
                )
                break
            flood = session.inbox.overflow(size)
            if flood is not None:
                closed = Closed("protocol", flood)
                break
            session.inbox.put_nowait(message, size)
            wait = throttle.take(size)
            if wait > 0:  # faster than any honest bot: read on at the throttle's rate
                await asyncio.sleep(wait)
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # grpc raises its own types for bad bytes and oversized messages
        closed = Closed("protocol", f"stream failed: {exc}")
    session.closed = closed
    session.inbox.put_nowait(closed)


ADDRESS_FORMS = "HOST:PORT (a port number 0-65535; 0 picks a free one) or unix:/PATH"


def check_address(address: str) -> None:
    """Refuse an address gRPC could not serve on, saying which forms it takes."""
    if address.startswith("unix:"):
        if address == "unix:":
            raise ArenaError(f"cannot serve the referee on {address!r}: no socket path after unix:")
        return
    host, colon, port = address.rpartition(":")
    if not colon or not host or not port.isdigit() or int(port) > 65535:
        raise ArenaError(f"cannot serve the referee on {address!r}: expected {ADDRESS_FORMS}")


def _bind_problem(address: str) -> str | None:
    """Why ``address`` cannot be bound, as the operating system puts it, or None if it can.

    Tried before gRPC binds, because gRPC only says "Failed to bind" (and logs its own line
    to stderr); a TCP port is probed without SO_REUSEPORT, so a port another server holds is
    refused rather than shared with it.
    """
    if address.startswith("unix:"):
        path = address[len("unix:") :]
        if path.startswith("//"):  # unix:///abs/path, gRPC's URI form of unix:/abs/path
            path = path[2:]
        folder = Path(path).parent
        if not folder.is_dir():
            return f"no folder {folder}"
        if not os.access(folder, os.W_OK | os.X_OK):
            return f"the folder {folder} is not writable"
        return None
    host, _, port = address.rpartition(":")
    try:
        infos = socket.getaddrinfo(host.strip("[]"), int(port), type=socket.SOCK_STREAM)
        family, kind, proto, _, where = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(where)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


async def start_server(
    registry: Registry,
    address: str,
    hello_timeout: float = 10.0,
    max_connections: int = MAX_CONNECTIONS,
    max_streams: int = MAX_STREAMS,
    credentials: grpc.ServerCredentials | None = None,
    options: tuple[tuple[str, int], ...] = (),
) -> tuple[grpc.aio.Server, str]:
    """Serve the referee on ``address`` (``unix:/PATH`` or ``HOST:PORT``); returns the bound
    target. An address that cannot be served on is an :class:`ArenaError` saying why.

    Bounded against a bot that opens connections and never uses them: at most
    ``max_connections`` connections and ``max_streams`` streams at once; a connection that
    does not finish its HTTP/2 handshake, or carries no stream, for ``hello_timeout`` seconds
    is closed, as is a stream without a Hello by then. With ``credentials`` a TCP address
    is served over TLS; ``options`` adds gRPC server options (e.g. keepalive)."""
    check_address(address)
    problem = _bind_problem(address)
    if problem is not None:
        raise ArenaError(f"cannot serve the referee on {address!r}: {problem}")
    idle_ms = max(1, int(hello_timeout * 1000))
    server = grpc.aio.server(
        options=[
            ("grpc.max_receive_message_length", TRANSPORT_MAX_BYTES),
            ("grpc.max_send_message_length", 16 * MAX_MESSAGE_BYTES),
            ("grpc.max_allowed_incoming_connections", max_connections),
            ("grpc.max_concurrent_streams", MAX_STREAMS_PER_CONNECTION),
            ("grpc.server_handshake_timeout_ms", idle_ms),
            ("grpc.max_connection_idle_ms", idle_ms),
            ("grpc.http2.bdp_probe", 0),  # windows stay small: an unread stream holds little
            *options,
        ],
        maximum_concurrent_rpcs=max_streams,
    )
    servicer = RefereeServicer(registry, hello_timeout)
    arena_pb2_grpc.add_RefereeServicer_to_server(servicer, server)  # type: ignore[no-untyped-call]
    try:
        if credentials is not None:
            port = server.add_secure_port(address, credentials)
        else:
            port = server.add_insecure_port(address)
    except RuntimeError:  # "Failed to bind to address ...", without the reason
        port = 0
    if port == 0:  # gRPC's "no port bound" (it raises or returns 0, by version)
        raise ArenaError(f"cannot serve the referee on {address!r}: gRPC could not bind it")
    if address.startswith("unix:"):
        target = address
    else:
        host = address.rsplit(":", 1)[0]
        target = f"{host}:{port}"
    await server.start()
    return server, target
