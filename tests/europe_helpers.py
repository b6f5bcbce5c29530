"""Building RISK: Europe positions by hand for rule tests: an empty board in a chosen phase,
units placed where a test wants them, and dice the test scripts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from arena.games.europe.actions import Units
from arena.games.europe.board import europe_board
from arena.games.europe.config import ARMIES, EuropeConfig
from arena.games.europe.rules import FULL_HAND, EuropeRules
from arena.games.europe.state import NOBODY, EuropeState
from arena.games.streams import Streams

BOARD = europe_board()


def t(name: str) -> int:
    """A territory's number by its name, key or alias (``t("Rome")``)."""
    return BOARD.index(name)


class ScriptedDice(Streams):
    """Streams whose dice (battles, Siege Assaults) and tie-break rolls are lists the test
    gives: die ``i`` of the match is ``dice[i]``, as a real stream's is a function of ``i``
    alone. A check reads none of them (its verdict must not depend on dice to come); asking
    past the end fails the test loudly."""

    def __init__(self, dice: Iterable[int] = (), ties: Iterable[int] = ()) -> None:
        super().__init__(0)
        self.script = list(dice)
        self.tie_script = list(ties)

    def dice(self, i: int, n: int) -> tuple[int, ...]:
        if i + n > len(self.script):
            raise AssertionError(f"dice {i}..{i + n - 1} asked; the test scripted {self.script}")
        return tuple(self.script[i : i + n])

    def pick(self, stream: str, i: int, n: int) -> int:
        if stream != "ties":
            return super().pick(stream, i, n)
        if i >= len(self.tie_script):
            raise AssertionError(f"tie roll {i} asked; the test scripted {self.tie_script}")
        return self.tie_script[i] - 1


def rules(players: int = 4, **options: str) -> EuropeRules:
    return EuropeRules(EuropeConfig.parse(options, players))


def empty(
    game: EuropeRules,
    dice: Iterable[int] = (),
    declarations: Iterable[Mapping[str, Any]] = (),
    seed: int = 1,
    ties: Iterable[int] = (),
) -> EuropeState:
    """Round 1, turn 1, before anyone's turn: nobody holds anything (mercenaries removed
    too), every army has its full reserve, 5 coins, a full hand; dice scripted when given."""
    state = game.new_game(seed, list(declarations))
    for army in range(ARMIES):
        for territory in range(BOARD.size):
            units = state.of(territory, army)
            for kind, n in enumerate(units):
                state.units[(territory * ARMIES + army) * 4 + kind] = 0
                state.reserve[army * 4 + kind] += n
    state.owner = [NOBODY] * BOARD.size
    state.attacker = [NOBODY] * BOARD.size
    state.castle = [False] * BOARD.size
    state.castles_left = 8
    state.coins = [5] * ARMIES
    state.hand = [FULL_HAND] * ARMIES
    state.round, state.turn, state.phase = 1, 1, "turn"
    state.marker = 0
    state.order = game.turn_order(state)
    state.queue = []
    dice, ties = list(dice), list(ties)
    if dice or ties:
        state.streams = ScriptedDice(dice, ties)
    return state


def put(state: EuropeState, territory: int | str, army: int, units: Units) -> None:
    """Put ``units`` of ``army`` on ``territory`` from its reserve; the first army put on a
    territory owns it, a second one is its attacker (the territory is then disputed)."""
    where = t(territory) if isinstance(territory, str) else territory
    base = (where * ARMIES + army) * 4
    for kind, n in enumerate(units):
        state.units[base + kind] += n
        state.reserve[army * 4 + kind] -= n
        assert state.reserve[army * 4 + kind] >= 0, "more units than the army holds"
    if state.owner[where] == NOBODY:
        state.owner[where] = army
    elif state.owner[where] != army and state.attacker[where] == NOBODY:
        state.attacker[where] = army
        state.disputes.append(where)


def my_turn(state: EuropeState, game: EuropeRules, army: int, card: int, turn: int = 1) -> None:
    """Make it ``army``'s turn with ``card`` face up (the decision is then its ``turn``)."""
    if turn == 1:
        state.first[army] = card
    else:
        state.second[army] = card
    state.hand[army] &= ~(1 << card)
    state.turn = turn
    state.phase = "turn"
    state.queue = [army]
    state.revealed = army
