"""Fault flags: a bot version with at least 5 recorded matches of which more than 10% ended
with its seat not OK is flagged on the leaderboard and in ``tournament show``, and a new
tournament naming it is refused (exit 2) unless ``--allow-flagged``. Databases are real SQLite
files written through the store's own recording API."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from arena.catalog import find_bot
from arena.cli import main
from arena.results.faults import FaultLimit, FlaggedBots, fault_records, judge
from arena.results.store import Store, open_store
from arena.scheduler import tournament as tournaments
from arena.scheduler.tournament import TournamentSettings
from tests.scheduler.test_tournament import LEADERBOARD_KEYS, arena, error_line
from tests.test_store import match_dict, replay_text

Capsys = pytest.CaptureFixture[str]

POOL = "classic/2p"
PARTNER = "steady@1"
"""The other seat of every match: always OK."""
FLAG_KEYS = {"flagged", "fault_rate", "faulted_matches", "recorded_matches"}

# version: (matches, of which faulted); the partner sits in all of them, always OK.
BOUNDARIES = {
    "few@1": (4, 4),  # every match faulted, but fewer than 5: not flagged
    "five@1": (5, 1),  # exactly 5 matches, 20%: flagged
    "even@1": (30, 3),  # exactly 10%: not flagged
    "above@1": (29, 3),  # 10.3%: flagged
}
FLAGGED = {"five@1", "above@1"}


def record_matches(
    store: Store,
    version: str,
    statuses: Sequence[str],
    partner: str = PARTNER,
    bots: Mapping[str, str] | None = None,
) -> None:
    """One ad-hoc match per status: ``version`` in seat 0 with that status, ``partner`` OK
    in seat 1 (``bots`` names each version's bot; else the part before ``@``)."""
    names = bots or {}
    for n, status in enumerate(statuses):
        seats = [
            {
                "seat": 0,
                "version_id": version,
                "bot": names.get(version, version.split("@")[0]),
                "place": 2 if status != "OK" else 1,
                "status": status,
            },
            {
                "seat": 1,
                "version_id": partner,
                "bot": names.get(partner, partner.split("@")[0]),
                "place": 1 if status != "OK" else 2,
                "status": "OK",
            },
        ]
        match = match_dict(
            f"{version}-{n}", None, None, pool=POOL, rules={"players": 2}, seed=1000 + n
        )
        store.record_match(match, seats, replay_text(5), [], [])


def faulted(matches: int, faults: int, status: str = "CRASH") -> list[str]:
    """Statuses of ``matches`` matches, the first ``faults`` of them ``status``."""
    return [status] * faults + ["OK"] * (matches - faults)


def boundary_db(path: Path) -> Path:
    """The versions of :data:`BOUNDARIES` and their partner, in ``path``."""
    with open_store(path) as store:
        for vid in (*BOUNDARIES, PARTNER):
            bot = vid.split("@")[0]
            store.add_bot(bot, "python", f"bot {bot}", f"bots/{bot}")
            store.add_version(vid, bot, "1.0")
        for vid, (matches, faults) in BOUNDARIES.items():
            statuses = faulted(matches, faults, "TIMEOUT" if vid == "five@1" else "CRASH")
            assert len(statuses) == matches and statuses.count("OK") == matches - faults
            record_matches(store, vid, statuses)
    return path


def run(capsys: Capsys, *args: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``arena ARGS`` called in-process."""
    try:
        code = main(list(args))
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return code, out, err


def one_error(err: str) -> str:
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("arena: error:")]
    assert len(lines) == 1, err
    return lines[0]


def board_json(capsys: Capsys, db: Path, *flags: str) -> dict[str, Any]:
    code, out, err = run(capsys, "leaderboard", "--pool", POOL, "--db", str(db), "--json", *flags)
    assert code == 0, err
    return dict(json.loads(out))


# ---------------------------------------------------------------------------- the rule


def test_the_rule_at_its_boundaries() -> None:
    limit = FaultLimit()
    assert (limit.percent, limit.min_matches) == (10.0, 5)
    assert not judge(4, 4, limit).flagged  # too few matches to say
    assert judge(5, 1, limit).flagged  # exactly the minimum
    assert not judge(10, 1, limit).flagged and not judge(30, 3, limit).flagged  # exactly 10%
    assert judge(29, 3, limit).flagged and judge(10, 2, limit).flagged  # just above
    assert not judge(0, 0, limit).flagged and judge(0, 0, limit).rate is None
    assert judge(30, 3, FaultLimit(9.99)).flagged and not judge(29, 3, FaultLimit(10.35)).flagged
    assert judge(4, 1, FaultLimit(min_matches=4)).flagged
    assert not judge(7, 7, FaultLimit(100)).flagged  # 100%: nothing is above it
    assert judge(50, 1, FaultLimit(0)).flagged and not judge(50, 0, FaultLimit(0)).flagged


def test_the_store_counts_matches_and_faulted_matches_per_version_in_one_query(
    tmp_path: Path,
) -> None:
    db = boundary_db(tmp_path / "arena.db")
    with open_store(db, read_only=True) as store:
        statements: list[str] = []
        store.db.conn.set_trace_callback(statements.append)
        counts = store.fault_counts()
        store.db.conn.set_trace_callback(None)
        assert len(statements) == 1 and "GROUP BY" in statements[0]
        assert counts == {**BOUNDARIES, PARTNER: (68, 0)}
        assert store.fault_counts(["five@1", "nobody@1"]) == {"five@1": (5, 1)}
        assert store.fault_counts([]) == {}
        records = fault_records(store, FaultLimit())
        assert {vid for vid, r in records.items() if r.flagged} == FLAGGED
        assert records["above@1"].rate == pytest.approx(3 / 29)


def test_a_match_with_several_faulty_seats_of_one_version_counts_once(tmp_path: Path) -> None:
    with open_store(tmp_path / "arena.db") as store:
        for vid in ("twice@1", PARTNER):
            store.add_bot(vid.split("@")[0], "python", "", "bots")
            store.add_version(vid, vid.split("@")[0], "1.0")
        seats = [
            {"seat": n, "version_id": vid, "bot": vid.split("@")[0], "place": n + 1, "status": s}
            for n, (vid, s) in enumerate(
                [(PARTNER, "OK"), ("twice@1", "CRASH"), ("twice@1", "TIMEOUT")]
            )
        ]
        store.record_match(match_dict("m", None, None, pool=POOL), seats, b"", [], [])
        assert store.fault_counts() == {"twice@1": (1, 1), PARTNER: (1, 0)}


# ------------------------------------------------------------------- the leaderboard


def test_the_leaderboard_json_flags_versions_and_keeps_every_key(
    tmp_path: Path, capsys: Capsys
) -> None:
    db = boundary_db(tmp_path / "arena.db")
    board = board_json(capsys, db)
    assert board["fault_limit"] == {"percent": 10.0, "min_matches": 5}
    assert {"pool", "tournament", "ratings_as_of", "rows"} <= set(board)
    rows = {row["version_id"]: row for row in board["rows"]}
    for row in rows.values():
        assert set(row) >= LEADERBOARD_KEYS | FLAG_KEYS | {"version_id", "think_ms_p99_p95"}
    assert {vid for vid, row in rows.items() if row["flagged"]} == FLAGGED
    assert rows["five@1"]["faults"] == {"TIMEOUT": 1}
    assert (rows["five@1"]["faulted_matches"], rows["five@1"]["recorded_matches"]) == (1, 5)
    assert rows["five@1"]["fault_rate"] == pytest.approx(0.2)
    assert rows["even@1"]["fault_rate"] == pytest.approx(0.1) and not rows["even@1"]["flagged"]
    assert rows[PARTNER]["fault_rate"] == 0.0 and not rows[PARTNER]["flagged"]


def test_a_custom_limit_and_minimum(tmp_path: Path, capsys: Capsys) -> None:
    db = boundary_db(tmp_path / "arena.db")

    def flagged(*flags: str) -> set[str]:
        return {r["version_id"] for r in board_json(capsys, db, *flags)["rows"] if r["flagged"]}

    assert flagged("--fault-limit", "25") == set()  # five@1 is 20%
    assert flagged("--fault-limit", "19.5") == {"five@1"}
    assert flagged("--fault-limit", "5") == {"five@1", "above@1", "even@1"}
    assert flagged("--fault-min-matches", "4") == FLAGGED | {"few@1"}
    assert flagged("--fault-min-matches", "6") == {"above@1"}
    limit = board_json(capsys, db, "--fault-limit", "12.5", "--fault-min-matches", "3")
    assert limit["fault_limit"] == {"percent": 12.5, "min_matches": 3}


def test_the_terminal_leaderboard_marks_flagged_versions_and_says_why(
    tmp_path: Path, capsys: Capsys
) -> None:
    db = boundary_db(tmp_path / "arena.db")
    code, out, err = run(capsys, "leaderboard", "--pool", POOL, "--db", str(db))
    assert code == 0, err
    lines = out.splitlines()
    for vid in BOUNDARIES:
        line = next(line for line in lines if f" {vid.split('@')[0]} " in line)
        assert ("⚑" in line) == (vid in FLAGGED), line
    caption = " ".join(line.strip() for line in lines)
    assert "⚑ flagged: more than 10% of its recorded matches (at least 5)" in caption
    code, out, _ = run(
        capsys, "leaderboard", "--pool", POOL, "--db", str(db), "--fault-limit", "50"
    )
    assert code == 0 and "⚑" not in out
    code, out, _ = run(capsys, "leaderboard", "--pool", POOL, "--db", str(db), "--csv")
    head, *rest = out.splitlines()
    assert head.endswith(",flagged,fault_rate") and head.startswith("rank,bot,version,")
    assert sum(line.split(",")[-2] == "True" for line in rest) == len(FLAGGED)


@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("--fault-limit", "101"),
        ("--fault-limit", "-1"),
        ("--fault-limit", "nan"),
        ("--fault-limit", "lots"),
        ("--fault-min-matches", "0"),
        ("--fault-min-matches", "2.5"),
    ],
)
def test_bad_limits_are_one_line_errors(
    tmp_path: Path, capsys: Capsys, flag: str, value: str
) -> None:
    db = boundary_db(tmp_path / "arena.db")
    code, _, err = run(capsys, "leaderboard", "--pool", POOL, "--db", str(db), f"{flag}={value}")
    assert code == 2
    assert flag in one_error(err)


# ------------------------------------------------------- new tournaments and their show


def register(store: Store, name: str) -> str:
    """A bundled bot registered as a tournament registers it; returns its version id."""
    return str(tournaments.register(store, find_bot(name))["version_id"])


@pytest.fixture
def flaky_db(tmp_path: Path) -> tuple[Path, str, str]:
    """The bundled ``random`` (30% of its 10 recorded matches crashed: flagged) and
    ``aggressive`` (always OK); returns the database and both version ids."""
    db = tmp_path / "arena.db"
    with open_store(db) as store:
        flaky, steady = register(store, "random"), register(store, "aggressive")
        bots = {flaky: "random", steady: "aggressive"}
        record_matches(store, flaky, faulted(10, 3), partner=steady, bots=bots)
    return db, flaky, steady


def tournament_run(db: Path, *extra: str) -> list[str]:
    return [
        "tournament",
        "run",
        "--bot",
        "random",
        "--bot",
        "aggressive",
        "--rules",
        "max_rounds=3",
        "--seed",
        "7",
        "--workers",
        "1",
        "--in-process",
        "--no-progress",
        "--json",
        "--db",
        str(db),
        *extra,
    ]


def test_a_new_tournament_naming_a_flagged_version_is_refused(
    flaky_db: tuple[Path, str, str], capsys: Capsys
) -> None:
    db, flaky, steady = flaky_db
    code, out, err = run(capsys, *tournament_run(db))
    assert code == 2 and out == ""
    line = one_error(err)
    assert "'random'" in line and flaky in line and "3 of 10 matches faulted (30%)" in line
    assert "--allow-flagged" in line and "aggressive" not in line and steady not in line
    with open_store(db) as store:
        assert store.tournaments() == []  # nothing planned
        settings = TournamentSettings(bots=["random", "aggressive"], rules={"max_rounds": "3"})
        with pytest.raises(FlaggedBots):
            tournaments.create(store, settings, FaultLimit())
    # The console script too: exit 2, one line, no traceback.
    done = arena(*tournament_run(db)[:-2], "--db", str(db))
    assert done.returncode == 2 and flaky in error_line(done)


def test_the_limit_given_to_run_decides_the_refusal(
    flaky_db: tuple[Path, str, str], capsys: Capsys
) -> None:
    db, _, _ = flaky_db
    code, _, err = run(capsys, *tournament_run(db, "--fault-min-matches", "11"))
    assert code == 0, err  # 10 matches: too few to flag under this minimum
    with open_store(db) as store:
        settings = TournamentSettings(bots=["random", "aggressive"], rules={"max_rounds": "3"})
        assert tournaments.create(store, settings, FaultLimit(30.0))  # exactly 30%: allowed
        with pytest.raises(FlaggedBots, match="25%"):  # 3 of the 12 matches now
            tournaments.create(store, settings, FaultLimit(24.0))
        assert tournaments.create(store, settings)  # the library seats anyone unless asked


def test_allow_flagged_runs_it_and_the_tournament_shows_the_flag(
    flaky_db: tuple[Path, str, str], capsys: Capsys
) -> None:
    db, flaky, steady = flaky_db
    code, out, err = run(capsys, *tournament_run(db, "--allow-flagged"))
    assert code == 0, err
    board = json.loads(out)
    rows = {row["version_id"]: row for row in board["rows"]}
    assert rows[flaky]["flagged"] and not rows[steady]["flagged"]
    assert rows[flaky]["recorded_matches"] == 12  # the 10 before and this tournament's 2
    tid = board["tournament"]
    with open_store(db, read_only=True) as store:
        assert store.tournament(tid)["stored_status"] == "finished"

    code, out, err = run(capsys, "tournament", "show", tid, "--db", str(db), "--json")
    assert code == 0, err
    table = json.loads(out)
    assert {"tournament", "bots", "pairs", "faults"} <= set(table)
    assert table["fault_limit"] == {"percent": 10.0, "min_matches": 5}
    flags = {f["version_id"]: f for f in table["flags"]}
    assert set(flags) == {flaky, steady}
    assert flags[flaky]["flagged"] and flags[flaky]["bot"] == "random"
    assert flags[flaky]["faulted_matches"] == 3 and flags[flaky]["fault_rate"] == 0.25
    assert not flags[steady]["flagged"] and flags[steady]["fault_rate"] == 0.0

    code, out, _ = run(capsys, "tournament", "show", tid, "--db", str(db))
    assert code == 0
    assert f"⚑ flagged · random 1.0 ({flaky[:8]}): 3 of 12 matches faulted (25%)" in out
    assert "aggressive 1.0 (" not in out
    code, out, _ = run(capsys, "tournament", "show", tid, "--db", str(db), "--fault-limit", "30")
    assert code == 0 and "flagged: none" in out and "⚑" not in out
    shown = json.loads(
        run(capsys, "tournament", "show", tid, "--db", str(db), "--json", "--fault-limit", "30")[1]
    )
    assert not any(f["flagged"] for f in shown["flags"])


def test_help_documents_the_flags(capsys: Capsys) -> None:
    for command in (["tournament", "run"], ["tournament", "show"], ["leaderboard"]):
        code, out, _ = run(capsys, *command, "--help")
        assert code == 0 and "--fault-limit PERCENT" in out and "--fault-min-matches N" in out
    assert "--allow-flagged" in run(capsys, "tournament", "run", "--help")[1]
