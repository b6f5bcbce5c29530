from arena.protocol._pb.riskarena.classic.v1 import classic_pb2 as _classic_pb2
from arena.protocol._pb.riskarena.europe.v1 import europe_pb2 as _europe_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SeatStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_STATUS_UNSPECIFIED: _ClassVar[SeatStatus]
    SEAT_STATUS_OK: _ClassVar[SeatStatus]
    SEAT_STATUS_TIMEOUT: _ClassVar[SeatStatus]
    SEAT_STATUS_ILLEGAL: _ClassVar[SeatStatus]
    SEAT_STATUS_CRASH: _ClassVar[SeatStatus]
    SEAT_STATUS_DISCONNECT: _ClassVar[SeatStatus]
    SEAT_STATUS_INIT_FAIL: _ClassVar[SeatStatus]
    SEAT_STATUS_PROTOCOL: _ClassVar[SeatStatus]
SEAT_STATUS_UNSPECIFIED: SeatStatus
SEAT_STATUS_OK: SeatStatus
SEAT_STATUS_TIMEOUT: SeatStatus
SEAT_STATUS_ILLEGAL: SeatStatus
SEAT_STATUS_CRASH: SeatStatus
SEAT_STATUS_DISCONNECT: SeatStatus
SEAT_STATUS_INIT_FAIL: SeatStatus
SEAT_STATUS_PROTOCOL: SeatStatus

class BotMessage(_message.Message):
    __slots__ = ("hello", "action", "debug")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    DEBUG_FIELD_NUMBER: _ClassVar[int]
    hello: Hello
    action: Action
    debug: DebugText
    def __init__(self, hello: _Optional[_Union[Hello, _Mapping]] = ..., action: _Optional[_Union[Action, _Mapping]] = ..., debug: _Optional[_Union[DebugText, _Mapping]] = ...) -> None: ...

class RefereeMessage(_message.Message):
    __slots__ = ("welcome", "match_start", "decision", "action_result", "match_end")
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    MATCH_START_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    ACTION_RESULT_FIELD_NUMBER: _ClassVar[int]
    MATCH_END_FIELD_NUMBER: _ClassVar[int]
    welcome: Welcome
    match_start: MatchStart
    decision: DecisionRequest
    action_result: ActionResult
    match_end: MatchEnd
    def __init__(self, welcome: _Optional[_Union[Welcome, _Mapping]] = ..., match_start: _Optional[_Union[MatchStart, _Mapping]] = ..., decision: _Optional[_Union[DecisionRequest, _Mapping]] = ..., action_result: _Optional[_Union[ActionResult, _Mapping]] = ..., match_end: _Optional[_Union[MatchEnd, _Mapping]] = ...) -> None: ...

class Hello(_message.Message):
    __slots__ = ("token", "bot_name", "bot_version", "protocol_version", "always_max_defence", "games", "classic", "skip_accepted_results", "europe")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_VERSION_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    ALWAYS_MAX_DEFENCE_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    CLASSIC_FIELD_NUMBER: _ClassVar[int]
    SKIP_ACCEPTED_RESULTS_FIELD_NUMBER: _ClassVar[int]
    EUROPE_FIELD_NUMBER: _ClassVar[int]
    token: str
    bot_name: str
    bot_version: str
    protocol_version: int
    always_max_defence: bool
    games: _containers.RepeatedScalarFieldContainer[str]
    classic: _classic_pb2.ClassicHello
    skip_accepted_results: bool
    europe: _europe_pb2.EuropeHello
    def __init__(self, token: _Optional[str] = ..., bot_name: _Optional[str] = ..., bot_version: _Optional[str] = ..., protocol_version: _Optional[int] = ..., always_max_defence: _Optional[bool] = ..., games: _Optional[_Iterable[str]] = ..., classic: _Optional[_Union[_classic_pb2.ClassicHello, _Mapping]] = ..., skip_accepted_results: _Optional[bool] = ..., europe: _Optional[_Union[_europe_pb2.EuropeHello, _Mapping]] = ...) -> None: ...

class Welcome(_message.Message):
    __slots__ = ("protocol_version", "referee_version")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    REFEREE_VERSION_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    referee_version: str
    def __init__(self, protocol_version: _Optional[int] = ..., referee_version: _Optional[str] = ...) -> None: ...

class MatchStart(_message.Message):
    __slots__ = ("match_id", "game", "rules", "seat", "players", "player_names", "bot_seed", "board", "board_json", "europe_board", "move_time_ms", "time_bank_ms")
    class RulesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAMES_FIELD_NUMBER: _ClassVar[int]
    BOT_SEED_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    BOARD_JSON_FIELD_NUMBER: _ClassVar[int]
    EUROPE_BOARD_FIELD_NUMBER: _ClassVar[int]
    MOVE_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    rules: _containers.ScalarMap[str, str]
    seat: int
    players: int
    player_names: _containers.RepeatedScalarFieldContainer[str]
    bot_seed: int
    board: _classic_pb2.Board
    board_json: str
    europe_board: _europe_pb2.Board
    move_time_ms: int
    time_bank_ms: int
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., rules: _Optional[_Mapping[str, str]] = ..., seat: _Optional[int] = ..., players: _Optional[int] = ..., player_names: _Optional[_Iterable[str]] = ..., bot_seed: _Optional[int] = ..., board: _Optional[_Union[_classic_pb2.Board, _Mapping]] = ..., board_json: _Optional[str] = ..., europe_board: _Optional[_Union[_europe_pb2.Board, _Mapping]] = ..., move_time_ms: _Optional[int] = ..., time_bank_ms: _Optional[int] = ...) -> None: ...

class DecisionRequest(_message.Message):
    __slots__ = ("request_id", "match_id", "kind", "view", "view_json", "europe_view", "options", "options_json", "europe_options", "deadline_ms", "time_bank_ms", "server_time_ms", "events", "option_count")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    EUROPE_VIEW_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    EUROPE_OPTIONS_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    SERVER_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    OPTION_COUNT_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    match_id: str
    kind: str
    view: _classic_pb2.ClassicView
    view_json: str
    europe_view: _europe_pb2.EuropeView
    options: _classic_pb2.ClassicOptions
    options_json: str
    europe_options: _europe_pb2.EuropeOptions
    deadline_ms: int
    time_bank_ms: int
    server_time_ms: int
    events: _containers.RepeatedCompositeFieldContainer[Event]
    option_count: int
    def __init__(self, request_id: _Optional[int] = ..., match_id: _Optional[str] = ..., kind: _Optional[str] = ..., view: _Optional[_Union[_classic_pb2.ClassicView, _Mapping]] = ..., view_json: _Optional[str] = ..., europe_view: _Optional[_Union[_europe_pb2.EuropeView, _Mapping]] = ..., options: _Optional[_Union[_classic_pb2.ClassicOptions, _Mapping]] = ..., options_json: _Optional[str] = ..., europe_options: _Optional[_Union[_europe_pb2.EuropeOptions, _Mapping]] = ..., deadline_ms: _Optional[int] = ..., time_bank_ms: _Optional[int] = ..., server_time_ms: _Optional[int] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., option_count: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("type", "json")
    TYPE_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    type: str
    json: str
    def __init__(self, type: _Optional[str] = ..., json: _Optional[str] = ...) -> None: ...

class Action(_message.Message):
    __slots__ = ("request_id", "option_index", "classic", "action_json", "europe")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    OPTION_INDEX_FIELD_NUMBER: _ClassVar[int]
    CLASSIC_FIELD_NUMBER: _ClassVar[int]
    ACTION_JSON_FIELD_NUMBER: _ClassVar[int]
    EUROPE_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    option_index: int
    classic: _classic_pb2.ClassicAction
    action_json: str
    europe: _europe_pb2.EuropeAction
    def __init__(self, request_id: _Optional[int] = ..., option_index: _Optional[int] = ..., classic: _Optional[_Union[_classic_pb2.ClassicAction, _Mapping]] = ..., action_json: _Optional[str] = ..., europe: _Optional[_Union[_europe_pb2.EuropeAction, _Mapping]] = ...) -> None: ...

class ActionResult(_message.Message):
    __slots__ = ("request_id", "accepted", "reason", "strikes")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    STRIKES_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    accepted: bool
    reason: str
    strikes: int
    def __init__(self, request_id: _Optional[int] = ..., accepted: _Optional[bool] = ..., reason: _Optional[str] = ..., strikes: _Optional[int] = ...) -> None: ...

class DebugText(_message.Message):
    __slots__ = ("text",)
    TEXT_FIELD_NUMBER: _ClassVar[int]
    text: str
    def __init__(self, text: _Optional[str] = ...) -> None: ...

class SeatResult(_message.Message):
    __slots__ = ("seat", "bot", "place", "status", "strikes")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    STRIKES_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bot: str
    place: int
    status: SeatStatus
    strikes: int
    def __init__(self, seat: _Optional[int] = ..., bot: _Optional[str] = ..., place: _Optional[int] = ..., status: _Optional[_Union[SeatStatus, str]] = ..., strikes: _Optional[int] = ...) -> None: ...

class MatchEnd(_message.Message):
    __slots__ = ("match_id", "seats", "end_reason", "winner")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    END_REASON_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatResult]
    end_reason: str
    winner: int
    def __init__(self, match_id: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatResult, _Mapping]]] = ..., end_reason: _Optional[str] = ..., winner: _Optional[int] = ...) -> None: ...
