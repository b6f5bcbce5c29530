"""What a spectator of a classic RISK replay sees: owners, armies, cards and reserves per
step, the classic narrator's sentences, each step's attacks, and at the end every seat's hand and mission."""

from __future__ import annotations

from typing import Any

from arena.games.api import Game
from arena.games.classic.narrate import Narrator

REVEALED = "revealed after the match"
BATTLE = (
    "seat",
    "from",
    "to",
    "attacker_dice",
    "defender_dice",
    "attacker_losses",
    "defender_losses",
)
"""What a battle event tells of an attack (all of it public)."""


class ClassicSpectator:
    """Frames of one classic replay (see :class:`arena.web.frames.Spectator`)."""

    def __init__(self, header: dict[str, Any], game: Game[Any, Any, Any], start: Any) -> None:
        self.game = game
        names = [str(s.get("bot")) for s in header.get("seats", [])]
        self.narrator = Narrator(None, names, game.board())
        self.narrator.owner = list(game.view(start, 0)["owner"])

    def board(self, state: Any) -> dict[str, Any]:
        view = self.game.view(state, 0)  # the public fields are the same in every seat's view
        return {
            "owner": view["owner"],
            "armies": view["armies"],
            "cards": view["card_counts"],
            "reserve": view["reserve"],
            "eliminated": view["eliminated"],
        }

    def lines(self, record: dict[str, Any]) -> list[str]:
        who = self.narrator.player(int(record.get("seat", -99)))
        kind = record.get("type")
        found = []
        if kind == "rejected":
            found.append(f"✗ {who}'s answer rejected: {record.get('reason')}")
        elif kind == "timeout":
            found.append(f"⏱ {who} ran out of time")
        elif kind == "forfeit":
            found.append(f"{who} forfeits ({record.get('status')})")
        found += [text for e in record.get("events", []) if (text := self.narrator.event(e))]
        if kind == "result":
            found.append(f"Result: places by seat {record.get('places_by_seat')}")
        return found

    def attacks(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        """Each battle of the record: from, to, the attacker's seat, both sides' dice and
        losses."""
        return [
            {k: e[k] for k in BATTLE if k in e}
            for e in record.get("events", [])
            if e.get("type") == "battle"
        ]

    def revealed(self, state: Any) -> list[dict[str, Any]]:
        shown = []
        for seat in range(self.game.players):
            view = self.game.view(state, seat)
            mission = view.get("mission")
            shown.append(
                {
                    "seat": seat,
                    "label": REVEALED,
                    "hand": [self.narrator.card(c) for c in view.get("hand", [])],
                    "mission": mission["text"] if isinstance(mission, dict) else None,
                }
            )
        return shown


def spectator(header: dict[str, Any], game: Game[Any, Any, Any], start: Any) -> ClassicSpectator:
    return ClassicSpectator(header, game, start)
