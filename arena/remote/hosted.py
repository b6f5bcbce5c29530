"""A hosted arena: ``arena serve --web … --ladder GAME:SEATS [--submissions]`` runs, in the one
serve process, its ladders (a thread each, matches on the serve's loop or on Ray), the web
pages, and the builder of submitted bots, all on one results database.

A hosted ladder is found again by its name (``hosted classic 4p``) at every start, so a serve
stopped or killed resumes its ladders where their records end, with the entries they had:
house bots (``--bot``) and every accepted submitted bot of the ladder's game. A submission
accepted while the serve runs enters at once: a new bot is asked in, a new version of an
entered bot is noticed at the next decision (the ladder's rule for new versions).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena import games
from arena.catalog.entries import Entry
from arena.catalog.manifest import BotSpec
from arena.errors import ArenaError, ConfigError
from arena.remote.serve import Serve, ServeLadderRunner
from arena.results.store import Store, open_store
from arena.sandbox.isolation import ISOLATION_ENV, NAMESPACES, USERS, detect
from arena.scheduler import executors, ladder
from arena.scheduler.ladder import LadderRunner
from arena.scheduler.tournament import LADDER, Runner, TournamentSettings, default_workers
from arena.submissions.builder import Builder, BuildSettings
from arena.submissions.files import submissions_root

log = logging.getLogger("arena.serve")

RETRY_SECONDS = 10.0
"""How long a hosted ladder that stopped on an error waits before it resumes."""
STOP_SECONDS = 60.0
"""Longest wait for a ladder, the builder or the web to end when the serve stops."""
LADDER_TEXT = re.compile(r"([A-Za-z0-9_-]+):(\d+(?:,\d+)*)")


@dataclass(frozen=True)
class HostedLadder:
    """One ``--ladder GAME:SEATS``."""

    game: str
    seats: int | list[int]

    @property
    def name(self) -> str:
        """The ladder's tournament name, by which a restarted serve finds it again."""
        sizes = self.seats if isinstance(self.seats, list) else [self.seats]
        return f"hosted {self.game} {','.join(map(str, sizes))}p"


def parse_ladder(text: str) -> HostedLadder:
    """``GAME:SEATS`` (``GAME:4``, ``GAME:2,3,6``), the game registered here."""
    matched = LADDER_TEXT.fullmatch(text)
    if matched is None:
        example = f"{games.names()[0]}:4"
        raise ConfigError(f"--ladder {text!r}: expected GAME:SEATS, e.g. {example} or GAME:2,3")
    game, sizes = matched.group(1), [int(n) for n in matched.group(2).split(",")]
    if game not in games.names():
        raise ConfigError(
            f"--ladder {text!r}: no game {game!r} (games: {', '.join(games.names())})"
        )
    return HostedLadder(game, sizes[0] if len(sizes) == 1 else sizes)


@dataclass
class HostedSettings:
    """What ``arena serve`` hosts besides the lobby."""

    ladders: list[HostedLadder] = field(default_factory=list)
    bots: list[str] = field(default_factory=list)
    """House bots, entered in every ladder of a game they play."""
    rules: list[str] = field(default_factory=list)
    """``KEY=VALUE`` items, read by each ladder's game."""
    move_time: float = 1.0
    time_bank: float = 30.0
    workers: int = 0
    executor: str = executors.LOCAL
    ray_address: str = ""
    submissions: bool = False
    build: BuildSettings = field(default_factory=BuildSettings)


def require_isolation(root: Path) -> None:
    """Refuse to accept submissions unless every isolation layer is on, and make it strict:
    from here on a bot process the layers cannot hold is refused, never run with fewer. (The
    namespace layer mounts each bot's folder into its sandbox: the results home above it
    stays the referee's alone.)"""
    os.environ[ISOLATION_ENV] = f"{USERS},{NAMESPACES}"
    try:
        detect()
    except ArenaError as exc:
        raise ConfigError(f"--submissions needs every isolation layer: {exc}") from None
    root.mkdir(parents=True, exist_ok=True)


def settings_for(hosted: HostedLadder, settings: HostedSettings) -> TournamentSettings:
    """The tournament settings of a new hosted ladder."""
    return TournamentSettings(
        bots=[],
        name=hosted.name,
        game=hosted.game,
        rules=games.parse_rules(settings.rules, hosted.game),
        seats=hosted.seats,
        format=LADDER,
        move_time=settings.move_time,
        time_bank=settings.time_bank,
        workers=settings.workers,
        executor=settings.executor,
        ray_address=settings.ray_address,
    )


def find_or_create(store: Store, hosted: HostedLadder, settings: HostedSettings) -> str:
    """The id of the hosted ladder's unfinished tournament, made if there is none."""
    for found in store.tournaments():
        if (
            found["name"] == hosted.name
            and found["settings"].get("format") == LADDER
            and found["stored_status"] != "finished"
        ):
            return str(found["id"])
    wanted = settings_for(hosted, settings)
    wanted.check(entries_later=True)
    return ladder.create(store, wanted, entries_later=True)


def entrants(store: Store, game: str, house: list[str]) -> list[str]:
    """Who a ladder of ``game`` enters: the house bots that play it and every submitted bot
    whose accepted version plays it (barred versions stay out: the ladder refuses them)."""
    submitted = {
        row["bot"]
        for row in store.submissions(limit=1_000_000)
        if row["status"] == "accepted" and game in row["games"]
    }
    return list(dict.fromkeys([*house, *sorted(submitted)]))


def enter(store: Store, tournament_id: str, bots: list[str], game: str) -> None:
    """Ask the ladder to enter each bot not in it yet (a bot that cannot is logged, skipped)."""
    active = {
        row["bot"]
        for row in store.ladder_entries(tournament_id)
        if row["left_index"] is None and row["leave_requested_at"] is None
    }
    for bot in bots:
        if bot in active:
            continue
        try:
            ladder.add(store, tournament_id, bot, None)
        except ArenaError as exc:
            log.warning("ladder %s (%s): %s not entered: %s", tournament_id, game, bot, exc)


class HostedRunner(Runner):
    """A hosted ladder's runner: stops when the serve does."""

    stopping: threading.Event

    def _heartbeat(self, force: bool = False) -> None:
        if self.stopping.is_set():
            raise Stopped
        super()._heartbeat(force)


class Stopped(Exception):
    """The serve is stopping: a hosted ladder ends where it is (it resumes at the next start)."""


class HostedServeLadder(HostedRunner, ServeLadderRunner):
    """A hosted ladder played on the serve's loop (local and remote bots)."""


class HostedRayLadder(HostedRunner, LadderRunner):
    """A hosted ladder played on Ray (local bots only)."""


class Hosted:
    """The ladders, the builder and the web of one serve."""

    def __init__(self, serve: Serve, settings: HostedSettings) -> None:
        self.serve = serve
        self.settings = settings
        self.root = submissions_root(serve.db)
        self.stopping = serve.stopping
        self.ladders: dict[str, HostedLadder] = {}
        self.runners: dict[str, LadderRunner] = {}
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._web: Any = None
        self._stack = contextlib.ExitStack()

    def start(self) -> None:
        """Find or make the ladders, enter their bots, start their threads and the builder."""
        store = self.serve.store
        if self.settings.ladders and self.settings.executor == executors.RAY:
            # Connected here, on the main thread, once for every ladder (each ladder's runner
            # uses a Ray already initialized in its process and leaves it to its owner); a
            # local instance gets a CPU for each worker of each ladder.
            cluster = self._stack.enter_context(
                executors.cluster(executors.RAY, self.settings.ray_address or None)
            )
            assert isinstance(cluster, executors.RayCluster)
            workers = self.settings.workers or default_workers()
            cluster.connect(workers * len(self.settings.ladders))  # a local instance's CPUs
        for hosted in self.settings.ladders:
            tournament_id = find_or_create(store, hosted, self.settings)
            self.ladders[tournament_id] = hosted
            enter(
                store, tournament_id, entrants(store, hosted.game, self.settings.bots), hosted.game
            )
            entered = sum(
                1 for row in store.ladder_entries(tournament_id) if row["left_index"] is None
            )
            what = "1 entry" if entered == 1 else f"{entered} entries"
            print(f"arena serve: ladder {tournament_id} ({hosted.name}): {what}", flush=True)
            self._spawn(f"ladder-{tournament_id}", self._run_ladder, tournament_id)
        if self.settings.submissions:
            builder = Builder(self.serve.db, self.root, self.settings.build, self._accepted)
            self._spawn("builder", builder.run, self.stopping)
            print(f"arena serve: accepting submissions, built in {self.root}", flush=True)

    def _spawn(self, name: str, target: Any, *args: Any) -> None:
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)

    def _run_ladder(self, tournament_id: str) -> None:
        """Play the ladder until the serve stops; after an error, resume it shortly."""
        on_ray = self.settings.executor == executors.RAY
        with open_store(self.serve.db) as store:
            while not self.stopping.is_set():
                try:
                    runner: HostedRayLadder | HostedServeLadder
                    if on_ray:  # the executor of this start, whatever the ladder began on
                        address = self.settings.ray_address or None
                        runner = HostedRayLadder(
                            store,
                            tournament_id,
                            self.settings.workers,
                            None,
                            executors.RAY,
                            address,
                        )
                    else:
                        runner = HostedServeLadder(store, tournament_id, self.settings.workers)
                    runner.stopping = self.stopping
                    if isinstance(runner, HostedServeLadder):
                        runner.host = self.serve.host
                    with self._lock:
                        self.runners[tournament_id] = runner
                    runner.run()
                    return  # its finals are over
                except Stopped:
                    with contextlib.suppress(ArenaError):
                        store.set_tournament_status(tournament_id, "stopped")
                    return
                except ArenaError as exc:
                    log.warning("ladder %s stopped: %s; resuming it shortly", tournament_id, exc)
                    self.stopping.wait(RETRY_SECONDS)

    def _accepted(self, spec: BotSpec, entry: Entry) -> None:
        """A version was accepted (on the builder's thread, with its own store): enter the bot
        in the ladders of its games, and have them look for the new version now."""
        with open_store(self.serve.db) as store:
            for tournament_id, hosted in self.ladders.items():
                if hosted.game in spec.games:
                    enter(store, tournament_id, [spec.name], hosted.game)
        with self._lock:
            for runner in self.runners.values():
                runner.rescan()

    def serve_web(self, host: str, port: int) -> str:
        """Serve the web pages (with the submission routes when submissions are on) on a
        thread; their URL."""
        import uvicorn

        from arena.web.app import create_app
        from arena.web.serve import base_url, listening_socket

        bound = listening_socket(host, port)
        app = create_app(self.serve.db, self.root if self.settings.submissions else None)
        # Behind a TLS proxy on this machine uvicorn takes the client's address and scheme
        # from the proxy's X-Forwarded-For and -Proto (it trusts 127.0.0.1 by default): the
        # sign-in limit counts each author's address, and cookies are marked Secure.
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        self._web = server

        def run() -> None:
            with bound:
                server.run(sockets=[bound])

        self._spawn("web", run)
        return base_url(host, bound)

    def join(self) -> None:
        """Stop the web and wait for every thread after the serve's ``stopping`` is set; then
        disconnect from Ray if the serve connected."""
        if self._web is not None:
            self._web.should_exit = True
        for thread in self._threads:
            thread.join(STOP_SECONDS)
        for tournament_id in self.ladders:  # one still playing when time ran out: it ends here
            found = self.serve.store.tournament(tournament_id)
            if found is not None and found["stored_status"] == "running":
                with contextlib.suppress(ArenaError):
                    self.serve.store.set_tournament_status(tournament_id, "stopped")
        self._stack.close()
