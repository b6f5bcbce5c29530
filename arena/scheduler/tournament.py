"""Tournaments: settings, the stored plan, and running it on a pool of worker processes.

The scheduler is the single writer of the results database. Matches run on worker processes
(forked before any gRPC object exists here); results come back in any order, ratings are
applied in plan order, and each match is recorded with its rating updates in one transaction
as soon as every match before it in the plan is recorded. So the recorded matches are always
a prefix of the plan, and resuming plays exactly the rest: every planned match is recorded
exactly once, also after ``kill -9`` of the scheduler or a worker.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import socket
import sys
import time
import tomllib
import uuid
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import multiprocessing_logging

from arena.catalog import (
    BotSpec,
    bot_environment,
    check_plays,
    command_argv,
    find_bot,
    is_bundled,
    read_spec,
    run_setup,
    version_id,
)
from arena.catalog.entries import Entry, entry_spec, plan_entry
from arena.catalog.remote import is_remote, remote_bots, remote_entry
from arena.errors import ArenaError, BotError, ConfigError
from arena.games import DEFAULT_GAME
from arena.games import load as load_game
from arena.games.api import Game
from arena.paths import logs_follow, results_home
from arena.referee.match import TimeControl
from arena.results.faults import FaultLimit, refuse_flagged
from arena.results.ratings import OrderedRater, RatingBook, conservative, environment, pool_key
from arena.results.store import Store
from arena.scheduler import executors
from arena.scheduler.barring import refuse_barred
from arena.scheduler.executors import stop_pool as _stop
from arena.scheduler.logs import log_path, log_to_file
from arena.scheduler.plan import make_gauntlet_plan, make_plan
from arena.scheduler.records import MatchRecord, MatchSpec
from arena.scheduler.worker import MatchFailed, play_job
from arena.seeds import new_seed

log = logging.getLogger("arena.tournament")

ROUND_ROBIN = "round-robin"
GAUNTLET = "gauntlet"
LADDER = "ladder"
FORMATS = (ROUND_ROBIN, GAUNTLET, LADDER)

MAX_POOL_RESTARTS = 5
MAX_MATCH_FAILURES = 3
"""Times one match may fail in a worker (no bot to blame: see
:class:`~arena.scheduler.worker.MatchFailed`) and be played again before the tournament
stops, as it does when workers keep dying."""
IN_FLIGHT_PER_WORKER = 2
"""Matches submitted to the pool per worker at a time (one playing, one queued)."""
AHEAD_PER_WORKER = 4
"""Unrecorded matches (in flight or waiting for an earlier one) per worker at a time."""
HEARTBEAT_SECONDS = 10.0
"""How often a running scheduler notes in the database that it is alive."""


@dataclass(slots=True)
class TournamentSettings:
    """Everything that defines a tournament (flags or a TOML file)."""

    bots: list[str] = field(default_factory=list)
    name: str = ""
    game: str = DEFAULT_GAME
    rules: dict[str, str] = field(default_factory=dict)
    seats: int | list[int] = 2
    """Seats per match; a ladder may mix table sizes (a list, each size its own rating pool)."""
    rounds: int = 1
    format: str = ROUND_ROBIN
    """:data:`FORMATS`: ``round-robin`` (every table of the field), ``gauntlet`` (each match a
    challenger against the field) or ``ladder`` (continuous matchmaking, :mod:`.ladder`)."""
    challengers: list[str] = field(default_factory=list)
    """A gauntlet's challengers (``bots`` is its field)."""
    matches: int = 0
    """A ladder stops after this many matches (0: it runs until stopped)."""
    until_settled: bool = False
    """A ladder stops once every entered version's rating has settled (:mod:`arena.results.settling`)."""
    move_time: float = 1.0
    time_bank: float = 30.0
    startup_time: float = 10.0
    strike_limit: int = 3
    seed: int | None = None
    workers: int = 0
    fresh_process: bool = False
    in_process: bool = False
    """Python bots with an ``entry`` play inside the workers (same records, less overhead)."""
    executor: str = executors.LOCAL
    """Where the matches run: ``local`` (a process pool) or ``ray`` (:mod:`.executors`)."""
    ray_address: str = ""
    """The Ray cluster's ``HOST:PORT`` (empty: a local Ray instance is started)."""

    @classmethod
    def from_toml(cls, path: Path) -> TournamentSettings:
        """Read a TOML file whose keys are this class's fields."""
        try:
            data = tomllib.loads(path.read_text())
        except FileNotFoundError:
            raise ConfigError(f"no tournament file {str(path)!r}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: invalid TOML: {exc}") from None
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(
                f"{path}: unknown keys {unknown}; valid keys: {', '.join(sorted(known))}"
            )
        if "rules" in data:
            if not isinstance(data["rules"], dict):
                raise ConfigError(f"{path}: rules must be a table, got {data['rules']!r}")
            data["rules"] = {
                k: str(v).lower() if isinstance(v, bool) else str(v)
                for k, v in dict(data["rules"]).items()
            }
        try:
            settings = cls(**data)
            settings._check_types()
        except TypeError as exc:
            raise ConfigError(f"{path}: {exc}") from None
        except ConfigError as exc:
            raise ConfigError(f"{path}: {exc}") from None
        return settings

    def seat_counts(self) -> list[int]:
        """The table sizes, in the order given (one for a round-robin or gauntlet)."""
        return list(self.seats) if isinstance(self.seats, list) else [self.seats]

    def check(self, entries_later: bool = False) -> Game[Any, Any, Any]:
        """Validate; returns the game as configured for one match of the first table size
        (through the game contract, so a tournament of any registered game is checked by its
        own rules). ``entries_later``: a ladder may start with fewer bots than a
        table (it waits)."""
        self._check_types()
        if self.format not in FORMATS:
            raise ConfigError(f"format must be one of {', '.join(FORMATS)}, got {self.format!r}")
        counts = self.seat_counts()
        if not counts or len(set(counts)) < len(counts):
            raise ConfigError(f"seats must be distinct table sizes, got {self.seats!r}")
        if len(counts) > 1 and self.format != LADDER:
            raise ConfigError("mixed table sizes (--seats 2,3,...) are for a ladder")
        game_type = load_game(self.game)
        low, high = game_type.info.min_players, game_type.info.max_players
        for count in counts:
            if not low <= count <= high:
                raise ConfigError(
                    f"seats per match must be {low}-{high} for {self.game}, got {count}"
                )
        if self.format == GAUNTLET and not self.challengers:
            raise ConfigError("a gauntlet needs a challenger: --challenger BOT (repeatable)")
        if self.challengers and self.format != GAUNTLET:
            raise ConfigError("challengers are for a gauntlet (--format gauntlet)")
        if self.format != LADDER and (self.matches or self.until_settled):
            raise ConfigError("--matches and --until-settled are for a ladder (--format ladder)")
        if self.matches < 0:
            raise ConfigError(f"matches must be 0 (no limit) or more, got {self.matches}")
        if self.format == GAUNTLET:
            both = sorted(set(self.bots) & set(self.challengers))
            if both:
                listed = ", ".join(map(repr, both))
                raise ConfigError(f"{listed} cannot be both challenger and field (--bot)")
            field_bots = set(self.bots)
            if len(field_bots) < counts[0] - 1:
                raise ConfigError(
                    f"{counts[0]} seats need at least {counts[0] - 1} field bots (--bot) "
                    f"beside the challenger, got {len(field_bots)}"
                )
            return game_type.configure(dict(self.rules), counts[0])
        if self.format == LADDER and not entries_later and len(set(self.bots)) < min(counts):
            raise ConfigError(
                f"a ladder of {min(counts)}-seat tables needs at least {min(counts)} different "
                f"bots, got {len(set(self.bots))}"
            )
        if self.format == LADDER:
            return game_type.configure(dict(self.rules), counts[0])
        seats = counts[0]
        if self.rounds < 1:
            raise ConfigError(f"rounds must be at least 1, got {self.rounds}")
        if self.move_time <= 0 or self.time_bank < 0 or self.startup_time <= 0:
            raise ConfigError("move time and startup time must be positive, the bank ≥ 0")
        if self.strike_limit < 1:
            raise ConfigError(f"the strike limit must be at least 1, got {self.strike_limit}")
        if self.workers < 0:
            raise ConfigError(f"workers must be 0 (one per core) or more, got {self.workers}")
        if self.executor not in executors.EXECUTORS:
            raise ConfigError(
                f"executor must be one of {', '.join(executors.EXECUTORS)}, got {self.executor!r}"
            )
        if self.ray_address and self.executor != executors.RAY:
            raise ConfigError("a Ray address is for the ray executor (--executor ray)")
        if len(set(self.bots)) < seats:
            raise ConfigError(
                f"{seats} seats per match need at least {seats} different bots, "
                f"got {len(set(self.bots))}"
            )
        return game_type.configure(dict(self.rules), seats)

    def _check_types(self) -> None:
        """Refuse wrongly typed settings (e.g. ``seats = "two"`` in TOML) with a clear message."""
        for name, (kinds, what) in _SETTING_TYPES.items():
            value = getattr(self, name)
            if name == "seed" and value is None:
                continue
            if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
                raise ConfigError(f"{name} must be {what}, got {value!r}")
        bad = [b for b in [*self.bots, *self.challengers] if not isinstance(b, str) or not b]
        if bad:
            raise ConfigError(f"bots must be bot names or folders (strings), got {bad[0]!r}")
        if isinstance(self.seats, list) and not all(
            isinstance(n, int) and not isinstance(n, bool) for n in self.seats
        ):
            raise ConfigError(f"seats must be whole numbers, got {self.seats!r}")


_SETTING_TYPES: dict[str, tuple[tuple[type, ...], str]] = {
    "bots": ((list,), "a list of bot names"),
    "name": ((str,), "a string"),
    "game": ((str,), "a string"),
    "rules": ((dict,), "a table of rules options"),
    "seats": ((int, list), "a whole number (a ladder: a list of them)"),
    "rounds": ((int,), "a whole number"),
    "format": ((str,), "a string"),
    "challengers": ((list,), "a list of bot names"),
    "matches": ((int,), "a whole number"),
    "until_settled": ((bool,), "true or false"),
    "move_time": ((int, float), "a number of seconds"),
    "time_bank": ((int, float), "a number of seconds"),
    "startup_time": ((int, float), "a number of seconds"),
    "strike_limit": ((int,), "a whole number"),
    "seed": ((int,), "a whole number"),
    "workers": ((int,), "a whole number"),
    "fresh_process": ((bool,), "true or false"),
    "in_process": ((bool,), "true or false"),
    "executor": ((str,), "a string"),
    "ray_address": ((str,), "a string"),
}


def default_db() -> Path:
    """The results database: ``results/arena.db`` (or under ``$ARENA_HOME``)."""
    return results_home() / "arena.db"


def registered_bots(store: Store) -> dict[str, Path]:
    """Bots recorded in the database (by ``arena bots add`` or a tournament), by name
    (remote bots have no folder: :func:`arena.catalog.remote.remote_bots`)."""
    return {row["name"]: Path(row["path"]) for row in store.bots() if row["language"] != "remote"}


def register(store: Store, spec: BotSpec, replace: bool = False) -> Entry:
    """Record a bot and its current version; the entry a plan seats.

    A name already registered for another folder is refused (a silent repoint would make the
    name mean another bot), unless ``replace`` or the bot is a bundled one (its checkout moved).
    """
    known = registered_bots(store).get(spec.name)
    if known is not None and known.resolve() != spec.path and not replace and not is_bundled(spec):
        where = "" if store.path.resolve() == default_db().resolve() else f" --db {store.path}"
        raise ConfigError(
            f"bot name {spec.name!r} is already registered in {store.path} for {known}, not "
            f"{spec.path}; rename one of them, or repoint the name with "
            f"`arena bots add --replace {spec.path}{where}`"
        )
    vid = version_id(spec)
    store.add_bot(spec.name, spec.language, spec.description, str(spec.path))
    store.add_version(vid, spec.name, spec.version)
    if spec.command is None:
        raise ConfigError(f"bot {spec.name!r} has no command: tournaments run bots as processes")
    return plan_entry(spec, vid)


class BotsCannotStart(ConfigError):
    """A bot's command cannot be started, so every match it sits in would fail."""


def cannot_start(spec: BotSpec) -> str | None:
    """Why the bot's process cannot be started (its command's program is not found), or None.

    The program is looked up as the launcher runs it: on ``PATH`` for a bare name, in the bot
    folder for a path.
    """
    if spec.command is None:
        return "it has no command: tournaments run bots as processes"
    try:
        program = command_argv(spec)[0]
    except (ArenaError, ValueError) as exc:
        return f"its command {spec.command!r} cannot be read: {exc}"
    if "/" not in program:
        if shutil.which(program, path=bot_environment()["PATH"]) is None:
            return f"its command's program {program!r} is not on PATH"
        return None
    if program == sys.executable:
        return None  # `python`: the interpreter running this
    path = spec.path / program
    try:
        exists = path.is_file()
    except OSError:
        return None  # cannot even look (a folder we may not search): let the launch say
    if not exists:
        return f"its command's program {program!r} does not exist in {spec.path}"
    if not os.access(path, os.X_OK):
        return f"its command's program {program!r} in {spec.path} is not executable"
    return None


def refuse_unstartable(specs: list[BotSpec], after_setup: bool = False) -> None:
    """Refuse, in one line naming them, bots whose process cannot be started.

    Before setup (``after_setup`` False) a bot with a ``setup`` is given the benefit of the
    doubt: its setup may build the program (``make`` before ``./bot``).
    """
    reasons = [
        f"bot {spec.name!r} cannot start: {why}"
        for spec in specs
        if (why := cannot_start(spec)) is not None and (after_setup or spec.setup is None)
    ]
    if reasons:
        raise BotsCannotStart("; ".join(reasons))


def enter_bots(
    store: Store, names: list[str], game: str, fault_limit: FaultLimit | None = None
) -> dict[str, Entry]:
    """Register the named bots (folders or registered names; remote bots as they are) and
    return their entries by version id, refusing bots that cannot play ``game`` or start, two
    names for one version, and (with ``fault_limit``) versions it flags."""
    known = registered_bots(store)
    names = list(dict.fromkeys(names))
    remote = {n: e for n in names if (e := remote_entry(store, n, game)) is not None}
    specs = [find_bot(name, known) for name in names if name not in remote]
    for spec in specs:
        check_plays(spec, game)
    refuse_unstartable(specs)
    entries = [register(store, spec) for spec in specs] + list(remote.values())
    by_version = {e["version_id"]: e for e in entries}
    if len(by_version) < len(entries):
        raise ConfigError("two of the bots are the same version (identical folders)")
    refuse_barred(store, by_version)
    if fault_limit is not None:
        refuse_flagged(store, by_version, fault_limit)
    return by_version


def default_name(settings: TournamentSettings) -> str:
    """A tournament's name when none is given: ``classic 3p``, ``classic 2,3p ladder``."""
    sizes = ",".join(str(n) for n in settings.seat_counts())
    kind = "" if settings.format == ROUND_ROBIN else f" {settings.format}"
    return f"{settings.game} {sizes}p{kind}"


def create(
    store: Store, settings: TournamentSettings, fault_limit: FaultLimit | None = None
) -> str:
    """Register the bots, make the plan and store it with the tournament; returns its id.

    A round-robin's or a gauntlet's whole plan is stored here; a ladder is made by
    :func:`arena.scheduler.ladder.create`. With ``fault_limit``, a bot version flagged by it
    (:mod:`arena.results.faults`) is refused.
    """
    if settings.format == LADDER:
        raise ConfigError("a ladder is made by arena.scheduler.ladder.create")
    game = settings.check()
    by_version = enter_bots(
        store, [*settings.bots, *settings.challengers], settings.game, fault_limit
    )
    seed = settings.seed if settings.seed is not None else new_seed()
    seats = settings.seat_counts()[0]
    if settings.format == GAUNTLET:
        version_of = {e["name"]: v for v, e in by_version.items()}
        challengers = [version_of[_bot_name(store, n)] for n in settings.challengers]
        field_bots = [v for v in by_version if v not in challengers]
        plan = make_gauntlet_plan(challengers, field_bots, seats, settings.rounds, seed)
    else:
        plan = make_plan(list(by_version), seats, settings.rounds, seed)
    tournament_id = uuid.uuid4().hex[:8]
    stored = asdict(settings) | {"seed": seed, "entries": by_version, "config": game.config()}
    store.create_tournament(
        tournament_id,
        settings.name or default_name(settings),
        stored,
        seed,
        [
            {
                "plan_index": p.index,
                "round": p.round,
                "rotation_group": p.group,
                "seed": p.seed,
                "seats": list(p.seats),
            }
            for p in plan
        ],
    )
    return tournament_id


def _bot_name(store: Store, name_or_folder: str) -> str:
    """The bot name a ``--bot``/``--challenger`` argument stands for (a folder's ``bot.toml``
    names it)."""
    if name_or_folder in remote_bots(store):
        return name_or_folder
    return find_bot(name_or_folder, registered_bots(store)).name


def record_new_versions(
    store: Store, tournament_id: str, record_new_version: bool = False
) -> list[str]:
    """Check that the bots still to play are the versions the plan seats; returns notes.

    A bot whose files changed since the tournament was planned is refused (one line naming
    every such bot), because its results would be credited to the old version. With
    ``record_new_version`` the new version is registered, the unplayed plan entries seat it
    instead, and it starts a rating of its own; recorded matches keep the old version.
    """
    found = store.tournament(tournament_id)
    if found is None:
        raise ConfigError(f"no tournament {tournament_id!r} in {store.path}")
    settings = found["settings"]
    entries: dict[str, Entry] = settings["entries"]
    start = len(store.recorded_indices(tournament_id))
    remaining = [p for p in store.planned(tournament_id) if p["plan_index"] >= start]
    seated = {v for p in remaining for v in p["seats"]}
    changed: list[tuple[str, BotSpec, str]] = []
    for vid in sorted(seated, key=lambda v: (entries[v]["name"], v)):
        if is_remote(entries[vid]):
            continue  # no folder: its version is its label
        folder = Path(entries[vid]["path"])
        if not (folder / "bot.toml").is_file():
            raise BotsCannotStart(
                f"bot {entries[vid]['name']!r}: its folder {folder} is gone (or has no bot.toml)"
            )
        spec = read_spec(folder)
        current = version_id(spec)
        if current != vid:
            changed.append((vid, spec, current))
    if not changed:
        return []
    described = ", ".join(f"{entries[old]['name']!r} ({old} → {new})" for old, _, new in changed)
    what = "bot" if len(changed) == 1 else "bots"
    if not record_new_version:
        raise ConfigError(
            f"{what} {described} changed since tournament {tournament_id} was planned; "
            f"restore the files, or resume with --record-new-version to play the remaining "
            f"{len(remaining)} matches under the new version"
        )
    renamed: dict[str, str] = {}
    notes = []
    for old, spec, new in changed:
        if new in entries and entries[new]["name"] != spec.name:
            raise ConfigError(
                f"bot {spec.name!r} is now identical to {entries[new]['name']!r} in tournament "
                f"{tournament_id}; it cannot play as a new version"
            )
        entry = register(store, spec)
        if entry["label"] == entries[old]["label"]:
            # The label alone would make the two versions one name in the tournament's reports.
            entry["label"] = f"{entry['label']} ({new[:8]})"
        entries[new] = entry
        renamed[old] = new
        notes.append(
            f"bot {spec.name!r} changed: the remaining matches of tournament {tournament_id} "
            f"record it as version {new} (label {entry['label']!r}), rated apart from {old}"
        )
    store.reseat_versions(tournament_id, start, renamed, settings)
    return notes


@dataclass(slots=True)
class Progress:
    """What a progress display is told after each recorded match."""

    done: int
    total: int
    started: float
    leader: str
    resumed_from: int = 0
    """Matches recorded before this run started (they are not part of its rate)."""


def _job(tournament_id: str, settings: dict[str, Any], planned: dict[str, Any]) -> MatchSpec:
    entries = settings["entries"]
    return MatchSpec(
        tournament_id=tournament_id,
        plan_index=planned["plan_index"],
        seed=planned["seed"],
        game=stored_game(settings),
        # A ladder mixing table sizes has a configuration per size.
        rules=(settings.get("configs") or {}).get(str(len(planned["seats"])), settings["config"]),
        seats=tuple(entries[v] for v in planned["seats"]),
        control=TimeControl(
            move_time=settings["move_time"],
            time_bank=settings["time_bank"],
            startup_time=settings["startup_time"],
        ),
        strike_limit=settings["strike_limit"],
        fresh_process=settings["fresh_process"],
        in_process=bool(settings.get("in_process")),
    )


def _book(store: Store, pools: list[str]) -> RatingBook:
    """The current ratings of ``pools``, as the store holds them."""
    book = RatingBook(env=environment())
    env = book.env
    for pool in pools:
        for row in store.ratings(pool):
            book.ratings.setdefault(pool, {})[row["version_id"]] = env.create_rating(
                row["mu"], row["sigma"]
            )
    return book


def usable_cores() -> int:
    """The cores this process may run on (its affinity mask, e.g. under ``taskset``)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def default_workers() -> int:
    """Workers when none are asked for: one per usable core, in-process or over gRPC.

    Measured (``benchmarks/tournament.py``): an in-process match keeps its core busy, and a
    gRPC match of bots that answer at once is CPU-bound too (referee and bot take turns on
    the CPU rather than wait), so workers beyond the cores played no faster (2 workers on 1
    core: 0.93× of 1 worker over gRPC, 1.00× in-process) and only cost bot processes and
    memory. Bots that wait on something else than the CPU can use more: ``--workers N``.
    """
    return usable_cores()


def stored_game(settings: Mapping[str, Any]) -> str:
    """The game a stored tournament plays (tournaments stored before games had names are
    classic)."""
    return str(settings.get("game") or DEFAULT_GAME)


def stored_pool(settings: Mapping[str, Any]) -> str:
    """The rating pool of a stored tournament: its game's name and the rating format of its
    stored configuration (classic: ``classic/3p/world``, as before games had a contract)."""
    name = stored_game(settings)
    return pool_key(name, load_game(name).from_config(settings["config"]).rating_format())


class Runner:
    """Runs the unrecorded rest of a stored tournament."""

    def __init__(
        self,
        store: Store,
        tournament_id: str,
        workers: int = 0,
        on_progress: Callable[[Progress], None] | None = None,
        executor: str | None = None,
        ray_address: str | None = None,
    ) -> None:
        """``executor`` and ``ray_address`` override the stored settings' (a resume keeps
        them otherwise); an override is stored, so the tournament names where it ran last."""
        found = store.tournament(tournament_id)
        if found is None:
            raise ArenaError(f"no tournament {tournament_id!r} in {store.path}")
        self.store = store
        self.id = tournament_id
        self.settings = found["settings"]
        self.game_name = stored_game(self.settings)
        self.pool = stored_pool(self.settings)
        self.plan = store.planned(tournament_id)
        recorded = store.recorded_indices(tournament_id)
        if recorded != set(range(len(recorded))):
            raise ArenaError(f"tournament {tournament_id}: recorded matches are not a plan prefix")
        self.next_index = len(recorded)
        self.pools = self._pools()
        self.book = _book(store, self.pools)
        self.games = {
            (pool, row["version_id"]): row["games"]
            for pool in self.pools
            for row in store.ratings(pool)
        }
        """Rated games per (pool, version), for the ``ratings`` table."""
        self.rater = OrderedRater(self.book, start_index=self.next_index)
        self.executor: str = executor or self.settings.get("executor") or executors.LOCAL
        if ray_address is None:
            ray_address = self.settings.get("ray_address") or ""
        self.ray_address = ray_address if self.executor == executors.RAY else ""
        if (self.executor, self.ray_address) != (
            self.settings.get("executor", executors.LOCAL),
            self.settings.get("ray_address", ""),
        ):
            self.settings = {
                **self.settings,
                "executor": self.executor,
                "ray_address": self.ray_address,
            }
            store.set_tournament_settings(tournament_id, self.settings)
        self.cluster = executors.Cluster()
        self.asked_workers = workers or self.settings.get("workers") or 0
        self.workers = self.asked_workers or default_workers()
        self.in_flight_limit = IN_FLIGHT_PER_WORKER * self.workers
        """Most matches handed to the pool and not yet back."""
        self.ahead_limit = AHEAD_PER_WORKER * self.workers
        """Most matches submitted and not yet recorded (in flight, or back and waiting for an
        earlier one): this bounds the outcomes, with their replays, held in memory."""
        self.on_progress = on_progress
        self.started = time.time()
        self.results: dict[int, MatchRecord] = {}
        self.recorded = self.next_index
        """Matches recorded so far (the rater may be ahead: it rates before they are written)."""
        self._beaten = 0.0
        self.failures: dict[int, int] = {}
        """Per plan index, how often its match failed in a worker and was queued again."""
        self._load()

    def _load(self) -> None:
        """Read what a kind of tournament needs besides its plan (a ladder: its entries and
        results)."""

    def _pools(self) -> list[str]:
        """The rating pools this tournament's matches are rated in (a ladder's table sizes
        each have one)."""
        pools = self.settings.get("pools") or {}
        return list(dict.fromkeys(pools.values())) or [self.pool]

    def _pool_of(self, index: int) -> str:
        """The rating pool of the match at ``index``."""
        return self.pool

    def _frozen(self, index: int) -> bool:
        """Whether the match at ``index`` is rated without dynamics (a ladder's finals)."""
        return False

    def _decide(self, queue: deque[dict[str, Any]]) -> None:
        """Add newly decided matches to ``queue`` (a ladder decides as it goes; a stored plan
        has decided everything)."""

    def _waiting(self) -> bool:
        """Whether to keep running with nothing to play (a ladder waiting for entries)."""
        return False

    def run(self) -> None:
        """Play and record every unrecorded planned match, on the tournament's executor (a
        Ray cluster given no worker count gets one worker per CPU)."""
        with (
            logs_follow(self.store.path),  # the workers' bots log next to the database
            executors.cluster(self.executor, self.ray_address or None) as self.cluster,
        ):
            size = None if self.asked_workers else self.cluster.size()
            if size is not None and size != self.workers:
                self.workers = size
                self.in_flight_limit = IN_FLIGHT_PER_WORKER * size
                self.ahead_limit = AHEAD_PER_WORKER * size
            self._run()

    def _run(self) -> None:
        todo = [p for p in self.plan if p["plan_index"] >= self.next_index]
        self.store.claim_tournament(self.id, os.getpid(), socket.gethostname())
        self._beaten = time.monotonic()
        self._set_up({v for p in todo for v in p["seats"]})
        self._report()
        restarts = 0
        while todo or not self._complete():
            try:
                self._run_pool(todo)
            except BrokenProcessPool:
                restarts += 1
                log.warning("a worker died; replaying its matches from their seeds")
                if restarts > MAX_POOL_RESTARTS:
                    self.store.set_tournament_status(self.id, "stopped")
                    raise ArenaError(
                        f"workers died {restarts} times; tournament {self.id} stopped"
                    ) from None
            todo = [
                p
                for p in self.plan
                if p["plan_index"] >= self.rater.next_index and p["plan_index"] not in self.results
            ]
        self.store.set_tournament_status(self.id, "finished")

    def _set_up(self, versions: set[str]) -> None:
        """Run the setup of the local bots among ``versions`` and refuse any that cannot start.

        Once, here: workers running a setup (e.g. ``npm ci``) at the same time would race.
        """
        specs = [
            entry_spec(e)
            for v, e in self.settings["entries"].items()
            if v in versions and not is_remote(e)
        ]
        for spec in specs:
            run_setup(spec)
            self._heartbeat(force=True)
        refuse_unstartable(specs, after_setup=True)

    def _complete(self) -> bool:
        """Whether nothing is left to decide (a stored plan: always)."""
        return True

    def _executor(self) -> Executor:
        """The pool the matches run on: worker processes forked from here, or Ray actors."""
        return self.cluster.pool(self.workers, self.id)

    def _run_pool(self, todo: list[dict[str, Any]]) -> None:
        """Play ``todo`` (plan order) with a bounded number of matches submitted at a time.

        Submitting lazily keeps the scheduler's memory flat over a tournament of any length:
        only :attr:`in_flight_limit` futures and :attr:`ahead_limit` unrecorded outcomes exist
        at once, and each is dropped as soon as it is recorded.
        """
        executor = self._executor()
        queue = deque(todo)
        in_flight: dict[Future[MatchRecord], dict[str, Any]] = {}
        try:
            while True:
                self._decide(queue)
                while (
                    queue
                    and len(in_flight) < self.in_flight_limit
                    and queue[0]["plan_index"] < self.rater.next_index + self.ahead_limit
                ):
                    planned = queue.popleft()
                    job = _job(self.id, self.settings, planned)
                    in_flight[executor.submit(play_job, job)] = planned
                if not in_flight:
                    if queue or not self._waiting():
                        break
                    self._heartbeat()
                    continue
                finished, _ = wait(
                    in_flight, timeout=HEARTBEAT_SECONDS, return_when=FIRST_COMPLETED
                )
                for future in finished:
                    planned = in_flight.pop(future)
                    try:
                        outcome = future.result()  # BrokenProcessPool propagates to run()
                    except BotError as exc:
                        raise BotsCannotStart(str(exc)) from None
                    except MatchFailed as exc:
                        self._failed(planned, str(exc))
                        queue.appendleft(planned)  # before every match not yet submitted
                        continue
                    self._receive(outcome)
                del finished
                self._heartbeat()
        except BaseException:
            _stop(executor)
            raise
        executor.shutdown(wait=True)

    def _failed(self, planned: dict[str, Any], why: str) -> None:
        """Count a failed match; stop the tournament once it failed too often."""
        index = planned["plan_index"]
        self.failures[index] = count = self.failures.get(index, 0) + 1
        log.warning("match (plan %s) failed (%s); playing it again from its seed", index, why)
        if count >= MAX_MATCH_FAILURES:
            self.store.set_tournament_status(self.id, "stopped")
            raise ArenaError(
                f"match {index} failed {count} times, the last: {why}; tournament {self.id} stopped"
            )

    def _heartbeat(self, force: bool = False) -> None:
        """Tell the database this scheduler is alive, at most every few seconds."""
        now = time.monotonic()
        if force or now - self._beaten >= HEARTBEAT_SECONDS:
            self.store.heartbeat(self.id)
            self._beaten = now

    def _receive(self, outcome: MatchRecord) -> None:
        index = outcome.plan_index
        self.results[index] = outcome
        entries = self.plan[index]["seats"]
        for applied_index, changes in self.rater.submit(
            index,
            self._pool_of(index),
            entries,
            outcome.places,
            outcome.statuses,
            out_order=list(outcome.out_order),
            frozen=self._frozen(index),
        ):
            self._record(applied_index, changes)

    def _record(self, index: int, changes: list[Any]) -> None:
        outcome = self.results.pop(index)
        entries = self.plan[index]["seats"]
        pool = self._pool_of(index)
        for change in changes:
            self.games[pool, change.entry] = self.games.get((pool, change.entry), 0) + 1
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(outcome.finished_at))
        begun = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(outcome.started_at))
        self.store.record_match(
            {
                "id": outcome.match_id,
                "tournament_id": self.id,
                "plan_index": index,
                "game": self.game_name,
                "pool": pool,
                "rules": outcome.rules,
                "seed": outcome.seed,
                "end_reason": outcome.end_reason,
                "winner_seat": outcome.winner,
                "turns": outcome.turns,
                "rounds": outcome.rounds,
                "decisions": outcome.decisions,
                "started_at": begun,
                "finished_at": stamp,
                "seat_count": len(entries),
                "out_order": list(outcome.out_order),
            },
            [
                {
                    "seat": s.seat,
                    "version_id": entries[s.seat],
                    "bot": s.bot,
                    "place": s.place,
                    "status": s.status,
                    "strikes": s.strikes,
                    "think_ms_p50": s.think_ms_p50,
                    "think_ms_p99": s.think_ms_p99,
                    "cpu_s": s.cpu_s,
                    "log": s.log,
                }
                for s in outcome.seats
            ],
            outcome.replay,
            [
                {
                    "pool": pool,
                    "version_id": c.entry,
                    "mu_before": c.mu_before,
                    "sigma_before": c.sigma_before,
                    "mu_after": c.mu_after,
                    "sigma_after": c.sigma_after,
                }
                for c in changes
            ],
            [
                {
                    "pool": pool,
                    "version_id": c.entry,
                    "mu": c.mu_after,
                    "sigma": c.sigma_after,
                    "games": self.games[pool, c.entry],
                }
                for c in changes
            ],
        )
        self.recorded = index + 1
        self._heartbeat()
        self._report()

    def _report(self) -> None:
        if self.on_progress is None:
            return
        standings = self.book.standings(self.pool)
        leader = ""
        if standings:
            entry, rating = standings[0]
            name = self.settings["entries"].get(entry, {}).get("name", entry)
            leader = f"{name} ({conservative(rating):.1f})"
        self.on_progress(
            Progress(self.recorded, self._total(), self.started, leader, self.next_index)
        )

    def _total(self) -> int:
        """The matches the progress display counts towards."""
        return len(self.plan)


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stderr`` is when a record comes (a program or a test may
    replace it, and close the old one, after the handler is made)."""

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


def setup_logging(
    tournament_id: str, database: Path | None = None, console_level: int = logging.WARNING
) -> Path:
    """One log file per tournament, fed by every worker through multiprocessing-logging: in
    the ``logs/`` folder of ``database``'s results home (:func:`arena.paths.logs_follow`)."""
    with logs_follow(database) if database is not None else contextlib.nullcontext():
        root = log_to_file(tournament_id)
        path = log_path(tournament_id)
    console = _Stderr()
    console.setLevel(console_level)
    root.addHandler(console)
    multiprocessing_logging.install_mp_handler(root)
    return path


def rebuild_ratings(store: Store) -> int:
    """Recompute every rating and the rating history from the stored matches, in order, each
    version from the rating it entered its pool with, a ladder's finals without dynamics."""
    from arena.results.ratings import MatchRecord

    matches = store.all_match_records()
    finals = {
        t["id"]: int(t["settings"]["finals"]["start"])
        for t in store.tournaments()
        if t["settings"].get("finals")
    }
    records = []
    for m in matches:
        seats = sorted(m["seats"], key=lambda s: s["seat"])
        records.append(
            MatchRecord(
                tournament_id=m["tournament_id"] or m["id"],
                plan_index=m["plan_index"] or 0,
                pool=m["pool"],
                entries=tuple(s["version_id"] for s in seats),
                places=tuple(s["place"] for s in seats),
                statuses=tuple(s["status"] for s in seats),
                out_order=m["out_order"],
                frozen=m["plan_index"] is not None
                and m["plan_index"] >= finals.get(m["tournament_id"], m["plan_index"] + 1),
            )
        )
    book = RatingBook(env=environment())
    for (pool, entry), (mu, sigma) in store.entry_ratings().items():
        # A ladder's new version entered with its predecessor's mu (everyone else: the prior).
        book.ratings.setdefault(pool, {})[entry] = book.env.create_rating(mu, sigma)
    history = []
    games: dict[tuple[str, str], int] = {}
    for m, record in zip(matches, records, strict=True):
        for change in book.apply(record):
            history.append(
                {
                    "match_id": m["id"],
                    "pool": record.pool,
                    "version_id": change.entry,
                    "mu_before": change.mu_before,
                    "sigma_before": change.sigma_before,
                    "mu_after": change.mu_after,
                    "sigma_after": change.sigma_after,
                }
            )
            games[(record.pool, change.entry)] = games.get((record.pool, change.entry), 0) + 1
    ratings = [
        {
            "pool": pool,
            "version_id": entry,
            "mu": rating.mu,
            "sigma": rating.sigma,
            "games": games[(pool, entry)],
        }
        for pool, table in book.ratings.items()
        for entry, rating in table.items()
        if (pool, entry) in games
    ]
    store.replace_ratings(ratings, history)
    return len(matches)
