"""What a game's wire mapping provides: how its board, views, options, actions and
handshake declarations travel in the envelope's ``oneof`` fields.

The envelope (:mod:`arena.protocol.envelope`) is the same for every game; each game has one
mapping module (``arena/protocol/<game>.py``) whose ``CODEC`` follows :class:`GameCodec`,
registered by game name in :mod:`arena.protocol`. The referee side is given the configured
:class:`~arena.games.api.Game`; the bot side knows only the game's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from arena.games.api import Game
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb


class GameCodec(Protocol):
    """One game's messages in the envelope, both directions (a round trip gives back equal
    values, so an in-process bot sees exactly what a remote bot sees)."""

    # ---------------------------------------------------------------- referee side

    def put_board(self, message: pb.MatchStart, board: dict[str, Any]) -> None:
        """Set the game's board field of ``message`` from :meth:`Game.board` output."""
        ...

    def put_request(
        self,
        message: pb.DecisionRequest,
        game: Game[Any, Any, Any],
        view: dict[str, Any],
        options: Any,
    ) -> None:
        """Set the game's view and options fields of ``message``."""
        ...

    def action_from_pb(self, message: pb.Action, game: Game[Any, Any, Any]) -> Any:
        """The game's action from ``message`` (whose answer is not an option index);
        :class:`~arena.errors.MalformedActionError` when it carries none of this game's."""
        ...

    def declarations_from_hello(self, hello: pb.Hello) -> dict[str, Any]:
        """What the bot declared for this game in its Hello (keys of
        :attr:`GameInfo.declarations`)."""
        ...

    # -------------------------------------------------------------------- bot side

    def board_from_pb(self, message: pb.MatchStart) -> dict[str, Any]:
        """The board as the bot receives it."""
        ...

    def request_from_pb(
        self, message: pb.DecisionRequest, seat: int
    ) -> tuple[int, dict[str, Any], Any, list[Any]]:
        """The request's seat, view, options and enumerated choices (``seat`` is the
        MatchStart's, for games whose options do not repeat it)."""
        ...

    def put_action(self, message: pb.Action, action: Any) -> None:
        """Set the game's answer field of ``message`` from a bot's action object;
        :class:`~arena.errors.MalformedActionError` if it is not one."""
        ...

    def put_declarations(self, hello: pb.Hello, declarations: Mapping[str, Any]) -> None:
        """Set this game's declarations in a Hello."""
        ...

    # ------------------------------------------- in-process seats (no protobuf at all)

    def local_request(
        self,
        game: Game[Any, Any, Any],
        seat: int,
        view: dict[str, Any],
        options: Any,
        listed: list[Any],
    ) -> tuple[int, dict[str, Any], Any, list[Any]]:
        """What :meth:`request_from_pb` gives a bot for this request, built directly
        (``listed`` is ``game.choices(options)``; the bot gets a list of its own)."""
        ...

    def direct_answer(self, game: Game[Any, Any, Any], answer: Any) -> Any:
        """A bot's answer object as the game's action when it can be handed over as it is
        (exactly what :meth:`put_action` then :meth:`action_from_pb` would give back), else
        None: the answer then takes the wire's way, conversions and errors included."""
        ...
