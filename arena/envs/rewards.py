"""Rewards from places: +1 for first place, -1 for last, linear between; seats sharing a
place share the rewards of the places they cover (their average).

A seat that goes out gets its reward then: the game ranks the seats that went out below
every survivor, the latest out highest, so the k-th seat out (from 0) of ``n`` has place
``n - k``. A game stopped at its round cap is a truncation: no place reward."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence


def place_reward(place: int, players: int, shared: int = 1) -> float:
    """The reward of ``place`` (1 = best) among ``players`` seats, shared by ``shared`` seats
    (who then cover places ``place .. place + shared - 1``)."""
    if players < 2:
        return 0.0
    covered = range(place, place + shared)
    return sum(1.0 - 2.0 * (p - 1) / (players - 1) for p in covered) / shared


def place_rewards(places: Sequence[int]) -> list[float]:
    """Each seat's reward from a finished game's places (ties averaged)."""
    sharing = Counter(places)
    return [place_reward(p, len(places), sharing[p]) for p in places]


def out_place(order: int, players: int) -> int:
    """The place of the ``order``-th seat to go out (0 = the first)."""
    return players - order
