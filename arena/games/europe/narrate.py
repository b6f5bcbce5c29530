"""RISK: Europe's replays in words, for ``arena replay show``.

Pure text (no I/O): :class:`Narrator` names armies (seats by their bot names, the others
"mercenary army N"), territories, cities and cards, and tells each engine event in a line;
:func:`replay_blocks` tells a whole replay as a spectator after the match: the setup, then
one block per round's start, per turn (headed by its revealed card), per battle and per
round's end. Secret choices (the cards chosen, a mission kept) are told as such; a card is
named when it is revealed.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from arena.games.europe.board import Board, europe_board
from arena.games.europe.config import ARMIES
from arena.games.europe.missions import bonus_of
from arena.games.europe.orders import CONSTANTINOPLE_ESCORT as ESCORT
from arena.games.europe.orders import FORTIFY_CITY, TAX_TILES
from arena.games.europe.rules import MARKER_COINS

NOBODY = -1
WIDTH = 100
INDENT = "  "
UNIT_NAMES = (("footman", "footmen"), ("archer", "archers"), ("cavalry", "cavalry"))
RANK_NAMES = ("siege weapons", "archers", "cavalry", "general attack")
"""Ranks 1-4 of the ranked attack order, by what fights in them."""
ENDS = {
    "crowns": "a player has the crowns to win",
    "elimination": "one player is left",
    "round_limit": "the round limit is reached",
}
BLOCK_STARTS = frozenset({"round", "revealed", "battle", "battle_order"})
"""Events that open a new block of the narration."""
ROUND_END = frozenset({"saved_by_the_crown", "round_end"})
"""End-of-round events (with an elimination for holding no city): they open the round's
last block."""


class Narrator:
    """Names and event lines for one replay, as a spectator sees it."""

    def __init__(self, names: Sequence[str], players: int, board: Board | None = None) -> None:
        self.names = list(names)
        self.players = players
        self.board = board or europe_board()
        self.round = 0
        self.battle: int | None = None
        """The territory of the battle being told (its casualties need no place)."""
        self.alive = [True] * ARMIES
        self.controller: dict[int, int] = {}
        """Who plays each Mercenary Army this round."""
        self.order = "none"
        """The order of the turn being told (a Split Expand's legs say so)."""

    # ------------------------------------------------------------ names

    def army(self, army: int) -> str:
        """A seat's bot name (with its seat number when not unique), or a mercenary army."""
        if army == NOBODY:
            return "nobody"
        if 0 <= army < min(self.players, len(self.names)):
            name = self.names[army]
            return name if self.names.count(name) == 1 else f"{name} (seat {army})"
        return f"mercenary army {army}"

    def territory(self, t: int) -> str:
        names = self.board.names
        return names[t] if 0 <= t < len(names) else f"territory {t}"

    def place(self, t: int) -> str:
        """A city by its city's name (London), any other territory by its own (Wales)."""
        city = self.board.city[t] if 0 <= t < self.board.size else None
        return city or self.territory(t)

    def card(self, card: int) -> str:
        """'card 6 (split expand or manoeuvre)', with its bonus action if it has one."""
        deck = self.board.deck
        if not 0 <= card < len(deck):
            return f"card {card}"
        c = deck[card]
        text = f"card {card} ({_order(c.orders[0])} or {_order(c.orders[1])}"
        return text + (f"; bonus: {_order(c.bonus)})" if c.bonus else ")")

    def tile(self, key: str) -> str:
        """A City Bonus Tile's name on the board (Welsh Archers)."""
        where = self.board.tiles.get(key)
        if where is None:
            return key
        bonus = self.board.data["territories"][where].get("city_bonus") or {}
        return str(bonus.get("tile") or key)

    # ------------------------------------------------------------ events

    def event(self, e: dict[str, Any]) -> str | None:
        """One event in words (None: nothing to tell)."""
        kind = str(e.get("type"))
        tell = getattr(self, f"_{kind}", None)
        if tell is None:
            rest = ", ".join(f"{k} {v}" for k, v in e.items() if k != "type")
            return f"{kind}: {rest}"
        text: str | None = tell(e)
        return text

    # setup

    def _bids(self, e: dict[str, Any]) -> str:
        bids = ", ".join(f"{self.army(s)} {b}" for s, b in enumerate(e["bids"]))
        return f"Bids for the First Player Marker: {bids}"

    def _tie_roll(self, e: dict[str, Any]) -> str:
        what = str(e["for"])
        if what == "marker":
            what = "the First Player Marker"
        elif what.startswith("mercenary "):  # "mercenary 2": the bids for army 2
            what = f"mercenary army {what.split()[-1]}"
        rolls = ", ".join(
            f"{self.army(s)} {d}" for s, d in zip(e["seats"], e["dice"], strict=False)
        )
        return f"Tie for {what}: rolls {rolls}"

    def _marker(self, e: dict[str, Any]) -> str:
        return f"{self.army(e['army'])} takes the First Player Marker for {_coins(e['paid'])}"

    def _kingdom(self, e: dict[str, Any]) -> str:
        city, neighbour = e["city"], e["neighbour"]
        where = self.place(city)
        if where != self.territory(city):
            where += f" ({self.territory(city)})"
        text = (
            f"{self.army(e['army'])} founds a kingdom in {where} "
            f"with {_count(e['footmen_in_city'], UNIT_NAMES[0])}"
        )
        if neighbour >= 0:
            text += f" and {10 - e['footmen_in_city']} in {self.territory(neighbour)}"
        if e.get("castle"):
            text += ", a castle"
        return text + f" (+{_coins(e['tax'])})"

    # rounds

    def _round(self, e: dict[str, Any]) -> str:
        self.round = e["round"]
        self.controller = {}
        order = ", ".join(self.army(a) for a in e["order"])
        return f"Round {self.round} · turn order: {order}"

    def _mercenary_bids(self, e: dict[str, Any]) -> str:
        offers = "; ".join(
            f"army {merc}: "
            + ", ".join(f"{self.army(s)} {bids[k]}" for s, bids in enumerate(e["bids"]))
            for k, merc in enumerate(e["mercenaries"])
        )
        return f"Mercenary bids: {offers}"

    def _mercenary(self, e: dict[str, Any]) -> str:
        merc, seat = self.army(e["army"]), e["controller"]
        self.controller[e["army"]] = seat
        if seat == NOBODY:
            return f"{merc}: no bid, nobody controls it this round"
        return f"{self.army(seat)} controls {merc} this round ({_coins(e['paid'])})"

    def _cards_chosen(self, e: dict[str, Any]) -> str:
        army, seat = e["army"], e.get("seat", e["army"])
        if seat != army and seat != NOBODY:
            return f"{self.army(seat)} chose 2 cards for {self.army(army)}"
        return f"{self.army(army)} chose 2 cards"

    def _revealed(self, e: dict[str, Any]) -> str:
        army = e["army"]
        who = self.army(army)
        if army >= self.players and self.controller.get(army, NOBODY) != NOBODY:
            who += f" (played by {self.army(self.controller[army])})"
        return f"Round {self.round} · turn {e['turn']} · {who} reveals {self.card(e['card'])}"

    def _king_me(self, e: dict[str, Any]) -> str:
        return f"King Me: {self.army(e['army'])} takes the First Player Marker"

    def _mission_kept(self, e: dict[str, Any]) -> str:
        return f"{self.army(e['army'])} kept a mission"

    def _mission_completed(self, e: dict[str, Any]) -> str:
        mission = e.get("mission")
        bonus = f"; from next round {bonus_of(mission)}" if isinstance(mission, int) else ""
        return f"{self.army(e['army'])} completes a mission (+1 crown{bonus}): {e['text']}"

    # a turn

    def _turn(self, e: dict[str, Any]) -> str | None:
        self.order = str(e["order"])
        if e["order"] == "none" and e["bonus"] == "none":
            return "No order"
        if e["order"] == "none":
            return "No order (bonus action only)"
        return None

    def _expand(self, e: dict[str, Any]) -> str:
        target = e["target"]
        what = "Split Expand" if self.order == "split_expand" else "Expand"
        text = (
            f"{what}: {self.territory(e['source'])} → {self.territory(target)} "
            f"with {units_text(e['units'])}"
        )
        if e["claimed"]:
            claim = f"claims {self.territory(target)}"
            if self.place(target) != self.territory(target):  # Rome is both
                claim += f" and {self.place(target)}"
            if e.get("tax"):
                claim += f": +{_coins(e['tax'])}"
            return f"{text} ({claim})"
        return f"{text} (challenges {self.army(e['defender'])})"

    def _manoeuvre(self, e: dict[str, Any]) -> str:
        what = "Berlin's free manoeuvre" if e.get("free") else "Manoeuvre"
        return (
            f"{what}: {self.territory(e['source'])} → {self.territory(e['target'])} "
            f"with {units_text(e['units'])}"
        )

    def _spend(self, e: dict[str, Any]) -> str:
        parts = [f"castle in {self.territory(t)}" for t in e["castles"]]
        for recruit in e["recruits"]:
            part = f"{units_text(recruit['units'])} in {self.place(recruit['territory'])}"
            free = recruit.get("free", 0)
            if free:
                due = (ESCORT * recruit["units"][-1], 0, 0, 0)
                part += f" ({self.tile('constantinople')}: {_given((free, 0, 0, 0), due)})"
            parts.append(part)
        if e.get("crown"):
            parts.append("a crown card")
        return f"Spend {_coins(e['cost'])}: {'; '.join(parts) or 'nothing'}"

    def _tax(self, e: dict[str, Any]) -> str:
        size = len(e["network"])
        facts = [f"network of {size} territor{'y' if size == 1 else 'ies'}"]
        facts += [
            f"{self.tile(b['tile'])}: {_given(b['units'], TAX_TILES.get(b['tile']))}"
            for b in e["tiles"]
        ]
        return f"Tax {self.place(e['city'])}: {_coins(e['coins'])} ({'; '.join(facts)})"

    def _fortify(self, e: dict[str, Any]) -> str:
        given = _given([e["footmen"], 0, 0, 0], (FORTIFY_CITY, 0, 0, 0))
        return f"Fortify {self.place(e['territory'])}: {given}"

    def _siege_assault(self, e: dict[str, Any]) -> str:
        self.battle = None
        dice = e["dice"]
        return (
            f"Siege Assault: {self.territory(e['source'])} → {self.army(e['owner'])}'s "
            f"{self.territory(e['target'])}: {len(dice)} {_dice_word(len(dice))} "
            f"{dice_text(dice)}, {_hits(e['hits'])}"
        )

    def _emptied(self, e: dict[str, Any]) -> str:
        return f"{self.territory(e['territory'])} is left empty (unclaimed)"

    # battles

    def _battle_order(self, e: dict[str, Any]) -> str:
        listed = ", ".join(self.territory(t) for t in e["territories"])
        return f"Round {self.round} · battles in the order chosen: {listed}"

    def _battle(self, e: dict[str, Any]) -> str:
        self.battle = e["territory"]
        castle = ", behind a castle" if e.get("castle") else ""
        return (
            f"Round {self.round} · battle for {self.territory(e['territory'])}: "
            f"{self.army(e['attacker'])} ({units_text(e['attacker_units'])}) attacks "
            f"{self.army(e['defender'])} ({units_text(e['defender_units'])}{castle})"
        )

    def _reroll(self, e: dict[str, Any]) -> str:
        return (
            f"Castle re-roll at rank {e['rank']}: the defender's {dice_text(e['old'])} "
            f"become {dice_text(e['dice'])}"
        )

    def _rank(self, e: dict[str, Any]) -> str:
        rank = e["rank"]
        name = RANK_NAMES[rank - 1] if 1 <= rank <= len(RANK_NAMES) else f"rank {rank}"
        again = f" (repetition {e['repetition']})" if e.get("repetition", 1) > 1 else ""
        ranked = rank == len(RANK_NAMES)  # the general attack compares dice high to low
        return (
            f"Rank {rank}, {name}{again}: attacker {dice_text(e['attacker_dice'], ranked)} → "
            f"{_hits(e['attacker_hits'])}; defender {dice_text(e['defender_dice'], ranked)} → "
            f"{_hits(e['defender_hits'])}"
        )

    def _casualties(self, e: dict[str, Any]) -> str:
        where = "" if e["territory"] == self.battle else f" in {self.territory(e['territory'])}"
        return f"{self.army(e['army'])} loses {units_text(e['units'])}{where}"

    def _battle_end(self, e: dict[str, Any]) -> str:
        self.battle = None
        t, winner = self.territory(e["territory"]), e["winner"]
        if winner == NOBODY:
            return f"Both sides are wiped out: {t} is left unclaimed"
        if winner == e["attacker"]:
            raid = f" ({self.tile('stockholm')}: +{_coins(e['raid'])})" if e.get("raid") else ""
            return f"{self.army(winner)} takes {t}{raid}"
        return f"{self.army(winner)} holds {t}"

    # the round's end and the game's

    def _saved_by_the_crown(self, e: dict[str, Any]) -> str:
        return f"{self.army(e['army'])} holds no city but is saved by the crown for a round"

    def _eliminated(self, e: dict[str, Any]) -> str:
        army = e["army"]
        if 0 <= army < ARMIES:
            self.alive[army] = False
        why = "holds no city" if e.get("why") == "no city" else e.get("why", "?")
        return f"{self.army(army)} is eliminated ({why})"

    def _round_end(self, e: dict[str, Any]) -> str:
        crowns = ", ".join(
            f"{self.army(a)} {c}"
            for a, c in enumerate(e["crowns"])
            if a >= len(self.alive) or self.alive[a]
        )
        return f"Crowns: {crowns}"

    def _game_over(self, e: dict[str, Any]) -> str:
        end = e.get("end")
        text = f"Game over: {ENDS.get(str(end), str(end))}"
        standings = e.get("standings")
        tie = self.tie_break(standings) if isinstance(standings, list) else None
        return f"{text}; {tie}" if tie else text

    def tie_break(self, standings: list[dict[str, Any]]) -> str | None:
        """How the tie-break settled first place among living seats level on crowns
        (territories, then coins with the First Player Marker counting 10), or None when no
        two of them are level."""
        living = [s for s in range(len(standings)) if s >= len(self.alive) or self.alive[s]]
        top = max((standings[s]["crowns"] for s in living), default=0)
        tied = [s for s in living if standings[s]["crowns"] == top]
        if len(tied) < 2:
            return None
        level = f"{_names([self.army(s) for s in tied])} tie on {_count(top, ('crown', 'crowns'))}"
        steps: tuple[tuple[str, Callable[[int], int]], ...] = (
            ("territories", lambda s: standings[s]["territories"]),
            (
                "coins",
                lambda s: standings[s]["coins"] + (MARKER_COINS if standings[s]["marker"] else 0),
            ),
        )
        for what, figure in steps:
            best = max(figure(s) for s in tied)
            ahead = [s for s in tied if figure(s) == best]
            if len(ahead) == 1:
                runner_up = max(figure(s) for s in tied if s != ahead[0])
                marker = any(standings[s]["marker"] for s in tied) and what == "coins"
                return (
                    f"{level}: {self.army(ahead[0])} wins the tie-break on {what} "
                    f"({best} to {runner_up}"
                    + (", the First Player Marker counting 10 coins" if marker else "")
                    + ")"
                )
            tied = ahead
        return f"{level}, territories and coins: no winner"

    # records that are not events

    def result(self, record: dict[str, Any]) -> str:
        """The match's result record: the winner and every seat's place."""
        winner = record.get("winner")
        who = "no winner" if winner is None else f"winner {self.army(winner)}"
        places = ", ".join(
            f"{self.army(s)} {_ordinal(p)}" for s, p in enumerate(record.get("places_by_seat", []))
        )
        rounds = f" after {record['rounds']} rounds" if "rounds" in record else ""
        return f"Result{rounds}: {who}; places: {places}"


def replay_blocks(header: dict[str, Any], records: list[dict[str, Any]]) -> Iterator[list[str]]:
    """A Europe replay in words: the setup block, then one block per round's start, turn,
    battle and round's end, each headed by its first line with the rest indented (lines
    wrapped at :data:`WIDTH`). The heading line of the whole replay is the caller's
    (:mod:`arena.replays.text`)."""
    names = [str(s.get("bot")) for s in header.get("seats", [])]
    rules = header.get("rules")
    players = len(names)
    if isinstance(rules, dict) and isinstance(rules.get("players"), int):
        players = rules["players"]
    narrator = Narrator(names, players)
    block: list[str] = []
    ending = False
    """Whether the round's end block is open (its first end-of-round event has come)."""
    for record in records:
        if record.get("type") in ("rejected", "timeout", "forfeit"):
            block += wrap(record_line(narrator, record), INDENT)
        for event in record.get("events", []):
            kind = event.get("type")
            line = narrator.event(event)
            if kind in BLOCK_STARTS:
                ending = False
                yield block
                block = wrap(line or "", "")
                continue
            if not ending and (
                kind in ROUND_END or (kind == "eliminated" and event.get("why") == "no city")
            ):
                ending = True
                yield block
                block = [f"End of round {narrator.round}"]
            if line:
                block += wrap(line, INDENT)
        if record.get("type") == "result":
            block += wrap(narrator.result(record), "")
    yield block


def wrap(line: str, indent: str) -> list[str]:
    """A line as lines of at most :data:`WIDTH` characters (continued further indented)."""
    return textwrap.wrap(
        line,
        WIDTH,
        initial_indent=indent,
        subsequent_indent=indent + INDENT * 2,
        break_long_words=False,
        break_on_hyphens=False,
    ) or [indent.rstrip()]


def record_line(narrator: Narrator, record: dict[str, Any]) -> str:
    who = narrator.army(int(record.get("seat", -1)))
    if record["type"] == "rejected":
        return f"✗ {who}'s answer rejected: {record.get('reason')}"
    if record["type"] == "timeout":
        return f"⏱ {who} ran out of time"
    detail = f": {record['detail']}" if record.get("detail") else ""
    return f"{who} forfeits ({record.get('status')}{detail})"


def units_text(units: Sequence[int]) -> str:
    """'3 footmen, 1 siege weapon' from counts in the engine's order."""
    names = (*UNIT_NAMES, ("siege weapon", "siege weapons"))
    parts = [_count(n, names[k]) for k, n in enumerate(units) if n and k < len(names)]
    return ", ".join(parts) or "no units"


def dice_text(dice: Sequence[int], ranked: bool = False) -> str:
    """Dice as rolled, or high to low when ``ranked`` (as they are compared)."""
    shown = sorted(dice, reverse=True) if ranked else dice
    return " ".join(str(d) for d in shown) or "no dice"


def _given(units: Sequence[int], due: Sequence[int] | None) -> str:
    """Free units placed ('+2 archers'), saying when the army reserve cut them short
    (fewer than ``due`` came) or left none ('no footmen (none left in the army reserve)')."""
    names = (*UNIT_NAMES, ("siege weapon", "siege weapons"))
    if due is None:
        return f"+{units_text(units)}"
    if not any(units):
        kinds = " or ".join(names[k][1] for k, n in enumerate(due) if n)
        return f"no {kinds} (none left in the army reserve)"
    short = [names[k][1] for k, n in enumerate(units) if k < len(due) and n < due[k]]
    if not short:
        return f"+{units_text(units)}"
    return f"+{units_text(units)} (the army reserve had no more {' or '.join(short)})"


def _names(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)


def _count(n: int, forms: tuple[str, str]) -> str:
    return f"{n} {forms[0] if n == 1 else forms[1]}"


def _coins(n: int) -> str:
    return _count(n, ("coin", "coins"))


def _hits(n: int) -> str:
    return _count(n, ("hit", "hits"))


def _dice_word(n: int) -> str:
    return "die" if n == 1 else "dice"


def _order(name: str) -> str:
    return name.replace("_", " ")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
