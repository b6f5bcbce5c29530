"""What the RISK: Europe terminal seat shows: the position, events and options in words.

Pure text from what any bot receives (the view and constraints dicts, the engine's action
objects); :mod:`arena.sdk.europe.human` prints it and reads the answers. Events are told by
Europe's one narrator (:mod:`arena.games.europe.narrate`, as in ``arena replay show``).
Territories, cities, cards and armies are named, never shown as ids.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from arena.games.europe import narrate
from arena.games.europe.actions import (
    NONE,
    Action,
    BattleOrder,
    Bid,
    Cards,
    Casualties,
    KeepMission,
    Kingdom,
    MercenaryBid,
    Move,
    Reroll,
    Turn,
)
from arena.games.europe.missions import MISSIONS, bonus_of
from arena.games.europe.narrate import RANK_NAMES, dice_text, units_text

KIND_TITLES = {
    "bid": "bid for the First Player Marker",
    "kingdom": "found a kingdom",
    "mercenary_bid": "bid for the Mercenary Armies",
    "cards": "choose your cards",
    "mercenary_cards": "choose a Mercenary Army's cards",
    "turn": "your turn",
    "mission": "keep a mission",
    "battle_order": "order the battles",
    "reroll": "castle re-roll",
    "casualties": "remove casualties",
}


class Narrator(narrate.Narrator):
    """Europe's replay narrator, plus the seat's position, options and prompts in words."""

    def __init__(self, seat: int, names: Sequence[str], players: int) -> None:
        super().__init__(names, players)
        self.seat = seat

    # ------------------------------------------------------------ names

    def where(self, t: int) -> str:
        """A territory with its city, and whether it is gold: 'France (Paris, gold)'."""
        board = self.board
        city = board.city[t] if 0 <= t < board.size else None
        if not city:
            return self.territory(t)
        gold = ", gold" if board.gold[t] else ""
        if city == self.territory(t):
            return f"{city} (city{gold})"
        return f"{self.territory(t)} ({city}{gold})"

    def events(self, events: Sequence[Mapping[str, Any]]) -> list[str]:
        """The events since the last decision, a line each (nothing to tell: left out)."""
        lines = []
        for event in events:
            text = self.event(dict(event))
            if text:
                lines.append(text)
        return lines

    # ------------------------------------------------------------ position

    def position(self, view: Mapping[str, Any]) -> list[str]:
        """Every army's standing (own hand and chosen cards), the held territories by
        army with units by type, the disputes and the revealed card."""
        lines = [self._heading(view)]
        for entry in view["armies"]:
            line = self._army_line(entry)
            if line:
                lines.append(line)
        lines.append("Held territories:")
        for entry in view["armies"]:
            held = self._holdings(view, entry["army"])
            if held:
                lines.append(f"  {self.army(entry['army'])}: {'; '.join(held)}")
        disputes = [self._dispute(view, t) for t in view["disputes"]]
        if disputes:
            lines.append("Disputed (a battle at the round's end):")
            lines += [f"  {text}" for text in disputes]
        revealed = view.get("revealed", -1)
        if isinstance(revealed, int) and revealed >= 0:
            turn = view["turn"]
            cards = view["armies"][revealed]["cards"]
            if 1 <= turn <= len(cards) and cards[turn - 1] >= 0:
                lines.append(
                    f"Revealed: {self.army(revealed)}'s {self.card(cards[turn - 1])} "
                    f"for turn {turn}"
                )
        return lines

    def _heading(self, view: Mapping[str, Any]) -> str:
        when = f"Round {view['round']}, turn {view['turn']}" if view["round"] else "Setup"
        marker = view["marker"]
        holder = self.army(marker) if marker >= 0 else "nobody yet"
        return f"{when} · First Player Marker: {holder} · {view['crowns_to_win']} crowns win"

    def _army_line(self, entry: Mapping[str, Any]) -> str | None:
        a = entry["army"]
        if not entry["alive"]:
            return f"{self.army(a)}: eliminated"
        if entry["mercenary"]:
            who = entry["controller"]
            played = f"played by {self.army(who)} this round" if who >= 0 else "nobody plays it"
            head = f"{self.army(a)} ({played})"
        else:
            head = "You" if a == self.seat else self.army(a)
        facts = [
            _count(entry["coins"], "coin"),
            _count(entry["crowns"], "crown"),
            f"reserve {units_text(entry['reserve'])}",
        ]
        if "hand" in entry:
            facts.append(f"hand: {', '.join(self.card(c) for c in entry['hand']) or 'empty'}")
        else:
            facts.append(_count(entry["hand_size"], "card") + " in hand")
        chosen = [
            f"turn {turn} {self.card(c)}" for turn, c in enumerate(entry["cards"], 1) if c >= 0
        ]
        if chosen:
            facts.append(f"{'chosen' if 'hand' in entry else 'revealed'}: {', '.join(chosen)}")
        if entry.get("saved_by_the_crown"):
            facts.append("holds no city (saved by the crown this round)")
        for m in entry.get("missions", ()):
            facts.append(f"mission: {_mission(m)}")
        return f"{head}: {'; '.join(facts)}"

    def _holdings(self, view: Mapping[str, Any], army: int) -> list[str]:
        held = []
        for t, entry in enumerate(view["territories"]):
            if entry["owner"] != army or entry["attacker"] >= 0:
                continue
            castle = " [castle]" if entry["castle"] else ""
            held.append(f"{self.where(t)}{castle} {units_text(_units(entry, army))}")
        return held

    def _dispute(self, view: Mapping[str, Any], t: int) -> str:
        entry = view["territories"][t]
        owner, attacker = entry["owner"], entry["attacker"]
        castle = " [castle]" if entry["castle"] else ""
        return (
            f"{self.where(t)}{castle}: {self.army(owner)} holds with "
            f"{units_text(_units(entry, owner))}, {self.army(attacker)} attacks with "
            f"{units_text(_units(entry, attacker))}"
        )

    # ------------------------------------------------------------ decisions

    def situation(self, kind: str, view: Mapping[str, Any], c: Mapping[str, Any]) -> str:
        """The line that says what this decision is about."""
        army = c.get("army", self.seat)
        if kind == "bid":
            return f"Bid 0-{c['max_coins']} coins for the First Player Marker (secret)."
        if kind == "mercenary_bid":
            mercs = ", ".join(self.army(m) for m in c["mercenaries"])
            return (
                f"Bid for control of {mercs} this round, at most "
                f"{_count(c['max_total'], 'coin')} in all (secret)."
            )
        if kind == "kingdom":
            castle = ", with your castle" if c.get("castle") else ""
            return f"Found a kingdom in a free gold city{castle} ({c['footmen']} footmen)."
        if kind in ("cards", "mercenary_cards"):
            whose = "" if army == self.seat else f" for {self.army(army)}"
            return f"Choose two cards{whose}: the first for turn 1, the second for turn 2."
        if kind == "turn":
            whose = "" if army == self.seat else f" for {self.army(army)}"
            return f"Play {self.card(c['card'])}{whose} with {_count(c['coins'], 'coin')}."
        if kind == "mission":
            drawn = "; ".join(f"{i}: {_mission(m)}" for i, m in enumerate(c["drawn"]))
            return f"Keep one of the two missions drawn: {drawn}."
        if kind == "battle_order":
            listed = ", ".join(self.territory(t) for t in c["territories"])
            return f"Choose the order of this round's battles ({listed})."
        if kind == "reroll":
            rank = c["rank"]
            return (
                f"Castle re-roll in {self.territory(c['territory'])}, rank {rank} "
                f"({_rank(rank)}): attacker {dice_text(c['attacker_dice'])}, "
                f"you {dice_text(c['defender_dice'])}."
            )
        if kind == "casualties":
            return (
                f"Remove {_count(c['count'], 'unit')} in {self.territory(c['territory'])} "
                f"(you have {units_text(c['units'])})."
            )
        return kind

    def card_table(self, choices: Sequence[Action]) -> list[str] | None:
        """Card pairs as a table of option numbers: a row per card for turn 1, a column per
        card for turn 2 (56 pairs in 10 lines); None unless every choice is a pair."""
        if len(choices) < 2 or not all(isinstance(a, Cards) for a in choices):
            return None
        index = {(a.first, a.second): i for i, a in enumerate(choices) if isinstance(a, Cards)}
        cards = sorted({c for pair in index for c in pair})
        labels = {c: self.card(c) for c in cards}
        width = max(len(label) for label in labels.values())
        cell = len(str(len(choices) - 1)) + 1
        head = "turn 1 ↓  turn 2 →"
        lines = [
            "  Option numbers: the row is the card for turn 1, the column for turn 2.",
            f"  {head:<{width}}" + "".join(f"{c:>{cell}}" for c in cards),
        ]
        for first in cards:
            cells = "".join(f"{index.get((first, second), '-'):>{cell}}" for second in cards)
            lines.append(f"  {labels[first]:<{width}}{cells}")
        return lines

    def action(self, action: Action, c: Mapping[str, Any]) -> str:
        """An option in words, with the units it moves and the places it names."""
        match action:
            case Bid(coins):
                return f"bid {_count(coins, 'coin')}"
            case MercenaryBid(coins):
                offers = [
                    f"{_count(n, 'coin')} for {self.army(m)}"
                    for m, n in zip(c.get("mercenaries", ()), coins, strict=False)
                    if n
                ]
                return f"bid {', '.join(offers)}" if offers else "bid nothing"
            case Kingdom(city, neighbour, footmen):
                text = f"found a kingdom in {self.where(city)}"
                if neighbour < 0:
                    return f"{text} with all {footmen} footmen"
                rest = c.get("footmen", 10) - footmen
                return f"{text}: {footmen} footmen there, {rest} in {self.territory(neighbour)}"
            case Cards(first, second):
                return f"turn 1: {self.card(first)}, turn 2: {self.card(second)}"
            case Turn():
                return self.turn(action, c)
            case Casualties(units):
                return f"remove {units_text(units)}"
            case Reroll(0):
                return "keep the dice"
            case Reroll(rank):
                return f"re-roll your rank {rank} dice"
            case BattleOrder(territories):
                return "fight in " + ", ".join(self.territory(t) for t in territories)
            case KeepMission(index):
                drawn = c.get("drawn", ())
                return f"keep {_mission(drawn[index]) if index < len(drawn) else index}"
        return str(action)

    def turn(self, turn: Turn, c: Mapping[str, Any]) -> str:
        """A whole turn in words: the bonus and the order in the order they are done."""
        bonus = self._bonus(turn)
        order = self._order(turn, c)
        parts = [bonus, order] if turn.bonus_first else [order, bonus]
        if turn.free_manoeuvre is not None:
            parts.append(f"then Berlin's free manoeuvre {self.move(turn.free_manoeuvre)}")
        text = ", then ".join(p for p in parts if p)
        return text[:1].upper() + text[1:]

    def move(self, move: Move) -> str:
        via = f" via {self.territory(move.via)}" if move.via >= 0 else ""
        return (
            f"{self.territory(move.source)} → {self.territory(move.target)}{via} "
            f"with {units_text(move.units)}"
        )

    def _order(self, turn: Turn, c: Mapping[str, Any]) -> str:
        order = turn.order
        if order == NONE:
            return "no order"
        if order in ("expand", "split_expand", "manoeuvre"):
            word = order.replace("_", " ")
            return f"{word} " + " and ".join(self.move(m) for m in turn.moves)
        if order == "tax":
            coins = {e["territory"]: e["coins"] for e in c.get("tax_cities", ())}
            worth = coins.get(turn.tax_city)
            worth_text = "" if worth is None else f" (+{_count(worth, 'coin')})"
            return f"tax {self.place(turn.tax_city)}{worth_text}"
        if order == "spend":
            parts = [f"a castle in {self.territory(t)}" for t in turn.castles]
            parts += [f"{units_text(r.units)} in {self.place(r.territory)}" for r in turn.recruits]
            if turn.crown:
                parts.append("a crown card")
            return f"spend on {', '.join(parts) or 'nothing'}"
        return order

    def _bonus(self, turn: Turn) -> str:
        if turn.bonus == "fortify":
            return f"fortify {self.place(turn.bonus_target)}"
        if turn.bonus == "siege_assault":
            return (
                f"siege assault from {self.territory(turn.bonus_source)} on "
                f"{self.territory(turn.bonus_target)}"
            )
        return ""


def _units(entry: Mapping[str, Any], army: int) -> list[int]:
    units = entry["units"].get(str(army))
    return list(units) if units else [0, 0, 0, 0]


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _mission(m: int) -> str:
    if not 0 <= m < len(MISSIONS):
        return "a hidden mission"
    return f"{MISSIONS[m]} ({bonus_of(m)})"


def _rank(rank: int) -> str:
    return RANK_NAMES[rank - 1] if 1 <= rank <= len(RANK_NAMES) else f"rank {rank}"
