"""Referee overhead over gRPC, measured against a bare gRPC echo and against in-process play.

Prints: the decision round trip (median and p99 over --exchanges exchanges of one real
mid-game DecisionRequest and a real Action) for a bare grpc.aio bidi echo and for the
referee's own path (Registry + start_server + RemoteSeat.ask, timed on the referee side),
with the ratio referee/bare (target ≤ 1.3×), plus the referee path answered by a real SDK
bot for information; a full 2-player random game (same seed) with subprocess bots over gRPC
(local.play) and in-process (play_match), with decisions per game, seconds, the ratio and
the match loop's share of the gRPC game (without bot start-up and shut-down); the gRPC
game's match loop against its floor (the in-process game + decisions × the bare median round
trip; target ≤ 1.3×); the SDK bot's round trip against the bare echo (target ≤ 1.25×); per
decision in the gRPC game, the referee's CPU time and context switches during the match loop
(getrusage RUSAGE_SELF) and the bot processes' (RUSAGE_CHILDREN, less a bot started and
stopped with no match, twice); and this process's peak RSS after the gRPC game, i.e. the
referee's (target ≤ 100 MB; the bots are other processes); then the gRPC game's match loop
per decision and a bot's start-up with every isolation layer this machine allows against
none (target ≤ 1.1× per decision; see `arena doctor`).

Every client is its own process on a unix socket (it runs this file with --client); the
rows take turns over several connections so that changing machine load hits them alike.
--profile adds an untimed round of referee exchanges and an untimed gRPC game under cProfile
and prints where the referee side spends its time in each.

Last, a remote bot's round trip over TCP on loopback, without and with TLS (a certificate
made by the openssl command), against the unix socket (``--remote-only``: just these rows).

    python benchmarks/referee.py [--exchanges N] [--seed S] [--profile] [--remote-only]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import dataclasses
import io
import itertools
import json
import os
import pstats
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

os.environ.setdefault("GRPC_VERBOSITY", "ERROR")  # before grpc loads: no fork() notices

import grpc

from arena.catalog import BotSpec, find_bot, load_bot
from arena.games import load
from arena.games.api import Game
from arena.paths import temporary_results_home
from arena.protocol import envelope
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.protocol._pb.riskarena.v1 import arena_pb2_grpc
from arena.referee import local
from arena.referee.host import BotHost
from arena.referee.match import MatchResult, TimeControl, play_match
from arena.referee.messages import Ask, Start
from arena.referee.seats import RemoteSeat, ask_to_pb
from arena.referee.server import MAX_MESSAGE_BYTES, Registry, start_server
from arena.sandbox.isolation import detect
from arena.sdk.bot import Answer, Bot, Request
from arena.sdk.client import ADDRESS_ENV, TLS_ROOTS_ENV, TOKEN_ENV

WARMUP = 300
"""Exchanges before timing starts on each connection (channel set-up, first allocations)."""
ROUNDS = 5
"""Each row's exchanges are split over this many connections, the rows taking turns."""
CONTROL = TimeControl(move_time=5, time_bank=60)
ALLOWANCE = CONTROL.move_time + CONTROL.time_bank  # what the match loop passes to ask()


# ------------------------------------------------------------ the position


def two_player_classic() -> Game[Any, Any, Any]:
    """The benchmark's game: classic RISK, default rules, two players."""
    return load("classic").configure({}, 2)


def mid_game_request(seed: int) -> tuple[Ask, pb.Action]:
    """A real attack decision from the middle of a random 2-player game as the match loop asks
    it of a seat, and the random answer given to it on the wire, built as the match loop
    builds them (view, options and the
    seat's redacted events since its previous request).

    The game is played twice, to count the attacks and then to stop at the middle one, so
    that no position is kept (this process's peak memory is the referee's figure)."""
    game = two_player_classic()

    def play(stop: int | None) -> int:
        rng = random.Random(seed)
        state = game.new_game(seed)
        pending: list[list[dict]] = [[], []]
        attacks = 0
        while (decision := game.decision(state)) is not None:
            seat = rng.choice(decision.seats)
            options = game.legal_options(state, seat)
            action = rng.choice(list(game.choices(options)))
            events, pending[seat] = pending[seat], []
            if decision.kind == "attack" and events:
                if attacks == stop:
                    found.append((seat, game.view(state, seat), options, events, action))
                    return attacks
                attacks += 1
            step = game.apply(state, seat, action)
            state = step.state
            for other, queue in enumerate(pending):
                queue.extend(game.redact(e, other) for e in step.events)
        return attacks

    found: list[tuple] = []
    play(play(None) // 2)
    seat, view, options, events, action = found[0]
    ask = Ask(
        game,
        "bench0000000",
        seat=seat,
        request_id=1,
        kind="attack",
        view=view,
        options=options,
        deadline_ms=int(ALLOWANCE * 1000),
        time_bank_ms=int(CONTROL.time_bank * 1000),
        events=events,
    )
    return ask, envelope.answer_to_pb("classic", 1, action)


# ---------------------------------------------------------------- clients


async def client_bare(address: str, answer: pb.Action, count: int) -> list[float]:
    """Send Actions to the echo server one at a time; the round trip of each, in seconds."""
    times = []
    async with grpc.aio.insecure_channel(address) as channel:
        call = arena_pb2_grpc.RefereeStub(channel).Play()
        for i in range(count):
            started = time.perf_counter()
            answer.request_id = i + 1
            await call.write(pb.BotMessage(action=answer))
            reply = await call.read()
            times.append(time.perf_counter() - started)
            assert reply.WhichOneof("message") == "decision"
        await call.done_writing()
    return times


async def client_minimal(address: str, token: str, answer: pb.Action) -> None:
    """Hello, then answer every DecisionRequest at once with ``answer`` (request_id echoed);
    over TLS when ``$ARENA_TLS_ROOTS`` names the roots, as the SDK does."""
    roots = os.environ.get(TLS_ROOTS_ENV)
    channel = (
        grpc.aio.secure_channel(address, grpc.ssl_channel_credentials(Path(roots).read_bytes()))
        if roots
        else grpc.aio.insecure_channel(address)
    )
    async with channel:
        call = arena_pb2_grpc.RefereeStub(channel).Play()
        hello = pb.Hello(
            token=token,
            bot_name="bench",
            bot_version="0",
            protocol_version=envelope.PROTOCOL_VERSION,
        )
        await call.write(pb.BotMessage(hello=hello))
        while (message := await call.read()) is not grpc.aio.EOF:
            if message.WhichOneof("message") == "decision":
                answer.request_id = message.decision.request_id
                await call.write(pb.BotMessage(action=answer))
        await call.done_writing()


class FixedBot(Bot):
    """An SDK bot that answers every request with the same decoded answer."""

    name = "fixed"
    version = "0"

    def __init__(self, answer: Answer) -> None:
        self.answer = answer

    def choose(self, request: Request) -> Answer:
        return self.answer


def run_client(args: argparse.Namespace) -> None:
    answer = pb.Action.FromString(bytes.fromhex(args.answer))
    if args.client == "bare":
        times = asyncio.run(client_bare(args.address, answer, args.count))
        json.dump(times, sys.stdout)
    elif args.client == "minimal":
        asyncio.run(client_minimal(os.environ[ADDRESS_ENV], os.environ[TOKEN_ENV], answer))
    else:
        FixedBot(envelope.answer_from_pb(two_player_classic(), answer)).run()


async def start_client(
    kind: str, answer: pb.Action, env: dict[str, str], *extra: str
) -> asyncio.subprocess.Process:
    """This file run with ``--client kind`` (``env`` added to the environment)."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(Path(__file__).resolve()),
        "--client",
        kind,
        "--answer",
        answer.SerializeToString().hex(),
        *extra,
        env={**os.environ, **env},
        stdout=asyncio.subprocess.PIPE,
    )


# ------------------------------------------------------------------ echo


class EchoServicer(arena_pb2_grpc.RefereeServicer):
    """Answers every BotMessage with the same RefereeMessage (nothing else), noting when each
    arrived; ends the stream after ``limit`` messages (when given)."""

    def __init__(self, reply: pb.RefereeMessage, limit: int | None = None) -> None:
        self.reply = reply
        self.limit = limit
        self.arrivals: list[float] = []

    async def Play(
        self, request_iterator: AsyncIterator[pb.BotMessage], context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.RefereeMessage]:
        async for _ in request_iterator:
            self.arrivals.append(time.perf_counter())
            if self.limit is not None and len(self.arrivals) > self.limit:
                return
            yield self.reply


async def echo_round_trips(
    request: pb.DecisionRequest, answer: pb.Action, count: int, workdir: Path, client: str
) -> tuple[list[float], list[float]]:
    """``count`` exchanges of the echo with a ``bare`` client or an ``sdk`` bot: the round
    trips timed by the client (none for the bot) and between arrivals at the server."""
    server = grpc.aio.server(
        options=[
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.max_send_message_length", 16 * MAX_MESSAGE_BYTES),
        ]
    )
    total = WARMUP + count
    echo = EchoServicer(pb.RefereeMessage(decision=request), total if client == "sdk" else None)
    arena_pb2_grpc.add_RefereeServicer_to_server(echo, server)
    address = f"unix:{workdir}/echo.sock"
    server.add_insecure_port(address)
    await server.start()
    try:
        if client == "bare":
            process = await start_client(
                "bare", answer, {}, "--address", address, "--count", str(total)
            )
        else:  # the Hello is answered with a decision too, and every answer after it
            process = await start_client(client, answer, {ADDRESS_ENV: address, TOKEN_ENV: "x"})
        out, _ = await process.communicate()
        if process.returncode != 0:
            raise SystemExit(f"the {client} echo client failed with code {process.returncode}")
        arrivals = echo.arrivals[WARMUP:]
        between = [b - a for a, b in itertools.pairwise(arrivals)]
        return (json.loads(out)[WARMUP:] if client == "bare" else []), between
    finally:
        await server.stop(0.5)


async def referee_round_trips(
    ask: Ask,
    answer: pb.Action,
    count: int,
    workdir: Path,
    client: str,
    profile: cProfile.Profile | None = None,
    address: str | None = None,
    tls: tuple[Path, Path] | None = None,
) -> list[float]:
    """Round trips through the referee's own path (the seat encodes each request, sends it,
    waits for the answer and reads it as the game's); on a unix socket, or on ``address``
    (TCP) and, with ``tls`` (certificate, key), over TLS as ``arena serve`` serves it."""
    registry = Registry()
    credentials = None
    env = {}
    if tls is not None:
        cert, key = tls
        credentials = grpc.ssl_server_credentials([(key.read_bytes(), cert.read_bytes())])
        env[TLS_ROOTS_ENV] = str(cert)
    server, target = await start_server(
        registry, address or f"unix:{workdir}/referee-{client}.sock", credentials=credentials
    )
    process = None
    try:
        token = registry.issue("bench")
        process = await start_client(client, answer, {ADDRESS_ENV: target, TOKEN_ENV: token, **env})
        session = await registry.wait(token, 30.0)
        if session is None:
            raise SystemExit(f"the {client} client did not connect")
        seat = RemoteSeat(session, None, "bench")
        names = ["bench0", "bench1"]
        await seat.start(Start(ask.game, ask.match_id, ask.seat, names, 1, 0, 0))
        times = []
        for i in range(WARMUP + count):
            if i == WARMUP and profile is not None:
                profile.enable()
            numbered = dataclasses.replace(ask, request_id=i + 1)
            started = time.perf_counter()
            reply = await seat.ask(numbered, ALLOWANCE)
            times.append(time.perf_counter() - started)
            if reply.answer is None:
                raise SystemExit(f"request {i + 1}: no answer ({reply.fault} {reply.detail})")
        if profile is not None:
            profile.disable()
        await seat.close()
        await process.communicate()
        return times[WARMUP:]
    finally:
        if process is not None and process.returncode is None:
            process.kill()
            await process.wait()
        await server.stop(0.5)


def make_certificate(workdir: Path) -> tuple[Path, Path] | None:
    """A self-signed certificate for 127.0.0.1 (by the openssl command), or None without it."""
    cert, key = workdir / "cert.pem", workdir / "key.pem"
    if shutil.which("openssl") is None:
        return None
    command = [
        "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        "-subj", "/CN=bench", "-addext", "subjectAltName=IP:127.0.0.1",
        "-keyout", str(key), "-out", str(cert),
    ]  # fmt: skip
    subprocess.run(command, check=True, capture_output=True)
    return cert, key


def remote_rows(ask: Ask, answer: pb.Action, exchanges: int) -> None:
    """A remote bot's round trip (the referee's path, minimal client in its own process) over
    TCP on loopback, without and with TLS, against the unix socket local bots use."""
    workdir = Path(tempfile.mkdtemp(prefix="arena-bench-"))
    try:
        tls = make_certificate(workdir)
        paths: list[tuple[str, str | None, tuple[Path, Path] | None]] = [
            ("unix socket (local bot)", None, None),
            ("TCP loopback (remote bot)", "127.0.0.1:0", None),
        ]
        if tls is not None:
            paths.append(("TCP loopback + TLS", "127.0.0.1:0", tls))
        samples: list[list[float]] = [[] for _ in paths]
        share = -(-exchanges // ROUNDS)
        for _ in range(ROUNDS):
            for i, (_, address, cert) in enumerate(paths):
                samples[i] += asyncio.run(
                    referee_round_trips(
                        ask, answer, share, workdir, "minimal", address=address, tls=cert
                    )
                )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print()
    print(
        f"remote bot round trip (referee path, minimal client): {exchanges} exchanges per row"
        + ("" if tls is not None else "; no openssl command, so no TLS row")
    )
    unix = statistics.median(samples[0])
    print(f"{'path':<28} {'median µs':>10} {'p99 µs':>8} {'×unix med':>9}")
    for (name, _, _), times in zip(paths, samples, strict=True):
        median = statistics.median(times)
        print(f"{name:<28} {median * 1e6:>10.0f} {p99(times) * 1e6:>8.0f} {median / unix:>9.2f}")


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98]


# ------------------------------------------------------------------ games


@dataclass
class Usage:
    """CPU seconds and context switches (voluntary and not) from one getrusage reading."""

    cpu: float
    switches: int

    @classmethod
    def now(cls, who: int) -> Usage:
        used = resource.getrusage(who)
        return cls(used.ru_utime + used.ru_stime, used.ru_nvcsw + used.ru_nivcsw)

    def __sub__(self, other: Usage) -> Usage:
        return Usage(self.cpu - other.cpu, self.switches - other.switches)


@dataclass
class GrpcGame:
    """One gRPC game: its result, seconds (whole and match loop alone), the referee's usage
    during the match loop, the bot processes' usage (start to exit), notes on retries."""

    result: MatchResult
    seconds: float
    loop_seconds: float | None
    referee: Usage
    bots: Usage
    notes: list[str]


def grpc_game(
    game: Game[Any, Any, Any],
    spec: BotSpec,
    seed: int,
    profile: cProfile.Profile | None = None,
) -> GrpcGame:
    """local.play with two subprocess bots, ``profile`` (if any) watching the match loop.

    A game whose bots did not all start is played again (at most twice) and noted."""
    notes: list[str] = []
    loop_times: list[float] = []
    referee: list[Usage] = []
    real_run_match = local.run_match

    async def timed_run_match(*args: object, **kwargs: object) -> MatchResult:
        before = Usage.now(resource.RUSAGE_SELF)
        started = time.perf_counter()
        if profile is not None:
            profile.enable()
        try:
            return await real_run_match(*args, **kwargs)  # type: ignore[arg-type]
        finally:
            if profile is not None:
                profile.disable()
            loop_times.append(time.perf_counter() - started)
            referee.append(Usage.now(resource.RUSAGE_SELF) - before)

    local.run_match = timed_run_match  # type: ignore[assignment]
    try:
        # the caller's results home (its key, so its bots' seeds) holds the bot logs
        for _ in range(3):
            loop_times.clear()
            referee.clear()
            children = Usage.now(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            result = local.play(game, [spec, spec], seed, CONTROL)
            seconds = time.perf_counter() - started
            bots = Usage.now(resource.RUSAGE_CHILDREN) - children
            failed = [
                f"seat {s.seat} {s.status}: {s.detail}" for s in result.seats if s.status != "OK"
            ]
            if not failed:
                break
            notes.append(f"gRPC game discarded and played again: {'; '.join(failed)}")
    finally:
        local.run_match = real_run_match
    return GrpcGame(
        result,
        seconds,
        loop_times[0] if loop_times else None,
        referee[0] if referee else Usage(0.0, 0),
        bots,
        notes,
    )


async def idle_bot_usage(spec: BotSpec) -> Usage:
    """What a bot process costs with no match: started, connected, its stream ended (to take
    start-up and shut-down out of the per-decision figures)."""
    with temporary_results_home("arena-bench-home-"):
        before = Usage.now(resource.RUSAGE_CHILDREN)
        async with BotHost() as host:
            seat, why = await host.connect(spec, "idle", CONTROL.startup_time)
            if seat is None:
                raise SystemExit(f"the {spec.name} bot did not start: {why}")
            await host.release(seat)
        return Usage.now(resource.RUSAGE_CHILDREN) - before


async def startup_seconds(spec: BotSpec, count: int) -> list[float]:
    """Seconds from starting a bot process to its Hello, ``count`` times."""
    times = []
    async with BotHost() as host:
        for i in range(count):
            started = time.perf_counter()
            seat, why = await host.connect(spec, f"startup-{i}", CONTROL.startup_time)
            times.append(time.perf_counter() - started)
            if seat is None:
                raise SystemExit(f"the {spec.name} bot did not start: {why}")
            await host.release(seat)
    return times


def isolation_rows(game: Game[Any, Any, Any], spec: BotSpec, seed: int) -> None:
    """The gRPC game's match loop per decision and a bot's start-up, with every isolation
    layer on against none, taking turns so that load changes hit both alike."""
    layers = [layer for layer in detect().layers if layer.active]
    if not layers:
        print("isolation: no layer is available here (see `arena doctor`); rows skipped")
        return
    per_decision: dict[str, list[float]] = {"off": [], "auto": []}
    startup: dict[str, list[float]] = {"off": [], "auto": []}
    with temporary_results_home("arena-bench-home-"):
        for _ in range(3):
            for value in ("off", "auto"):
                with mock.patch.dict(os.environ, {"ARENA_ISOLATION": value}):
                    played = grpc_game(game, spec, seed)
                    loop = played.loop_seconds or played.seconds
                    per_decision[value].append(loop / played.result.decisions)
                    startup[value] += asyncio.run(startup_seconds(spec, 4))
    print()
    names = ", ".join(layer.name for layer in layers)
    print(f"isolation layers on here: {names} (off: none), 3 games and 12 start-ups each")
    print(f"{'':<28} {'off':>10} {'on':>10} {'on/off':>7}")
    for what, values, unit, scale in (
        ("match loop per decision", per_decision, "µs", 1e6),
        ("bot start-up to Hello", startup, "ms", 1e3),
    ):
        off, on = statistics.median(values["off"]), statistics.median(values["auto"])
        print(
            f"{what + ' (' + unit + ')':<28} {off * scale:>10.0f} {on * scale:>10.0f} {on / off:>7.2f}"
        )
    ratio = statistics.median(per_decision["auto"]) / statistics.median(per_decision["off"])
    print(f"round trip with every layer on / off: {ratio:.2f}× (target ≤ 1.1×)")


# ------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exchanges", type=int, default=3000, help="timed round trips per row")
    parser.add_argument("--seed", type=int, default=1, help="the game's seed (and the position's)")
    parser.add_argument(
        "--profile", action="store_true", help="cProfile the referee side of the exchanges"
    )
    parser.add_argument(
        "--remote-only",
        action="store_true",
        help="only the remote bot's round trip (TCP, TLS) against the unix socket",
    )
    parser.add_argument("--client", choices=("bare", "minimal", "sdk"), help=argparse.SUPPRESS)
    parser.add_argument("--answer", help=argparse.SUPPRESS)
    parser.add_argument("--address", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        run_client(args)
        return

    ask, answer = mid_game_request(args.seed)
    request = ask_to_pb(ask)
    if args.remote_only:
        remote_rows(ask, answer, args.exchanges)
        return
    size = pb.RefereeMessage(decision=request).ByteSize()
    answer_size = pb.BotMessage(action=answer).ByteSize()
    print(
        f"decision round trip, unix socket, client in its own process: {args.exchanges} "
        f"exchanges per row over {ROUNDS} connections (after {WARMUP} warm-up each); "
        f"{request.kind} request {size} B "
        f"({len(request.events)} events), answer {answer_size} B; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    workdir = Path(tempfile.mkdtemp(prefix="arena-bench-"))
    profile = cProfile.Profile() if args.profile else None
    names = (
        "bare grpc.aio echo",
        "referee, minimal aio client",
        "referee, SDK bot (info)",
        "echo, SDK bot (at the server)",
    )
    samples: list[list[float]] = [[], [], [], []]
    bare_at_server: list[float] = []
    try:
        # Rows take turns in ROUNDS rounds so that a change in machine load hits them alike.
        share = -(-args.exchanges // ROUNDS)
        for _ in range(ROUNDS):
            timed, between = asyncio.run(echo_round_trips(request, answer, share, workdir, "bare"))
            samples[0] += timed
            bare_at_server += between
            samples[3] += asyncio.run(echo_round_trips(request, answer, share, workdir, "sdk"))[1]
            samples[1] += asyncio.run(referee_round_trips(ask, answer, share, workdir, "minimal"))
            samples[2] += asyncio.run(referee_round_trips(ask, answer, share, workdir, "sdk"))
        if profile is not None:  # a round of its own: profiling slows what it watches
            asyncio.run(
                referee_round_trips(ask, answer, args.exchanges, workdir, "minimal", profile)
            )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    rows = list(zip(names, samples, strict=True))
    bare_median, bare_p99 = statistics.median(rows[0][1]), p99(rows[0][1])
    print(f"{'path':<28} {'median µs':>10} {'p99 µs':>8} {'×bare med':>9} {'×bare p99':>9}")
    for name, times in rows:
        median, high = statistics.median(times), p99(times)
        print(
            f"{name:<28} {median * 1e6:>10.0f} {high * 1e6:>8.0f} "
            f"{median / bare_median:>9.2f} {high / bare_p99:>9.2f}"
        )
    ratio = statistics.median(rows[1][1]) / bare_median
    print(f"referee/bare median round trip: {ratio:.2f}× (target ≤ 1.3×)")

    # One results home (so one installation key, so the same bots' seeds) for the games
    # played both ways, their bots' logs and the isolation rows.
    with temporary_results_home("arena-bench-home-"):
        # A whole game: the same seed with subprocess bots over gRPC and with in-process bots.
        spec = find_bot("random")
        game = two_player_classic()
        started = time.perf_counter()
        inproc = play_match(game, [load_bot(spec), load_bot(spec)], args.seed, control=CONTROL)
        inproc_s = time.perf_counter() - started
        before_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        played = grpc_game(game, spec, args.seed)
        remote, remote_s, loop_s, retried = (
            played.result,
            played.seconds,
            played.loop_seconds,
            played.notes,
        )
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        same = (inproc.decisions, inproc.winner, inproc.end_reason, inproc.turns) == (
            remote.decisions,
            remote.winner,
            remote.end_reason,
            remote.turns,
        )
        print()
        print(
            f"2-player random game, seed {args.seed}, move_time={CONTROL.move_time:g} s, "
            f"time_bank={CONTROL.time_bank:g} s; same game both ways: {'yes' if same else 'NO'}"
        )
        for note in retried:
            print(f"note: {note}")
        print(f"{'seats':<34} {'decisions':>10} {'seconds':>8} {'µs/dec':>8} {'ratio':>6}")
        rows2 = [
            ("in-process (play_match)", inproc, inproc_s),
            ("gRPC subprocesses (local.play)", remote, remote_s),
        ]
        if loop_s is not None:
            rows2.append(("  of which the match loop", remote, loop_s))
        for name, result, seconds in rows2:
            print(
                f"{name:<34} {result.decisions:>10} {seconds:>8.2f} "
                f"{seconds / result.decisions * 1e6:>8.0f} {seconds / inproc_s:>6.2f}"
            )
        extra = ((loop_s or remote_s) - inproc_s) / remote.decisions * 1e6
        print(
            f"gRPC cost per decision ({'match loop' if loop_s else 'incl. start-up'}): {extra:.0f} µs"
        )
        floor = inproc_s + remote.decisions * bare_median
        print(
            f"gRPC game / its floor (in-process game + {remote.decisions} decisions × the bare "
            f"median round trip, {floor:.2f} s): {(loop_s or remote_s) / floor:.2f}× "
            f"(target ≤ 1.3×; {'match loop' if loop_s else 'incl. start-up'})"
        )
        sdk_ratio = statistics.median(rows[3][1]) / statistics.median(bare_at_server)
        print(
            f"SDK bot / bare client on the echo, median round trip timed at the server: "
            f"{sdk_ratio:.2f}× (target ≤ 1.25×; through the referee "
            f"{statistics.median(rows[2][1]) / bare_median:.2f}×)"
        )
        idle = asyncio.run(idle_bot_usage(spec))
        bots = played.bots - Usage(2 * idle.cpu, 2 * idle.switches)
        print(
            f"per decision in the gRPC game: referee {played.referee.cpu / remote.decisions * 1e6:.0f}"
            f" µs CPU, {played.referee.switches / remote.decisions:.1f} context switches (match "
            f"loop); bots {bots.cpu / remote.decisions * 1e6:.0f} µs CPU, "
            f"{bots.switches / remote.decisions:.1f} context switches (both processes, less "
            f"twice a bot's start-up and shut-down alone: {idle.cpu * 1e3:.0f} ms, "
            f"{idle.switches} switches)"
        )
        print()
        print(
            f"referee process peak RSS after the gRPC game: {peak_mb:.1f} MB (target ≤ 100 MB; "
            f"{before_mb:.1f} MB before it)"
        )
        isolation_rows(game, spec, args.seed)
        remote_rows(ask, answer, args.exchanges)

        if profile is not None:
            game_profile = cProfile.Profile()
            grpc_game(game, spec, args.seed, game_profile)  # untimed: profiling slows it
            for watched, what in ((profile, "the exchanges"), (game_profile, "the gRPC game")):
                print()
                for order in ("tottime", "cumulative"):
                    text = io.StringIO()
                    pstats.Stats(watched, stream=text).sort_stats(order).print_stats(25)
                    print(f"referee side of {what}, by {order}:")
                    print(text.getvalue().split("\n\n", 2)[-1].rstrip())
                    print()


if __name__ == "__main__":
    main()
