"""Plays legally until its first decision of kind ARENA_TEST_PHASE (any kind when unset), then
sends bytes that do not parse as a BotMessage (ARENA_TEST_MODE ``bytes``, the default) or an
empty BotMessage, which parses but says nothing (``empty``). The Play method is called with a
serializer that passes bytes through, so anything can go on the wire."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _shared import MODE, PHASE, RandomPlayer, RawClient, log, note_pid, play_raw, reply


def garbage() -> bytes:
    """Random bytes led by a tag of wire type 7, which no protobuf parser accepts."""
    return b"\x07" + random.randbytes(64)


def main() -> None:
    note_pid()
    client = RawClient(serializer=lambda data: data)
    client.send(client.hello().SerializeToString())
    sent = False

    def on_decision(message, request, answer):
        nonlocal sent
        if not sent and (not PHASE or request.kind == PHASE):
            sent = True
            data = b"" if MODE == "empty" else garbage()
            log("sent.jsonl", {"request_id": request.request_id, "bytes": data.hex()})
            return [data]
        action = reply(request.request_id, answer)
        return [action.SerializeToString()]

    try:
        play_raw(client, RandomPlayer(), on_decision)
    except Exception as exc:  # the referee ends the stream after the garbage
        log("stream.jsonl", {"error": repr(exc)[:500]})


if __name__ == "__main__":
    main()
