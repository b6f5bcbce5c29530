"""The planner bot: plans chains of captures by what they gain, cut where exact odds fail.

Frozen: this is the former ``strong`` 1.0, kept unchanged as the fixed reference the ladder
benchmark measures the top bot against (``benchmarks/ladder.py --tables ref3,ref6,ref2``).
Its policy lives in :mod:`arena.sdk.classic.planner`, where other bots can play it too
(``strong`` opens with it); the golden games of ``tests/games/classic/golden`` pin its moves.
"""

from .chains import PlannerBot

__all__ = ["PlannerBot"]

if __name__ == "__main__":
    PlannerBot().run()
