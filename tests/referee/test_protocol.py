"""The wire protocol: handshakes and stream endings over a real server, codec round trips, and
what each seat receives: never another seat's hidden information, and the same in-process as
over gRPC."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import sys
from collections import defaultdict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena import __version__
from arena.catalog import load_bot
from arena.errors import MalformedActionError
from arena.games.classic import ClassicConfig, ClassicRules
from arena.games.classic.actions import (
    REROLL_POLICIES,
    Attack,
    ChooseHeadquarters,
    Claim,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    Occupy,
    Place,
    PlaceNeutral,
    Reroll,
    Trade,
    action_from_dict,
)
from arena.games.classic.game import ClassicGame
from arena.games.classic.missions import MISSIONS
from arena.games.classic.options import choices
from arena.protocol import classic as cmap
from arena.protocol import envelope
from arena.protocol._pb.riskarena.classic.v1 import classic_pb2 as cpb
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.referee.match import MatchSettings, TimeControl, play_match, run_match
from arena.referee.messages import Ask, Reply, Result, Start
from arena.referee.seats import InProcessSeat, RemoteSeat
from arena.referee.server import (
    MAX_MESSAGE_BYTES,
    MAX_QUEUED_BYTES,
    MAX_QUEUED_MESSAGES,
    UNREADABLE_FIRST,
    Closed,
    Mailbox,
    Registry,
    Session,
    check_address,
    start_server,
)
from arena.sdk import wire
from arena.sdk.bot import Bot, Request
from tests.referee import Arena, Played, broken, rules_for

PLAY = "/riskarena.v1.Referee/Play"


@pytest.fixture
def arena(tmp_path, monkeypatch) -> Arena:
    return Arena(tmp_path, monkeypatch)


# -------------------------------------------------------------------- handshake


class Stream:
    """A client side of Play sending raw bytes, for one test."""

    def __init__(self, channel: grpc.aio.Channel) -> None:
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        method = channel.stream_stream(
            PLAY,
            request_serializer=lambda data: data,
            response_deserializer=pb.RefereeMessage.FromString,
        )
        self.call = method(self._requests())

    async def _requests(self) -> AsyncIterator[bytes]:
        while (data := await self.queue.get()) is not None:
            yield data

    def send(self, message: pb.BotMessage | bytes) -> None:
        data = message if isinstance(message, bytes) else message.SerializeToString()
        self.queue.put_nowait(data)

    def half_close(self) -> None:
        self.queue.put_nowait(None)

    async def reply(self) -> pb.RefereeMessage | grpc.StatusCode:
        """The referee's next message, or the status code that ended the stream."""
        try:
            message = await asyncio.wait_for(self.call.read(), 60)
        except grpc.aio.AioRpcError as exc:
            return exc.code()
        if message is grpc.aio.EOF:
            return await self.call.code()
        return message


def hello(token: str, version: int = envelope.PROTOCOL_VERSION) -> pb.BotMessage:
    return pb.BotMessage(
        hello=pb.Hello(
            token=token,
            bot_name="probe",
            bot_version="2.5",
            protocol_version=version,
            always_max_defence=True,
        )
    )


def serve(tmp_path: Path, test, hello_timeout: float = 10.0) -> Any:
    """Run ``test(registry, channel)`` against a real server on a unix socket."""

    async def main() -> Any:
        registry = Registry()
        server, target = await start_server(
            registry, f"unix:{tmp_path}/referee.sock", hello_timeout=hello_timeout
        )
        assert target == f"unix:{tmp_path}/referee.sock"
        try:
            async with grpc.aio.insecure_channel(
                target, options=[("grpc.max_send_message_length", -1)]
            ) as channel:
                return await test(registry, channel)
        finally:
            await server.stop(0)

    return asyncio.run(main())


def test_handshake_accepts_the_issued_token_once(tmp_path):
    async def test(registry: Registry, channel: grpc.aio.Channel) -> None:
        token = registry.issue("seat 0")
        first = Stream(channel)
        first.send(hello(token))
        welcome = await first.reply()
        assert isinstance(welcome, pb.RefereeMessage)
        assert welcome.WhichOneof("message") == "welcome"
        assert welcome.welcome.protocol_version == 1
        assert welcome.welcome.referee_version == __version__
        session = await registry.wait(token, 30)
        assert isinstance(session, Session)
        assert session.hello.bot_name == "probe" and session.hello.bot_version == "2.5"
        assert session.hello.always_max_defence
        # The same token again is refused.
        second = Stream(channel)
        second.send(hello(token))
        assert await second.reply() == grpc.StatusCode.UNAUTHENTICATED
        session.finish()
        assert await first.reply() == grpc.StatusCode.OK

    serve(tmp_path, test)


@pytest.mark.parametrize(
    ("first", "code"),
    [
        ("wrong token", grpc.StatusCode.UNAUTHENTICATED),
        ("version 2", grpc.StatusCode.FAILED_PRECONDITION),
        ("version 0", grpc.StatusCode.FAILED_PRECONDITION),
        ("debug first", grpc.StatusCode.INVALID_ARGUMENT),
        ("action first", grpc.StatusCode.INVALID_ARGUMENT),
        ("empty first", grpc.StatusCode.INVALID_ARGUMENT),
        ("garbage first", grpc.StatusCode.INVALID_ARGUMENT),
        ("nothing", grpc.StatusCode.DEADLINE_EXCEEDED),
        ("half-close", grpc.StatusCode.DEADLINE_EXCEEDED),
    ],
)
def test_handshake_errors(tmp_path, first, code):
    async def test(registry: Registry, channel: grpc.aio.Channel) -> None:
        token = registry.issue("seat 0")
        stream = Stream(channel)
        if first == "wrong token":
            stream.send(hello("not-" + token))
        elif first.startswith("version"):
            stream.send(hello(token, version=int(first.split()[1])))
        elif first == "debug first":
            stream.send(pb.BotMessage(debug=pb.DebugText(text=token)))
        elif first == "action first":
            stream.send(pb.BotMessage(action=pb.Action(request_id=1, option_index=0)))
        elif first == "empty first":
            stream.send(b"")
        elif first == "garbage first":
            stream.send(b"\x07" + random.Random(2).randbytes(40))
        elif first == "half-close":
            stream.half_close()
        assert await stream.reply() == code
        if first == "garbage first":  # a documented status and detail, not UNKNOWN
            assert await stream.call.details() == UNREADABLE_FIRST
        # A refused handshake does not use the token up.
        retry = Stream(channel)
        retry.send(hello(token))
        reply = await retry.reply()
        assert isinstance(reply, pb.RefereeMessage) and reply.HasField("welcome")
        session = await registry.wait(token, 30)
        assert session is not None
        session.finish()
        stream.half_close()

    # Long enough for a Hello sent at once to arrive on a loaded machine; "nothing" waits it out.
    serve(tmp_path, test, hello_timeout=2.0)


async def _welcomed(registry: Registry, channel: grpc.aio.Channel) -> tuple[Stream, Session]:
    token = registry.issue("seat 0")
    stream = Stream(channel)
    stream.send(hello(token))
    reply = await stream.reply()
    assert isinstance(reply, pb.RefereeMessage) and reply.HasField("welcome")
    session = await registry.wait(token, 30)
    assert session is not None
    return stream, session


async def _next(session: Session) -> pb.BotMessage | Closed:
    return await asyncio.wait_for(session.inbox.get(), 60)


@pytest.mark.parametrize(
    ("ending", "why"),
    [
        ("garbage", "protocol"),
        ("over 1 MiB", "protocol"),
        ("half-close", "disconnect"),
        ("cancel", "disconnect"),
    ],
)
def test_how_a_stream_ends_reaches_the_session(tmp_path, ending, why):
    async def test(registry: Registry, channel: grpc.aio.Channel) -> None:
        stream, session = await _welcomed(registry, channel)
        stream.send(pb.BotMessage(debug=pb.DebugText(text="x" * (MAX_MESSAGE_BYTES - 16))))
        got = await _next(session)
        assert isinstance(got, pb.BotMessage) and len(got.debug.text) == MAX_MESSAGE_BYTES - 16
        if ending == "garbage":
            stream.send(b"\x07" + random.Random(1).randbytes(40))
        elif ending == "over 1 MiB":
            stream.send(pb.BotMessage(debug=pb.DebugText(text="x" * MAX_MESSAGE_BYTES)))
        elif ending == "half-close":
            stream.half_close()
        else:
            stream.call.cancel()
        closed = await _next(session)
        assert isinstance(closed, Closed), closed
        assert closed.why == why, closed
        assert session.closed is closed
        if ending == "over 1 MiB":
            assert f"the limit is {MAX_MESSAGE_BYTES} bytes" in closed.detail
        session.finish()

    serve(tmp_path, test)


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("nonsense", "expected HOST:PORT"),
        ("nonsense:xx", "expected HOST:PORT"),
        ("127.0.0.1:65536", "expected HOST:PORT"),
        (":50051", "expected HOST:PORT"),
        ("unix:", "no socket path"),
        ("unix:/no/such/folder/referee.sock", "no folder /no/such/folder"),
        ("in use", "Address already in use"),
    ],
)
def test_an_address_that_cannot_be_served_on_is_one_arena_error(address, why):
    import socket

    from arena.errors import ArenaError

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        if address == "in use":
            address = f"127.0.0.1:{taken.getsockname()[1]}"
        with pytest.raises(ArenaError) as caught:
            asyncio.run(start_server(Registry(), address))
    message = str(caught.value)
    assert message.startswith(f"cannot serve the referee on {address!r}: ")
    assert why in message and "\n" not in message


@pytest.mark.parametrize("address", ["nonsense", "nonsense:xx", "in use"])
def test_arena_match_with_an_address_it_cannot_serve_on_is_a_usage_error(address, capsys):
    import socket

    from arena.cli import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        if address == "in use":
            address = f"127.0.0.1:{taken.getsockname()[1]}"
        code = main(["match", "--bot", "random", "--bot", "random", "--address", address])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith(f"arena: error: cannot serve the referee on {address!r}: ")
    assert err.count("\n") == 1


@pytest.mark.parametrize("address", ["127.0.0.1:0", "[::1]:50051", "unix:/tmp/x.sock"])
def test_addresses_in_the_documented_forms_pass_the_check(address):
    check_address(address)


def test_a_tcp_address_serves_and_reports_the_port_it_bound(tmp_path):
    async def main() -> str:
        server, target = await start_server(Registry(), "127.0.0.1:0")
        await server.stop(0)
        return target

    host, _, port = asyncio.run(main()).rpartition(":")
    assert host == "127.0.0.1" and int(port) > 0


# ------------------------------------------------------------------------ codec


CONFIGS = [
    (3, {}),
    (2, {"advantage_reroll": "true"}),
    (4, {"mode": "mission", "fortify": "connected"}),
    (5, {"mode": "capital", "capital_goal": "short", "sets": "fixed"}),
    (3, {"mode": "capital", "sets": "progressive", "advantage_reroll": "true"}),
]


CLASSIC = ClassicGame(ClassicConfig.parse({}, 3))
"""A configured classic game, for decoding answers (every configuration decodes them alike)."""


def _wire(message: Any) -> Any:
    return type(message).FromString(message.SerializeToString())


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_codec_round_trips_views_options_and_actions_over_random_games(players, options):
    rules = ClassicRules(ClassicConfig.parse({"max_rounds": "12", **options}, players))
    game = ClassicGame(rules.config)
    kinds: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        state = rules.new_game(seed, [rng.random() < 0.3 for _ in range(players)])
        events: list[dict[str, Any]] = []
        while (decision := rules.decision(state)) is not None:
            seat = rng.choice(decision.seats)
            view = rules.view(state, seat)
            options_ = rules.legal_options(state, seat)
            kinds.add(options_.kind)
            assert cmap.view_from_pb(_wire(cmap.view_to_pb(view))) == view
            assert cmap.options_from_pb(_wire(cmap.options_to_pb(options_))) == options_
            request = envelope.request_to_pb(
                game,
                request_id=len(kinds) + 7,
                match_id="m",
                kind=options_.kind,
                view=view,
                options=options_,
                deadline_ms=1500,
                time_bank_ms=900,
                server_time_ms=123,
                events=events,
            )
            decoded = wire.request(_wire(request), None)
            assert decoded == Request.make(
                seat,
                view,
                options_,
                request_id=len(kinds) + 7,
                deadline_ms=1500,
                time_bank_ms=900,
                events=_json(events),
            )
            listed = choices(options_)
            for index, action in enumerate(listed):
                assert cmap.action_from_pb(_wire(cmap.action_to_pb(action))) == action
                sent = _wire(envelope.answer_to_pb("classic", 5, index))
                assert envelope.answer_from_pb(game, sent) == index
            action = rng.choice(listed)
            sent = _wire(envelope.answer_to_pb("classic", 5, action))
            assert envelope.answer_from_pb(game, sent) == action
            step = rules.apply(state, seat, action)
            state, events = step.state, step.events
            assert envelope.events_from_pb(envelope.events_to_pb(events)) == _json(events)
    assert {"attack", "fortify", "reinforce"} <= kinds


def test_codec_round_trips_match_start_and_end():
    rules = rules_for(4, mode="mission")
    board = rules.board.to_dict()
    names = ["a", "b", "c", "d"]
    start = envelope.match_start_to_pb(
        ClassicGame(rules.config),
        match_id="abc",
        seat=2,
        names=names,
        bot_seed=2**63 + 5,
        move_time_ms=250,
        time_bank_ms=9000,
    )
    info = wire.match_info(_wire(start))
    assert info.seat == 2 and info.players == 4 and info.names == tuple(names)
    assert info.bot_seed == 2**63 + 5 and info.match_id == "abc"
    assert info.board == board
    assert info.rules == {k: str(v).lower() for k, v in rules.config.to_dict().items()}
    assert (info.move_time_ms, info.time_bank_ms) == (250, 9000)
    statuses = ["OK", "TIMEOUT", "ILLEGAL", "CRASH", "DISCONNECT", "INIT_FAIL", "PROTOCOL"]
    lines = [
        {"seat": i, "bot": f"b{i}", "place": 1 + i // 2, "status": s, "strikes": i}
        for i, s in enumerate(statuses)
    ]
    for winner in (None, 3):
        end = envelope.match_end_to_dict(
            _wire(envelope.match_end_to_pb("abc", lines, "mission", winner))
        )
        assert end["seats"] == lines
        assert end["places"] == [line["place"] for line in lines]
        assert end["winner"] == winner and end["end"] == "mission" and end["match_id"] == "abc"


def test_codec_decodes_a_status_it_does_not_know_as_unknown_never_ok():
    # 0 is SEAT_STATUS_UNSPECIFIED; 99 stands for a status a newer referee may add. Both
    # still decode (a bot must be able to finish), as a value no real status has.
    end = pb.MatchEnd(
        match_id="m",
        seats=[
            pb.SeatResult(seat=0, bot="a", place=1, status=pb.SEAT_STATUS_OK),
            pb.SeatResult(seat=1, bot="b", place=2, status=0),
            pb.SeatResult(seat=2, bot="c", place=3, status=99),  # type: ignore[arg-type]
        ],
        end_reason="domination",
        winner=0,
    )
    decoded = envelope.match_end_to_dict(_wire(end))
    assert [s["status"] for s in decoded["seats"]] == ["OK", "UNKNOWN", "UNKNOWN"]
    assert envelope.UNKNOWN_STATUS == "UNKNOWN"


U32 = st.integers(0, 2**32 - 1)
SMALL = st.integers(0, 200)
OPTIONAL = st.none() | U32
ACTIONS = st.one_of(
    st.builds(Claim, U32),
    st.builds(PlaceNeutral, U32),
    st.builds(ChooseHeadquarters, U32),
    st.builds(Place, st.lists(st.tuples(U32, U32), max_size=8).map(tuple)),
    st.builds(Trade, st.none() | st.tuples(SMALL, SMALL, SMALL), OPTIONAL),
    st.builds(Attack, U32, U32, U32, OPTIONAL, st.sampled_from(REROLL_POLICIES)),
    st.builds(EndAttack),
    st.builds(Defend, U32),
    st.builds(Reroll, OPTIONAL),
    st.builds(Occupy, U32),
    st.builds(Fortify, U32, U32, U32),
    st.builds(EndTurn),
)


@settings(max_examples=400, deadline=None)
@given(action=ACTIONS, request_id=st.integers(0, 2**64 - 1))
def test_codec_round_trips_any_action(action, request_id):
    message = _wire(envelope.answer_to_pb("classic", request_id, action))
    assert message.request_id == request_id
    assert envelope.answer_from_pb(CLASSIC, message) == action


@settings(max_examples=200, deadline=None)
@given(index=st.integers(0, 2**32 - 1))
def test_codec_round_trips_option_indexes(index):
    assert (
        envelope.answer_from_pb(CLASSIC, _wire(envelope.answer_to_pb("classic", 1, index))) == index
    )


def test_codec_rejects_what_is_not_an_answer():
    with pytest.raises(MalformedActionError, match="option index must be ≥ 0"):
        envelope.answer_to_pb("classic", 1, -1)
    with pytest.raises(MalformedActionError, match="needs option_index or the game's action"):
        envelope.answer_from_pb(CLASSIC, pb.Action(request_id=1))
    with pytest.raises(MalformedActionError, match="needs option_index or classic"):
        envelope.answer_from_pb(CLASSIC, pb.Action(request_id=1, action_json="{}"))
    with pytest.raises(MalformedActionError, match="unknown action kind 'jump'"):
        cmap.action_from_pb(cpb.ClassicAction(kind="jump"))
    with pytest.raises(MalformedActionError, match="exactly 3 card ids"):
        cmap.action_from_pb(cpb.ClassicAction(kind="trade", cards=[1, 2, 3, 4]))
    with pytest.raises(MalformedActionError, match="reroll must be one of"):
        cmap.action_from_pb(cpb.ClassicAction(kind="attack", reroll="sometimes"))
    assert cmap.action_from_pb(cpb.ClassicAction(kind="reinforce")) == Place(())


# ------------------------------------------------------------- what seats see


def _recordings(played: Played) -> dict[int, list[tuple[bytes, pb.RefereeMessage]]]:
    """Every message each recorder seat received, in order, by seat."""
    by_pid: dict[str, list[Path]] = defaultdict(list)
    for path in sorted(played.out.glob("*.bin")):
        by_pid[path.name.split("-")[0]].append(path)
    seats: dict[int, list[tuple[bytes, pb.RefereeMessage]]] = {}
    for paths in by_pid.values():
        received = [(p.read_bytes(), pb.RefereeMessage.FromString(p.read_bytes())) for p in paths]
        assert received[0][1].HasField("welcome")
        assert received[1][1].HasField("match_start")
        assert received[-1][1].HasField("match_end")
        seats[received[1][1].match_start.seat] = received
    assert sorted(seats) == list(range(played.rules.n))
    return seats


def _check_hidden_information(played: Played) -> dict[str, int]:
    """Re-play the match and hold every request each seat received against the true state."""
    rules, n = played.rules, played.rules.n
    seen = _recordings(played)
    requests = {
        message.decision.request_id: (seat, data, message.decision)
        for seat, received in seen.items()
        for data, message in received
        if message.HasField("decision")
    }
    counts: dict[str, int] = defaultdict(int)
    state = rules.new_game(played.header["seed"], played.header["always_max"])
    game = ClassicGame(rules.config)
    for record in played.records:
        if record["type"] == "forfeit":
            state = rules.forfeit(state, record["seat"]).state
            continue
        if record["type"] not in ("decision", "joint"):
            continue
        answers = record["answers"] if record["type"] == "joint" else [record]
        deciding = rules.decision(state)
        assert deciding is not None
        assert sorted(a["seat"] for a in answers) == sorted(deciding.seats)
        for answer in answers:  # the seats of a joint decision are all asked in one state
            seat = answer["seat"]
            seat_of, data, request = requests.pop(answer["request_id"])
            assert seat_of == seat
            view = cmap.view_from_pb(request.view)
            # Exactly the engine's view for that seat, nothing more.
            assert view == rules.view(state, seat)
            hands = state.hands
            assert view["hand"] == list(hands[seat])
            assert not set(view["hand"]) & {c for p in range(n) if p != seat for c in hands[p]}
            counts["cards in own hand"] += len(view["hand"])
            if state.missions:
                mission = MISSIONS[state.missions[seat]]
                assert view["mission"] == {"id": mission.id, "text": mission.text()}
                for other in range(n):
                    text = MISSIONS[state.missions[other]].text()
                    if other != seat and text != mission.text():
                        assert text.encode() not in data, "another seat's mission is on the wire"
                        counts["missions hidden"] += 1
            else:
                assert view["mission"] is None
            if state.hq:
                if state.hq_revealed:
                    assert view["headquarters"] == list(state.hq)
                    counts["headquarters revealed"] += 1
                else:
                    assert view["headquarters"][seat] == state.hq_pending[seat]
                    others = [h for p, h in enumerate(view["headquarters"]) if p != seat]
                    assert others == [-1] * (n - 1)
                    counts["headquarters hidden"] += 1
            for event in envelope.events_from_pb(request.events):
                if event["type"] == "card_drawn":
                    if event["seat"] == seat:
                        assert isinstance(event["card"], int)
                        counts["own draws seen"] += 1
                    else:
                        assert event["card"] is None
                        counts["other draws hidden"] += 1
                elif event["type"] == "cards_taken":
                    mine = seat in (event["seat"], event["from"])
                    assert (event["cards"] is not None) == mine
        actions = {a["seat"]: action_from_dict(a["action"]) for a in answers}
        state = game.apply_joint(state, actions).state
    assert not requests, "every request was answered by a recorded decision"
    return counts


RECORDED = TimeControl(move_time=5.0, time_bank=10.0, startup_time=60.0)


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"mode": "mission"}, {"missions hidden", "other draws hidden", "own draws seen"}),
        ({"mode": "capital"}, {"headquarters hidden", "headquarters revealed", "own draws seen"}),
    ],
)
def test_no_seat_receives_another_seats_hidden_information(arena, options, expected):
    rules = rules_for(3, max_rounds=12, **options)
    recorder = broken("recorder")
    played = arena.play([recorder] * 3, rules=rules, seed=7, control=RECORDED)
    assert played.statuses == ["OK"] * 3
    counts = _check_hidden_information(played)
    assert expected <= {k for k, v in counts.items() if v}, counts
    assert counts["cards in own hand"] > 0


def test_an_in_process_seat_receives_what_a_remote_seat_receives(arena, monkeypatch):
    rules = rules_for(3, max_rounds=6, mode="capital")
    spec = broken("recorder")
    played = arena.play([spec] * 3, rules=rules, seed=11, control=RECORDED)
    starts = {
        seat: wire.match_info(received[1][1].match_start)
        for seat, received in _recordings(played).items()
    }
    remote = {
        seat: [
            wire.request(m.decision, starts[seat]) for _, m in received if m.HasField("decision")
        ]
        for seat, received in _recordings(played).items()
    }
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # nothing written into the bot folder
    bots = [load_bot(spec) for _ in range(3)]
    local: dict[int, list[Request]] = defaultdict(list)
    for seat, bot in enumerate(bots):

        def choose(request: Request, bot=bot, seat=seat) -> Any:
            local[seat].append(request)
            return type(bot).choose(bot, request)

        bot.choose = choose  # type: ignore[method-assign]
    result = play_match(ClassicGame(rules.config), bots, 11, control=RECORDED)
    assert [s.status for s in result.seats] == ["OK"] * 3
    assert result.to_dict()["places"] == played.result.to_dict()["places"]
    for seat in range(3):
        assert bots[seat].match is not None
        info = bots[seat].match
        assert info.seat == seat
        assert info == dataclasses.replace(starts[seat], match_id=info.match_id)
        assert len(local[seat]) == len(remote[seat]) > 10
        assert local[seat] == remote[seat]


# ------------------------------------------------------- a seat's inbox, unit


def _remote() -> tuple[RemoteSeat, Session]:
    session = Session("token", pb.Hello(bot_name="unit", bot_version="1"))
    return RemoteSeat(session, None, ""), session


def _answer(reply: Reply) -> Any:
    """The answer a seat's reply carries, as the game reads it (None if none)."""
    return reply.answer


_CLAIMING = CLASSIC.new_game(1)
"""A game at its first claim: the position the unit requests ask about."""
_CLAIMER = CLASSIC.decision(_CLAIMING).seats[0]


def _start(match_id: str) -> Start:
    names = ["a", "b", "c"]
    return Start(CLASSIC, match_id, _CLAIMER, names, bot_seed=1, move_time_ms=0, time_bank_ms=0)


def _action(request_id: int, index: int = 0) -> pb.BotMessage:
    return pb.BotMessage(action=pb.Action(request_id=request_id, option_index=index))


def _debug(text: str) -> pb.BotMessage:
    return pb.BotMessage(debug=pb.DebugText(text=text))


def _request(request_id: int) -> Ask:
    view = CLASSIC.view(_CLAIMING, _CLAIMER)
    options = CLASSIC.legal_options(_CLAIMING, _CLAIMER)
    return Ask(CLASSIC, "m", _CLAIMER, request_id, "claim", view, options, 0, 0, [])


@pytest.mark.parametrize(
    ("queued", "answer", "fault", "detail", "debug"),
    [
        ([_action(2, 4)], 4, None, "", []),
        ([_debug("a"), _action(1, 3), _debug("b"), _action(2, 5)], 5, None, "", ["a", "b"]),
        ([_action(99)], None, "protocol", "answer to request 99, which was never sent", []),
        ([hello("x")], None, "protocol", "unexpected hello message during a match", []),
        ([pb.BotMessage()], None, "protocol", "unexpected empty message", []),
        ([_debug("d")] * 200 + [_action(2)], None, "protocol", "flood: more than 200", None),
        ([_action(1)] * 201 + [_action(2)], None, "protocol", "flood: more than 200", None),
        ([_debug("d")] * 199 + [_action(2, 1)], 1, None, "", None),  # 200 with the answer
        ([Closed("protocol", "bad bytes")], None, "protocol", "bad bytes", []),
        ([Closed("disconnect", "gone")], None, "disconnect", "gone", []),
        ([_debug("slow")], None, None, "", ["slow"]),
    ],
)
def test_remote_seat_reads_one_answer_per_request(queued, answer, fault, detail, debug):
    async def main() -> None:
        seat, session = _remote()
        await seat.start(_start("m"))
        session.inbox.put_nowait(_action(1, 0))
        first = await seat.ask(_request(1), 1.0)
        assert _answer(first) == 0 and first.fault is None
        for message in queued:
            session.inbox.put_nowait(message)
        reply = await seat.ask(_request(2), 0.2)
        assert (_answer(reply), reply.fault) == (answer, fault), reply
        assert detail in reply.detail
        if debug is not None:
            assert reply.debug == debug
        if answer is None and fault is None:
            assert reply.elapsed >= 0.2  # nothing in time: the match loop makes it a timeout
        sent = [session.outbox.get_nowait() for _ in range(session.outbox.qsize())]
        assert [m.WhichOneof("message") for m in sent] == ["match_start", "decision", "decision"]

    asyncio.run(main())


def test_remote_seat_decodes_structured_answers_and_reports_malformed_ones():
    async def main() -> None:
        seat, session = _remote()
        await seat.start(_start("m"))
        good = pb.Action(request_id=1, classic=cmap.action_to_pb(Claim(7)))
        session.inbox.put_nowait(pb.BotMessage(action=good))
        assert _answer(await seat.ask(_request(1), 1.0)) == Claim(7)
        bad = pb.Action(request_id=2, classic=cpb.ClassicAction(kind="trade", cards=[1, 2]))
        session.inbox.put_nowait(pb.BotMessage(action=bad))
        reply = await seat.ask(_request(2), 1.0)
        assert reply.fault is None and reply.illegal is None and reply.answer is None
        assert "exactly 3 card ids" in (reply.unreadable or "")  # a strike, not a fault
        # A retry waits on the same clock and takes the next answer.
        session.inbox.put_nowait(_action(2, 6))
        rejection = Result(request_id=2, accepted=False, reason="no", strikes=1)
        again = await seat.retry(rejection, 1.0)
        assert _answer(again) == 6
        # The rejection that ends a seat's match is still delivered.
        seat.accepted(Result(request_id=2, accepted=False, reason="last", strikes=3))
        sent = [session.outbox.get_nowait() for _ in range(session.outbox.qsize())]
        results = [m.action_result for m in sent if m.HasField("action_result")]
        assert [(r.accepted, r.reason) for r in results] == [(False, "no"), (False, "last")]

    asyncio.run(main())


@pytest.mark.parametrize(
    ("queued", "fault"),
    [
        ([], None),
        ([_action(1), _action(1, 2)], None),  # late answers to a request it was sent
        ([_debug("thinking aloud")], None),
        ([_action(2)], "action message sent while no decision was asked of this seat"),
        ([_action(1), _action(12345)], "action message sent while no decision was asked"),
        ([hello("x")], "hello message sent while no decision was asked"),
        ([pb.BotMessage()], "empty message sent while no decision was asked"),
        ([_debug("d")] * 201, "flood: more than 200 messages while no decision was asked"),
        ([_action(1)] * 201, "flood: more than 200 messages while no decision was asked"),
        ([_debug("d")] * 200, None),
    ],
)
def test_remote_seat_between_requests(queued, fault):
    async def main() -> None:
        seat, session = _remote()
        await seat.start(_start("m"))
        session.inbox.put_nowait(_action(1, 0))
        assert _answer(await seat.ask(_request(1), 1.0)) == 0
        for message in queued:
            session.inbox.put_nowait(message)
        found = await seat.drain()
        if fault is None:
            assert found is None
            # Debug text sent while idle reaches the replay with the next answer.
            session.inbox.put_nowait(_action(3, 1))
            reply = await seat.ask(_request(3), 1.0)
            assert _answer(reply) == 1
            texts = [m.debug.text for m in queued if m.HasField("debug")]
            assert reply.debug == texts
        else:
            assert found is not None and fault in found

    asyncio.run(main())


def test_remote_seat_leaves_the_end_of_the_stream_for_the_next_request():
    async def main() -> None:
        seat, session = _remote()
        await seat.start(_start("m"))
        session.inbox.put_nowait(_debug("bye"))
        session.inbox.put_nowait(Closed("disconnect", "the bot closed its stream"))
        assert await seat.drain() is None
        reply = await seat.ask(_request(1), 1.0)
        assert reply.fault == "disconnect" and reply.debug == ["bye"]

    asyncio.run(main())


def test_request_ids_on_a_stream_never_repeat_across_matches():
    # Every match numbers its requests from 1; on the wire a stream's ids keep rising, so a
    # late answer to an earlier match's request is ignored, not taken for this match's.
    async def main() -> None:
        seat, session = _remote()
        await seat.start(_start("m1"))
        for rid in (1, 2, 3):
            session.inbox.put_nowait(_action(rid, 0))
            assert _answer(await seat.ask(_request(rid), 1.0)) == 0
        late = await seat.ask(_request(4), 0.05)  # unanswered in time
        assert late.answer is None and late.fault is None
        assert seat.timed_out
        await seat.start(_start("m2"))
        assert not seat.timed_out
        session.inbox.put_nowait(_action(4, 9))  # the late answer, now in match 2
        session.inbox.put_nowait(_action(1, 9))  # an id match 1 used, as match 2's 1st is
        assert await seat.drain() is None
        session.inbox.put_nowait(_action(2, 9))
        session.inbox.put_nowait(_action(5, 1))
        reply = await seat.ask(_request(1), 1.0)
        assert (_answer(reply), reply.fault) == (1, None), reply
        seat.accepted(Result(request_id=1, accepted=True))
        sent = [session.outbox.get_nowait() for _ in range(session.outbox.qsize())]
        wire = [m.decision.request_id for m in sent if m.HasField("decision")]
        assert wire == [1, 2, 3, 4, 5]
        assert sent[-1].action_result.request_id == 5
        # An id this stream was never sent is still a protocol fault.
        session.inbox.put_nowait(_action(7, 0))
        reply = await seat.ask(_request(2), 1.0)
        assert reply.fault == "protocol" and "request 7, which was never sent" in reply.detail

    asyncio.run(main())


def test_a_stream_that_ends_before_its_process_exits_is_still_a_crash(tmp_path):
    # On a loaded machine the exit of a crashing bot can be seen well after its stream
    # ends; the seat waits for it rather than calling the crash a disconnect.
    from arena.sandbox.launcher import Limits, launch

    async def main() -> tuple[str | None, str]:
        code = "import time; time.sleep(1.5); raise SystemExit(3)"
        log = tmp_path / "slow-exit.log"
        process = await launch([sys.executable, "-c", code], tmp_path, {}, log, Limits())
        session = Session("token", pb.Hello(bot_name="unit", bot_version="1"))
        seat = RemoteSeat(session, process, "")
        await seat.start(_start("m"))
        session.inbox.put_nowait(Closed("disconnect", "the bot closed its stream"))
        try:
            reply = await seat.ask(_request(1), 60.0)
        finally:
            await process.kill(grace=0)
        return reply.fault, reply.detail

    fault, detail = asyncio.run(main())
    assert fault == "crash" and "exited with code 3" in detail


def test_in_process_seat_hears_the_rejection_that_ends_its_match():
    heard: list[str] = []
    bot = Bot()
    bot.rejected = heard.append  # type: ignore[method-assign]
    seat = InProcessSeat(bot, "b", "1")
    seat.accepted(Result(request_id=3, accepted=True))
    seat.accepted(Result(request_id=4, accepted=False, reason="the last straw"))
    assert heard == ["the last straw"]


# ------------------------------------------------ ActionResult after accepted answers


async def _play_answering(stream: Stream, rejected_first: int) -> list[str]:
    """Answer every decision with its option 0, but the ``rejected_first``-th one first with
    an index out of range (answered again after its rejection); what arrived, in order."""
    received: list[str] = []
    decisions = 0
    while isinstance(message := await stream.reply(), pb.RefereeMessage):
        kind = message.WhichOneof("message")
        if kind == "action_result":
            kind = f"{kind}:{'accepted' if message.action_result.accepted else 'rejected'}"
        received.append(kind or "")
        if kind == "decision":
            decisions += 1
            rid = message.decision.request_id
            bad = decisions == rejected_first
            stream.send(_action(rid, 9999 if bad else 0))
        elif kind == "action_result:rejected":
            stream.send(_action(message.action_result.request_id, 0))
        elif kind == "match_end":
            stream.half_close()
    return received


@pytest.mark.parametrize("skip", [True, False])
def test_action_results_after_accepted_answers_only_when_the_hello_asks_for_them(tmp_path, skip):
    # Hello.skip_accepted_results: no ActionResult for an accepted answer, one for a
    # rejection. A bot that does not set it (every v1 bot) gets one for every answer.
    async def test(registry: Registry, channel: grpc.aio.Channel) -> None:
        seats: list[Any] = []
        clients = []
        for seat in range(2):
            token = registry.issue(f"seat {seat}")
            stream = Stream(channel)
            message = hello(token)
            message.hello.skip_accepted_results = skip
            stream.send(message)
            session = await registry.wait(token, 60)
            assert session is not None
            seats.append(RemoteSeat(session, None, f"probe{seat}"))
            clients.append(asyncio.create_task(_play_answering(stream, 3 + seat)))
        game = ClassicGame(ClassicConfig.parse({"max_rounds": "3"}, 2))
        control = TimeControl(move_time=30.0, time_bank=60.0)
        result = await run_match(game, seats, 5, settings=MatchSettings(control))
        for seat in seats:
            await seat.close()
        received = await asyncio.wait_for(asyncio.gather(*clients), 60)
        assert [s.status for s in result.seats] == ["OK", "OK"]
        for seat, kinds in enumerate(received):
            decisions = kinds.count("decision")
            assert kinds[:2] == ["welcome", "match_start"] and kinds[-1] == "match_end"
            assert kinds.count("action_result:rejected") == 1  # the one rejection
            assert kinds.count("action_result:accepted") == (0 if skip else decisions)
            assert result.seats[seat].strikes == 1 and decisions > 10
            at = kinds.index("action_result:rejected")
            assert kinds[at - 1] == "decision"
            # Answered again: then the next request (or the end), or its acceptance (v1).
            assert kinds[at + 1] in (
                ("decision", "match_end") if skip else ("action_result:accepted",)
            )

    serve(tmp_path, test)


def test_a_mailbox_wakes_its_reader_on_a_put_and_gives_none_when_the_time_is_up():
    async def main() -> None:
        box: Mailbox[str] = Mailbox()
        assert await box.get(0.05) is None  # nothing within the time
        waiting = asyncio.create_task(box.get(60))
        await asyncio.sleep(0)  # let it park
        box.put_nowait("a")
        box.put_nowait("b")
        assert await asyncio.wait_for(waiting, 60) == "a"
        assert (box.qsize(), box.get_nowait(), box.empty()) == (1, "b", True)
        with pytest.raises(asyncio.QueueEmpty):
            box.get_nowait()

    asyncio.run(main())


@pytest.mark.parametrize(
    ("flood", "why"),
    [("many small", "more than 1000 messages"), ("few large", "more than 4 MiB")],
)
def test_what_a_seat_sends_unread_is_capped_at_every_moment(tmp_path, flood, why):
    """A bot that keeps sending while nobody reads it (between requests, or after its seat
    is out of the match) has its stream ended as a protocol fault once 1,000 messages or
    4 MiB wait unread: the referee never holds more than that for one seat."""

    async def test(registry: Registry, channel: grpc.aio.Channel) -> None:
        stream, session = await _welcomed(registry, channel)
        count, size = (MAX_QUEUED_MESSAGES + 50, 10) if flood == "many small" else (8, 900_000)
        for _ in range(count):
            stream.send(pb.BotMessage(debug=pb.DebugText(text="x" * size)))

        def ended() -> bool:
            return session.closed is not None

        for _ in range(6000):  # bounded: 60 s of 10 ms polls on a loaded machine
            if ended():
                break
            await asyncio.sleep(0.01)
        assert session.closed is not None and session.closed.why == "protocol"
        assert why in session.closed.detail
        inbox = session.inbox
        assert inbox.qsize() <= MAX_QUEUED_MESSAGES + 1  # and the Closed marker
        assert inbox.queued_bytes <= MAX_QUEUED_BYTES
        while inbox.qsize():  # reading gives the messages back, then the end
            last = inbox.get_nowait()
        assert isinstance(last, Closed) and inbox.queued_bytes == 0
        session.finish()

    serve(tmp_path, test)
