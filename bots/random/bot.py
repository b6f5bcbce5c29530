"""The random bot: uniform over the legal options, reproducible from the match seed and seat.

It is the arena's baseline and a template: every decision is answered from the request's
options alone, with no rules code. In classic it also draws dice and army counts; in any
other game (RISK: Europe) it picks uniformly among the request's complete choices.
"""

from __future__ import annotations

import random

from arena.sdk import Answer, Attack, Bot, Fortify, MatchInfo, Place, Request


class RandomBot(Bot):
    """Chooses uniformly: among the options, then among dice counts and army counts."""

    name = "random"
    version = "1.0"

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.rng = random.Random(match.bot_seed)

    def choose(self, request: Request) -> Answer:
        options, rng = request.options, self.rng
        if request.game != "classic":
            return rng.randrange(len(request.choices))
        if request.kind == "reinforce" or (request.kind == "place" and options.armies > 1):
            share: dict[int, int] = {}
            for _ in range(options.armies):
                t = rng.choice(options.territories)
                share[t] = share.get(t, 0) + 1
            return Place(tuple(sorted(share.items())))
        index = rng.randrange(len(request.choices))
        picked = request.choices[index]
        if isinstance(picked, Attack):
            return Attack(picked.source, picked.target, rng.randint(1, picked.dice))
        if isinstance(picked, Fortify):
            return Fortify(picked.source, picked.target, rng.randint(1, picked.armies))
        return index


if __name__ == "__main__":
    RandomBot().run()
