"""Fault handling with real bot processes: every way a bot can fail costs only its own seat.

Each test plays a short match (8 rounds) with one broken bot from ``broken_bots/`` and random
bots in the other seats, then checks the broken seat's status, that the match completed, that
the other seats are OK and kept playing after the forfeit, and that no bot process (nor any
child of one) outlived the match.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from arena.errors import ArenaError, BotError
from arena.games.classic.actions import action_from_dict, action_to_dict
from arena.games.classic.game import ClassicGame
from arena.games.classic.options import action_from_index
from arena.protocol import classic as cmap
from arena.referee.local import logs_dir
from arena.referee.match import TimeControl
from arena.referee.seats import DEBUG_TEXT_CAP
from arena.referee.server import Registry, start_server
from arena.sandbox.launcher import LOG_CAP_BYTES, Limits, launch
from arena.sdk import Trade
from arena.sdk.bot import Bot
from tests.referee import FAST, RANDOM, STARTUP, Arena, broken, kept_playing, rules_for


@pytest.fixture
def arena(tmp_path, monkeypatch) -> Arena:
    return Arena(tmp_path, monkeypatch)


# ------------------------------------------------------------------------- time


def test_sleeper_times_out_after_the_strike_limit(arena):
    played = arena.play(
        [broken("sleeper"), RANDOM, RANDOM],
        control=TimeControl(move_time=0.05, time_bank=0.1, startup_time=STARTUP),
        untimed=frozenset({1, 2}),
        mode="always",
        env={"ARENA_TEST_SLEEP": "0.5"},
    )
    kept_playing(played, 0, "TIMEOUT")
    assert played.result.seats[0].strikes == 3
    timeouts = played.of("timeout", 0)
    assert len(timeouts) == 3
    # Each timeout applies the engine's default action for that request, except the last,
    # which forfeits the seat.
    for t in timeouts[:2]:
        index = next(
            i
            for i, r in enumerate(played.records)
            if r["type"] == "decision" and r["request_id"] == t["request_id"]
        )
        state = played.state_before(index)
        expected = played.rules.default_action(state, 0)
        assert played.records[index]["action"] == action_to_dict(expected)
    # The first request allows the move time plus the bank; a timeout empties the bank.
    seen = played.lines("requests-0.jsonl")
    assert seen[0]["deadline_ms"] == 150 and seen[0]["time_bank_ms"] == 100
    assert all(r["deadline_ms"] == 50 and r["time_bank_ms"] == 0 for r in seen[1:])


def test_the_bank_pays_for_slow_answers_until_it_is_spent(arena):
    played = arena.play(
        [broken("sleeper"), RANDOM, RANDOM],
        control=TimeControl(move_time=0.05, time_bank=1.0, startup_time=STARTUP),
        untimed=frozenset({1, 2}),
        mode="slow",
        env={"ARENA_TEST_SLEEP": "0.1"},
    )
    kept_playing(played, 0, "TIMEOUT")
    first_timeout = next(i for i, r in enumerate(played.records) if r["type"] == "timeout")
    paid = [
        r
        for r in played.records[:first_timeout]
        if r["type"] == "decision" and r["seat"] == 0 and r["think_ms"] > 50
    ]
    assert len(paid) >= 2, "answers over the move time are accepted while the bank lasts"
    banks = [r["time_bank_ms"] for r in played.lines("requests-0.jsonl")]
    assert banks[0] == 1000
    assert banks[: len(paid) + 1] == sorted(banks[: len(paid) + 1], reverse=True)
    assert banks[len(paid)] < 1000


def test_one_late_answer_is_one_strike_and_the_late_answer_is_ignored(arena):
    # The answer arrives just after the deadline, while the next request is open: it is a
    # stale answer and is ignored; the seat goes on with one strike.
    played = arena.play(
        [broken("sleeper"), RANDOM, RANDOM],
        control=TimeControl(move_time=2.0, time_bank=0.0, startup_time=STARTUP),
        untimed=frozenset({1, 2}),
        mode="once",
        env={"ARENA_TEST_SLEEP": "2.3"},
    )
    assert played.statuses == ["OK", "OK", "OK"]
    assert played.result.seats[0].strikes == 1
    (timeout,) = played.of("timeout", 0)
    decided = [r for r in played.of("decision", 0) if r["request_id"] == timeout["request_id"]]
    assert len(decided) == 1  # the default action, not the late answer
    index = played.records.index(decided[0])
    default = played.rules.default_action(played.state_before(index), 0)
    assert decided[0]["action"] == action_to_dict(default)
    assert len(played.of("decision", 0)) > 10


# ------------------------------------------------------------------------ crash


@pytest.mark.parametrize(
    ("phase", "mode"),
    [
        ("match_start", "exit"),
        ("claim", "exit"),
        ("place", "raise"),
        ("attack", "kill"),
        ("fortify", "exit"),
    ],
)
def test_a_bot_that_dies_mid_match_is_a_crash(arena, phase, mode):
    played = arena.play([broken("crasher"), RANDOM, RANDOM], mode=mode, phase=phase)
    kept_playing(played, 0, "CRASH")
    assert played.lines("died.jsonl") == [{"where": phase, "mode": mode}]
    if phase not in ("match_start", "claim"):
        assert played.of("decision", 0), "it played before it died"
    detail = played.result.seats[0].detail
    assert detail, "the forfeit says what happened"


def test_a_bot_that_dies_before_hello_is_init_fail(arena):
    played = arena.play(
        [broken("crasher"), RANDOM, RANDOM],
        phase="start",
        control=TimeControl(move_time=2.0, time_bank=5.0, startup_time=600.0),
    )
    kept_playing(played, 0, "INIT_FAIL")
    assert "exited with code 3" in played.result.seats[0].detail
    # The referee notices the exit: it does not wait out the (ten minute) startup time.
    assert played.seconds < 300


def test_a_bot_that_never_connects_is_init_fail_within_the_startup_time(arena):
    # The other seats play in-process: the startup time is for the broken bot alone, long
    # enough for it to start its child (checked below) on a loaded machine.
    played = arena.play(
        [_random_bot(), broken("never_connects"), _random_bot()],
        control=TimeControl(move_time=2.0, time_bank=5.0, startup_time=5.0),
    )
    kept_playing(played, 1, "INIT_FAIL")
    assert "did not connect within 5 s" in played.result.seats[1].detail
    # The bot and its child both ignore SIGTERM; both were killed (checked by the harness).
    assert len(played.pids) == 2


def _random_bot() -> Bot:
    from arena.catalog import find_bot, load_bot

    return load_bot(find_bot("random"))


# ---------------------------------------------------------------------- illegal


def _check_rejections(played, seat):
    """Every rejection in the replay carries the engine's reason, and the bot received it."""
    rejected = played.of("rejected", seat)
    assert rejected
    for record in rejected:
        index = played.records.index(record)
        state = played.state_before(index)
        options = played.rules.legal_options(state, seat)
        answer = record["answer"]
        with pytest.raises(ArenaError) as caught:
            if isinstance(answer, int):
                played.rules.check(state, seat, action_from_index(options, answer))
            elif answer is None:  # could not even be decoded
                cmap.action_from_pb(cmap.action_to_pb(Trade((1, 2))))  # type: ignore[arg-type]
            else:
                played.rules.check(state, seat, action_from_dict(answer))
        assert record["reason"] == str(caught.value)
    received = [r["reason"] for r in played.lines(f"rejections-{seat}.jsonl")]
    assert received == [r["reason"] for r in rejected]


@pytest.mark.parametrize(
    ("mode", "phase", "reason"),
    [
        ("index", "", "option index 9999 out of range: this claim decision has"),
        ("action", "attack", "attack decision is pending: expected Attack or EndAttack, got Claim"),
        ("malformed", "", "trade needs exactly 3 card ids"),
    ],
)
def test_illegal_answers_are_rejected_with_the_reason_then_forfeit(arena, mode, phase, reason):
    played = arena.play([broken("illegal"), RANDOM, RANDOM], mode=mode, phase=phase)
    kept_playing(played, 0, "ILLEGAL")
    assert played.result.seats[0].strikes == 3
    rejected = played.of("rejected", 0)
    assert len(rejected) == 3
    assert len({r["request_id"] for r in rejected}) == 1, "retried within one request"
    assert reason in rejected[0]["reason"]
    assert reason in played.result.seats[0].detail
    _check_rejections(played, 0)


def test_a_rejected_answer_may_be_retried(arena):
    played = arena.play([broken("illegal"), RANDOM, RANDOM], mode="retry")
    assert played.statuses == ["OK", "OK", "OK"]
    assert played.result.seats[0].strikes == 1
    (rejected,) = played.of("rejected", 0)
    retried = [r for r in played.of("decision", 0) if r["request_id"] == rejected["request_id"]]
    assert len(retried) == 1
    _check_rejections(played, 0)
    assert len(played.of("decision", 0)) > 10


# --------------------------------------------------------------------- protocol


@pytest.mark.parametrize("mode", ["bytes", "empty"])
def test_garbage_on_the_stream_is_a_protocol_fault(arena, mode):
    played = arena.play([RANDOM, broken("garbage"), RANDOM], mode=mode, phase="claim")
    kept_playing(played, 1, "PROTOCOL")
    assert len(played.lines("sent.jsonl")) == 1


@pytest.mark.parametrize("mode", ["unsent", "other_seat", "unasked", "hello"])
def test_answers_nobody_asked_for_are_a_protocol_fault(arena, mode):
    played = arena.play([RANDOM, broken("stray"), RANDOM], mode=mode)
    kept_playing(played, 1, "PROTOCOL")
    assert len(played.lines("stray.jsonl")) == 1


def test_stale_and_duplicate_answers_are_ignored(arena):
    played = arena.play([RANDOM, broken("stray"), RANDOM], mode="stale")
    assert played.statuses == ["OK", "OK", "OK"]
    assert played.result.seats[1].strikes == 0
    assert len(played.of("decision", 1)) > 10


@pytest.mark.parametrize("mode", ["debug", "actions", "idle"])
def test_floods_are_a_protocol_fault(arena, mode):
    played = arena.play([RANDOM, broken("flood"), RANDOM], mode=mode)
    kept_playing(played, 1, "PROTOCOL")
    assert "flood" in played.result.seats[1].detail


def test_debug_text_within_the_limits_is_kept_in_the_replay(arena):
    played = arena.play([RANDOM, broken("flood"), RANDOM], mode="debug_ok")
    assert played.statuses == ["OK", "OK", "OK"]
    debug = played.of("debug", 1)
    decisions = played.of("decision", 1)
    assert len(debug) == 3 * len(decisions)
    assert max(len(r["text"]) for r in debug) == DEBUG_TEXT_CAP
    assert {r["request_id"] for r in debug} == {r["request_id"] for r in decisions}
    assert not played.of("debug", 0) and not played.of("debug", 2)


def test_a_message_over_1_mib_is_a_protocol_fault(arena):
    played = arena.play([RANDOM, broken("oversized"), RANDOM])
    kept_playing(played, 1, "PROTOCOL")
    assert "the limit is 1048576 bytes" in played.result.seats[1].detail


def test_a_message_just_under_1_mib_is_allowed(arena):
    played = arena.play([RANDOM, broken("oversized"), RANDOM], mode="under")
    assert played.statuses == ["OK", "OK", "OK"]
    (debug,) = played.of("debug", 1)
    assert debug["text"] == "x" * DEBUG_TEXT_CAP


# ------------------------------------------------------------------- handshake


@pytest.mark.parametrize(
    ("mode", "code"), [("token", "UNAUTHENTICATED"), ("version", "FAILED_PRECONDITION")]
)
def test_a_refused_handshake_is_init_fail(arena, mode, code):
    long_startup = TimeControl(move_time=2.0, time_bank=5.0, startup_time=600.0)
    played = arena.play([RANDOM, RANDOM, broken("wrong_token")], mode=mode, control=long_startup)
    kept_playing(played, 2, "INIT_FAIL")
    (answer,) = played.lines("handshake.jsonl")
    assert answer["code"] == code
    assert played.seconds < 300, "the refused bot exits; the referee need not wait for it"


# ------------------------------------------------------------------- disconnect


@pytest.mark.parametrize(
    "mode", [pytest.param("halfclose", marks=pytest.mark.slow), "cancel"]
)  # each is 6 s: one in the fast suite
def test_a_bot_that_closes_its_stream_but_keeps_running_is_a_disconnect(arena, mode):
    # Waiting out the request would take 300 s: the referee notices the closed stream.
    long_move = TimeControl(move_time=300.0, time_bank=0.0, startup_time=STARTUP)
    played = arena.play([RANDOM, broken("disconnector"), RANDOM], mode=mode, control=long_move)
    kept_playing(played, 1, "DISCONNECT")
    (closed,) = played.lines("closed.jsonl")
    answered = [r["request_id"] for r in played.of("decision", 1)]
    assert len(answered) == 4  # it answered 4 requests, then closed at the 5th
    assert closed["mode"] == mode and closed["request_id"] > max(answered)
    assert played.seconds < 150


# -------------------------------------------------------------------- 2 players


def test_two_player_match_with_a_crash_ends_cleanly(arena):
    played = arena.play(
        [broken("crasher"), RANDOM], rules=rules_for(2), mode="exit", phase="attack"
    )
    assert played.statuses == ["CRASH", "OK"]
    assert played.result.seats[1].place == 1 and played.result.seats[0].place == 2
    assert played.result.winner == 1


# ---------------------------------------------------------------------- stderr


def test_bot_stderr_is_logged_and_capped(arena):
    played = arena.play([broken("noisy"), RANDOM, RANDOM], control=FAST)
    assert played.statuses == ["OK", "OK", "OK"]
    logs = sorted(logs_dir().glob(f"{played.result.match_id}-seat*.log"))
    assert [p.name.split("-", 1)[1] for p in logs] == [
        "seat0-noisy.log",
        "seat1-random.log",
        "seat2-random.log",
    ]
    noisy = logs[0].read_bytes()
    assert LOG_CAP_BYTES <= len(noisy) <= LOG_CAP_BYTES + 100
    assert noisy.startswith(b"noise noise")
    assert noisy.rstrip().endswith(b"[log truncated at 1 MiB]")
    assert Path(logs_dir()).is_dir()


# -------------------------------------------------------------------- launcher


def test_launched_bots_get_their_limits_and_a_missing_command_is_a_bot_error(tmp_path):
    probe = (
        "import resource, sys; "
        "print(resource.getrlimit(resource.RLIMIT_NOFILE), "
        "resource.getrlimit(resource.RLIMIT_CPU), file=sys.stderr)"
    )

    async def main() -> None:
        log = tmp_path / "logs" / "probe.log"
        limits = Limits(open_files=123, cpu_seconds=77)
        process = await launch([sys.executable, "-c", probe], tmp_path, {}, log, limits)
        assert await process.wait_exit(10)
        assert process.process.returncode == 0
        await process.kill(grace=0)
        assert log.read_text().split() == ["(123,", "123)", "(77,", "77)"]
        for missing in ("no-such-bot-command", "./no-such-bot.sh"):
            with pytest.raises(BotError, match=f"cannot start '{missing}'.*No such file"):
                await launch([missing], tmp_path, {}, log, limits)

    asyncio.run(main())


def test_bots_started_next_to_a_busy_grpc_server_all_start(tmp_path):
    # Regression: limits set by a preexec_fn made Python fork (not vfork) in a process with
    # gRPC threads; gRPC's fork handlers then killed a few children with SIGABRT before they
    # ran the bot (INIT_FAIL "exited with code -6"). Starting many at once showed it reliably.
    async def main() -> list[int | None]:
        server, _ = await start_server(Registry(), f"unix:{tmp_path}/referee.sock")

        async def one(i: int) -> int | None:
            log = tmp_path / f"{i}.log"
            process = await launch([sys.executable, "-c", "pass"], tmp_path, {}, log, Limits())
            await process.wait_exit(20)
            await process.kill(grace=0)
            return process.process.returncode

        try:
            return await asyncio.gather(*(one(i) for i in range(48)))
        finally:
            await server.stop(0)

    assert asyncio.run(main()) == [0] * 48


def _slow_first_answers(count: int, pause: float):
    """A random bot that takes ``pause`` seconds over each of its first ``count`` decisions."""
    import time as _time

    from arena.catalog import find_bot, load_bot

    bot = load_bot(find_bot("random"))
    choose = bot.choose
    asked = [0]

    def slow_choose(request):
        asked[0] += 1
        if asked[0] <= count:
            _time.sleep(pause)
        return choose(request)

    bot.choose = slow_choose  # type: ignore[method-assign]
    return bot


@pytest.mark.parametrize("untimed", [frozenset({0}), frozenset()])
@pytest.mark.usefixtures("both_in_process_paths")
def test_an_untimed_seat_is_never_on_the_clock(untimed):
    """``untimed`` (the human seat) must reach the clocks: slow answers are no strikes."""
    from arena.catalog import find_bot, load_bot
    from arena.referee.match import MatchSettings, run_match
    from arena.referee.seats import InProcessSeat

    bots = [_slow_first_answers(3, 0.15), load_bot(find_bot("random"))]
    seats = [InProcessSeat(b, b.name, b.version) for b in bots]
    control = TimeControl(move_time=0.01, time_bank=0.0)
    result = asyncio.run(
        run_match(
            ClassicGame(rules_for(2, max_rounds=3).config),
            seats,
            4,
            settings=MatchSettings(control, untimed=untimed),
        )
    )
    if untimed:
        assert result.seats[0].status == "OK" and result.seats[0].strikes == 0
    else:
        assert result.seats[0].status == "TIMEOUT" and result.seats[0].strikes == 3
