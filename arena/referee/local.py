"""A match on this machine: serve gRPC, start the bots as processes, play, clean up.

Bots given as :class:`BotSpec` run as their own processes and connect over a unix socket
(or TCP when an address is given); bots given as :class:`Bot` objects play in-process. Every
process started is killed with its whole process group when the match ends.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import uuid
from pathlib import Path

from arena.bots import BotSpec, run_setup
from arena.games.classic.rules import ClassicRules
from arena.paths import results_home
from arena.referee.launcher import BotProcess, Limits, launch, split_command
from arena.referee.match import (
    DEFAULT_STRIKE_LIMIT,
    MatchResult,
    Seat,
    TimeControl,
    run_match,
)
from arena.referee.seats import InProcessSeat, RemoteSeat
from arena.referee.server import Registry, Session, start_server
from arena.referee.statuses import SeatStatus
from arena.sdk.bot import Bot
from arena.sdk.client import ADDRESS_ENV, TOKEN_ENV


def logs_dir() -> Path:
    """Where bots' stderr logs go: ``results/logs/``."""
    return results_home() / "logs"


async def play_local_match(
    rules: ClassicRules,
    players: list[BotSpec | Bot],
    seed: int,
    control: TimeControl,
    replay_path: Path | None = None,
    strike_limit: int = DEFAULT_STRIKE_LIMIT,
    address: str | None = None,
    limits: Limits | None = None,
    untimed: frozenset[int] = frozenset(),
) -> MatchResult:
    """Play one match; subprocess bots for specs, in-process seats for Bot objects."""
    match_id = uuid.uuid4().hex[:12]
    workdir = Path(tempfile.mkdtemp(prefix="arena-"))
    registry = Registry()
    target_address = address or f"unix:{workdir}/referee.sock"
    server, target = await start_server(registry, target_address)
    processes: dict[int, BotProcess] = {}
    seats: list[Seat | None] = [None] * len(players)
    names: list[tuple[str, str]] = []
    absent: dict[int, tuple[SeatStatus, str]] = {}
    try:
        tokens: dict[int, str] = {}
        for seat, player in enumerate(players):
            if isinstance(player, Bot):
                seats[seat] = InProcessSeat(player, player.name, player.version)
                names.append((player.name, player.version))
                continue
            names.append((player.name, player.version))
            if player.command is None:
                absent[seat] = (SeatStatus.INIT_FAIL, "the bot has no command to start it")
                continue
            run_setup(player)
            tokens[seat] = registry.issue(f"seat {seat}")
            log = logs_dir() / f"{match_id}-seat{seat}-{player.path.name}.log"
            processes[seat] = await launch(
                split_command(player.command),
                player.path,
                {ADDRESS_ENV: target, TOKEN_ENV: tokens[seat]},
                log,
                limits or Limits(),
            )
        waits = {
            s: _connected(registry, t, processes[s], control.startup_time)
            for s, t in tokens.items()
        }
        sessions = dict(zip(waits, await asyncio.gather(*waits.values()), strict=True))
        for seat, session in sessions.items():
            if session is None:
                process = processes[seat]
                why = (
                    f"exited with code {process.process.returncode} before connecting"
                    if process.exited
                    else f"did not connect within {control.startup_time:g} s"
                )
                absent[seat] = (SeatStatus.INIT_FAIL, why)
            else:
                seats[seat] = RemoteSeat(session, processes[seat], names[seat][0])
        return await run_match(
            rules,
            seats,
            seed,
            names,
            control,
            replay_path,
            strike_limit,
            match_id,
            absent,
            untimed=untimed,
        )
    finally:
        for seat in seats:
            if isinstance(seat, RemoteSeat):
                await seat.close()
        for process in processes.values():
            if not await process.wait_exit(1.0):
                await process.kill()
            else:
                await process.kill(grace=0)
        await server.stop(0.5)
        shutil.rmtree(workdir, ignore_errors=True)


async def _connected(
    registry: Registry, token: str, process: BotProcess, timeout: float
) -> Session | None:
    """The bot's session, or None if it exits or does not connect within ``timeout`` s."""
    session = asyncio.ensure_future(registry.wait(token, timeout))
    exited = asyncio.ensure_future(process.process.wait())
    await asyncio.wait((session, exited), return_when=asyncio.FIRST_COMPLETED)
    exited.cancel()
    if session.done():
        return session.result()
    session.cancel()
    # It exited: it may still have said Hello just before.
    return await registry.wait(token, 0)


def play(
    rules: ClassicRules,
    players: list[BotSpec | Bot],
    seed: int,
    control: TimeControl,
    replay_path: Path | None = None,
    strike_limit: int = DEFAULT_STRIKE_LIMIT,
    address: str | None = None,
    untimed: frozenset[int] = frozenset(),
) -> MatchResult:
    """Synchronous :func:`play_local_match`."""
    return asyncio.run(
        play_local_match(
            rules, players, seed, control, replay_path, strike_limit, address, untimed=untimed
        )
    )
