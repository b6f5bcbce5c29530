"""Hostile bots against the referee's resources: a seat costs it a bounded amount of memory,
connections and descriptors, whatever its bot does, and no bot can stop a tournament.

The hostile bots are under ``hostile_bots/``: ``flooder`` forfeits and then streams 1 MiB
messages without end; ``hoarder`` holds hundreds of bare sockets, idle connections and Play
streams without Hello while it plays. Their matches run in subprocesses, so the referee's
own peak memory and descriptor limit are measured and set there.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import grpc
import pytest

from arena.games.classic import ClassicConfig
from arena.games.classic.actions import Claim
from arena.games.classic.game import ClassicGame
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.protocol.envelope import PROTOCOL_VERSION
from arena.referee.match import check_answer
from arena.referee.messages import Reply
from arena.referee.server import (
    MAX_CONNECTIONS,
    MAX_HANDSHAKES,
    MAX_STREAMS,
    MAX_STREAMS_PER_CONNECTION,
    Registry,
    Session,
    start_server,
)
from arena.sandbox import resources
from arena.sandbox.resources import Throttle, free_descriptors, raise_open_files_limit
from tests.referee import REPO, assert_all_gone

HOSTILE = Path(__file__).resolve().parent / "hostile_bots"
ARENA = str(Path(sys.executable).with_name("arena"))
RUN_TIMEOUT = 300.0
"""Seconds a subprocess match or tournament may take (the machine may be busy)."""
PEAK_RSS_LIMIT = 200 << 20

FLOOD_MATCH = """
import json, sys
from pathlib import Path
from arena.catalog import read_spec
from arena.games.classic import ClassicConfig
from arena.games.classic.actions import Claim
from arena.games.classic.game import ClassicGame
from arena.referee import local
from arena.referee.match import TimeControl

def peak():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024

flooder, other, replay = map(Path, sys.argv[1:4])
before = peak()
game = ClassicGame(ClassicConfig.parse({"max_rounds": "40"}, 3))
control = TimeControl(move_time=5.0, time_bank=10.0, startup_time=60.0)
players = [read_spec(flooder), read_spec(other), read_spec(other)]
result = local.play(game, players, 7, control, replay)
print(json.dumps({
    "before": before,
    "peak": peak(),
    "seats": [[s.status, s.detail] for s in result.seats],
    "end": result.end_reason,
}))
"""


def test_a_bot_flooding_after_its_forfeit_costs_the_referee_no_memory(tmp_path):
    """The flooder forfeits (ILLEGAL) at its first decision and then streams 1 MiB messages
    for the rest of the match: the referee reads none of them, its peak RSS stays under
    200 MB, the other seats play on OK, and no bot outlives the match."""
    out = tmp_path / "out"
    out.mkdir()
    env = {**os.environ, "ARENA_TEST_OUT": str(out)}
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            FLOOD_MATCH,
            str(HOSTILE / "flooder"),
            str(REPO / "bots" / "random"),
            str(tmp_path / "replay.jsonl"),
        ],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        env=env,
        check=False,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    statuses = [status for status, _ in report["seats"]]
    assert statuses == ["ILLEGAL", "OK", "OK"], report
    flood = json.loads((out / "flooder.json").read_text())
    assert flood["forfeited"] is True, "the flooder was forfeited and started its flood"
    assert_all_gone([flood["pid"]])
    print(  # the figures, for `pytest -s`
        f"referee peak RSS {report['peak'] / 2**20:.1f} MiB (at start "
        f"{report['before'] / 2**20:.1f}); the stream took {flood['sent']} of the flood's MiB"
    )
    assert report["peak"] < PEAK_RSS_LIMIT, report


def _hoarders(out: Path) -> dict[int, dict[str, int]]:
    """What each hoarder process noted it opened, by pid."""
    return {
        int(p.stem.split("-")[1]): json.loads(p.read_text()) for p in out.glob("hoarder-*.json")
    }


def test_a_bot_holding_hundreds_of_connections_cannot_stop_a_tournament(tmp_path):
    """The hoarder holds 150 bare sockets and 80 idle connections and mute streams to its
    referee while it plays, in a tournament whose processes may open only 200 descriptors
    (more than the referee needs, less than the hoarder would take without the per-server
    bounds): every planned match is recorded, the other bots' seats are all OK."""
    out = tmp_path / "out"
    out.mkdir()
    env = {**os.environ, "ARENA_TEST_OUT": str(out)}

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (200, 200))

    args = [ARENA, "tournament", "run", "--bot", str(HOSTILE / "hoarder")]
    args += ["--bot", "random", "--bot", "aggressive", "--seats", "3", "--rounds", "2"]
    args += ["--rules", "max_rounds=15", "--seed", "3", "--workers", "1", "--no-progress"]
    args += ["--json"]
    done = subprocess.run(
        args,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        env=env,
        check=False,
        preexec_fn=low_limit,
    )
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-4000:])
    assert "Traceback" not in done.stderr
    opened = _hoarders(out)
    assert opened and max(o["bare"] for o in opened.values()) >= 150, opened
    assert_all_gone(list(opened))
    db = Path(os.environ["ARENA_HOME"]) / "arena.db"
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        planned = conn.execute("SELECT COUNT(*) FROM plan").fetchone()[0]
        recorded = conn.execute("SELECT COUNT(*) FROM matches").fetchone()[0]
        seats = conn.execute("SELECT bot, status FROM seats").fetchall()
    finally:
        conn.close()
    assert planned == recorded == 6  # 3 bots at 3 seats: one table in every rotation, twice
    assert {status for bot, status in seats if bot != "hoarder"} == {"OK"}, seats


# ------------------------------------------------------------ the bounds, one by one


def serve(tmp_path: Path, test: Any, hello_timeout: float = 10.0) -> Any:
    """Run ``test(registry, target)`` against a real server on a unix socket."""

    async def main() -> Any:
        registry = Registry()
        server, target = await start_server(
            registry, f"unix:{tmp_path}/referee.sock", hello_timeout=hello_timeout
        )
        try:
            return await test(registry, target)
        finally:
            await server.stop(0)

    return asyncio.run(main())


async def _until(condition: Any, what: str, bound: float = 60.0) -> None:
    """Poll ``condition`` every 10 ms for at most ``bound`` seconds."""
    for _ in range(int(bound * 100)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"not within {bound:g} s: {what}")


def _open(sock: socket.socket) -> bool:
    """Whether the other end still holds ``sock`` open (what it sent is read and dropped)."""
    try:
        while data := sock.recv(65536):
            del data
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False


def test_a_server_holds_a_bounded_number_of_connections_and_closes_silent_ones(tmp_path):
    async def test(registry: Registry, target: str) -> None:
        path = target[len("unix:") :]
        socks = []
        for _ in range(MAX_CONNECTIONS + 40):
            sock = socket.socket(socket.AF_UNIX)
            sock.connect(path)
            sock.setblocking(False)
            socks.append(sock)
        await _until(
            lambda: sum(_open(s) for s in socks) <= MAX_CONNECTIONS,
            f"at most {MAX_CONNECTIONS} connections held",
        )
        # None of them starts its HTTP/2 handshake: each is closed after the hello timeout.
        await _until(lambda: not any(_open(s) for s in socks), "every silent one closed")
        for sock in socks:
            sock.close()

    serve(tmp_path, test, hello_timeout=1.0)


def test_a_connection_that_starts_no_stream_is_closed(tmp_path):
    async def test(registry: Registry, target: str) -> None:
        own = [("grpc.use_local_subchannel_pool", 1)]
        async with grpc.aio.insecure_channel(target, options=own) as channel:
            await asyncio.wait_for(channel.channel_ready(), 60)
            # No stream for the hello timeout: the referee closes the connection (GOAWAY).
            await _until(
                lambda: channel.get_state() != grpc.ChannelConnectivity.READY,
                "the idle connection closed",
            )

    serve(tmp_path, test, hello_timeout=1.0)


REFUSED = (grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.INTERNAL)
"""How a refused stream's Hello fails: the server's status, or a write cut short by it."""


def test_streams_beyond_the_bound_are_refused(tmp_path):
    async def test(registry: Registry, target: str) -> None:
        own = [("grpc.use_local_subchannel_pool", 1)]  # a connection per channel
        per_channel = MAX_STREAMS_PER_CONNECTION
        channels = [
            grpc.aio.insecure_channel(target, options=own)
            for _ in range(MAX_STREAMS // per_channel + 1)
        ]
        calls, welcomed, refused = [], 0, 0
        for channel in channels * per_channel:  # one at a time: each says Hello first
            call = channel.stream_stream(
                "/riskarena.v1.Referee/Play",
                request_serializer=pb.BotMessage.SerializeToString,
                response_deserializer=pb.RefereeMessage.FromString,
            )()
            calls.append(call)
            token = registry.issue("seat")
            try:
                await call.write(
                    pb.BotMessage(hello=pb.Hello(token=token, protocol_version=PROTOCOL_VERSION))
                )
                first = await asyncio.wait_for(call.read(), 60)
            except grpc.aio.AioRpcError as exc:
                # The server may end a refused stream before the Hello is sent: the write then
                # fails on this side (INTERNAL) rather than reading the server's status. The
                # count of streams welcomed below is what the bound is judged by.
                assert exc.code() in REFUSED, exc
                refused += 1
                continue
            if first is grpc.aio.EOF:
                assert await call.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
                refused += 1
            else:
                assert first.HasField("welcome")
                welcomed += 1
        assert (welcomed, refused) == (MAX_STREAMS, per_channel)
        for call in calls:
            call.cancel()
        for channel in channels:
            await channel.close()

    serve(tmp_path, test)


def test_streams_waiting_for_hello_beyond_the_bound_are_refused_at_once(tmp_path):
    """Each stream waiting for its Hello may make the referee hold a message of up to 2 MiB:
    only MAX_HANDSHAKES of them may wait at once, the others are refused before any read."""

    async def test(registry: Registry, target: str) -> None:
        own = [("grpc.use_local_subchannel_pool", 1)]
        channels = [
            grpc.aio.insecure_channel(target, options=own) for _ in range(MAX_HANDSHAKES + 4)
        ]
        for channel in channels:
            await asyncio.wait_for(channel.channel_ready(), 60)
        calls = [c.stream_stream("/riskarena.v1.Referee/Play")() for c in channels]
        codes = await asyncio.gather(*(call.code() for call in calls))
        assert codes.count(grpc.StatusCode.RESOURCE_EXHAUSTED) == 4, codes
        assert codes.count(grpc.StatusCode.DEADLINE_EXCEEDED) == MAX_HANDSHAKES, codes
        for channel in channels:
            await channel.close()

    serve(tmp_path, test, hello_timeout=5.0)


def test_new_streams_are_refused_when_descriptors_run_low(tmp_path, monkeypatch):
    monkeypatch.setattr(resources, "FD_RESERVE", 1 << 40)

    async def test(registry: Registry, target: str) -> None:
        async with grpc.aio.insecure_channel(target) as channel:
            call = channel.stream_stream("/riskarena.v1.Referee/Play")()
            assert await call.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "file descriptors" in await call.details()

    serve(tmp_path, test)


def test_descriptors_are_counted_and_the_soft_limit_raised_to_the_hard_one():
    free = free_descriptors()
    assert free is not None
    with open(os.devnull) as held:
        assert free_descriptors() == free - 1
        del held
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft, 512), hard))
        assert raise_open_files_limit() == hard
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == (hard, hard)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_the_throttle_lets_one_second_through_at_once_then_the_rate():
    now = [0.0]
    throttle = Throttle(messages_per_second=100, bytes_per_second=1000, clock=lambda: now[0])
    assert [throttle.take(1) for _ in range(100)] == [0.0] * 100  # a second's worth at once
    assert throttle.take(1) == pytest.approx(0.01)  # then one message per 1/100 s
    now[0] += 1.0
    assert throttle.take(500) == 0.0
    assert throttle.take(1000) == pytest.approx(0.5)  # bytes: 500 over the second's worth


def test_a_stopped_session_drops_what_it_queued_and_reads_again_when_resumed(tmp_path):
    async def test(registry: Registry, target: str) -> None:
        token = registry.issue("seat")
        async with grpc.aio.insecure_channel(target) as channel:
            call = channel.stream_stream(
                "/riskarena.v1.Referee/Play",
                request_serializer=pb.BotMessage.SerializeToString,
                response_deserializer=pb.RefereeMessage.FromString,
            )()
            await call.write(
                pb.BotMessage(hello=pb.Hello(token=token, protocol_version=PROTOCOL_VERSION))
            )
            session = await registry.wait(token, 60)
            assert isinstance(session, Session)
            for i in range(3):
                await call.write(pb.BotMessage(debug=pb.DebugText(text=f"{i}" * 1000)))
            await _until(lambda: session.inbox.qsize() == 3, "three messages queued")
            session.stop_reading()
            assert (session.inbox.qsize(), session.inbox.queued_bytes) == (0, 0)
            session.resume_reading()
            await call.write(pb.BotMessage(debug=pb.DebugText(text="after")))
            await _until(lambda: not session.inbox.empty(), "read again")
            seen = []
            while not session.inbox.empty():
                seen.append(session.inbox.get_nowait())
            assert isinstance(seen[-1], pb.BotMessage) and seen[-1].debug.text == "after"
            session.finish()

    serve(tmp_path, test)


def test_an_answer_the_game_fails_on_is_rejected_not_a_failed_match(monkeypatch):
    """Whatever a bot's answer makes the game's own code raise is that answer's rejection (a
    strike): the match, and the tournament, go on."""
    game = ClassicGame(ClassicConfig.parse({"max_rounds": "2"}, 2))
    state = game.new_game(1, [{}, {}])
    decision = game.decision(state)
    assert decision is not None
    seat = decision.seats[0]

    def broken_check(*args: Any) -> None:
        raise KeyError("no such territory")

    monkeypatch.setattr(game, "check", broken_check)
    answer = Claim(7)
    options = game.legal_options(state, seat)
    action, _, reason = check_answer(
        game, state, seat, decision.kind, Reply(answer=answer), options
    )
    assert action is None
    assert reason == "malformed answer: KeyError: 'no such territory'"
