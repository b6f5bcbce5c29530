"""Plays randomly but sends answers the referee never asked for, from its first decision of
kind ARENA_TEST_PHASE (any kind when unset). ARENA_TEST_MODE:

``unsent``      answers with a request id never sent to anybody;
``other_seat``  answers with the previous request id, which went to another seat;
``unasked``     answers properly, then sends an extra answer nobody asked for;
``hello``       sends a second Hello along with its answer;
``stale``       before each answer re-sends its previous one, and sends each answer twice
                (stale answers are ignored: this bot must finish OK).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _shared import MODE, PHASE, RandomPlayer, RawClient, log, note_pid, play_raw, reply

from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb

NEVER_SENT = 10**9


def main() -> None:
    note_pid()
    client = RawClient()
    client.send(client.hello())
    previous: pb.BotMessage | None = None
    done = False

    def on_decision(message, request, answer):
        nonlocal previous, done
        rid = request.request_id
        action = reply(rid, answer)
        stray: pb.BotMessage | None = None
        active = not done and (not PHASE or request.kind == PHASE)
        if MODE == "stale":
            sent = [action, action] if previous is None else [previous, action, action]
            previous = action
            return sent
        if not active or (MODE == "other_seat" and rid == 1):
            return [action]
        done = True
        if MODE == "unsent":
            stray = reply(rid + NEVER_SENT, answer)
            sent = [stray]
        elif MODE == "other_seat":
            stray = reply(rid - 1, answer)
            sent = [stray]
        elif MODE == "unasked":
            stray = reply(rid + NEVER_SENT, answer)
            sent = [action, stray]
        else:  # hello
            sent = [client.hello(), action]
        log("stray.jsonl", {"request_id": rid, "mode": MODE})
        return sent

    try:
        play_raw(client, RandomPlayer(), on_decision)
    except Exception as exc:
        log("stream.jsonl", {"error": repr(exc)[:500]})


if __name__ == "__main__":
    main()
