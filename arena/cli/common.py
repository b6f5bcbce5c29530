"""What the ``arena`` commands share: exit codes, the one-line-error parser, the common flags,
the results database and bot lookup, and the range checks of every numeric setting."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from arena.catalog import find_bot
from arena.errors import ConfigError
from arena.results.faults import DEFAULT_MIN_MATCHES, DEFAULT_PERCENT, FaultLimit
from arena.results.store import Store, empty_store, open_store
from arena.scheduler import executors
from arena.scheduler import tournament as tournaments

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class Parser(argparse.ArgumentParser):
    """argparse with exit code 2 and one line for a usage error: what is wrong and where the
    command's help is (the whole usage block buries the flag that was wrong)."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extra = super().parse_known_args(args, namespace)
        if extra and self.prog == "arena":  # name the command whose flags they are not
            command = getattr(parsed, "command_prog", self.prog)
            self._fail(command, f"unrecognized arguments: {' '.join(extra)}")
        return parsed, extra

    def error(self, message: str) -> NoReturn:
        self._fail(self.prog, message)

    def _fail(self, prog: str, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"arena: error: {message} (see `{prog} --help`)\n")


DAY = 86_400.0
"""The longest clock setting in seconds: the wire carries milliseconds in 32 bits (~49 days)."""


INT64 = 2**63


_NUMBERS: dict[str, tuple[Any, str]] = {
    "move_time": (lambda v: 0 < v <= DAY, "seconds above 0, at most 86400"),
    "time_bank": (lambda v: 0 <= v <= DAY, "seconds from 0 to 86400"),
    "startup_time": (lambda v: 0 < v <= DAY, "seconds above 0, at most 86400"),
    "strike_limit": (lambda v: 1 <= v < INT64, "a whole number of at least 1"),
    "seed": (lambda v: -INT64 <= v < INT64, "a whole number from -2**63 to 2**63-1"),
    "games": (lambda v: 1 <= v <= 1_000_000, "a whole number from 1 to 1000000"),
    "rounds": (lambda v: 1 <= v <= 10_000, "a whole number from 1 to 10000"),
    "workers": (lambda v: 0 <= v <= 1024, "a whole number from 0 (one per core) to 1024"),
    "simulate": (lambda v: 1 <= v < INT64, "a positive number of battles"),
    "fault_limit": (lambda v: 0 <= v <= 100, "a percentage from 0 to 100"),
    "fault_min_matches": (lambda v: 1 <= v < INT64, "a whole number of at least 1"),
}
"""Every numeric setting of every command, checked the same way (NaN fails every test)."""


def check_numbers(values: dict[str, Any], name: Any) -> None:
    """Refuse out-of-range, infinite or NaN numbers up front, before they reach a bot or the
    database (where they raise deep inside); ``name(key)`` says how the user wrote the key."""
    for key, (ok, what) in _NUMBERS.items():
        value = values.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool) and not ok(value):
            raise ConfigError(f"{name(key)} must be {what}, got {value}")


def db_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, help="results database (default results/arena.db)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--json", action="store_true", help="print the leaderboard as JSON")


def executor_flags(parser: argparse.ArgumentParser, kept: bool = False) -> None:
    """Where a tournament's matches run (see arena/scheduler/executors.py)."""
    default = "the tournament's" if kept else "local"
    parser.add_argument(
        "--executor",
        choices=executors.EXECUTORS,
        help=f"run the matches on this machine's process pool (local) or on a Ray cluster "
        f"(ray: pip install 'risk-arena[ray]'); default {default}",
    )
    parser.add_argument(
        "--ray-address",
        metavar="HOST:PORT",
        help="the Ray cluster to run on (its head's `ray start --head` address; default: "
        + ("the tournament's, or " if kept else "")
        + "a local Ray instance started for the run)",
    )


def fault_flags(parser: argparse.ArgumentParser) -> None:
    """``--fault-limit`` and ``--fault-min-matches``: when a bot version is flagged."""
    parser.add_argument(
        "--fault-limit",
        type=float,
        default=DEFAULT_PERCENT,
        metavar="PERCENT",
        help="flag a bot version when more than PERCENT of its recorded matches ended with its "
        f"seat not OK (TIMEOUT, CRASH, ...) (default {DEFAULT_PERCENT:g})",
    )
    parser.add_argument(
        "--fault-min-matches",
        type=int,
        default=DEFAULT_MIN_MATCHES,
        metavar="N",
        help=f"recorded matches a version needs before it can be flagged (default "
        f"{DEFAULT_MIN_MATCHES})",
    )


def fault_limit(args: argparse.Namespace) -> FaultLimit:
    return FaultLimit(args.fault_limit, args.fault_min_matches)


def format_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--json", action="store_true")
    group.add_argument("--csv", action="store_true")


def registry_flag(parser: argparse.ArgumentParser, default: Any = None) -> None:
    """``--db``: the results database whose registered bot names (``arena bots add``) apply."""
    parser.add_argument(
        "--db",
        type=Path,
        default=default,
        help="results database for registered bot names (default results/arena.db)",
    )


def registered(db: Path | None = None) -> dict[str, Path]:
    """Registered bots of ``db`` (default results/arena.db), if it exists (never creates it)."""
    path = db or tournaments.default_db()
    if not path.exists():
        return {}
    with open_store(path, read_only=True) as store:
        return tournaments.registered_bots(store)


def bot_finder(db: Path | None) -> Any:
    """``find_bot`` with the registered names of ``db``; its errors say which database."""
    path = db or tournaments.default_db()
    known = registered(path)
    registry = str(path) if path.exists() else f"{path} (no such database)"
    return lambda name: find_bot(name, known, registry)


def open_db(path: Path | None, *, read_only: bool = False, create: bool = True) -> Store:
    """The results database (default results/arena.db). Commands that only read pass
    ``read_only``: a mistyped path is an error instead of a new empty database, and a
    read-only file, folder or filesystem can still be read. Until the default database is
    made, readers see it empty (and do not make it)."""
    if path is None and read_only and not tournaments.default_db().exists():
        return empty_store(tournaments.default_db())
    return open_store(path or tournaments.default_db(), read_only=read_only, create=create)


def pick_versions(store: Store, bot: str, version: str | None) -> list[str]:
    """The recorded versions of ``bot`` that ``version`` names: every one without it, else the
    one whose id it is, whose label it is, or whose id it begins (the first of these that
    names any); none, or several, is one line naming the versions there are."""
    rows = store.versions(bot)
    if not rows:
        raise ConfigError(
            f"no bot {bot!r} in {store.path} (a bot is recorded when it is registered or "
            "entered in a tournament)"
        )
    if version is None:
        return [str(row["id"]) for row in rows]
    if not version:
        raise ConfigError("--version needs a version id, a prefix of one, or a label")
    for found in (
        [row for row in rows if row["id"] == version],
        [row for row in rows if row["label"] == version],
        [row for row in rows if str(row["id"]).startswith(version)],
    ):
        if len(found) == 1:
            return [str(found[0]["id"])]
        if found:
            raise ConfigError(
                f"version {version!r} of bot {bot!r} is ambiguous: it names "
                f"{_versions_named(found)}; give more of the id"
            )
    raise ConfigError(f"bot {bot!r} has no version {version!r}; it has {_versions_named(rows)}")


def _versions_named(rows: list[dict[str, Any]], shown: int = 8) -> str:
    """``1a2b3c4d (1.0), 5e6f7a8b (1.1)``: the first ``shown`` versions, by id and label."""
    named = ", ".join(f"{str(row['id'])[:8]} ({row['label']})" for row in rows[:shown])
    return named + (f" and {len(rows) - shown} more" if len(rows) > shown else "")
