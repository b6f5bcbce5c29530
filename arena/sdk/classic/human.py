"""A person at the terminal as a seat: shows the position and prompts from the legal options.

Every decision shows what happened since the last one (in words), the board by continent
with owners and armies, each player's standing and own cards, then the options numbered from
0. The answer is an option number or an action as JSON (territories by name or id). Output
is plain text without colour when stdout is not a terminal, and input is read line by line,
so a script can play the seat through pipes.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from arena.errors import MalformedActionError
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
    action_from_dict,
)
from arena.sdk.bot import Answer, MatchInfo, Request
from arena.sdk.classic.human_view import KIND_TITLES, Narrator
from arena.sdk.human_seat import TerminalSeat

ANSWERS_OF: dict[str, tuple[type, ...]] = {
    "claim": (Claim,),
    "place": (Place,),
    "reinforce": (Place,),
    "place_neutral": (PlaceNeutral,),
    "headquarters": (ChooseHeadquarters,),
    "trade": (Trade,),
    "attack": (Attack, EndAttack),
    "defend": (Defend,),
    "reroll": (Reroll,),
    "occupy": (Occupy,),
    "fortify": (Fortify, EndTurn),
}
"""Which actions answer each decision kind (checked before sending: a wrong one is a strike)."""

HINTS = {
    "reinforce": 'to split: {"kind": "place", "placements": [["%s", 2], ["%s", 1]]}',
    "attack": 'to roll until a capture: {"kind": "attack", "from": "%s", "to": "%s", '
    '"dice": %d, "until": 1}',
    "fortify": 'to move fewer: {"kind": "fortify", "from": "%s", "to": "%s", "armies": 1}',
}


class HumanBot(TerminalSeat):
    """Answers by option number, or by an action as JSON (e.g. a reinforcement split)."""

    ANSWERS = "an option number, or an action as JSON"

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        super().__init__(stdin, stdout)
        self.narrator: Narrator | None = None

    def start(self, match: MatchInfo) -> None:
        self.narrator = Narrator(match.seat, match.names, match.board)
        super().start(match)

    def seat_name(self, seat: int) -> str | None:
        return None if self.narrator is None else self.narrator.player(seat)

    def choose(self, request: Request) -> Answer:
        narrator = self.narrator
        assert narrator is not None, "start() comes first"
        if request.request_id != self._asked or request.request_id == 0:
            self._show(request, narrator)
        self._asked = request.request_id
        self._options(request, narrator)
        count = len(request.choices)
        span = "0" if count == 1 else f"0-{count - 1}"
        while True:
            text = self._read_answer(f"Your choice ({span}, or an action as JSON): ")
            answer, problem = self._parse(text, request)
            if problem is None:
                return answer
            self._say(f"  {problem}: choose {span}, or an action as JSON.")

    # ------------------------------------------------------------ showing

    def _show(self, request: Request, narrator: Narrator) -> None:
        view = request.view
        lines = narrator.events(request.events, view["owner"])
        if lines:
            self._say()
            self._say("What happened:", "bold")
            for text in lines:
                self._say(f"  {text}")
        self._say()
        self.console.print(narrator.board_view(view, self.console.width, self.console.is_terminal))
        self._say()
        for text in narrator.standing(view):
            self._say(text)
        if view.get("mission"):
            self._say(f"Your mission: {view['mission']['text']}")
        if view.get("next_set_value") is not None and view["hand"]:
            self._say(f"The next set traded is worth {view['next_set_value']} armies.")
        turn = view["turn_seat"]
        whose = "your turn" if turn == request.seat else f"{narrator.player(turn)}'s turn"
        when = f"Round {view['round']}" if view["round"] else "Setup"
        self.console.rule(f"{when}, {whose}: {KIND_TITLES.get(request.kind, request.kind)}")

    def _options(self, request: Request, narrator: Narrator) -> None:
        self._say(narrator.situation(request), "bold")
        for i, action in enumerate(request.choices):
            self._say(f"  {i:>3}  {narrator.action(action, request)}")
        hint = _hint(request, narrator)
        if hint:
            self._say(f"  ({hint})", "dim")

    # ------------------------------------------------------------ reading

    def _parse(self, text: str, request: Request) -> tuple[Answer, str | None]:
        """The answer ``text`` stands for, or why it is not one."""
        count = len(request.choices)
        if not text:
            return 0, "type an option number"
        try:
            data = json.loads(text)
        except ValueError:
            return 0, f"{text!r} is not understood"
        if isinstance(data, int) and not isinstance(data, bool):
            if 0 <= data < count:
                return data, None
            return 0, f"{data} is not an option"
        if not isinstance(data, dict):
            return 0, f"{text!r} is not understood"
        try:
            action = action_from_dict(self._names_to_ids(data, request))
        except (MalformedActionError, ValueError) as exc:
            return 0, f"not understood ({exc})"
        problem = _check(action, request, self.narrator)
        return action, problem

    def _names_to_ids(self, data: dict[str, Any], request: Request) -> dict[str, Any]:
        """Territory (and card) names in a JSON action replaced by ids."""
        board = self.narrator
        assert board is not None, "start() comes first"
        names = {n.lower(): i for i, n in enumerate(board.territories)}

        def tid(value: Any) -> Any:
            if isinstance(value, str):
                if value.strip().lower() not in names:
                    raise ValueError(f"unknown territory {value!r}")
                return names[value.strip().lower()]
            return value

        out = dict(data)
        for key in ("territory", "from", "to", "bonus_territory"):
            if key in out:
                out[key] = tid(out[key])
        if isinstance(out.get("placements"), list):
            out["placements"] = [
                [tid(p[0]), *p[1:]] if isinstance(p, list) and p else p for p in out["placements"]
            ]
        if isinstance(out.get("cards"), list):
            wilds = iter(c for c in request.view["hand"] if c >= len(board.territories))
            out["cards"] = [next(wilds, -1) if c == "wild" else tid(c) for c in out["cards"]]
        return out


def _check(action: Action, request: Request, narrator: Narrator | None) -> str | None:
    """Why ``action`` would be refused for this decision, or None (saves a strike)."""
    if action in request.choices:
        return None
    kind, o = request.kind, request.options
    allowed = ANSWERS_OF.get(kind, ())
    if not isinstance(action, allowed):
        return f"that does not answer a {kind} decision"
    name = narrator.territory if narrator else str
    match action:
        case Place(placements):
            for t, n in placements:
                if t not in o.territories:
                    return f"you cannot place on {name(t)}"
                if n < 1:
                    return f"{n} armies on {name(t)}: place at least 1"
            total = sum(n for _, n in placements)
            if total != o.armies:
                return f"place exactly {o.armies} armies (that places {total})"
            return None
        case Attack(src, dst, dice, until, _):
            most = {(f, t): d for f, t, d in o.attacks}.get((src, dst))
            if most is None:
                return f"you cannot attack {name(dst)} from {name(src)}"
            if not 1 <= dice <= most:
                return f"roll 1 to {most} dice from {name(src)}"
            if until is None:
                return None
            armies = request.view["armies"][src]
            if not 1 <= until < armies:
                return f"until must be from 1 to {armies - 1} (the armies {name(src)} keeps)"
            return None
        case Fortify(src, dst, n):
            most = {(f, t): m for f, t, m in o.fortifies}.get((src, dst))
            if most is None:
                return f"you cannot move armies from {name(src)} to {name(dst)}"
            return None if 1 <= n <= most else f"move 1 to {most} armies"
        case Trade(cards, bonus) if cards is not None:
            if tuple(sorted(cards)) not in o.sets:
                return "those cards are not a set you hold"
            if bonus is not None and bonus not in o.bonus_territories:
                return f"{name(bonus)} cannot take the +2 armies of this set"
            return None
    return "that is not one of the options"


def _hint(request: Request, narrator: Narrator) -> str | None:
    """How to give an answer the numbered options do not list (split, repeat, move fewer)."""
    o, name = request.options, narrator.territory
    if request.kind == "reinforce" and o.armies >= 3 and len(o.territories) >= 2:
        return HINTS["reinforce"] % (name(o.territories[0]), name(o.territories[1]))
    if request.kind == "attack" and o.attacks:
        src, dst, dice = o.attacks[0]
        return HINTS["attack"] % (name(src), name(dst), dice)
    if request.kind == "fortify" and o.fortifies:
        src, dst, _ = o.fortifies[0]
        return HINTS["fortify"] % (name(src), name(dst))
    return None
