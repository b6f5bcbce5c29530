"""``arena replay show|verify|export|view``: a match's replay, given as a file or as a recorded
match id."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from arena.cli.common import EXIT_FAILED, EXIT_OK, Parser, open_db
from arena.errors import ArenaError, ConfigError, ReplayError
from arena.paths import replays_dir
from arena.replays import text as replay_text
from arena.replays.compact import expand
from arena.replays.deflated import DamagedStreamError
from arena.replays.files import read as read_replay
from arena.replays.files import verify
from arena.results.store import DamagedReplayError, Store
from arena.scheduler import tournament as tournaments


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Add ``arena replay``."""
    replay = commands.add_parser("replay", help="work with replay files")
    replay_commands = replay.add_subparsers(
        dest="replay_command", required=True, parser_class=Parser
    )
    verify_cmd = replay_commands.add_parser(
        "verify", help="re-play a replay and compare every event"
    )
    verify_cmd.add_argument("replay", metavar="MATCH_ID|FILE")
    verify_cmd.add_argument("--json", action="store_true")
    verify_cmd.add_argument("--db", type=Path)
    verify_cmd.set_defaults(run=cmd_replay_verify)
    show_cmd = replay_commands.add_parser("show", help="print a match turn by turn")
    show_cmd.add_argument("replay", metavar="MATCH_ID|FILE")
    show_cmd.add_argument(
        "--step",
        action="store_true",
        help="wait for Enter after each turn (q or end of input quits)",
    )
    show_cmd.add_argument("--db", type=Path)
    show_cmd.set_defaults(run=cmd_replay_show)
    export_cmd = replay_commands.add_parser("export", help="write a stored match's replay file")
    export_cmd.add_argument("match_id")
    export_cmd.add_argument("file", type=Path)
    export_cmd.add_argument("--db", type=Path)
    export_cmd.set_defaults(run=cmd_replay_export)
    view_cmd = replay_commands.add_parser(
        "view", help="watch a match in the browser: serve its replay viewer until Ctrl-C"
    )
    view_cmd.add_argument("replay", metavar="MATCH_ID|FILE")
    view_cmd.add_argument("--db", type=Path, help="results database (default results/arena.db)")
    view_cmd.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    view_cmd.add_argument("--port", type=int, default=8000, help="port (8000; 0 picks a free one)")
    view_cmd.set_defaults(run=cmd_replay_view)


def _replay_file(
    ref: str, db: Path | None, stack: contextlib.ExitStack, damaged: type[ArenaError]
) -> Path:
    """A replay given as a file path or as a stored match id (extracted to a temp file).

    A ref that is neither is bad input (exit 2) for every command; a stored replay that is
    damaged raises ``damaged``: bad input for ``show`` (exit 2), a failed check for
    ``verify`` (exit 1, as for a replay file that cannot be read).
    """
    path = Path(ref)
    if path.exists():
        return path
    neither = f"{ref!r} is neither a replay file nor a recorded match id"
    database = db or tournaments.default_db()
    if not database.exists():
        raise ConfigError(f"{neither} (no results database at {database})")
    with open_db(database, read_only=True) as store:
        if store.match(ref) is None:
            raise ConfigError(f"{neither} in {store.path}")
        try:
            data = _expanded(store, ref)
        except DamagedReplayError as exc:
            raise damaged(str(exc)) from None
    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="arena-replay-")))
    extracted = folder / f"{ref}.jsonl"
    extracted.write_bytes(data)
    return extracted


def _expanded(store: Store, match_id: str) -> bytes:
    """A recorded match's replay JSONL; a deflated replay whose stream is damaged is a damaged
    stored replay, as a gzipped one is (the same message and exit status)."""
    try:
        return expand(store.replay(match_id))
    except DamagedStreamError as exc:
        raise DamagedReplayError(
            f"the stored replay of match {match_id!r} is damaged: {exc.reason}"
        ) from None


@contextlib.contextmanager
def _suggest_replay_file(ref: str) -> Iterator[None]:
    """Add to "neither a file nor a recorded match" the hint that `arena match` replays are
    files (the scheduler stores only tournament matches)."""
    try:
        yield
    except (ConfigError, ReplayError) as exc:
        if Path(ref).exists() or "recorded match" not in str(exc):
            raise
        hint = replay_text.missing_replay_hint(ref, replays_dir())
        raise type(exc)(f"{exc}; {hint}") from None


def cmd_replay_show(args: argparse.Namespace) -> int:
    with contextlib.ExitStack() as stack, _suggest_replay_file(args.replay):
        header, records = read_replay(_replay_file(args.replay, args.db, stack, ConfigError))
    blocks = replay_text.turns(header, records)
    replay_text.page(blocks, args.step, sys.stdout, sys.stderr, sys.stdin)
    return EXIT_OK


def cmd_replay_export(args: argparse.Namespace) -> int:
    with open_db(args.db, read_only=True) as store:
        if store.match(args.match_id) is None:
            raise ConfigError(f"no recorded match {args.match_id!r}")
        data = _expanded(store, args.match_id)
    args.file.parent.mkdir(parents=True, exist_ok=True)
    args.file.write_bytes(data)
    print(f"wrote {args.file} ({len(data)} bytes)")
    return EXIT_OK


def cmd_replay_view(args: argparse.Namespace) -> int:
    """Serve one match's page: a replay file on its own, a recorded match in its database, or
    an `arena match` id by its file in the replays folder."""
    from arena.web.serve import serve_match, serve_replay_file

    path = Path(args.replay)
    if path.exists():
        return serve_replay_file(path, args.host, args.port)
    try:
        with contextlib.ExitStack() as stack, _suggest_replay_file(args.replay):
            _replay_file(args.replay, args.db, stack, ConfigError)  # a recorded match, readable
    except ConfigError as exc:
        found = _arena_match_file(args.replay)
        if found is None:  # the hint names this command
            raise ConfigError(str(exc).replace("arena replay show", "arena replay view")) from None
        return serve_replay_file(found, args.host, args.port)
    return serve_match(args.db or tournaments.default_db(), args.replay, args.host, args.port)


def _arena_match_file(ref: str) -> Path | None:
    """The replay file of `arena match` id ``ref`` in the replays folder, if there is one."""
    return None if "/" in ref else replay_text.find_match_file(ref, replays_dir())


def cmd_replay_verify(args: argparse.Namespace) -> int:
    with contextlib.ExitStack() as stack, _suggest_replay_file(args.replay):
        report = verify(_replay_file(args.replay, args.db, stack, ReplayError))
    if args.json:
        print(json.dumps({"ok": report.ok, "records": report.records, "message": report.message}))
    else:
        print(("ok: " if report.ok else "DIVERGED: ") + report.message)
    return EXIT_OK if report.ok else EXIT_FAILED
