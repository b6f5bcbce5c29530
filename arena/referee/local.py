"""A match on this machine: serve gRPC, start the bots as processes, play, clean up.

Bots given as :class:`BotSpec` run as their own processes and connect over a unix socket
(or TCP when an address is given); bots given as :class:`Bot` objects play in-process. Every
process started is killed with its whole process group when the match ends.
"""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

from arena.bots import BotSpec
from arena.games.classic.rules import ClassicRules
from arena.referee.host import BotHost, logs_dir
from arena.referee.launcher import Limits
from arena.referee.match import (
    DEFAULT_STRIKE_LIMIT,
    MatchResult,
    Seat,
    TimeControl,
    run_match,
)
from arena.referee.seats import InProcessSeat
from arena.referee.statuses import SeatStatus
from arena.sdk.bot import Bot

__all__ = ["logs_dir", "play", "play_local_match"]


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
    names = [(p.name, p.version) for p in players]
    seats: list[Seat | None] = [None] * len(players)
    absent: dict[int, tuple[SeatStatus, str]] = {}
    async with BotHost(address, limits) as host:
        remote = {s: p for s, p in enumerate(players) if isinstance(p, BotSpec)}
        connections = await asyncio.gather(
            *(
                host.connect(spec, f"{match_id}-seat{s}-{spec.path.name}", control.startup_time)
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
            for handle in seats:
                if handle is not None and not isinstance(handle, InProcessSeat):
                    await host.release(handle)  # type: ignore[arg-type]


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
