"""A person at the terminal as a RISK: Europe seat: shows the position and prompts.

Every decision shows what happened since the last one (in words, by Europe's replay
narrator), the position (every army's coins, crowns and reserve, own hand and chosen cards,
the held territories with units by type, the disputes, the revealed card), then the
representative choices numbered from 0 (the card pairs as a table of option numbers). The
answer is an option number, a command for a turn (``expand France Normandy 3f 1s``, ``tax
London``; see :data:`TURN_HELP`) or an action as JSON. What the decision's constraints settle
(the orders and bonus the card offers, the cities that can be taxed, whether a crown card
can be bought) is explained here without sending anything; the rest of the rules are the
referee's, whose rejection (the engine's own reason, a strike) is shown before the seat is
asked again.
Input and output streams are injected, so a script or a test plays the seat through them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, TextIO

from arena.errors import MalformedActionError
from arena.games.europe.actions import (
    NO_UNITS,
    NONE,
    Action,
    Move,
    Recruit,
    Turn,
    Units,
    action_from_dict,
)
from arena.games.europe.board import Board, europe_board
from arena.sdk.bot import MatchInfo, Request
from arena.sdk.europe.human_view import KIND_TITLES, Narrator
from arena.sdk.human_seat import TerminalSeat

GAME = "europe"
ASKED = {"casualties": "ask", "castle_reroll": "ask", "battle_order": "ask"}
"""The standing policies the seat declares: a person decides casualties, castle re-rolls
and the battle order at the prompt instead of a policy."""
UNIT_LETTERS = "facs"
"""Unit letters of the command language: footmen, archers, cavalry, siege weapons."""
HELP = """\
Answer with an option number (0 is always legal), `help`, `list` (the options again),
or an action as JSON with territory ids (e.g. {"kind": "bid", "coins": 2}).
An answer the referee refuses is a strike (the strike limit forfeits the seat)."""
TURN_HELP = """\
On your turn, a command does what the numbered options leave out. Units are counts by
type: 3f footmen, 2a archers, 1c cavalry, 1s siege weapons (e.g. `3f 1s`). Territories
and cities by name (France, Paris, León-Castile):
  expand FROM TO UNITS                  e.g. expand France Normandy 3f 1s
  split FROM TO UNITS TO UNITS          e.g. split France Normandy 2f Burgundy 1f
  manoeuvre FROM TO UNITS [via PLACE]   e.g. manoeuvre Normandy Paris 2f
  spend ITEM...                         units@PLACE, castle@PLACE, crown
                                        e.g. spend 2c@London crown, spend castle@Paris 3f@Paris
  tax CITY                              e.g. tax London
  none                                  play the card and do nothing
The card's bonus, in its own part, before or after the order (parts split by `;`):
  fortify PLACE                         e.g. fortify Paris; tax Paris
  assault FROM TO                       a siege assault, e.g. assault Saxony Bohemia; none
After an expand or split, a second `manoeuvre` is Berlin's free manoeuvre."""
ORDER_WORDS = {
    "none": NONE,
    "expand": "expand",
    "split": "split_expand",
    "split_expand": "split_expand",
    "manoeuvre": "manoeuvre",
    "maneuver": "manoeuvre",
    "spend": "spend",
    "tax": "tax",
}
BONUS_WORDS = {"fortify": "fortify", "assault": "siege_assault", "siege_assault": "siege_assault"}
PLACE_KEYS = ("city", "neighbour", "tax_city", "bonus_source", "bonus_target", "territory")
"""Fields of a JSON answer that may name a territory instead of giving its id."""


class HumanBot(TerminalSeat):
    """Answers a Europe decision by option number, a turn command, or an action as JSON."""

    games = (GAME,)
    ANSWERS = "an option number, a command, or `help`"

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        super().__init__(stdin, stdout)
        self.narrator: Narrator | None = None
        self.places = Places(europe_board())

    def declarations(self, game: str) -> dict[str, Any]:
        return dict(ASKED) if game == GAME else {}

    def start(self, match: MatchInfo) -> None:
        self.narrator = Narrator(match.seat, match.names, match.players)
        super().start(match)

    def seat_name(self, seat: int) -> str | None:
        return None if self.narrator is None else self.narrator.army(seat)

    # ------------------------------------------------------------ deciding

    def choose(self, request: Request) -> Any:
        narrator = self.narrator
        assert narrator is not None, "start() comes first"
        again = request.request_id == self._asked and request.request_id != 0
        self._asked = request.request_id
        if again:  # after a rejection: the position has not changed
            self._say(narrator.situation(request.kind, request.view, request.options), "bold")
        else:
            self._show(request, narrator)
            self._options(request, narrator)
        count = len(request.choices)
        span = "0" if count == 1 else f"0-{count - 1}"
        extra = "a command" if request.kind == "turn" else "JSON"
        while True:
            text = self._read_answer(f"Your choice ({span}, {extra}, or help): ")
            if text.lower() in ("help", "?"):
                self._say(HELP)
                if request.kind == "turn":
                    self._say(TURN_HELP)
                continue
            if text.lower() == "list":
                self._options(request, narrator)
                continue
            answer, problem = self._parse(text, request)
            if problem is None:
                return answer
            self._say(f"  {problem}: choose {span}, or type help.")

    # ------------------------------------------------------------ showing

    def _show(self, request: Request, narrator: Narrator) -> None:
        lines = narrator.events(request.events)
        if lines:
            self._say()
            self._say("What happened:", "bold")
            for text in lines:
                self._say(f"  {text}")
        self._say()
        for text in narrator.position(request.view):
            self._say(text)
        self.console.rule(KIND_TITLES.get(request.kind, request.kind))

    def _options(self, request: Request, narrator: Narrator) -> None:
        self._say(narrator.situation(request.kind, request.view, request.options), "bold")
        table = narrator.card_table(request.choices)
        if table is not None:  # every pair of cards: a table, not a line each
            for text in table:
                self._say(text)
            return
        for i, action in enumerate(request.choices):
            self._say(f"  {i:>3}  {narrator.action(action, request.options)}")
        if request.kind == "turn":
            self._say("  (or a command such as `expand FROM TO 3f 1s`: type help)", "dim")

    # ------------------------------------------------------------ reading

    def _parse(self, text: str, request: Request) -> tuple[Any, str | None]:
        """The answer ``text`` stands for, or why it is not one (nothing sent yet)."""
        count = len(request.choices)
        if not text:
            return 0, "type an option number"
        if re.fullmatch(r"-?\d+", text):
            number = int(text)
            return (number, None) if 0 <= number < count else (0, f"{number} is not an option")
        if text.startswith("{"):
            return self._json(text, request)
        word = text.split()[0].lower()
        if word in ORDER_WORDS or word in BONUS_WORDS:
            if request.kind != "turn":
                return 0, f"{word!r} is a command for your turn, not this decision"
            try:
                turn = self.places.turn(text)
            except ValueError as exc:
                return 0, str(exc)
            return turn, self._card_problem(turn, request.options)
        return 0, f"{text!r} is not understood"

    def _card_problem(self, turn: Turn, c: Mapping[str, Any]) -> str | None:
        """Why the turn's card or decision cannot take ``turn``, as far as the constraints
        settle it (None: nothing found; the referee judges the rest)."""
        narrator = self.narrator
        assert narrator is not None
        card = narrator.card(c["card"])
        orders = [str(o) for o in c["orders"]]
        if turn.order != NONE and turn.order not in orders:
            offered = " or ".join(o.replace("_", " ") for o in orders)
            return f"{card} has no {turn.order.replace('_', ' ')}: play {offered} (or none)"
        if turn.bonus != NONE and turn.bonus != c["bonus"]:
            return f"{card} has no {turn.bonus.replace('_', ' ')} bonus action"
        if turn.order == "tax":
            cities = [e["territory"] for e in c["tax_cities"]]
            if turn.tax_city not in cities:
                named = ", ".join(narrator.place(t) for t in cities) or "none"
                return (
                    f"{narrator.place(turn.tax_city)} cannot be taxed: tax one of your "
                    f"undisputed cities ({named})"
                )
        if turn.crown and not c["crown_card"]:
            return (
                "no crown card can be bought now (10 coins, one a round, while the bank has "
                "one; never with Kingdom Missions, never for a Mercenary Army)"
            )
        return None

    def _json(self, text: str, request: Request) -> tuple[Any, str | None]:
        try:
            data = json.loads(text)
        except ValueError:
            return 0, f"{text!r} is not valid JSON"
        if not isinstance(data, dict):
            return 0, f"{text!r} is not an action"
        try:
            action: Action = action_from_dict(self.places.named(data))
        except (MalformedActionError, ValueError) as exc:
            return 0, f"not understood ({exc})"
        if isinstance(action, Turn) and request.kind == "turn":
            return action, self._card_problem(action, request.options)
        return action, None


class Places:
    """Territory and city names for the command language (any case; names, keys, aliases
    and city names), and the parser of turn commands."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.names: dict[str, int] = dict(board.numbers)
        for t, city in enumerate(board.city):
            if city:
                self.names.setdefault(city.lower(), t)
        self.longest = max(len(n.split()) for n in self.names)

    def named(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A JSON action with territory names replaced by ids (in its top-level fields)."""
        out = dict(data)
        for key in PLACE_KEYS:
            if isinstance(out.get(key), str):
                out[key] = self.place(out[key])
        return out

    def place(self, name: str) -> int:
        found = self.names.get(name.strip().lower())
        if found is None:
            raise ValueError(f"no territory or city is named {name.strip()!r}")
        return found

    def turn(self, text: str) -> Turn:
        """The :class:`Turn` a command stands for; ``ValueError`` says what is wrong."""
        fields: dict[str, Any] = {}
        for part in (p.strip() for p in text.split(";")):
            if not part:
                continue
            word, *rest = part.split()
            items = self._items(" ".join(rest))
            key = word.lower()
            if key in BONUS_WORDS:
                if "bonus" in fields:
                    raise ValueError("a turn has one bonus action")
                fields.update(self._bonus(BONUS_WORDS[key], items))
                fields["bonus_first"] = "order" not in fields
            elif key in ORDER_WORDS:
                order = ORDER_WORDS[key]
                if "order" in fields:
                    if order != "manoeuvre" or fields["order"] not in ("expand", "split_expand"):
                        raise ValueError("a turn has one order (split the parts with ';')")
                    if "free_manoeuvre" in fields:
                        raise ValueError("Berlin gives one free manoeuvre")
                    fields["free_manoeuvre"] = self._moves(order, items)[0]
                    continue
                fields["order"] = order
                fields.update(self._order(order, items))
            else:
                raise ValueError(f"{word!r} is not a command (type help)")
        if "order" not in fields and "bonus" in fields:
            fields["order"] = NONE
        return Turn(**fields)

    def _order(self, order: str, items: list[Any]) -> dict[str, Any]:
        if order == NONE:
            if items:
                raise ValueError("`none` takes nothing after it")
            return {}
        if order == "tax":
            if len(items) != 1 or not isinstance(items[0], int):
                raise ValueError("tax names one city: tax London")
            return {"tax_city": items[0]}
        if order == "spend":
            return self._spend(items)
        return {"moves": tuple(self._moves(order, items))}

    def _moves(self, order: str, items: list[Any]) -> list[Move]:
        shape = f"{order.replace('_', ' ')} FROM TO UNITS"
        if len(items) < 3 or not isinstance(items[0], int):
            raise ValueError(f"write {shape} (e.g. 3f 1s)")
        source, rest = items[0], items[1:]
        moves = []
        while rest:
            if len(rest) < 2 or not isinstance(rest[0], int) or not isinstance(rest[1], tuple):
                raise ValueError(f"write {shape}: a territory, then its units")
            target, units, rest = rest[0], rest[1], rest[2:]
            via = -1
            if order == "manoeuvre" and rest[:1] == ["via"]:
                if len(rest) < 2 or not isinstance(rest[1], int):
                    raise ValueError("via names the territory passed through")
                via, rest = rest[1], rest[2:]
            moves.append(Move(source, target, units, via))
        if len(moves) > (2 if order == "split_expand" else 1):
            raise ValueError(f"too many moves for {order.replace('_', ' ')}")
        return moves

    def _spend(self, items: list[Any]) -> dict[str, Any]:
        recruits: dict[int, Units] = {}
        """Units by place (``2f@London 1s@London``: one recruit of both)."""
        castles: list[int] = []
        crown = False
        i = 0
        while i < len(items):
            item = items[i]
            if item == "crown":
                crown, i = True, i + 1
                continue
            if item == "castle" or isinstance(item, tuple):
                j = i + 1 + (items[i + 1 : i + 2] == ["@"])
                if j >= len(items) or not isinstance(items[j], int):
                    raise ValueError("spend: write units@PLACE, castle@PLACE or crown")
                if item == "castle":
                    castles.append(items[j])
                else:
                    before = recruits.get(items[j], NO_UNITS)
                    recruits[items[j]] = _plus(before, item)
                i = j + 1
                continue
            raise ValueError("spend: write units@PLACE, castle@PLACE or crown")
        if not (recruits or castles or crown):
            raise ValueError("spend on something: units@PLACE, castle@PLACE or crown")
        listed = tuple(Recruit(t, units) for t, units in recruits.items())
        return {"recruits": listed, "castles": tuple(castles), "crown": crown}

    def _bonus(self, bonus: str, items: list[Any]) -> dict[str, Any]:
        places = [i for i in items if isinstance(i, int)]
        if bonus == "fortify":
            if len(items) != 1 or len(places) != 1:
                raise ValueError("fortify names one territory: fortify Paris")
            return {"bonus": bonus, "bonus_target": places[0]}
        if len(items) != 2 or len(places) != 2:
            raise ValueError("assault names two territories: assault FROM TO")
        return {"bonus": bonus, "bonus_source": places[0], "bonus_target": places[1]}

    def _items(self, text: str) -> list[Any]:
        """The words of a command as items: territory ids, unit counts (consecutive counts
        add up), and the keywords ``via``, ``crown``, ``castle`` and ``@``."""
        words = text.replace("@", " @ ").split()
        items: list[Any] = []
        i = 0
        while i < len(words):
            word = words[i].lower()
            units = _unit_count(word)
            letters = re.fullmatch(r"\d+([a-z]+)", word)
            if units is None and letters is not None:
                raise ValueError(
                    f"{words[i]!r}: {letters.group(1)!r} is not a unit letter "
                    "(f footmen, a archers, c cavalry, s siege weapons)"
                )
            if units is not None:
                if items and isinstance(items[-1], tuple):
                    items[-1] = _plus(items[-1], units)
                else:
                    items.append(units)
                i += 1
                continue
            if word in ("via", "crown", "castle", "@"):
                items.append(word)
                i += 1
                continue
            for j in range(min(len(words), i + self.longest), i, -1):
                found = self.names.get(" ".join(words[i:j]).lower())
                if found is not None:
                    items.append(found)
                    i = j
                    break
            else:
                raise ValueError(f"no territory or city is named {words[i]!r}")
        return items


def _unit_count(word: str) -> Units | None:
    """'3f' as (3, 0, 0, 0), '1s' as (0, 0, 0, 1); None for a word that is not a count."""
    found = re.fullmatch(r"(\d+)([" + UNIT_LETTERS + "])", word)
    if found is None:
        return None
    counts = list(NO_UNITS)
    counts[UNIT_LETTERS.index(found.group(2))] = int(found.group(1))
    return (counts[0], counts[1], counts[2], counts[3])


def _plus(a: Units, b: Units) -> Units:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])
