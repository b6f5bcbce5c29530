"""A referee server and the bot processes connected to it.

The host starts bot processes, waits for their Hello, and hands out :class:`RemoteSeat` s.
A seat can be kept for the next match (a bot process plays many matches on one stream and
is restarted only when it dies) or released, which kills its process group. Closing the
host kills every process it started.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

import grpc

from arena.bots import BotSpec, bot_environment, command_argv, run_setup
from arena.paths import results_home
from arena.referee.launcher import BotProcess, Limits, launch
from arena.referee.seats import RemoteSeat
from arena.referee.server import Registry, Session, start_server
from arena.sdk.client import ADDRESS_ENV, TOKEN_ENV


def logs_dir() -> Path:
    """Where bots' stderr logs go: ``results/logs/``."""
    return results_home() / "logs"


class BotHost:
    """Serves gRPC on a private unix socket (or ``address``) and runs bot processes."""

    def __init__(self, address: str | None = None, limits: Limits | None = None) -> None:
        self.address = address
        self.limits = limits or Limits()
        self.registry = Registry()
        self.processes: list[BotProcess] = []
        self._workdir: Path | None = None
        self._server: grpc.aio.Server | None = None
        self.target = ""

    async def open(self) -> BotHost:
        self._workdir = Path(tempfile.mkdtemp(prefix="arena-"))
        address = self.address or f"unix:{self._workdir}/referee.sock"
        try:
            self._server, self.target = await start_server(self.registry, address)
        except BaseException:  # e.g. an address that cannot be served on: leave nothing
            await self.close()
            raise
        return self

    async def __aenter__(self) -> BotHost:
        return await self.open()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(
        self, spec: BotSpec, log_name: str, startup_time: float
    ) -> tuple[RemoteSeat | None, str]:
        """Start ``spec`` and wait for its Hello: the seat, or None and why it failed."""
        if spec.command is None:
            return None, "the bot has no command to start it"
        run_setup(spec)
        token = self.registry.issue(log_name)
        process = await launch(
            command_argv(spec),
            spec.path,
            {**bot_environment(), ADDRESS_ENV: self.target, TOKEN_ENV: token},
            logs_dir() / f"{log_name}.log",
            self.limits,
        )
        self.processes.append(process)
        session = await _connected(self.registry, token, process, startup_time)
        if session is None:
            why = (
                f"exited with code {process.process.returncode} before connecting"
                if process.exited
                else f"did not connect within {startup_time:g} s"
            )
            await self._end(process)
            return None, why
        return RemoteSeat(session, process, spec.name), ""

    @staticmethod
    def alive(seat: RemoteSeat) -> bool:
        """Whether the seat's stream and process are still up (so it can play again)."""
        process = seat.process
        return seat.session.closed is None and (process is None or not process.exited)

    async def release(self, seat: RemoteSeat) -> None:
        """End the seat's stream and its process group."""
        await seat.close()
        if seat.process is not None:
            await self._end(seat.process)

    async def _end(self, process: BotProcess) -> None:
        if not await process.wait_exit(1.0):
            await process.kill()
        else:
            await process.kill(grace=0)
        if process in self.processes:
            self.processes.remove(process)

    async def close(self) -> None:
        """Kill every process this host started and stop serving."""
        for process in list(self.processes):
            await self._end(process)
        if self._server is not None:
            await self._server.stop(0.5)
            self._server = None
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)
            self._workdir = None


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
