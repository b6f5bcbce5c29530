"""Helpers shared by the test bots under ``broken_bots/`` (imported with ``python -B``).

Every bot records its pid in ``$ARENA_TEST_PIDS`` (so the tests can check that no bot process
outlives its match) and writes whatever it wants the test to see into ``$ARENA_TEST_OUT``;
nothing is ever written into a bot's own folder. ``$ARENA_TEST_MODE`` and
``$ARENA_TEST_PHASE`` select the misbehaviour.
"""

from __future__ import annotations

import json
import os
import queue
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc

from arena.protocol import envelope
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.sdk import Answer, Attack, Bot, Fortify, MatchInfo, Place, Request, wire

PLAY_METHOD = "/riskarena.v1.Referee/Play"
MODE = os.environ.get("ARENA_TEST_MODE", "")
PHASE = os.environ.get("ARENA_TEST_PHASE", "")


def note_pid(role: str = "bot") -> None:
    """Record this process's pid for the test's no-survivor check."""
    folder = os.environ.get("ARENA_TEST_PIDS")
    if folder:
        Path(folder, str(os.getpid())).write_text(f"{role} {sys.argv[0]}\n")


def out_path(name: str) -> Path | None:
    """A file in the test's output folder, or None when the test gave none."""
    folder = os.environ.get("ARENA_TEST_OUT")
    return Path(folder, name) if folder else None


def log(name: str, record: dict[str, Any]) -> None:
    """Append one JSON line to ``$ARENA_TEST_OUT/name``."""
    path = out_path(name)
    if path is not None:
        with path.open("a") as f:
            f.write(json.dumps(record) + "\n")


class RandomPlayer(Bot):
    """The bundled random bot's strategy (uniform, seeded from the match seed and seat)."""

    name = "random-test"
    version = "1.0"

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.rng = random.Random(match.bot_seed)

    def choose(self, request: Request) -> Answer:
        options, rng = request.options, self.rng
        if request.game != "classic":  # any other game: uniform over its complete choices
            return rng.randrange(len(request.choices))
        if request.kind == "reinforce" or (request.kind == "place" and options.armies > 1):
            share: dict[int, int] = {}
            for _ in range(options.armies):
                t = rng.choice(options.territories)
                share[t] = share.get(t, 0) + 1
            return Place(tuple(sorted(share.items())))
        index = rng.randrange(len(request.choices))
        picked = request.choices[index]
        if isinstance(picked, Attack):
            return Attack(picked.source, picked.target, rng.randint(1, picked.dice))
        if isinstance(picked, Fortify):
            return Fortify(picked.source, picked.target, rng.randint(1, picked.armies))
        return index


class RawClient:
    """A Play stream over the raw generated stubs, with a hand on every byte sent."""

    def __init__(
        self,
        serializer: Callable[[Any], bytes] = pb.BotMessage.SerializeToString,
        deserializer: Callable[[bytes], Any] = pb.RefereeMessage.FromString,
    ) -> None:
        self.outgoing: queue.Queue[Any] = queue.Queue()
        self.channel = grpc.insecure_channel(os.environ["ARENA_ADDRESS"])
        method = self.channel.stream_stream(
            PLAY_METHOD, request_serializer=serializer, response_deserializer=deserializer
        )
        self.call = method(self._requests())

    def _requests(self) -> Iterator[Any]:
        while (message := self.outgoing.get()) is not None:
            yield message

    def send(self, message: Any) -> None:
        self.outgoing.put(message)

    def half_close(self) -> None:
        """No more messages from this side: the referee sees the stream end."""
        self.outgoing.put(None)

    @staticmethod
    def hello(
        token: str | None = None, version: int = envelope.PROTOCOL_VERSION, name: str = "test"
    ) -> pb.BotMessage:
        return pb.BotMessage(
            hello=pb.Hello(
                token=os.environ.get("ARENA_TOKEN", "") if token is None else token,
                bot_name=name,
                bot_version="1.0",
                protocol_version=version,
            )
        )


def reply(request_id: int, answer: Answer) -> pb.BotMessage:
    """A classic answer to request ``request_id`` as the message a bot sends."""
    return pb.BotMessage(action=envelope.answer_to_pb("classic", request_id, answer))


Hook = Callable[[pb.DecisionRequest, Request, Answer], "list[pb.BotMessage] | None"]


def play_raw(client: RawClient, player: Bot, on_decision: Hook | None = None) -> None:
    """Play every match on a raw stream; ``on_decision`` may replace the messages sent."""
    try:
        _play(client, player, on_decision)
    finally:
        client.half_close()


def _play(client: RawClient, player: Bot, on_decision: Hook | None) -> None:
    for message in client.call:
        kind = message.WhichOneof("message")
        if kind == "match_start":
            player.start(wire.match_info(message.match_start))
        elif kind == "decision":
            request = wire.request(message.decision, player.match)
            answer = player.choose(request)
            default = [reply(request.request_id, answer)]
            sent = on_decision(message.decision, request, answer) if on_decision else None
            for out in default if sent is None else sent:
                client.send(out)
