"""The authors of a hosted arena: ``arena authors add|list|token|revoke|disable|enable|remove``.

``add`` and ``token`` print the token alone on one line of standard output (and nothing else
there), so ``TOKEN=$(arena authors add alice)`` captures it; it is shown only then.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from arena.catalog import authors
from arena.cli.common import EXIT_OK, Parser, open_db
from arena.errors import ConfigError
from arena.results.store import StoreError


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``arena authors``."""
    group = commands.add_parser("authors", help="the people who submit bots, and their tokens")
    verbs = group.add_subparsers(dest="authors_command", required=True, parser_class=Parser)
    for verb, what, run in (
        ("add", "register an author and print their token once", cmd_add),
        ("token", "print a new token for an author (the old one stops working)", cmd_token),
        ("revoke", "revoke an author's token", cmd_revoke),
        ("disable", "stop an author signing in and their bots being entered", cmd_disable),
        ("enable", "undo disable", cmd_enable),
        ("remove", "remove an author (their bots and matches stay)", cmd_remove),
    ):
        command = verbs.add_parser(verb, help=what)
        command.add_argument("name")
        command.add_argument("--db", type=Path, help="results database (default results/arena.db)")
        command.set_defaults(run=run)
    listing = verbs.add_parser("list", help="list the authors, their token state and bots")
    listing.add_argument("--json", action="store_true")
    listing.add_argument("--db", type=Path, help="results database (default results/arena.db)")
    listing.set_defaults(run=cmd_list)


def cmd_add(args: argparse.Namespace) -> int:
    with open_db(args.db) as store:
        token = authors.add_author(store, args.name)
    print(token, flush=True)
    print(
        f"author {args.name} added; their token is shown only now (arena authors token "
        f"{args.name} issues a new one)",
        file=sys.stderr,
    )
    return EXIT_OK


def cmd_token(args: argparse.Namespace) -> int:
    with open_db(args.db, create=False) as store:
        token = authors.issue_token(store, args.name)
    print(token, flush=True)
    print(f"a new token for {args.name}; the previous one no longer works", file=sys.stderr)
    return EXIT_OK


def cmd_revoke(args: argparse.Namespace) -> int:
    with open_db(args.db, create=False) as store:
        had = authors.revoke_token(store, args.name)
    print(f"revoked the token of {args.name}" if had else f"{args.name} had no token")
    return EXIT_OK


def cmd_disable(args: argparse.Namespace) -> int:
    return _set_disabled(args, True)


def cmd_enable(args: argparse.Namespace) -> int:
    return _set_disabled(args, False)


def _set_disabled(args: argparse.Namespace, disabled: bool) -> int:
    with open_db(args.db, create=False) as store:
        try:
            store.set_author_disabled(args.name, disabled)
        except StoreError as exc:
            raise ConfigError(str(exc)) from None
    print(f"author {args.name} {'disabled' if disabled else 'enabled'}")
    return EXIT_OK


def cmd_remove(args: argparse.Namespace) -> int:
    with open_db(args.db, create=False) as store:
        try:
            released = store.remove_author(args.name)
        except StoreError as exc:
            raise ConfigError(str(exc)) from None
    names = f"; bot names released: {', '.join(released)}" if released else ""
    print(f"author {args.name} removed (their bots and matches stay){names}")
    return EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    with open_db(args.db, read_only=True) as store:
        rows = [
            {
                "name": row["name"],
                "created_at": row["created_at"],
                "token": "revoked" if row["token_hash"] is None else "issued",
                "token_issued_at": row["token_issued_at"],
                "disabled": row["disabled_at"] is not None,
                "bots": row["bots"],
            }
            for row in store.authors()
        ]
    if args.json:
        print(json.dumps(rows))
        return EXIT_OK
    for row in rows:
        state = "disabled" if row["disabled"] else f"token {row['token']}"
        bots = ", ".join(row["bots"]) or "-"
        print(f"{row['name']:<24} {state:<14} since {row['created_at'][:10]}  bots: {bots}")
    if not rows:
        print("no authors (arena authors add NAME)")
    return EXIT_OK
