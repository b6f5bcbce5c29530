"""Writes 5 MiB to stderr before connecting, then plays randomly."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _shared import RandomPlayer, note_pid

if __name__ == "__main__":
    note_pid()
    line = b"noise " * 170 + b"\n"  # 1 KiB
    for _ in range(5 * 1024):
        sys.stderr.buffer.write(line)
    sys.stderr.flush()
    player = RandomPlayer()
    player.name = "noisy"
    player.run()
