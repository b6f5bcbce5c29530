"""Dies where ARENA_TEST_PHASE says: ``start`` (before Hello), ``match_start`` (on MatchStart)
or a decision kind (``claim``, ``place``, ``attack``, ``fortify``, ...). ARENA_TEST_MODE says
how: ``exit`` (sys.exit(3), the default), ``raise`` (an uncaught exception) or ``kill``
(SIGKILL, no clean-up at all)."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _shared import MODE, PHASE, RandomPlayer, log, note_pid

from arena.sdk import Answer, MatchInfo, Request


def die(where: str) -> None:
    log("died.jsonl", {"where": where, "mode": MODE or "exit"})
    if MODE == "raise":
        raise RuntimeError(f"test crash in {where}")
    if MODE == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    sys.exit(3)


class Crasher(RandomPlayer):
    name = "crasher"

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        if PHASE == "match_start":
            die("match_start")

    def choose(self, request: Request) -> Answer:
        if request.kind == PHASE:
            die(request.kind)
        return super().choose(request)


if __name__ == "__main__":
    note_pid()
    if PHASE == "start":
        die("start")
    Crasher().run()
