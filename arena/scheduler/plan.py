"""The tournament plan: which bots meet, in which seats, with which seeds, in what order.

A plan is a pure function of the bot list, the seat count, the number of rounds and the
tournament seed, so an interrupted tournament can be resumed, and any result audited, by
computing the plan again. The order of ``bots`` does not matter (they are sorted first).
The stored plan is what runs: when a bot changes mid-tournament and ``tournament resume
--record-new-version`` is used, its unplayed entries seat the new version id in the old
one's seats (same matches, seeds and order), so they differ from a recomputation only there.

Per round:

* **Tables.** With 2 seats every pair of bots is a table. With 3-6 seats every
  N-combination of the bots is a table while there are at most :data:`MAX_TABLES` of them;
  beyond that a balanced design (below) chooses the tables.
* **Rotation groups.** A table of N bots is played N times, once per cyclic rotation of its
  seat order, all with the same seed: the same deal and dice streams with every bot in every
  seat once, so seat advantage and luck largely cancel within the group. The starting order
  of a table is shuffled, so across tables and rounds no bot always moves right after another.
* **Seeds.** A group's seed is the first 63 bits of ``sha256(f"{seed}/{round}/{group}")``,
  never Python's ``hash()``, which is salted per process. Group ids run through the whole plan.
* **Order.** Round by round; the tables of a round in a seeded order, so a partly played
  round has already mixed everyone; a group's rotations stay together.

Balanced design (3-6 seats, more than :data:`MAX_TABLES` combinations), method:

1. Each bot gets ``k = ceil((n - 1) / (N - 1))`` seats at tables per round: the fewest that
   give it enough opponents to meet every other bot once. The round has
   ``tables = ceil(n * k / N)`` tables, at most :data:`MAX_TABLES` (but never so few that
   a bot would sit out).
2. Quotas: every bot gets ``tables * N // n`` tables; the left-over seats go to the bots that
   have played least in earlier rounds (ties by a seeded draw). So within a round the bots'
   table counts differ by at most one (none when ``n`` divides ``tables * N``), and over the
   whole plan they differ by at most one too.
3. Tables are built one at a time, greedily. A table is filled seat by seat from the bots
   with the most quota left (which guarantees every quota can be met), taking the bot whose
   meetings so far with the bots already at the table are fewest, i.e. the one that raises
   the sum of squared pair counts least; ties go to a seeded random order. Up to
   :data:`CANDIDATES` tables are built, each from a different first bot, and the one whose
   pairs have met least is kept. Pair counts carry over between rounds, so each round's fresh
   draw favours the pairs that have met least so far. Appearance balance is not a penalty in
   this choice but a hard rule, enforced by the quotas.

Randomness comes from :class:`random.Random` seeded with an integer from sha256, and only its
``random()`` method is used: Python guarantees that sequence across versions.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.errors import ConfigError

MIN_SEATS = 2
MAX_SEATS = 6
MAX_TABLES = 200
"""Most tables (rotation groups) per round: above this many N-combinations, use the balanced design."""
CANDIDATES = 8
"""Tables tried per pick in the balanced design; more buys little and costs time."""


@dataclass(frozen=True, slots=True)
class PlannedMatch:
    """One match of the plan; ``seats[i]`` is the bot entry playing seat ``i``."""

    index: int
    round: int
    group: int
    seed: int
    seats: tuple[str, ...]


def make_plan(bots: list[str], seats: int, rounds: int, seed: int) -> list[PlannedMatch]:
    """Every match of the tournament, in the order to play them."""
    names = _checked(bots, seats, rounds, seed)
    tally = _Tally(len(names))
    plan: list[PlannedMatch] = []
    group = 0
    for round_ in range(rounds):
        rng = _round_rng(seed, round_)
        if uses_all_combinations(len(names), seats):
            tables = _all_combinations(len(names), seats, rng)
        else:
            tables = _balanced_tables(seats, tally, rng)
        for table in tables:
            match_seed = derive_seed(seed, round_, group)
            for order in _rotations(_shuffled(table, rng)):
                seating = tuple(names[i] for i in order)
                plan.append(PlannedMatch(len(plan), round_, group, match_seed, seating))
            group += 1
    return plan


def make_gauntlet_plan(
    challengers: list[str], field: list[str], seats: int, rounds: int, seed: int
) -> list[PlannedMatch]:
    """A gauntlet: every match seats one challenger and ``seats - 1`` bots of the field.

    Per round and challenger, the field's tables are every ``(seats - 1)``-combination of it
    (the balanced design above :data:`MAX_TABLES`), each played in all its seat rotations with
    one seed, as in a round-robin. A round's tables, every challenger's, come in a seeded order,
    so a gauntlet cut short has tested every challenger about equally.
    """
    both = sorted(set(challengers) & set(field))
    if both:
        raise ConfigError(f"{', '.join(map(repr, both))} cannot be both challenger and field")
    if not challengers:
        raise ConfigError("a gauntlet needs a challenger (--challenger BOT)")
    _checked([*challengers, *field], seats, rounds, seed)
    if len(field) < seats - 1:
        raise ConfigError(
            f"{seats} seats need at least {seats - 1} field bots beside the challenger, "
            f"got {len(field)}"
        )
    ordered_field = sorted(field)
    tally = _Tally(len(ordered_field))
    plan: list[PlannedMatch] = []
    group = 0
    for round_ in range(rounds):
        rng = _round_rng(seed, round_)
        if seats == 2 or uses_all_combinations(len(ordered_field), seats - 1):
            field_tables = _all_combinations(len(ordered_field), seats - 1, rng)
        else:
            field_tables = _balanced_tables(seats - 1, tally, rng)
        tables = [
            (challenger, tuple(ordered_field[i] for i in table))
            for challenger in sorted(challengers)
            for table in field_tables
        ]
        keys = [rng.random() for _ in tables]
        for _, (challenger, table) in sorted(zip(keys, tables, strict=True)):
            match_seed = derive_seed(seed, round_, group)
            seating = [challenger, *table]
            for order in _rotations(_shuffled(list(range(seats)), rng)):
                plan.append(
                    PlannedMatch(
                        len(plan), round_, group, match_seed, tuple(seating[i] for i in order)
                    )
                )
            group += 1
    return plan


def uses_all_combinations(n: int, seats: int) -> bool:
    """Whether a round plays every N-combination (always for 2 seats: every pair, both ways)."""
    return seats == 2 or math.comb(n, seats) <= MAX_TABLES


def balanced_tables_per_round(n: int, seats: int) -> int:
    """Tables per round of the balanced design; see the module docstring for ``k``."""
    k = math.ceil((n - 1) / (seats - 1))
    return max(min(math.ceil(n * k / seats), MAX_TABLES), math.ceil(n / seats))


def derive_seed(seed: int, round_: int, group: int) -> int:
    """A group's match seed: stable across processes and Python versions, below 2**63."""
    digest = hashlib.sha256(f"{seed}/{round_}/{group}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def plan_summary(plan: Sequence[PlannedMatch]) -> dict[str, Any]:
    """Counts per bot for reports and checks: games, games per seat, games with each other bot.

    ``meetings[a][b]`` counts the matches ``a`` and ``b`` played together (a rotation group
    of N seats counts N), with 0 for pairs that never met.
    """
    n_seats = max((len(m.seats) for m in plan), default=0)
    bots = sorted({b for m in plan for b in m.seats})
    games = dict.fromkeys(bots, 0)
    seat_counts = {b: [0] * n_seats for b in bots}
    meetings = {a: {b: 0 for b in bots if b != a} for a in bots}
    for match in plan:
        for seat, bot in enumerate(match.seats):
            games[bot] += 1
            seat_counts[bot][seat] += 1
        for a, b in itertools.permutations(match.seats, 2):
            meetings[a][b] += 1
    return {
        "matches": len(plan),
        "rounds": len({m.round for m in plan}),
        "groups": len({m.group for m in plan}),
        "seats": n_seats,
        "games": games,
        "seat_counts": seat_counts,
        "meetings": meetings,
    }


def _checked(bots: list[str], seats: int, rounds: int, seed: int) -> list[str]:
    """The bot names, sorted, after refusing settings that cannot make a fair plan."""
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise ConfigError(f"seats must be a whole number, got {seats!r}")
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ConfigError(f"seats must be between {MIN_SEATS} and {MAX_SEATS}, got {seats}")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise ConfigError(f"rounds must be a whole number of at least 1, got {rounds!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"the tournament seed must be an integer, got {seed!r}")
    if isinstance(bots, str):
        raise ConfigError(f"bots must be a list of bot names, got the string {bots!r}")
    bad = [b for b in bots if not isinstance(b, str) or not b]
    if bad:
        raise ConfigError(f"bot names must be non-empty strings, got {bad[0]!r}")
    duplicates = sorted(b for b, count in Counter(bots).items() if count > 1)
    if duplicates:
        listed = ", ".join(repr(b) for b in duplicates)
        raise ConfigError(f"duplicate bot names: {listed}; list each bot entry once")
    if len(bots) < seats:
        raise ConfigError(f"{seats} seats need at least {seats} distinct bots, got {len(bots)}")
    return sorted(bots)


def _round_rng(seed: int, round_: int) -> random.Random:
    """The round's random source, seeded from sha256 so it is the same everywhere."""
    digest = hashlib.sha256(f"{seed}/{round_}/draw".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


def _shuffled(items: Sequence[int], rng: random.Random) -> list[int]:
    """A seeded shuffle built on ``random()`` alone (``shuffle`` may change across versions)."""
    keys = [rng.random() for _ in items]
    return [item for _, item in sorted(zip(keys, items, strict=True))]


def _rotations(table: Sequence[int]) -> list[tuple[int, ...]]:
    """The N cyclic seat orders of a table: each bot sits in each seat exactly once."""
    return [tuple(table[i:]) + tuple(table[:i]) for i in range(len(table))]


def _all_combinations(n: int, seats: int, rng: random.Random) -> list[tuple[int, ...]]:
    """Every N-combination of the bots, in a seeded order."""
    tables = list(itertools.combinations(range(n), seats))
    keys = [rng.random() for _ in tables]
    return [table for _, table in sorted(zip(keys, tables, strict=True))]


class _Tally:
    """What the balanced design remembers between rounds: tables played and pair meetings."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.tables = [0] * n
        self.pairs = [[0] * n for _ in range(n)]

    def seat(self, table: Sequence[int]) -> None:
        """Record a chosen table."""
        for a in table:
            self.tables[a] += 1
            for b in table:
                if a != b:
                    self.pairs[a][b] += 1

    def cost(self, bot: int, table: Sequence[int]) -> int:
        """How often ``bot`` has met the bots at ``table``.

        Seating it there raises the sum of squared pair counts by twice this plus a constant,
        so the cheapest bot is the one that keeps pair meetings most even.
        """
        row = self.pairs[bot]
        return sum(row[other] for other in table)


def _balanced_tables(seats: int, tally: _Tally, rng: random.Random) -> list[tuple[int, ...]]:
    """One round of the balanced design (method in the module docstring)."""
    count = balanced_tables_per_round(tally.n, seats)
    left = _quotas(count * seats, tally, rng)
    tables = []
    for _ in range(count):
        order = _shuffled([b for b in range(tally.n) if left[b]], rng)
        table = _pick_table(order, left, seats, tally)
        for bot in table:
            left[bot] -= 1
        tally.seat(table)
        tables.append(tuple(table))
    return tables


def _quotas(slots: int, tally: _Tally, rng: random.Random) -> list[int]:
    """Tables per bot this round: equal shares, the spare seats to the bots behind overall."""
    base, spare = divmod(slots, tally.n)
    keys = [rng.random() for _ in range(tally.n)]
    behind = sorted(range(tally.n), key=lambda b: (tally.tables[b], keys[b]))
    quotas = [base] * tally.n
    for bot in behind[:spare]:
        quotas[bot] += 1
    return quotas


def _pick_table(order: list[int], left: list[int], seats: int, tally: _Tally) -> list[int]:
    """The best of a few greedy tables, each grown from a different first bot."""
    most = max(left[b] for b in order)
    starts = [b for b in order if left[b] == most][:CANDIDATES]
    best: list[int] = []
    best_cost = -1
    for start in starts:
        table = _grow([start], order, left, seats, tally)
        cost = sum(tally.cost(b, table[:i]) for i, b in enumerate(table))
        if best_cost < 0 or cost < best_cost:
            best, best_cost = table, cost
        if cost == 0:
            break
    return best


def _grow(
    table: list[int], order: list[int], left: list[int], seats: int, tally: _Tally
) -> list[int]:
    """Fill the table seat by seat from the bots with most quota left, fewest meetings first.

    Drawing only from the most-quota bots is what lets every quota be met: a bot whose quota
    equals the tables still to build is always among them.
    """
    while len(table) < seats:
        free = [b for b in order if b not in table]
        most = max(left[b] for b in free)
        best, best_cost = -1, -1
        for bot in free:
            if left[bot] != most:
                continue
            cost = tally.cost(bot, table)
            if best < 0 or cost < best_cost:
                best, best_cost = bot, cost
                if cost == 0:
                    break
        table = [*table, best]
    return table
