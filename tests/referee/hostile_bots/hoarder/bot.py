"""Hostile: connects its own seat, then holds as many connections to the referee as it can
open and never uses them: bare sockets that never say a byte, HTTP/2 connections that never
start a stream, and Play streams that never send Hello. It plays its seat meanwhile (the
bundled random strategy) and opens them again whenever the referee closes them.

It notes in ``$ARENA_TEST_OUT/hoarder-PID.json`` (when given) how many of each it opened.
"""

from __future__ import annotations

import json
import os
import random
import select
import socket
import threading
import time
from pathlib import Path

import grpc

from arena.sdk import Answer, Attack, Bot, Fortify, MatchInfo, Place, Request

PLAY = "/riskarena.v1.Referee/Play"
BARE = 150
"""Bare sockets held at once (with the rest, within the 256 descriptors a bot may open)."""
SILENT = 40
"""Channels whose Play stream never sends Hello, and as many that never start a stream."""


def note(record: dict[str, int]) -> None:
    folder = os.environ.get("ARENA_TEST_OUT")
    if folder:
        # Written whole then renamed, so the test never reads a half-written note of a
        # hoarder stopped mid-write.
        final = Path(folder, f"hoarder-{os.getpid()}.json")
        partial = final.with_suffix(".part")
        partial.write_text(json.dumps(record))
        partial.replace(final)


def bare_sockets(path: str, opened: dict[str, int], filled: threading.Event) -> None:
    """Keep ``BARE`` sockets connected: whatever the referee says on them is read and
    ignored; one it closes is opened again (after a breath, so the test machine keeps up)."""
    held: dict[int, socket.socket] = {}
    poller = select.poll()
    while True:
        while len(held) < BARE:
            s = socket.socket(socket.AF_UNIX)
            try:
                s.connect(path)
            except OSError:
                s.close()
                break
            held[s.fileno()] = s
            poller.register(s, select.POLLIN)
            opened["bare"] += 1
        note(opened)
        filled.set()
        for fd, _ in poller.poll(1000):
            s = held[fd]
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            if not data:
                poller.unregister(fd)
                del held[fd]
                s.close()
        time.sleep(0.05)


def silent_channels(address: str, opened: dict[str, int]) -> None:
    """Channels that never start a stream, and Play streams that never send a message."""
    own = [("grpc.use_local_subchannel_pool", 1)]  # a connection of its own per channel
    held = []
    for _ in range(SILENT):
        idle = grpc.insecure_channel(address, options=own)
        try:
            grpc.channel_ready_future(idle).result(timeout=5)
            opened["idle"] += 1
        except grpc.FutureTimeoutError:
            pass
        mute = grpc.insecure_channel(address, options=own)
        stream = mute.stream_stream(PLAY)
        call = stream(_never())
        held.append((idle, mute, call))
        opened["mute"] += 1
        note(opened)
    threading.Event().wait()


def _never():
    threading.Event().wait()
    yield b""


class Hoarder(Bot):
    name = "hoarder"
    version = "1.0"

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.rng = random.Random(match.bot_seed)
        if not getattr(self, "hoarding", False):
            self.hoarding = True
            address = os.environ["ARENA_ADDRESS"]
            opened = {"bare": 0, "idle": 0, "mute": 0}
            if address.startswith("unix:"):
                path = address[len("unix:") :]
                filled = threading.Event()
                threading.Thread(
                    target=bare_sockets, args=(path, opened, filled), daemon=True
                ).start()
                filled.wait(60)  # every bare socket is held before the first answer
            threading.Thread(target=silent_channels, args=(address, opened), daemon=True).start()

    def choose(self, request: Request) -> Answer:
        """The bundled random bot's play (uniform over the options)."""
        options, rng = request.options, self.rng
        if request.game != "classic":
            return rng.randrange(len(request.choices))
        if request.kind == "reinforce" or (request.kind == "place" and options.armies > 1):
            share: dict[int, int] = {}
            for _ in range(options.armies):
                t = rng.choice(options.territories)
                share[t] = share.get(t, 0) + 1
            return Place(tuple(sorted(share.items())))
        picked = request.choices[index := rng.randrange(len(request.choices))]
        if isinstance(picked, Attack):
            return Attack(picked.source, picked.target, rng.randint(1, picked.dice))
        if isinstance(picked, Fortify):
            return Fortify(picked.source, picked.target, rng.randint(1, picked.armies))
        return index


if __name__ == "__main__":
    Hoarder().run()
