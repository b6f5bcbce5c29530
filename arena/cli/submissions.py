"""The operator's view of a hosted arena's submissions: ``arena submissions
list|show|requeue|prune`` (authors see their own on the web; the operator sees everyone's
here, and frees what superseded versions keep on disk)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from arena.cli.common import EXIT_OK, Parser, open_db
from arena.errors import ConfigError
from arena.results.store import SUBMISSION_STATUSES, Store
from arena.submissions.files import SUBMISSION_ID, SubmissionFiles, submissions_root

LOG_TAIL = 4000
"""Characters of a log ``show`` prints (its end: where a failure is)."""


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``arena submissions``."""
    group = commands.add_parser("submissions", help="authors' submitted bots and their builds")
    verbs = group.add_subparsers(dest="submissions_command", required=True, parser_class=Parser)
    listing = verbs.add_parser("list", help="submissions, newest first")
    listing.add_argument("--author", help="only this author's")
    listing.add_argument("--status", choices=SUBMISSION_STATUSES, help="only those in this status")
    listing.add_argument("--limit", type=int, default=50, help="at most this many (50)")
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(run=cmd_list)
    show = verbs.add_parser("show", help="one submission: its status, reason and logs")
    show.add_argument("id")
    show.add_argument("--json", action="store_true")
    show.set_defaults(run=cmd_show)
    requeue = verbs.add_parser(
        "requeue", help="build a rejected submission again (after fixing the arena's machine)"
    )
    requeue.add_argument("id")
    requeue.set_defaults(run=cmd_requeue)
    pruning = verbs.add_parser(
        "prune", help="free the folders of superseded versions nothing plays any more"
    )
    pruning.add_argument("--author", help="only this author's")
    pruning.add_argument("--dry-run", action="store_true", help="say what would be freed")
    pruning.set_defaults(run=cmd_prune)
    for command in (listing, show, requeue, pruning):
        command.add_argument("--db", type=Path, help="results database (default results/arena.db)")


def cmd_list(args: argparse.Namespace) -> int:
    if args.limit < 1:
        raise ConfigError(f"--limit must be at least 1, got {args.limit}")
    with open_db(args.db, create=False) as store:
        rows = store.submissions(args.author, limit=1_000_000 if args.status else args.limit)
    rows = [row for row in rows if args.status in (None, row["status"])][: args.limit]
    if args.json:
        print(json.dumps(rows, indent=2))
        return EXIT_OK
    if not rows:
        print("no submissions")
    for row in rows:
        what = f"{row['bot']} {(row['version_id'] or '')[:8]}".strip() if row["bot"] else "-"
        line = f"{row['id']}  {row['created_at'][:19]}  {row['author']:<16} {row['status']:<9} "
        print(line + what + (f"  {row['reason']}" if row["reason"] else ""))
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    with open_db(args.db, create=False) as store:
        row = _found(store, args.id)
        files = SubmissionFiles.of(submissions_root(store.path), args.id)
    logs = {"build": files.build_log, "check": files.check_log}
    if args.json:
        print(json.dumps({**row, "logs": {k: str(v) for k, v in logs.items() if v.exists()}}))
        return EXIT_OK
    for key in ("id", "author", "status", "reason", "bot", "version_id", "games", "created_at"):
        value = row.get(key)
        if value not in (None, []):
            print(f"{key:<11} {', '.join(value) if isinstance(value, list) else value}")
    print(f"{'archive':<11} {row['archive_name']} ({row['archive_bytes']:,} bytes)")
    for name, path in logs.items():
        if path.exists():
            text = path.read_text(errors="replace")
            print(f"\n--- {name} log ({path}){', its end' if len(text) > LOG_TAIL else ''}")
            print(text[-LOG_TAIL:].rstrip())
    return EXIT_OK


def cmd_requeue(args: argparse.Namespace) -> int:
    with open_db(args.db, create=False) as store:
        row = _found(store, args.id)
        if row["status"] != "rejected":
            raise ConfigError(f"submission {args.id} is {row['status']}; only a rejected one")
        store.requeue_submission(args.id)
    print(f"submission {args.id} received again: a hosted serve builds it next")
    return EXIT_OK


def cmd_prune(args: argparse.Namespace) -> int:
    from arena.submissions.pruning import prunable, prune

    with open_db(args.db, create=False) as store:
        root = submissions_root(store.path)
        done = (prunable if args.dry_run else prune)(store, root, args.author)
    verb = "would free" if args.dry_run else "freed"
    for each in done:
        print(
            f"{each.submission_id}  {each.author:<16} {each.bot} {each.version_id[:8]}  "
            f"{verb} {each.freed:,} bytes"
        )
    total = sum(each.freed for each in done)
    print(f"{len(done)} superseded folder(s): {verb} {total:,} bytes")
    return EXIT_OK


def _found(store: Store, submission_id: str) -> dict[str, Any]:
    row = store.submission(submission_id) if SUBMISSION_ID.fullmatch(submission_id) else None
    if row is None:
        raise ConfigError(f"no submission {submission_id!r} in {store.path}")
    return row
