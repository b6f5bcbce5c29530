"""The bundled bots an environment plays against, in its own process, asked as the
referee's in-process seat asks them: the same :class:`arena.sdk.MatchInfo` at the start, the
same :class:`arena.sdk.Request` for each decision (with the events since the seat's last
one, as that seat may see them), and the same reading of the answer. An answer the game
refuses, or a bot that raises, gets the game's default action for the seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.catalog import find_bot, load_bot
from arena.envs.table import Table
from arena.errors import ArenaError, ConfigError
from arena.games.api import Event, Game
from arena.protocol import envelope
from arena.referee.match import check_answer
from arena.referee.seats import read_answer
from arena.sdk import Request, wire
from arena.seeds import derive


class Opponent:
    """One bundled (or registered-folder) Python bot in one seat."""

    def __init__(self, name: str, game: Game[Any, Any, Any], seat: int) -> None:
        try:
            spec = find_bot(name)
        except ArenaError as exc:
            raise ConfigError(str(exc)) from None
        title = game.info.name
        if title not in spec.games:
            raise ConfigError(f"bot {spec.name!r} plays {', '.join(spec.games)}, not {title}")
        if spec.entry is None:
            raise ConfigError(f"bot {spec.name!r} has no in-process entry (its bot.toml)")
        self.bot = load_bot(spec)
        self.name = spec.name
        self.game = game
        self.seat = seat
        self.declarations = envelope.declarations_from_hello(title, wire.hello(self.bot))
        self.events: list[Event] = []
        self.asked = 0
        self.defaults = 0
        """Answers replaced by the default action (refused, or the bot raised) this match."""

    def start(self, seed: int, names: Sequence[str]) -> None:
        """A new match: the bot gets its MatchStart as an in-process seat gets it."""
        message = envelope.match_start_to_pb(
            self.game,
            match_id=f"env-{seed}",
            seat=self.seat,
            names=list(names),
            bot_seed=derive(seed, "bot", self.seat),
            move_time_ms=0,
            time_bank_ms=0,
        )
        self.events = []
        self.asked = self.defaults = 0
        self.bot.start(wire.match_info(message))

    def tell(self, events: list[Event]) -> None:
        """Events that happened, kept (as this seat may see them) for its next request."""
        if events:
            redact, seat = self.game.redact, self.seat
            self.events.extend(redact(e, seat) for e in events)

    def choose(self, table: Table) -> Any:
        """The bot's legal action for the decision due (its default if it has none)."""
        game, state, seat, kind = self.game, table.state, self.seat, table.kind
        options, listed = table.options(), list(table.listed())
        self.asked += 1
        fields = envelope.local_request_fields(
            game,
            seat=seat,
            request_id=self.asked,
            kind=kind,
            view=game.view(state, seat),
            options=options,
            listed=listed,
            deadline_ms=0,
            time_bank_ms=0,
            events=self.events,
        )
        self.events = []
        try:
            answer = self.bot.choose(Request(**fields))
        except Exception:  # a bot's failure is its seat's: the default answer stands in
            self.defaults += 1
            return game.default_action(state, seat)
        finally:
            self.bot.take_debug()
        reply = read_answer(game, envelope.local_answer, answer, 0.0, [])
        index = listed if isinstance(reply.answer, int) else None
        action, _, reason = check_answer(game, state, seat, kind, reply, options, index)
        if reason is not None:
            self.defaults += 1
            return game.default_action(state, seat)
        return action
