"""TrueSkill ratings: match records in, ratings out (no database, no I/O).

Every seat of a match is its own one-player team, rated with the ``trueskill``
library in a private environment (never trueskill's global setup, so nothing
else in the process can change our numbers). The parameters:

``MU = 25``
    A new entry's mean skill (trueskill's customary scale).
``SIGMA = MU / 3``
    A new entry's uncertainty: ``mu - 3*sigma`` starts at 0.
``BETA = SIGMA / 2``
    The skill gap that gives the better player about a 76 % chance of winning.
``TAU = SIGMA / 100``
    Dynamics: sigma never shrinks to nothing, so ratings can still follow a bot
    that changes.
``DRAW_PROBABILITY = 0.05``
    Above 0 because games capped by the round limit can end in tied places.

Ratings live in pools, one per format (:func:`pool_key`, e.g.
``"classic/3p/world"``): a 3-player game is not the same contest as a duel.
Leaderboards order entries by :func:`conservative` (``mu - 3*sigma``).

TrueSkill updates do not commute, so results are applied in *plan order*
(the tournament's match index), not completion order: :class:`OrderedRater`
buffers early finishers until their predecessors are in, and :func:`rebuild`
replays stored matches in the same order, so recomputing gives the same book.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import trueskill

from arena.statuses import SeatStatus

MU: float = 25.0
SIGMA: float = MU / 3
BETA: float = SIGMA / 2
TAU: float = SIGMA / 100
DRAW_PROBABILITY: float = 0.05
CONSERVATIVE_K: float = 3.0
"""How many sigmas :func:`conservative` subtracts: ~99.7 % sure the skill is at least that."""

OK: str = SeatStatus.OK.value


def environment() -> trueskill.TrueSkill:
    """A fresh TrueSkill environment with the arena's parameters (never the global one)."""
    return trueskill.TrueSkill(
        mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, draw_probability=DRAW_PROBABILITY
    )


def frozen_environment(env: trueskill.TrueSkill) -> trueskill.TrueSkill:
    """``env`` without dynamics (tau = 0): ratings only sharpen, as in a ladder's finals,
    where entries are frozen and no bot can change any more."""
    return trueskill.TrueSkill(
        mu=env.mu, sigma=env.sigma, beta=env.beta, tau=0.0, draw_probability=env.draw_probability
    )


def conservative(rating: trueskill.Rating) -> float:
    """``mu - 3*sigma``: a skill we are fairly sure of, so new entries do not top the board."""
    return float(rating.mu - CONSERVATIVE_K * rating.sigma)


def pool_key(game: str, rating_format: str | int, mode: str | None = None) -> str:
    """The rating pool of one format: ``GAME/FORMAT``, the format being the configured
    game's :meth:`~arena.games.api.Game.rating_format` (``pool_key("classic", "3p/world")``
    is ``"classic/3p/world"``): formats never mix.

    The older call ``pool_key(game, seats, mode)`` names the same pool (``"classic/3p/world"``
    from ``("classic", 3, "world")``), so databases made before keep their pools.
    """
    if not game or "/" in game:
        raise ValueError(f"pool game must be a non-empty name without '/', got {game!r}")
    if isinstance(rating_format, int):
        if mode is None or not mode or "/" in mode:
            raise ValueError(f"pool mode must be a non-empty name without '/', got {mode!r}")
        if rating_format < 2:
            raise ValueError(f"a rated format needs at least 2 seats, got {rating_format}")
        rating_format = f"{rating_format}p/{mode}"
    elif mode is not None:
        raise ValueError("pool_key takes a rating format, or seats and a mode, not both")
    if not rating_format or any(not part for part in rating_format.split("/")):
        raise ValueError(
            f"a rating format must be non-empty names joined by '/', got {rating_format!r}"
        )
    return f"{game}/{rating_format}"


def pool_game(pool: str) -> str:
    """The game a pool rates (its first part: ``classic`` of ``classic/3p/world``)."""
    return pool.split("/", 1)[0]


# --- places and statuses -> TrueSkill ranks ------------------------------------------------


def _check_result(places: Sequence[int], statuses: Sequence[str]) -> None:
    """Refuse results that cannot be ranked, saying what was expected."""
    if len(places) != len(statuses):
        raise ValueError(f"{len(places)} places but {len(statuses)} statuses: one of each per seat")
    if not places:
        raise ValueError("a result needs at least one seat")
    bad = [p for p in places if p < 1]
    if bad:
        raise ValueError(f"places start at 1 (the best), got {list(places)}")


def _out_positions(out_order: Sequence[int], statuses: Sequence[str]) -> dict[int, int]:
    """Seat -> when it left the game; every forfeited seat must have left."""
    n = len(statuses)
    if len(set(out_order)) != len(out_order) or any(not 0 <= s < n for s in out_order):
        raise ValueError(f"out_order must list distinct seats 0..{n - 1}, got {list(out_order)}")
    position = {seat: i for i, seat in enumerate(out_order)}
    missing = [s for s, status in enumerate(statuses) if status != OK and s not in position]
    if missing:
        raise ValueError(f"forfeited seats {missing} are missing from out_order {list(out_order)}")
    return position


def _alive_ok_seats(
    seat: int, statuses: Sequence[str], position: dict[int, int] | None
) -> list[int]:
    """OK seats still in the game when ``seat`` left (all OK seats if we do not know)."""
    if position is None:
        return [s for s, status in enumerate(statuses) if status == OK]
    gone_at = position[seat]
    return [
        s
        for s, status in enumerate(statuses)
        if status == OK and position.get(s, len(position)) > gone_at
    ]


def _forfeit_key(
    seat: int, places: Sequence[int], statuses: Sequence[str], position: dict[int, int] | None
) -> tuple[int, int, int]:
    """Sort key of a forfeited seat: just behind the worst alive OK seat it out-placed."""
    behind = [places[s] for s in _alive_ok_seats(seat, statuses, position)]
    worse = [p for p in behind if p > places[seat]]
    if not worse:
        return (places[seat], 0, 0)
    return (max(worse), 1, places[seat])


def _keep_forfeit_order(
    keys: list[tuple[int, int, int]], forfeits: list[int], places: Sequence[int]
) -> None:
    """Forfeited seats keep their order by place: a moved seat never drops below one it beat."""
    floor: tuple[int, int, int] | None = None
    for place in sorted({places[s] for s in forfeits}):
        group = [s for s in forfeits if places[s] == place]
        key = max(keys[s] for s in group)
        if floor is not None and key < floor:
            key = (floor[0], 1, place)
        for s in group:
            keys[s] = key
        floor = key


def _competition_ranks(keys: Sequence[tuple[int, int, int]]) -> list[int]:
    """0-based "1224" ranking: equal keys share a rank, the next rank skips."""
    return [sum(other < key for other in keys) for key in keys]


def ranks_from_result(
    places: list[int], statuses: list[str], out_order: list[int] | None = None
) -> list[int]:
    """TrueSkill ranks (0 = best, ties equal) from places (1 = best, ties share a place).

    Starts from ``places - 1``. A seat whose status is not ``"OK"`` forfeited, and a
    forfeit must never pay: such a seat never ranks above an OK seat that was still
    in the game when it left. ``out_order`` lists seats in the order they left the
    game (eliminated or forfeited, earliest first); without it every OK seat counts
    as alive then. The engine already places forfeits behind every seat alive at
    that moment, so with ``out_order`` this mostly validates. The repair, explicitly:

    * a forfeited seat with an alive OK seat placed strictly worse moves to just
      behind the worst such OK seat (a tie with an OK seat at the same place is kept);
    * forfeited seats keep their order among themselves by place, ties kept (a
      moved seat that beat another forfeited seat stays ahead of it);
    * OK seats keep their order and ties.

    Ranks come out as a competition ranking ("1224"), which for places that need
    no repair is exactly ``places - 1``.
    """
    _check_result(places, statuses)
    position = None if out_order is None else _out_positions(out_order, statuses)
    keys = [(p, 0, 0) for p in places]
    forfeits = [s for s, status in enumerate(statuses) if status != OK]
    for seat in forfeits:
        keys[seat] = _forfeit_key(seat, places, statuses, position)
    _keep_forfeit_order(keys, forfeits, places)
    return _competition_ranks(keys)


# --- the rating book -----------------------------------------------------------------------


@dataclass(frozen=True)
class RatingChange:
    """One seat's rating before and after a match, for logs and the database."""

    entry: str
    seat: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


@dataclass(frozen=True)
class MatchRecord:
    """A stored, finished match: what :func:`rebuild` replays. Lists become tuples."""

    tournament_id: str
    plan_index: int
    pool: str
    entries: tuple[str, ...]
    places: tuple[int, ...]
    statuses: tuple[str, ...]
    out_order: tuple[int, ...] | None = field(default=None, kw_only=True)
    frozen: bool = field(default=False, kw_only=True)
    """Rated without dynamics (tau = 0): a finals match."""

    def __post_init__(self) -> None:
        """Freeze the sequences so a record cannot change after it is stored."""
        for name in ("entries", "places", "statuses"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if self.out_order is not None:
            object.__setattr__(self, "out_order", tuple(self.out_order))


def _check_match(
    pool: str,
    entries: Sequence[str],
    places: Sequence[int],
    statuses: Sequence[str],
    out_order: Sequence[int] | None,
) -> list[int]:
    """Validate one match before anything is rated; returns its TrueSkill ranks."""
    if not pool:
        raise ValueError("a match needs a rating pool (see pool_key)")
    if len(entries) < 2:
        raise ValueError(f"a rated match needs at least 2 seats, got {len(entries)}")
    if len(entries) != len(places):
        raise ValueError(f"{len(entries)} entries but {len(places)} places: one of each per seat")
    if len(set(entries)) != len(entries):
        raise ValueError(f"an entry may hold only one seat per match, got {list(entries)}")
    return ranks_from_result(
        list(places), list(statuses), None if out_order is None else list(out_order)
    )


class RatingBook:
    """Every entry's rating in every pool: ``pool -> entry -> trueskill.Rating``."""

    def __init__(
        self,
        ratings: Mapping[str, Mapping[str, trueskill.Rating]] | None = None,
        env: trueskill.TrueSkill | None = None,
    ) -> None:
        """Start empty, or from saved ratings (e.g. to resume a tournament)."""
        self.env = env if env is not None else environment()
        self.frozen_env = frozen_environment(self.env)
        self.ratings: dict[str, dict[str, trueskill.Rating]] = {
            pool: dict(entries) for pool, entries in (ratings or {}).items()
        }

    def rating(self, pool: str, entry: str) -> trueskill.Rating:
        """The entry's rating in the pool; a newcomer gets the default (MU, SIGMA)."""
        found = self.ratings.get(pool, {}).get(entry)
        return found if found is not None else self.env.create_rating()

    def standings(self, pool: str) -> list[tuple[str, trueskill.Rating]]:
        """The pool's entries, best :func:`conservative` rating first (name breaks ties)."""
        rows = self.ratings.get(pool, {}).items()
        return sorted(rows, key=lambda row: (-conservative(row[1]), row[0]))

    def rate_match(
        self,
        pool: str,
        entries: list[str],
        places: list[int],
        statuses: list[str],
        out_order: list[int] | None = None,
        frozen: bool = False,
    ) -> list[RatingChange]:
        """Apply one match (each seat its own team) and say how every seat's rating moved;
        ``frozen``: without dynamics (tau = 0)."""
        ranks = _check_match(pool, entries, places, statuses, out_order)
        before = [self.rating(pool, entry) for entry in entries]
        after = (self.frozen_env if frozen else self.env).rate([(r,) for r in before], ranks=ranks)
        book = self.ratings.setdefault(pool, {})
        changes = []
        for seat, (entry, old, (new,)) in enumerate(zip(entries, before, after, strict=True)):
            book[entry] = new
            changes.append(RatingChange(entry, seat, old.mu, old.sigma, new.mu, new.sigma))
        return changes

    def apply(self, record: MatchRecord) -> list[RatingChange]:
        """Rate a stored match."""
        return self.rate_match(
            record.pool,
            list(record.entries),
            list(record.places),
            list(record.statuses),
            None if record.out_order is None else list(record.out_order),
            record.frozen,
        )


# --- plan order ------------------------------------------------------------------------------


Applied = list[tuple[int, list[RatingChange]]]
"""What :class:`OrderedRater` applied in one call: ``(plan_index, changes)``, in plan order."""


class OrderedRater:
    """Applies match results in plan order, whatever order the matches finish in."""

    def __init__(self, book: RatingBook | None = None, start_index: int = 0) -> None:
        """Start at ``start_index`` with ``book`` (both from storage when resuming)."""
        if start_index < 0:
            raise ValueError(f"plan indexes start at 0, got {start_index}")
        self.book = book if book is not None else RatingBook()
        self._next = start_index
        self._waiting: dict[int, MatchRecord | None] = {}

    @property
    def next_index(self) -> int:
        """The plan index whose result is awaited before anything later is applied."""
        return self._next

    @property
    def pending(self) -> list[int]:
        """Plan indexes received (results or skips) but not yet reached."""
        return sorted(self._waiting)

    def submit(
        self,
        plan_index: int,
        pool: str,
        entries: list[str],
        places: list[int],
        statuses: list[str],
        out_order: list[int] | None = None,
        frozen: bool = False,
    ) -> Applied:
        """Take one finished match; apply it and any buffered successors once it is next
        (``frozen``: rated without dynamics)."""
        _check_match(pool, entries, places, statuses, out_order)
        record = MatchRecord(
            "",
            plan_index,
            pool,
            tuple(entries),
            tuple(places),
            tuple(statuses),
            out_order=None if out_order is None else tuple(out_order),
            frozen=frozen,
        )
        return self._receive(plan_index, record)

    def skip(self, plan_index: int) -> Applied:
        """Mark a plan index that will never produce a result, so later ones are not blocked."""
        return self._receive(plan_index, None)

    def _receive(self, plan_index: int, record: MatchRecord | None) -> Applied:
        """Buffer one index (refusing repeats), then drain what is now contiguous."""
        if plan_index < self._next or plan_index in self._waiting:
            raise ValueError(f"plan index {plan_index} was already submitted or skipped")
        self._waiting[plan_index] = record
        return self._drain()

    def _drain(self) -> Applied:
        """Apply every buffered result from ``next_index`` on, stopping at the first gap."""
        applied: Applied = []
        while self._next in self._waiting:
            record = self._waiting[self._next]
            if record is not None:
                applied.append((self._next, self.book.apply(record)))
            del self._waiting[self._next]
            self._next += 1
        return applied


def rebuild(records: Iterable[MatchRecord], env: trueskill.TrueSkill | None = None) -> RatingBook:
    """Recompute every rating from stored matches, in plan order, as if rated live.

    Tournaments are replayed in the order they first appear in ``records`` (pass
    them oldest first), each one's matches by ``plan_index``; gaps (matches that
    never produced a result) are simply absent, as if skipped.
    """
    records = list(records)
    first_seen: dict[str, int] = {}
    seen: set[tuple[str, int]] = set()
    for record in records:
        first_seen.setdefault(record.tournament_id, len(first_seen))
        key = (record.tournament_id, record.plan_index)
        if key in seen:
            raise ValueError(f"match {key} appears twice in the records")
        seen.add(key)
    book = RatingBook(env=env)
    for record in sorted(records, key=lambda r: (first_seen[r.tournament_id], r.plan_index)):
        book.apply(record)
    return book
