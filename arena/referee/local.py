"""A match on this machine: serve gRPC, start the bots as processes, play, clean up.

Bots given as :class:`BotSpec` run as their own processes and connect over a unix socket
(or TCP when an address is given); bots given as :class:`Bot` objects play in-process. Every
process started is killed with its whole process group when the match ends.
"""

from __future__ import annotations

import asyncio
import signal
import threading
import uuid
from pathlib import Path
from types import FrameType
from typing import Any

from arena.catalog import BotSpec
from arena.games.api import Game
from arena.referee.host import BotHost, logs_dir
from arena.referee.match import (
    DEFAULT_STRIKE_LIMIT,
    MatchResult,
    MatchSettings,
    Seat,
    TimeControl,
    run_match,
)
from arena.referee.seats import InProcessSeat, RemoteSeat
from arena.sandbox.launcher import Limits
from arena.sdk.bot import Bot
from arena.statuses import SeatStatus
from arena.terminal import Interrupted

__all__ = ["logs_dir", "play", "play_local_match", "seat_log"]


def seat_log(match_id: str, seat: int, spec: BotSpec) -> Path:
    """Where the stderr of the bot process in ``seat`` of match ``match_id`` goes."""
    return logs_dir() / f"{_log_name(match_id, seat, spec)}.log"


def _log_name(match_id: str, seat: int, spec: BotSpec) -> str:
    return f"{match_id}-seat{seat}-{spec.path.name}"


async def play_local_match(
    game: Game[Any, Any, Any],
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
    names = [(p.name, p.version) for p in players]
    seats: list[Seat | None] = [None] * len(players)
    absent: dict[int, tuple[SeatStatus, str]] = {}
    async with BotHost(address, limits) as host:
        remote = {s: p for s, p in enumerate(players) if isinstance(p, BotSpec)}
        connections = await asyncio.gather(
            *(
                host.connect(spec, _log_name(match_id, s, spec), control.startup_time)
                for s, spec in remote.items()
            )
        )
        for (seat, _), (handle, why) in zip(remote.items(), connections, strict=True):
            if handle is None:
                absent[seat] = (SeatStatus.INIT_FAIL, why)
            seats[seat] = handle
        for seat, player in enumerate(players):
            if isinstance(player, Bot):
                seats[seat] = InProcessSeat(player, player.name, player.version)
        try:
            settings = MatchSettings(control, strike_limit, replay_path, match_id, untimed)
            return await run_match(game, seats, seed, names, settings, absent)
        finally:
            for joined in seats:
                if isinstance(joined, RemoteSeat):
                    await host.release(joined)


def play(
    game: Game[Any, Any, Any],
    players: list[BotSpec | Bot],
    seed: int,
    control: TimeControl,
    replay_path: Path | None = None,
    strike_limit: int = DEFAULT_STRIKE_LIMIT,
    address: str | None = None,
    untimed: frozenset[int] = frozenset(),
) -> MatchResult:
    """Synchronous :func:`play_local_match`; Ctrl-C raises KeyboardInterrupt after a clean stop.

    The first Ctrl-C cancels the match once and lets it shut down (bot processes ended, the
    gRPC server stopped) before KeyboardInterrupt is raised; more presses during that bounded
    shutdown are ignored. ``asyncio.run``'s own handler raises on a second press wherever the
    loop happens to be, and then cancels the match again while it is closing the host: the
    server is never stopped, and grpc's ``Server.__del__`` later schedules its shutdown on the
    closed loop ("Exception ignored … Event loop is closed"). Ctrl-C at the human seat's
    prompt ends the match through :class:`~arena.terminal.Interrupted` the same way.
    """
    pressed = False
    task: asyncio.Task[MatchResult] | None = None

    async def main() -> MatchResult:
        nonlocal task
        task = asyncio.current_task()
        if pressed:
            raise asyncio.CancelledError
        return await play_local_match(
            game, players, seed, control, replay_path, strike_limit, address, untimed=untimed
        )

    def on_sigint(signum: int, frame: FrameType | None) -> None:
        nonlocal pressed
        if pressed:
            return
        pressed = True
        if task is not None and not task.done():
            task.cancel()
            task.get_loop().call_soon_threadsafe(lambda: None)  # wake a waiting select()

    previous = None
    main_thread = threading.current_thread() is threading.main_thread()
    if main_thread and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        with asyncio.Runner() as runner:
            return runner.run(main())
    except (asyncio.CancelledError, Interrupted) as exc:
        if pressed or isinstance(exc, Interrupted):
            raise KeyboardInterrupt from None
        raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
