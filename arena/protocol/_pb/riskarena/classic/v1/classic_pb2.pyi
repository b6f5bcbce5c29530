from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Board(_message.Message):
    __slots__ = ("territories", "neighbours", "continents", "card_symbols")
    TERRITORIES_FIELD_NUMBER: _ClassVar[int]
    NEIGHBOURS_FIELD_NUMBER: _ClassVar[int]
    CONTINENTS_FIELD_NUMBER: _ClassVar[int]
    CARD_SYMBOLS_FIELD_NUMBER: _ClassVar[int]
    territories: _containers.RepeatedScalarFieldContainer[str]
    neighbours: _containers.RepeatedCompositeFieldContainer[Neighbours]
    continents: _containers.RepeatedCompositeFieldContainer[Continent]
    card_symbols: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, territories: _Optional[_Iterable[str]] = ..., neighbours: _Optional[_Iterable[_Union[Neighbours, _Mapping]]] = ..., continents: _Optional[_Iterable[_Union[Continent, _Mapping]]] = ..., card_symbols: _Optional[_Iterable[str]] = ...) -> None: ...

class Neighbours(_message.Message):
    __slots__ = ("ids",)
    IDS_FIELD_NUMBER: _ClassVar[int]
    ids: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, ids: _Optional[_Iterable[int]] = ...) -> None: ...

class Continent(_message.Message):
    __slots__ = ("name", "bonus", "territories")
    NAME_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    TERRITORIES_FIELD_NUMBER: _ClassVar[int]
    name: str
    bonus: int
    territories: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, name: _Optional[str] = ..., bonus: _Optional[int] = ..., territories: _Optional[_Iterable[int]] = ...) -> None: ...

class ClassicView(_message.Message):
    __slots__ = ("seat", "players", "phase", "deciding", "turn_seat", "round", "turns", "owner", "armies", "reserve", "neutral_reserve", "hand", "card_counts", "deck_size", "sets_traded", "next_set_value", "to_place", "conquered_this_turn", "eliminated", "forfeited", "always_max", "mission", "headquarters", "attack", "places")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    DECIDING_FIELD_NUMBER: _ClassVar[int]
    TURN_SEAT_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TURNS_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    ARMIES_FIELD_NUMBER: _ClassVar[int]
    RESERVE_FIELD_NUMBER: _ClassVar[int]
    NEUTRAL_RESERVE_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    CARD_COUNTS_FIELD_NUMBER: _ClassVar[int]
    DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    SETS_TRADED_FIELD_NUMBER: _ClassVar[int]
    NEXT_SET_VALUE_FIELD_NUMBER: _ClassVar[int]
    TO_PLACE_FIELD_NUMBER: _ClassVar[int]
    CONQUERED_THIS_TURN_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    ALWAYS_MAX_FIELD_NUMBER: _ClassVar[int]
    MISSION_FIELD_NUMBER: _ClassVar[int]
    HEADQUARTERS_FIELD_NUMBER: _ClassVar[int]
    ATTACK_FIELD_NUMBER: _ClassVar[int]
    PLACES_FIELD_NUMBER: _ClassVar[int]
    seat: int
    players: int
    phase: str
    deciding: _containers.RepeatedScalarFieldContainer[int]
    turn_seat: int
    round: int
    turns: int
    owner: _containers.RepeatedScalarFieldContainer[int]
    armies: _containers.RepeatedScalarFieldContainer[int]
    reserve: _containers.RepeatedScalarFieldContainer[int]
    neutral_reserve: int
    hand: _containers.RepeatedScalarFieldContainer[int]
    card_counts: _containers.RepeatedScalarFieldContainer[int]
    deck_size: int
    sets_traded: int
    next_set_value: int
    to_place: int
    conquered_this_turn: bool
    eliminated: _containers.RepeatedScalarFieldContainer[int]
    forfeited: _containers.RepeatedScalarFieldContainer[int]
    always_max: _containers.RepeatedScalarFieldContainer[bool]
    mission: Mission
    headquarters: _containers.RepeatedScalarFieldContainer[int]
    attack: PendingAttack
    places: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., players: _Optional[int] = ..., phase: _Optional[str] = ..., deciding: _Optional[_Iterable[int]] = ..., turn_seat: _Optional[int] = ..., round: _Optional[int] = ..., turns: _Optional[int] = ..., owner: _Optional[_Iterable[int]] = ..., armies: _Optional[_Iterable[int]] = ..., reserve: _Optional[_Iterable[int]] = ..., neutral_reserve: _Optional[int] = ..., hand: _Optional[_Iterable[int]] = ..., card_counts: _Optional[_Iterable[int]] = ..., deck_size: _Optional[int] = ..., sets_traded: _Optional[int] = ..., next_set_value: _Optional[int] = ..., to_place: _Optional[int] = ..., conquered_this_turn: _Optional[bool] = ..., eliminated: _Optional[_Iterable[int]] = ..., forfeited: _Optional[_Iterable[int]] = ..., always_max: _Optional[_Iterable[bool]] = ..., mission: _Optional[_Union[Mission, _Mapping]] = ..., headquarters: _Optional[_Iterable[int]] = ..., attack: _Optional[_Union[PendingAttack, _Mapping]] = ..., places: _Optional[_Iterable[int]] = ...) -> None: ...

class Mission(_message.Message):
    __slots__ = ("id", "text")
    ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    id: int
    text: str
    def __init__(self, id: _Optional[int] = ..., text: _Optional[str] = ...) -> None: ...

class PendingAttack(_message.Message):
    __slots__ = ("source", "target", "dice")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    source: int
    target: int
    dice: int
    def __init__(self, source: _Optional[int] = ..., target: _Optional[int] = ..., dice: _Optional[int] = ...) -> None: ...

class ClassicOptions(_message.Message):
    __slots__ = ("kind", "seat", "territories", "armies", "sets", "required", "bonus_territories", "attacks", "max_dice", "battle", "attacker_dice", "defender_dice", "min_armies", "max_armies", "fortifies")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TERRITORIES_FIELD_NUMBER: _ClassVar[int]
    ARMIES_FIELD_NUMBER: _ClassVar[int]
    SETS_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_FIELD_NUMBER: _ClassVar[int]
    BONUS_TERRITORIES_FIELD_NUMBER: _ClassVar[int]
    ATTACKS_FIELD_NUMBER: _ClassVar[int]
    MAX_DICE_FIELD_NUMBER: _ClassVar[int]
    BATTLE_FIELD_NUMBER: _ClassVar[int]
    ATTACKER_DICE_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_DICE_FIELD_NUMBER: _ClassVar[int]
    MIN_ARMIES_FIELD_NUMBER: _ClassVar[int]
    MAX_ARMIES_FIELD_NUMBER: _ClassVar[int]
    FORTIFIES_FIELD_NUMBER: _ClassVar[int]
    kind: str
    seat: int
    territories: _containers.RepeatedScalarFieldContainer[int]
    armies: int
    sets: _containers.RepeatedCompositeFieldContainer[CardSet]
    required: bool
    bonus_territories: _containers.RepeatedScalarFieldContainer[int]
    attacks: _containers.RepeatedCompositeFieldContainer[AttackOption]
    max_dice: int
    battle: Battle
    attacker_dice: _containers.RepeatedScalarFieldContainer[int]
    defender_dice: _containers.RepeatedScalarFieldContainer[int]
    min_armies: int
    max_armies: int
    fortifies: _containers.RepeatedCompositeFieldContainer[FortifyOption]
    def __init__(self, kind: _Optional[str] = ..., seat: _Optional[int] = ..., territories: _Optional[_Iterable[int]] = ..., armies: _Optional[int] = ..., sets: _Optional[_Iterable[_Union[CardSet, _Mapping]]] = ..., required: _Optional[bool] = ..., bonus_territories: _Optional[_Iterable[int]] = ..., attacks: _Optional[_Iterable[_Union[AttackOption, _Mapping]]] = ..., max_dice: _Optional[int] = ..., battle: _Optional[_Union[Battle, _Mapping]] = ..., attacker_dice: _Optional[_Iterable[int]] = ..., defender_dice: _Optional[_Iterable[int]] = ..., min_armies: _Optional[int] = ..., max_armies: _Optional[int] = ..., fortifies: _Optional[_Iterable[_Union[FortifyOption, _Mapping]]] = ...) -> None: ...

class CardSet(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, cards: _Optional[_Iterable[int]] = ...) -> None: ...

class AttackOption(_message.Message):
    __slots__ = ("source", "target", "max_dice")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    MAX_DICE_FIELD_NUMBER: _ClassVar[int]
    source: int
    target: int
    max_dice: int
    def __init__(self, source: _Optional[int] = ..., target: _Optional[int] = ..., max_dice: _Optional[int] = ...) -> None: ...

class Battle(_message.Message):
    __slots__ = ("source", "target", "dice")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    source: int
    target: int
    dice: int
    def __init__(self, source: _Optional[int] = ..., target: _Optional[int] = ..., dice: _Optional[int] = ...) -> None: ...

class FortifyOption(_message.Message):
    __slots__ = ("source", "target", "max_armies")
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    MAX_ARMIES_FIELD_NUMBER: _ClassVar[int]
    source: int
    target: int
    max_armies: int
    def __init__(self, source: _Optional[int] = ..., target: _Optional[int] = ..., max_armies: _Optional[int] = ...) -> None: ...

class ClassicAction(_message.Message):
    __slots__ = ("kind", "territory", "placements", "cards", "bonus_territory", "source", "target", "dice", "until", "reroll", "die", "armies")
    KIND_FIELD_NUMBER: _ClassVar[int]
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    PLACEMENTS_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    BONUS_TERRITORY_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    UNTIL_FIELD_NUMBER: _ClassVar[int]
    REROLL_FIELD_NUMBER: _ClassVar[int]
    DIE_FIELD_NUMBER: _ClassVar[int]
    ARMIES_FIELD_NUMBER: _ClassVar[int]
    kind: str
    territory: int
    placements: _containers.RepeatedCompositeFieldContainer[Placement]
    cards: _containers.RepeatedScalarFieldContainer[int]
    bonus_territory: int
    source: int
    target: int
    dice: int
    until: int
    reroll: str
    die: int
    armies: int
    def __init__(self, kind: _Optional[str] = ..., territory: _Optional[int] = ..., placements: _Optional[_Iterable[_Union[Placement, _Mapping]]] = ..., cards: _Optional[_Iterable[int]] = ..., bonus_territory: _Optional[int] = ..., source: _Optional[int] = ..., target: _Optional[int] = ..., dice: _Optional[int] = ..., until: _Optional[int] = ..., reroll: _Optional[str] = ..., die: _Optional[int] = ..., armies: _Optional[int] = ...) -> None: ...

class Placement(_message.Message):
    __slots__ = ("territory", "armies")
    TERRITORY_FIELD_NUMBER: _ClassVar[int]
    ARMIES_FIELD_NUMBER: _ClassVar[int]
    territory: int
    armies: int
    def __init__(self, territory: _Optional[int] = ..., armies: _Optional[int] = ...) -> None: ...

class ClassicHello(_message.Message):
    __slots__ = ("always_max_defence",)
    ALWAYS_MAX_DEFENCE_FIELD_NUMBER: _ClassVar[int]
    always_max_defence: bool
    def __init__(self, always_max_defence: _Optional[bool] = ...) -> None: ...
