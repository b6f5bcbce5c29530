"""A player's turn outside battle: its start (reinforcements, cards to trade), trading,
placing the reinforcements, the way into attacking and fortifying, fortifying, and the end
of the turn (a card for a capture, the next seat, the round count and its cap)."""

from __future__ import annotations

from arena.games.api import Event
from arena.games.classic import cards as cardlib
from arena.games.classic.actions import EndTurn, Fortify, Place, Trade
from arena.games.classic.rules.end import Termination, check_end, finish
from arena.games.classic.rules.legal import can_attack, can_fortify
from arena.games.classic.rules.setting import Setting
from arena.games.classic.state import ClassicState, Phase, replaced


def start_turn(rules: Setting, s: ClassicState, seat: int, ev: list[Event]) -> None:
    """Give ``seat`` the turn: its reinforcements, then a trade if it holds a set."""
    s.seat = seat
    s.turns += 1
    s.conquered = False
    s.bonus_given = False
    s.forced_trade = False
    s.to_place = reinforcements(rules, s, seat)
    ev.append({"type": "turn", "seat": seat, "round": s.round, "reinforcements": s.to_place})
    s.phase = Phase.TRADE if cardlib.has_set(s.hands[seat], rules.symbols) else Phase.REINFORCE


def reinforcements(rules: Setting, state: ClassicState, seat: int) -> int:
    """New armies for territories (÷3, minimum 3) and whole continents held."""
    owner = state.owner
    armies = max(3, owner.count(seat) // 3)
    for bonus, members in rules.continents:
        if all(owner[t] == seat for t in members):
            armies += bonus
    return armies


def trade(rules: Setting, s: ClassicState, seat: int, a: Trade, ev: list[Event]) -> None:
    """Trade a set for armies (+2 on a traded card's territory once a turn), or decline."""
    if a.cards is None:
        s.phase = Phase.REINFORCE
        return
    trio = a.cards
    s.hands = replaced(s.hands, seat, tuple(c for c in s.hands[seat] if c not in trio))
    s.discard = s.discard + trio
    s.sets_traded += 1
    symbols = rules.symbols
    value = cardlib.set_value(
        rules.config.sets, s.sets_traded, (symbols[trio[0]], symbols[trio[1]], symbols[trio[2]])
    )
    s.to_place += value
    bonus = None
    if not s.bonus_given:
        eligible = [c for c in trio if c < rules.size and s.owner[c] == seat]
        if eligible:
            bonus = a.bonus_territory if a.bonus_territory is not None else eligible[0]
            s.armies[bonus] += 2
            s.bonus_given = True
    ev.append(
        {
            "type": "traded",
            "seat": seat,
            "cards": list(trio),
            "armies": value,
            "bonus_territory": bonus,
            "sets_traded": s.sets_traded,
        }
    )
    hand = s.hands[seat]
    if s.forced_trade:
        s.phase = Phase.TRADE if len(hand) > 4 else Phase.REINFORCE
    else:
        s.phase = Phase.TRADE if cardlib.has_set(hand, rules.symbols) else Phase.REINFORCE


def reinforce(rules: Setting, s: ClassicState, seat: int, a: Place, ev: list[Event]) -> None:
    """Place the turn's reinforcements, then attack."""
    armies = s.armies
    for t, n in a.placements:
        armies[t] += n
    s.to_place = 0
    ev.append({"type": "reinforced", "seat": seat, "placements": [list(p) for p in a.placements]})
    s.forced_trade = False
    if rules.config.mode == "mission" and check_end(rules, s, seat, ev):
        return
    enter_attack(rules, s, ev)


def enter_attack(rules: Setting, s: ClassicState, ev: list[Event]) -> None:
    """Ask for an attack, or go on to fortify when the seat has none."""
    s.attack = None
    if can_attack(rules, s, s.seat):
        s.phase = Phase.ATTACK
    else:
        enter_fortify(rules, s, ev)


def enter_fortify(rules: Setting, s: ClassicState, ev: list[Event]) -> None:
    """Ask for a fortification, or end the turn when the seat has none."""
    if can_fortify(rules, s, s.seat):
        s.phase = Phase.FORTIFY
    else:
        end_turn(rules, s, ev)


def fortify(rules: Setting, s: ClassicState, seat: int, a: Fortify, ev: list[Event]) -> None:
    """Move armies between two own territories, which ends the turn."""
    s.armies[a.source] -= a.armies
    s.armies[a.target] += a.armies
    ev.append(
        {
            "type": "fortified",
            "seat": seat,
            "from": a.source,
            "to": a.target,
            "armies": a.armies,
        }
    )
    if rules.config.mode == "mission" and check_end(rules, s, seat, ev):
        return
    end_turn(rules, s, ev)


def end_turn_action(
    rules: Setting, s: ClassicState, seat: int, a: EndTurn, ev: list[Event]
) -> None:
    """End the turn without fortifying."""
    end_turn(rules, s, ev)


def end_turn(rules: Setting, s: ClassicState, ev: list[Event]) -> None:
    """A card for a capture this turn, then the next seat's turn; past the round cap, the
    game ends."""
    seat = s.seat
    if s.conquered:
        draw(s, seat, ev)
    nxt = next_seat(s, seat)
    pos = (nxt - s.first) % s.n
    if pos <= (seat - s.first) % s.n:
        if s.round >= rules.config.max_rounds:
            finish(s, Termination.ROUND_LIMIT, None, ev)
            return
        s.round += 1
    start_turn(rules, s, nxt, ev)


def next_seat(s: ClassicState, seat: int) -> int:
    """The next seat after ``seat`` still in the game (``seat`` itself if none is)."""
    for step in range(1, s.n + 1):
        nxt = (seat + step) % s.n
        if nxt not in s.eliminated:
            return nxt
    return seat


def draw(s: ClassicState, seat: int, ev: list[Event]) -> None:
    """Draw a card for ``seat`` (the traded cards become the pile when it runs out)."""
    if not s.deck:
        s.deck, s.discard = tuple(sorted(s.discard)), ()
        if not s.deck:
            return
    index = s.streams.pick("cards", s.card_i, len(s.deck))
    s.card_i += 1
    card = s.deck[index]
    s.deck = s.deck[:index] + s.deck[index + 1 :]
    s.hands = replaced(s.hands, seat, (*s.hands[seat], card))
    ev.append({"type": "card_drawn", "seat": seat, "card": card})
