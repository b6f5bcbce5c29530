"""A trained policy as an arena bot: the runner `examples/train_classic.py` copies into the bot
folder it writes, as that folder's ``bot.py``, beside the weights (``weights.npz``).

It needs only an installed arena with the ``rl`` extra (``pip install 'risk-arena[rl]'``):
each request's view is encoded as the training environment encoded it
(``arena.envs.encoder_for``), the policy scores the action space, and the bot answers the
index of the best-scored of the request's listed choices (the same index the environment's
action ``i`` means: ``choices[i]``). At play time it is greedy.

The policy is linear: ``logits = weights @ observation + bias + position``, one row per
action index; ``position`` adds, per decision kind (the observation's ``decision_kind``
block), a learned score for the last of the decision's choices (where the game lists "end the
attack", "end the turn", "no trade" and an occupation's largest move) and one for the place
of each other choice in the list (0 for the first, 1 for the one before the last), so one
policy can prefer a choice by what it is across decisions of any length. It was trained for one player count, whose observation layout the weights file keeps; in a
game of another count the blocks whose length depends on the player count (the seats'
holdings, figures, headquarters and missions) are left out and the rest is used as trained.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from arena import games
from arena.envs import encoder_for
from arena.envs.encoding import Encoder
from arena.sdk import Answer, Bot, MatchInfo, Request, default_answer

WEIGHTS = "weights.npz"
"""The weights file, beside this one."""
GAME = "classic"
"""The game the policy was trained for."""

Matrix = npt.NDArray[np.float32]


KIND_BLOCK = "decision_kind"
"""The observation block naming the decision kind, one-hot: what the position terms read."""
LAST, PLACE = 0, 1
"""The columns of ``position``: the last choice's score, the score per place in the list."""


def places(allowed: int) -> Matrix:
    """The place in the list of each choice but the last: 0 for the first, 1 for the one
    before the last."""
    return np.linspace(0.0, 1.0, allowed - 1, dtype=np.float32)


class LinearPolicy:
    """Logits over the action space from one observation (see the module's docstring)."""

    def __init__(
        self, weights: Matrix, bias: Matrix, position: Matrix, layout: list[tuple[str, int]]
    ) -> None:
        if weights.ndim != 2 or bias.shape != (weights.shape[0],):
            raise ValueError(f"weights {weights.shape} and bias {bias.shape} do not match")
        if sum(length for _, length in layout) != weights.shape[1]:
            raise ValueError("the weights' layout does not add up to their observation size")
        at = 0
        for name, length in layout:
            if name == KIND_BLOCK:
                break
            at += length
        else:
            raise ValueError(f"the layout has no {KIND_BLOCK!r} block")
        if position.shape != (length, 2):
            raise ValueError(f"position {position.shape} needs one row per decision kind")
        self.weights = weights
        self.bias = bias
        self.position = position
        self.layout = layout
        self.kinds = slice(at, at + length)
        """Where the observation holds the decision kind."""

    @property
    def max_actions(self) -> int:
        return int(self.weights.shape[0])

    def logits(self, observation: Matrix, allowed: int) -> Matrix:
        """The scores of the first ``allowed`` actions (the ones the mask opens)."""
        scores: Matrix = self.weights[:allowed] @ observation + self.bias[:allowed]
        last, place = observation[self.kinds] @ self.position
        scores[allowed - 1] += last
        if allowed > 2:
            scores[: allowed - 1] += place * places(allowed)
        return scores

    def best(self, observation: Matrix, allowed: int) -> int:
        """The greedy action among the first ``allowed``."""
        return int(np.argmax(self.logits(observation, allowed)))

    def save(self, path: Path) -> None:
        names = np.array([name for name, _ in self.layout])
        lengths = np.array([length for _, length in self.layout], dtype=np.int64)
        with path.open("wb") as out:
            np.savez(
                out,
                weights=self.weights,
                bias=self.bias,
                position=self.position,
                blocks=names,
                lengths=lengths,
            )

    @classmethod
    def load(cls, path: Path) -> LinearPolicy:
        with np.load(path, allow_pickle=False) as data:
            layout = [
                (str(name), int(length))
                for name, length in zip(data["blocks"], data["lengths"], strict=True)
            ]
            weights = data["weights"].astype(np.float32)
            bias = data["bias"].astype(np.float32)
            position = data["position"].astype(np.float32)
        return cls(weights, bias, position, layout)

    def adapted(self, layout: list[tuple[str, int]], max_actions: int) -> LinearPolicy:
        """The policy for another observation layout (another player count): each block of
        ``layout`` the weights hold at the same length keeps its columns, the others get 0;
        action rows past the trained ones score 0."""
        if layout == self.layout and max_actions == self.max_actions:
            return self
        trained: dict[str, tuple[int, int]] = {}
        at = 0
        for name, length in self.layout:
            trained[name] = (at, length)
            at += length
        size = sum(length for _, length in layout)
        rows = min(max_actions, self.max_actions)
        weights = np.zeros((max_actions, size), dtype=np.float32)
        bias = np.zeros(max_actions, dtype=np.float32)
        bias[:rows] = self.bias[:rows]
        at = 0
        for name, length in layout:
            start, was = trained.get(name, (0, -1))
            if was == length:
                weights[:rows, at : at + length] = self.weights[:rows, start : start + length]
            at += length
        return LinearPolicy(weights, bias, self.position, list(layout))


class PolicyBot(Bot):
    """Answers every classic decision with the policy's greedy choice."""

    name = "trained-classic"
    version = "1"
    games = (GAME,)

    def __init__(self) -> None:
        self.trained = LinearPolicy.load(Path(__file__).resolve().parent / WEIGHTS)
        self.policy = self.trained
        self.encoder: Encoder | None = None

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        game = games.load(match.game).from_config(match.rules)
        self.encoder = encoder = encoder_for(game)
        self.policy = self.trained.adapted(encoder.layout(), encoder.max_actions)

    def choose(self, request: Request) -> Answer:
        encoder = self.encoder
        if encoder is None or not request.choices:
            return default_answer(request)
        observation = encoder.encode(request.view, request.kind)
        allowed = min(len(request.choices), encoder.max_actions)
        return self.policy.best(observation, allowed)

    def finish(self, result: dict[str, Any]) -> None:
        self.encoder = None


if __name__ == "__main__":
    PolicyBot().run()
