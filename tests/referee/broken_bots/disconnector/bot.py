"""Plays randomly, then at its first decision of kind ARENA_TEST_PHASE (its 5th decision when
unset) closes its Play stream without answering: a half-close (ARENA_TEST_MODE ``halfclose``,
the default) or a cancel of the call (``cancel``). The process keeps running afterwards."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _shared import MODE, PHASE, RandomPlayer, RawClient, log, note_pid, reply

from arena.sdk import wire


def main() -> None:
    note_pid()
    client = RawClient()
    client.send(client.hello())
    player = RandomPlayer()
    count = 0
    try:
        for message in client.call:
            kind = message.WhichOneof("message")
            if kind == "match_start":
                player.start(wire.match_info(message.match_start))
            elif kind == "decision":
                count += 1
                request = wire.request(message.decision, player.match)
                if (PHASE and request.kind == PHASE) or (not PHASE and count == 5):
                    log("closed.jsonl", {"request_id": request.request_id, "mode": MODE})
                    if MODE == "cancel":
                        client.call.cancel()
                    else:
                        client.half_close()
                    break
                answer = player.choose(request)
                client.send(reply(request.request_id, answer))
    except Exception as exc:
        log("stream.jsonl", {"error": repr(exc)[:500]})
    time.sleep(60)


if __name__ == "__main__":
    main()
