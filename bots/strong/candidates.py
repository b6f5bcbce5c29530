"""The few answers a search compares: reinforcements in one stack where attacks look best or
danger is worst (and a split), the likeliest attacks (and ending them), and occupations from
the fewest armies to all of them."""

from __future__ import annotations

from arena.games.classic.state import NEUTRAL
from arena.sdk import Action, Attack, EndAttack, Occupy, Place, Request
from arena.sdk.tactics import capture_odds

from .geometry import Geometry

MAX_CANDIDATES = 8
"""Candidate answers a search starts with."""
SURE_ODDS = 0.75
"""An attack this likely to capture rolls to the end in one decision."""


def reinforcements(g: Geometry, me: int, request: Request) -> list[Action]:
    """Every army in one stack where attacks look best or danger is worst, and a split."""
    options = request.options
    view = request.view
    count = options.armies
    allowed = list(options.territories)
    owner, armies = view["owner"], view["armies"]
    front = [t for t in allowed if any(owner[n] != me for n in g.neighbours[t])] or allowed

    def opportunity(t: int) -> float:
        weakest = min((armies[n] for n in g.neighbours[t] if owner[n] != me), default=99)
        return float(armies[t] - weakest + 0.5 * sum(1 for n in g.neighbours[t] if owner[n] != me))

    def danger(t: int) -> float:
        return float(
            sum(armies[n] for n in g.neighbours[t] if owner[n] >= 0 and owner[n] != me) - armies[t]
        )

    attackers = sorted(front, key=lambda t: (-opportunity(t), t))[:5]
    defenders = sorted(front, key=lambda t: (-danger(t), t))[:3]
    candidates: list[Action] = []
    for t in dict.fromkeys(attackers + defenders):
        candidates.append(Place(((t, count),)))
    if count >= 2 and attackers and defenders and attackers[0] != defenders[0]:
        half = count // 2
        pair = sorted(((attackers[0], count - half), (defenders[0], half)))
        candidates.append(Place(tuple(pair)))
    return candidates[: MAX_CANDIDATES + 1]


def attacks(g: Geometry, me: int, request: Request) -> list[Action]:
    """Ending the attacks, and the attacks with the best odds (a continent counts extra)."""
    view = request.view
    owner, armies = view["owner"], view["armies"]
    scored = []
    for source, target, dice in request.options.attacks:
        a, d = armies[source] - 1, armies[target]
        if dice < 3 and not (d == 1 and dice == 2):
            continue  # fewer dice lose more armies per capture
        c = g.continent_of[target]
        completes = all(owner[m] == me or m == target for m in g.members[c])
        score = (
            capture_odds(a, d)
            + (0.3 if completes else 0.0)
            - (0.1 if owner[target] == NEUTRAL else 0.0)
        )
        scored.append((score, source, target, dice))
    scored.sort(key=lambda x: (-x[0], x[1], x[2]))
    candidates: list[Action] = [EndAttack()]
    for odds, source, target, dice in scored[: MAX_CANDIDATES - 1]:
        # Likely captures roll to the end; close ones one battle at a time, so the next
        # roll is decided again with this one's outcome known.
        until = 1 if odds >= SURE_ODDS else None
        candidates.append(Attack(source, target, dice, until=until, reroll="auto"))
    return candidates


def occupations(low: int, high: int) -> list[Action]:
    """The fewest armies, all of them, half-way, and all but three."""
    return [Occupy(n) for n in sorted({low, high, (low + high) // 2, max(low, high - 3)})]
