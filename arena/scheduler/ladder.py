"""Ladders: matches decided as they are played, for entries that come and go, then finals.

A ladder has no plan up front. Its scheduler decides matches in *batches* of ``batch``
(the worker count of its first run, stored), each with :mod:`.matchmaking`, and stores each
batch's matches in the plan before playing them. The matches of batch ``b`` are decided from
what was recorded before batch ``b - 1`` began (:func:`decision_prefix`): ratings (each
version's ``mu``/``sigma`` after its last recorded match before that index) and faults from
those results only, games and idleness counted in decided matches, never in seconds. So while
batch ``b - 1`` plays, batch ``b`` can be decided, the workers never wait on a batch boundary,
and a ladder's matches are a pure function of its seed, its entries, its batch size and its
recorded results: one killed with ``kill -9`` and resumed decides exactly the matches an
uninterrupted one would have.

Entries change at a decision, at the plan index of the first match decided then, and the
change is stored with those matches (:mod:`arena.results.store.ladders`):

* ``arena tournament add`` / ``remove`` ask; the next decision enters or retires the version;
* a bot whose folder (or remote registration) shows a new version enters it in place of the
  old one, with the old one's ``mu`` and the prior ``sigma`` (Halite): it is rated at once near
  where its predecessor stood, and plays many games soon because it has fewest;
* a version flagged by the fault limit (over its recorded ladder matches) stops being seated;
* a version the operator barred (:mod:`.barring`: disabled, or its author disabled) is retired.

**Finals** (``arena tournament finals``): entries frozen, rating without dynamics (tau = 0),
and a cutoff schedule: every survivor plays up to GAMES finals games, then the survivors are
ranked by ``mu - 3 sigma`` (in the pool of the first table size) and the top KEEP stay; repeat
for each ``GAMES:KEEP`` step (Halite III's finals: the best bots end with the most games).
"""

from __future__ import annotations

import bisect
import hashlib
import random
import time
import uuid
from collections import deque
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from arena.catalog import read_spec, version_id
from arena.catalog.entries import Entry
from arena.catalog.remote import is_remote, remote_entry
from arena.errors import ArenaError, ConfigError
from arena.games import load as load_game
from arena.results.faults import DEFAULT_MIN_MATCHES, DEFAULT_PERCENT, FaultLimit
from arena.results.ratings import CONSERVATIVE_K, MU, SIGMA, pool_key
from arena.results.settling import is_settled
from arena.results.store import Store
from arena.scheduler.barring import DISABLED
from arena.scheduler.matchmaking import Standing, choose_table
from arena.scheduler.plan import derive_seed
from arena.scheduler.tournament import (
    LADDER,
    Runner,
    TournamentSettings,
    default_name,
    default_workers,
    enter_bots,
    register,
    registered_bots,
)
from arena.seeds import new_seed

POLL_SECONDS = 1.0
"""How often a ladder with nothing to play looks for new entries."""
SCAN_SECONDS = 30.0
"""How often a running ladder looks for new versions of its bots (hashing their folders) and
for versions the operator barred."""

REMOVED = "removed"
REPLACED = "replaced"
FLAGGED = "flagged"
CUT = "cut"


def decision_prefix(index: int, batch: int) -> int:
    """The recorded matches the decision for match ``index`` may use: those before the batch
    before its own (so one batch plays while the next is decided)."""
    return max(0, (index // batch - 1) * batch)


def parse_cuts(text: str) -> list[tuple[int, int]]:
    """``20:16,40:8,80:4`` -> [(20, 16), (40, 8), (80, 4)]: games rising, survivors falling."""
    steps: list[tuple[int, int]] = []
    for part in text.split(","):
        games, sep, keep = part.strip().partition(":")
        try:
            step = (int(games), int(keep))
        except ValueError:
            step = (0, 0)
        if not sep or step[0] < 1 or step[1] < 1:
            raise ConfigError(
                f"a finals step is GAMES:KEEP with whole numbers of at least 1, got {part!r}"
            )
        if steps and not (step[0] > steps[-1][0] and step[1] < steps[-1][1]):
            raise ConfigError(
                f"finals steps must raise the games and lower the survivors, got {text!r}"
            )
        steps.append(step)
    return steps


def create(
    store: Store,
    settings: TournamentSettings,
    fault_limit: FaultLimit | None = None,
    entries_later: bool = False,
) -> str:
    """Enter the bots in a new ladder (no match decided yet); returns its id.

    ``fault_limit`` refuses flagged versions now and retires versions it flags later (the
    default limit when None). ``entries_later``: fewer bots than a table are fine (a hosted
    ladder waits for its authors' submissions).
    """
    settings.check(entries_later)
    entries = enter_bots(store, settings.bots, settings.game, fault_limit)
    game_type = load_game(settings.game)
    configs: dict[str, Any] = {}
    pools: dict[str, str] = {}
    for count in settings.seat_counts():
        game = game_type.configure(dict(settings.rules), count)
        configs[str(count)] = game.config()
        pools[str(count)] = pool_key(settings.game, game.rating_format())
    seed = settings.seed if settings.seed is not None else new_seed()
    limit = fault_limit or FaultLimit()
    stored = asdict(settings) | {
        "seed": seed,
        "entries": entries,
        "config": configs[str(settings.seat_counts()[0])],
        "configs": configs,
        "pools": pools,
        "batch": settings.workers or default_workers(),
        "fault_limit": limit.to_dict(),
    }
    tournament_id = uuid.uuid4().hex[:8]
    store.create_tournament(
        tournament_id,
        settings.name or default_name(settings),
        stored,
        seed,
        [],
        planned=settings.matches,
    )
    for entry in entries.values():
        store.ask_to_enter(tournament_id, dict(entry))
    return tournament_id


def ladder_of(store: Store, tournament_id: str) -> dict[str, Any]:
    """The stored ladder (refusing other tournaments with one line)."""
    found = store.tournament(tournament_id)
    if found is None:
        raise ConfigError(f"no tournament {tournament_id!r} in {store.path}")
    if found["settings"].get("format") != LADDER:
        raise ConfigError(f"tournament {tournament_id} is not a ladder (--format ladder)")
    return found


def add(store: Store, tournament_id: str, bot: str, fault_limit: FaultLimit | None) -> Entry:
    """Ask a ladder to enter ``bot`` (a name or folder) at its next decision."""
    found = ladder_of(store, tournament_id)
    if found["settings"].get("finals"):
        raise ConfigError(f"ladder {tournament_id} is in its finals: its entries are frozen")
    (entry,) = enter_bots(store, [bot], found["settings"]["game"], fault_limit).values()
    active = {
        row["bot"]
        for row in store.ladder_entries(tournament_id)
        if row["left_index"] is None and row["leave_requested_at"] is None
    }
    if entry["name"] in active:
        raise ConfigError(
            f"bot {entry['name']!r} is already in ladder {tournament_id}; a new version of it "
            "enters by itself (edit its folder, or `arena bots add` it again)"
        )
    store.ask_to_enter(tournament_id, dict(entry))
    return entry


def remove(store: Store, tournament_id: str, bot: str) -> list[str]:
    """Ask a ladder to retire every version of ``bot`` at its next decision."""
    ladder_of(store, tournament_id)
    retired = store.ask_to_leave(tournament_id, bot)
    if not retired:
        raise ConfigError(f"bot {bot!r} is not in ladder {tournament_id}")
    return retired


def start_finals(store: Store, tournament_id: str, cuts: list[tuple[int, int]]) -> None:
    """Freeze the ladder's entries and schedule its finals from its next match on."""
    found = ladder_of(store, tournament_id)
    settings = found["settings"]
    if settings.get("finals"):
        raise ConfigError(
            f"ladder {tournament_id} already has its finals; resume it to play them: "
            f"arena tournament resume {tournament_id}"
        )
    start = len(store.planned(tournament_id))
    settings["finals"] = {"cut": [list(step) for step in cuts], "start": start, "cuts": []}
    store.set_tournament_settings(tournament_id, settings)


def extend(store: Store, tournament_id: str, matches: int) -> None:
    """Set a ladder's match target to ``matches`` (``resume --matches N``)."""
    found = ladder_of(store, tournament_id)
    decided = len(store.planned(tournament_id))
    if matches < decided:
        raise ConfigError(
            f"ladder {tournament_id} has decided {decided} matches already; "
            f"--matches must be at least that, got {matches}"
        )
    settings = found["settings"]
    settings["matches"] = matches
    store.set_tournament_settings(tournament_id, settings, planned=matches)


def runner_class(settings: Mapping[str, Any]) -> type[Runner]:
    """What runs a stored tournament: a ladder decides its matches as it goes."""
    return LadderRunner if settings.get("format") == LADDER else Runner


@dataclass(slots=True)
class _Seat:
    """What the ladder tracks of a version from its decided matches."""

    games: int = 0
    finals_games: int = 0
    last: int = -1


class LadderRunner(Runner):
    """Decides and plays a ladder's matches until it is stopped or its stop rule holds."""

    def _load(self) -> None:
        store, tournament_id = self.store, self.id
        settings = self.settings
        self.batch = int(settings["batch"])
        self.sizes = [int(n) for n in _as_list(settings["seats"])]
        self.pool_of_size = {int(n): pool for n, pool in settings["pools"].items()}
        self.seed = int(settings["seed"])
        limit = settings.get("fault_limit") or {}
        self.fault_limit = FaultLimit(
            limit.get("percent", DEFAULT_PERCENT), limit.get("min_matches", DEFAULT_MIN_MATCHES)
        )
        self.history: dict[tuple[str, str], tuple[list[int], list[tuple[float, float]]]] = {}
        for index, pool, version, mu, sigma in store.ladder_results(tournament_id):
            self._remember(index, pool, version, mu, sigma)
        self.outcomes: dict[str, tuple[list[int], list[int]]] = {}
        """Per version, the indices of its recorded ladder matches and its faulted matches
        so far at each (so a fault count before any prefix is one bisection)."""
        for index, version, status in store.ladder_seat_statuses(tournament_id):
            self._note_outcome(version, index, status != "OK")
        self.roster = {row["version_id"]: row for row in store.ladder_entries(tournament_id)}
        self.seats: dict[str, _Seat] = {}
        for planned in self.plan:
            self._count(planned)
        self.done = False
        """Nothing more will be decided (its match target, settled ratings or finals' end)."""
        self._scanned = 0.0
        self._barred: set[str] = set()
        self._barred_read: float | None = None
        self._ready: set[str] = set()
        """Versions whose setup ran in this run."""

    def rescan(self) -> None:
        """Look for new versions at the next decision rather than within
        :data:`SCAN_SECONDS` (a hosted arena has just accepted one)."""
        self._scanned = 0.0

    # --- the runner's hooks ----------------------------------------------------------------

    def _pool_of(self, index: int) -> str:
        return str(self.pool_of_size[len(self.plan[index]["seats"])])

    def _frozen(self, index: int) -> bool:
        finals = self.settings.get("finals")
        return bool(finals) and index >= int(finals["start"])

    def _complete(self) -> bool:
        return self.done

    def _waiting(self) -> bool:
        if self.done:
            return False
        time.sleep(POLL_SECONDS)  # nothing to play: look for entries again shortly
        return True

    def _set_up(self, versions: set[str]) -> None:
        super()._set_up(versions - self._ready)
        self._ready |= versions

    def _record(self, index: int, changes: list[Any]) -> None:
        seats = self.results[index].seats
        super()._record(index, changes)
        pool = self._pool_of(index)
        for change in changes:
            self._remember(index, pool, change.entry, change.mu_after, change.sigma_after)
        versions = self.plan[index]["seats"]
        for seat in seats:
            self._note_outcome(versions[seat.seat], index, seat.status != "OK")

    def _total(self) -> int:
        return int(self.settings.get("matches") or 0) or len(self.plan)

    # --- deciding ----------------------------------------------------------------------------

    def _decide(self, queue: deque[dict[str, Any]]) -> None:
        """Decide the rest of the current batch once its decision prefix is recorded."""
        if self.done:
            return
        first = len(self.plan)
        if self.recorded < decision_prefix(first, self.batch):
            return
        finals = self.settings.get("finals")
        target = int(self.settings.get("matches") or 0)
        if target and first >= target and not finals:
            self.done = True
            return
        prefix = decision_prefix(first, self.batch)
        self.roster = {row["version_id"]: row for row in self.store.ladder_entries(self.id)}
        joined, left = self._entry_changes(first, prefix, frozen=bool(finals))
        self._apply(joined, left)
        active = self._active()
        if (
            not finals
            and self.settings.get("until_settled")
            and active
            and all(self._settled(v, prefix) for v in active)
        ):
            self.done = True
        decided: list[dict[str, Any]] = []
        end = (first // self.batch + 1) * self.batch
        if target and not finals:
            end = min(end, target)
        index = first
        while not self.done and index < end:
            if finals and index >= int(finals["start"]):
                seats = self._finals_table(index, active, left, prefix)
                if seats is None:
                    break  # waiting for the stage's last results before the cut
            else:
                seats = self._table(index, active, prefix)
            if not seats:
                break
            planned = {
                "plan_index": index,
                "round": index // self.batch,
                "seed": _match_seed(self.seed, index),
                "seats": seats,
            }
            self._count(planned)
            decided.append(planned)
            index += 1
        if not (decided or joined or left):
            return
        self.store.decide_ladder(self.id, decided, joined, left, self.settings)
        if decided:
            self._set_up({v for p in decided for v in p["seats"]})
        self.plan.extend(decided)
        queue.extend(decided)

    def _apply(
        self,
        joined: Mapping[str, tuple[int, Entry, dict[str, list[float]]]],
        left: Mapping[str, tuple[int, str]],
    ) -> None:
        """Enter and retire versions in the roster, the entries and the rater's book."""
        for version, (index, entry, start) in joined.items():
            row = self.roster.setdefault(version, {"version_id": version, "bot": entry["name"]})
            row |= {"entry": entry, "joined_index": index, "start": start, "left_index": None}
            self.settings["entries"][version] = entry
            self._seed_book(version, start)
        for version, (index, reason) in left.items():
            self.roster[version] |= {"left_index": index, "leave_reason": reason}

    def _active(self) -> list[str]:
        """The versions that may be seated: entered and not retired, in entry order."""
        return [
            version
            for version, row in self.roster.items()
            if row.get("joined_index") is not None and row.get("left_index") is None
        ]

    def _table(self, index: int, active: list[str], prefix: int) -> list[str] | None:
        """The ladder match at ``index``: the first of the table sizes, from the size its
        index points at on, that the entries can fill."""
        size = self._size(index, len(active))
        if size is None:
            return None
        pool = self.pool_of_size[size]
        standings = [
            Standing(
                version,
                self._rating(pool, version, prefix)[0],
                self._seat(version).games,
                index - max(self._seat(version).last, self._joined(version)),
            )
            for version in active
        ]
        return choose_table(standings, size, _rng(self.seed, index))

    def _finals_table(
        self, index: int, active: list[str], left: dict[str, tuple[int, str]], prefix: int
    ) -> list[str] | None:
        """A finals match, or [] when the finals are over, or None to wait for the results
        a cut needs. A stage ends when fewer than the smallest table's survivors still need
        games; then the bottom of the table is cut (recorded in ``left``)."""
        finals = self.settings["finals"]
        while True:
            stage = len(finals["cuts"])
            if stage >= len(finals["cut"]):
                self.done = True
                return []
            games, keep = finals["cut"][stage]
            survivors = [v for v in active if v not in left]
            needing = [v for v in survivors if self._seat(v).finals_games < games]
            size = self._size(index, len(needing))
            if size is not None:
                pool = self.pool_of_size[size]
                standings = [
                    Standing(
                        v,
                        self._rating(pool, v, prefix)[0],
                        self._seat(v).finals_games,
                        index - max(self._seat(v).last, self._joined(v)),
                    )
                    for v in needing
                ]
                return choose_table(standings, size, _rng(self.seed, index))
            if self.recorded < index:
                return None
            for version in sorted(survivors, key=lambda v: self._finals_rank(v, index))[keep:]:
                left[version] = (index, CUT)
                self.roster[version] |= {"left_index": index, "leave_reason": CUT}
            finals["cuts"].append(index)

    def _finals_rank(self, version: str, index: int) -> tuple[float, str]:
        """Where a survivor stands at a cut: ``mu - 3 sigma`` in the first table size's pool,
        from every result before ``index``."""
        mu, sigma = self._rating(self.pool_of_size[self.sizes[0]], version, index)
        return (-(mu - CONSERVATIVE_K * sigma), version)

    def _size(self, index: int, available: int) -> int | None:
        """The table size for match ``index``: the sizes in turn, the first that fits."""
        count = len(self.sizes)
        for step in range(count):
            size = self.sizes[(index + step) % count]
            if size <= available:
                return size
        return None

    def _entry_changes(
        self, index: int, prefix: int, frozen: bool
    ) -> tuple[dict[str, tuple[int, Entry, dict[str, list[float]]]], dict[str, tuple[int, str]]]:
        """The entries that enter and leave at ``index``: asked for, new versions, flagged,
        barred by the operator."""
        joined: dict[str, tuple[int, Entry, dict[str, list[float]]]] = {}
        left: dict[str, tuple[int, str]] = {}
        active = self._active()
        barred = self._barred_versions()
        for version, row in self.roster.items():
            if row["left_index"] is not None:
                continue
            if row.get("leave_requested_at"):
                left[version] = (index, REMOVED)
            elif version in barred:
                left[version] = (index, DISABLED)
            elif row["joined_index"] is None and not frozen:
                joined[version] = (index, row["entry"], self._start(version, None, prefix))
        for version in active:
            if version not in left and self._flagged(version, prefix):
                left[version] = (index, FLAGGED)
        if not frozen:
            for old, new in self._new_versions(active).items():
                if old in left or new["version_id"] in self.roster:
                    continue
                if new["version_id"] in barred:  # its folder now holds a barred version
                    left[old] = (index, DISABLED)
                    continue
                left[old] = (index, REPLACED)
                joined[new["version_id"]] = (
                    index,
                    new,
                    self._start(new["version_id"], old, prefix),
                )
        return joined, left

    def _barred_versions(self) -> set[str]:
        """The versions the operator barred, read at a run's first decision and at most every
        :data:`SCAN_SECONDS` after; as for new versions, when this is noticed does not matter
        to a resume, because a retirement is stored at the index where it took effect."""
        now = time.monotonic()
        if self._barred_read is None or now - self._barred_read >= SCAN_SECONDS:
            self._barred_read = now
            self._barred = self.store.barred_versions()
        return self._barred

    def _new_versions(self, active: list[str]) -> dict[str, Entry]:
        """Active versions whose bot now has another version: old id -> the new entry (the
        folder its name is registered for, edited or another one; a remote bot's new label).

        Folders are hashed at most every :data:`SCAN_SECONDS`; when this is noticed does not
        matter to a resume, because the change is stored at the index where it took effect.
        """
        now = time.monotonic()
        if self._scanned and now - self._scanned < SCAN_SECONDS:
            return {}
        self._scanned = now
        registered = registered_bots(self.store)
        found: dict[str, Entry] = {}
        for version in active:
            entry = self.roster[version]["entry"]
            if is_remote(entry):
                current = remote_entry(self.store, entry["name"], self.game_name)
                if current is not None and current["version_id"] != version:
                    found[version] = current
                continue
            # Where the bot's name points now: its folder edited, or repointed elsewhere
            # (`arena bots add --replace`, an accepted submission).
            folder = registered.get(entry["name"], Path(entry["path"]))
            try:
                spec = read_spec(folder)
                if version_id(spec) != version:
                    new = register(self.store, spec, replace=True)
                    if new["label"] == entry["label"]:
                        new["label"] = f"{new['label']} ({new['version_id'][:8]})"
                    found[version] = new
            except (ArenaError, OSError):
                continue  # a folder mid-edit or gone: its matches will say so
        return found

    def _start(self, version: str, predecessor: str | None, prefix: int) -> dict[str, list[float]]:
        """The rating a version enters with, per pool: its predecessor's ``mu`` with the prior
        ``sigma`` (a new version), or what the pool already holds for it (the prior if none)."""
        start: dict[str, list[float]] = {}
        for pool in self.pools:
            if predecessor is not None and not self.games.get((pool, version)):
                start[pool] = [self._rating(pool, predecessor, prefix)[0], SIGMA]
            else:
                rating = self.book.rating(pool, version)
                start[pool] = [rating.mu, rating.sigma]
        return start

    def _seed_book(self, version: str, start: dict[str, list[float]]) -> None:
        """Give the rater the entered version's starting ratings (a new version's carried mu)."""
        for pool, (mu, sigma) in start.items():
            if not self.games.get((pool, version)):
                self.book.ratings.setdefault(pool, {})[version] = self.book.env.create_rating(
                    mu, sigma
                )

    # --- what the decisions read -----------------------------------------------------------

    def _remember(self, index: int, pool: str, version: str, mu: float, sigma: float) -> None:
        indices, values = self.history.setdefault((pool, version), ([], []))
        indices.append(index)
        values.append((mu, sigma))

    def _rating(self, pool: str, version: str, prefix: int) -> tuple[float, float]:
        """The version's (mu, sigma) in ``pool`` after its last match recorded before
        ``prefix`` (the rating it entered with before any)."""
        indices, values = self.history.get((pool, version), ([], []))
        at = bisect.bisect_left(indices, prefix)
        if at:
            return values[at - 1]
        start = (self.roster.get(version) or {}).get("start") or {}
        mu, sigma = start.get(pool, (MU, SIGMA))
        return float(mu), float(sigma)

    def _settled(self, version: str, prefix: int) -> bool:
        return all(is_settled(self._rating(pool, version, prefix)[1]) for pool in self.pools)

    def _flagged(self, version: str, prefix: int) -> bool:
        """Flagged by the fault limit over its ladder matches recorded before ``prefix``."""
        indices, faulted = self.outcomes.get(version, ([], []))
        seen = bisect.bisect_left(indices, prefix)
        if seen < self.fault_limit.min_matches:
            return False
        return 100.0 * faulted[seen - 1] / seen > self.fault_limit.percent

    def _note_outcome(self, version: str, index: int, faulted: bool) -> None:
        indices, counts = self.outcomes.setdefault(version, ([], []))
        indices.append(index)
        counts.append((counts[-1] if counts else 0) + faulted)

    def _joined(self, version: str) -> int:
        row = self.roster.get(version) or {}
        joined = row.get("joined_index")
        return int(joined) if joined is not None else len(self.plan)

    def _seat(self, version: str) -> _Seat:
        return self.seats.setdefault(version, _Seat())

    def _count(self, planned: dict[str, Any]) -> None:
        """Count a decided match in its versions' games."""
        finals = self.settings.get("finals")
        in_finals = bool(finals) and planned["plan_index"] >= int(finals["start"])
        for version in planned["seats"]:
            seat = self._seat(version)
            seat.games += 1
            seat.finals_games += in_finals
            seat.last = planned["plan_index"]


def _as_list(seats: int | list[int]) -> list[int]:
    return list(seats) if isinstance(seats, list) else [seats]


def _match_seed(seed: int, index: int) -> int:
    """A ladder match's seed: stable across processes and Python versions, below 2**63."""
    return derive_seed(seed, -1, index)


def _rng(seed: int, index: int) -> random.Random:
    """The seeded randomness of the decision for match ``index``."""
    digest = hashlib.sha256(f"{seed}/ladder/{index}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))
