"""Any game on the wire without a mapping of its own: its board, views, options and actions
as JSON in the envelope's ``*_json`` fields (see :mod:`arena.protocol.api`).

Built on the game contract alone (:mod:`arena.games.api`), so a newly registered game can
be played over gRPC before it has a proto package: the board and views are the game's plain
JSON, the options are the enumerated choices as :meth:`~arena.games.api.Game.action_to_dict`
objects (a bot answers with an index into them or with such an object), the same objects
replays hold. :func:`arena.protocol.codec_for` falls back to it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from arena.errors import MalformedActionError
from arena.games.api import Game
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.protocol.api import GameCodec


def _dumps(value: Any) -> str:
    """Compact, strict JSON (no NaN or Infinity: other languages' parsers refuse them)."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


def _loads(text: str, what: str) -> Any:
    """``text`` parsed; a one-line :class:`MalformedActionError` naming ``what`` otherwise."""
    try:
        return json.loads(text)
    except ValueError as e:  # json.JSONDecodeError, and UnicodeDecodeError of bad bytes
        raise MalformedActionError(f"{what} is not valid JSON: {e}") from None


class JsonCodec:
    """A game's fields of the envelope as JSON: ``MatchStart.board_json``,
    ``DecisionRequest.view_json`` and ``.options_json``, ``Action.action_json``; a bot
    declares nothing for such a game in its Hello."""

    # ---------------------------------------------------------------- referee side

    def put_board(self, message: pb.MatchStart, board: dict[str, Any]) -> None:
        message.board_json = _dumps(board)

    def put_request(
        self,
        message: pb.DecisionRequest,
        game: Game[Any, Any, Any],
        view: dict[str, Any],
        options: Any,
    ) -> None:
        message.view_json = _dumps(view)
        message.options_json = _dumps([game.action_to_dict(a) for a in game.choices(options)])

    def action_from_pb(self, message: pb.Action, game: Game[Any, Any, Any]) -> Any:
        if message.WhichOneof("answer") != "action_json":
            raise MalformedActionError(
                f"a {game.info.name} Action needs option_index or action_json (a JSON object)"
            )
        data = _loads(message.action_json, "action_json")
        if not isinstance(data, dict):
            raise MalformedActionError(
                f"action_json must be a JSON object, got {type(data).__name__}: "
                f"{message.action_json[:80]}"
            )
        return game.action_from_dict(data)

    def declarations_from_hello(self, hello: pb.Hello) -> dict[str, Any]:
        return {}

    # -------------------------------------------------------------------- bot side

    def board_from_pb(self, message: pb.MatchStart) -> dict[str, Any]:
        board: dict[str, Any] = json.loads(message.board_json or "{}")
        return board

    def request_from_pb(
        self, message: pb.DecisionRequest, seat: int
    ) -> tuple[int, dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
        view: dict[str, Any] = json.loads(message.view_json or "{}")
        options: list[dict[str, Any]] = json.loads(message.options_json or "[]")
        return seat, view, options, list(options)

    def put_action(self, message: pb.Action, action: Any) -> None:
        if not isinstance(action, dict):
            raise MalformedActionError(
                f"an action of this game is a dict (a JSON object) or an option index, "
                f"got {type(action).__name__}: {action!r:.80}"
            )
        try:
            message.action_json = _dumps(action)
        except (TypeError, ValueError) as e:
            raise MalformedActionError(f"the action is not plain JSON: {e}") from None

    def put_declarations(self, hello: pb.Hello, declarations: Mapping[str, Any]) -> None:
        pass  # no handshake fields: a game that takes declarations needs a mapping of its own

    def local_request(
        self,
        game: Game[Any, Any, Any],
        seat: int,
        view: dict[str, Any],
        options: Any,
        listed: list[Any],
    ) -> tuple[int, dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
        # Through JSON, as on the wire: the bot gets plain JSON objects of its own.
        dicts: list[dict[str, Any]] = json.loads(_dumps([game.action_to_dict(a) for a in listed]))
        return seat, json.loads(_dumps(view)), dicts, list(dicts)

    def direct_answer(self, game: Game[Any, Any, Any], answer: Any) -> Any:
        return None  # a dict may hold anything: through JSON, as on the wire


CODEC: GameCodec = JsonCodec()
