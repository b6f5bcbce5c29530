"""Whether a process still runs: the scheduler's liveness checks (a tournament's runner, a
pool's owner) share one answer, zombies included."""

from __future__ import annotations

import os
from pathlib import Path


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs on this host (a zombie has ended)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OverflowError:
        return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # no /proc (not Linux): the signal check is all there is
    return stat[stat.rindex(")") + 2 :][:1] not in ("Z", "X")
