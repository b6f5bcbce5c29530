"""The envelope and the per-game mappings: wire-compatible with the v1 contract (every v1
field keeps its number, name and type), the always-max defence honoured in both of its
Hello fields, and the JSON mapping of a game without a proto package of its own."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor

from arena import games
from arena.errors import MalformedActionError
from arena.games.api import Game
from arena.protocol import classic, codec_for, envelope, generic
from arena.protocol._pb.riskarena.classic.v1 import classic_pb2 as cpb
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.referee.match import play_match
from arena.sdk import Answer, Bot, Request
from tests.fixtures.v1 import v1pb
from tests.games.guessing import Guess

LIVE = {"riskarena/v1/arena.proto": pb.DESCRIPTOR, "riskarena/v1/classic.proto": cpb.DESCRIPTOR}
"""Where each v1 file's messages live now: the envelope stays in riskarena.v1, classic's
messages moved to riskarena.classic.v1 (same names, same field numbers)."""


def _wire(message: Any) -> Any:
    return type(message).FromString(message.SerializeToString())


# ------------------------------------------------------------- v1 compatibility


@pytest.fixture(scope="module")
def v1() -> v1pb.V1:
    """The fixture's frozen v1 protos, compiled now with protoc."""
    return v1pb.load()


def _messages(descriptors: Any) -> Iterator[Descriptor]:
    """Every message of a file or message, nested ones (map entries too) included."""
    for message in descriptors.message_types_by_name.values():
        yield message
        yield from _messages_nested(message)


def _messages_nested(message: Descriptor) -> Iterator[Descriptor]:
    for nested in message.nested_types:
        yield nested
        yield from _messages_nested(nested)


def _path(message: Descriptor) -> str:
    """The message's name inside its package (``MatchStart.RulesEntry``)."""
    return message.full_name.removeprefix(message.file.package + ".")


def _field(field: FieldDescriptor) -> tuple[str, int, bool, str]:
    """What the wire and the generated code of other languages depend on: name, type,
    repeated or not, and the name of a message or enum type (without its package)."""
    typed = field.message_type or field.enum_type
    return (field.name, field.type, field.is_repeated, _path(typed) if typed else "")


def _enums(descriptors: Any) -> dict[str, EnumDescriptor]:
    return dict(descriptors.enum_types_by_name)


@pytest.mark.parametrize("name", sorted(LIVE))
def test_every_v1_field_keeps_its_number_name_and_type(v1: v1pb.V1, name: str) -> None:
    old_file, new_file = v1.pool.FindFileByName(name), LIVE[name]
    new = {_path(m): m for m in _messages(new_file)}
    checked = 0
    for old in _messages(old_file):
        assert _path(old) in new, f"{_path(old)} of {name} is gone"
        fields = new[_path(old)].fields_by_number
        for number, field in old.fields_by_number.items():
            assert number in fields, f"{_path(old)} lost field {number} ({field.name})"
            assert _field(fields[number]) == _field(field), f"{_path(old)} field {number}"
            checked += 1
    assert checked > (60 if "classic" in name else 40)  # the comparison saw the files
    for enum_name, old_enum in _enums(old_file).items():
        values = {v.name: v.number for v in _enums(new_file)[enum_name].values}
        assert {v.name: v.number for v in old_enum.values}.items() <= values.items()


def test_the_service_and_its_method_keep_their_names(v1: v1pb.V1) -> None:
    service = pb.DESCRIPTOR.services_by_name["Referee"]
    play = service.methods_by_name["Play"]
    assert f"/{service.full_name}/{play.name}" == v1.play_path == "/riskarena.v1.Referee/Play"
    assert play.client_streaming and play.server_streaming


def test_what_moved_into_oneofs_and_what_is_new_in_hello() -> None:
    members = {
        (message.DESCRIPTOR.name, oneof.name): sorted(f.name for f in oneof.fields)
        for message in (pb.MatchStart, pb.DecisionRequest, pb.Action)
        for oneof in message.DESCRIPTOR.oneofs
    }
    assert members == {
        ("MatchStart", "game_board"): ["board", "board_json", "europe_board"],
        ("DecisionRequest", "game_view"): ["europe_view", "view", "view_json"],
        ("DecisionRequest", "game_options"): ["europe_options", "options", "options_json"],
        ("Action", "answer"): ["action_json", "classic", "europe", "option_index"],
    }
    numbers = {
        (message.DESCRIPTOR.name, f.name): f.number
        for message in (pb.MatchStart, pb.DecisionRequest, pb.Action, pb.Hello)
        for f in message.DESCRIPTOR.fields
        if f.name.startswith("europe")
    }
    assert numbers == {
        ("MatchStart", "europe_board"): 12,
        ("DecisionRequest", "europe_view"): 12,
        ("DecisionRequest", "europe_options"): 13,
        ("Action", "europe"): 5,
        ("Hello", "europe"): 9,
    }
    fields = pb.Hello.DESCRIPTOR.fields_by_number
    assert fields[5].name == "always_max_defence" and fields[5].GetOptions().deprecated
    assert (fields[6].name, fields[6].is_repeated) == ("games", True)
    assert (fields[7].name, fields[7].message_type.full_name) == (
        "classic",
        "riskarena.classic.v1.ClassicHello",
    )


# -------------------------------------------------------- the number of options


@pytest.mark.parametrize("name", ["classic", "europe"])
def test_every_request_says_how_many_options_an_index_may_pick(name: str) -> None:
    """``option_count`` is the length of the game's choices at every kind of decision: every
    index below it is a legal answer."""
    for position in games.load(name).positions():
        game, state, seat = position.game, position.state, position.seat
        options = game.legal_options(state, seat)
        request = _wire(
            envelope.request_to_pb(
                game,
                request_id=1,
                match_id="m",
                kind=position.kind,
                view=game.view(state, seat),
                options=options,
                deadline_ms=0,
                time_bank_ms=0,
                server_time_ms=0,
                events=[],
            )
        )
        listed = list(game.choices(options))
        assert request.option_count == len(listed) > 0, position.kind
        if name == "europe":
            assert request.option_count == len(request.europe_options.choices)
        for action in listed:
            game.check(state, seat, action)


def test_a_v1_reader_skips_the_option_count(v1: v1pb.V1) -> None:
    """A bot built against v1 reads a request carrying the count as before: the field is
    unknown to it, and every field it knows reads the same."""
    request = pb.DecisionRequest(request_id=4, match_id="m", kind="attack", option_count=7)
    old = v1.message("DecisionRequest").FromString(request.SerializeToString())
    assert (old.request_id, old.match_id, old.kind) == (4, "m", "attack")
    assert pb.DecisionRequest.FromString(old.SerializeToString()).option_count == 7


# ----------------------------------------------------------------- the handshake


def _declared(hello: pb.Hello) -> bool:
    return bool(envelope.declarations_from_hello("classic", _wire(hello))["always_max_defence"])


def test_always_max_defence_is_honoured_in_either_hello_field() -> None:
    assert _declared(pb.Hello(always_max_defence=True))  # a bot built against v1
    assert _declared(pb.Hello(classic=cpb.ClassicHello(always_max_defence=True)))
    assert _declared(
        pb.Hello(always_max_defence=True, classic=cpb.ClassicHello(always_max_defence=True))
    )
    assert not _declared(pb.Hello(games=["classic"], classic=cpb.ClassicHello()))
    assert not _declared(pb.Hello())


def test_a_v1_hello_reads_the_same_and_a_new_hello_reads_in_v1(v1: v1pb.V1) -> None:
    old = v1.message("Hello")(token="t", bot_name="b", protocol_version=1, always_max_defence=True)
    assert _declared(pb.Hello.FromString(old.SerializeToString()))
    hello = envelope.hello_to_pb(
        token="t",
        name="b",
        version="2",
        games=["classic"],
        declarations={"classic": {"always_max_defence": True}},
    )
    assert hello.classic.always_max_defence and list(hello.games) == ["classic"]
    as_v1 = v1.message("Hello").FromString(hello.SerializeToString())
    assert as_v1.always_max_defence  # what a referee of before reads: field 5
    assert (as_v1.token, as_v1.bot_name, as_v1.bot_version) == ("t", "b", "2")


# ------------------------------------------------------- a game without a package


@pytest.fixture
def guessing(monkeypatch: pytest.MonkeyPatch) -> Game[Any, Any, Any]:
    """The test-only guessing game, registered for one test (it has no mapping module)."""
    monkeypatch.setattr(games, "_ENTRIES", dict(games._ENTRIES))
    games.register("guessing", "tests.games.guessing")
    return games.load("guessing").configure({"rounds": "2"}, 2)


def test_a_game_without_its_own_mapping_travels_as_json(guessing: Game[Any, Any, Any]) -> None:
    assert codec_for("guessing") is generic.CODEC
    assert codec_for("classic") is classic.CODEC
    start = _wire(
        envelope.match_start_to_pb(
            guessing,
            match_id="m",
            seat=1,
            names=["a", "b"],
            bot_seed=9,
            move_time_ms=100,
            time_bank_ms=1000,
        )
    )
    assert start.WhichOneof("game_board") == "board_json"
    assert start.board_json == json.dumps(guessing.board(), separators=(",", ":"))
    info = envelope.match_start_fields(start)
    assert (info["game"], info["seat"], info["board"]) == ("guessing", 1, guessing.board())
    assert info["rules"] == {"players": "2", "rounds": "2"}

    state = guessing.new_game(5)
    step = guessing.apply_joint(state, {0: Guess(2), 1: Guess(6)})
    state, events = step.state, step.events
    view, options = guessing.view(state, 1), guessing.legal_options(state, 1)
    request = _wire(
        envelope.request_to_pb(
            guessing,
            request_id=3,
            match_id="m",
            kind="guess",
            view=view,
            options=options,
            deadline_ms=500,
            time_bank_ms=900,
            server_time_ms=1,
            events=events,
        )
    )
    assert request.WhichOneof("game_view") == "view_json"
    assert request.WhichOneof("game_options") == "options_json"
    assert request.option_count == 6 == len(json.loads(request.options_json))
    assert not request.HasField("view") and not request.HasField("options")
    assert (
        request.options_json
        == '[{"kind":"guess","value":1},'
        + ",".join(f'{{"kind":"guess","value":{v}}}' for v in range(2, 7))
        + "]"
    )
    fields = envelope.request_fields(request, "guessing", 1)
    listed = [{"kind": "guess", "value": v} for v in range(1, 7)]
    assert fields["seat"] == 1 and fields["game"] == "guessing" and fields["kind"] == "guess"
    assert fields["view"] == view and fields["events"] == events
    assert fields["options"] == listed and fields["choices"] == listed
    assert (fields["request_id"], fields["deadline_ms"], fields["time_bank_ms"]) == (3, 500, 900)


def test_json_answers_decode_to_the_games_actions(guessing: Game[Any, Any, Any]) -> None:
    message = _wire(envelope.answer_to_pb("guessing", 7, {"kind": "guess", "value": 5}))
    assert message.WhichOneof("answer") == "action_json"
    assert message.action_json == '{"kind":"guess","value":5}'
    assert envelope.answer_from_pb(guessing, message) == Guess(5)
    assert envelope.answer_from_pb(guessing, _wire(envelope.answer_to_pb("guessing", 7, 4))) == 4


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (pb.Action(request_id=1, action_json="{kind: guess}"), "action_json is not valid JSON"),
        (pb.Action(request_id=1, action_json=""), "action_json is not valid JSON"),
        (pb.Action(request_id=1, action_json="[1,2]"), "must be a JSON object, got list"),
        (pb.Action(request_id=1, action_json="5"), "must be a JSON object, got int"),
        (pb.Action(request_id=1, action_json='{"kind":"jump"}'), "a guess is"),
        (
            pb.Action(request_id=1, classic=cpb.ClassicAction(kind="claim")),
            "a guessing Action needs option_index or action_json",
        ),
        (pb.Action(request_id=1), "needs option_index or the game's action"),
    ],
)
def test_a_malformed_json_answer_says_what_is_wrong(
    guessing: Game[Any, Any, Any], action: pb.Action, reason: str
) -> None:
    with pytest.raises(MalformedActionError, match=reason) as caught:
        envelope.answer_from_pb(guessing, _wire(action))
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (Guess(3), "is a dict .* got Guess"),
        ([{"kind": "guess", "value": 3}], "is a dict .* got list"),
        ({"kind": "guess", "value": {1, 2}}, "not plain JSON"),
        ({"value": float("nan")}, "not plain JSON"),
    ],
)
def test_a_bot_side_answer_that_is_not_a_json_object_is_refused(answer: Any, reason: str) -> None:
    with pytest.raises(MalformedActionError, match=reason):
        envelope.answer_to_pb("guessing", 1, answer)


def test_a_game_without_a_mapping_declares_nothing() -> None:
    hello = envelope.hello_to_pb(
        token="", name="b", version="1", games=["guessing"], declarations={"guessing": {}}
    )
    assert not hello.HasField("classic") and not hello.always_max_defence
    assert envelope.declarations_from_hello("guessing", pb.Hello(always_max_defence=True)) == {}


class _LastChoice(Bot):
    """Answers with the last action dict it is offered (a JSON object on the wire)."""

    name = "last-choice"

    def __init__(self) -> None:
        self.requests: list[Request] = []

    def choose(self, request: Request) -> Answer:
        self.requests.append(request)
        return request.choices[-1]


def test_an_in_process_match_of_such_a_game_goes_through_the_json_mapping(
    guessing: Game[Any, Any, Any],
) -> None:
    dicts, indexes = _LastChoice(), Bot()  # Bot() answers index 0 to a kind it has no method for
    result = play_match(guessing, [dicts, indexes], seed=3)
    assert [(s.status, s.strikes) for s in result.seats] == [("OK", 0), ("OK", 0)]
    assert dicts.match is not None and dicts.match.board == guessing.board()
    assert [r.game for r in dicts.requests] == ["guessing", "guessing"]
    assert dicts.requests[0].options == [{"kind": "guess", "value": v} for v in range(1, 7)]
    last = dicts.requests[-1].view["history"]  # both answers were applied as sent: 6 and 1
    assert [guesses for _, *guesses in last] == [[6, 1]]
