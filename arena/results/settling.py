"""When a rating has settled: its sigma is under :data:`SETTLED_SIGMA`.

TrueSkill's sigma shrinks with every game and, because of the dynamics ``TAU``, levels off
near 0.8 for a bot that plays steadily; 1.5 is well above that floor, so every version that
keeps playing gets there (about 30 two-player games, fewer in larger tables, from the prior
8.33), and it is a fifth of the prior: the version's ``mu`` is known to about ±3 points, less
than the gap that gives one bot a 70 % edge over another (``BETA`` = 4.17). A ladder run with
``--until-settled`` stops once every entered version is settled.
"""

from __future__ import annotations

SETTLED_SIGMA: float = 1.5
"""A rating whose sigma is at most this has settled."""


def is_settled(sigma: float) -> bool:
    """Whether a rating with this uncertainty has settled."""
    return sigma <= SETTLED_SIGMA
