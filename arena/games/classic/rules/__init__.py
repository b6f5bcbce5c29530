"""The rules of classic RISK: who decides, legal options, checking and applying actions.

This is the only place the rules live. Everything is pure: a state goes in, a new state and
the events come out; dice and cards come from the keyed streams in :mod:`.rng`.

Entry points (see :class:`ClassicRules`): ``new_game``, ``decision``, ``legal_options``,
``check``, ``apply`` (validating, returns a new state), ``apply_unchecked`` (in place, for
search), ``default_action``, ``forfeit``, ``outcome`` and ``view``. ``apply`` and ``forfeit``
return the game contract's own :class:`~arena.games.api.Step`, so the adapter passes it on
as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from arena.errors import IllegalActionError
from arena.games.api import Step
from arena.games.classic import cards as cardlib
from arena.games.classic.actions import (
    REROLL_POLICIES,
    Action,
    Attack,
    ChooseHeadquarters,
    Claim,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    Occupy,
    Place,
    PlaceNeutral,
    Reroll,
    Trade,
)
from arena.games.classic.board import Board, classic_board
from arena.games.classic.combat import compare
from arena.games.classic.config import ClassicConfig
from arena.games.classic.events import Event
from arena.games.classic.missions import FALLBACK, MISSIONS, mission_deck
from arena.games.classic.options import Options
from arena.games.classic.rng import Streams
from arena.games.classic.state import NEUTRAL, PHASE_KINDS, UNCLAIMED, ClassicState, Phase


class Termination(StrEnum):
    """Why a game ended."""

    DOMINATION = "domination"
    """Every other player was eliminated or forfeited (neutral armies never need to be)."""
    MISSION = "mission"
    """Secret Mission RISK: the winner accomplished its mission."""
    CAPITALS = "capitals"
    """Capital RISK: the winner holds its own and the required opposing headquarters."""
    ROUND_LIMIT = "round_limit"
    """The round cap was reached; survivors are ranked by territories, then armies."""


@dataclass(frozen=True, slots=True)
class Decision:
    """Who must decide now, and what kind of decision (several seats at once when secret)."""

    kind: str
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game: a place per seat (1 = best; ties share a place)."""

    places: tuple[int, ...]
    winner: int | None
    termination: str


_TURN_SEAT_DECIDES: tuple[bool, ...] = tuple(
    phase not in (Phase.HEADQUARTERS, Phase.DEFEND, Phase.OVER) for phase in Phase
)
"""Per phase: whether the seat to move (``state.seat``) is the one seat deciding."""

_EXPECTED: dict[Phase, tuple[type, ...]] = {
    Phase.CLAIM: (Claim,),
    Phase.PLACE: (Place,),
    Phase.PLACE_NEUTRAL: (PlaceNeutral,),
    Phase.HEADQUARTERS: (ChooseHeadquarters,),
    Phase.TRADE: (Trade,),
    Phase.REINFORCE: (Place,),
    Phase.ATTACK: (Attack, EndAttack),
    Phase.DEFEND: (Defend,),
    Phase.REROLL: (Reroll,),
    Phase.OCCUPY: (Occupy,),
    Phase.FORTIFY: (Fortify, EndTurn),
}


class ClassicRules:
    """Classic RISK under one :class:`ClassicConfig`. Stateless apart from config and board."""

    def __init__(self, config: ClassicConfig, board: Board | None = None) -> None:
        self.config = config
        self.board = board or classic_board()
        self.n = config.players
        b = self.board
        self._symbols = b.card_symbols
        self._neighbours = b.neighbours
        self._size = b.size
        self._ids = range(b.size)
        self._adjacent = b.adjacent
        self._continents = [(c.bonus, c.territories) for c in b.continents]
        self._continent_by_name = {c.name: c.territories for c in b.continents}
        self._decisions: dict[tuple[Phase, int], Decision] = {}
        """One immutable :class:`Decision` per (phase, seat) that has a single deciding
        seat: it depends on nothing else, so sharing it between states is safe."""

    # ------------------------------------------------------------------ setup

    def new_game(self, seed: int, always_max: Sequence[bool] = ()) -> ClassicState:
        """The position before the first decision, dealt from ``seed``.

        ``always_max[seat]`` is a seat's declaration that it always defends with the maximum
        dice, so it is never asked to defend.
        """
        n, cfg, size = self.n, self.config, self.board.size
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
        s.deck = tuple(range(len(self._symbols)))
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
                self._advance_setup(s, [])
        return s

    # ------------------------------------------------------------ asking who

    def decision(self, state: ClassicState) -> Decision | None:
        """Who must decide now and the decision kind, or None once the game is over."""
        phase = state.phase
        if phase == Phase.OVER:
            return None
        if phase == Phase.HEADQUARTERS:
            seats = tuple(s for s in range(state.n) if state.hq_pending[s] < 0)
            return Decision("headquarters", seats)
        seat = self._defender_seat(state) if phase == Phase.DEFEND else state.seat
        found = self._decisions.get((phase, seat))
        if found is None:
            found = self._decisions[(phase, seat)] = Decision(PHASE_KINDS[phase], (seat,))
        return found

    def _defender_seat(self, state: ClassicState) -> int:
        assert state.attack is not None
        holder = state.owner[state.attack[1]]
        if holder == NEUTRAL:
            # The neutral army's defence is rolled by the attacker's opponent.
            return 1 - state.seat
        return holder

    def _require_turn(self, state: ClassicState, seat: int) -> str:
        """The kind of the decision ``seat`` must make now (else a precise error)."""
        phase = state.phase
        if seat == state.seat and _TURN_SEAT_DECIDES[phase]:
            return PHASE_KINDS[phase]
        decision = self.decision(state)
        if decision is None:
            raise IllegalActionError("the game is over; no more actions are accepted")
        if seat not in decision.seats:
            who = ", ".join(map(str, decision.seats))
            raise IllegalActionError(
                f"seat {seat} is not to decide now: waiting for {decision.kind} from seat {who}"
            )
        return decision.kind

    # -------------------------------------------------------- legal options

    def legal_options(self, state: ClassicState, seat: int) -> Options:
        """The legal options of ``seat``'s current decision (compact, see :class:`Options`)."""
        kind = self._require_turn(state, seat)
        phase, owner, armies = state.phase, state.owner, state.armies
        # The commonest decision first; the phases are disjoint, so order is free.
        if phase == Phase.ATTACK:
            return Options(kind, seat, attacks=self._attacks(state, seat))
        if phase == Phase.CLAIM:
            return Options(kind, seat, territories=self._owned(state, UNCLAIMED))
        if phase == Phase.PLACE:
            return Options(
                kind, seat, territories=self._owned(state, seat), armies=self._setup_count(state)
            )
        if phase == Phase.PLACE_NEUTRAL:
            return Options(kind, seat, territories=self._owned(state, NEUTRAL), armies=1)
        if phase == Phase.HEADQUARTERS:
            return Options(kind, seat, territories=self._owned(state, seat))
        if phase == Phase.TRADE:
            hand = state.hands[seat]
            sets = cardlib.valid_sets(hand, self._symbols)
            bonus = (
                ()
                if state.bonus_given
                else tuple(sorted(c for c in hand if c < len(owner) and owner[c] == seat))
            )
            return Options(
                kind,
                seat,
                sets=tuple(sets),
                required=self._trade_required(state),
                bonus_territories=bonus,
            )
        if phase == Phase.REINFORCE:
            return Options(kind, seat, territories=self._owned(state, seat), armies=state.to_place)
        if phase == Phase.DEFEND:
            assert state.attack is not None
            src, dst, dice = state.attack[:3]
            battle = (src, dst, min(dice, armies[src] - 1))
            return Options(kind, seat, max_dice=min(2, armies[dst]), battle=battle)
        if phase == Phase.REROLL:
            assert state.roll is not None and state.attack is not None
            att, dfn, _ = state.roll
            battle = (state.attack[0], state.attack[1], len(att))
            return Options(kind, seat, attacker_dice=att, defender_dice=dfn, battle=battle)
        if phase == Phase.OCCUPY:
            assert state.occupy is not None
            src, dst, least = state.occupy
            return Options(
                kind,
                seat,
                min_armies=least,
                max_armies=least + armies[src] - 1,
                battle=(src, dst, least),
            )
        return Options(kind, seat, fortifies=self._fortifies(state, seat))

    def _owned(self, state: ClassicState, holder: int) -> tuple[int, ...]:
        return tuple([t for t, o in enumerate(state.owner) if o == holder])

    def _setup_count(self, state: ClassicState) -> int:
        return min(2 if self.config.neutral else 1, state.reserve[state.seat])

    def _trade_required(self, state: ClassicState) -> bool:
        held = len(state.hands[state.seat])
        return held > 4 if state.forced_trade else held >= 5

    def _attacks(self, state: ClassicState, seat: int) -> tuple[tuple[int, int, int], ...]:
        owner = state.owner
        # One list comprehension over zipped columns: the fastest form in CPython.
        return tuple(
            [
                (t, nb, 3 if a > 3 else a - 1)
                for t, o, a, near in zip(
                    self._ids, owner, state.armies, self._neighbours, strict=True
                )
                if o == seat and a >= 2
                for nb in near
                if owner[nb] != seat
            ]
        )

    def _fortifies(self, state: ClassicState, seat: int) -> tuple[tuple[int, int, int], ...]:
        owner, armies = state.owner, state.armies
        if self.config.fortify == "adjacent":
            return tuple(
                [
                    (t, nb, a - 1)
                    for t, o, a, near in zip(
                        self._ids, owner, armies, self._neighbours, strict=True
                    )
                    if o == seat and a >= 2
                    for nb in near
                    if owner[nb] == seat
                ]
            )
        return tuple(
            [
                (t, u, armies[t] - 1)
                for group in self._groups(state, seat)
                for t in group
                if armies[t] >= 2
                for u in group
                if u != t
            ]
        )

    def _groups(self, state: ClassicState, seat: int) -> list[list[int]]:
        """Connected groups of ``seat``'s territories (sorted ids), for connected fortify."""
        owner, seen, groups = state.owner, set(), []
        for start, o in enumerate(owner):
            if o != seat or start in seen:
                continue
            group, stack = [], [start]
            seen.add(start)
            while stack:
                t = stack.pop()
                group.append(t)
                for nb in self._neighbours[t]:
                    if owner[nb] == seat and nb not in seen:
                        seen.add(nb)
                        stack.append(nb)
            groups.append(sorted(group))
        return groups

    def _can_attack(self, state: ClassicState, seat: int) -> bool:
        owner, armies, neighbours = state.owner, state.armies, self._neighbours
        for t, o in enumerate(owner):
            if o == seat and armies[t] >= 2:
                for nb in neighbours[t]:
                    if owner[nb] != seat:
                        return True
        return False

    def _can_fortify(self, state: ClassicState, seat: int) -> bool:
        owner, armies, neighbours = state.owner, state.armies, self._neighbours
        for t, o in enumerate(owner):
            if o == seat and armies[t] >= 2:
                for nb in neighbours[t]:
                    if owner[nb] == seat:
                        return True
        return False

    # ---------------------------------------------------------------- check

    def is_legal(self, state: ClassicState, seat: int, action: Action) -> bool:
        """Whether :meth:`check` would accept the action."""
        try:
            self.check(state, seat, action)
        except IllegalActionError:
            return False
        return True

    def check(self, state: ClassicState, seat: int, action: Action) -> None:
        """Raise :class:`IllegalActionError` saying what is wrong and what was expected."""
        kind = self._require_turn(state, seat)
        phase = state.phase
        expected = _EXPECTED[phase]
        if not isinstance(action, expected):
            names = " or ".join(t.__name__ for t in expected)
            article = "an" if kind[0] in "aeiou" else "a"
            raise IllegalActionError(
                f"{article} {kind} decision is pending: expected {names}, got "
                f"{type(action).__name__}",
                action,
            )
        _check_field_types(action)
        owner, armies, name = state.owner, state.armies, self._name
        # The commonest actions first; the action classes are disjoint, so order is free.
        if isinstance(action, Attack):
            self._check_attack(state, seat, action)
        elif isinstance(action, EndAttack | EndTurn):
            return
        elif isinstance(action, Claim):
            self._check_territory(action.territory, action)
            if owner[action.territory] != UNCLAIMED:
                raise IllegalActionError(
                    f"cannot claim {name(action.territory)}: already held by "
                    f"{self._holder(owner[action.territory])}; claim an unclaimed territory",
                    action,
                )
        elif isinstance(action, Place):
            count = self._setup_count(state) if phase == Phase.PLACE else state.to_place
            self._check_placements(state, seat, action, count)
        elif isinstance(action, PlaceNeutral):
            self._check_territory(action.territory, action)
            if owner[action.territory] != NEUTRAL:
                raise IllegalActionError(
                    f"the neutral army goes on a neutral territory; {name(action.territory)} is "
                    f"held by {self._holder(owner[action.territory])}",
                    action,
                )
        elif isinstance(action, ChooseHeadquarters):
            self._check_territory(action.territory, action)
            if owner[action.territory] != seat:
                raise IllegalActionError(
                    f"headquarters must be one of your own territories; {name(action.territory)} "
                    f"is held by {self._holder(owner[action.territory])}",
                    action,
                )
        elif isinstance(action, Trade):
            self._check_trade(state, seat, action)
        elif isinstance(action, Defend):
            assert state.attack is not None
            most = min(2, armies[state.attack[1]])
            if not 1 <= action.dice <= most:
                raise IllegalActionError(
                    f"defend with 1-{most} dice ({name(state.attack[1])} holds "
                    f"{armies[state.attack[1]]}), got {action.dice}",
                    action,
                )
        elif isinstance(action, Reroll):
            assert state.roll is not None
            rolled = len(state.roll[0])
            if action.die is not None and not 0 <= action.die < rolled:
                raise IllegalActionError(
                    f"re-roll one of your {rolled} dice (index 0-{rolled - 1}) or none, "
                    f"got {action.die}",
                    action,
                )
        elif isinstance(action, Occupy):
            assert state.occupy is not None
            src, _, least = state.occupy
            most = least + armies[src] - 1
            if not least <= action.armies <= most:
                raise IllegalActionError(
                    f"occupy with {least}-{most} armies in total, got {action.armies}", action
                )
        elif isinstance(action, Fortify):
            self._check_fortify(state, seat, action)

    def _name(self, territory: int) -> str:
        return f"{self.board.names[territory]!r} ({territory})"

    def _holder(self, holder: int) -> str:
        if holder == NEUTRAL:
            return "the neutral army"
        if holder == UNCLAIMED:
            return "nobody"
        return f"seat {holder}"

    def _check_territory(self, territory: object, action: Action) -> None:
        if not isinstance(territory, int) or not 0 <= territory < self._size:
            raise IllegalActionError(
                f"territory {territory!r} does not exist; ids are 0-{self._size - 1}", action
            )

    def _check_placements(self, state: ClassicState, seat: int, action: Place, count: int) -> None:
        seen: set[int] = set()
        total = 0
        for territory, n in action.placements:
            self._check_territory(territory, action)
            if state.owner[territory] != seat:
                raise IllegalActionError(
                    f"cannot place on {self._name(territory)}: held by "
                    f"{self._holder(state.owner[territory])}; place on your own territories",
                    action,
                )
            if territory in seen:
                raise IllegalActionError(f"{self._name(territory)} is listed twice", action)
            if not isinstance(n, int) or n < 1:
                raise IllegalActionError(
                    f"place a positive number of armies on {self._name(territory)}, got {n!r}",
                    action,
                )
            seen.add(territory)
            total += n
        if total != count:
            raise IllegalActionError(f"place exactly {count} armies, got {total}", action)
        if state.phase == Phase.PLACE and self.config.neutral and len(seen) > 2:
            raise IllegalActionError("place your 2 armies on 1 or 2 territories", action)

    def _check_trade(self, state: ClassicState, seat: int, action: Trade) -> None:
        if action.cards is None:
            if self._trade_required(state):
                held = len(state.hands[seat])
                raise IllegalActionError(f"you hold {held} cards and must trade a set now", action)
            if action.bonus_territory is not None:
                raise IllegalActionError("a bonus territory needs a traded set", action)
            return
        hand = state.hands[seat]
        trio = action.cards
        if len(set(trio)) != 3 or any(c not in hand for c in trio):
            raise IllegalActionError(
                f"trade three different cards from your hand {sorted(hand)}, got {list(trio)}",
                action,
            )
        if not cardlib.is_set(tuple(self._symbols[c] for c in trio)):  # type: ignore[arg-type]
            raise IllegalActionError(
                f"cards {list(trio)} are not a set: need three alike, one of each, or two "
                "plus a wild",
                action,
            )
        bonus = action.bonus_territory
        if bonus is not None:
            eligible = [c for c in trio if c < self.board.size and state.owner[c] == seat]
            if state.bonus_given:
                raise IllegalActionError(
                    "the +2 card bonus was already given this turn; omit bonus_territory", action
                )
            if bonus not in eligible:
                raise IllegalActionError(
                    f"bonus territory {bonus!r} must be one of the traded cards' territories "
                    f"that you hold: {eligible}",
                    action,
                )

    def _check_attack(self, state: ClassicState, seat: int, action: Attack) -> None:
        owner, armies = state.owner, state.armies
        src, dst = action.source, action.target
        self._check_territory(src, action)
        self._check_territory(dst, action)
        if owner[src] != seat:
            raise IllegalActionError(
                f"attack from {self._name(src)}: held by {self._holder(owner[src])}, not you",
                action,
            )
        if dst not in self._adjacent[src]:
            raise IllegalActionError(
                f"attack from {self._name(src)} to {self._name(dst)}: not adjacent", action
            )
        if owner[dst] == seat:
            raise IllegalActionError(f"cannot attack your own {self._name(dst)}", action)
        most = min(3, armies[src] - 1)
        if most < 1:
            raise IllegalActionError(
                f"attack from {self._name(src)} needs at least 2 armies there, it has "
                f"{armies[src]}",
                action,
            )
        if not 1 <= action.dice <= most:
            raise IllegalActionError(
                f"attack from {self._name(src)} with 1-{most} dice ({armies[src]} armies), got "
                f"{action.dice}",
                action,
            )
        if action.until is not None and not 1 <= action.until < armies[src]:
            raise IllegalActionError(
                f"'until' must be 1-{armies[src] - 1} (stop when {self._name(src)} is down to "
                f"that many armies), got {action.until}",
                action,
            )
        if action.reroll not in REROLL_POLICIES:
            raise IllegalActionError(
                f"reroll policy must be one of {', '.join(REROLL_POLICIES)}, got {action.reroll!r}",
                action,
            )

    def _check_fortify(self, state: ClassicState, seat: int, action: Fortify) -> None:
        owner, armies = state.owner, state.armies
        src, dst = action.source, action.target
        self._check_territory(src, action)
        self._check_territory(dst, action)
        if owner[src] != seat or owner[dst] != seat:
            raise IllegalActionError(
                f"fortify between your own territories; {self._name(src)} is held by "
                f"{self._holder(owner[src])}, {self._name(dst)} by {self._holder(owner[dst])}",
                action,
            )
        if src == dst:
            raise IllegalActionError("fortify needs two different territories", action)
        if self.config.fortify == "adjacent":
            if dst not in self._adjacent[src]:
                raise IllegalActionError(
                    f"fortify from {self._name(src)} to {self._name(dst)}: not adjacent "
                    "(fortify=adjacent)",
                    action,
                )
        elif not any(src in g and dst in g for g in self._groups(state, seat)):
            raise IllegalActionError(
                f"fortify from {self._name(src)} to {self._name(dst)}: no chain of your own "
                "territories connects them",
                action,
            )
        if not 1 <= action.armies <= armies[src] - 1:
            raise IllegalActionError(
                f"fortify 1-{armies[src] - 1} armies from {self._name(src)} (one must stay), got "
                f"{action.armies}",
                action,
            )

    # ---------------------------------------------------------------- apply

    def apply(self, state: ClassicState, seat: int, action: Action) -> Step[ClassicState]:
        """Check the action, then apply it to a copy: the input state is never changed."""
        self.check(state, seat, action)
        new = state.copy()
        return Step(new, self.apply_unchecked(new, seat, action))

    def apply_unchecked(self, state: ClassicState, seat: int, action: Action) -> list[Event]:
        """Apply a legal action **in place** and return the events.

        .. warning:: No validation: the caller must have checked the action (or taken it from
           :meth:`legal_options`). An illegal action leaves the state undefined. Copy the state
           first if the original is still needed.
        """
        events: list[Event] = []
        handler = _HANDLERS[type(action)]
        handler(self, state, seat, action, events)
        if True in state.forfeited:
            self._play_forfeited(state, events)
        return events

    def _claim(self, s: ClassicState, seat: int, a: Claim, ev: list[Event]) -> None:
        s.owner[a.territory] = seat
        s.armies[a.territory] = 1
        s.reserve = _bump(s.reserve, seat, -1)
        ev.append({"type": "claimed", "seat": seat, "territory": a.territory})
        if UNCLAIMED in s.owner:
            s.seat = (seat + 1) % s.n
        else:
            s.phase = Phase.PLACE
            self._advance_setup(s, ev)

    def _place(self, s: ClassicState, seat: int, a: Place, ev: list[Event]) -> None:
        total = 0
        armies = s.armies
        for t, n in a.placements:
            armies[t] += n
            total += n
        placements = [list(p) for p in a.placements]
        if s.phase == Phase.PLACE:
            s.reserve = _bump(s.reserve, seat, -total)
            ev.append({"type": "placed", "seat": seat, "placements": placements})
            if self.config.neutral and s.neutral_reserve:
                s.phase = Phase.PLACE_NEUTRAL
            else:
                self._advance_setup(s, ev)
            return
        s.to_place = 0
        ev.append({"type": "reinforced", "seat": seat, "placements": placements})
        s.forced_trade = False
        if self.config.mode == "mission" and self._check_end(s, seat, ev):
            return
        self._enter_attack(s, ev)

    def _place_neutral(self, s: ClassicState, seat: int, a: PlaceNeutral, ev: list[Event]) -> None:
        s.armies[a.territory] += 1
        s.neutral_reserve -= 1
        ev.append({"type": "placed_neutral", "seat": seat, "territory": a.territory})
        self._advance_setup(s, ev)

    def _advance_setup(self, s: ClassicState, ev: list[Event]) -> None:
        """Pass setup placement to the next seat with armies left, or finish the setup."""
        s.phase = Phase.PLACE
        for step in range(1, s.n + 1):
            nxt = (s.seat + step) % s.n
            if s.reserve[nxt]:
                s.seat = nxt
                return
        if self.config.mode == "capital":
            s.phase = Phase.HEADQUARTERS
            return
        self._begin_play(s, ev)

    def _begin_play(self, s: ClassicState, ev: list[Event]) -> None:
        s.round = 1
        # Rounds are counted from the first player even when it went out during the setup.
        first = s.first if s.alive(s.first) else self._next_seat(s, s.first)
        self._start_turn(s, first, ev)

    def _choose_hq(
        self, s: ClassicState, seat: int, a: ChooseHeadquarters, ev: list[Event]
    ) -> None:
        s.hq_pending = _replace(s.hq_pending, seat, a.territory)
        if min(s.hq_pending) >= 0:
            s.hq = s.hq_pending
            s.hq_revealed = True
            s.deck = tuple(c for c in s.deck if c not in s.hq)
            ev.append({"type": "headquarters_revealed", "headquarters": list(s.hq)})
            self._begin_play(s, ev)

    def _start_turn(self, s: ClassicState, seat: int, ev: list[Event]) -> None:
        s.seat = seat
        s.turns += 1
        s.conquered = False
        s.bonus_given = False
        s.forced_trade = False
        s.to_place = self.reinforcements(s, seat)
        ev.append({"type": "turn", "seat": seat, "round": s.round, "reinforcements": s.to_place})
        s.phase = Phase.TRADE if cardlib.has_set(s.hands[seat], self._symbols) else Phase.REINFORCE

    def reinforcements(self, state: ClassicState, seat: int) -> int:
        """New armies for territories (÷3, minimum 3) and whole continents held."""
        owner = state.owner
        armies = max(3, owner.count(seat) // 3)
        for bonus, members in self._continents:
            if all(owner[t] == seat for t in members):
                armies += bonus
        return armies

    def _trade(self, s: ClassicState, seat: int, a: Trade, ev: list[Event]) -> None:
        if a.cards is None:
            s.phase = Phase.REINFORCE
            return
        trio = a.cards
        s.hands = _replace(s.hands, seat, tuple(c for c in s.hands[seat] if c not in trio))
        s.discard = s.discard + trio
        s.sets_traded += 1
        symbols = (self._symbols[trio[0]], self._symbols[trio[1]], self._symbols[trio[2]])
        value = cardlib.set_value(self.config.sets, s.sets_traded, symbols)
        s.to_place += value
        bonus = None
        if not s.bonus_given:
            eligible = [c for c in trio if c < self.board.size and s.owner[c] == seat]
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
            s.phase = Phase.TRADE if cardlib.has_set(hand, self._symbols) else Phase.REINFORCE

    def _enter_attack(self, s: ClassicState, ev: list[Event]) -> None:
        s.attack = None
        if self._can_attack(s, s.seat):
            s.phase = Phase.ATTACK
        else:
            self._enter_fortify(s, ev)

    def _enter_fortify(self, s: ClassicState, ev: list[Event]) -> None:
        if self._can_fortify(s, s.seat):
            s.phase = Phase.FORTIFY
        else:
            self._end_turn(s, ev)

    def _attack(self, s: ClassicState, seat: int, a: Attack, ev: list[Event]) -> None:
        s.attack = (a.source, a.target, a.dice, a.until, a.reroll)
        self._battle(s, ev)

    def _end_attack(self, s: ClassicState, seat: int, a: EndAttack, ev: list[Event]) -> None:
        s.attack = None
        self._enter_fortify(s, ev)

    def _battle(self, s: ClassicState, ev: list[Event]) -> None:
        """Roll the attack in progress (repeating as it asks) until a decision is needed."""
        while s.attack is not None:
            _src, dst = s.attack[0], s.attack[1]
            most = min(2, s.armies[dst])
            defender = self._defender_seat(s)
            if most == 1 or s.always_max[defender] or s.forfeited[defender]:
                if not self._roll(s, most, ev):
                    return
            else:
                s.phase = Phase.DEFEND
                return

    def _defend(self, s: ClassicState, seat: int, a: Defend, ev: list[Event]) -> None:
        if self._roll(s, a.dice, ev):
            self._battle(s, ev)

    def _roll(self, s: ClassicState, def_dice: int, ev: list[Event]) -> bool:
        """Roll one battle; return True if the attack goes on rolling without a decision."""
        assert s.attack is not None
        src, dst, dice, _, policy = s.attack
        n_att = min(dice, s.armies[src] - 1)
        i = s.dice_i
        rolled = s.streams.dice(i, n_att + def_dice)
        att, dfn = rolled[:n_att], rolled[n_att:]
        s.dice_i = i + n_att + def_dice
        if (
            self.config.advantage_reroll
            and policy != "never"
            and (src in s.hands[s.seat] or dst in s.hands[s.seat])
        ):
            if policy == "ask":
                s.roll = (att, dfn, def_dice)
                s.phase = Phase.REROLL
                return False
            att = self._auto_reroll(s, att, dfn, ev)
        return self._resolve(s, att, dfn, ev)

    def _auto_reroll(
        self, s: ClassicState, att: tuple[int, ...], dfn: tuple[int, ...], ev: list[Event]
    ) -> tuple[int, ...]:
        """Re-roll the attacker's lowest die among those that lost or tied their comparison."""
        ranked = sorted(range(len(att)), key=lambda k: -att[k])
        high_def = sorted(dfn, reverse=True)
        losing = [
            ranked[k] for k in range(min(len(att), len(dfn))) if att[ranked[k]] <= high_def[k]
        ]
        if not losing:
            return att
        return self._reroll_die(s, att, losing[-1], ev)

    def _reroll_die(
        self, s: ClassicState, att: tuple[int, ...], index: int, ev: list[Event]
    ) -> tuple[int, ...]:
        new = s.streams.die(s.dice_i)
        s.dice_i += 1
        ev.append({"type": "rerolled", "seat": s.seat, "die": index, "old": att[index], "new": new})
        return (*att[:index], new, *att[index + 1 :])

    def _reroll(self, s: ClassicState, seat: int, a: Reroll, ev: list[Event]) -> None:
        assert s.roll is not None
        att, dfn, _ = s.roll
        s.roll = None
        if a.die is not None:
            att = self._reroll_die(s, att, a.die, ev)
        if self._resolve(s, att, dfn, ev):
            self._battle(s, ev)

    def _resolve(
        self, s: ClassicState, att: tuple[int, ...], dfn: tuple[int, ...], ev: list[Event]
    ) -> bool:
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
            self._capture(s, src, dst, len(att), ev)
            return False
        if until is not None and s.armies[src] > until and s.armies[src] >= 2:
            return True
        self._enter_attack(s, ev)
        return False

    def _capture(self, s: ClassicState, src: int, dst: int, moved: int, ev: list[Event]) -> None:
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
            s.hands = _replace(_replace(s.hands, seat, s.hands[seat] + taken), previous, ())
            ev.append({"type": "eliminated", "seat": previous, "by": seat, "cards": len(taken)})
            if taken:
                ev.append(
                    {"type": "cards_taken", "seat": seat, "from": previous, "cards": list(taken)}
                )
            if len(s.hands[seat]) >= 6:
                s.forced_trade = True
        if self._check_end(s, seat, ev):
            return
        if s.armies[src] > 1:
            s.occupy = (src, dst, moved)
            s.phase = Phase.OCCUPY
        else:
            self._after_capture(s, ev)

    def _occupy(self, s: ClassicState, seat: int, a: Occupy, ev: list[Event]) -> None:
        assert s.occupy is not None
        src, dst, least = s.occupy
        extra = a.armies - least
        s.armies[src] -= extra
        s.armies[dst] += extra
        s.occupy = None
        ev.append({"type": "occupied", "seat": seat, "from": src, "to": dst, "armies": a.armies})
        if self.config.mode == "mission" and self._check_end(s, seat, ev):
            return
        self._after_capture(s, ev)

    def _after_capture(self, s: ClassicState, ev: list[Event]) -> None:
        if s.forced_trade:
            s.to_place = 0
            s.phase = Phase.TRADE
        else:
            self._enter_attack(s, ev)

    def _fortify(self, s: ClassicState, seat: int, a: Fortify, ev: list[Event]) -> None:
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
        if self.config.mode == "mission" and self._check_end(s, seat, ev):
            return
        self._end_turn(s, ev)

    def _end_turn_action(self, s: ClassicState, seat: int, a: EndTurn, ev: list[Event]) -> None:
        self._end_turn(s, ev)

    def _end_turn(self, s: ClassicState, ev: list[Event]) -> None:
        seat = s.seat
        if s.conquered:
            self._draw(s, seat, ev)
        nxt = self._next_seat(s, seat)
        pos = (nxt - s.first) % s.n
        if pos <= (seat - s.first) % s.n:
            if s.round >= self.config.max_rounds:
                self._finish(s, Termination.ROUND_LIMIT, None, ev)
                return
            s.round += 1
        self._start_turn(s, nxt, ev)

    def _next_seat(self, s: ClassicState, seat: int) -> int:
        for step in range(1, s.n + 1):
            nxt = (seat + step) % s.n
            if nxt not in s.eliminated:
                return nxt
        return seat

    def _draw(self, s: ClassicState, seat: int, ev: list[Event]) -> None:
        if not s.deck:
            s.deck, s.discard = tuple(sorted(s.discard)), ()
            if not s.deck:
                return
        index = s.streams.pick("cards", s.card_i, len(s.deck))
        s.card_i += 1
        card = s.deck[index]
        s.deck = s.deck[:index] + s.deck[index + 1 :]
        s.hands = _replace(s.hands, seat, (*s.hands[seat], card))
        ev.append({"type": "card_drawn", "seat": seat, "card": card})

    # ------------------------------------------------------------ game end

    def mission_done(self, state: ClassicState, seat: int) -> bool:
        """Whether ``seat`` has accomplished its secret mission."""
        mission = MISSIONS[state.missions[seat]]
        if mission.kind == "destroy":
            if mission.target != seat:
                # The rule book: a colour destroyed by anyone (or out of the game) counts.
                return mission.target in state.eliminated
            mission = FALLBACK
        owner = state.owner
        if mission.kind == "territories":
            armies = state.armies
            held = sum(
                1 for t, o in enumerate(owner) if o == seat and armies[t] >= mission.min_armies
            )
            return held >= mission.territories
        return all(
            owner[t] == seat for name in mission.continents for t in self._continent_by_name[name]
        )

    def capitals_done(self, state: ClassicState, seat: int) -> bool:
        """Capital RISK: ``seat`` holds its own HQ and enough opposing HQs."""
        if not state.hq_revealed or state.owner[state.hq[seat]] != seat:
            return False
        captured = sum(1 for s, t in enumerate(state.hq) if s != seat and state.owner[t] == seat)
        need = self.config.short_capitals or state.n - 1
        return captured >= need

    def _check_end(self, s: ClassicState, actor: int, ev: list[Event]) -> bool:
        """End the game if someone has won; returns whether it ended."""
        active = [p for p in range(s.n) if p not in s.eliminated]
        if len(active) <= 1:
            self._finish(s, Termination.DOMINATION, active[0] if active else None, ev)
            return True
        mode = self.config.mode
        if mode == "world":
            return False
        order = [(actor + k) % s.n for k in range(s.n)]
        for p in order:
            if p in s.eliminated:
                continue
            if mode == "mission" and self.mission_done(s, p):
                ev.append({"type": "mission_revealed", "seat": p, "mission": s.missions[p]})
                self._finish(s, Termination.MISSION, p, ev)
                return True
            if mode == "capital" and self.capitals_done(s, p):
                self._finish(s, Termination.CAPITALS, p, ev)
                return True
        return False

    def _finish(
        self, s: ClassicState, why: Termination, winner: int | None, ev: list[Event]
    ) -> None:
        s.phase = Phase.OVER
        s.attack = s.roll = s.occupy = None
        s.end = why.value
        places = [0] * s.n
        survivors = [p for p in range(s.n) if p not in s.eliminated and p != winner]
        counts = {p: s.owner.count(p) for p in survivors}
        strength = {p: sum(a for t, a in enumerate(s.armies) if s.owner[t] == p) for p in survivors}
        survivors.sort(key=lambda p: (-counts[p], -strength[p]))
        place = 1
        if winner is not None:
            places[winner] = 1
            place = 2
        for i, p in enumerate(survivors):
            tied = i and (counts[p], strength[p]) == (
                counts[survivors[i - 1]],
                strength[survivors[i - 1]],
            )
            places[p] = places[survivors[i - 1]] if tied else place + i
        place += len(survivors)
        for p in reversed(s.eliminated):
            places[p] = place
            place += 1
        if winner is None and places.count(1) == 1:
            winner = places.index(1)
        s.winner = winner
        s.places = tuple(places)
        ev.append({"type": "game_over", "reason": s.end, "winner": winner, "places": places})

    def outcome(self, state: ClassicState) -> Outcome | None:
        """The result once the game is over, else None."""
        if state.places is None or state.end is None:
            return None
        return Outcome(state.places, state.winner, state.end)

    # ------------------------------------------------- defaults and forfeit

    def default_action(self, state: ClassicState, seat: int) -> Action:
        """The documented action applied for a seat that does not answer in time.

        claim: the lowest-id unclaimed territory; place/place_neutral: the eligible territory
        with the fewest armies; headquarters: the own territory with the most armies; trade: the
        first set when trading is required, else none; reinforce: spread evenly over own
        territories that border an enemy (fewest armies first); attack: end the attack;
        defend: the maximum dice; re-roll: none; occupy: the minimum; fortify: none.
        """
        options = self.legal_options(state, seat)
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
            return Place(self._spread(state, seat, options.armies))
        if kind == "attack":
            return EndAttack()
        if kind == "defend":
            return Defend(options.max_dice)
        if kind == "reroll":
            return Reroll(None)
        if kind == "occupy":
            return Occupy(options.min_armies)
        return EndTurn()

    def _spread(self, state: ClassicState, seat: int, count: int) -> tuple[tuple[int, int], ...]:
        owner = state.owner
        own = [t for t, o in enumerate(owner) if o == seat]
        border = [t for t in own if any(owner[nb] != seat for nb in self._neighbours[t])]
        targets = sorted(border or own, key=lambda t: (state.armies[t], t))
        share: dict[int, int] = {}
        for k in range(count):
            t = targets[k % len(targets)]
            share[t] = share.get(t, 0) + 1
        return tuple(sorted(share.items()))

    def forfeit(self, state: ClassicState, seat: int) -> Step[ClassicState]:
        """Take ``seat`` out of the game (strikes, crash, disconnect): a new state and events.

        Its armies stay on the board as neutral defenders that always roll the maximum; its
        place is behind every seat still in the game; its cards are discarded; a mission to
        destroy it counts as done; its headquarters stays a headquarters to capture. Setup
        choices still due from it are made by :meth:`default_action`.
        """
        if not 0 <= seat < state.n or seat in state.eliminated:
            raise IllegalActionError(f"seat {seat} is not in the game and cannot forfeit")
        if state.phase == Phase.OVER:
            raise IllegalActionError("the game is over; no seat can forfeit")
        s = state.copy()
        ev: list[Event] = [{"type": "forfeited", "seat": seat}]
        s.eliminated = (*s.eliminated, seat)
        s.forfeited = _replace(s.forfeited, seat, True)
        s.discard = s.discard + s.hands[seat]
        s.hands = _replace(s.hands, seat, ())
        if self._check_end(s, seat, ev):
            return Step(s, ev)
        turn_phase = s.phase not in (
            Phase.CLAIM,
            Phase.PLACE,
            Phase.PLACE_NEUTRAL,
            Phase.HEADQUARTERS,
        )
        if turn_phase and s.seat == seat:
            s.attack = s.roll = s.occupy = None
            s.conquered = False
            self._end_turn(s, ev)
        elif s.phase == Phase.DEFEND:
            self._battle(s, ev)
        self._play_forfeited(s, ev)
        return Step(s, ev)

    def _play_forfeited(self, s: ClassicState, ev: list[Event]) -> None:
        """Make the setup choices due from forfeited seats with their default actions."""
        for _ in range(4 * self.board.size * self.n):
            decision = self.decision(s)
            if decision is None:
                return
            due = [p for p in decision.seats if s.forfeited[p]]
            if not due:
                return
            action = self.default_action(s, due[0])
            _HANDLERS[type(action)](self, s, due[0], action, ev)

    # ----------------------------------------------------------------- view

    def view(self, state: ClassicState, seat: int) -> dict[str, object]:
        """What ``seat`` may see (see :func:`arena.games.classic.view.view_for`)."""
        from arena.games.classic.view import view_for

        return view_for(self, state, seat)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_placements(value: object) -> bool:
    return isinstance(value, tuple) and all(
        isinstance(p, tuple) and len(p) == 2 and _is_int(p[0]) and _is_int(p[1]) for p in value
    )


def _is_cards(value: object) -> bool:
    return value is None or (
        isinstance(value, tuple) and len(value) == 3 and all(map(_is_int, value))
    )


def _is_int_or_none(value: object) -> bool:
    return value is None or _is_int(value)


def _is_str(value: object) -> bool:
    return isinstance(value, str)


_FIELD_TESTS: dict[str, Callable[[object], bool]] = {
    "reroll": _is_str,
    "placements": _is_placements,
    "cards": _is_cards,
    "until": _is_int_or_none,
    "die": _is_int_or_none,
    "bonus_territory": _is_int_or_none,
}
"""The type test of each action field that is not a plain integer."""

_FIELDS_OF: dict[type, tuple[tuple[str, Callable[[object], bool], bool], ...]] = {}
"""Per action class: each field's name, type test and whether an exact ``int`` passes that
test (filled on first use; a class's fields never change, so the entry stays right)."""


def _check_field_types(action: Action) -> None:
    """Reject fields of the wrong type (e.g. ``until=1.0``) before any rule looks at them."""
    cls = type(action)
    fields = _FIELDS_OF.get(cls)
    if fields is None:
        tests = [(name, _FIELD_TESTS.get(name, _is_int)) for name in action.__dataclass_fields__]
        fields = _FIELDS_OF[cls] = tuple((name, test, test(0)) for name, test in tests)
    for name, test, int_passes in fields:
        value = getattr(action, name)
        if (int_passes and type(value) is int) or test(value):
            continue
        raise IllegalActionError(
            f"{type(action).__name__}.{name} has the wrong type: {value!r}", action
        )


def _bump(values: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    return (*values[:index], values[index] + delta, *values[index + 1 :])


def _replace(values: tuple, index: int, value: object) -> tuple:
    return (*values[:index], value, *values[index + 1 :])


# Each handler takes its own action class; the table is looked up by ``type(action)``, so the
# action argument is typed loosely here.
_Handler = Callable[[ClassicRules, ClassicState, int, Any, list[Event]], None]

_HANDLERS: dict[type, _Handler] = {
    Claim: ClassicRules._claim,
    Place: ClassicRules._place,
    PlaceNeutral: ClassicRules._place_neutral,
    ChooseHeadquarters: ClassicRules._choose_hq,
    Trade: ClassicRules._trade,
    Attack: ClassicRules._attack,
    EndAttack: ClassicRules._end_attack,
    Defend: ClassicRules._defend,
    Reroll: ClassicRules._reroll,
    Occupy: ClassicRules._occupy,
    Fortify: ClassicRules._fortify,
    EndTurn: ClassicRules._end_turn_action,
}
