"""What a spectator of a classic RISK replay sees: owners, armies, cards and reserves per
step, the classic narrator's sentences, each step's attacks drawn as arrows with their dice,
a panel of each player's territories, armies and cards, and at the end every seat's hand and
mission."""

from __future__ import annotations

from typing import Any

from arena.games.api import Game
from arena.games.classic.narrate import Narrator
from arena.games.classic.state import NEUTRAL, UNCLAIMED
from arena.web.frames import Arrow, Panel, Regions, Revealed, Row, Side, seat_sides

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
COLUMNS = ["player", "territories", "armies", "cards"]


def standing(board: dict[str, Any], seat: int) -> tuple[int, int]:
    """(territories held, armies on them) of ``seat`` in a frame's board, for the match
    page's plots."""
    held = [i for i, owner in enumerate(board["owner"]) if owner == seat]
    return len(held), sum(board["armies"][i] for i in held)


def _dice(rolled: list[int] | None) -> str:
    """Dice highest first, as they are compared: ``6·3``."""
    return "·".join(str(d) for d in sorted(rolled or [], reverse=True))


class ClassicSpectator:
    """Frames of one classic replay (see :class:`arena.web.frames.Spectator`)."""

    def __init__(self, header: dict[str, Any], game: Game[Any, Any, Any], start: Any) -> None:
        self.game = game
        self.names: list[str] = list(game.board()["territories"])
        names = [str(s.get("bot")) for s in header.get("seats", [])]
        self.narrator = Narrator(None, names, game.board())
        self.narrator.owner = list(game.view(start, 0)["owner"])
        self.sides = [
            *seat_sides(header),
            Side(side=NEUTRAL, name="neutral", colour="neutral"),
            Side(side=UNCLAIMED, name="unclaimed", colour="unclaimed"),
        ]
        self.who = {s["side"]: s["name"] for s in self.sides}

    def legend(self) -> list[Side]:
        return self.sides

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

    def regions(self, board: dict[str, Any]) -> Regions:
        """Each territory's owner and armies."""
        return Regions(owner=board["owner"], count=board["armies"])

    def arrows(self, attacks: list[dict[str, Any]]) -> list[Arrow]:
        """Each battle labelled with both sides' dice and losses: ``⚔ 6·3 vs 5 (−1 / −0)``."""
        found = []
        for a in attacks:
            dice = f"{_dice(a.get('attacker_dice'))} vs {_dice(a.get('defender_dice'))}"
            losses = f" (−{a.get('attacker_losses', 0)} / −{a.get('defender_losses', 0)})"
            who = self.who.get(a["seat"], str(a["seat"]))
            title = f"{who} attacks {self._name(a['to'])} from {self._name(a['from'])}: "
            found.append(
                Arrow(
                    {
                        "from": a["from"],
                        "to": a["to"],
                        "side": a["seat"],
                        "label": f"⚔ {dice}{losses}",
                        "title": title + dice + losses,
                    }
                )
            )
        return found

    def _name(self, territory: int) -> str:
        return self.names[territory] if 0 <= territory < len(self.names) else str(territory)

    def panel(self, board: dict[str, Any]) -> Panel:
        """Per player: territories held, armies on them, cards in hand."""
        cards = board["cards"]
        seats = range(len(cards))
        held, armies = [0] * len(cards), [0] * len(cards)
        for owner, count in zip(board["owner"], board["armies"], strict=True):
            if owner in seats:  # one pass: a long match has thousands of frames
                held[owner] += 1
                armies[owner] += count
        rows = [Row(side=s, cells=[held[s], armies[s], cards[s]]) for s in seats]
        return Panel(columns=COLUMNS, rows=rows)

    def revealed(self, state: Any) -> list[Revealed]:
        shown = []
        for seat in range(self.game.players):
            view = self.game.view(state, seat)
            mission = view.get("mission")
            shown.append(
                Revealed(
                    seat=seat,
                    label=REVEALED,
                    hand=[self.narrator.card(c) for c in view.get("hand", [])],
                    mission=mission["text"] if isinstance(mission, dict) else None,
                )
            )
        return shown


def spectator(header: dict[str, Any], game: Game[Any, Any, Any], start: Any) -> ClassicSpectator:
    return ClassicSpectator(header, game, start)
