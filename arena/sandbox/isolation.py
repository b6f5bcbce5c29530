"""Which isolation layers protect bot processes on this machine, and why the others do not.

Two layers, each detected once per process and reported by ``arena doctor``:

- **seat users**: when the referee runs as root, every bot process runs as an unprivileged
  user of its own, taken from a uid range (:mod:`arena.sandbox.seat_users`), so no bot can
  read another's ``/proc/<pid>/environ``, signal another's processes or open the results;
- **namespaces**: where bubblewrap (``bwrap``) works, every bot process runs in its own PID,
  IPC, UTS and (with the referee on a unix socket) network namespace, and sees only a
  read-only system, its interpreter, its own folder, its private home and its own referee
  socket (:mod:`arena.sandbox.bubblewrap`).

``$ARENA_ISOLATION`` chooses: ``auto`` (the default: every layer the machine allows),
``off`` (none), or a comma list of layer names (``users``, ``namespaces``): exactly those,
and an error naming the reason when one of them is not available here.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from dataclasses import dataclass

from arena.errors import ArenaError

ISOLATION_ENV = "ARENA_ISOLATION"
"""Which layers to use: ``auto`` (default), ``off``, or a comma list of layer names."""
SEAT_UIDS_ENV = "ARENA_SEAT_UIDS"
"""The uid range seat users are taken from, ``FIRST-LAST`` (default :data:`DEFAULT_UIDS`)."""
DEFAULT_UIDS = (1_900_000_000, 1_900_000_999)
"""Default seat uids: far above any login user's and below 2³¹ (some tools mishandle more)."""

USERS = "users"
NAMESPACES = "namespaces"
LAYERS = (USERS, NAMESPACES)


@dataclass(frozen=True, slots=True)
class Layer:
    """One isolation layer: whether it is on here, and why (or why not)."""

    name: str
    active: bool
    why: str


@dataclass(frozen=True, slots=True)
class Isolation:
    """The layers in force for the bot processes this referee starts."""

    uids: tuple[int, int] | None
    """The seat-user uid range, when that layer is on."""
    bwrap: str | None
    """bubblewrap's path, when the namespace layer is on."""
    layers: tuple[Layer, ...]
    strict: bool = False
    """The layers were named in ``$ARENA_ISOLATION``: a bot they cannot run is refused
    instead of run with fewer layers."""

    @property
    def seat_users(self) -> bool:
        return self.uids is not None


def parse_uids(text: str) -> tuple[int, int]:
    """``FIRST-LAST`` as a uid range; an :class:`ArenaError` saying the form otherwise."""
    first, dash, last = text.partition("-")
    if not (dash and first.strip().isdigit() and last.strip().isdigit()):
        raise ArenaError(
            f"${SEAT_UIDS_ENV}={text!r}: expected FIRST-LAST, e.g. 1900000000-1900000999"
        )
    low, high = int(first), int(last)
    if not 1000 <= low <= high < 2**32 - 1:
        raise ArenaError(f"${SEAT_UIDS_ENV}={text!r}: expected 1000 <= FIRST <= LAST < 4294967295")
    return low, high


def uid_range() -> tuple[int, int]:
    """The seat-user uids ``$ARENA_SEAT_UIDS`` names, or :data:`DEFAULT_UIDS`."""
    value = os.environ.get(SEAT_UIDS_ENV)
    return parse_uids(value) if value else DEFAULT_UIDS


def requested() -> frozenset[str] | None:
    """The layers ``$ARENA_ISOLATION`` asks for; None for ``auto`` (whatever is available)."""
    value = os.environ.get(ISOLATION_ENV, "auto").strip().lower() or "auto"
    if value == "auto":
        return None
    if value == "off":
        return frozenset()
    names = frozenset(part.strip() for part in value.split(",") if part.strip())
    unknown = sorted(names - set(LAYERS))
    if unknown:
        raise ArenaError(
            f"${ISOLATION_ENV}={value!r}: unknown layer {unknown[0]!r}; expected auto, off "
            f"or a comma list of {', '.join(LAYERS)}"
        )
    return names


def _users_layer() -> Layer:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return Layer(USERS, False, "the referee does not run as root, so it cannot switch users")
    try:
        low, high = uid_range()
    except ArenaError as exc:
        return Layer(USERS, False, str(exc))
    return Layer(USERS, True, f"running as root: each bot process gets a uid of {low}-{high}")


PROBE = ("--unshare-pid", "--unshare-net", "--ro-bind", "/", "/", "--proc", "/proc", "true")
"""A bubblewrap run that needs what the sandbox needs: new PID and network namespaces."""


@functools.cache
def _namespaces_layer() -> tuple[Layer, str | None]:
    """Whether bubblewrap works here: tried once per process."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return Layer(NAMESPACES, False, "bubblewrap (bwrap) is not installed"), None
    try:
        probe = subprocess.run(
            [bwrap, *PROBE], capture_output=True, timeout=30, check=False, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Layer(NAMESPACES, False, f"{bwrap} cannot run: {exc}"), None
    if probe.returncode != 0:
        said = probe.stderr.decode(errors="replace").strip().splitlines()
        why = said[-1] if said else f"it exited {probe.returncode}"
        return Layer(NAMESPACES, False, f"{bwrap} cannot make namespaces here: {why}"), None
    return Layer(NAMESPACES, True, f"{bwrap}: own PID, IPC, UTS and network namespaces"), bwrap


def detect() -> Isolation:
    """The layers in force here, as ``$ARENA_ISOLATION`` asks and the machine allows.

    A layer asked for by name that the machine does not allow is an :class:`ArenaError`
    giving the reason (a tournament that wants a guarantee does not run without it).
    """
    wanted = requested()
    users = _users_layer()
    namespaces, bwrap = _namespaces_layer()
    layers = []
    for layer in (users, namespaces):
        if wanted is not None and layer.name not in wanted:
            layer = Layer(layer.name, False, f"turned off by ${ISOLATION_ENV}")
        elif wanted is not None and not layer.active:
            raise ArenaError(f"isolation layer {layer.name!r} is not available: {layer.why}")
        layers.append(layer)
    on = {layer.name for layer in layers if layer.active}
    uids = uid_range() if USERS in on else None
    return Isolation(uids, bwrap if NAMESPACES in on else None, tuple(layers), bool(wanted))
