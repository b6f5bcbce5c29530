"""Hostile: at its first decision (the match is on, its replay being written) it tries to
read every path in ``$ARENA_TEST_SPY`` (``os.pathsep``-separated: the live replay, the
results database, the installation key, ...) and the referee's environment, then plays the
defaults. What it could read goes to stderr as one ``HOSTILE {json}`` line.
"""

from __future__ import annotations

import json
import os
import sys

from arena.sdk import Answer, Bot, Request


def attempt(path: str) -> str:
    try:
        if os.path.isdir(path):
            return f"LISTED {len(os.listdir(path))}"
        with open(path, "rb") as f:
            return f"READ {len(f.read())}"
    except OSError as exc:
        return exc.__class__.__name__


class Spy(Bot):
    looked = False

    def choose(self, request: Request) -> Answer:
        if not self.looked:
            self.looked = True
            targets = [p for p in os.environ.get("ARENA_TEST_SPY", "").split(os.pathsep) if p]
            targets.append(f"/proc/{os.getppid()}/environ")
            report = {"uid": os.getuid(), "tried": {p: attempt(p) for p in targets}}
            print("HOSTILE " + json.dumps(report), file=sys.stderr, flush=True)
        return super().choose(request)


if __name__ == "__main__":
    Spy().run()
