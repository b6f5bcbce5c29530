"""What a spectator of a RISK: Europe replay sees: per territory its owner, attacker, units
by type and castle, per army its coins, crowns and cards held, the Europe narrator's lines,
and at the end every seat's hand and missions."""

from __future__ import annotations

from typing import Any

from arena.games.api import Game
from arena.games.europe.missions import MISSIONS
from arena.games.europe.narrate import Narrator, record_line

REVEALED = "revealed after the match"
PUBLIC = ("army", "mercenary", "alive", "controller", "coins", "crowns", "crown_cards")
"""The fields of an army every seat sees."""


class EuropeSpectator:
    """Frames of one Europe replay (see :class:`arena.web.frames.Spectator`)."""

    def __init__(self, header: dict[str, Any], game: Game[Any, Any, Any], start: Any) -> None:
        self.game = game
        names = [str(s.get("bot")) for s in header.get("seats", [])]
        self.narrator = Narrator(names, game.players)

    def board(self, state: Any) -> dict[str, Any]:
        view = self.game.view(state, 0)
        return {
            "territories": view["territories"],
            "armies": [
                {**{k: a[k] for k in PUBLIC}, "hand_size": a.get("hand_size", 0)}
                for a in view["armies"]
            ],
        }

    def lines(self, record: dict[str, Any]) -> list[str]:
        found = []
        if record.get("type") in ("rejected", "timeout", "forfeit"):
            found.append(record_line(self.narrator, record))
        found += [text for e in record.get("events", []) if (text := self.narrator.event(e))]
        if record.get("type") == "result":
            found.append(self.narrator.result(record))
        return found

    def attacks(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        """None drawn apart: a battle is fought in one territory, whose attacker the board
        already shows."""
        return []

    def revealed(self, state: Any) -> list[dict[str, Any]]:
        shown = []
        for seat in range(self.game.players):
            army = self.game.view(state, seat)["armies"][seat]
            missions = [MISSIONS[m] for m in army.get("missions", []) if 0 <= m < len(MISSIONS)]
            shown.append(
                {
                    "seat": seat,
                    "label": REVEALED,
                    "hand": [self.narrator.card(c) for c in army.get("hand", [])],
                    "mission": "; ".join(missions) or None,
                }
            )
        return shown


def spectator(header: dict[str, Any], game: Game[Any, Any, Any], start: Any) -> EuropeSpectator:
    return EuropeSpectator(header, game, start)
