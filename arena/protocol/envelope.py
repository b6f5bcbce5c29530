"""The envelope of the bot protocol, the same for every game: handshake, match start and
end, decision requests, answers, events and statuses.

What is a game's own (board, view, options, actions, declarations) goes through its mapping
(:func:`arena.protocol.codec_for`). Referee-side functions take the configured
:class:`~arena.games.api.Game`; bot-side ones only its name and return plain data the SDK
builds its objects from (the protocol imports nothing from the SDK).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from arena.errors import ArenaError, MalformedActionError
from arena.games import DEFAULT_GAME
from arena.games.api import Game
from arena.protocol import codec_for
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb

PROTOCOL_VERSION = 1
DEFAULT_GAMES = (DEFAULT_GAME,)
"""The games of a bot whose Hello lists none (every bot written before games were declared)."""

# -------------------------------------------------------------- handshake


def hello_to_pb(
    *,
    token: str,
    name: str,
    version: str,
    games: Sequence[str],
    declarations: Mapping[str, Mapping[str, Any]],
    skip_accepted_results: bool = False,
) -> pb.Hello:
    """A bot's Hello: the games it plays (none listed: not checked, as for every bot of
    before games were declared), per game what it declares, and whether it can do without
    an ActionResult after an accepted answer (a v1 bot does not say so: it gets them all)."""
    hello = pb.Hello(
        token=token,
        bot_name=name,
        bot_version=version,
        protocol_version=PROTOCOL_VERSION,
        games=list(games),
        skip_accepted_results=skip_accepted_results,
    )
    for game, declared in declarations.items():
        codec_for(game).put_declarations(hello, declared)
    return hello


def declarations_from_hello(game: str, hello: pb.Hello) -> dict[str, Any]:
    """What a bot declared in its Hello for ``game``."""
    return codec_for(game).declarations_from_hello(hello)


# ----------------------------------------------------------------- answers


def answer_to_pb(game: str, request_id: int, answer: Any) -> pb.Action:
    """A bot's answer (an option index or one of the game's actions) as the wire Action."""
    if isinstance(answer, bool):  # an int to Python, but neither an index nor an action
        raise MalformedActionError(f"not an action: {answer!r}")
    if isinstance(answer, int):
        if answer < 0:
            raise MalformedActionError(f"option index must be ≥ 0, got {answer}")
        return pb.Action(request_id=request_id, option_index=answer)
    message = pb.Action(request_id=request_id)
    codec_for(game).put_action(message, answer)
    return message


def local_answer(game: Game[Any, Any, Any], answer: Any) -> Any:
    """An in-process bot's answer as the referee gets it from the wire — an option index or
    the game's action — without protobuf where the game's mapping can hand it over as it is
    (:meth:`GameCodec.direct_answer`), else through the wire's own conversion, so the errors
    are the wire's word for word (a :class:`MalformedActionError`)."""
    if type(answer) is int and answer >= 0:
        return answer
    name = game.info.name
    direct = None if isinstance(answer, int) else codec_for(name).direct_answer(game, answer)
    if direct is not None:
        return direct
    try:
        message = answer_to_pb(name, 0, answer)
    except (ArenaError, TypeError, ValueError, AttributeError) as exc:
        raise MalformedActionError(f"malformed answer {answer!r}: {exc}") from None
    return answer_from_pb(game, pb.Action.FromString(message.SerializeToString()))


def local_request_fields(
    game: Game[Any, Any, Any],
    *,
    seat: int,
    request_id: int,
    kind: str,
    view: dict[str, Any],
    options: Any,
    listed: list[Any],
    deadline_ms: int,
    time_bank_ms: int,
    events: list[dict[str, Any]],
) -> dict[str, Any]:
    """The fields :func:`request_fields` gives for the request :func:`request_to_pb` would
    send, built without protobuf for an in-process seat (``listed`` is the game's
    ``choices(options)``)."""
    name = game.info.name
    decoded = codec_for(name).local_request(game, seat, view, options, listed)
    return _request_fields(name, kind, decoded, request_id, deadline_ms, time_bank_ms, events)


def _request_fields(
    game: str,
    kind: str,
    decoded: tuple[int, dict[str, Any], Any, list[Any]],
    request_id: int,
    deadline_ms: int,
    time_bank_ms: int,
    events: list[dict[str, Any]],
) -> dict[str, Any]:
    """The fields of :class:`arena.sdk.Request`, whichever way the request came."""
    asked, view, options, choices = decoded
    return {
        "kind": kind,
        "seat": asked,
        "view": view,
        "options": options,
        "choices": choices,
        "request_id": request_id,
        "deadline_ms": deadline_ms,
        "time_bank_ms": time_bank_ms,
        "events": events,
        "game": game,
    }


def answer_from_pb(game: Game[Any, Any, Any], message: pb.Action) -> Any:
    """The wire Action as an option index or the game's action
    (:class:`MalformedActionError` when it carries neither)."""
    which = message.WhichOneof("answer")
    if which == "option_index":
        return message.option_index
    if which is None:
        raise MalformedActionError("an Action needs option_index or the game's action")
    return codec_for(game.info.name).action_from_pb(message, game)


# ----------------------------------------------------------------- events


_compact_json = json.JSONEncoder(separators=(",", ":")).encode
"""``json.dumps(value, separators=(",", ":"))`` without building an encoder per call."""


def events_to_pb(events: list[dict[str, Any]]) -> list[pb.Event]:
    """Events (already redacted for the receiving seat) as messages."""
    return [pb.Event(type=e["type"], json=_compact_json(e)) for e in events]


def events_from_pb(messages: Any) -> list[dict[str, Any]]:
    """Back to event dicts."""
    return [json.loads(m.json) for m in messages]


def rules_to_wire(rules: dict[str, Any]) -> dict[str, str]:
    """Rules options as the string map of MatchStart (booleans as true/false)."""
    return {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in rules.items()}


def match_start_to_pb(
    game: Game[Any, Any, Any],
    *,
    match_id: str,
    seat: int,
    names: list[str],
    bot_seed: int,
    move_time_ms: int,
    time_bank_ms: int,
) -> pb.MatchStart:
    """The MatchStart one seat receives."""
    message = pb.MatchStart(
        match_id=match_id,
        game=game.info.name,
        rules=rules_to_wire(game.config()),
        seat=seat,
        players=len(names),
        player_names=names,
        bot_seed=bot_seed,
        move_time_ms=move_time_ms,
        time_bank_ms=time_bank_ms,
    )
    codec_for(game.info.name).put_board(message, game.board())
    return message


def match_start_fields(message: pb.MatchStart) -> dict[str, Any]:
    """What a bot learns at match start, as the fields of :class:`arena.sdk.MatchInfo`."""
    game = message.game or DEFAULT_GAMES[0]
    return {
        "game": game,
        "rules": dict(message.rules),
        "seat": message.seat,
        "players": message.players,
        "bot_seed": message.bot_seed,
        "board": codec_for(game).board_from_pb(message),
        "names": tuple(message.player_names),
        "match_id": message.match_id,
        "move_time_ms": message.move_time_ms,
        "time_bank_ms": message.time_bank_ms,
    }


def request_to_pb(
    game: Game[Any, Any, Any],
    *,
    request_id: int,
    match_id: str,
    kind: str,
    view: dict[str, Any],
    options: Any,
    deadline_ms: int,
    time_bank_ms: int,
    server_time_ms: int,
    events: list[dict[str, Any]],
    listed: Sequence[Any] | None = None,
) -> pb.DecisionRequest:
    """A DecisionRequest for one seat (``view`` and ``events`` already that seat's own).

    ``option_count`` is the length of the game's own choices (``listed``, when the caller
    has them already), whatever the game: a bot that answers by index needs nothing else,
    and no copy of a game's enumeration."""
    message = pb.DecisionRequest(
        request_id=request_id,
        match_id=match_id,
        kind=kind,
        deadline_ms=deadline_ms,
        time_bank_ms=time_bank_ms,
        server_time_ms=server_time_ms,
        events=events_to_pb(events),
        option_count=len(game.choices(options) if listed is None else listed),
    )
    codec_for(game.info.name).put_request(message, game, view, options)
    return message


def request_fields(message: pb.DecisionRequest, game: str, seat: int) -> dict[str, Any]:
    """A request as the fields of :class:`arena.sdk.Request` (``game`` and ``seat`` from the
    MatchStart it belongs to: a DecisionRequest does not repeat them)."""
    game = game or DEFAULT_GAMES[0]
    return _request_fields(
        game,
        message.kind,
        codec_for(game).request_from_pb(message, seat),
        message.request_id,
        message.deadline_ms,
        message.time_bank_ms,
        events_from_pb(message.events),
    )


_STATUS = {
    "OK": pb.SEAT_STATUS_OK,
    "TIMEOUT": pb.SEAT_STATUS_TIMEOUT,
    "ILLEGAL": pb.SEAT_STATUS_ILLEGAL,
    "CRASH": pb.SEAT_STATUS_CRASH,
    "DISCONNECT": pb.SEAT_STATUS_DISCONNECT,
    "INIT_FAIL": pb.SEAT_STATUS_INIT_FAIL,
    "PROTOCOL": pb.SEAT_STATUS_PROTOCOL,
}
_STATUS_NAME = {v: k for k, v in _STATUS.items()}
UNKNOWN_STATUS = "UNKNOWN"
"""How :func:`match_end_to_dict` spells a status it does not know (``SEAT_STATUS_UNSPECIFIED``
or one a newer referee added): never ``OK``, so a bot cannot take a forfeit for a clean end."""


def match_end_to_pb(
    match_id: str, seats: list[dict[str, Any]], end: str, winner: int | None
) -> pb.MatchEnd:
    """MatchEnd from the seats' result dicts (seat, bot, place, status, strikes)."""
    return pb.MatchEnd(
        match_id=match_id,
        seats=[
            pb.SeatResult(
                seat=s["seat"],
                bot=s["bot"],
                place=s["place"],
                status=_STATUS[s["status"]],
                strikes=s["strikes"],
            )
            for s in seats
        ],
        end_reason=end,
        winner=-1 if winner is None else winner,
    )


def match_end_to_dict(msg: pb.MatchEnd) -> dict[str, Any]:
    """What :meth:`arena.sdk.Bot.finish` receives (an unknown status is ``"UNKNOWN"``)."""
    return {
        "match_id": msg.match_id,
        "places": [s.place for s in msg.seats],
        "seats": [
            {
                "seat": s.seat,
                "bot": s.bot,
                "place": s.place,
                "status": _STATUS_NAME.get(s.status, UNKNOWN_STATUS),
                "strikes": s.strikes,
            }
            for s in msg.seats
        ],
        "end": msg.end_reason,
        "winner": None if msg.winner < 0 else msg.winner,
    }
