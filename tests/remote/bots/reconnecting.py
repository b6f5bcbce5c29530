"""A remote bot that drops its connection mid-match and dials in again with the same token.

On the ``ARENA_TEST_DROP_AT``-th decision request it receives it closes its channel without
answering, stays away ``ARENA_TEST_AWAY`` seconds, and dials again; whenever its stream ends
it dials again (at most 20 times). It notes in ``ARENA_TEST_OUT`` (one JSON line each) the
request it dropped and the first request it was sent after coming back (with
``ARENA_TEST_NOTE_ALL`` set, every request it is sent).
"""

from __future__ import annotations

import json
import os
import queue
import sys
import time
from collections.abc import Iterator

import grpc

from arena.protocol import envelope
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.protocol._pb.riskarena.v1 import arena_pb2_grpc
from arena.sdk import Bot, wire

DROP_AT = int(os.environ["ARENA_TEST_DROP_AT"])
AWAY = float(os.environ["ARENA_TEST_AWAY"])
OUT = os.environ["ARENA_TEST_OUT"]
NOTE_ALL = bool(os.environ.get("ARENA_TEST_NOTE_ALL"))
RETRYABLE = {grpc.StatusCode.ALREADY_EXISTS, grpc.StatusCode.RESOURCE_EXHAUSTED}


def note(**fields: object) -> None:
    with open(OUT, "a") as out:
        out.write(json.dumps(fields) + "\n")


def dial(bot: Bot, address: str, token: str, seen: list[int], dropped: list[int]) -> bool:
    """One stream; True if it was dropped on purpose (or refused for now) and should be
    dialled again, False when the referee ended it."""
    channel = grpc.insecure_channel(address)
    outgoing: queue.Queue[pb.BotMessage | None] = queue.Queue()
    outgoing.put(pb.BotMessage(hello=wire.hello(bot, token, skip_accepted_results=True)))

    def messages() -> Iterator[pb.BotMessage]:
        while (message := outgoing.get()) is not None:
            yield message

    stream = arena_pb2_grpc.RefereeStub(channel).Play(messages())
    match = None
    try:
        for message in stream:
            kind = message.WhichOneof("message")
            if kind == "match_start":
                match = wire.match_info(message.match_start)
                bot.start(match)
            elif kind == "decision":
                seen[0] += 1
                request = wire.request(message.decision, match)
                if NOTE_ALL:
                    note(event="request", request_id=request.request_id)
                if dropped and len(dropped) == 1:
                    note(event="resent", request_id=request.request_id)
                    dropped.append(request.request_id)
                if seen[0] == DROP_AT:
                    note(event="dropped", request_id=request.request_id)
                    dropped.append(request.request_id)
                    outgoing.put(None)
                    stream.cancel()
                    channel.close()
                    time.sleep(AWAY)  # the bot's own outage, not a wait for anything
                    return True
                answer = bot.choose(request)
                action = envelope.answer_to_pb(request.game, request.request_id, answer)
                outgoing.put(pb.BotMessage(action=action))
            elif kind == "match_end":
                bot.finish(envelope.match_end_to_dict(message.match_end))
        return True
    except grpc.RpcError as exc:
        if exc.code() in RETRYABLE or exc.code() == grpc.StatusCode.CANCELLED:
            time.sleep(0.2)  # back off before dialling again
            return True
        print(f"reconnecting: {exc.code()}: {exc.details()}", file=sys.stderr)
        return False
    finally:
        outgoing.put(None)
        channel.close()


def main() -> int:
    bot = Bot()
    bot.name = "reconnecting"
    address, token = os.environ["ARENA_ADDRESS"], os.environ["ARENA_TOKEN"]
    seen, dropped = [0], []
    for _ in range(20):
        if not dial(bot, address, token, seen, dropped):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
