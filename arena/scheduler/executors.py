"""Where a tournament's matches run: the local process pool, or actors on a Ray cluster.

The scheduler (:class:`arena.scheduler.tournament.Runner`) only picks one: both hand it a
:class:`concurrent.futures.Executor` whose ``submit(play_job, job)`` returns a future of the
match's outcome, and whose lost workers surface as :class:`BrokenProcessPool`, so the
scheduler's rules are the same on both (it stays the single database writer and applies
ratings in plan order; a lost worker's matches are played again from their seeds on a fresh
pool; a :class:`~arena.scheduler.worker.MatchFailed` is played again, three times at most).

On Ray the workers are **actors**, not tasks: one actor per worker slot, each a process that
keeps a :class:`~arena.scheduler.worker.WorkerHost` (its referee server and its idle bot
processes) from match to match, as a local pool's process does. Tasks would start from a
worker process with no memory of the last match, so every match would start its bots
afresh (seconds for a JVM or Node bot), and a task retried by Ray behind the scheduler's back
would hide a lost match from its failure rules.

Ray is an optional extra (``pip install 'risk-arena[ray]'``): it is imported only here, and
only when a tournament asks for it.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.util
import logging
import multiprocessing
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from arena.catalog.entries import Entry, entry_spec
from arena.errors import ArenaError, BotError, ConfigError
from arena.paths import logs_home, results_home, use_logs_home
from arena.processes import alive
from arena.scheduler.logs import log_to_file
from arena.scheduler.records import MatchRecord, MatchSpec
from arena.scheduler.worker import MatchFailed, close_host, init_worker, play_job

log = logging.getLogger("arena.tournament")

LOCAL = "local"
RAY = "ray"
EXECUTORS = (LOCAL, RAY)
"""The executors a tournament can run on (``--executor``)."""
INSTALL_HINT = "pip install 'risk-arena[ray]'"
POOL_STOP_SECONDS = 30.0
"""How long stopping waits for the pool's manager thread once its workers are killed."""
RAY_CONNECT_SECONDS = 10.0
"""How long reaching a Ray cluster's address may take before it counts as unreachable
(``ray.init`` itself retries an unreachable address for minutes)."""
RAY_ANSWER_SECONDS = 30.0
"""How long connecting to a reachable Ray address may take before it counts as not Ray's."""
RAY_ACTOR_START_SECONDS = 120.0
"""How long the actors of a pool may take to start (a busy cluster schedules them late)."""
ACTOR_CLOSE_SECONDS = 10.0
"""How long the actors of a finished pool may take to end their bots before they are killed."""
PASSED_ENV = ("ARENA_ISOLATION", "ARENA_SEAT_UIDS")
"""The scheduler's isolation settings, handed to every actor so that one choice holds for the
whole tournament (each node then detects which layers it can give, as a local worker does)."""


# --------------------------------------------------------------------------- local pool


class LocalPool(ProcessPoolExecutor):
    """Worker processes forked from the scheduler (before any gRPC object), whose temporary
    files (each worker's referee sockets, its bots' homes) all live in one folder of the
    pool's, removed with it. A worker killed mid-match (kill -9, or the pool stopped at once)
    cannot clean up after itself; its pool does, so a long-running scheduler leaves nothing
    in the temporary folder, and no later bot finds an earlier one's home. The folder is named
    after the scheduler's process, so the next pool removes what a scheduler killed with
    ``kill -9`` left (:func:`sweep_dead_pools`)."""

    def __init__(self, workers: int) -> None:
        self.scratch = scratch_folder()
        super().__init__(
            workers,
            mp_context=multiprocessing.get_context("fork"),
            initializer=init_worker,
            initargs=(str(self.scratch), True),
        )

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        super().shutdown(wait=wait, cancel_futures=cancel_futures)
        if wait:
            self.remove_scratch()

    def remove_scratch(self) -> None:
        """Remove the workers' temporary files (once the workers are gone)."""
        shutil.rmtree(self.scratch, ignore_errors=True)


POOL_PREFIX = "arena-pool-"
"""Start of a pool folder's name, then its scheduler's PID namespace and process id."""


def _pid_namespace() -> str:
    """This process's PID namespace (its inode): a process id means something only there,
    and a temporary folder may be shared with other containers."""
    try:
        return str(os.stat("/proc/self/ns/pid").st_ino)
    except OSError:
        return "0"


def _this_process() -> str:
    return f"{_pid_namespace()}-{os.getpid()}"


def scratch_folder() -> Path:
    """A new folder for a pool's (or a Ray actor's) temporary files, named after this
    process, once those of dead processes are swept."""
    sweep_dead_pools()
    folder = Path(tempfile.mkdtemp(prefix=f"{POOL_PREFIX}{_this_process()}-"))
    folder.chmod(0o711)  # seat users pass through to their own homes and sockets
    return folder


def sweep_dead_pools() -> None:
    """Remove the pool folders of schedulers no longer running (killed before they could),
    of this PID namespace only."""
    namespace = _pid_namespace()
    for folder in Path(tempfile.gettempdir()).glob(f"{POOL_PREFIX}{namespace}-*-*"):
        pid = folder.name.removeprefix(f"{POOL_PREFIX}{namespace}-").split("-", 1)[0]
        if pid.isdigit() and not alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


def stop_pool(executor: Executor) -> None:
    """End a pool at once: kill its workers (and so their bots), then wait for its manager
    thread, so nothing of it is left running when the interpreter exits."""
    for process in list((getattr(executor, "_processes", None) or {}).values()):
        with contextlib.suppress(OSError):
            process.kill()
    manager = getattr(executor, "_executor_manager_thread", None)
    executor.shutdown(wait=False, cancel_futures=True)
    if manager is not None:
        # With its workers dead the manager thread ends promptly; left running, it raced the
        # interpreter's exit (`threading._shutdown`) and sometimes printed a traceback there.
        manager.join(POOL_STOP_SECONDS)
    if isinstance(executor, LocalPool):
        executor.remove_scratch()


# ------------------------------------------------------------------------------ checks


def check(executor: str, address: str | None) -> None:
    """Refuse, before anything is planned, an unknown executor, Ray not installed, or a Ray
    address that cannot be reached (within :data:`RAY_CONNECT_SECONDS`)."""
    if executor not in EXECUTORS:
        raise ConfigError(f"executor must be one of {', '.join(EXECUTORS)}, got {executor!r}")
    if executor != RAY:
        if address:
            raise ConfigError("--ray-address is for --executor ray")
        return
    if importlib.util.find_spec("ray") is None:
        raise ConfigError(f"--executor ray needs Ray, which is not installed: {INSTALL_HINT}")
    if address and address not in _ANSWERED:
        probe(address)
        handshake(address)
        _ANSWERED.add(address)


_ANSWERED: set[str] = set()
"""Ray addresses that answered in this process (checked once, before planning)."""


def probe(address: str) -> None:
    """Open (and close) a TCP connection to a Ray address, ``HOST:PORT`` (or ``ray://…``)."""
    text = address.removeprefix("ray://")
    host, colon, port = text.rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"--ray-address must be HOST:PORT (e.g. 10.0.0.5:6379), got {address!r}")
    try:
        with socket.create_connection((host, int(port)), timeout=RAY_CONNECT_SECONDS):
            pass
    except OSError as exc:
        why = "timed out" if isinstance(exc, TimeoutError) else exc.strerror or str(exc)
        raise ConfigError(f"cannot reach the Ray cluster at {address}: {why}") from None


def handshake(address: str) -> None:
    """Connect to the cluster once from a child process, killed after
    :data:`RAY_ANSWER_SECONDS`: ``ray.init`` retries a port that answers but is not Ray's (or
    refuses this machine's credentials) for minutes, printing its retries on the terminal."""
    script = (
        "import logging, sys, ray\n"
        "ray.init(address=sys.argv[1], logging_level=logging.ERROR, log_to_driver=False)\n"
        "ray.shutdown()\n"
    )
    env = {**os.environ, "RAY_NUM_REDIS_GET_RETRIES": "3"}
    try:
        done = subprocess.run(
            [sys.executable, "-c", script, address],
            capture_output=True,
            text=True,
            timeout=RAY_ANSWER_SECONDS,
            env=env,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise ConfigError(
            f"the Ray cluster at {address} did not answer within {RAY_ANSWER_SECONDS:g} s "
            "(give the address of a Ray head: `ray start --head --port PORT`)"
        ) from None
    if done.returncode != 0:
        why = _reason(done.stderr)
        if "Authentication" in why or "auth" in why.lower():
            why += (
                " (a cluster with token authentication needs RAY_AUTH_MODE=token and its "
                "token here: RAY_AUTH_TOKEN or ~/.ray/auth_token)"
            )
        raise ConfigError(f"cannot connect to the Ray cluster at {address}: {why}")


def _reason(stderr: str) -> str:
    """The cause in a failed Ray connection's output: its core's last warning (without the
    log prefix), else the last line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in reversed(lines):
        if line.startswith("[") and "] " in line and ("Failed" in line or "rror" in line):
            text = line.split("] ", 1)[1]
            return text.split(": ", 1)[1] if ".cc:" in text.split(": ", 1)[0] else text
    return lines[-1] if lines else "Ray could not connect"


# ------------------------------------------------------------------------------ the cluster


class Cluster:
    """The executor a run uses: connected on first use, disconnected when the run ends."""

    def __init__(self, address: str | None = None) -> None:
        self.address = address

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def size(self) -> int | None:
        """Workers to run when none are asked for (None: one per usable core here)."""
        return None

    def pool(self, workers: int, tournament_id: str) -> Executor:
        """A fresh pool of ``workers`` workers for the tournament."""
        return LocalPool(workers)

    def close(self) -> None:
        """Let go of the cluster (nothing to do for the local pool)."""


class RayCluster(Cluster):
    """A Ray instance: the one at ``address``, or a local one started for this run.

    A local instance listens on the loopback address only: a Ray instance runs the code of
    any client that reaches it (unless its token authentication is on).
    """

    def __init__(self, address: str | None = None) -> None:
        super().__init__(address)
        self._ray: Any = None
        self._ours = False
        """Whether this run connected (and so disconnects); a Ray already initialized in
        this process (a program embedding the arena, the tests) is used and left as it is."""

    def connect(self, cpus: int) -> Any:
        """The ``ray`` module, connected to the cluster (a local instance of ``cpus`` CPUs
        when no address was given)."""
        if self._ray is not None:
            return self._ray
        embedded = sys.modules.get("ray")
        if embedded is None or not embedded.is_initialized():
            check(RAY, self.address)
        if not self.address:
            # Before Ray is imported: its constants are read then.
            os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
            os.environ.setdefault("RAY_worker_niceness", "0")  # see MatchActor
            # A local instance's control store may take more than Ray's 30 s to come up on a
            # loaded machine; the start then fails with "Timed out waiting for file".
            os.environ.setdefault("RAY_gcs_server_port_wait_time_s", "120")
        import ray

        if not ray.is_initialized():
            quiet: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
            try:
                if self.address:
                    ray.init(address=self.address, **quiet)
                else:
                    ray.init(num_cpus=cpus, include_dashboard=False, **quiet)
            except Exception as exc:
                # Ray raises a bare Exception too (a node that did not start within its fixed
                # 30 s): every failure to connect is one line
                where = f"at {self.address}" if self.address else "(a local instance)"
                raise ConfigError(
                    f"cannot connect to the Ray cluster {where}: {_cause(exc)}"
                ) from None
            self._ours = True
        self._ray = ray
        return ray

    def size(self) -> int | None:
        """A cluster's CPUs (one actor each); a local instance has one per usable core."""
        if not self.address:
            return None
        ray = self.connect(1)
        return max(1, int(ray.cluster_resources().get("CPU", 1)))

    def pool(self, workers: int, tournament_id: str) -> Executor:
        ray = self.connect(workers)
        cpus = int(ray.cluster_resources().get("CPU", 0))
        if workers > cpus:
            raise ConfigError(
                f"the Ray cluster has {cpus} CPUs and a worker takes one: --workers {workers} "
                f"would wait for CPUs that never come (ask for {cpus} at most, or add nodes)"
            )
        from arena.keys import installation_key

        settings = {
            "key": installation_key(),
            "home": str(results_home().resolve()),
            "logs_home": str(logs_home().resolve()),
            "env": {k: os.environ[k] for k in PASSED_ENV if k in os.environ},
            "tournament_id": tournament_id,
            "nice": os.getpriority(os.PRIO_PROCESS, 0),
        }
        return ActorPool(ray, workers, settings)

    def close(self) -> None:
        if self._ray is not None and self._ours:
            self._ray.shutdown()
        self._ray = None
        self._ours = False


def cluster(executor: str, address: str | None = None) -> Cluster:
    """The cluster a tournament's settings name."""
    check(executor, None)
    return RayCluster(address) if executor == RAY else Cluster()


# -------------------------------------------------------------------------------- actors


class LostWorker(BrokenProcessPool):
    """A Ray actor (or its whole node) was lost: the scheduler treats it as a local worker's
    death, playing the pool's unrecorded matches again from their seeds on fresh actors."""


class MatchActor:
    """What runs in one Ray actor's process: the worker of one pool slot.

    The installation key comes in the constructor (never in a job, which is logged), so a
    seat's bot seed is the same as on the scheduler's machine; ``home`` is the scheduler's
    results home, which every node has at the same path (setup marks go there), and
    ``logs_home`` that of the tournament's database, whose ``logs/`` the logs go to.

    Ray starts its workers at niceness 15 (``RAY_worker_niceness``): on a node that runs
    other work too, the bots would get less CPU than locally and so time out more. An actor
    takes the scheduler's niceness (``nice``) back where it may (root, or workers started at
    a lower one), and its bots inherit it.
    """

    def __init__(
        self,
        key: bytes,
        home: str,
        env: dict[str, str],
        tournament_id: str,
        nice: int = 0,
        logs_home: str | None = None,
    ) -> None:
        os.environ["ARENA_SECRET"] = key.hex()
        os.environ["ARENA_HOME"] = home
        os.environ.update(env)
        use_logs_home(Path(logs_home) if logs_home else None)
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, 0, nice)
        self.scratch = scratch_folder()  # and what killed actors of this node left
        init_worker(str(self.scratch))
        self.set_up: set[str] = set()
        _log_to_tournament(tournament_id)

    def close(self) -> None:
        """End its bots and referee server and remove its temporary files, which its pool's
        ``ray.kill`` would leave behind."""
        close_host()
        shutil.rmtree(self.scratch, ignore_errors=True)

    def node(self) -> tuple[str, int, int]:
        """Its node's host name, its process id and niceness (ready: its constructor ran)."""
        return socket.gethostname(), os.getpid(), os.getpriority(os.PRIO_PROCESS, 0)

    def play(self, job: MatchSpec) -> MatchRecord:
        """Play one match (:func:`~arena.scheduler.worker.play_job`), after the setup of its
        bots on this node."""
        for entry in job.seats:
            if entry["version_id"] not in self.set_up and entry.get("setup"):
                setup_on_node(entry)
            self.set_up.add(entry["version_id"])
        return play_job(job)


def setup_on_node(entry: Entry) -> None:
    """Run a bot's ``setup`` on this node unless it already ran here (its mark is in this
    node's results home): one actor at a time per node, under a lock file there, as the
    scheduler runs setups one at a time so that two `npm ci` never race."""
    from arena.catalog import run_setup

    folder = results_home() / "setup"
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / ".lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            run_setup(entry_spec(entry))
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _log_to_tournament(tournament_id: str) -> None:
    """The actor's log lines go to the tournament's log file in this node's results home (on
    the scheduler's node: the scheduler's own log)."""
    log_to_file(tournament_id, f"ray-{socket.gethostname()}-{os.getpid()}")


class ActorPool(Executor):
    """``workers`` Ray actors, fed like a process pool: each job goes to the actor with the
    fewest matches in flight (the scheduler keeps at most two per worker in flight, so an
    actor has its next match queued while it plays one)."""

    def __init__(self, ray: Any, workers: int, settings: dict[str, Any]) -> None:
        self.ray = ray
        remote = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(MatchActor)
        self.actors = [remote.remote(**settings) for _ in range(workers)]
        self.load = [0] * workers
        self.lock = threading.Lock()
        self.futures: set[Future[MatchRecord]] = set()
        self.closed = False
        self._wait_ready()

    def _wait_ready(self) -> None:
        """Every actor started (within :data:`RAY_ACTOR_START_SECONDS`), or a clear error."""
        ray = self.ray
        refs = [actor.node.remote() for actor in self.actors]
        ready, pending = ray.wait(refs, num_returns=len(refs), timeout=RAY_ACTOR_START_SECONDS)
        try:
            if pending:
                cpus = ray.cluster_resources().get("CPU", 0)
                raise ArenaError(
                    f"{len(pending)} of {len(refs)} Ray workers did not start within "
                    f"{RAY_ACTOR_START_SECONDS:g} s (the cluster has {cpus:g} CPUs, one per "
                    "worker: ask for fewer with --workers)"
                )
            nodes = ray.get(ready)
        except ArenaError:
            self.shutdown(wait=False)
            raise
        except Exception as exc:
            self.shutdown(wait=False)
            raise ArenaError(f"a Ray worker could not start: {_cause(exc)}") from None
        hosts = ", ".join(sorted({host for host, _, _ in nodes}))
        log.info("%d Ray workers on %s", len(nodes), hosts)
        niced = sorted({nice for _, _, nice in nodes} - {os.getpriority(os.PRIO_PROCESS, 0)})
        if niced:
            log.warning(
                "Ray workers run at niceness %s, not the scheduler's: their bots may get less "
                "CPU than on the local pool (start the Ray nodes with RAY_worker_niceness=0)",
                ", ".join(map(str, niced)),
            )

    def submit(  # type: ignore[override]
        self, fn: Callable[..., MatchRecord], /, *args: Any, **kwargs: Any
    ) -> Future[MatchRecord]:
        """Play ``fn(job)`` (:func:`play_job`) on the least busy actor."""
        if fn is not play_job or kwargs or len(args) != 1:
            raise TypeError("an actor pool plays matches: submit(play_job, job)")
        with self.lock:
            if self.closed:
                raise RuntimeError("cannot submit to a pool that was shut down")
            slot = min(range(len(self.actors)), key=self.load.__getitem__)
            self.load[slot] += 1
            ref = self.actors[slot].play.remote(args[0])
        future: Future[MatchRecord] = Future()
        self.futures.add(future)
        ref.future().add_done_callback(lambda done: self._settle(slot, done, future))
        return future

    def _settle(self, slot: int, done: Future[MatchRecord], future: Future[MatchRecord]) -> None:
        """Hand an actor's answer on: an outcome, the worker's own error (BotError or
        MatchFailed, as a local worker raises them), or :class:`LostWorker`."""
        with self.lock:
            self.load[slot] -= 1
            self.futures.discard(future)
        if future.done():  # cancelled by a shutdown
            return
        try:
            outcome = done.result()
        except BaseException as exc:
            with contextlib.suppress(Exception):
                future.set_exception(self._translate(exc))
            return
        with contextlib.suppress(Exception):
            future.set_result(outcome)

    def _translate(self, exc: BaseException) -> BaseException:
        from ray import exceptions

        if isinstance(exc, exceptions.RayTaskError):
            cause = getattr(exc, "cause", None)
            if isinstance(cause, BotError | MatchFailed):
                return type(cause)(*cause.args)
            return MatchFailed(f"{type(cause or exc).__name__}: {cause or exc}")
        if isinstance(exc, exceptions.RayActorError | exceptions.WorkerCrashedError):
            return LostWorker(f"a Ray worker was lost: {_cause(exc)}")
        if isinstance(exc, exceptions.RayError):
            return LostWorker(f"Ray failed: {_cause(exc)}")
        return exc

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """End the actors (and so their bots); with ``wait``, after their matches."""
        with self.lock:
            self.closed = True
            pending = list(self.futures)
        if wait:
            for future in pending:
                with contextlib.suppress(BaseException):
                    future.result()
        elif cancel_futures:
            for future in pending:
                future.cancel()
        if wait and self.actors:
            with contextlib.suppress(Exception):
                refs = [actor.close.remote() for actor in self.actors]
                self.ray.get(refs, timeout=ACTOR_CLOSE_SECONDS)
        for actor in self.actors:
            with contextlib.suppress(Exception):
                self.ray.kill(actor, no_restart=True)
        self.actors = []


def _cause(exc: BaseException) -> str:
    """An exception's first line, without Ray's long preamble."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
