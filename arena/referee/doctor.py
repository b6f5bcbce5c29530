"""``arena doctor``: which protections bot processes get on this machine, and why not.

Each line is one check: the isolation layers (:mod:`arena.sandbox.isolation`), what follows
from them (session binding, network, descendants, the results folder), the installation
key, the limits, and a trial start of a bundled bot under every layer in force.
"""

from __future__ import annotations

import asyncio
import os
import resource
import stat
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from arena.catalog import bundled_bots
from arena.errors import ArenaError
from arena.keys import KEY_ENV, KEY_FILE
from arena.paths import results_home, temporary_results_home
from arena.referee.host import BotHost
from arena.referee.match import TimeControl
from arena.sandbox import cgroups
from arena.sandbox.isolation import NAMESPACES, USERS, Isolation, detect
from arena.sandbox.launcher import Limits, reachable_by_others

ON, OFF, WARN, FAIL = "on", "off", "warn", "fail"


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    state: str
    """``on``/``off`` for a protection, ``warn`` for something to set up, ``fail`` for a
    protection asked for that is not there."""
    detail: str


def _layers() -> tuple[Isolation | None, list[Check]]:
    try:
        isolation = detect()
    except ArenaError as exc:
        return None, [Check("isolation", FAIL, str(exc))]
    return isolation, [
        Check(f"layer: {layer.name}", ON if layer.active else OFF, layer.why)
        for layer in isolation.layers
    ]


def _consequences(isolation: Isolation) -> list[Check]:
    on = {layer.name for layer in isolation.layers if layer.active}
    checks = []
    if on:
        checks.append(
            Check(
                "session binding",
                ON,
                "each bot process has its own referee socket, which only it can reach; its "
                "token works nowhere else (with --address all bots share one server and the "
                "token alone identifies a seat)",
            )
        )
    else:
        checks.append(
            Check(
                "session binding",
                OFF,
                "bots run as the referee's user: one can read another's token from "
                "/proc/<pid>/environ and reach its socket",
            )
        )
    if NAMESPACES in on:
        checks.append(
            Check(
                "network",
                ON,
                "no network inside the sandbox on the default unix socket (with --address "
                "HOST:PORT the sandbox shares the host's network so bots can reach it)",
            )
        )
        descendants = "killed with the sandbox's PID namespace when the seat ends"
    else:
        checks.append(Check("network", OFF, "bots can use the host's network"))
        descendants = (
            "every process of the seat's uid is killed when the seat ends"
            if USERS in on
            else "the process group is killed; a child that calls setsid outlives its seat"
        )
    checks.append(Check("descendants", ON if on else WARN, descendants))
    if USERS in on and NAMESPACES not in on:
        import arena

        package = Path(arena.__file__).parent
        for what, path in (("interpreter", Path(sys.executable)), ("package", package)):
            why = reachable_by_others(path)
            if why is not None:
                checks.append(
                    Check(
                        f"seat users: {what}",
                        WARN,
                        f"{why}: Python bots run as the referee's user until it is (or "
                        "install bubblewrap, whose mounts make it reachable)",
                    )
                )
    return checks


def _results(isolation: Isolation | None) -> list[Check]:
    home = results_home()
    checks = []
    if home.exists():
        mode = stat.S_IMODE(home.stat().st_mode)
        private = not mode & 0o077
        detail = f"{home} has mode {mode:04o}"
        if isolation is not None and isolation.seat_users and not private:
            detail += " (tightened to 0700 when bots start: seat users must not open it)"
        checks.append(Check("results folder", ON if private else WARN, detail))
    if os.environ.get(KEY_ENV):
        checks.append(Check("installation key", ON, f"from ${KEY_ENV}"))
    else:
        key = home / KEY_FILE
        if key.exists():
            mode = stat.S_IMODE(key.stat().st_mode)
            state = ON if not mode & 0o077 else WARN
            checks.append(Check("installation key", state, f"{key} has mode {mode:04o}"))
        else:
            checks.append(Check("installation key", ON, f"{key} is made on first use (0600)"))
    return checks


def _limits() -> list[Check]:
    limits = Limits()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return [
        Check(
            "bot limits",
            ON,
            f"{limits.memory_mb} MiB address space, {limits.cpu_seconds} CPU seconds, "
            f"{limits.processes} processes (per seat user), {limits.open_files} open files, "
            "no core files",
        ),
        Check("referee descriptors", ON, f"{soft} open files allowed here (hard limit {hard})"),
    ]


async def _trial(isolation: Isolation) -> Check:
    """Start the bundled random bot under the layers and time its connection."""
    found = [spec for spec in bundled_bots() if spec.name == "random"]
    if not found:
        return Check("trial", WARN, "no bundled random bot to try")
    startup = TimeControl().startup_time
    with temporary_results_home("arena-doctor-"):  # the trial's log and setup marks
        started = time.perf_counter()
        async with BotHost(isolation=isolation) as host:
            seat, why = await host.connect(found[0], "doctor-trial", startup)
            took = time.perf_counter() - started
            if seat is None:
                return Check("trial", FAIL, f"the bundled random bot did not start: {why}")
            await host.release(seat)
    return Check(
        "trial",
        ON,
        f"the bundled random bot connected in {took:.2f} s under these layers "
        f"(startup time {startup:g} s)",
    )


def fairness_check() -> Check:
    """Whether each bot process runs in a cgroup of its own with a CPU and memory limit
    (:mod:`arena.sandbox.cgroups`): off, a bot burning CPU can slow its opponents."""
    fair = cgroups.fairness()
    if fair.active:
        why = f"{fair.why}: cpu.max {cgroups.CPU_MAX!r} (one core) and memory.max each"
        return Check("cpu fairness", ON, why)
    return Check("cpu fairness", OFF, f"{fair.why}; CPU seconds are still measured per seat")


def fairness_line() -> str:
    """``arena serve``'s start-up words on CPU fairness."""
    return cgroups.fairness().line()


def diagnose(trial: bool = True) -> list[Check]:
    """Every check, in the order shown."""
    isolation, checks = _layers()
    checks.append(fairness_check())
    if isolation is not None:
        checks += _consequences(isolation)
    checks += _results(isolation)
    checks += _limits()
    if trial and isolation is not None:
        checks.append(asyncio.run(_trial(isolation)))
    return checks


def render(checks: list[Check]) -> str:
    width = max(len(c.name) for c in checks)
    return "\n".join(f"{c.name:<{width}}  {c.state:<4}  {c.detail}" for c in checks)


def as_json(checks: list[Check]) -> list[dict[str, str]]:
    return [asdict(c) for c in checks]
