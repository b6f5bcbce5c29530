"""Classic RISK on the wire: its board, views, options and actions as the
``riskarena.classic.v1`` messages the envelope carries (see :mod:`arena.protocol.api`).

The only protocol module that knows classic; registered as ``classic`` in
:mod:`arena.protocol`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.errors import MalformedActionError
from arena.games.api import Game
from arena.games.classic.actions import (
    KIND_OF,
    REROLL_POLICIES,
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
from arena.games.classic.options import Options, choices
from arena.protocol._pb.riskarena.classic.v1 import classic_pb2 as cpb
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb

ALWAYS_MAX_DEFENCE = "always_max_defence"
_ACTION_TYPES = frozenset(KIND_OF)
"""Answers an in-process bot may hand over as they are (immutable engine actions)."""
_OPTIONAL = frozenset({"until", "die", "bonus_territory", "cards"})


def _is_pair(value: Any) -> bool:
    return type(value) is tuple and len(value) == 2 and all(type(v) is int for v in value)


def _canonical(action: Action) -> bool:
    """Whether the action is already in the form a wire round trip gives (plain ints, tuples,
    a known re-roll policy), so that the in-process path may skip the round trip."""
    for name in action.__dataclass_fields__:
        value = getattr(action, name)
        if type(value) is int or (value is None and name in _OPTIONAL):
            continue
        if name == "reroll" and value in REROLL_POLICIES:
            continue
        if name == "placements" and type(value) is tuple and all(map(_is_pair, value)):
            continue
        cards = name == "cards" and type(value) is tuple and len(value) == 3
        if cards and all(type(c) is int for c in value):
            continue
        return False
    return True


# ------------------------------------------------------------------ board


def board_to_pb(board: dict[str, Any]) -> cpb.Board:
    """The board dict of :meth:`Board.to_dict` as a message."""
    return cpb.Board(
        territories=board["territories"],
        neighbours=[cpb.Neighbours(ids=n) for n in board["neighbours"]],
        continents=[
            cpb.Continent(name=c["name"], bonus=c["bonus"], territories=c["territories"])
            for c in board["continents"]
        ],
        card_symbols=board["card_symbols"],
    )


def board_from_pb(msg: cpb.Board) -> dict[str, Any]:
    """Back to the dict form bots receive in :class:`arena.sdk.MatchInfo`."""
    return {
        "name": "classic",
        "territories": list(msg.territories),
        "neighbours": [list(n.ids) for n in msg.neighbours],
        "continents": [
            {"name": c.name, "bonus": c.bonus, "territories": list(c.territories)}
            for c in msg.continents
        ],
        "card_symbols": list(msg.card_symbols),
    }


# ------------------------------------------------------------------- view

_VIEW_LISTS = (
    "deciding",
    "owner",
    "armies",
    "reserve",
    "hand",
    "card_counts",
    "eliminated",
    "forfeited",
    "always_max",
    "headquarters",
)
_VIEW_SCALARS = (
    "seat",
    "players",
    "phase",
    "turn_seat",
    "round",
    "turns",
    "neutral_reserve",
    "deck_size",
    "sets_traded",
    "to_place",
    "conquered_this_turn",
)


def view_to_pb(view: dict[str, Any]) -> cpb.ClassicView:
    """A view dict (:func:`arena.games.classic.view.view_for`) as a message."""
    msg = cpb.ClassicView(**{k: view[k] for k in _VIEW_SCALARS + _VIEW_LISTS})
    if view["next_set_value"] is not None:
        msg.next_set_value = view["next_set_value"]
    if view["mission"] is not None:
        msg.mission.id = view["mission"]["id"]
        msg.mission.text = view["mission"]["text"]
    if view["attack"] is not None:
        a = view["attack"]
        msg.attack.source, msg.attack.target, msg.attack.dice = a["from"], a["to"], a["dice"]
    if view["places"]:
        msg.places.extend(view["places"])
    return msg


def view_from_pb(msg: cpb.ClassicView) -> dict[str, Any]:
    """Back to the exact dict the engine produced."""
    view: dict[str, Any] = {k: getattr(msg, k) for k in _VIEW_SCALARS}
    for k in _VIEW_LISTS:
        view[k] = list(getattr(msg, k))
    view["next_set_value"] = msg.next_set_value if msg.HasField("next_set_value") else None
    view["mission"] = (
        {"id": msg.mission.id, "text": msg.mission.text} if msg.HasField("mission") else None
    )
    view["attack"] = (
        {"from": msg.attack.source, "to": msg.attack.target, "dice": msg.attack.dice}
        if msg.HasField("attack")
        else None
    )
    view["places"] = list(msg.places) or None
    return view


# ---------------------------------------------------------------- options


def options_to_pb(options: Options) -> cpb.ClassicOptions:
    """Legal options as a message."""
    return cpb.ClassicOptions(
        kind=options.kind,
        seat=options.seat,
        territories=options.territories,
        armies=options.armies,
        sets=[cpb.CardSet(cards=s) for s in options.sets],
        required=options.required,
        bonus_territories=options.bonus_territories,
        attacks=[cpb.AttackOption(source=f, target=t, max_dice=d) for f, t, d in options.attacks],
        max_dice=options.max_dice,
        battle=cpb.Battle(
            source=max(options.battle[0], 0),
            target=max(options.battle[1], 0),
            dice=options.battle[2],
        ),
        attacker_dice=options.attacker_dice,
        defender_dice=options.defender_dice,
        min_armies=options.min_armies,
        max_armies=options.max_armies,
        fortifies=[
            cpb.FortifyOption(source=f, target=t, max_armies=m) for f, t, m in options.fortifies
        ],
    )


_BATTLE_KINDS = ("defend", "reroll", "occupy")


def options_from_pb(msg: cpb.ClassicOptions) -> Options:
    """Back to the engine's :class:`Options` (equal to what was encoded)."""
    battle = (
        (msg.battle.source, msg.battle.target, msg.battle.dice)
        if msg.kind in _BATTLE_KINDS
        else (-1, -1, 0)
    )
    return Options(
        kind=msg.kind,
        seat=msg.seat,
        territories=tuple(msg.territories),
        armies=msg.armies,
        sets=tuple((s.cards[0], s.cards[1], s.cards[2]) for s in msg.sets),
        required=msg.required,
        bonus_territories=tuple(msg.bonus_territories),
        attacks=tuple((a.source, a.target, a.max_dice) for a in msg.attacks),
        max_dice=msg.max_dice,
        battle=battle,
        attacker_dice=tuple(msg.attacker_dice),
        defender_dice=tuple(msg.defender_dice),
        min_armies=msg.min_armies,
        max_armies=msg.max_armies,
        fortifies=tuple((f.source, f.target, f.max_armies) for f in msg.fortifies),
    )


# ----------------------------------------------------------------- action


def action_to_pb(action: Action) -> cpb.ClassicAction:
    """An engine action as a structured message."""
    match action:
        case Claim(t):
            return cpb.ClassicAction(kind="claim", territory=t)
        case PlaceNeutral(t):
            return cpb.ClassicAction(kind="place_neutral", territory=t)
        case ChooseHeadquarters(t):
            return cpb.ClassicAction(kind="headquarters", territory=t)
        case Place(placements):
            return cpb.ClassicAction(
                kind="place",
                placements=[cpb.Placement(territory=t, armies=n) for t, n in placements],
            )
        case Trade(cards, bonus):
            msg = cpb.ClassicAction(kind="trade", cards=cards or ())
            if bonus is not None:
                msg.bonus_territory = bonus
            return msg
        case Attack(src, dst, dice, until, reroll):
            msg = cpb.ClassicAction(kind="attack", source=src, target=dst, dice=dice, reroll=reroll)
            if until is not None:
                msg.until = until
            return msg
        case EndAttack():
            return cpb.ClassicAction(kind="end_attack")
        case Defend(dice):
            return cpb.ClassicAction(kind="defend", dice=dice)
        case Reroll(die):
            msg = cpb.ClassicAction(kind="reroll")
            if die is not None:
                msg.die = die
            return msg
        case Occupy(armies):
            return cpb.ClassicAction(kind="occupy", armies=armies)
        case Fortify(src, dst, armies):
            return cpb.ClassicAction(kind="fortify", source=src, target=dst, armies=armies)
        case EndTurn():
            return cpb.ClassicAction(kind="end_turn")
    raise MalformedActionError(f"not an action: {action!r}")


def action_from_pb(msg: cpb.ClassicAction) -> Action:
    """A structured message as an engine action; :class:`MalformedActionError` on bad shape."""
    kind = msg.kind
    if kind == "claim":
        return Claim(msg.territory)
    if kind == "place_neutral":
        return PlaceNeutral(msg.territory)
    if kind == "headquarters":
        return ChooseHeadquarters(msg.territory)
    if kind in ("place", "reinforce"):
        return Place(tuple((p.territory, p.armies) for p in msg.placements))
    if kind == "trade":
        bonus = msg.bonus_territory if msg.HasField("bonus_territory") else None
        if not msg.cards:
            return Trade(None, bonus)  # a bonus without a set is the engine's to reject
        if len(msg.cards) != 3:
            raise MalformedActionError(
                f"trade needs exactly 3 card ids (or none to decline), got {list(msg.cards)}"
            )
        return Trade((msg.cards[0], msg.cards[1], msg.cards[2]), bonus)
    if kind == "attack":
        reroll = msg.reroll or "ask"
        if reroll not in REROLL_POLICIES:
            raise MalformedActionError(
                f"attack reroll must be one of {', '.join(REROLL_POLICIES)}, got {reroll!r}"
            )
        until = msg.until if msg.HasField("until") else None
        return Attack(msg.source, msg.target, msg.dice, until, reroll)
    if kind == "end_attack":
        return EndAttack()
    if kind == "defend":
        return Defend(msg.dice)
    if kind == "reroll":
        return Reroll(msg.die if msg.HasField("die") else None)
    if kind == "occupy":
        return Occupy(msg.armies)
    if kind == "fortify":
        return Fortify(msg.source, msg.target, msg.armies)
    if kind == "end_turn":
        return EndTurn()
    raise MalformedActionError(
        f"unknown action kind {kind!r}; expected claim, place, place_neutral, headquarters, "
        "trade, attack, end_attack, defend, reroll, occupy, fortify or end_turn"
    )


class ClassicCodec:
    """Classic's fields of the envelope: ``MatchStart.board``, ``DecisionRequest.view`` and
    ``.options``, ``Action.classic``, and the always-max defence of ``Hello``."""

    def put_board(self, message: pb.MatchStart, board: dict[str, Any]) -> None:
        message.board.CopyFrom(board_to_pb(board))

    def put_request(
        self,
        message: pb.DecisionRequest,
        game: Game[Any, Any, Any],
        view: dict[str, Any],
        options: Options,
    ) -> None:
        message.view.CopyFrom(view_to_pb(view))
        message.options.CopyFrom(options_to_pb(options))

    def action_from_pb(self, message: pb.Action, game: Game[Any, Any, Any]) -> Action:
        if message.WhichOneof("answer") != "classic":
            raise MalformedActionError("a classic Action needs option_index or classic")
        return action_from_pb(message.classic)

    def declarations_from_hello(self, hello: pb.Hello) -> dict[str, Any]:
        declared = hello.classic.always_max_defence or hello.always_max_defence  # field 5: v1
        return {ALWAYS_MAX_DEFENCE: bool(declared)}

    def board_from_pb(self, message: pb.MatchStart) -> dict[str, Any]:
        return board_from_pb(message.board)

    def request_from_pb(
        self, message: pb.DecisionRequest, seat: int
    ) -> tuple[int, dict[str, Any], Options, list[Action]]:
        options = options_from_pb(message.options)
        return options.seat, view_from_pb(message.view), options, choices(options)

    def put_action(self, message: pb.Action, action: Any) -> None:
        message.classic.CopyFrom(action_to_pb(action))

    def local_request(
        self,
        game: Game[Any, Any, Any],
        seat: int,
        view: dict[str, Any],
        options: Options,
        listed: list[Action],
    ) -> tuple[int, dict[str, Any], Options, list[Action]]:
        return options.seat, view, options, list(listed)

    def direct_answer(self, game: Game[Any, Any, Any], answer: Any) -> Action | None:
        if type(answer) in _ACTION_TYPES and _canonical(answer):
            action: Action = answer  # immutable and already in the form the wire gives back
            return action
        return None

    def put_declarations(self, hello: pb.Hello, declarations: Mapping[str, Any]) -> None:
        always_max = bool(declarations.get(ALWAYS_MAX_DEFENCE, False))
        hello.classic.always_max_defence = always_max
        hello.always_max_defence = always_max  # also field 5, for referees of before games


CODEC = ClassicCodec()
