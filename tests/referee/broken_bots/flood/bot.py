"""Sends too many messages. ARENA_TEST_MODE:

``debug``       300 debug messages before its first answer (the limit is 200 per request);
``actions``     300 stale answers (to its previous request) before its second answer;
``idle``        after its first answer, 2000 debug messages while nothing is asked of it;
``debug_ok``    3 debug messages with each answer, one of them 10000 characters long
                (within the limits: this bot must finish OK; the replay keeps 4 KiB of each).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _shared import MODE, RandomPlayer, RawClient, log, note_pid, play_raw, reply

from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb


def debug(text: str) -> pb.BotMessage:
    return pb.BotMessage(debug=pb.DebugText(text=text))


def main() -> None:
    note_pid()
    client = RawClient()
    client.send(client.hello())
    previous: pb.BotMessage | None = None
    count = 0

    def on_decision(message, request, answer):
        nonlocal previous, count
        count += 1
        rid = request.request_id
        action = reply(rid, answer)
        sent = [action]
        if MODE == "debug" and count == 1:
            sent = [debug(f"flood {i}") for i in range(300)] + [action]
        elif MODE == "actions" and previous is not None and count == 2:
            sent = [previous] * 300 + [action]
        elif MODE == "idle" and count == 1:
            sent = [action] + [debug(f"idle flood {i}") for i in range(2000)]
        elif MODE == "debug_ok":
            sent = [debug(f"request {rid}"), debug("x" * 10000), debug("done"), action]
        previous = action
        if len(sent) > 1:
            log("flood.jsonl", {"request_id": rid, "messages": len(sent)})
        return sent

    try:
        play_raw(client, RandomPlayer(), on_decision)
    except Exception as exc:
        log("stream.jsonl", {"error": repr(exc)[:500]})


if __name__ == "__main__":
    main()
