"""Alias of :mod:`arena.sdk.classic.tactics`, kept so bots' ``from arena.sdk.tactics import``
works unchanged: the helpers are classic RISK's and live in the classic SDK package.

Compatibility: with :mod:`arena.sdk`'s re-export of classic's actions, the one place outside
:mod:`arena.sdk.classic` that names the game (docs/architecture.md)."""

from arena.sdk.classic.tactics import (
    BoardInfo,
    Continent,
    capture_odds,
    chain_odds,
    chain_prefix_odds,
    reroll_choice,
    shortest_path,
    threat,
)

__all__ = [
    "BoardInfo",
    "Continent",
    "capture_odds",
    "chain_odds",
    "chain_prefix_odds",
    "reroll_choice",
    "shortest_path",
    "threat",
]
