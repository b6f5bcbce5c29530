"""Classic RISK (1993 World Domination RISK and its variants) as a pure rules engine.

>>> from arena.games.classic import ClassicConfig, ClassicRules
>>> rules = ClassicRules(ClassicConfig.parse({}, players=3))
>>> state = rules.new_game(seed=7)
>>> rules.decision(state).kind
'claim'
>>> len(rules.legal_options(state, state.seat).territories)
42
"""

from arena.games.classic.actions import (
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
    action_from_dict,
    action_to_dict,
)
from arena.games.classic.board import Board, classic_board
from arena.games.classic.config import ClassicConfig
from arena.games.classic.options import Options, action_from_index, choices
from arena.games.classic.rules import ClassicRules
from arena.games.classic.rules.end import Termination
from arena.games.classic.state import NEUTRAL, UNCLAIMED, ClassicState, Phase

__all__ = [
    "NEUTRAL",
    "UNCLAIMED",
    "Action",
    "Attack",
    "Board",
    "ChooseHeadquarters",
    "Claim",
    "ClassicConfig",
    "ClassicRules",
    "ClassicState",
    "Defend",
    "EndAttack",
    "EndTurn",
    "Fortify",
    "Occupy",
    "Options",
    "Phase",
    "Place",
    "PlaceNeutral",
    "Reroll",
    "Termination",
    "Trade",
    "action_from_dict",
    "action_from_index",
    "action_to_dict",
    "choices",
    "classic_board",
]
