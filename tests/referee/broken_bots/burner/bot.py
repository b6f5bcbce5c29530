"""Burns CPU while it thinks over its first decision, then plays at random. ARENA_TEST_MODE:
``burn`` spins in its own process until it has used ARENA_TEST_CPU seconds of CPU, ``fork``
spins that long in a child process it waits for (the child's CPU is then its reaper's).
CPU time, not wall time, bounds the spinning, so a busy machine makes it slower, not lighter."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _shared import MODE, RandomPlayer, note_pid

from arena.sdk import Answer, Request

CPU = float(os.environ.get("ARENA_TEST_CPU", "1.0"))


def spin(seconds: float) -> None:
    """Use ``seconds`` of this process's CPU."""
    until = time.process_time() + seconds
    while time.process_time() < until:
        pass


class Burner(RandomPlayer):
    name = "burner"
    burned = False

    def choose(self, request: Request) -> Answer:
        if not self.burned:
            self.burned = True
            if MODE == "burn":
                spin(CPU)
            elif MODE == "fork":
                code = f"import time\nuntil = time.process_time() + {CPU}\n"
                code += "while time.process_time() < until: pass\n"
                subprocess.run([sys.executable, "-c", code], check=True)
        return super().choose(request)


if __name__ == "__main__":
    note_pid()
    Burner().run()
