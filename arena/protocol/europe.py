"""RISK: Europe on the wire: its board, views, options (constraints and representative
choices), actions and Hello declarations as the ``riskarena.europe.v1`` messages the
envelope carries (see :mod:`arena.protocol.api`).

Every mapping round-trips: a bot decodes exactly the board, view and constraints dicts the
engine produced, and the choices as the engine's own action objects. Registered as
``europe`` in :mod:`arena.protocol`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.errors import MalformedActionError
from arena.games.api import Game
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
    Recruit,
    Reroll,
    Turn,
    Units,
    action_from_dict,
)
from arena.games.europe.options import EuropeOptions
from arena.games.europe.rules import DECLARATIONS
from arena.protocol._pb.riskarena.europe.v1 import europe_pb2 as epb
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb

# ---------------------------------------------------------------------------- pieces


def _units_pb(units: Any) -> epb.Units:
    return epb.Units(footmen=units[0], archers=units[1], cavalry=units[2], siege=units[3])


def _units(msg: epb.Units) -> Units:
    return (msg.footmen, msg.archers, msg.cavalry, msg.siege)


def _optional(msg: Any, name: str) -> int:
    return getattr(msg, name) if msg.HasField(name) else -1


# ----------------------------------------------------------------------------- board


def board_to_pb(board: Mapping[str, Any]) -> epb.Board:
    return epb.Board(
        territories=[
            epb.Territory(
                id=t["id"],
                name=t["name"],
                key=t["key"],
                land=t["land"],
                sea=t["sea"],
                city=t["city"] or "",
                gold=t["gold"],
                tax=t["tax"],
                crowns=t["crowns"],
                tile=t["tile"] or "",
            )
            for t in board["territories"]
        ],
        deck=[
            epb.Card(id=c["id"], orders=c["orders"], bonus=c["bonus"] or "") for c in board["deck"]
        ],
        unit_types=board["unit_types"],
        unit_costs=board["unit_costs"],
        army_units=board["army_units"],
        castle_cost=board["castle_cost"],
        crown_card_cost=board["crown_card_cost"],
    )


def board_from_pb(msg: epb.Board) -> dict[str, Any]:
    """Back to the exact dict of :meth:`arena.games.europe.board.Board.to_dict`."""
    return {
        "territories": [
            {
                "id": t.id,
                "name": t.name,
                "key": t.key,
                "land": list(t.land),
                "sea": list(t.sea),
                "city": t.city or None,
                "gold": t.gold,
                "tax": t.tax,
                "crowns": t.crowns,
                "tile": t.tile or None,
            }
            for t in msg.territories
        ],
        "deck": [
            {"id": c.id, "orders": list(c.orders), "bonus": c.bonus or None} for c in msg.deck
        ],
        "unit_types": list(msg.unit_types),
        "unit_costs": list(msg.unit_costs),
        "army_units": list(msg.army_units),
        "castle_cost": msg.castle_cost,
        "crown_card_cost": msg.crown_card_cost,
    }


# ------------------------------------------------------------------------------ view

_VIEW_SCALARS = ("seat", "round", "turn", "phase", "marker", "revealed", "crowns_to_win")
_VIEW_LISTS = ("order", "disputes", "battles")
_ARMY_SCALARS = (
    "army",
    "mercenary",
    "alive",
    "controller",
    "coins",
    "crowns",
    "crown_cards",
    "hand_size",
    "saved_by_the_crown",
    "home",
)
_BATTLE_FIELDS = ("territory", "attacker", "defender", "rank", "repetition", "rerolled")


def view_to_pb(view: Mapping[str, Any]) -> epb.EuropeView:
    msg = epb.EuropeView(
        **{k: view[k] for k in _VIEW_SCALARS + _VIEW_LISTS},
        castles_left=view["castles_left"],
        crown_cards_left=view["crown_cards_left"],
    )
    for t in view["territories"]:
        entry = msg.territories.add(owner=t["owner"], attacker=t["attacker"], castle=t["castle"])
        for army, units in t["units"].items():
            entry.units[int(army)].CopyFrom(_units_pb(units))
    for a in view["armies"]:
        army = msg.armies.add(
            **{k: a[k] for k in _ARMY_SCALARS},
            reserve=_units_pb(a["reserve"]),
            discards=a["discards"],
            cards=a["cards"],
        )
        if "hand" in a:
            army.hand.cards.extend(a["hand"])
        if "missions_held" in a:
            army.missions_held = a["missions_held"]
            army.missions_completed.extend(a["missions_completed"])
        if "missions" in a:
            army.missions.ids.extend(a["missions"])
    fight = view["battle"]
    if fight is not None:
        msg.battle.CopyFrom(
            epb.BattleState(
                **{k: fight[k] for k in _BATTLE_FIELDS},
                attacker_dice=fight["attacker_dice"],
                defender_dice=fight["defender_dice"],
            )
        )
    for loss in view["losses"]:
        msg.losses.add(army=loss["army"], territory=loss["territory"], count=loss["count"])
    if "drawn" in view:
        msg.drawn.extend(view["drawn"])
    return msg


def view_from_pb(msg: epb.EuropeView) -> dict[str, Any]:
    """Back to the exact dict of :func:`arena.games.europe.view.view_for`."""
    armies = []
    for a in msg.armies:
        army: dict[str, Any] = {k: getattr(a, k) for k in _ARMY_SCALARS}
        army["reserve"] = list(_units(a.reserve))
        army["discards"] = list(a.discards)
        army["cards"] = list(a.cards)
        if a.HasField("hand"):
            army["hand"] = list(a.hand.cards)
        if a.HasField("missions_held"):
            army["missions_held"] = a.missions_held
            army["missions_completed"] = list(a.missions_completed)
        if a.HasField("missions"):
            army["missions"] = list(a.missions.ids)
        armies.append(army)
    view: dict[str, Any] = {
        "seat": msg.seat,
        "round": msg.round,
        "turn": msg.turn,
        "phase": msg.phase,
        "marker": msg.marker,
        "order": list(msg.order),
        "territories": [
            {
                "owner": t.owner,
                "attacker": t.attacker,
                "castle": t.castle,
                "units": {str(a): list(_units(t.units[a])) for a in sorted(t.units)},
            }
            for t in msg.territories
        ],
        "armies": armies,
        "castles_left": msg.castles_left,
        "crown_cards_left": msg.crown_cards_left,
        "disputes": list(msg.disputes),
        "battles": list(msg.battles),
        "battle": None,
        "losses": [
            {"army": p.army, "territory": p.territory, "count": p.count} for p in msg.losses
        ],
        "revealed": msg.revealed,
        "crowns_to_win": msg.crowns_to_win,
    }
    if msg.HasField("battle"):
        b = msg.battle
        view["battle"] = {
            **{k: getattr(b, k) for k in _BATTLE_FIELDS},
            "attacker_dice": list(b.attacker_dice),
            "defender_dice": list(b.defender_dice),
        }
    if msg.drawn:
        view["drawn"] = list(msg.drawn)
    return view


# --------------------------------------------------------------------------- options


def _turn_options_pb(c: Mapping[str, Any]) -> epb.TurnOptions:
    msg = epb.TurnOptions(
        card=c["card"],
        orders=c["orders"],
        bonus=c["bonus"] or "",
        coins=c["coins"],
        reserve=_units_pb(c["reserve"]),
        unit_costs=c["unit_costs"],
        recruit_to=c["recruit_to"],
        castle_cost=c["castle_cost"],
        castles_left=c["castles_left"],
        castle_to=c["castle_to"],
        crown_card=c["crown_card"],
        tax_cities=[
            epb.TaxCity(territory=e["territory"], coins=e["coins"]) for e in c["tax_cities"]
        ],
        berlin=c["berlin"],
    )
    for s in c["sources"]:
        source = msg.sources.add(
            territory=s["territory"],
            units=_units_pb(s["units"]),
            expand_keep=s["expand_keep"],
            expand_to=[
                epb.ExpandTarget(territory=e["territory"], needs_siege=e["needs_siege"])
                for e in s["expand_to"]
            ],
        )
        if "manoeuvre_keep" in s:
            source.manoeuvre_keep = s["manoeuvre_keep"]
            source.manoeuvre_to.extend(
                epb.Route(territory=r["territory"], via=r["via"]) for r in s["manoeuvre_to"]
            )
    return msg


def _turn_options(msg: epb.TurnOptions) -> dict[str, Any]:
    sources = []
    for s in msg.sources:
        entry: dict[str, Any] = {
            "territory": s.territory,
            "units": list(_units(s.units)),
            "expand_keep": s.expand_keep,
            "expand_to": [
                {"territory": e.territory, "needs_siege": e.needs_siege} for e in s.expand_to
            ],
        }
        if s.HasField("manoeuvre_keep"):
            entry["manoeuvre_keep"] = s.manoeuvre_keep
            entry["manoeuvre_to"] = [
                {"territory": r.territory, "via": r.via} for r in s.manoeuvre_to
            ]
        sources.append(entry)
    return {
        "card": msg.card,
        "orders": list(msg.orders),
        "bonus": msg.bonus or None,
        "sources": sources,
        "coins": msg.coins,
        "reserve": list(_units(msg.reserve)),
        "unit_costs": list(msg.unit_costs),
        "recruit_to": list(msg.recruit_to),
        "castle_cost": msg.castle_cost,
        "castles_left": msg.castles_left,
        "castle_to": list(msg.castle_to),
        "crown_card": msg.crown_card,
        "tax_cities": [{"territory": e.territory, "coins": e.coins} for e in msg.tax_cities],
        "berlin": msg.berlin,
    }


def options_to_pb(options: EuropeOptions) -> epb.EuropeOptions:
    msg = epb.EuropeOptions(
        kind=options.kind, army=options.army, choices=[action_to_pb(a) for a in options.listed]
    )
    c = options.constraints
    kind = options.kind
    if kind == "bid":
        msg.bid.max_coins = c["max_coins"]
    elif kind == "mercenary_bid":
        msg.mercenary_bid.mercenaries.extend(c["mercenaries"])
        msg.mercenary_bid.max_total = c["max_total"]
    elif kind == "kingdom":
        k = msg.kingdom
        k.cities.extend(c["cities"])
        for city, ids in c["neighbours"].items():
            k.neighbours[int(city)].ids.extend(ids)
        k.footmen, k.castle = c["footmen"], c["castle"]
    elif kind in ("cards", "mercenary_cards"):
        msg.cards.hand.extend(c["hand"])
    elif kind == "mission":
        msg.mission.drawn.extend(c["drawn"])
    elif kind == "battle_order":
        msg.battle_order.territories.extend(c["territories"])
    elif kind == "reroll":
        msg.reroll.CopyFrom(
            epb.RerollOptions(
                territory=c["territory"],
                rank=c["rank"],
                attacker_dice=c["attacker_dice"],
                defender_dice=c["defender_dice"],
            )
        )
    elif kind == "casualties":
        msg.casualties.CopyFrom(
            epb.CasualtyOptions(
                territory=c["territory"], count=c["count"], units=_units_pb(c["units"])
            )
        )
    else:
        msg.turn.CopyFrom(_turn_options_pb(c))
    return msg


def options_from_pb(msg: epb.EuropeOptions) -> tuple[dict[str, Any], list[Action]]:
    """The constraints dict (``army`` included) and the choices as engine actions."""
    which = msg.WhichOneof("constraints")
    c: dict[str, Any]
    if which == "bid":
        c = {"max_coins": msg.bid.max_coins}
    elif which == "mercenary_bid":
        c = {
            "mercenaries": list(msg.mercenary_bid.mercenaries),
            "max_total": msg.mercenary_bid.max_total,
        }
    elif which == "kingdom":
        k = msg.kingdom
        c = {
            "cities": list(k.cities),
            "neighbours": {str(city): list(k.neighbours[city].ids) for city in k.cities},
            "footmen": k.footmen,
            "castle": k.castle,
        }
    elif which == "cards":
        c = {"hand": list(msg.cards.hand)}
    elif which == "mission":
        c = {"drawn": list(msg.mission.drawn)}
    elif which == "battle_order":
        c = {"territories": list(msg.battle_order.territories)}
    elif which == "reroll":
        r = msg.reroll
        c = {
            "territory": r.territory,
            "rank": r.rank,
            "attacker_dice": list(r.attacker_dice),
            "defender_dice": list(r.defender_dice),
        }
    elif which == "casualties":
        k2 = msg.casualties
        c = {"territory": k2.territory, "count": k2.count, "units": list(_units(k2.units))}
    elif which == "turn":
        c = _turn_options(msg.turn)
    else:
        c = {}
    c["army"] = msg.army
    return c, [action_from_pb(a) for a in msg.choices]


# --------------------------------------------------------------------------- actions


def _move_pb(move: Move) -> epb.Move:
    msg = epb.Move(source=move.source, target=move.target, units=_units_pb(move.units))
    if move.via != -1:
        msg.via = move.via
    return msg


def _move(msg: epb.Move) -> Move:
    return Move(msg.source, msg.target, _units(msg.units), _optional(msg, "via"))


def _turn_pb(turn: Turn) -> epb.TurnAction:
    msg = epb.TurnAction(
        order=turn.order,
        moves=[_move_pb(m) for m in turn.moves],
        recruits=[
            epb.Recruit(territory=r.territory, units=_units_pb(r.units)) for r in turn.recruits
        ],
        castles=turn.castles,
        crown=turn.crown,
        bonus=turn.bonus,
        bonus_first=turn.bonus_first,
    )
    for name in ("tax_city", "bonus_source", "bonus_target"):
        value = getattr(turn, name)
        if value != -1:
            setattr(msg, name, value)
    if turn.free_manoeuvre is not None:
        msg.free_manoeuvre.CopyFrom(_move_pb(turn.free_manoeuvre))
    return msg


def _turn(msg: epb.TurnAction) -> Turn:
    return Turn(
        order=msg.order or NONE,
        moves=tuple(_move(m) for m in msg.moves),
        recruits=tuple(Recruit(r.territory, _units(r.units)) for r in msg.recruits),
        castles=tuple(msg.castles),
        crown=msg.crown,
        tax_city=_optional(msg, "tax_city"),
        bonus=msg.bonus or NONE,
        bonus_first=msg.bonus_first,
        bonus_source=_optional(msg, "bonus_source"),
        bonus_target=_optional(msg, "bonus_target"),
        free_manoeuvre=_move(msg.free_manoeuvre) if msg.HasField("free_manoeuvre") else None,
    )


def action_to_pb(action: Action) -> epb.EuropeAction:
    """A Europe action as a message (ValueError/TypeError for a value the wire cannot hold)."""
    match action:
        case Bid(coins):
            return epb.EuropeAction(kind="bid", coins=coins)
        case MercenaryBid(coins):
            return epb.EuropeAction(kind="mercenary_bid", bids=coins)
        case Kingdom(city, neighbour, footmen):
            msg = epb.EuropeAction(kind="kingdom", city=city, footmen_in_city=footmen)
            if neighbour != -1:
                msg.neighbour = neighbour
            return msg
        case Cards(first, second):
            return epb.EuropeAction(kind="cards", first=first, second=second)
        case Turn():
            return epb.EuropeAction(kind="turn", turn=_turn_pb(action))
        case KeepMission(index):
            return epb.EuropeAction(kind="mission", index=index)
        case BattleOrder(territories):
            return epb.EuropeAction(kind="battle_order", territories=territories)
        case Reroll(rank):
            return epb.EuropeAction(kind="reroll", rank=rank)
        case Casualties(units):
            return epb.EuropeAction(kind="casualties", units=_units_pb(units))
    raise MalformedActionError(f"not a RISK: Europe action: {action!r:.80}")


def action_from_pb(msg: epb.EuropeAction) -> Action:
    kind = msg.kind
    if kind == "bid":
        return Bid(msg.coins)
    if kind == "mercenary_bid":
        return MercenaryBid(tuple(msg.bids))
    if kind == "kingdom":
        return Kingdom(msg.city, _optional(msg, "neighbour"), msg.footmen_in_city)
    if kind in ("cards", "mercenary_cards"):
        return Cards(msg.first, msg.second)
    if kind == "turn":
        return _turn(msg.turn)
    if kind == "mission":
        return KeepMission(msg.index)
    if kind == "battle_order":
        return BattleOrder(tuple(msg.territories))
    if kind == "reroll":
        return Reroll(msg.rank)
    if kind == "casualties":
        return Casualties(_units(msg.units))
    raise MalformedActionError(
        f"unknown europe action kind {kind!r}; expected bid, mercenary_bid, kingdom, cards, "
        "turn, mission, battle_order, reroll or casualties"
    )


# ----------------------------------------------------------------------------- codec


class EuropeCodec:
    """RISK: Europe's fields of the envelope: ``MatchStart.europe_board``,
    ``DecisionRequest.europe_view`` and ``.europe_options``, ``Action.europe`` and
    ``Hello.europe``."""

    def put_board(self, message: pb.MatchStart, board: dict[str, Any]) -> None:
        message.europe_board.CopyFrom(board_to_pb(board))

    def put_request(
        self,
        message: pb.DecisionRequest,
        game: Game[Any, Any, Any],
        view: dict[str, Any],
        options: EuropeOptions,
    ) -> None:
        message.europe_view.CopyFrom(view_to_pb(view))
        message.europe_options.CopyFrom(options_to_pb(options))

    def action_from_pb(self, message: pb.Action, game: Game[Any, Any, Any]) -> Action:
        if message.WhichOneof("answer") != "europe":
            raise MalformedActionError("a RISK: Europe Action needs option_index or europe")
        return action_from_pb(message.europe)

    def declarations_from_hello(self, hello: pb.Hello) -> dict[str, Any]:
        declared = hello.europe
        return {key: getattr(declared, key) for key in DECLARATIONS if getattr(declared, key)}

    def board_from_pb(self, message: pb.MatchStart) -> dict[str, Any]:
        return board_from_pb(message.europe_board)

    def request_from_pb(
        self, message: pb.DecisionRequest, seat: int
    ) -> tuple[int, dict[str, Any], dict[str, Any], list[Action]]:
        view = view_from_pb(message.europe_view)
        constraints, listed = options_from_pb(message.europe_options)
        return view["seat"], view, constraints, listed

    def put_action(self, message: pb.Action, action: Any) -> None:
        if isinstance(action, Mapping):  # the JSON form of an action, as in replays
            action = action_from_dict(action)
        try:
            message.europe.CopyFrom(action_to_pb(action))
        except (TypeError, ValueError) as exc:
            raise MalformedActionError(f"the action does not fit the wire: {exc}") from None

    def put_declarations(self, hello: pb.Hello, declarations: Mapping[str, Any]) -> None:
        for key in DECLARATIONS:
            value = declarations.get(key)
            if value:
                setattr(hello.europe, key, str(value))

    def local_request(
        self,
        game: Game[Any, Any, Any],
        seat: int,
        view: dict[str, Any],
        options: EuropeOptions,
        listed: list[Any],
    ) -> tuple[int, dict[str, Any], dict[str, Any], list[Action]]:
        return seat, view, options.constraints, list(listed)

    def direct_answer(self, game: Game[Any, Any, Any], answer: Any) -> Any:
        return None  # every structured answer takes the wire's way (its conversions, errors)


CODEC = EuropeCodec()
