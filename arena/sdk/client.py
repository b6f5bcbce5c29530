"""Playing over gRPC: connect to the referee named by ARENA_ADDRESS / ARENA_TOKEN and answer.

One stream carries every match the referee has for this process, one after another. The
client runs on one thread over ``grpc.aio``: each DecisionRequest is answered as it is read
(``Bot.choose`` is called directly, so the bot's think time holds the loop: there is nothing
else for it to do). Its Hello says it needs no ActionResult for an accepted answer, so the
referee sends one only for a rejection, which is answered again.
"""

from __future__ import annotations

import asyncio
import os
import sys

import grpc

from arena.protocol import envelope
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.protocol._pb.riskarena.v1 import arena_pb2_grpc
from arena.sdk import wire
from arena.sdk.bot import Bot, MatchInfo, Request

ADDRESS_ENV = "ARENA_ADDRESS"
TOKEN_ENV = "ARENA_TOKEN"
TLS_ROOTS_ENV = "ARENA_TLS_ROOTS"
"""A PEM file of trusted root certificates: set, the client connects over TLS (a remote
``arena serve --tls-cert ...``); unset, in plaintext (the local referee's sockets)."""
EXIT_REFUSED = 2
REFUSED = (
    grpc.StatusCode.UNAUTHENTICATED,
    grpc.StatusCode.FAILED_PRECONDITION,
    grpc.StatusCode.INVALID_ARGUMENT,
)
"""The statuses of a refused handshake (wrong token, protocol version, no Hello first)."""


def run(bot: Bot, address: str | None = None, token: str | None = None) -> int:
    """Play until the referee closes the stream; returns a process exit code.

    0 when the referee ended the stream normally, 2 when it refused the handshake
    (wrong token, protocol version), 1 on any other connection failure.
    """
    address = address or os.environ.get(ADDRESS_ENV)
    token = token if token is not None else os.environ.get(TOKEN_ENV, "")
    if not address:
        print(f"{bot.name}: set {ADDRESS_ENV} (and {TOKEN_ENV}) to the referee's", file=sys.stderr)
        return EXIT_REFUSED
    try:
        credentials = _credentials()
    except OSError as exc:
        print(f"{bot.name}: cannot read {TLS_ROOTS_ENV}: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    try:
        asyncio.run(_play(bot, address, token, credentials))
        return 0
    except grpc.RpcError as exc:
        code = exc.code() if hasattr(exc, "code") else None
        print(
            f"{bot.name}: referee: {code}: {exc.details() if hasattr(exc, 'details') else exc}",
            file=sys.stderr,
        )
        return EXIT_REFUSED if code in REFUSED else 1


def _credentials() -> grpc.ChannelCredentials | None:
    """TLS credentials trusting the roots in ``$ARENA_TLS_ROOTS``, or None (plaintext)."""
    roots = os.environ.get(TLS_ROOTS_ENV)
    if not roots:
        return None
    with open(roots, "rb") as pem:
        return grpc.ssl_channel_credentials(root_certificates=pem.read())


async def _play(
    bot: Bot, address: str, token: str, credentials: grpc.ChannelCredentials | None = None
) -> None:
    """The stream: Hello, then every match until the referee ends it (``read`` raises the
    RpcError of a stream that ends with another status than OK)."""
    channel = (
        grpc.aio.insecure_channel(address)
        if credentials is None
        else grpc.aio.secure_channel(address, credentials)
    )
    async with channel:
        stub = arena_pb2_grpc.RefereeStub(channel)  # type: ignore[no-untyped-call]
        call = stub.Play()
        await _send(call, pb.BotMessage(hello=wire.hello(bot, token, skip_accepted_results=True)))
        current: Request | None = None
        match: MatchInfo | None = None  # a DecisionRequest does not repeat its game and seat
        while (message := await call.read()) is not grpc.aio.EOF:
            kind = message.WhichOneof("message")
            if kind == "decision":
                current = wire.request(message.decision, match)
                await _answer(bot, current, call)
            elif kind == "action_result":
                result = message.action_result
                if not result.accepted and current and result.request_id == current.request_id:
                    bot.rejected(result.reason)
                    await _answer(bot, current, call)
            elif kind == "match_start":
                match = wire.match_info(message.match_start)
                bot.start(match)
            elif kind == "match_end":
                current = None
                bot.finish(envelope.match_end_to_dict(message.match_end))


Call = grpc.aio.StreamStreamCall[pb.BotMessage, pb.RefereeMessage]
"""The Play stream, as the bot sees it: it writes BotMessages and reads RefereeMessages."""


async def _answer(bot: Bot, request: Request, call: Call) -> None:
    answer = bot.choose(request)
    for text in bot.take_debug():
        await _send(call, pb.BotMessage(debug=pb.DebugText(text=text)))
    message = envelope.answer_to_pb(request.game, request.request_id, answer)
    await _send(call, pb.BotMessage(action=message))


async def _send(call: Call, message: pb.BotMessage) -> None:
    """Write ``message``; dropped if the referee already ended the stream normally (it
    ignores what a seat sends after its match is over; the reads then meet the end)."""
    try:
        await call.write(message)
    except asyncio.InvalidStateError:
        return
