"""What happened, in the game's own words: the environments keep the game's records as a
replay would hold them and hand them to the game's narrator (the one ``arena replay show``
uses, found by the game's name), telling only the lines not told yet."""

from __future__ import annotations

from typing import Any

from gymnasium import logger

from arena import games
from arena.games.api import Game
from arena.replays.text import record_blocks


class Narration:
    """One episode's replay header and how much of its records' telling was given out."""

    def __init__(self, game: Game[Any, Any, Any], names: list[str]) -> None:
        self.game = game
        self.names = names
        self.narrator = games.narrator(game.info.name) or record_blocks
        self.header: dict[str, Any] = {}
        self.told = 0

    def start(self, seed: int, declarations: list[dict[str, Any]]) -> None:
        """A new episode: its header, nothing told."""
        self.header = {
            "game": self.game.info.name,
            "match_id": "",
            "seed": seed,
            "rules": self.game.config(),
            "seats": [{"seat": i, "bot": n, "version": ""} for i, n in enumerate(self.names)],
            "declarations": declarations,
        }
        self.told = 0

    def news(self, records: list[dict[str, Any]]) -> str:
        """The lines the episode's ``records`` tell beyond those told by the last call (a
        narrator only adds lines at the end of its telling as records come, so the telling
        so far is a prefix of the next)."""
        lines = [line for block in self.narrator(self.header, records) for line in block]
        fresh, self.told = lines[self.told :], len(lines)
        return "\n".join(fresh)

    def render(self, mode: str | None, records: list[dict[str, Any]]) -> str | None:
        """An environment's ``render()``: the news returned ("ansi") or printed ("human",
        where each step renders); a warning without a render mode, as the field's
        environments give."""
        if mode is None:
            logger.warn("render() was called without a render_mode (choose ansi or human)")
            return None
        text = self.news(records)
        if mode == "human":
            if text:
                print(text)
            return None
        return text
