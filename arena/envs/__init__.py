"""Training environments over the arena's games (the optional extra ``risk-arena[rl]``):
a PettingZoo AEC environment where every seat is an agent (:func:`aec_env`), a Gymnasium
environment for one seat against bundled bots (:func:`single_agent_env`), and each game's
encoder of a seat's view into fixed-shape arrays (:func:`encoder_for`).
docs/training.md describes the observations, actions and rewards."""

from arena.envs.aec import ArenaAECEnv, aec_env
from arena.envs.encoding import Encoder, encoder_for
from arena.envs.single import SingleAgentEnv, single_agent_env

__all__ = [
    "ArenaAECEnv",
    "Encoder",
    "SingleAgentEnv",
    "aec_env",
    "encoder_for",
    "single_agent_env",
]
