"""``arena submit FOLDER --to URL``: pack a bot folder and upload it to a hosted arena with
the author's token (``$ARENA_AUTHOR_TOKEN``), optionally waiting for its build and check.

Prints ``submission ID STATUS`` (``--json``: the arena's JSON answers, one a line). Exit 0
uploaded (with ``--wait``: accepted), 1 rejected (``--wait``), 2 anything that stopped it (no
token, a folder that cannot be packed, the arena refusing or unreachable, ``--wait`` timing
out), always one line on standard error.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from arena.cli.common import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from arena.errors import ConfigError
from arena.submissions.pack import pack
from arena.submissions.upload import UploadFailed, submission_status, submit_archive

TOKEN_VARIABLE = "ARENA_AUTHOR_TOKEN"
FINAL = ("accepted", "rejected")
POLL_SECONDS = 2.0
"""How often ``--wait`` asks: a build and check take tens of seconds to minutes."""


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``arena submit``."""
    submit = commands.add_parser(
        "submit", help=f"upload a bot folder to a hosted arena (token in ${TOKEN_VARIABLE})"
    )
    submit.add_argument("folder", type=Path, help="the bot folder (holding bot.toml)")
    submit.add_argument("--to", required=True, metavar="URL", help="the arena's web address")
    submit.add_argument("--json", action="store_true", help="print the arena's JSON answers")
    submit.add_argument(
        "--wait", action="store_true", help="wait until accepted (exit 0) or rejected (exit 1)"
    )
    submit.add_argument(
        "--timeout", type=float, default=900.0, help="seconds --wait waits at most (900)"
    )
    submit.set_defaults(run=cmd_submit)


def cmd_submit(args: argparse.Namespace) -> int:
    try:
        return _submit(args)
    except (UploadFailed, ConfigError) as exc:
        print(f"arena submit: {_line(exc)}", file=sys.stderr)
        return EXIT_USAGE


def _submit(args: argparse.Namespace) -> int:
    token = os.environ.get(TOKEN_VARIABLE, "").strip()
    if not token:
        raise ConfigError(
            f"set ${TOKEN_VARIABLE} to your author token (the arena's operator gives it)"
        )
    if args.timeout <= 0:
        raise ConfigError(f"--timeout must be more than 0, got {args.timeout}")
    with tempfile.TemporaryDirectory(prefix="arena-submit-") as scratch:
        archive = Path(scratch) / f"{args.folder.resolve().name or 'bot'}.tar.gz"
        pack(args.folder, archive)
        answer = submit_archive(args.to, token, archive)
    _show(args, answer)
    if not args.wait:
        return EXIT_OK
    final = _wait(args.to, token, str(answer["id"]), args.timeout)
    _show(args, final)
    return EXIT_OK if final["status"] == "accepted" else EXIT_FAILED


def _wait(url: str, token: str, submission_id: str, timeout: float) -> dict[str, Any]:
    """The submission once accepted or rejected; refuses after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        found = submission_status(url, token, submission_id)
        if found.get("status") in FINAL:
            return found
        if time.monotonic() >= deadline:
            raise ConfigError(
                f"submission {submission_id} is still {found.get('status')} after"
                f" {timeout:g} s (it goes on: arena submit --wait does not cancel it)"
            )
        time.sleep(POLL_SECONDS)


def _show(args: argparse.Namespace, answer: dict[str, Any]) -> None:
    if args.json:
        print(json.dumps(answer), flush=True)
        return
    line = f"submission {answer.get('id')} {answer.get('status')}"
    if answer.get("reason"):
        line += f": {_line(answer['reason'])}"
    print(line, flush=True)


def _line(text: object) -> str:
    if isinstance(text, UploadFailed) and text.status is not None:
        retry = f" (retry after {text.retry_after} s)" if text.retry_after else ""
        return f"{text.status} {_line(str(text))}{retry}"
    return " ".join(str(text).split())
