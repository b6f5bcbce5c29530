"""The only mapping between engine types and protobuf messages.

Both directions live here so that an in-process seat can receive exactly what a remote bot
receives: the referee encodes, the SDK decodes, and a round trip gives back equal values.
"""

from __future__ import annotations

import json
from typing import Any

from arena.errors import MalformedActionError
from arena.games.classic.actions import (
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
from arena.games.classic.options import Options
from arena.protocol._pb.riskarena.classic.v1 import classic_pb2 as cpb
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.sdk.bot import MatchInfo, Request

PROTOCOL_VERSION = 1

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


def answer_to_pb(request_id: int, answer: Action | int) -> pb.Action:
    """A bot's answer (action or option index) as the wire Action."""
    if isinstance(answer, bool):  # an int to Python, but neither an index nor an action
        raise MalformedActionError(f"not an action: {answer!r}")
    if isinstance(answer, int):
        if answer < 0:
            raise MalformedActionError(f"option index must be ≥ 0, got {answer}")
        return pb.Action(request_id=request_id, option_index=answer)
    return pb.Action(request_id=request_id, classic=action_to_pb(answer))


def answer_from_pb(msg: pb.Action) -> Action | int:
    """The wire Action as an option index or an engine action."""
    which = msg.WhichOneof("answer")
    if which == "option_index":
        return msg.option_index
    if which == "classic":
        return action_from_pb(msg.classic)
    raise MalformedActionError("an Action needs option_index or classic")


# ----------------------------------------------------------------- events


def events_to_pb(events: list[dict[str, Any]]) -> list[pb.Event]:
    """Events (already redacted for the receiving seat) as messages."""
    return [pb.Event(type=e["type"], json=json.dumps(e, separators=(",", ":"))) for e in events]


def events_from_pb(messages: Any) -> list[dict[str, Any]]:
    """Back to event dicts."""
    return [json.loads(m.json) for m in messages]


# ------------------------------------------------------ match and requests


def rules_to_wire(rules: dict[str, Any]) -> dict[str, str]:
    """Rules options as the string map of MatchStart (booleans as true/false)."""
    return {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in rules.items()}


def match_start_to_pb(
    *,
    match_id: str,
    rules: dict[str, Any],
    seat: int,
    names: list[str],
    bot_seed: int,
    board: dict[str, Any],
    move_time_ms: int,
    time_bank_ms: int,
) -> pb.MatchStart:
    """The MatchStart one seat receives."""
    return pb.MatchStart(
        match_id=match_id,
        game="classic",
        rules=rules_to_wire(rules),
        seat=seat,
        players=len(names),
        player_names=names,
        bot_seed=bot_seed,
        board=board_to_pb(board),
        move_time_ms=move_time_ms,
        time_bank_ms=time_bank_ms,
    )


def match_info_from_pb(msg: pb.MatchStart) -> MatchInfo:
    """What :meth:`arena.sdk.Bot.start` receives."""
    return MatchInfo(
        game=msg.game,
        rules=dict(msg.rules),
        seat=msg.seat,
        players=msg.players,
        bot_seed=msg.bot_seed,
        board=board_from_pb(msg.board),
        names=tuple(msg.player_names),
        match_id=msg.match_id,
        move_time_ms=msg.move_time_ms,
        time_bank_ms=msg.time_bank_ms,
    )


def request_to_pb(
    *,
    request_id: int,
    match_id: str,
    view: dict[str, Any],
    options: Options,
    deadline_ms: int,
    time_bank_ms: int,
    server_time_ms: int,
    events: list[dict[str, Any]],
) -> pb.DecisionRequest:
    """A DecisionRequest for one seat (``view`` and ``events`` already that seat's own)."""
    return pb.DecisionRequest(
        request_id=request_id,
        match_id=match_id,
        kind=options.kind,
        view=view_to_pb(view),
        options=options_to_pb(options),
        deadline_ms=deadline_ms,
        time_bank_ms=time_bank_ms,
        server_time_ms=server_time_ms,
        events=events_to_pb(events),
    )


def request_from_pb(msg: pb.DecisionRequest, game: str = "") -> Request:
    """What :meth:`arena.sdk.Bot.choose` receives.

    ``game`` is that of the MatchStart the request belongs to (DecisionRequest does not
    repeat it); its view and options are classic messages, so classic when not given.
    """
    return Request.make(
        msg.options.seat,
        view_from_pb(msg.view),
        options_from_pb(msg.options),
        request_id=msg.request_id,
        deadline_ms=msg.deadline_ms,
        time_bank_ms=msg.time_bank_ms,
        events=events_from_pb(msg.events),
        game=game or "classic",
    )


_STATUS = {
    "OK": pb.SEAT_STATUS_OK,
    "TIMEOUT": pb.SEAT_STATUS_TIMEOUT,
    "ILLEGAL": pb.SEAT_STATUS_ILLEGAL,
    "CRASH": pb.SEAT_STATUS_CRASH,
    "DISCONNECT": pb.SEAT_STATUS_DISCONNECT,
    "INIT_FAIL": pb.SEAT_STATUS_INIT_FAIL,
    "PROTOCOL": pb.SEAT_STATUS_PROTOCOL,
}
_STATUS_NAME = {v: k for k, v in _STATUS.items()}
UNKNOWN_STATUS = "UNKNOWN"
"""How :func:`match_end_to_dict` spells a status it does not know (``SEAT_STATUS_UNSPECIFIED``
or one a newer referee added): never ``OK``, so a bot cannot take a forfeit for a clean end."""


def match_end_to_pb(
    match_id: str, seats: list[dict[str, Any]], end: str, winner: int | None
) -> pb.MatchEnd:
    """MatchEnd from the seats' result dicts (seat, bot, place, status, strikes)."""
    return pb.MatchEnd(
        match_id=match_id,
        seats=[
            pb.SeatResult(
                seat=s["seat"],
                bot=s["bot"],
                place=s["place"],
                status=_STATUS[s["status"]],
                strikes=s["strikes"],
            )
            for s in seats
        ],
        end_reason=end,
        winner=-1 if winner is None else winner,
    )


def match_end_to_dict(msg: pb.MatchEnd) -> dict[str, Any]:
    """What :meth:`arena.sdk.Bot.finish` receives (an unknown status is ``"UNKNOWN"``)."""
    return {
        "match_id": msg.match_id,
        "places": [s.place for s in msg.seats],
        "seats": [
            {
                "seat": s.seat,
                "bot": s.bot,
                "place": s.place,
                "status": _STATUS_NAME.get(s.status, UNKNOWN_STATUS),
                "strikes": s.strikes,
            }
            for s in msg.seats
        ],
        "end": msg.end_reason,
        "winner": None if msg.winner < 0 else msg.winner,
    }
