"""The schema of the results database, applied by :data:`MIGRATIONS`.

Migrations are ``sqlite_utils.migrations`` functions, recorded by name in
``_sqlite_migrations``, so a database made by any earlier arena is brought up to date when it
is opened. To change the schema, append a new ``@MIGRATIONS()`` function (for example one that
calls ``db["matches"].add_column(...)``); never edit an applied migration, because existing
files have already run it.
"""

from __future__ import annotations

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from arena.results.store import totals

MIGRATIONS = Migrations("arena")

_SCHEMA_0001 = (
    """CREATE TABLE bots (
        name TEXT PRIMARY KEY,
        language TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        path TEXT NOT NULL,
        added_at TEXT NOT NULL
    )""",
    """CREATE TABLE versions (
        id TEXT PRIMARY KEY,
        bot TEXT NOT NULL REFERENCES bots(name),
        label TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (id, bot)
    )""",
    """CREATE TABLE tournaments (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        settings_json TEXT NOT NULL,
        seed INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'planned'
            CHECK (status IN ('planned', 'running', 'stopped', 'finished')),
        created_at TEXT NOT NULL,
        finished_at TEXT,
        planned INTEGER NOT NULL
    )""",
    """CREATE TABLE plan (
        tournament_id TEXT NOT NULL REFERENCES tournaments(id),
        plan_index INTEGER NOT NULL,
        round INTEGER NOT NULL,
        rotation_group INTEGER,
        seed INTEGER NOT NULL,
        seats_json TEXT NOT NULL,
        PRIMARY KEY (tournament_id, plan_index)
    )""",
    """CREATE TABLE matches (
        id TEXT PRIMARY KEY,
        tournament_id TEXT REFERENCES tournaments(id),
        plan_index INTEGER,
        game TEXT NOT NULL,
        pool TEXT NOT NULL,
        seat_count INTEGER NOT NULL,
        rules_json TEXT NOT NULL,
        seed INTEGER NOT NULL,
        end_reason TEXT NOT NULL,
        winner_seat INTEGER,
        turns INTEGER NOT NULL,
        rounds INTEGER NOT NULL,
        decisions INTEGER NOT NULL,
        started_at TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        replay BLOB NOT NULL,
        UNIQUE (tournament_id, plan_index),
        CHECK ((tournament_id IS NULL) = (plan_index IS NULL)),
        FOREIGN KEY (tournament_id, plan_index) REFERENCES plan(tournament_id, plan_index)
    )""",
    """CREATE TABLE seats (
        match_id TEXT NOT NULL REFERENCES matches(id),
        seat INTEGER NOT NULL,
        version_id TEXT NOT NULL,
        bot TEXT NOT NULL,
        place INTEGER NOT NULL,
        status TEXT NOT NULL,
        strikes INTEGER NOT NULL DEFAULT 0,
        think_ms_p50 REAL,
        think_ms_p99 REAL,
        PRIMARY KEY (match_id, seat),
        FOREIGN KEY (version_id, bot) REFERENCES versions(id, bot)
    )""",
    "CREATE INDEX seats_version ON seats(version_id)",
    """CREATE TABLE ratings (
        pool TEXT NOT NULL,
        version_id TEXT NOT NULL REFERENCES versions(id),
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (pool, version_id)
    )""",
    """CREATE TABLE rating_history (
        match_id TEXT NOT NULL REFERENCES matches(id),
        pool TEXT NOT NULL,
        version_id TEXT NOT NULL REFERENCES versions(id),
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        mu_after REAL NOT NULL,
        sigma_after REAL NOT NULL,
        PRIMARY KEY (match_id, version_id)
    )""",
    "CREATE INDEX rating_history_version ON rating_history(version_id)",
)


@MIGRATIONS(name="0001_initial")
def _initial(db: Database) -> None:
    """Every table. Written as SQL because composite keys and CHECKs are clearer that way."""
    for statement in _SCHEMA_0001:
        db.execute(statement)


@MIGRATIONS(name="0002_out_order")
def _out_order(db: Database) -> None:
    """The order seats went out (eliminated or forfeited), so a ratings rebuild ranks
    forfeits exactly as the live rating did."""
    db.execute("ALTER TABLE matches ADD COLUMN out_order_json TEXT")


@MIGRATIONS(name="0003_scheduler_heartbeat")
def _scheduler_heartbeat(db: Database) -> None:
    """Which process runs a tournament and when it last showed life, so a scheduler killed
    with ``kill -9`` shows as interrupted instead of running forever."""
    db.execute("ALTER TABLE tournaments ADD COLUMN runner_pid INTEGER")
    db.execute("ALTER TABLE tournaments ADD COLUMN runner_host TEXT")
    db.execute("ALTER TABLE tournaments ADD COLUMN heartbeat_at TEXT")


@MIGRATIONS(name="0004_remote_bots")
def _remote_bots(db: Database) -> None:
    """Remote bots (no folder; a hashed token each), running ``arena serve`` processes and
    the tournaments handed to them (:mod:`arena.remote`)."""
    db.execute(
        """CREATE TABLE remote_bots (
            name TEXT PRIMARY KEY REFERENCES bots(name),
            games_json TEXT NOT NULL,
            label TEXT NOT NULL,
            token_hash TEXT UNIQUE,
            token_issued_at TEXT,
            revoked_at TEXT
        )"""
    )
    db.execute(
        """CREATE TABLE serves (
            id TEXT PRIMARY KEY,
            pid INTEGER NOT NULL,
            host TEXT NOT NULL,
            address TEXT NOT NULL,
            started_at TEXT NOT NULL,
            heartbeat_at TEXT NOT NULL,
            stopped_at TEXT
        )"""
    )
    db.execute(
        """CREATE TABLE serve_queue (
            tournament_id TEXT PRIMARY KEY REFERENCES tournaments(id),
            queued_at TEXT NOT NULL,
            serve_id TEXT REFERENCES serves(id),
            taken_at TEXT,
            outcome TEXT
        )"""
    )


@MIGRATIONS(name="0005_seat_logs")
def _seat_logs(db: Database) -> None:
    """Where the bot process of each seat of a tournament match logged its stderr (a kept
    process logs many matches to the file of the match it started for), so a fault can
    point at the log that tells why."""
    db.execute(
        """CREATE TABLE seat_logs (
            match_id TEXT NOT NULL REFERENCES matches(id),
            seat INTEGER NOT NULL,
            path TEXT NOT NULL,
            PRIMARY KEY (match_id, seat)
        )"""
    )


@MIGRATIONS(name="0006_ladder_entries")
def _ladder_entries(db: Database) -> None:
    """A ladder's entries over time: when each version entered and left (by plan index, so a
    resumed ladder decides exactly as before), why it left, and the rating it entered with."""
    db.execute(
        """CREATE TABLE ladder_entries (
            tournament_id TEXT NOT NULL REFERENCES tournaments(id),
            version_id TEXT NOT NULL,
            bot TEXT NOT NULL,
            entry_json TEXT NOT NULL,
            requested_at TEXT NOT NULL,
            joined_index INTEGER,
            start_json TEXT,
            leave_requested_at TEXT,
            left_index INTEGER,
            leave_reason TEXT,
            PRIMARY KEY (tournament_id, version_id)
        )"""
    )


@MIGRATIONS(name="0007_pool_totals")
def _pool_totals(db: Database) -> None:
    """Per-(pool, version) totals a leaderboard reads instead of every seat of its pool
    (:mod:`arena.results.store.totals`), backfilled from the seats already recorded."""
    for statement in totals.SCHEMA:
        db.execute(statement)
    totals.rebuild(db)


@MIGRATIONS(name="0008_match_rules")
def _match_rules(db: Database) -> None:
    """Each distinct rules of recorded matches stored once (a tournament's matches share
    theirs): a match names them by ``rules_id`` and keeps ``rules_json`` empty (a column SQLite
    cannot make nullable without copying the table); matches recorded before keep their own."""
    db.execute(
        """CREATE TABLE match_rules (
            id INTEGER PRIMARY KEY,
            rules_json TEXT NOT NULL UNIQUE
        )"""
    )
    db.execute("ALTER TABLE matches ADD COLUMN rules_id INTEGER REFERENCES match_rules(id)")


@MIGRATIONS(name="0009_authors")
def _authors(db: Database) -> None:
    """The people who submit bots to a hosted arena: a hashed token each (shown once, as a
    remote bot's), and which bot names each owns (a name is its first author's)."""
    db.execute(
        """CREATE TABLE authors (
            name TEXT PRIMARY KEY,
            token_hash TEXT UNIQUE,
            created_at TEXT NOT NULL,
            token_issued_at TEXT,
            revoked_at TEXT,
            disabled_at TEXT
        )"""
    )
    db.execute(
        """CREATE TABLE author_bots (
            bot TEXT PRIMARY KEY,
            author TEXT NOT NULL REFERENCES authors(name),
            claimed_at TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX author_bots_author ON author_bots(author)")


@MIGRATIONS(name="0010_seat_cpu")
def _seat_cpu(db: Database) -> None:
    """The CPU seconds each seat's bot process used in its match (none for an in-process
    seat, nor for matches recorded before), and their sum and count per (pool, version) for
    the leaderboard's mean."""
    db.execute("ALTER TABLE seats ADD COLUMN cpu_s REAL")
    db.execute(totals.CPU_SCHEMA)


@MIGRATIONS(name="0011_submissions")
def _submissions(db: Database) -> None:
    """Bots authors upload to a hosted arena, one row per upload through its build and check
    (``received``, ``building``, ``checking``, then ``accepted`` or ``rejected`` with the
    reason), with the bytes it keeps on disk for the author's quota; and an operator's switch
    that stops one version being entered (``versions.disabled_at``)."""
    db.execute(
        """CREATE TABLE submissions (
            id TEXT PRIMARY KEY,
            author TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'received'
                CHECK (status IN ('received', 'building', 'checking', 'accepted', 'rejected')),
            reason TEXT,
            archive_name TEXT NOT NULL,
            archive_bytes INTEGER NOT NULL,
            stored_bytes INTEGER NOT NULL,
            bot TEXT,
            version_id TEXT,
            games_json TEXT,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            finished_at TEXT
        )"""
    )
    db.execute("CREATE INDEX submissions_author ON submissions(author, created_at)")
    db.execute("CREATE INDEX submissions_status ON submissions(status, created_at)")
    db.execute("ALTER TABLE versions ADD COLUMN disabled_at TEXT")


@MIGRATIONS(name="0012_author_sessions")
def _author_sessions(db: Database) -> None:
    """Authors signed in to a hosted arena's pages: a session per browser, named by the
    SHA-256 of the cookie's secret (a stolen copy of the file signs no one in), with the
    token its forms carry against cross-site requests and when it expires. No foreign key:
    removing an author leaves their sessions to nothing, and a session is good only while
    its author exists, is enabled, and has not had their token revoked or reissued since."""
    db.execute(
        """CREATE TABLE author_sessions (
            id_hash TEXT PRIMARY KEY,
            author TEXT NOT NULL,
            csrf TEXT NOT NULL,
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX author_sessions_author ON author_sessions(author)")
