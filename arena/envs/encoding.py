"""The per-game encoder: a seat's view as a fixed-shape array of numbers in [0, 1].

An environment needs the same numbers in the same places at every decision, whatever the
position; a game's view is plain JSON of varying length. Each game's encoder, in
``arena/envs/games/NAME.py`` (found by the game's name, like the other layers' per-game
modules), turns the view one seat may see — the same redacted dict the protocol sends — into
that array, so an observation never holds what the seat could not see.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from arena import games
from arena.errors import ConfigError
from arena.games.api import Game

ENCODERS = "arena.envs.games"
"""The package holding one encoder module per game, named after the game."""

Observation = npt.NDArray[np.float32]
"""One seat's observation: float32, shape ``(observation_size(),)``, values in [0, 1]."""


class Encoder(Protocol):
    """A game's fixed-shape numbers for one seat's decision, built from that seat's view only."""

    max_actions: int
    """Size of the Discrete action space: action ``i`` is ``game.choices(options)[i]``."""

    def observation_size(self) -> int:
        """Length of the float32 observation vector."""
        ...

    def encode(self, view: Mapping[str, Any], kind: str) -> Observation:
        """The observation of the seat whose view this is, deciding a ``kind`` decision:
        float32, shape ``(observation_size(),)``, every value in [0, 1]."""
        ...

    def layout(self) -> list[tuple[str, int]]:
        """Named blocks in order, their lengths summing to :meth:`observation_size`."""
        ...


def encoder_for(game: Game[Any, Any, Any]) -> Encoder:
    """The encoder of the configured ``game`` (its players, board and rules), from
    ``arena.envs.games.<name>``; a one-line :class:`ConfigError` for a game without one."""
    name = game.info.name
    module = games.layer_module(ENCODERS, name)
    make = getattr(module, "encoder", None)
    if make is None:
        having = ", ".join(encoded_games()) or "none"
        raise ConfigError(
            f"game {name!r} has no environment encoder (arena/envs/games/{name}.py); "
            f"games with one: {having}"
        )
    encoder: Encoder = make(game)
    return encoder


def encoded_games() -> tuple[str, ...]:
    """The registered games that have an encoder module, in the registry's order."""
    return tuple(name for name in games.names() if games.layer_module(ENCODERS, name) is not None)


def observation_space(encoder: Encoder) -> spaces.Dict:
    """Every agent's observation space: the encoder's numbers and the action mask, as
    PettingZoo's classic games (chess, connect four) shape theirs."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (encoder.observation_size(),), np.float32),
            "action_mask": spaces.Box(0, 1, (encoder.max_actions,), np.int8),
        }
    )
