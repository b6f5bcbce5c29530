"""Answers late. ARENA_TEST_MODE: ``always`` sleeps ARENA_TEST_SLEEP seconds before every
answer, ``once`` only before its first, ``slow`` before every answer (meant to be a little over
the move time, so the bank pays until it is spent), ``flagged`` before every answer while the
file ``$ARENA_TEST_OUT/slow`` exists (so a test can make one match slow and not the next),
``freeze`` stops its own process (SIGSTOP) at its first decision while that file exists, after
removing it. ARENA_TEST_PHASE, when set, limits the sleeping to decisions of that kind. Every
request's clock fields are logged."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _shared import MODE, PHASE, RandomPlayer, log, note_pid, out_path

from arena.sdk import Answer, Request

SLEEP = float(os.environ.get("ARENA_TEST_SLEEP", "0.5"))


class Sleeper(RandomPlayer):
    name = "sleeper"
    answered = 0

    def choose(self, request: Request) -> Answer:
        assert self.match is not None
        log(
            f"requests-{self.match.seat}.jsonl",
            {
                "request_id": request.request_id,
                "deadline_ms": request.deadline_ms,
                "time_bank_ms": request.time_bank_ms,
            },
        )
        if PHASE and request.kind != PHASE:
            return super().choose(request)
        self.answered += 1
        flag = out_path("slow")
        flagged = flag is not None and flag.exists()
        slow = MODE in ("always", "slow") or (MODE == "once" and self.answered == 1)
        if slow or (MODE == "flagged" and flagged):
            time.sleep(SLEEP)
        elif MODE == "freeze" and flagged:
            assert flag is not None
            flag.unlink()
            os.kill(os.getpid(), signal.SIGSTOP)
        return super().choose(request)


if __name__ == "__main__":
    note_pid()
    Sleeper().run()
