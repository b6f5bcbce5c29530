"""End-of-round battles (the ranked attack order) and the removal of casualties.

A battle runs until it needs an answer (a castle re-roll, or casualties of a seat that
asked to choose them) or ends; :func:`run` picks it up where it stopped. Dice come from the
match's ``dice`` stream, so the same seed and answers give the same battle.
"""

from __future__ import annotations

from arena.games.api import Event
from arena.games.europe.actions import Units
from arena.games.europe.board import ARCHER, CAVALRY, SIEGE, Board
from arena.games.europe.config import ARMIES
from arena.games.europe.state import NOBODY, Battle, EuropeState, PendingLoss

RANKS = (
    # rank: (unit type, dice per unit, hits on)
    (SIEGE, 2, 3),
    (ARCHER, 1, 5),
    (CAVALRY, 1, 3),
)
"""Ranks 1-3 of the ranked attack order; rank 4 is the general attack."""
GENERAL = 4
ATTACKER_DICE = 3
DEFENDER_DICE = 2
STOCKHOLM_RAID = 4
"""Silver for Stockholm's holder per battle won as attacker."""

ASK = "ask"
CASUALTY_POLICIES = ("cheapest", ASK)
REROLL_POLICIES = ("auto", ASK, "never")
BATTLE_ORDER_POLICIES = ("listed", ASK)


def roll(state: EuropeState, count: int) -> tuple[int, ...]:
    """The next ``count`` dice of the match."""
    if count <= 0:
        return ()
    dice = state.streams.dice(state.dice, count)
    state.dice += count
    return dice


def dice_for(state: EuropeState, battle: Battle, army: int) -> int:
    """How many dice ``army`` rolls in the battle's current rank."""
    t = battle.territory
    if battle.rank == GENERAL:
        cap = ATTACKER_DICE if army == battle.attacker else DEFENDER_DICE
        return min(cap, state.count(t, army))
    kind, per_unit, _ = RANKS[battle.rank - 1]
    return state.units[(t * ARMIES + army) * 4 + kind] * per_unit


def hits(rank: int, attacker: tuple[int, ...], defender: tuple[int, ...]) -> tuple[int, int]:
    """Hits scored by (the attacker's dice, the defender's dice) in ``rank``."""
    if rank == GENERAL:
        high_a = sorted(attacker, reverse=True)
        high_d = sorted(defender, reverse=True)
        by_attacker = by_defender = 0
        for a, d in zip(high_a, high_d, strict=False):
            if a > d:
                by_attacker += 1
            else:
                by_defender += 1  # ties go to the defender
        return by_attacker, by_defender
    need = RANKS[rank - 1][2]
    return sum(1 for d in attacker if d >= need), sum(1 for d in defender if d >= need)


def cheapest(state: EuropeState, territory: int, army: int, count: int) -> Units:
    """The standing casualty policy: footmen first, then archers, cavalry, siege weapons."""
    have = state.of(territory, army)
    taken = [0, 0, 0, 0]
    for kind in range(4):
        take = min(count, have[kind])
        taken[kind] = take
        count -= take
    return (taken[0], taken[1], taken[2], taken[3])


def remove(state: EuropeState, territory: int, army: int, units: Units) -> None:
    """Take ``units`` of ``army`` off ``territory`` back into its army reserve."""
    base = (territory * ARMIES + army) * 4
    for kind, n in enumerate(units):
        if n:
            state.units[base + kind] -= n
            state.reserve[army * 4 + kind] += n


def start(state: EuropeState, territory: int) -> Event:
    """Open the battle of a disputed territory."""
    battle = Battle(territory, state.attacker[territory], state.owner[territory])
    state.battle = battle
    return {
        "type": "battle",
        "territory": territory,
        "attacker": battle.attacker,
        "defender": battle.defender,
        "attacker_units": list(state.of(territory, battle.attacker)),
        "defender_units": list(state.of(territory, battle.defender)),
        "castle": state.castle[territory],
    }


def _asks(state: EuropeState, army: int, which: int) -> bool:
    """Whether ``army`` answers decision ``which`` (0 casualties, 1 re-roll) itself."""
    return army < state.n and state.policies[army][which] == ASK


def queue_loss(
    state: EuropeState, army: int, territory: int, count: int, events: list[Event]
) -> None:
    """Hits ``army`` takes on ``territory``: removed now by its standing policy (or all of its
    units when the hits reach them), else left for its ``casualties`` decision."""
    have = state.count(territory, army)
    if count <= 0 or have == 0:
        return
    if count >= have or not _asks(state, army, 0):
        units = cheapest(state, territory, army, min(count, have))
        remove(state, territory, army, units)
        events.append(
            {"type": "casualties", "territory": territory, "army": army, "units": list(units)}
        )
        return
    state.losses.append(PendingLoss(army, territory, count))


def run(state: EuropeState, board: Board, events: list[Event]) -> None:
    """Fight the open battle until it needs an answer or ends (``state.battle`` None)."""
    battle = state.battle
    while battle is not None:
        if state.losses:
            return
        t = battle.territory
        if state.count(t, battle.attacker) == 0 or state.count(t, battle.defender) == 0:
            events.append(_finish(state, board, battle))
            state.battle = battle = None
            return
        if battle.stage == "reroll":
            return
        if battle.stage == "casualties":
            battle.stage = "roll"
            battle.rank += 1
            continue
        if battle.rank > GENERAL:
            battle.rank = 1
            battle.repetition += 1
            battle.rerolled = False
        a_count = dice_for(state, battle, battle.attacker)
        d_count = dice_for(state, battle, battle.defender)
        if a_count == 0 and d_count == 0:
            battle.rank += 1
            continue
        battle.attacker_dice = roll(state, a_count)
        battle.defender_dice = roll(state, d_count)
        if state.castle[t] and not battle.rerolled and d_count:
            policy = state.policies[battle.defender][1] if battle.defender < state.n else "auto"
            if policy == ASK:
                battle.stage = "reroll"
                return
            if policy == "auto" and _auto_reroll(battle):
                reroll(state, battle, events)
        score(state, battle, events)


def _auto_reroll(battle: Battle) -> bool:
    by_attacker, by_defender = hits(battle.rank, battle.attacker_dice, battle.defender_dice)
    return by_defender < by_attacker


def reroll(state: EuropeState, battle: Battle, events: list[Event]) -> None:
    """The castle defender re-rolls all its dice of the current rank."""
    old = battle.defender_dice
    battle.defender_dice = roll(state, len(old))
    battle.rerolled = True
    events.append(
        {
            "type": "reroll",
            "territory": battle.territory,
            "rank": battle.rank,
            "old": list(old),
            "dice": list(battle.defender_dice),
        }
    )


def score(state: EuropeState, battle: Battle, events: list[Event]) -> None:
    """Count the rank's hits and remove (or queue) the casualties, attacker first."""
    by_attacker, by_defender = hits(battle.rank, battle.attacker_dice, battle.defender_dice)
    events.append(
        {
            "type": "rank",
            "territory": battle.territory,
            "repetition": battle.repetition,
            "rank": battle.rank,
            "attacker_dice": list(battle.attacker_dice),
            "defender_dice": list(battle.defender_dice),
            "attacker_hits": by_attacker,
            "defender_hits": by_defender,
        }
    )
    battle.stage = "casualties"
    battle.hits = (by_attacker, by_defender)
    queue_loss(state, battle.attacker, battle.territory, by_defender, events)
    queue_loss(state, battle.defender, battle.territory, by_attacker, events)


def _finish(state: EuropeState, board: Board, battle: Battle) -> Event:
    t = battle.territory
    attacker_left = state.count(t, battle.attacker)
    defender_left = state.count(t, battle.defender)
    state.attacker[t] = NOBODY
    state.disputes.remove(t)
    winner = NOBODY
    raid = 0
    if attacker_left == 0 and defender_left == 0:
        state.owner[t] = NOBODY  # the crown goes back to the bank; a castle stays
    elif defender_left == 0:
        winner = battle.attacker
        if state.owner[board.tiles["stockholm"]] == battle.attacker:
            raid = STOCKHOLM_RAID
            state.coins[battle.attacker] += raid
        state.owner[t] = battle.attacker
        state.wins[battle.attacker] += 1
    else:
        winner = battle.defender
    return {
        "type": "battle_end",
        "territory": t,
        "winner": winner,
        "attacker": battle.attacker,
        "defender": battle.defender,
        "raid": raid,
    }
