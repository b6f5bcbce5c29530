"""Building and checking submitted bots: a received archive becomes an accepted version of its
author's bot, or is rejected with one line saying why and the logs that tell more.

One submission at a time, oldest first, each from the start: unpack into the quarantine
folder (:func:`~arena.submissions.unpack`), read ``bot.toml`` and claim its name for the
author, run ``setup`` as a seat user in the namespace sandbox with a time limit (its output
kept in the build log), run ``check-bot`` for every game the bot lists (the report kept in the
check log), then register the folder as the bot's new version. The status is in the database
at every step, so a build cut short (the serve killed) is found unfinished at the next start
and done again from the unpacking; nothing of it was registered.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import stat
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from arena.catalog.entries import Entry
from arena.catalog.manifest import BotSpec, read_spec
from arena.catalog.remote import NAME
from arena.catalog.setup import SETUP_TIMEOUT, run_setup
from arena.errors import ArenaError
from arena.games import names as registered_games
from arena.referee import checkbot
from arena.results.store import Store, StoreError, open_store
from arena.sandbox.isolation import detect
from arena.sandbox.seat_users import SeatUser, SeatUsers
from arena.scheduler.tournament import cannot_start, register
from arena.submissions.archive import unpack
from arena.submissions.files import SubmissionFiles, tree_bytes

log = logging.getLogger("arena.submissions")

POLL_SECONDS = 0.5
"""How often the builder looks for a received submission."""
REASON_CHARACTERS = 600
"""The longest a rejection's one line gets (the logs hold the rest)."""


class Rejected(Exception):
    """Why a submission is rejected: one line for its author."""


@dataclass(frozen=True)
class BuildSettings:
    """How a submission is built and checked."""

    setup_seconds: float = SETUP_TIMEOUT
    """The longest a ``setup`` may run (ten minutes, as Halite allowed)."""
    move_time: float = 1.0
    """The check's time per decision, as ``arena check-bot --move-time``."""
    startup_time: float = 10.0
    """The check's time to start and say Hello."""


Accepted = Callable[[BotSpec, Entry], None]
"""Told of each accepted version (the serve enters it in its ladders)."""


class Builder:
    """Builds the received submissions of one results database, one at a time."""

    def __init__(
        self,
        db: Path,
        root: Path,
        settings: BuildSettings | None = None,
        on_accepted: Accepted | None = None,
    ) -> None:
        self.db = db
        self.root = root
        self.settings = settings or BuildSettings()
        self.on_accepted = on_accepted

    def run(self, stopping: threading.Event) -> None:
        """Build submissions as they arrive until ``stopping`` is set."""
        with open_store(self.db) as store:
            while not stopping.is_set():
                waiting = store.unfinished_submissions()
                if not waiting:
                    stopping.wait(POLL_SECONDS)
                    continue
                self.build(store, waiting[0])

    def build(self, store: Store, submission_id: str) -> str:
        """Build and check one submission; its final status."""
        found = store.submission(submission_id)
        if found is None:
            raise ArenaError(f"no submission {submission_id!r}")
        files = SubmissionFiles.of(self.root, submission_id)
        log.info("building submission %s of %s", submission_id, found["author"])
        store.set_submission(submission_id, "building")
        try:
            spec = self._build(store, found["author"], files)
            store.set_submission(submission_id, "checking", bot=spec.name, games=list(spec.games))
            self._check(spec, files)
            entry = register(store, spec, replace=True)
        except Rejected as why:
            reason = " ".join(str(why).replace(str(files.bot), ".").split())
            if len(reason) > REASON_CHARACTERS:
                reason = reason[: REASON_CHARACTERS - 1] + "…"
            clear_folder(files.bot)
            store.set_submission(
                submission_id, "rejected", reason=reason, stored_bytes=tree_bytes(files.folder)
            )
            log.info("submission %s rejected: %s", submission_id, reason)
            return "rejected"
        store.set_submission(
            submission_id,
            "accepted",
            version_id=entry["version_id"],
            stored_bytes=tree_bytes(files.folder),
        )
        log.info("submission %s accepted: %s %s", submission_id, spec.name, entry["version_id"])
        if self.on_accepted is not None:
            self.on_accepted(spec, entry)
        return "accepted"

    def _build(self, store: Store, author: str, files: SubmissionFiles) -> BotSpec:
        """Unpack, read, claim and set up; the bot's spec."""
        if any(row["name"] == author and row["disabled_at"] for row in store.authors()):
            raise Rejected(f"the author {author!r} is disabled")
        archive = files.received()
        if archive is None:
            raise Rejected("the uploaded archive is missing")
        clear_folder(files.bot)
        for stale in (files.build_log, files.check_log):
            stale.unlink(missing_ok=True)
        try:
            unpack(archive, files.bot)
        except ArenaError as exc:
            raise Rejected(str(exc).replace(str(archive), "the archive")) from None
        folder = _bot_folder(files.bot)
        try:
            spec = read_spec(folder)
        except ArenaError as exc:
            raise Rejected(str(exc)) from None
        if not NAME.fullmatch(spec.name):
            raise Rejected(
                "the bot's name in bot.toml must be 1-64 letters, digits, '_', '.' or '-', "
                "starting with a letter or digit"
            )
        unknown = [game for game in spec.games if game not in registered_games()]
        if unknown:
            raise Rejected(f"bot.toml lists games this arena does not have: {', '.join(unknown)}")
        try:
            store.claim_bot(author, spec.name)
        except StoreError as exc:
            raise Rejected(str(exc)) from None
        if spec.setup is not None:
            self._set_up(spec, files)
        why = cannot_start(spec)
        if why is not None:
            raise Rejected(f"the bot cannot start: {why}")
        return spec

    def _set_up(self, spec: BotSpec, files: SubmissionFiles) -> None:
        """Run the setup as a seat user owning the folder, then hand the folder back."""
        files.build_log.touch()
        with _seat_user() as uid:
            if uid is not None:
                _own(spec.path, uid)
            try:
                run_setup(
                    spec,
                    force=True,
                    log=files.build_log,
                    uid=uid,
                    timeout=self.settings.setup_seconds,
                )
            except ArenaError as exc:
                raise Rejected(str(exc)) from None
            finally:
                if uid is not None:
                    _own(spec.path, os.getuid(), writable=False)
        leaving = _link_leaving(spec.path)
        if leaving is not None:
            raise Rejected(f"the setup left a link leading out of the folder: {leaving}")

    def _check(self, spec: BotSpec, files: SubmissionFiles) -> None:
        """``check-bot`` for every game the bot lists; the report in the check log."""
        failures: list[str] = []
        with files.check_log.open("w") as out:
            for game in spec.games:
                try:
                    results, latencies = checkbot.run(
                        spec, self.settings.move_time, self.settings.startup_time, game
                    )
                except ArenaError as exc:
                    out.write(f"{game}: the check could not run: {exc}\n")
                    failures.append(f"{game}: {exc}")
                    continue
                out.write(f"== {spec.name} ({game})\n")
                for result in results:
                    timing = f"{result.ms:8.2f} ms" if result.ms is not None else " " * 11
                    verdict = "PASS" if result.ok else "FAIL"
                    detail = _public(result.detail)
                    out.write(f"{verdict}  {result.name:<34} {timing}  {detail}\n")
                if latencies:
                    p50 = checkbot.percentile(latencies, 50)
                    p99 = checkbot.percentile(latencies, 99)
                    out.write(f"latency over {len(latencies)} answers: p50 {p50:.2f} ms, ")
                    out.write(f"p99 {p99:.2f} ms\n")
                failed = [r for r in results if not r.ok]
                for result in failed[:1]:
                    failures.append(f"{game}: {result.name}: {_public(result.detail)}")
                verdict = "all checks passed" if not failed else f"{len(failed)} check(s) failed"
                out.write(f"{spec.name} ({game}): {verdict}\n\n")
        if failures:
            raise Rejected("check-bot failed: " + "; ".join(failures))


def _public(detail: str) -> str:
    """A check's detail without the arena's own paths (the bot's log path is the arena's)."""
    head, _, _ = detail.partition("; log: ")
    return head


def _bot_folder(unpacked: Path) -> Path:
    """The folder holding ``bot.toml``: the archive's top, or its one folder (an archive made
    of the bot's folder rather than its contents)."""
    if (unpacked / "bot.toml").is_file():
        return unpacked
    inside = list(unpacked.iterdir())
    if len(inside) == 1 and inside[0].is_dir() and (inside[0] / "bot.toml").is_file():
        return inside[0]
    raise Rejected("the archive has no bot.toml at its top (nor in its one folder)")


def clear_folder(folder: Path) -> None:
    """Remove a bot folder a build left (its setup's files may be read-only)."""
    if folder.exists() or folder.is_symlink():
        shutil.rmtree(folder, onerror=_writable_then_retry)


def _writable_then_retry(function: Callable[..., object], path: str, _: object) -> None:
    with contextlib.suppress(OSError):
        os.chmod(os.path.dirname(path), 0o700)
        function(path)


@contextlib.contextmanager
def _seat_user() -> Iterator[int | None]:
    """A seat user's uid held for a setup (None where the machine has no seat users, or no
    sandbox to switch to one in)."""
    isolation = detect()
    if isolation.uids is None or isolation.bwrap is None:
        yield None
        return
    user: SeatUser = SeatUsers(isolation.uids).take()
    try:
        yield user.uid
    finally:
        from arena.sandbox.seat_users import kill_all

        with contextlib.suppress(OSError, ArenaError):
            kill_all(user.uid)  # a daemon the setup left behind
        user.release()


def _own(folder: Path, uid: int, writable: bool = True) -> None:
    """Give every file and folder under ``folder`` to ``uid`` (links themselves, never their
    targets); with ``writable`` false, also take away write access from group and others and
    every set-id bit (what a setup run as a seat user may have made)."""
    for path in [folder, *_walk(folder)]:
        os.lchown(path, uid, uid)
        if writable or path.is_symlink():
            continue
        mode = path.lstat().st_mode
        os.chmod(path, stat.S_IMODE(mode) & ~(stat.S_ISUID | stat.S_ISGID | 0o022))


def _walk(folder: Path) -> Iterator[Path]:
    for parent, folders, names in os.walk(folder):
        for name in folders + names:
            yield Path(parent, name)


def _link_leaving(folder: Path) -> str | None:
    """The first symbolic link under ``folder`` whose target is outside it, or None (the
    arena hashes the folder's files to name the version: it must not be led elsewhere)."""
    top = folder.resolve()
    for path in _walk(folder):
        if path.is_symlink():
            target = Path(os.path.realpath(path))
            if not target.is_relative_to(top):
                return str(path.relative_to(folder))
    return None
