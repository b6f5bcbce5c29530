"""With its first answer sends a debug text over 1 MiB (ARENA_TEST_MODE ``over``, the
default), or just under 1 MiB (``under``: allowed; this bot must finish OK)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _shared import MODE, RandomPlayer, log, note_pid

from arena.sdk import Answer, Request

MIB = 1 << 20


class Oversized(RandomPlayer):
    name = "oversized"
    sent = False

    def choose(self, request: Request) -> Answer:
        if not self.sent:
            self.sent = True
            size = MIB - 64 if MODE == "under" else MIB + 64
            self.debug("x" * size)
            log("sent.jsonl", {"request_id": request.request_id, "size": size})
        return super().choose(request)


if __name__ == "__main__":
    note_pid()
    Oversized().run()
