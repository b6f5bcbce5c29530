"""Hostile: before connecting, leaves a grandchild behind that called setsid (a double
fork), marked with ``$ARENA_TEST_MARK`` in its command line, meant to outlive the match;
then plays the defaults. Says the grandchild's pid on stderr (``HOSTILE {json}``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from arena.sdk import Bot

LINGER = "import time, sys; time.sleep(600)"


def main() -> None:
    mark = os.environ.get("ARENA_TEST_MARK", "arena-forker")
    middle = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import subprocess, sys; "
            f"p = subprocess.Popen([sys.executable, '-c', {LINGER!r}, {mark!r}], "
            "start_new_session=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, "
            "stderr=subprocess.DEVNULL); print(p.pid)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    out, _ = middle.communicate()
    print("HOSTILE " + json.dumps({"grandchild": int(out)}), file=sys.stderr, flush=True)
    Bot().run()


if __name__ == "__main__":
    main()
