"""What the terminal seat shows: the board by continent, events and options in words.

Pure rendering from what any bot receives (:class:`~arena.sdk.bot.MatchInfo` and
:class:`~arena.sdk.bot.Request`); :mod:`arena.sdk.classic.human` prints it and reads the answers.
Territories and players are named, never shown as ids.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from arena.games.classic.actions import (
    Action,
    Attack,
    ChooseHeadquarters,
    Claim,
    Defend,
    EndAttack,
    EndTurn,
    Fortify,
    Occupy,
    Place,
    PlaceNeutral,
    Reroll,
    Trade,
)
from arena.games.classic.missions import MISSIONS

NEUTRAL, UNCLAIMED = -1, -2
PALETTE = ("red", "blue", "yellow", "magenta", "cyan", "bright_red")
"""Opponents' colours on a terminal (own territories are bold green); none when piped."""

KIND_TITLES = {
    "claim": "claim a territory",
    "place": "place an army",
    "place_neutral": "place a neutral army",
    "headquarters": "choose your headquarters",
    "trade": "trade cards",
    "reinforce": "reinforce",
    "attack": "attack",
    "defend": "defend",
    "reroll": "re-roll",
    "occupy": "occupy",
    "fortify": "fortify",
}


class Narrator:
    """Names players, territories and cards from one seat's point of view."""

    def __init__(self, seat: int, names: tuple[str, ...] | list[str], board: dict[str, Any]):
        self.seat = seat
        self.board = board
        self.territories: list[str] = list(board["territories"])
        self.symbols: list[str] = list(board.get("card_symbols", []))
        self.names = list(names)
        self.owner: list[int] | None = None
        """Owners as the events being told left them (to name a battle's defender)."""

    # ------------------------------------------------------------ names

    def player(self, seat: int) -> str:
        """'you', 'neutral', or the seat's bot name (with its seat number when not unique)."""
        if seat == self.seat:
            return "you"
        if seat == NEUTRAL:
            return "neutral"
        if seat == UNCLAIMED:
            return "unclaimed"
        if not 0 <= seat < len(self.names):
            return f"seat {seat}"
        name = self.names[seat]
        return name if self.names.count(name) == 1 else f"{name} (seat {seat})"

    def subject(self, seat: int, verb: str) -> str:
        """'You attack' / 'random attacks': a player and a verb that agree."""
        if seat == self.seat:
            return f"You {verb}"
        return f"{self.player(seat)} {_third_person(verb)}"

    def whose(self, seat: int) -> str:
        """'your' or "random's"."""
        return "your" if seat == self.seat else f"{self.player(seat)}'s"

    def loses(self, seat: int, n: int) -> str:
        """'you lose 1' / 'random loses 2'."""
        verb = "lose" if seat == self.seat else "loses"
        return f"{self.player(seat)} {verb} {n}"

    def style(self, seat: int) -> str:
        if seat == self.seat:
            return "bold green"
        if seat < 0:
            return "dim"
        return PALETTE[seat % len(PALETTE)]

    def territory(self, t: int) -> str:
        return self.territories[t] if 0 <= t < len(self.territories) else f"territory {t}"

    def card(self, card: int | None) -> str:
        """'Alaska (infantry)' for a territory card, 'wild' for a wild card."""
        if card is None:
            return "a card"
        symbol = self.symbols[card] if 0 <= card < len(self.symbols) else "?"
        if card >= len(self.territories) or symbol == "wild":
            return "wild"
        return f"{self.territory(card)} ({symbol})"

    def cards(self, cards: list[int] | tuple[int, ...] | None) -> str:
        if not cards:
            return "no cards"
        return ", ".join(self.card(c) for c in cards)

    def placements(self, placements: Any) -> str:
        return ", ".join(f"{n} on {self.territory(t)}" for t, n in placements)

    # ------------------------------------------------------------ events

    def events(self, events: list[dict[str, Any]], view: dict[str, Any]) -> list[str]:
        """The events since the last decision in words; ``view`` is the position after them."""
        if self.owner is None or len(self.owner) != len(view["owner"]):
            self.owner = list(view["owner"])
        lines = [text for e in events if (text := self.event(e))]
        self.owner = list(view["owner"])
        return lines

    def event(self, event: dict[str, Any]) -> str | None:
        """One event in words (ownership is followed through claims and conquests)."""
        kind = event.get("type")
        owner = self.owner
        seat = event.get("seat", -99)
        t = self.territory
        if kind == "turn":
            whose = "your" if seat == self.seat else f"{self.player(seat)}'s"
            return f"Round {event['round']}: {whose} turn ({event['reinforcements']} new armies)"
        if kind == "claimed":
            if owner is not None:
                owner[event["territory"]] = seat
            return f"{self.subject(seat, 'claim')} {t(event['territory'])}."
        if kind == "placed":
            return f"{self.subject(seat, 'place')} {self.placements(event['placements'])}."
        if kind == "placed_neutral":
            return f"{self.subject(seat, 'add')} a neutral army to {t(event['territory'])}."
        if kind == "reinforced":
            return f"{self.subject(seat, 'reinforce')}: {self.placements(event['placements'])}."
        if kind == "traded":
            text = (
                f"{self.subject(seat, 'trade')} {self.cards(event['cards'])} "
                f"for {_armies(event['armies'])}"
            )
            if event.get("bonus_territory") is not None:
                text += f" (+2 on {t(event['bonus_territory'])})"
            return text + "."
        if kind == "battle":
            defender = owner[event["to"]] if owner is not None else None
            target = (
                t(event["to"]) if defender is None else f"{self.whose(defender)} {t(event['to'])}"
            )
            losses = (
                f"attacker loses {event['attacker_losses']}, "
                f"defender loses {event['defender_losses']}"
                if defender is None
                else f"{self.loses(seat, event['attacker_losses'])}, "
                f"{self.loses(defender, event['defender_losses'])}"
            )
            return (
                f"{self.subject(seat, 'attack')} {target} from {t(event['from'])}: "
                f"{_dice(event['attacker_dice'], True)} against "
                f"{_dice(event['defender_dice'], True)}; {losses}."
            )
        if kind == "rerolled":
            return f"{self.subject(seat, 're-roll')} a {event['old']}: it is now {event['new']}."
        if kind == "conquered":
            if owner is not None:
                owner[event["to"]] = seat
            return (
                f"{self.subject(seat, 'conquer')} {t(event['to'])} from "
                f"{self.player(event['previous_owner'])}, moving {_armies(event['armies'])} "
                f"in from {t(event['from'])}."
            )
        if kind == "occupied":
            return (
                f"{self.subject(seat, 'occupy')} {t(event['to'])} with {_armies(event['armies'])}."
            )
        if kind == "eliminated":
            by = self.player(event["by"])
            if seat == self.seat:
                return f"You are eliminated by {by}."
            return (
                f"{self.player(seat)} is eliminated by {by} ({event.get('cards', 0)} cards taken)."
            )
        if kind == "cards_taken":
            if event.get("cards") is None:
                return f"{self.subject(seat, 'take')} {self.whose(event['from'])} cards."
            return (
                f"{self.subject(seat, 'take')} {self.cards(event['cards'])} "
                f"from {self.player(event['from'])}."
            )
        if kind == "card_drawn":
            if seat == self.seat and event.get("card") is not None:
                return f"You draw a card: {self.card(event['card'])}."
            return f"{self.subject(seat, 'draw')} a card."
        if kind == "fortified":
            return (
                f"{self.subject(seat, 'move')} {_armies(event['armies'])} from "
                f"{t(event['from'])} to {t(event['to'])}."
            )
        if kind == "headquarters_revealed":
            pairs = ", ".join(
                f"{self.player(s)} {t(h)}" for s, h in enumerate(event["headquarters"])
            )
            return f"Headquarters revealed: {pairs}."
        if kind == "mission_revealed":
            mission = event.get("mission")
            text = MISSIONS[mission].text() if isinstance(mission, int) else str(mission)
            return f"{self.subject(seat, 'reveal')} a completed mission: {text}"
        if kind == "forfeited":
            return (
                f"{self.player(seat)} forfeits; its armies stay on the board as neutral defenders."
            )
        if kind == "game_over":
            winner = event.get("winner")
            who = "no winner" if winner is None else f"winner {self.player(winner)}"
            return f"Game over ({event.get('reason')}): {who}."
        rest = ", ".join(f"{k} {v}" for k, v in event.items() if k != "type")
        return f"{kind}: {rest}"

    # ------------------------------------------------------------ options

    def action(self, action: Action, request: Any) -> str:
        """An option of ``request`` in words, with the armies it concerns."""
        armies, owner = request.view["armies"], request.view["owner"]

        def at(t: int) -> str:
            return f"{self.territory(t)} ({armies[t]})"

        def enemy(t: int) -> str:
            return f"{self.territory(t)} ({self.player(owner[t])}, {armies[t]})"

        match action:
            case Claim(t):
                return f"claim {self.territory(t)}"
            case Place(placements):
                if len(placements) == 1:
                    t, n = placements[0]
                    return f"put {_armies(n)} on {at(t)}"
                return f"put {self.placements(placements)}"
            case PlaceNeutral(t):
                return f"add a neutral army to {at(t)}"
            case ChooseHeadquarters(t):
                return f"make {at(t)} your headquarters"
            case Trade(None, _):
                return "do not trade"
            case Trade(cards, _):
                return f"trade {self.cards(cards)}"
            case Attack(src, dst, dice, until, _):
                text = f"attack {enemy(dst)} from {at(src)} with {dice} {_dice_word(dice)}"
                return text if until is None else f"{text}, until {until} left"
            case EndAttack():
                return "stop attacking"
            case Defend(dice):
                return f"defend with {dice} {_dice_word(dice)}"
            case Reroll(None):
                return "keep the dice"
            case Reroll(index) if index is not None:
                rolled = request.options.attacker_dice
                shown = f" (a {rolled[index]})" if index < len(rolled) else ""
                return f"re-roll die {index + 1}{shown}"
            case Occupy(n):
                return f"move {_armies(n)} in"
            case Fortify(src, dst, n):
                return f"move {_armies(n)} from {at(src)} to {at(dst)}, ending the turn"
            case EndTurn():
                return "end the turn without moving"
        return str(action)

    def situation(self, request: Any) -> str:
        """The line that says what this decision is about."""
        o, view, t = request.options, request.view, self.territory
        armies, owner = view["armies"], view["owner"]
        kind = request.kind
        if kind == "claim":
            return "Claim one of the unclaimed territories."
        if kind == "place":
            return f"Put {_armies(o.armies)} on one of your territories (setup)."
        if kind == "place_neutral":
            return "Add one army to a neutral territory."
        if kind == "headquarters":
            return "Choose one of your territories as your secret headquarters."
        if kind == "trade":
            return (
                "You must trade a set of cards (you hold five or more)."
                if o.required
                else "You may trade a set of cards for armies."
            )
        if kind == "reinforce":
            return f"Place {_armies(o.armies)} on your territories."
        if kind == "attack":
            return "Attack from a territory with 2 or more armies, or stop attacking."
        if kind == "defend":
            src, dst, dice = o.battle
            return (
                f"{self.player(owner[src])} attacks {self.whose(owner[dst])} {t(dst)} "
                f"({_armies(armies[dst])}) from {t(src)} ({_armies(armies[src])}) "
                f"with {dice} {_dice_word(dice)}. Defend {t(dst)} with:"
            )
        if kind == "reroll":
            return (
                f"Your dice {_dice(o.attacker_dice)} against {_dice(o.defender_dice)} "
                f"({t(o.battle[0])} attacking {t(o.battle[1])}): re-roll one die?"
            )
        if kind == "occupy":
            src, dst, _ = o.battle
            return (
                f"You conquered {t(dst)}: move {o.min_armies}-{o.max_armies} armies in "
                f"from {t(src)} ({_armies(armies[src])})."
            )
        if kind == "fortify":
            return "Move armies once between connected territories of yours, or end the turn."
        return kind

    # ------------------------------------------------------------ board

    def board_view(self, view: dict[str, Any], width: int, colour: bool) -> RenderableType:
        """Territories by continent, each with its owner and armies."""
        owner, armies = view["owner"], view["armies"]
        name_width = max(len(n) for n in self.territories)
        owner_width = min(16, max(len(self.player(o)) for o in {*owner, NEUTRAL}))
        per_row = max(1, min(3, width // (name_width + owner_width + 10)))
        parts: list[RenderableType] = []
        for continent in self.board["continents"]:
            members = list(continent["territories"])
            holders = {owner[t] for t in members}
            head = Text(f"{continent['name']} (+{continent['bonus']})", style="bold")
            if len(holders) == 1:
                (holder,) = holders
                if holder >= 0:
                    head.append(f" - all held by {self.player(holder)}")
            else:
                mine = sum(1 for t in members if owner[t] == self.seat)
                head.append(f" - you hold {mine} of {len(members)}")
            parts.append(head)
            grid = Table.grid(padding=(0, 1))
            for _ in range(per_row):
                grid.add_column(no_wrap=True, width=name_width + 2)
                grid.add_column(no_wrap=True, width=owner_width, overflow="ellipsis")
                grid.add_column(no_wrap=True, justify="right", width=3)
                grid.add_column(width=1)
            for start in range(0, len(members), per_row):
                cells: list[Text | str] = []
                for t in members[start : start + per_row]:
                    style = self.style(owner[t]) if colour else ""
                    cells += [
                        Text("  " + self.territory(t), style=style),
                        Text(self.player(owner[t]), style=style),
                        Text(str(armies[t]), style=style),
                        "",
                    ]
                grid.add_row(*cells)
            parts.append(grid)
        return Group(*parts)

    def standing(self, view: dict[str, Any]) -> list[str]:
        """A line per player: territories, armies, cards (own cards named)."""
        owner, armies, counts = view["owner"], view["armies"], view["card_counts"]
        out = set(view.get("eliminated", ()))
        lines = []
        for p in range(view["players"]):
            held = [t for t, o in enumerate(owner) if o == p]
            if p in out:
                note = "forfeited" if p in view.get("forfeited", ()) else "eliminated"
                lines.append(f"{self.player(p)}: {note}")
                continue
            cards = (
                f"cards: {self.cards(view['hand'])}"
                if p == self.seat
                else f"{counts[p]} {'card' if counts[p] == 1 else 'cards'}"
            )
            lines.append(
                f"{self.player(p)}: {len(held)} territories, "
                f"{sum(armies[t] for t in held)} armies, {cards}"
            )
        return lines


def _third_person(verb: str) -> str:
    if verb.endswith(("s", "sh", "ch", "x")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _dice(dice: Any, ranked: bool = False) -> str:
    """Dice as text; ``ranked`` puts them high to low, as they are compared."""
    shown = sorted(dice, reverse=True) if ranked else dice
    return " ".join(str(d) for d in shown) or "-"


def _dice_word(n: int) -> str:
    return "die" if n == 1 else "dice"


def _armies(n: int) -> str:
    return f"{n} army" if n == 1 else f"{n} armies"
