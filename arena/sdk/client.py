"""Playing over gRPC: connect to the referee named by ARENA_ADDRESS / ARENA_TOKEN and answer.

One stream carries every match the referee has for this process, one after another.
"""

from __future__ import annotations

import os
import queue
import sys
from collections.abc import Iterator

import grpc

from arena.protocol import envelope
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.protocol._pb.riskarena.v1 import arena_pb2_grpc
from arena.sdk import wire
from arena.sdk.bot import Bot, MatchInfo, Request

ADDRESS_ENV = "ARENA_ADDRESS"
TOKEN_ENV = "ARENA_TOKEN"
EXIT_REFUSED = 2


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
    outgoing: queue.Queue[pb.BotMessage | None] = queue.Queue()
    outgoing.put(pb.BotMessage(hello=wire.hello(bot, token)))

    def messages() -> Iterator[pb.BotMessage]:
        while (message := outgoing.get()) is not None:
            yield message

    channel = grpc.insecure_channel(address)
    try:
        stream = arena_pb2_grpc.RefereeStub(channel).Play(messages())
        current: Request | None = None
        match: MatchInfo | None = None  # a DecisionRequest does not repeat its game and seat
        for message in stream:
            kind = message.WhichOneof("message")
            if kind == "match_start":
                match = wire.match_info(message.match_start)
                bot.start(match)
            elif kind == "decision":
                current = wire.request(message.decision, match)
                _answer(bot, current, outgoing)
            elif kind == "action_result":
                result = message.action_result
                if not result.accepted and current and result.request_id == current.request_id:
                    bot.rejected(result.reason)
                    _answer(bot, current, outgoing)
            elif kind == "match_end":
                current = None
                bot.finish(envelope.match_end_to_dict(message.match_end))
        return 0
    except grpc.RpcError as exc:
        code = exc.code() if hasattr(exc, "code") else None
        print(
            f"{bot.name}: referee: {code}: {exc.details() if hasattr(exc, 'details') else exc}",
            file=sys.stderr,
        )
        refused = (
            grpc.StatusCode.UNAUTHENTICATED,
            grpc.StatusCode.FAILED_PRECONDITION,
            grpc.StatusCode.INVALID_ARGUMENT,
        )
        return EXIT_REFUSED if code in refused else 1
    finally:
        outgoing.put(None)
        channel.close()


def _answer(bot: Bot, request: Request, outgoing: queue.Queue[pb.BotMessage | None]) -> None:
    answer = bot.choose(request)
    for text in bot.take_debug():
        outgoing.put(pb.BotMessage(debug=pb.DebugText(text=text)))
    message = envelope.answer_to_pb(request.game, request.request_id, answer)
    outgoing.put(pb.BotMessage(action=message))
