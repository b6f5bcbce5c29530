"""Remote bots: helpers to run ``arena serve`` and remote bot processes in tests.

Everything is a real process on a real socket; every wait is bounded and polls for what it
waits for.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import grpc

from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.protocol._pb.riskarena.v1 import arena_pb2_grpc
from arena.protocol.envelope import PROTOCOL_VERSION

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "bots"
HERE = Path(__file__).resolve().parent
WAIT = 120.0
"""Generous bound for anything to happen on a loaded machine."""


def arena(*args: str | Path, timeout: float = 600.0, env: dict[str, str] | None = None):
    """Run the CLI in a process of its own; the completed process."""
    return subprocess.run(
        [sys.executable, "-m", "arena.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    )


def remote(db: Path, name: str, games: str = "classic") -> str:
    """Register remote bot ``name`` and return its token."""
    added = arena("bots", "add", "--remote", name, "--games", games, "--db", db)
    assert added.returncode == 0, added.stderr
    issued = arena("bots", "token", name, "--db", db)
    assert issued.returncode == 0, issued.stderr
    return issued.stdout.strip()


class Lines:
    """A process's output lines, read on a thread, so a test can wait for one with a bound."""

    def __init__(self, stream) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            self.lines.put(line)

    def so_far(self) -> list[str]:
        """Every line read until now."""
        while True:
            try:
                self.seen.append(self.lines.get_nowait())
            except queue.Empty:
                return self.seen

    def wait_for(self, found: Callable[[str], bool], timeout: float = WAIT) -> str:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such line within {timeout} s; saw {self.seen!r}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            self.seen.append(line)
            if found(line):
                return line


@contextmanager
def serving(
    db: Path,
    *extra: str | Path,
    host: str = "127.0.0.1",
    wrap: Sequence[str] = (),
) -> Iterator[tuple[str, Lines]]:
    """``arena serve`` on a free port: its address and its output lines."""
    command = [sys.executable, "-m", "arena.cli", "serve", "--host", host, "--port", "0"]
    process = subprocess.Popen(
        [*wrap, *command, "--db", str(db), *map(str, extra)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=ROOT,
    )
    lines = Lines(process.stdout)
    try:
        ready = lines.wait_for(lambda line: "listening on" in line)
        address = ready.split("listening on ", 1)[1].split()[0]
        yield address, lines
    finally:
        stop_server(process)


def stop_server(process: subprocess.Popen[str]) -> None:
    """Stop a server process as an operator would (SIGTERM), killing it if it lingers."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(WAIT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(WAIT)


RANDOM = (sys.executable, str(BOTS / "random" / "bot.py"))
"""The bundled random bot, run as its author would run it on another machine."""


def start_bot(
    address: str,
    token: str,
    command: Sequence[str] = RANDOM,
    wrap: Sequence[str] = (),
    env: dict[str, str] | None = None,
) -> subprocess.Popen[str]:
    """A remote bot process dialling ``address`` with ``token`` (``wrap`` goes before its
    command, e.g. ``ip netns exec NAME``)."""
    return subprocess.Popen(
        [*wrap, *command],
        cwd=ROOT,
        env={
            **os.environ,
            "ARENA_ADDRESS": address,
            "ARENA_TOKEN": token,
            "PYTHONPATH": str(ROOT),
            **(env or {}),
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def stop(process: subprocess.Popen[str]) -> str:
    """End a bot process (if it still runs); its output."""
    if process.poll() is None:
        process.terminate()
    try:
        out, _ = process.communicate(timeout=WAIT)
    except subprocess.TimeoutExpired:
        process.kill()
        out, _ = process.communicate(timeout=WAIT)
    return out or ""


def handshake(
    address: str,
    token: str,
    name: str = "probe",
    credentials: grpc.ChannelCredentials | None = None,
) -> tuple[grpc.StatusCode | None, str, Callable[[], None]]:
    """Say Hello with ``token``: (None, "", close) when welcomed (the stream stays open
    until ``close``), else the refusal's status and detail."""
    channel = (
        grpc.secure_channel(address, credentials)
        if credentials is not None
        else grpc.insecure_channel(address)
    )
    outgoing: queue.Queue[pb.BotMessage | None] = queue.Queue()
    outgoing.put(
        pb.BotMessage(
            hello=pb.Hello(
                protocol_version=PROTOCOL_VERSION, token=token, bot_name=name, bot_version="1"
            )
        )
    )

    def messages() -> Iterator[pb.BotMessage]:
        while (message := outgoing.get()) is not None:
            yield message

    stream = arena_pb2_grpc.RefereeStub(channel).Play(messages(), timeout=WAIT)

    def close() -> None:
        outgoing.put(None)
        stream.cancel()
        channel.close()

    try:
        first = next(stream)
    except grpc.RpcError as exc:
        close()
        return exc.code(), exc.details() or "", close
    assert first.WhichOneof("message") == "welcome"
    return None, "", close
