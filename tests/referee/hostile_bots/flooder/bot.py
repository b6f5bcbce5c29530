"""Hostile: answers every request illegally until its seat is forfeited (ILLEGAL at the strike
limit), then streams 1 MiB debug messages without end, as fast as the stream takes them.

It notes in ``$ARENA_TEST_OUT/flooder.json`` (when given) that it was forfeited and how many
of the 1 MiB messages the stream took from it so far.
"""

from __future__ import annotations

import json
import os
import queue
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc

from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.protocol.envelope import PROTOCOL_VERSION

PLAY = "/riskarena.v1.Referee/Play"
STRIKE_LIMIT = 3
MIB = 1 << 20
FLOOD = pb.BotMessage(debug=pb.DebugText(text="x" * (MIB - 64))).SerializeToString()


def note(record: dict[str, object]) -> None:
    folder = os.environ.get("ARENA_TEST_OUT")
    if folder:
        path = Path(folder, "flooder.json")
        path.with_suffix(".tmp").write_text(json.dumps(record))
        path.with_suffix(".tmp").replace(path)


def main() -> None:
    outgoing: queue.Queue[bytes | None] = queue.Queue()
    state = {"pid": os.getpid(), "forfeited": False, "sent": 0}

    def requests() -> Iterator[bytes]:
        while (data := outgoing.get()) is not None:
            yield data
        while True:  # forfeited: flood for as long as the stream takes it
            state["sent"] += 1
            note(state)
            yield FLOOD

    hello = pb.Hello(
        token=os.environ.get("ARENA_TOKEN", ""),
        bot_name="flooder",
        bot_version="1.0",
        protocol_version=PROTOCOL_VERSION,
    )
    outgoing.put(pb.BotMessage(hello=hello).SerializeToString())
    channel = grpc.insecure_channel(
        os.environ["ARENA_ADDRESS"], options=[("grpc.max_send_message_length", -1)]
    )
    stream = channel.stream_stream(
        PLAY,
        request_serializer=lambda data: data,
        response_deserializer=pb.RefereeMessage.FromString,
    )
    try:
        for message in stream(requests()):
            kind = message.WhichOneof("message")
            if kind == "decision":
                answer = pb.Action(request_id=message.decision.request_id, option_index=9999)
                outgoing.put(pb.BotMessage(action=answer).SerializeToString())
            elif kind == "action_result" and not message.action_result.accepted:
                result = message.action_result
                if result.strikes >= STRIKE_LIMIT and not state["forfeited"]:
                    state["forfeited"] = True
                    note(state)
                    outgoing.put(None)  # from here on: the flood
                elif not state["forfeited"]:
                    answer = pb.Action(request_id=result.request_id, option_index=9999)
                    outgoing.put(pb.BotMessage(action=answer).SerializeToString())
    except grpc.RpcError as exc:
        print(f"flooder: stream ended: {exc.code()}", file=sys.stderr)


if __name__ == "__main__":
    main()
