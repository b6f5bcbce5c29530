"""The documented action played for a seat that does not answer in time (and for the setup
choices still due from a seat that has forfeited)."""

from __future__ import annotations

from arena.games.classic.actions import (
    Action,
    ChooseHeadquarters,
    Claim,
    Defend,
    EndAttack,
    EndTurn,
    Occupy,
    Place,
    PlaceNeutral,
    Reroll,
    Trade,
)
from arena.games.classic.rules.legal import legal_options
from arena.games.classic.rules.setting import Setting
from arena.games.classic.state import ClassicState


def default_action(rules: Setting, state: ClassicState, seat: int) -> Action:
    """The documented action applied for a seat that does not answer in time.

    claim: the lowest-id unclaimed territory; place/place_neutral: the eligible territory
    with the fewest armies; headquarters: the own territory with the most armies; trade: the
    first set when trading is required, else none; reinforce: spread evenly over own
    territories that border an enemy (fewest armies first); attack: end the attack;
    defend: the maximum dice; re-roll: none; occupy: the minimum; fortify: none.
    """
    options = legal_options(rules, state, seat)
    kind, armies = options.kind, state.armies
    if kind == "claim":
        return Claim(options.territories[0])
    if kind == "place":
        return Place.on(min(options.territories, key=lambda t: armies[t]), options.armies)
    if kind == "place_neutral":
        return PlaceNeutral(min(options.territories, key=lambda t: armies[t]))
    if kind == "headquarters":
        return ChooseHeadquarters(max(options.territories, key=lambda t: armies[t]))
    if kind == "trade":
        return Trade(options.sets[0]) if options.required else Trade(None)
    if kind == "reinforce":
        return Place(_spread(rules, state, seat, options.armies))
    if kind == "attack":
        return EndAttack()
    if kind == "defend":
        return Defend(options.max_dice)
    if kind == "reroll":
        return Reroll(None)
    if kind == "occupy":
        return Occupy(options.min_armies)
    return EndTurn()


def _spread(
    rules: Setting, state: ClassicState, seat: int, count: int
) -> tuple[tuple[int, int], ...]:
    """``count`` armies spread one at a time over the border territories (all own ones
    when none borders an enemy), fewest armies first."""
    owner = state.owner
    own = [t for t, o in enumerate(owner) if o == seat]
    border = [t for t in own if any(owner[nb] != seat for nb in rules.neighbours[t])]
    targets = sorted(border or own, key=lambda t: (state.armies[t], t))
    share: dict[int, int] = {}
    for k in range(count):
        t = targets[k % len(targets)]
        share[t] = share.get(t, 0) + 1
    return tuple(sorted(share.items()))
