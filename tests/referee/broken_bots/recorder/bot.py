"""Plays randomly and dumps every message the referee sends it, exactly as received, into
``$ARENA_TEST_OUT/<pid>-<n>.bin``. In-process (``entry``), :class:`Recorder` is the same
strategy, so an in-process seat can be compared with a remote one."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _shared import RandomPlayer, RawClient, note_pid, out_path, reply

from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.sdk import wire


class Recorder(RandomPlayer):
    name = "recorder"


def main() -> None:
    note_pid()
    client = RawClient(deserializer=lambda data: data)
    client.send(client.hello(name="recorder"))
    player = Recorder()
    for number, data in enumerate(client.call):
        path = out_path(f"{os.getpid()}-{number:05d}.bin")
        if path is not None:
            path.write_bytes(data)
        message = pb.RefereeMessage.FromString(data)
        kind = message.WhichOneof("message")
        if kind == "match_start":
            player.start(wire.match_info(message.match_start))
        elif kind == "decision":
            request = wire.request(message.decision, player.match)
            answer = player.choose(request)
            client.send(reply(request.request_id, answer))


if __name__ == "__main__":
    main()
