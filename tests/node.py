"""What the JavaScript bots' tests need to know of the machine's Node.js."""

from __future__ import annotations

import subprocess


def node_major() -> int | None:
    """The major version of ``node`` on PATH, or None without a working one."""
    try:
        out = subprocess.run(
            ["node", "--version"], capture_output=True, text=True, timeout=30, check=True
        ).stdout
        return int(out.strip().lstrip("v").split(".")[0])
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
