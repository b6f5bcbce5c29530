"""A bot of the test-only guessing game (tests/games/guessing.py), over a raw Play stream so
that it can also misbehave on purpose. ``ARENA_TEST_GUESSER_MODE`` gives each seat a mode, e.g.
``0=twice;1=alternate``:

- ``alternate``: in odd rounds (seat 0) or even rounds (seat 1) it answers only once the
  other seat has been asked too (a marker file in ``ARENA_TEST_GUESSER_OUT``): proof that the referee
  asks both seats before either answers, whatever order the answers come in;
- ``twice``: sends a second, different answer to the same request right after the first;
- ``illegal``: first answers each request with a guess of 9, then with its real guess;
- ``silent``: never answers round 2 (a timeout).

Every request it receives is logged to ``ARENA_TEST_GUESSER_OUT/seat<N>.jsonl`` (round, view, events).
"""

from __future__ import annotations

import json
import os
import queue
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc

from arena.protocol import envelope
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.protocol._pb.riskarena.v1 import arena_pb2_grpc
from arena.sdk import Bot, MatchInfo, Request, wire

WAIT_LIMIT = 60.0


class Guesser(Bot):
    """Guesses from its seed and the round: the same game for the same seed."""

    name = "guesser"
    version = "1.0"
    games = ("guessing",)

    def choose(self, request: Request) -> Any:
        assert self.match is not None
        return {"kind": "guess", "value": (self.match.bot_seed + request.view["round"]) % 6 + 1}


def _modes() -> dict[int, str]:
    pairs = (
        item.split("=", 1)
        for item in os.environ.get("ARENA_TEST_GUESSER_MODE", "").split(";")
        if item
    )
    return {int(seat): mode for seat, mode in pairs}


def _wait_for(path: Path) -> bool:
    deadline = time.monotonic() + WAIT_LIMIT
    while not path.exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def main() -> None:
    folder = os.environ.get("ARENA_TEST_GUESSER_OUT")  # nothing is written without it (never here)
    out = Path(folder) if folder else None
    outgoing: queue.Queue[pb.BotMessage | None] = queue.Queue()
    player = Guesser()
    outgoing.put(pb.BotMessage(hello=wire.hello(player, os.environ.get("ARENA_TOKEN", ""))))

    def messages() -> Iterator[pb.BotMessage]:
        while (message := outgoing.get()) is not None:
            yield message

    def send(request: Request, answer: Any) -> None:
        action = envelope.answer_to_pb(request.game, request.request_id, answer)
        outgoing.put(pb.BotMessage(action=action))

    channel = grpc.insecure_channel(os.environ["ARENA_ADDRESS"])
    match: MatchInfo | None = None
    current: Request | None = None
    mode = ""
    try:
        for message in arena_pb2_grpc.RefereeStub(channel).Play(messages()):
            kind = message.WhichOneof("message")
            if kind == "match_start":
                match = wire.match_info(message.match_start)
                player.start(match)
                mode = _modes().get(match.seat, "")
            elif kind == "decision" and match is not None:
                current = wire.request(message.decision, match)
                round_ = current.view["round"]
                if out is not None:
                    (out / f"asked-{match.seat}-{round_}").touch()
                    entry = {"round": round_, "view": current.view, "events": current.events}
                    with (out / f"seat{match.seat}.jsonl").open("a") as log:
                        log.write(json.dumps(entry) + "\n")
                answer = player.choose(current)
                alternate = mode == "alternate" and out is not None
                if alternate and round_ % 2 == (1 if match.seat == 0 else 0):
                    waited = _wait_for(out / f"asked-{1 - match.seat}-{round_}")
                    (out / f"waited-{match.seat}-{round_}-{'ok' if waited else 'late'}").touch()
                if mode == "silent" and round_ == 2:
                    continue
                if mode == "illegal":
                    send(current, {"kind": "guess", "value": 9})
                    continue
                send(current, answer)
                if mode == "twice":
                    send(current, {"kind": "guess", "value": answer["value"] % 6 + 1})
            elif kind == "action_result" and current is not None:
                result = message.action_result
                if not result.accepted:  # answer again, as the SDK does
                    send(current, player.choose(current))
    finally:
        outgoing.put(None)
        channel.close()


if __name__ == "__main__":
    main()
