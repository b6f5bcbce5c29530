from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Units(_message.Message):
    __slots__ = ("footmen", "archers", "cavalry", "siege")
    FOOTMEN_FIELD_NUMBER: _ClassVar[int]
    ARCHERS_FIELD_NUMBER: _ClassVar[int]
    CAVALRY_FIELD_NUMBER: _ClassVar[int]
    SIEGE_FIELD_NUMBER: _ClassVar[int]
    footmen: int
    archers: int
    cavalry: int
    siege: int
    def __init__(self, footmen: _Optional[int] = ..., archers: _Optional[int] = ..., cavalry: _Optional[int] = ..., siege: _Optional[int] = ...) -> None: ...

class Board(_message.Message):
    __slots__ = ("territories", "deck", "unit_types", "unit_costs", "army_units", "castle_cost", "crown_card_cost")
    TERRITORIES_FIELD_NUMBER: _ClassVar[int]
    DECK_FIELD_NUMBER: _ClassVar[int]
    UNIT_TYPES_FIELD_NUMBER: _ClassVar[int]
    UNIT_COSTS_FIELD_NUMBER: _ClassVar[int]
    ARMY_UNITS_FIELD_NUMBER: _ClassVar[int]
    CASTLE_COST_FIELD_NUMBER: _ClassVar[int]
    CROWN_CARD_COST_FIELD_NUMBER: _ClassVar[int]
    territories: _containers.RepeatedCompositeFieldContainer[Territory]
    deck: _containers.RepeatedCompositeFieldContainer[Card]
    unit_types: _containers.RepeatedScalarFieldContainer[str]
    unit_costs: _containers.RepeatedScalarFieldContainer[int]
    army_units: _containers.RepeatedScalarFieldContainer[int]
    castle_cost: int
    crown_card_cost: int
    def __init__(self, territories: _Optional[_Iterable[_Union[Territory, _Mapping]]] = ..., deck: _Optional[_Iterable[_Union[Card, _Mapping]]] = ..., unit_types: _Optional[_Iterable[str]] = ..., unit_costs: _Optional[_Iterable[int]] = ..., army_units: _Optional[_Iterable[int]] = ..., castle_cost: _Optional[int] = ..., crown_card_cost: _Optional[int] = ...) -> None: ...

class Territory(_message.Message):
    __slots__ = ("id", "name", "key", "land", "sea", "city", "gold", "tax", "crowns", "tile")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    LAND_FIELD_NUMBER: _ClassVar[int]
    SEA_FIELD_NUMBER: _ClassVar[int]
    CITY_FIELD_NUMBER: _ClassVar[int]
    GOLD_FIELD_NUMBER: _ClassVar[int]
    TAX_FIELD_NUMBER: _ClassVar[int]
    CROWNS_FIELD_NUMBER: _ClassVar[int]
    TILE_FIELD_NUMBER: _ClassVar[int]
    id: int
    name: str
    key: str
    land: _containers.RepeatedScalarFieldContainer[int]
    sea: _containers.RepeatedScalarFieldContainer[int]
    city: str
    gold: bool
    tax: int
    crowns: int
    tile: str
    def __init__(self, id: _Optional[int] = ..., name: _Optional[str] = ..., key: _Optional[str] = ..., land: _Optional[_Iterable[int]] = ..., sea: _Optional[_Iterable[int]] = ..., city: _Optional[str] = ..., gold: _Optional[bool] = ..., tax: _Optional[int] = ..., crowns: _Optional[int] = ..., tile: _Optional[str] = ...) -> None: ...

class Card(_message.Message):
    __slots__ = ("id", "orders", "bonus")
    ID_FIELD_NUMBER: _ClassVar[int]
    ORDERS_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    id: int
    orders: _containers.RepeatedScalarFieldContainer[str]
    bonus: str
    def __init__(self, id: _Optional[int] = ..., orders: _Optional[_Iterable[str]] = ..., bonus: _Optional[str] = ...) -> None: ...

class EuropeView(_message.Message):
    __slots__ = ("seat", "round", "turn", "phase", "marker", "order", "territories", "armies", "castles_left", "crown_cards_left", "disputes", "battles", "battle", "losses", "revealed", "crowns_to_win", "drawn")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    MARKER_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    TERRITORIES_FIELD_NUMBER: _ClassVar[int]
    ARMIES_FIELD_NUMBER: _ClassVar[int]
    CASTLES_LEFT_FIELD_NUMBER: _ClassVar[int]
    CROWN_CARDS_LEFT_FIELD_NUMBER: _ClassVar[int]
    DISPUTES_FIELD_NUMBER: _ClassVar[int]
    BATTLES_FIELD_NUMBER: _ClassVar[int]
    BATTLE_FIELD_NUMBER: _ClassVar[int]
    LOSSES_FIELD_NUMBER: _ClassVar[int]
    REVEALED_FIELD_NUMBER: _ClassVar[int]
    CROWNS_TO_WIN_FIELD_NUMBER: _ClassVar[int]
    DRAWN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    round: int
    turn: int
    phase: str
    marker: int
    order: _containers.RepeatedScalarFieldContainer[int]
    territories: _containers.RepeatedCompositeFieldContainer[TerritoryState]
    armies: _containers.RepeatedCompositeFieldContainer[ArmyState]
    castles_left: int
    crown_cards_left: int
    disputes: _containers.RepeatedScalarFieldContainer[int]
    battles: _containers.RepeatedScalarFieldContainer[int]
    battle: BattleState
    losses: _containers.RepeatedCompositeFieldContainer[Loss]
    revealed: int
    crowns_to_win: int
    drawn: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., round: _Optional[int] = ..., turn: _Optional[int] = ..., phase: _Optional[str] = ..., marker: _Optional[int] = ..., order: _Optional[_Iterable[int]] = ..., territories: _Optional[_Iterable[_Union[TerritoryState, _Mapping]]] = ..., armies: _Optional[_Iterable[_Union[ArmyState, _Mapping]]] = ..., castles_left: _Optional[int] = ..., crown_cards_left: _Optional[int] = ..., disputes: _Optional[_Iterable[int]] = ..., battles: _Optional[_Iterable[int]] = ..., battle: _Optional[_Union[BattleState, _Mapping]] = ..., losses: _Optional[_Iterable[_Union[Loss, _Mapping]]] = ..., revealed: _Optional[int] = ..., crowns_to_win: _Optional[int] = ..., drawn: _Optional[_Iterable[int]] = ...) -> None: ...

class TerritoryState(_message.Message):
    __slots__ = ("owner", "attacker", "castle", "units")
    class UnitsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: int
        value: Units
        def __init__(self, key: _Optional[int] = ..., value: _Optional[_Union[Units, _Mapping]] = ...) -> None: ...
    OWNER_FIELD_NUMBER: _ClassVar[int]
    ATTACKER_FIELD_NUMBER: _ClassVar[int]
    CASTLE_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    owner: int
    attacker: int
    castle: bool
    units: _containers.MessageMap[int, Units]
    def __init__(self, owner: _Optional[int] = ..., attacker: _Optional[int] = ..., castle: _Optional[bool] = ..., units: _Optional[_Mapping[int, Units]] = ...) -> None: ...

class ArmyState(_message.Message):
    __slots__ = ("army", "mercenary", "alive", "controller", "coins", "crowns", "crown_cards", "reserve", "hand_size", "discards", "cards", "saved_by_the_crown", "home", "hand", "missions_held", "missions_completed", "missions")
    ARMY_FIELD_NUMBER: _ClassVar[int]
    MERCENARY_FIELD_NUMBER: _ClassVar[int]
    ALIVE_FIELD_NUMBER: _ClassVar[int]
    CONTROLLER_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    CROWNS_FIELD_NUMBER: _ClassVar[int]
    CROWN_CARDS_FIELD_NUMBER: _ClassVar[int]
    RESERVE_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    SAVED_BY_THE_CROWN_FIELD_NUMBER: _ClassVar[int]
    HOME_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    MISSIONS_HELD_FIELD_NUMBER: _ClassVar[int]
    MISSIONS_COMPLETED_FIELD_NUMBER: _ClassVar[int]
    MISSIONS_FIELD_NUMBER: _ClassVar[int]
    army: int
    mercenary: bool
    alive: bool
    controller: int
    coins: int
    crowns: int
    crown_cards: int
    reserve: Units
    hand_size: int
    discards: _containers.RepeatedScalarFieldContainer[int]
    cards: _containers.RepeatedScalarFieldContainer[int]
    saved_by_the_crown: bool
    home: int
    hand: Hand
    missions_held: int
    missions_completed: _containers.RepeatedScalarFieldContainer[int]
    missions: Missions
    def __init__(self, army: _Optional[int] = ..., mercenary: _Optional[bool] = ..., alive: _Optional[bool] = ..., controller: _Optional[int] = ..., coins: _Optional[int] = ..., crowns: _Optional[int] = ..., crown_cards: _Optional[int] = ..., reserve: _Optional[_Union[Units, _Mapping]] = ..., hand_size: _Optional[int] = ..., discards: _Optional[_Iterable[int]] = ..., cards: _Optional[_Iterable[int]] = ..., saved_by_the_crown: _Optional[bool] = ..., home: _Optional[int] = ..., hand: _Optional[_Union[Hand, _Mapping]] = ..., missions_held: _Optional[int] = ..., missions_completed: _Optional[_Iterable[int]] = ..., missions: _Optional[_Union[Missions, _Mapping]] = ...) -> None: ...

class Hand(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, cards: _Optional[_Iterable[int]] = ...) -> None: ...

class Missions(_message.Message):
    __slots__ = ("ids",)
    IDS_FIELD_NUMBER: _ClassVar[int]
    ids: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, ids: _Optional[_Iterable[int]] = ...) -> None: ...

class BattleState(_message.Message):
    __slots__ = ("territory", "attacker", "defender", "rank", "repetition", "rerolled", "attacker_dice", "defender_dice")
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    ATTACKER_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    REPETITION_FIELD_NUMBER: _ClassVar[int]
    REROLLED_FIELD_NUMBER: _ClassVar[int]
    ATTACKER_DICE_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_DICE_FIELD_NUMBER: _ClassVar[int]
    territory: int
    attacker: int
    defender: int
    rank: int
    repetition: int
    rerolled: bool
    attacker_dice: _containers.RepeatedScalarFieldContainer[int]
    defender_dice: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, territory: _Optional[int] = ..., attacker: _Optional[int] = ..., defender: _Optional[int] = ..., rank: _Optional[int] = ..., repetition: _Optional[int] = ..., rerolled: _Optional[bool] = ..., attacker_dice: _Optional[_Iterable[int]] = ..., defender_dice: _Optional[_Iterable[int]] = ...) -> None: ...

class Loss(_message.Message):
    __slots__ = ("army", "territory", "count")
    ARMY_FIELD_NUMBER: _ClassVar[int]
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    army: int
    territory: int
    count: int
    def __init__(self, army: _Optional[int] = ..., territory: _Optional[int] = ..., count: _Optional[int] = ...) -> None: ...

class EuropeOptions(_message.Message):
    __slots__ = ("kind", "army", "choices", "bid", "mercenary_bid", "kingdom", "cards", "turn", "mission", "battle_order", "reroll", "casualties")
    KIND_FIELD_NUMBER: _ClassVar[int]
    ARMY_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    MERCENARY_BID_FIELD_NUMBER: _ClassVar[int]
    KINGDOM_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    MISSION_FIELD_NUMBER: _ClassVar[int]
    BATTLE_ORDER_FIELD_NUMBER: _ClassVar[int]
    REROLL_FIELD_NUMBER: _ClassVar[int]
    CASUALTIES_FIELD_NUMBER: _ClassVar[int]
    kind: str
    army: int
    choices: _containers.RepeatedCompositeFieldContainer[EuropeAction]
    bid: BidOptions
    mercenary_bid: MercenaryBidOptions
    kingdom: KingdomOptions
    cards: CardOptions
    turn: TurnOptions
    mission: MissionOptions
    battle_order: BattleOrderOptions
    reroll: RerollOptions
    casualties: CasualtyOptions
    def __init__(self, kind: _Optional[str] = ..., army: _Optional[int] = ..., choices: _Optional[_Iterable[_Union[EuropeAction, _Mapping]]] = ..., bid: _Optional[_Union[BidOptions, _Mapping]] = ..., mercenary_bid: _Optional[_Union[MercenaryBidOptions, _Mapping]] = ..., kingdom: _Optional[_Union[KingdomOptions, _Mapping]] = ..., cards: _Optional[_Union[CardOptions, _Mapping]] = ..., turn: _Optional[_Union[TurnOptions, _Mapping]] = ..., mission: _Optional[_Union[MissionOptions, _Mapping]] = ..., battle_order: _Optional[_Union[BattleOrderOptions, _Mapping]] = ..., reroll: _Optional[_Union[RerollOptions, _Mapping]] = ..., casualties: _Optional[_Union[CasualtyOptions, _Mapping]] = ...) -> None: ...

class BidOptions(_message.Message):
    __slots__ = ("max_coins",)
    MAX_COINS_FIELD_NUMBER: _ClassVar[int]
    max_coins: int
    def __init__(self, max_coins: _Optional[int] = ...) -> None: ...

class MercenaryBidOptions(_message.Message):
    __slots__ = ("mercenaries", "max_total")
    MERCENARIES_FIELD_NUMBER: _ClassVar[int]
    MAX_TOTAL_FIELD_NUMBER: _ClassVar[int]
    mercenaries: _containers.RepeatedScalarFieldContainer[int]
    max_total: int
    def __init__(self, mercenaries: _Optional[_Iterable[int]] = ..., max_total: _Optional[int] = ...) -> None: ...

class KingdomOptions(_message.Message):
    __slots__ = ("cities", "neighbours", "footmen", "castle")
    class NeighboursEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: int
        value: Ids
        def __init__(self, key: _Optional[int] = ..., value: _Optional[_Union[Ids, _Mapping]] = ...) -> None: ...
    CITIES_FIELD_NUMBER: _ClassVar[int]
    NEIGHBOURS_FIELD_NUMBER: _ClassVar[int]
    FOOTMEN_FIELD_NUMBER: _ClassVar[int]
    CASTLE_FIELD_NUMBER: _ClassVar[int]
    cities: _containers.RepeatedScalarFieldContainer[int]
    neighbours: _containers.MessageMap[int, Ids]
    footmen: int
    castle: bool
    def __init__(self, cities: _Optional[_Iterable[int]] = ..., neighbours: _Optional[_Mapping[int, Ids]] = ..., footmen: _Optional[int] = ..., castle: _Optional[bool] = ...) -> None: ...

class Ids(_message.Message):
    __slots__ = ("ids",)
    IDS_FIELD_NUMBER: _ClassVar[int]
    ids: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, ids: _Optional[_Iterable[int]] = ...) -> None: ...

class CardOptions(_message.Message):
    __slots__ = ("hand",)
    HAND_FIELD_NUMBER: _ClassVar[int]
    hand: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, hand: _Optional[_Iterable[int]] = ...) -> None: ...

class MissionOptions(_message.Message):
    __slots__ = ("drawn",)
    DRAWN_FIELD_NUMBER: _ClassVar[int]
    drawn: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, drawn: _Optional[_Iterable[int]] = ...) -> None: ...

class BattleOrderOptions(_message.Message):
    __slots__ = ("territories",)
    TERRITORIES_FIELD_NUMBER: _ClassVar[int]
    territories: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, territories: _Optional[_Iterable[int]] = ...) -> None: ...

class RerollOptions(_message.Message):
    __slots__ = ("territory", "rank", "attacker_dice", "defender_dice")
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    ATTACKER_DICE_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_DICE_FIELD_NUMBER: _ClassVar[int]
    territory: int
    rank: int
    attacker_dice: _containers.RepeatedScalarFieldContainer[int]
    defender_dice: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, territory: _Optional[int] = ..., rank: _Optional[int] = ..., attacker_dice: _Optional[_Iterable[int]] = ..., defender_dice: _Optional[_Iterable[int]] = ...) -> None: ...

class CasualtyOptions(_message.Message):
    __slots__ = ("territory", "count", "units")
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    territory: int
    count: int
    units: Units
    def __init__(self, territory: _Optional[int] = ..., count: _Optional[int] = ..., units: _Optional[_Union[Units, _Mapping]] = ...) -> None: ...

class TurnOptions(_message.Message):
    __slots__ = ("card", "orders", "bonus", "sources", "coins", "reserve", "unit_costs", "recruit_to", "castle_cost", "castles_left", "castle_to", "crown_card", "tax_cities", "berlin")
    CARD_FIELD_NUMBER: _ClassVar[int]
    ORDERS_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    SOURCES_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    RESERVE_FIELD_NUMBER: _ClassVar[int]
    UNIT_COSTS_FIELD_NUMBER: _ClassVar[int]
    RECRUIT_TO_FIELD_NUMBER: _ClassVar[int]
    CASTLE_COST_FIELD_NUMBER: _ClassVar[int]
    CASTLES_LEFT_FIELD_NUMBER: _ClassVar[int]
    CASTLE_TO_FIELD_NUMBER: _ClassVar[int]
    CROWN_CARD_FIELD_NUMBER: _ClassVar[int]
    TAX_CITIES_FIELD_NUMBER: _ClassVar[int]
    BERLIN_FIELD_NUMBER: _ClassVar[int]
    card: int
    orders: _containers.RepeatedScalarFieldContainer[str]
    bonus: str
    sources: _containers.RepeatedCompositeFieldContainer[Source]
    coins: int
    reserve: Units
    unit_costs: _containers.RepeatedScalarFieldContainer[int]
    recruit_to: _containers.RepeatedScalarFieldContainer[int]
    castle_cost: int
    castles_left: int
    castle_to: _containers.RepeatedScalarFieldContainer[int]
    crown_card: bool
    tax_cities: _containers.RepeatedCompositeFieldContainer[TaxCity]
    berlin: bool
    def __init__(self, card: _Optional[int] = ..., orders: _Optional[_Iterable[str]] = ..., bonus: _Optional[str] = ..., sources: _Optional[_Iterable[_Union[Source, _Mapping]]] = ..., coins: _Optional[int] = ..., reserve: _Optional[_Union[Units, _Mapping]] = ..., unit_costs: _Optional[_Iterable[int]] = ..., recruit_to: _Optional[_Iterable[int]] = ..., castle_cost: _Optional[int] = ..., castles_left: _Optional[int] = ..., castle_to: _Optional[_Iterable[int]] = ..., crown_card: _Optional[bool] = ..., tax_cities: _Optional[_Iterable[_Union[TaxCity, _Mapping]]] = ..., berlin: _Optional[bool] = ...) -> None: ...

class Source(_message.Message):
    __slots__ = ("territory", "units", "expand_keep", "expand_to", "manoeuvre_keep", "manoeuvre_to")
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    EXPAND_KEEP_FIELD_NUMBER: _ClassVar[int]
    EXPAND_TO_FIELD_NUMBER: _ClassVar[int]
    MANOEUVRE_KEEP_FIELD_NUMBER: _ClassVar[int]
    MANOEUVRE_TO_FIELD_NUMBER: _ClassVar[int]
    territory: int
    units: Units
    expand_keep: int
    expand_to: _containers.RepeatedCompositeFieldContainer[ExpandTarget]
    manoeuvre_keep: int
    manoeuvre_to: _containers.RepeatedCompositeFieldContainer[Route]
    def __init__(self, territory: _Optional[int] = ..., units: _Optional[_Union[Units, _Mapping]] = ..., expand_keep: _Optional[int] = ..., expand_to: _Optional[_Iterable[_Union[ExpandTarget, _Mapping]]] = ..., manoeuvre_keep: _Optional[int] = ..., manoeuvre_to: _Optional[_Iterable[_Union[Route, _Mapping]]] = ...) -> None: ...

class ExpandTarget(_message.Message):
    __slots__ = ("territory", "needs_siege")
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    NEEDS_SIEGE_FIELD_NUMBER: _ClassVar[int]
    territory: int
    needs_siege: bool
    def __init__(self, territory: _Optional[int] = ..., needs_siege: _Optional[bool] = ...) -> None: ...

class Route(_message.Message):
    __slots__ = ("territory", "via")
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    VIA_FIELD_NUMBER: _ClassVar[int]
    territory: int
    via: int
    def __init__(self, territory: _Optional[int] = ..., via: _Optional[int] = ...) -> None: ...

class TaxCity(_message.Message):
    __slots__ = ("territory", "coins")
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    territory: int
    coins: int
    def __init__(self, territory: _Optional[int] = ..., coins: _Optional[int] = ...) -> None: ...

class EuropeAction(_message.Message):
    __slots__ = ("kind", "coins", "bids", "city", "neighbour", "footmen_in_city", "first", "second", "turn", "index", "territories", "rank", "units")
    KIND_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    BIDS_FIELD_NUMBER: _ClassVar[int]
    CITY_FIELD_NUMBER: _ClassVar[int]
    NEIGHBOUR_FIELD_NUMBER: _ClassVar[int]
    FOOTMEN_IN_CITY_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    SECOND_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    TERRITORIES_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    kind: str
    coins: int
    bids: _containers.RepeatedScalarFieldContainer[int]
    city: int
    neighbour: int
    footmen_in_city: int
    first: int
    second: int
    turn: TurnAction
    index: int
    territories: _containers.RepeatedScalarFieldContainer[int]
    rank: int
    units: Units
    def __init__(self, kind: _Optional[str] = ..., coins: _Optional[int] = ..., bids: _Optional[_Iterable[int]] = ..., city: _Optional[int] = ..., neighbour: _Optional[int] = ..., footmen_in_city: _Optional[int] = ..., first: _Optional[int] = ..., second: _Optional[int] = ..., turn: _Optional[_Union[TurnAction, _Mapping]] = ..., index: _Optional[int] = ..., territories: _Optional[_Iterable[int]] = ..., rank: _Optional[int] = ..., units: _Optional[_Union[Units, _Mapping]] = ...) -> None: ...

class TurnAction(_message.Message):
    __slots__ = ("order", "moves", "recruits", "castles", "crown", "tax_city", "bonus", "bonus_first", "bonus_source", "bonus_target", "free_manoeuvre")
    ORDER_FIELD_NUMBER: _ClassVar[int]
    MOVES_FIELD_NUMBER: _ClassVar[int]
    RECRUITS_FIELD_NUMBER: _ClassVar[int]
    CASTLES_FIELD_NUMBER: _ClassVar[int]
    CROWN_FIELD_NUMBER: _ClassVar[int]
    TAX_CITY_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIRST_FIELD_NUMBER: _ClassVar[int]
    BONUS_SOURCE_FIELD_NUMBER: _ClassVar[int]
    BONUS_TARGET_FIELD_NUMBER: _ClassVar[int]
    FREE_MANOEUVRE_FIELD_NUMBER: _ClassVar[int]
    order: str
    moves: _containers.RepeatedCompositeFieldContainer[Move]
    recruits: _containers.RepeatedCompositeFieldContainer[Recruit]
    castles: _containers.RepeatedScalarFieldContainer[int]
    crown: bool
    tax_city: int
    bonus: str
    bonus_first: bool
    bonus_source: int
    bonus_target: int
    free_manoeuvre: Move
    def __init__(self, order: _Optional[str] = ..., moves: _Optional[_Iterable[_Union[Move, _Mapping]]] = ..., recruits: _Optional[_Iterable[_Union[Recruit, _Mapping]]] = ..., castles: _Optional[_Iterable[int]] = ..., crown: _Optional[bool] = ..., tax_city: _Optional[int] = ..., bonus: _Optional[str] = ..., bonus_first: _Optional[bool] = ..., bonus_source: _Optional[int] = ..., bonus_target: _Optional[int] = ..., free_manoeuvre: _Optional[_Union[Move, _Mapping]] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("source", "target", "units", "via")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    VIA_FIELD_NUMBER: _ClassVar[int]
    source: int
    target: int
    units: Units
    via: int
    def __init__(self, source: _Optional[int] = ..., target: _Optional[int] = ..., units: _Optional[_Union[Units, _Mapping]] = ..., via: _Optional[int] = ...) -> None: ...

class Recruit(_message.Message):
    __slots__ = ("territory", "units")
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    territory: int
    units: Units
    def __init__(self, territory: _Optional[int] = ..., units: _Optional[_Union[Units, _Mapping]] = ...) -> None: ...

class EuropeHello(_message.Message):
    __slots__ = ("casualties", "castle_reroll", "battle_order")
    CASUALTIES_FIELD_NUMBER: _ClassVar[int]
    CASTLE_REROLL_FIELD_NUMBER: _ClassVar[int]
    BATTLE_ORDER_FIELD_NUMBER: _ClassVar[int]
    casualties: str
    castle_reroll: str
    battle_order: str
    def __init__(self, casualties: _Optional[str] = ..., castle_reroll: _Optional[str] = ..., battle_order: _Optional[str] = ...) -> None: ...
