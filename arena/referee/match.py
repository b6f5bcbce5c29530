"""Play one match with in-process bots and write its replay.

The loop asks the engine who decides, sends each deciding seat its view and options, checks
the answer, and applies it. An illegal answer is a strike (the engine's documented default
action is applied instead); at the strike limit, or when a bot raises, the seat forfeits.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.errors import ArenaError
from arena.games.classic.actions import Action, action_to_dict
from arena.games.classic.options import action_from_index
from arena.games.classic.rng import bot_seed
from arena.games.classic.rules import ClassicRules
from arena.games.classic.state import ClassicState
from arena.referee.statuses import SeatStatus
from arena.replay import ReplayWriter
from arena.sdk.bot import Bot, MatchInfo, Request

DEFAULT_STRIKE_LIMIT = 3


@dataclass(slots=True)
class SeatResult:
    """One seat's line in a match result."""

    seat: int
    bot: str
    version: str
    place: int = 0
    status: str = SeatStatus.OK.value
    strikes: int = 0
    think_ms: list[float] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "bot": self.bot,
            "version": self.version,
            "place": self.place,
            "status": self.status,
            "strikes": self.strikes,
        }


@dataclass(slots=True)
class MatchResult:
    """A finished match: places and statuses per seat, why it ended, where the replay is."""

    game: str
    seed: int
    rules: dict[str, Any]
    seats: list[SeatResult]
    winner: int | None
    turns: int
    rounds: int
    end: str
    decisions: int
    replay: str | None
    final: ClassicState

    def to_dict(self) -> dict[str, Any]:
        """The ``arena match --json`` object."""
        return {
            "game": self.game,
            "seed": self.seed,
            "rules": self.rules,
            "places": [s.to_dict() for s in self.seats],
            "winner": self.winner,
            "turns": self.turns,
            "rounds": self.rounds,
            "end": self.end,
            "decisions": self.decisions,
            "replay": self.replay,
        }


def play_match(
    rules: ClassicRules,
    bots: list[Bot],
    seed: int,
    names: list[tuple[str, str]] | None = None,
    replay_path: Path | None = None,
    strike_limit: int = DEFAULT_STRIKE_LIMIT,
) -> MatchResult:
    """Play a whole match; ``names`` gives each seat's (bot name, version) for the record."""
    if len(bots) != rules.n:
        raise ArenaError(f"{rules.n} players need {rules.n} bots, got {len(bots)}")
    names = names or [(b.name, b.version) for b in bots]
    seats = [SeatResult(i, n, v) for i, (n, v) in enumerate(names)]
    state = rules.new_game(seed, [b.always_max_defence for b in bots])
    writer = None
    if replay_path is not None:
        writer = ReplayWriter(
            replay_path,
            {
                "game": "classic",
                "seed": seed,
                "rules": rules.config.to_dict(),
                "seats": [{"seat": s.seat, "bot": s.bot, "version": s.version} for s in seats],
                "always_max": list(state.always_max),
            },
        )
    board = rules.board.to_dict()
    decisions = 0

    def record(entry: dict[str, Any]) -> None:
        if writer is not None:
            writer.write(entry)

    def forfeit(seat: int, status: SeatStatus) -> None:
        nonlocal state
        if state.phase.name == "OVER" or not state.alive(seat):
            return
        seats[seat].status = status.value
        step = rules.forfeit(state, seat)
        state = step.state
        record({"type": "forfeit", "seat": seat, "status": status.value, "events": step.events})

    try:
        for seat, bot in enumerate(bots):
            info = MatchInfo(
                "classic",
                rules.config.to_dict(),
                seat,
                rules.n,
                bot_seed(seed, seat),
                board,
                tuple(n for n, _ in names),
            )
            try:
                bot.start(info)
            except Exception:
                forfeit(seat, SeatStatus.CRASH)
        while (decision := rules.decision(state)) is not None:
            seat = decision.seats[0]
            options = rules.legal_options(state, seat)
            request = Request.make(seat, rules.view(state, seat), options, request_id=decisions)
            started = time.perf_counter()
            try:
                answer = bots[seat].choose(request)
            except Exception:
                forfeit(seat, SeatStatus.CRASH)
                continue
            think = (time.perf_counter() - started) * 1000
            seats[seat].think_ms.append(think)
            action, reason = _to_action(rules, state, seat, answer, options)
            if reason is not None:
                seats[seat].strikes += 1
                record({"type": "rejected", "seat": seat, "answer": repr(answer), "reason": reason})
                if seats[seat].strikes >= strike_limit:
                    forfeit(seat, SeatStatus.ILLEGAL)
                    continue
                action = rules.default_action(state, seat)
            step = rules.apply(state, seat, action)
            state = step.state
            decisions += 1
            record(
                {
                    "type": "decision",
                    "seat": seat,
                    "kind": decision.kind,
                    "action": action_to_dict(action),
                    "think_ms": round(think, 3),
                    "events": step.events,
                }
            )
        outcome = rules.outcome(state)
        assert outcome is not None
        for s in seats:
            s.place = outcome.places[s.seat]
        record(
            {
                "type": "result",
                "places_by_seat": list(outcome.places),
                "winner": outcome.winner,
                "end": outcome.termination,
                "turns": state.turns,
                "rounds": state.round,
                "statuses": [s.status for s in seats],
                "strikes": [s.strikes for s in seats],
            }
        )
    finally:
        if writer is not None:
            writer.close()
    for seat, bot in enumerate(bots):
        # The result is final: a bot failing in its own clean-up changes nothing.
        with contextlib.suppress(Exception):
            bot.finish({"places": list(outcome.places), "end": outcome.termination, "seat": seat})
    return MatchResult(
        game="classic",
        seed=seed,
        rules=rules.config.to_dict(),
        seats=seats,
        winner=outcome.winner,
        turns=state.turns,
        rounds=state.round,
        end=outcome.termination,
        decisions=decisions,
        replay=str(replay_path) if replay_path else None,
        final=state,
    )


def _to_action(
    rules: ClassicRules, state: ClassicState, seat: int, answer: object, options: Any
) -> tuple[Action, str | None]:
    """Turn a bot's answer into a checked action, or give the reason it is rejected."""
    try:
        if isinstance(answer, int) and not isinstance(answer, bool):
            action = action_from_index(options, answer)
        else:
            action = answer  # type: ignore[assignment]
        rules.check(state, seat, action)
    except ArenaError as exc:
        return answer, str(exc)  # type: ignore[return-value]
    except (KeyError, TypeError, AttributeError) as exc:
        return answer, f"malformed answer {answer!r}: {exc}"  # type: ignore[return-value]
    return action, None
