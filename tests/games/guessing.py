"""A test-only game behind the contract: two seats guess a hidden die roll at the same time.

Each round the game rolls a die from its seed (nobody sees it); both seats guess 1-6 in
secret, simultaneously; the closer guess scores a point (equal distance: nobody). After
``rounds`` rounds the higher score wins (equal scores share first place). It exists to show
that nothing above the contract assumes classic RISK: it has a simultaneous decision, a
secret revealed by an event, a per-seat view, a forfeit and a rules option.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from arena.errors import ConfigError, IllegalActionError, MalformedActionError
from arena.games.api import Decision, Event, GameInfo, GameType, Outcome, Position, RuleOption, Step

INFO = GameInfo(
    name="guessing",
    title="guess the hidden die (a test game)",
    min_players=2,
    max_players=2,
    options=(RuleOption("rounds", "3", (), "rounds to play (a positive integer)"),),
)


@dataclass(frozen=True, slots=True)
class Guess:
    value: int


@dataclass(slots=True)
class State:
    seed: int
    rounds: int
    round: int = 1
    scores: list[int] = field(default_factory=lambda: [0, 0])
    history: list[tuple[int, int, int]] = field(default_factory=list)
    out: list[int] = field(default_factory=list)


def _roll(seed: int, round_: int) -> int:
    digest = hashlib.sha256(f"guessing:{seed}:{round_}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % 6 + 1


class GuessingGame:
    info = INFO

    def __init__(self, rounds: int) -> None:
        self.rounds = rounds
        self.players = 2

    def config(self) -> dict[str, Any]:
        return {"players": 2, "rounds": self.rounds}

    def rating_format(self) -> str:
        return f"2p/{self.rounds}r"

    def board(self) -> dict[str, Any]:
        return {"faces": [1, 2, 3, 4, 5, 6]}

    def new_game(self, seed: int, declarations: Sequence[Mapping[str, Any]] = ()) -> State:
        return State(seed, self.rounds)

    def copy(self, state: State) -> State:
        return replace(
            state, scores=list(state.scores), history=list(state.history), out=list(state.out)
        )

    def _over(self, state: State) -> bool:
        return bool(state.out) or state.round > state.rounds

    def decision(self, state: State) -> Decision | None:
        if self._over(state):
            return None
        return Decision("guess", (0, 1), simultaneous=True)

    def legal_options(self, state: State, seat: int) -> tuple[int, ...]:
        return (1, 2, 3, 4, 5, 6)

    def choices(self, options: tuple[int, ...]) -> list[Guess]:
        return [Guess(v) for v in options]

    def check(self, state: State, seat: int, action: Guess) -> None:
        if self._over(state):
            raise IllegalActionError("the game is over")
        if seat not in (0, 1):
            raise IllegalActionError(f"no seat {seat}")
        if not isinstance(action, Guess) or action.value not in range(1, 7):
            raise IllegalActionError(f"a guess is 1-6, got {action!r}")

    def apply(self, state: State, seat: int, action: Guess) -> Step[State]:
        raise IllegalActionError("both seats guess together: use apply_joint")

    def apply_joint(self, state: State, actions: Mapping[int, Guess]) -> Step[State]:
        if sorted(actions) != [0, 1]:
            raise IllegalActionError(f"both seats must guess, got seats {sorted(actions)}")
        for seat in (0, 1):
            self.check(state, seat, actions[seat])
        after = self.copy(state)
        return Step(after, self._reveal(after, actions[0].value, actions[1].value))

    def apply_unchecked(self, state: State, seat: int, action: Guess) -> list[Event]:
        raise IllegalActionError("both seats guess together: use apply_joint")

    def _reveal(self, state: State, a: int, b: int) -> list[Event]:
        die = _roll(state.seed, state.round)
        if abs(a - die) != abs(b - die):
            state.scores[0 if abs(a - die) < abs(b - die) else 1] += 1
        state.history.append((die, a, b))
        state.round += 1
        return [{"type": "revealed", "die": die, "guesses": [a, b], "scores": list(state.scores)}]

    def default_action(self, state: State, seat: int) -> Guess:
        return Guess(3)

    def forfeit(self, state: State, seat: int) -> Step[State]:
        after = self.copy(state)
        after.out.append(seat)
        return Step(after, [{"type": "forfeited", "seat": seat}])

    def view(self, state: State, seat: int) -> dict[str, Any]:
        return {
            "round": state.round,
            "scores": list(state.scores),
            "history": [list(h) for h in state.history],
        }

    def redact(self, event: Event, seat: int) -> Event:
        return event  # the die is secret only until the guesses are in: revealed together

    def progress(self, state: State) -> dict[str, int]:
        return {"rounds": len(state.history)}

    def standings(self, state: State) -> list[dict[str, int]]:
        return [{"score": score} for score in state.scores]

    def outcome(self, state: State) -> Outcome | None:
        if not self._over(state):
            return None
        if state.out:
            loser = state.out[0]
            places = (2, 1) if loser == 0 else (1, 2)
            return Outcome(places, 1 - loser, "forfeit")
        a, b = state.scores
        places = (1, 1) if a == b else ((1, 2) if a > b else (2, 1))
        winner = None if a == b else (0 if a > b else 1)
        return Outcome(places, winner, "rounds")

    def out_order(self, state: State) -> tuple[int, ...]:
        return tuple(state.out)

    def action_to_dict(self, action: Guess) -> dict[str, Any]:
        return {"kind": "guess", "value": action.value}

    def action_from_dict(self, data: Mapping[str, Any]) -> Guess:
        if data.get("kind") != "guess" or not isinstance(data.get("value"), int):
            raise MalformedActionError(
                f"a guess is {{'kind': 'guess', 'value': 1-6}}, got {dict(data)!r}"
            )
        return Guess(data["value"])


class GuessingType:
    info = INFO

    def configure(self, options: Mapping[str, str], players: int) -> GuessingGame:
        if players != 2:
            raise ConfigError(f"guessing takes 2 players, got {players}")
        unknown = set(options) - {"rounds"}
        if unknown:
            raise ConfigError(f"unknown rules key {sorted(unknown)[0]!r}; valid keys: rounds")
        raw = options.get("rounds", "3")
        if not raw.isdigit() or int(raw) < 1:
            raise ConfigError(f"rounds must be a positive integer, got {raw!r}")
        return GuessingGame(int(raw))

    def from_config(self, config: Mapping[str, Any]) -> GuessingGame:
        return self.configure({"rounds": str(config["rounds"])}, int(config["players"]))

    def positions(self, seed: int = 1) -> list[Position]:
        game = self.configure({}, 2)
        return [Position("guess", game, game.new_game(seed), 0, seed)]


GAME: GameType = GuessingType()
