"""A stored replay as the viewer's frames: the board a spectator sees after every record, and
what the viewer draws of it.

The replay is re-played through the game the way :func:`arena.replays.files.verify` does (decisions,
joint answers and forfeits applied in order); frame 0 is the position before the first
record, frame ``k`` the position after record ``k``. Each frame holds what a spectator may see:
the game's :class:`Spectator` picks the public part of the position, tells the record in words
with the game's narrator and lists its attacks, and says what the viewer draws (each
territory's owner, count, units and badges, the arrows, the side panel; who each side is in
the first frame). The viewer (``static/replay.js``) draws only that, the same way for every
game. Hidden information (hands, missions) appears only in the last frame, as ``revealed``
after the match. Matches never change once recorded, so the frames of recently viewed replays
are kept.
"""

from __future__ import annotations

import contextlib
import gc
import json
from collections.abc import Iterator
from functools import lru_cache
from types import ModuleType
from typing import Any, Literal, NotRequired, Protocol, TypedDict

from arena import games
from arena.errors import ArenaError, ReplayError
from arena.games.api import Game
from arena.replays import files as replay

OWNER_COLOURS = 6
"""The stylesheet's seat colours, ``--owner-0`` to ``--owner-5`` (seat ``k`` has ``k % 6``)."""


class Side(TypedDict):
    """Someone a territory, a unit or an arrow can belong to: a seat, or one of the game's own
    (a neutral player, an army no seat plays, nobody)."""

    side: int
    name: str
    """How the viewer names it: ``"random (seat 0)"``, ``"neutral"``."""
    colour: str
    """The stylesheet's colour for it, a custom property of ``style.css`` without its
    dashes: ``owner-0`` … ``owner-5``, ``neutral`` or ``unclaimed``."""


class Units(TypedDict):
    """One side's units in a territory, as labelled counts."""

    side: int
    counts: dict[str, int]
    """Label → how many, in the order they are shown (``{"f": 3, "a": 0, …}`` reads "3f")."""


class Badge(TypedDict):
    """A mark drawn at a corner of a territory (a castle, a crown)."""

    text: str
    """The symbol drawn."""
    style: str
    """Its classes in ``style.css`` (``"crown gold"``)."""
    corner: Literal["top-left", "top-right"]


class Regions(TypedDict):
    """What the map shows of each territory, one list entry per territory in the board's
    order (the layout's ``id``)."""

    owner: list[int]
    """The side holding it: the disc's colour."""
    count: list[int]
    """The number on the disc (0 shows none)."""
    units: NotRequired[list[list[Units]]]
    """The units present, per side (a side other than the owner's is marked as attacking)."""
    ring: NotRequired[list[int | None]]
    """The side whose dashed ring surrounds it (an attacker), or None."""
    badges: NotRequired[list[list[Badge]]]


Arrow = TypedDict("Arrow", {"from": int, "to": int, "side": int, "label": str, "title": str})
"""An attack drawn from one territory into another in the attacker's colour: ``label`` beside
the line (the dice and losses), ``title`` on hovering it."""


class Row(TypedDict):
    """One side's line in the side panel: its swatch and name, then ``cells``."""

    side: int
    cells: list[int | str]


class Panel(TypedDict):
    """The table beside the map."""

    columns: list[str]
    """The headings: over the sides' names, then one per cell."""
    rows: list[Row]


class Revealed(TypedDict):
    """What a seat kept hidden during the match, shown after it."""

    seat: int
    label: str
    hand: list[str]
    mission: str | None


class Frame(TypedDict):
    """One step of the viewer: the record it follows (none for frame 0), the public position,
    and what the viewer draws of it."""

    step: int
    type: str | None
    """The record's type (``decision``, ``joint``, ``result`` …), ``start`` for frame 0."""
    seats: list[int]
    """The seats that answered in the record."""
    kind: str | None
    """The decision's kind, if the record is one."""
    progress: dict[str, int]
    """The game's counters after the record (``turns`` is what the viewer jumps to)."""
    lines: list[str]
    """The record told in words."""
    attacks: list[dict[str, Any]]
    """The record's attacks as the game tells them (classic: from, to, seat, dice, losses)."""
    board: dict[str, Any]
    """The public part of the position, in the game's own terms (plain JSON)."""
    regions: Regions
    arrows: list[Arrow]
    panel: Panel
    legend: NotRequired[list[Side]]
    """Every side that can appear, in the first frame only (it holds for the whole match)."""
    revealed: NotRequired[list[Revealed]]
    """Per seat, in the last frame only."""


class Spectator(Protocol):
    """What one game shows a spectator of a replay."""

    def legend(self) -> list[Side]:
        """Every side that can hold a territory or attack, named and coloured."""
        ...

    def board(self, state: Any) -> dict[str, Any]:
        """The public part of the position (plain JSON)."""
        ...

    def lines(self, record: dict[str, Any]) -> list[str]:
        """The record told in words (called once per record, in order)."""
        ...

    def attacks(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        """The record's attacks from one territory into another (``from``, ``to``, ``seat``,
        the dice and the losses); [] for a game whose board shows its battles itself."""
        ...

    def regions(self, board: dict[str, Any]) -> Regions:
        """What the map shows of each territory in the position :meth:`board` gave."""
        ...

    def arrows(self, attacks: list[dict[str, Any]]) -> list[Arrow]:
        """The attacks :meth:`attacks` gave, as arrows."""
        ...

    def panel(self, board: dict[str, Any]) -> Panel:
        """The side panel's table for the position :meth:`board` gave."""
        ...

    def revealed(self, state: Any) -> list[Revealed]:
        """Per seat, what was hidden during the match (hands, missions), for after it."""
        ...


def seat_colour(side: int) -> str:
    """The stylesheet's colour of seat (or numbered army) ``side``."""
    return f"owner-{side % OWNER_COLOURS}"


def seat_sides(header: dict[str, Any]) -> list[Side]:
    """Every seat of the replay, named by its bot and seat number, in its seat's colour."""
    return [
        Side(side=seat, name=f"{s.get('bot')} (seat {seat})", colour=seat_colour(seat))
        for seat, s in enumerate(header.get("seats", []))
    ]


class _Events:
    """A game without a spectator of its own: no board, each event as compact JSON."""

    def __init__(self, header: dict[str, Any]) -> None:
        self.seats = seat_sides(header)

    def legend(self) -> list[Side]:
        return self.seats

    def board(self, state: Any) -> dict[str, Any]:
        return {}

    def lines(self, record: dict[str, Any]) -> list[str]:
        return [json.dumps(e, separators=(",", ":")) for e in record.get("events", [])]

    def attacks(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        return []

    def regions(self, board: dict[str, Any]) -> Regions:
        return Regions(owner=[], count=[])

    def arrows(self, attacks: list[dict[str, Any]]) -> list[Arrow]:
        return []

    def panel(self, board: dict[str, Any]) -> Panel:
        return Panel(columns=[], rows=[])

    def revealed(self, state: Any) -> list[Revealed]:
        return []


def parse(data: bytes) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and records of a replay's JSONL (as ``store.replay`` gives it)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReplayError(f"the stored replay is not UTF-8 text: {exc.reason}") from None
    return replay.parse(text, "the stored replay")


SPECTATORS = "arena.web.spectators"
"""The package holding each game's spectator module, named after the game."""


def spectator_module(game: str) -> ModuleType | None:
    """The game's spectator module (``arena.web.spectators.<game>``), found by the game's
    name; None for a game without one."""
    return games.layer_module(SPECTATORS, game)


def _spectator(header: dict[str, Any], game: Game[Any, Any, Any], state: Any) -> Spectator:
    """The game's spectator, made by its module's ``spectator(header, game, start_state)``;
    a game without one is shown as its events."""
    module = spectator_module(str(header.get("game")))
    if module is None:
        return _Events(header)
    made: Spectator = module.spectator(header, game, state)
    return made


def _seats(record: dict[str, Any]) -> list[int]:
    if isinstance(record.get("answers"), list):
        return [int(a["seat"]) for a in record["answers"]]
    return [int(record["seat"])] if isinstance(record.get("seat"), int) else []


def _frame(
    spectator: Spectator, step: int, record: dict[str, Any], progress: dict[str, int], state: Any
) -> Frame:
    board = spectator.board(state)
    attacks = spectator.attacks(record) if step else []
    return Frame(
        step=step,
        type=record.get("type") if step else "start",
        seats=_seats(record),
        kind=record.get("kind"),
        progress=progress,
        lines=spectator.lines(record) if step else ["The game begins."],
        attacks=attacks,
        board=board,
        regions=spectator.regions(board),
        arrows=spectator.arrows(attacks),
        panel=spectator.panel(board),
    )


def frames(header: dict[str, Any], records: list[dict[str, Any]]) -> list[Frame]:
    """Every frame of a replay: the start, then one per record."""
    game, state = replay.start(header)
    spectator = _spectator(header, game, state)
    found = [_frame(spectator, 0, {}, game.progress(state), state)]
    found[0]["legend"] = spectator.legend()
    for step, record in enumerate(records, 1):
        try:
            applied = replay.apply_record(game, state, record)
        except (ArenaError, KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"record {step} cannot be applied: {exc}") from None
        if applied is not None:
            state = applied.state
        found.append(_frame(spectator, step, record, game.progress(state), state))
    found[-1]["revealed"] = spectator.revealed(state)
    return found


def frame_count(data: bytes) -> int:
    """How many frames a replay's JSONL makes (its header and each record make one), without
    re-playing it: a match page needs only this."""
    return sum(1 for line in data.splitlines() if line.strip())


@lru_cache(maxsize=32)
def replay_frames(data: bytes) -> list[Frame]:
    """The frames of a stored replay's JSONL (recently computed ones are reused)."""
    with _collector_paused():
        return frames(*parse(data))


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """While frames are built, no garbage collection: they are many small acyclic objects,
    and collections walking them cost about as much as building them (a 4,000-step classic
    match: 255 ms with the collector, 142 ms without). What it would find is collected once
    it runs again."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
