"""Battle: an attack rolled until it needs a decision (the defender's dice, the attacker's
re-roll under the advantage rule) or stops, each roll resolved, a capture with its card
takeover, and the occupation that follows.

An attack with ``until`` rolls on by itself while the attacker has more armies than that,
so one :func:`battle` call may roll many times; it is the hottest path in random play.
"""

from __future__ import annotations

from arena.games.api import Event
from arena.games.classic.actions import Attack, Defend, EndAttack, Occupy, Reroll
from arena.games.classic.combat import compare
from arena.games.classic.rules.decide import defender_seat
from arena.games.classic.rules.end import check_end
from arena.games.classic.rules.setting import Setting
from arena.games.classic.rules.turn import enter_attack, enter_fortify
from arena.games.classic.state import ClassicState, Phase, replaced


def attack(rules: Setting, s: ClassicState, seat: int, a: Attack, ev: list[Event]) -> None:
    """Start an attack and roll it."""
    s.attack = (a.source, a.target, a.dice, a.until, a.reroll)
    battle(rules, s, ev)


def end_attack(rules: Setting, s: ClassicState, seat: int, a: EndAttack, ev: list[Event]) -> None:
    """Stop attacking and go on to fortify."""
    s.attack = None
    enter_fortify(rules, s, ev)


def battle(rules: Setting, s: ClassicState, ev: list[Event]) -> None:
    """Roll the attack in progress (repeating as it asks) until a decision is needed."""
    while s.attack is not None:
        most = min(2, s.armies[s.attack[1]])
        defender = defender_seat(s)
        if most == 1 or s.always_max[defender] or s.forfeited[defender]:
            if not roll(rules, s, most, ev):
                return
        else:
            s.phase = Phase.DEFEND
            return


def defend(rules: Setting, s: ClassicState, seat: int, a: Defend, ev: list[Event]) -> None:
    """Roll with the defender's chosen dice, then go on with the attack."""
    if roll(rules, s, a.dice, ev):
        battle(rules, s, ev)


def roll(rules: Setting, s: ClassicState, def_dice: int, ev: list[Event]) -> bool:
    """Roll one battle; return True if the attack goes on rolling without a decision."""
    assert s.attack is not None
    src, dst, dice, _, policy = s.attack
    n_att = min(dice, s.armies[src] - 1)
    i = s.dice_i
    rolled = s.streams.dice(i, n_att + def_dice)
    att, dfn = rolled[:n_att], rolled[n_att:]
    s.dice_i = i + n_att + def_dice
    if (
        rules.config.advantage_reroll
        and policy != "never"
        and (src in s.hands[s.seat] or dst in s.hands[s.seat])
    ):
        if policy == "ask":
            s.roll = (att, dfn, def_dice)
            s.phase = Phase.REROLL
            return False
        att = _auto_reroll(s, att, dfn, ev)
    return resolve(rules, s, att, dfn, ev)


def _auto_reroll(
    s: ClassicState, att: tuple[int, ...], dfn: tuple[int, ...], ev: list[Event]
) -> tuple[int, ...]:
    """Re-roll the attacker's lowest die among those that lost or tied their comparison."""
    ranked = sorted(range(len(att)), key=lambda k: -att[k])
    high_def = sorted(dfn, reverse=True)
    losing = [ranked[k] for k in range(min(len(att), len(dfn))) if att[ranked[k]] <= high_def[k]]
    if not losing:
        return att
    return _reroll_die(s, att, losing[-1], ev)


def _reroll_die(
    s: ClassicState, att: tuple[int, ...], index: int, ev: list[Event]
) -> tuple[int, ...]:
    new = s.streams.die(s.dice_i)
    s.dice_i += 1
    ev.append({"type": "rerolled", "seat": s.seat, "die": index, "old": att[index], "new": new})
    return (*att[:index], new, *att[index + 1 :])


def reroll(rules: Setting, s: ClassicState, seat: int, a: Reroll, ev: list[Event]) -> None:
    """The attacker's re-roll of one die (or none), then the roll is resolved."""
    assert s.roll is not None
    att, dfn, _ = s.roll
    s.roll = None
    if a.die is not None:
        att = _reroll_die(s, att, a.die, ev)
    if resolve(rules, s, att, dfn, ev):
        battle(rules, s, ev)


def resolve(
    rules: Setting, s: ClassicState, att: tuple[int, ...], dfn: tuple[int, ...], ev: list[Event]
) -> bool:
    """Apply a roll's losses; return True if the attack goes on rolling by itself."""
    assert s.attack is not None
    src, dst, _, until, _ = s.attack
    att_loss, def_loss = compare(att, dfn)
    s.armies[src] -= att_loss
    s.armies[dst] -= def_loss
    ev.append(
        {
            "type": "battle",
            "seat": s.seat,
            "from": src,
            "to": dst,
            "attacker_dice": list(att),
            "defender_dice": list(dfn),
            "attacker_losses": att_loss,
            "defender_losses": def_loss,
        }
    )
    if s.armies[dst] == 0:
        capture(rules, s, src, dst, len(att), ev)
        return False
    if until is not None and s.armies[src] > until and s.armies[src] >= 2:
        return True
    enter_attack(rules, s, ev)
    return False


def capture(
    rules: Setting, s: ClassicState, src: int, dst: int, moved: int, ev: list[Event]
) -> None:
    """Take ``dst`` with the dice's armies; a seat left with no territory is eliminated and
    its cards go to the captor (6 or more in hand force a trade)."""
    seat = s.seat
    previous = s.owner[dst]
    s.owner[dst] = seat
    s.armies[dst] = moved
    s.armies[src] -= moved
    s.conquered = True
    s.attack = None
    ev.append(
        {
            "type": "conquered",
            "seat": seat,
            "from": src,
            "to": dst,
            "previous_owner": previous,
            "armies": moved,
        }
    )
    if previous >= 0 and previous not in s.owner and previous not in s.eliminated:
        taken = s.hands[previous]
        s.eliminated = (*s.eliminated, previous)
        s.hands = replaced(replaced(s.hands, seat, s.hands[seat] + taken), previous, ())
        ev.append({"type": "eliminated", "seat": previous, "by": seat, "cards": len(taken)})
        if taken:
            ev.append({"type": "cards_taken", "seat": seat, "from": previous, "cards": list(taken)})
        if len(s.hands[seat]) >= 6:
            s.forced_trade = True
    if check_end(rules, s, seat, ev):
        return
    if s.armies[src] > 1:
        s.occupy = (src, dst, moved)
        s.phase = Phase.OCCUPY
    else:
        _after_capture(rules, s, ev)


def occupy(rules: Setting, s: ClassicState, seat: int, a: Occupy, ev: list[Event]) -> None:
    """Move more armies into the captured territory, then attack on."""
    assert s.occupy is not None
    src, dst, least = s.occupy
    extra = a.armies - least
    s.armies[src] -= extra
    s.armies[dst] += extra
    s.occupy = None
    ev.append({"type": "occupied", "seat": seat, "from": src, "to": dst, "armies": a.armies})
    if rules.config.mode == "mission" and check_end(rules, s, seat, ev):
        return
    _after_capture(rules, s, ev)


def _after_capture(rules: Setting, s: ClassicState, ev: list[Event]) -> None:
    """A forced trade first (after a card takeover), else the next attack."""
    if s.forced_trade:
        s.to_place = 0
        s.phase = Phase.TRADE
    else:
        enter_attack(rules, s, ev)
