"""The game before the first turn: the deal (or the claiming of territories), placing the
starting armies (and the neutral army's), the secret choice of headquarters, and the start
of play."""

from __future__ import annotations

from collections.abc import Sequence

from arena.games.api import Event
from arena.games.classic.actions import ChooseHeadquarters, Claim, Place, PlaceNeutral
from arena.games.classic.missions import mission_deck
from arena.games.classic.rng import Streams
from arena.games.classic.rules.setting import Setting
from arena.games.classic.rules.turn import next_seat, start_turn
from arena.games.classic.state import NEUTRAL, UNCLAIMED, ClassicState, Phase, bumped, replaced


def new_game(rules: Setting, seed: int, always_max: Sequence[bool] = ()) -> ClassicState:
    """The position before the first decision, dealt from ``seed``.

    ``always_max[seat]`` is a seat's declaration that it always defends with the maximum
    dice, so it is never asked to defend.
    """
    n, cfg, size = rules.n, rules.config, rules.size
    s = ClassicState.__new__(ClassicState)
    s.streams = Streams(seed)
    s.n = n
    s.owner = [UNCLAIMED] * size
    s.armies = [0] * size
    deal = s.streams.rng("deal")
    s.first = deal.randrange(n)
    s.seat = s.first
    s.round = 0
    s.turns = 0
    s.reserve = (cfg.starting_armies,) * n
    s.neutral_reserve = cfg.starting_armies if cfg.neutral else 0
    s.hands = ((),) * n
    s.deck = tuple(range(len(rules.symbols)))
    s.discard = ()
    s.sets_traded = 0
    s.dice_i = 0
    s.card_i = 0
    s.to_place = 0
    s.bonus_given = False
    s.conquered = False
    s.forced_trade = False
    s.attack = None
    s.roll = None
    s.occupy = None
    s.eliminated = ()
    s.forfeited = (False,) * n
    s.hq = (-1,) * n if cfg.mode == "capital" else ()
    s.hq_pending = s.hq
    s.hq_revealed = False
    s.always_max = tuple(bool(x) for x in always_max) + (False,) * (n - len(always_max))
    s.winner = None
    s.end = None
    s.places = None
    s.missions = ()
    if cfg.mode == "mission":
        deck = mission_deck(n)
        deal.shuffle(deck)
        s.missions = tuple(deck[:n])
    s.phase = Phase.CLAIM
    if cfg.deal == "random":
        order = list(range(size))
        deal.shuffle(order)
        holders = [*range(n), NEUTRAL] if cfg.neutral else list(range(n))
        reserve = list(s.reserve)
        for i, t in enumerate(order):
            # 2-player: three piles of 14; otherwise dealt round from the first player.
            holder = holders[i * 3 // size] if cfg.neutral else holders[(s.first + i) % n]
            s.owner[t] = holder
            s.armies[t] = 1
            if holder == NEUTRAL:
                s.neutral_reserve -= 1
            else:
                reserve[holder] -= 1
        s.reserve = tuple(reserve)
        s.phase = Phase.PLACE
        s.seat = s.first
        if not s.reserve[s.seat]:
            advance_setup(rules, s, [])
    return s


def claim(rules: Setting, s: ClassicState, seat: int, a: Claim, ev: list[Event]) -> None:
    """Claim a territory with one army; once none is left, placing begins."""
    s.owner[a.territory] = seat
    s.armies[a.territory] = 1
    s.reserve = bumped(s.reserve, seat, -1)
    ev.append({"type": "claimed", "seat": seat, "territory": a.territory})
    if UNCLAIMED in s.owner:
        s.seat = (seat + 1) % s.n
    else:
        s.phase = Phase.PLACE
        advance_setup(rules, s, ev)


def place(rules: Setting, s: ClassicState, seat: int, a: Place, ev: list[Event]) -> None:
    """Place starting armies (then, in the 2-player game, one neutral army)."""
    total = 0
    armies = s.armies
    for t, n in a.placements:
        armies[t] += n
        total += n
    s.reserve = bumped(s.reserve, seat, -total)
    ev.append({"type": "placed", "seat": seat, "placements": [list(p) for p in a.placements]})
    if rules.config.neutral and s.neutral_reserve:
        s.phase = Phase.PLACE_NEUTRAL
    else:
        advance_setup(rules, s, ev)


def place_neutral(
    rules: Setting, s: ClassicState, seat: int, a: PlaceNeutral, ev: list[Event]
) -> None:
    """Place one of the neutral army's starting armies."""
    s.armies[a.territory] += 1
    s.neutral_reserve -= 1
    ev.append({"type": "placed_neutral", "seat": seat, "territory": a.territory})
    advance_setup(rules, s, ev)


def advance_setup(rules: Setting, s: ClassicState, ev: list[Event]) -> None:
    """Pass setup placement to the next seat with armies left, or finish the setup."""
    s.phase = Phase.PLACE
    for step in range(1, s.n + 1):
        nxt = (s.seat + step) % s.n
        if s.reserve[nxt]:
            s.seat = nxt
            return
    if rules.config.mode == "capital":
        s.phase = Phase.HEADQUARTERS
        return
    begin_play(rules, s, ev)


def choose_hq(
    rules: Setting, s: ClassicState, seat: int, a: ChooseHeadquarters, ev: list[Event]
) -> None:
    """Choose headquarters in secret; the last choice reveals them all and play begins."""
    s.hq_pending = replaced(s.hq_pending, seat, a.territory)
    if min(s.hq_pending) >= 0:
        s.hq = s.hq_pending
        s.hq_revealed = True
        s.deck = tuple(c for c in s.deck if c not in s.hq)
        ev.append({"type": "headquarters_revealed", "headquarters": list(s.hq)})
        begin_play(rules, s, ev)


def begin_play(rules: Setting, s: ClassicState, ev: list[Event]) -> None:
    """Round 1, the first player's turn."""
    s.round = 1
    # Rounds are counted from the first player even when it went out during the setup.
    first = s.first if s.alive(s.first) else next_seat(s, s.first)
    start_turn(rules, s, first, ev)
