"""A bot's ``setup``: run once per version of its files, one at a time per folder, unattended,
in the sandbox when the machine has one."""

from __future__ import annotations

import collections
import contextlib
import fcntl
import hashlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from arena.catalog.commands import bot_environment, resolve_argv
from arena.catalog.manifest import BotSpec
from arena.catalog.versions import version_id
from arena.errors import BotError
from arena.paths import results_home


def setup_marker(spec: BotSpec, version: str | None = None) -> Path:
    """Where the referee notes that a bot's ``setup`` ran for this folder, setup command and
    version of the bot's files (outside the bot's folder): a change to any of them runs it
    again."""
    key = json.dumps([str(spec.path), spec.setup, version or version_id(spec)])
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return results_home() / "setup" / f"{spec.path.name}-{digest}.done"


SETUP_TIMEOUT = 600.0
"""Seconds a ``setup`` may take."""


def run_setup(
    spec: BotSpec,
    force: bool = False,
    *,
    log: Path | None = None,
    uid: int | None = None,
    timeout: float = SETUP_TIMEOUT,
) -> bool:
    """Run the bot's ``setup`` (with ``force``, or when this version of its files has not had
    it yet); True if it ran. Its output goes to stderr, never stdout (kept for ``--json``), or
    with ``log`` to that file only (a submitted bot's build log, up to :data:`LOG_BYTES`).
    ``uid``: the seat user it runs as, in the namespace sandbox (a submitted bot's setup: the
    caller owns the folder to that user for the time of the setup). ``timeout``: seconds.

    One setup of a folder runs at a time: two arena commands or workers starting the same
    bot at once would otherwise both run ``npm ci``, and the second deletes ``node_modules``
    under the first. The later one waits for the lock, then finds the setup done."""
    if spec.setup is None:
        return False
    if not force and setup_marker(spec).exists():  # set up already: no lock, no waiting
        return False
    with folder_lock(spec):
        return _run_setup_locked(spec, force, log, uid, timeout)


@contextlib.contextmanager
def folder_lock(spec: BotSpec) -> Iterator[None]:
    """An exclusive lock on the bot's folder (``flock`` on the folder itself, so nothing is
    written into it). A wait is bounded by the holder's own :data:`SETUP_TIMEOUT`, and the
    lock goes with the holder's descriptor, even when it is killed."""
    try:
        fd = os.open(spec.path, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as exc:
        raise BotError(f"bot folder {spec.path} cannot be opened: {exc.strerror}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(
                f"arena: waiting for another setup of bot {spec.name!r} to finish",
                file=sys.stderr,
                flush=True,
            )
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:  # a filesystem without locks (some network mounts): run unlocked
            pass
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def _run_setup_locked(
    spec: BotSpec, force: bool, log: Path | None, uid: int | None, timeout: float
) -> bool:
    assert spec.setup is not None
    before = version_id(spec)
    marker = setup_marker(spec, before)
    if marker.exists() and not force:
        return False
    argv = resolve_argv(spec.setup)
    shown = shlex.join(argv)
    print(f"arena: setup of bot {spec.name!r} in {spec.path}: {shown}", file=sys.stderr, flush=True)
    tail: collections.deque[str] = collections.deque(maxlen=5)
    home = Path(tempfile.mkdtemp(prefix="arena-setup-"))
    if uid is not None:
        os.chown(home, uid, uid)
    command, env = setup_command(spec, argv, home, uid)
    try:
        process = subprocess.Popen(
            command,
            cwd=spec.path,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    except OSError as exc:
        shutil.rmtree(home, ignore_errors=True)
        raise BotError(f"setup of bot {spec.name!r} ({shown}) failed: {exc.strerror}") from None
    copier = threading.Thread(target=_copy_output, args=(process, tail, log), daemon=True)
    copier.start()
    try:
        code = process.wait(timeout)
    except subprocess.TimeoutExpired:
        _kill_group(process)
        raise BotError(
            f"setup of bot {spec.name!r} ({shown}) took longer than {timeout:g} s"
        ) from None
    except BaseException:  # Ctrl-C: do not leave the setup running
        _kill_group(process)
        raise
    finally:
        copier.join(5)
        shutil.rmtree(home, ignore_errors=True)
    if code != 0:
        raise BotError(
            f"setup of bot {spec.name!r} ({shown}) exited {code}: "
            + (" | ".join(line.strip() for line in tail if line.strip()) or "no output")
        )
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(shown + "\n")
    after = version_id(spec)
    if after != before:  # the setup wrote into the folder: that result is set up too
        setup_marker(spec, after).write_text(shown + "\n")
    return True


UNATTENDED = {
    "npm_config_update_notifier": "false",
    "npm_config_loglevel": "error",
    "PIP_DISABLE_PIP_VERSION_CHECK": "1",
}
"""A setup runs unattended: package managers print errors, not update notices or advice
(a setup that wants more output says so in its own flags, e.g. ``npm ci --loglevel=warn``)."""


def setup_command(
    spec: BotSpec, argv: list[str], home: Path, uid: int | None = None
) -> tuple[list[str], dict[str, str]]:
    """How a bot's ``setup`` runs: its argv and whole environment.

    The environment is a bot's (:func:`~arena.sandbox.launcher.bot_env`: no key, no results
    home, a private ``HOME``). With the namespace layer on, the setup runs in a bubblewrap
    sandbox like the bot itself, with the network (it downloads packages) and its own
    folder writable (it installs them there), and nothing else of the host writable or
    visible: a stranger's setup cannot reach the results, the key, other bots or the
    arena's own environment.
    """
    from arena.sandbox.bubblewrap import bwrap_argv
    from arena.sandbox.isolation import detect
    from arena.sandbox.launcher import bot_env

    env = bot_env(dict(os.environ), bot_environment(), home)
    for key, value in UNATTENDED.items():
        env.setdefault(key, value)
    bwrap = detect().bwrap
    if bwrap is None:
        if uid is not None:
            raise BotError(f"setup of bot {spec.name!r} as a seat user needs bubblewrap")
        return argv, env
    wrapped = bwrap_argv(
        bwrap,
        argv,
        cwd=spec.path,
        home=home,
        socket_dir=None,
        uid=uid,
        path_env=env["PATH"],
        writable_cwd=True,
    )
    return wrapped, env


LINE_BYTES = 65_536
"""The longest piece of output read at once (a line longer is read in pieces)."""
LOG_BYTES = 1_000_000
"""The most of a setup's output a build log keeps (its first megabyte; the rest is read and
dropped, so a setup that floods its output neither fills the disk nor blocks)."""


def _copy_output(
    process: subprocess.Popen[bytes], tail: collections.deque[str], log: Path | None
) -> None:
    """Copy the setup's output to stderr (or ``log``) as it comes, keeping its last lines
    for an error."""
    assert process.stdout is not None
    kept = 0
    with contextlib.ExitStack() as files:
        out = files.enter_context(log.open("ab")) if log is not None else None
        stdout = process.stdout
        for raw in iter(lambda: stdout.readline(LINE_BYTES), b""):  # a line without end: pieces
            line = raw.decode(errors="replace")
            tail.append(line[:500])
            if out is None:
                sys.stderr.write(line)
                sys.stderr.flush()
            elif kept < LOG_BYTES:
                out.write(raw[: LOG_BYTES - kept])
                kept += len(raw)
                if kept >= LOG_BYTES:
                    out.write(b"\n[the rest of the output was not kept]\n")
                out.flush()


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """End a setup and everything it started (it runs in its own session)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
