"""What the terminal seat shows: the board by continent, events and options in words.

Pure rendering from what any bot receives (:class:`~arena.sdk.bot.MatchInfo` and
:class:`~arena.sdk.bot.Request`); :mod:`arena.sdk.classic.human` prints it and reads the
answers. Events are told by classic's one narrator (:mod:`arena.games.classic.narrate`, as in
``arena replay show``). Territories and players are named, never shown as ids.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from arena.games.classic import narrate
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
from arena.games.classic.narrate import NEUTRAL, army_count, dice_text, dice_word

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


class Narrator(narrate.Narrator):
    """The classic narrator (:mod:`arena.games.classic.narrate`) of the terminal seat, plus
    its options, prompts and board in words."""

    def __init__(self, seat: int, names: tuple[str, ...] | list[str], board: dict[str, Any]):
        super().__init__(seat, names, board)

    def style(self, seat: int) -> str:
        if seat == self.seat:
            return "bold green"
        if seat < 0:
            return "dim"
        return PALETTE[seat % len(PALETTE)]

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
                    return f"put {army_count(n)} on {at(t)}"
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
                text = f"attack {enemy(dst)} from {at(src)} with {dice} {dice_word(dice)}"
                return text if until is None else f"{text}, until {until} left"
            case EndAttack():
                return "stop attacking"
            case Defend(dice):
                return f"defend with {dice} {dice_word(dice)}"
            case Reroll(None):
                return "keep the dice"
            case Reroll(index) if index is not None:
                rolled = request.options.attacker_dice
                shown = f" (a {rolled[index]})" if index < len(rolled) else ""
                return f"re-roll die {index + 1}{shown}"
            case Occupy(n):
                return f"move {army_count(n)} in"
            case Fortify(src, dst, n):
                return f"move {army_count(n)} from {at(src)} to {at(dst)}, ending the turn"
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
            return f"Put {army_count(o.armies)} on one of your territories (setup)."
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
            return f"Place {army_count(o.armies)} on your territories."
        if kind == "attack":
            return "Attack from a territory with 2 or more armies, or stop attacking."
        if kind == "defend":
            src, dst, dice = o.battle
            return (
                f"{self.player(owner[src])} attacks {self.whose(owner[dst])} {t(dst)} "
                f"({army_count(armies[dst])}) from {t(src)} ({army_count(armies[src])}) "
                f"with {dice} {dice_word(dice)}. Defend {t(dst)} with:"
            )
        if kind == "reroll":
            return (
                f"Your dice {dice_text(o.attacker_dice)} against {dice_text(o.defender_dice)} "
                f"({t(o.battle[0])} attacking {t(o.battle[1])}): re-roll one die?"
            )
        if kind == "occupy":
            src, dst, _ = o.battle
            return (
                f"You conquered {t(dst)}: move {o.min_armies}-{o.max_armies} armies in "
                f"from {t(src)} ({army_count(armies[src])})."
            )
        if kind == "fortify":
            return "Move armies once between connected territories of yours, or end the turn."
        return str(kind)

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
