"""Never connects: ignores SIGTERM, starts a child that ignores it too, and sleeps. Only
SIGKILL to the whole process group ends them."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _shared import note_pid

CHILD = """
import os, signal, sys, time
sys.path.insert(0, sys.argv[1])
from _shared import note_pid
signal.signal(signal.SIGTERM, signal.SIG_IGN)
note_pid("child")
time.sleep(60)
"""

if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    note_pid()
    subprocess.Popen(
        [sys.executable, "-B", "-c", CHILD, str(Path(__file__).resolve().parent.parent)]
    )
    time.sleep(60)
