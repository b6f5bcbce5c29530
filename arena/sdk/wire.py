"""The SDK's side of the envelope: a :class:`Bot`'s Hello, and the SDK objects a bot is
handed, built from what :mod:`arena.protocol.envelope` decodes. Shared by the gRPC client
and the referee's in-process seat, so both give a bot exactly the same objects."""

from __future__ import annotations

from arena import games
from arena.protocol import envelope
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.sdk.bot import Bot, MatchInfo, Request


def hello(bot: Bot, token: str = "", skip_accepted_results: bool = False) -> pb.Hello:
    """The Hello a bot sends: its name, version, games and what it declares for each (the
    gRPC client also says it needs no ActionResult for an accepted answer)."""
    declaring = bot.games or games.names()
    return envelope.hello_to_pb(
        token=token,
        name=bot.name,
        version=bot.version,
        games=bot.games,
        declarations={game: bot.declarations(game) for game in declaring},
        skip_accepted_results=skip_accepted_results,
    )


def match_info(message: pb.MatchStart) -> MatchInfo:
    """What :meth:`Bot.start` receives."""
    return MatchInfo(**envelope.match_start_fields(message))


def request(message: pb.DecisionRequest, match: MatchInfo | None) -> Request:
    """What :meth:`Bot.choose` receives (the game and seat are the match's)."""
    game, seat = (match.game, match.seat) if match is not None else ("", 0)
    return Request(**envelope.request_fields(message, game, seat))
