"""Answers illegally in the decisions of kind ARENA_TEST_PHASE (every kind when unset).

ARENA_TEST_MODE: ``index`` (default) answers option 9999; ``action`` answers an action of the
wrong kind; ``malformed`` a trade of two cards (cannot even be decoded); ``retry`` answers
9999 once, then plays legally after the rejection. Every answer given and every rejection
reason received is logged."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from _shared import MODE, PHASE, RandomPlayer, log, note_pid

from arena.sdk import Answer, Claim, Fortify, Request, Trade


class Illegal(RandomPlayer):
    name = "illegal"
    rejections = 0
    request_id = 0

    def choose(self, request: Request) -> Answer:
        assert self.match is not None
        self.request_id = request.request_id
        if (PHASE and request.kind != PHASE) or (MODE == "retry" and self.rejections):
            return super().choose(request)
        answer: Answer
        if MODE == "action":
            answer = Claim(0) if request.kind != "claim" else Fortify(0, 1, 1)
        elif MODE == "malformed":
            answer = Trade((1, 2))  # type: ignore[arg-type]
        else:
            answer = 9999
        log(
            f"answers-{self.match.seat}.jsonl",
            {"request_id": request.request_id, "answer": repr(answer)},
        )
        return answer

    def rejected(self, reason: str) -> None:
        assert self.match is not None
        self.rejections += 1
        log(
            f"rejections-{self.match.seat}.jsonl", {"request_id": self.request_id, "reason": reason}
        )


if __name__ == "__main__":
    note_pid()
    Illegal().run()
