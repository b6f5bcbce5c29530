"""Who must decide now: the pending decision of a state, and the check that a seat may
answer it (the first thing both the options and the checks ask)."""

from __future__ import annotations

from arena.errors import IllegalActionError
from arena.games.api import Decision
from arena.games.classic.rules.setting import Setting
from arena.games.classic.state import NEUTRAL, PHASE_KINDS, ClassicState, Phase

TURN_SEAT_DECIDES: tuple[bool, ...] = tuple(
    phase not in (Phase.HEADQUARTERS, Phase.DEFEND, Phase.OVER) for phase in Phase
)
"""Per phase: whether the seat to move (``state.seat``) is the one seat deciding."""


def decision(rules: Setting, state: ClassicState) -> Decision | None:
    """Who must decide now and the decision kind, or None once the game is over.

    Capital RISK's headquarters choice is simultaneous: every seat still to choose answers
    in secret, and the choices are revealed once the last seat has chosen.
    """
    phase = state.phase
    if phase == Phase.OVER:
        return None
    if phase == Phase.HEADQUARTERS:
        seats = tuple(s for s in range(state.n) if state.hq_pending[s] < 0)
        return Decision("headquarters", seats, True)
    seat = defender_seat(state) if phase == Phase.DEFEND else state.seat
    found = rules.single_decisions.get((phase, seat))
    if found is None:
        found = rules.single_decisions[(phase, seat)] = Decision(PHASE_KINDS[phase], (seat,))
    return found


def defender_seat(state: ClassicState) -> int:
    """The seat that rolls the defence of the attack in progress."""
    assert state.attack is not None
    holder = state.owner[state.attack[1]]
    if holder == NEUTRAL:
        # The neutral army's defence is rolled by the attacker's opponent.
        return 1 - state.seat
    return holder


def require_turn(rules: Setting, state: ClassicState, seat: int) -> str:
    """The kind of the decision ``seat`` must make now (else a precise error)."""
    phase = state.phase
    if seat == state.seat and TURN_SEAT_DECIDES[phase]:
        return PHASE_KINDS[phase]
    pending = decision(rules, state)
    if pending is None:
        raise IllegalActionError("the game is over; no more actions are accepted")
    if seat not in pending.seats:
        who = ", ".join(map(str, pending.seats))
        raise IllegalActionError(
            f"seat {seat} is not to decide now: waiting for {pending.kind} from seat {who}"
        )
    return pending.kind
