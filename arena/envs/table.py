"""A game under way as the environments see it: one answer at a time.

The game asks one seat, or several at once for a simultaneous decision. Here every decision
is a sequence of single answers: the seats a simultaneous decision names answer in turn,
each on the position from before the decision (nothing one chose reaches the next), and the
answers are applied together with :meth:`Game.apply_joint` once the last is in. The table
also notes who went out, keeps the records the narrator tells, and builds observations.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from arena.envs.encoding import Encoder, Observation
from arena.errors import ArenaError, ConfigError
from arena.games.api import Decision, Event, Game, Outcome

ROUND_LIMIT = "round_limit"
"""The end reason of a game stopped at its round cap (classic's and Europe's word): the
environments report it as a truncation, not a result."""

Mask = npt.NDArray[np.int8]


def configured(
    name: str, players: int, rules: Mapping[str, object] | None, max_rounds: int | None
) -> Game[Any, Any, Any]:
    """Game ``name`` for ``players`` seats under ``rules`` (values as ``--rules`` takes them;
    booleans as true/false), with ``max_rounds`` as its round cap when given."""
    from arena import games

    kind = games.load(name)
    options = {
        str(k): str(v).lower() if isinstance(v, bool) else str(v) for k, v in (rules or {}).items()
    }
    if max_rounds is not None:
        if not any(option.key == "max_rounds" for option in kind.info.options):
            raise ConfigError(f"game {name!r} has no max_rounds rule to cap the rounds with")
        if "max_rounds" in options and options["max_rounds"] != str(max_rounds):
            raise ConfigError("give the round cap once: max_rounds= or rules={'max_rounds': …}")
        options["max_rounds"] = str(max_rounds)
    return kind.configure(options, players)


class Table:
    """The position, whose answer is due, and what the environments derive from them."""

    def __init__(self, game: Game[Any, Any, Any], encoder: Encoder, names: list[str]) -> None:
        self.game = game
        self.encoder = encoder
        self.players = game.players
        self.max_actions = encoder.max_actions
        self.recording = False
        """Whether records are kept for the narrator (only when something renders)."""
        self.records: list[dict[str, Any]] = []
        self.names = names
        self.state: Any = None
        self.decision: Decision | None = None
        self.kind = ""
        """The kind of the current decision (of the last one once the game is over)."""
        self.answers: dict[int, Any] = {}
        """A simultaneous decision's answers so far, by seat."""
        self.seat = -1
        """The seat whose answer is due (-1 once the game is over)."""
        self._listed: Sequence[Any] | None = None
        self._options: Any = None
        self.out: tuple[int, ...] = ()
        """Seats out of the game, in the order they went."""
        self._masks: dict[int, Mask] = {}
        """The mask of each count of allowed actions, made once."""

    def reset(self, seed: int, declarations: Sequence[Mapping[str, Any]] = ()) -> None:
        self.state = self.game.new_game(seed, declarations)
        self.records = []
        self.out = ()
        self._advance()

    def _advance(self) -> None:
        """Read the next decision of the game (after a reset or an applied answer)."""
        self.decision = decision = self.game.decision(self.state)
        self.answers = {}
        self._listed = None
        if decision is None:
            self.seat = -1
            return
        self.kind = decision.kind
        self.seat = decision.seats[0]

    @property
    def over(self) -> bool:
        return self.decision is None

    def options(self) -> Any:
        """The legal options of the seat whose answer is due."""
        if self._listed is None:
            self._options = self.game.legal_options(self.state, self.seat)
            self._listed = self.game.choices(self._options)
        return self._options

    def listed(self) -> Sequence[Any]:
        """The due seat's choices, in the game's order (action ``i`` is ``listed()[i]``)."""
        if self._listed is None:
            self.options()
        assert self._listed is not None
        return self._listed

    def allowed(self) -> int:
        """How many of the due seat's choices the action space reaches."""
        return min(len(self.listed()), self.max_actions)

    def action(self, action: Any) -> tuple[Any, bool]:
        """The due seat's action for ``action``, an index of the action space, and whether
        the mask allowed it: an index the mask closes plays the seat's default action (as the
        arena does for an answer the game refuses); anything else is an error."""
        index: int | None
        try:
            index = None if isinstance(action, bool) else operator.index(action)
        except TypeError:
            index = None
        if index is None or not 0 <= index < self.max_actions:
            raise ArenaError(
                f"action {action!r} is outside the action space 0..{self.max_actions - 1}"
            )
        listed = self.listed()
        if index < len(listed):
            return listed[index], True
        return self.game.default_action(self.state, self.seat), False

    def mask(self, seat: int) -> Mask:
        """1 for each action the seat may take now (a copy: the caller may keep it)."""
        allowed = self.allowed() if seat == self.seat else 0
        mask = self._masks.get(allowed)
        if mask is None:
            mask = self._masks[allowed] = np.zeros(self.max_actions, dtype=np.int8)
            mask[:allowed] = 1
        return mask.copy()

    def encode(self, seat: int) -> Observation:
        """``seat``'s observation now: its own view of the position before the decision
        under way (a simultaneous decision's answers so far are not applied yet)."""
        return self.encoder.encode(self.game.view(self.state, seat), self.kind)

    def observe(self, seat: int) -> dict[str, Any]:
        return {"observation": self.encode(seat), "action_mask": self.mask(seat)}

    def play(self, action: Any) -> list[Event]:
        """The due seat answers ``action`` (legal: one of its choices, its default, or an
        answer checked already); returns the events, empty while a simultaneous decision
        still waits for other seats."""
        decision, seat = self.decision, self.seat
        assert decision is not None, "the game is over"
        if decision.simultaneous:
            self.answers[seat] = action
            if len(self.answers) < len(decision.seats):
                self.seat = decision.seats[len(self.answers)]
                self._listed = None
                return []
            step = self.game.apply_joint(self.state, self.answers)
            self.state = step.state
            events = step.events
            if self.recording:
                self._record_joint(decision, events)
        else:
            events = self.game.apply_unchecked(self.state, seat, action)
            if self.recording:
                self.records.append(
                    {
                        "type": "decision",
                        "seat": seat,
                        "kind": decision.kind,
                        "action": self.game.action_to_dict(action),
                        "request_id": None,
                        "think_ms": None,
                        "events": events,
                    }
                )
        self._advance()
        self.out = self.game.out_order(self.state)
        if self.recording and self.decision is None:
            self._record_result()
        return events

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    def _record_joint(self, decision: Decision, events: list[Event]) -> None:
        answers = [
            {
                "seat": s,
                "action": self.game.action_to_dict(self.answers[s]),
                "request_id": None,
                "think_ms": None,
            }
            for s in decision.seats
        ]
        self.records.append(
            {"type": "joint", "kind": decision.kind, "answers": answers, "events": events}
        )

    def _record_result(self) -> None:
        outcome = self.outcome()
        if outcome is None:
            return
        progress = self.game.progress(self.state)
        self.records.append(
            {
                "type": "result",
                "places_by_seat": list(outcome.places),
                "winner": outcome.winner,
                "end": outcome.end_reason,
                "progress": progress,
                "statuses": ["OK"] * self.players,
                "strikes": [0] * self.players,
            }
        )
