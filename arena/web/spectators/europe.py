"""What a spectator of a RISK: Europe replay sees: per territory its owner, attacker, units
by type and castle (drawn as labelled counts, a ring in the attacker's colour, a castle and,
on a held city, a crown), per army its coins, crowns and cards held (the side panel), the
Europe narrator's lines, and at the end every seat's hand and missions."""

from __future__ import annotations

from typing import Any

from arena.games.api import Game
from arena.games.europe.config import ARMIES
from arena.games.europe.missions import MISSIONS
from arena.games.europe.narrate import Narrator, record_line
from arena.games.europe.state import NOBODY
from arena.web.frames import (
    Arrow,
    Badge,
    Panel,
    Regions,
    Revealed,
    Row,
    Side,
    Units,
    seat_colour,
    seat_sides,
)

REVEALED = "revealed after the match"
PUBLIC = ("army", "mercenary", "alive", "controller", "coins", "crowns", "crown_cards")
"""The fields of an army every seat sees."""
COLUMNS = ["army", "coins", "crowns", "cards", ""]
CASTLE = Badge(text="■", style="castle", corner="top-right")
CROWN = Badge(text="♛", style="crown", corner="top-left")
GOLD_CROWN = Badge(text="♛", style="crown gold", corner="top-left")


def standing(board: dict[str, Any], seat: int) -> tuple[int, int]:
    """(territories held, units anywhere on the board) of army ``seat`` in a frame's board,
    for the match page's plots."""
    held = sum(1 for t in board["territories"] if t["owner"] == seat)
    units = sum(sum(t["units"].get(str(seat), ())) for t in board["territories"])
    return held, units


class EuropeSpectator:
    """Frames of one Europe replay (see :class:`arena.web.frames.Spectator`)."""

    def __init__(self, header: dict[str, Any], game: Game[Any, Any, Any], start: Any) -> None:
        self.game = game
        names = [str(s.get("bot")) for s in header.get("seats", [])]
        self.narrator = Narrator(names, game.players)
        board = game.board()
        self.labels = [kind[0] for kind in board["unit_types"]]
        self.crowns = [
            (GOLD_CROWN if t["gold"] else CROWN) if t["city"] else None
            for t in board["territories"]
        ]
        """The crown a territory shows while held: only a city has one."""
        mercenaries = [
            Side(side=army, name=f"mercenary army {army}", colour=seat_colour(army))
            for army in range(game.players, ARMIES)
        ]
        nobody = Side(side=NOBODY, name="nobody", colour="unclaimed")
        self.sides = [*seat_sides(header), *mercenaries, nobody]

    def legend(self) -> list[Side]:
        return self.sides

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

    def regions(self, board: dict[str, Any]) -> Regions:
        """Each territory's owner, its units of every army there (the total on the disc),
        its attacker's ring, its castle and, while held, its city's crown."""
        territories = board["territories"]
        units = [
            [
                Units(side=int(army), counts=dict(zip(self.labels, counts, strict=True)))
                for army, counts in t["units"].items()
                if any(counts)
            ]
            for t in territories
        ]
        badges = []
        for t, crown in zip(territories, self.crowns, strict=True):
            shown = [CASTLE] if t["castle"] else []
            badges.append([*shown, crown] if crown and t["owner"] != NOBODY else shown)
        return Regions(
            owner=[t["owner"] for t in territories],
            count=[sum(sum(u["counts"].values()) for u in here) for here in units],
            units=units,
            ring=[t["attacker"] if t["attacker"] != NOBODY else None for t in territories],
            badges=badges,
        )

    def arrows(self, attacks: list[dict[str, Any]]) -> list[Arrow]:
        return []

    def panel(self, board: dict[str, Any]) -> Panel:
        """Per army: coins, crowns, cards held, and whether it is out."""
        rows = [
            Row(
                side=a["army"],
                cells=[a["coins"], a["crowns"], a["hand_size"], "" if a["alive"] else "out"],
            )
            for a in board["armies"]
        ]
        return Panel(columns=COLUMNS, rows=rows)

    def revealed(self, state: Any) -> list[Revealed]:
        shown = []
        for seat in range(self.game.players):
            army = self.game.view(state, seat)["armies"][seat]
            missions = [MISSIONS[m] for m in army.get("missions", []) if 0 <= m < len(MISSIONS)]
            shown.append(
                Revealed(
                    seat=seat,
                    label=REVEALED,
                    hand=[self.narrator.card(c) for c in army.get("hand", [])],
                    mission="; ".join(missions) or None,
                )
            )
        return shown


def spectator(header: dict[str, Any], game: Game[Any, Any, Any], start: Any) -> EuropeSpectator:
    return EuropeSpectator(header, game, start)
