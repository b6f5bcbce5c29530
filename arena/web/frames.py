"""A stored replay as the viewer's frames: the board a spectator sees after every record.

The replay is re-played through the game the way :func:`arena.replays.files.verify` does (decisions,
joint answers and forfeits applied in order); frame 0 is the position before the first
record, frame ``k`` the position after record ``k``. Each frame holds what a spectator may see
(the game's :class:`Spectator` picks the public part of the position, tells the record in
words with the game's narrator and lists its attacks); hidden information (hands, missions) appears only in the
last frame, as ``revealed`` after the match. Matches never change once recorded, so the frames
of recently viewed replays are kept.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Protocol

from arena.errors import ArenaError, ReplayError
from arena.games.api import Game
from arena.replays import files as replay

Frame = dict[str, Any]


class Spectator(Protocol):
    """What one game shows a spectator of a replay."""

    def board(self, state: Any) -> dict[str, Any]:
        """The public part of the position (plain JSON)."""
        ...

    def lines(self, record: dict[str, Any]) -> list[str]:
        """The record told in words (called once per record, in order)."""
        ...

    def revealed(self, state: Any) -> list[dict[str, Any]]:
        """Per seat, what was hidden during the match (hands, missions), for after it."""
        ...

    def attacks(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        """The record's attacks from one territory into another (``from``, ``to``, ``seat``,
        the dice and the losses), drawn as arrows; [] for a game whose board shows its
        battles itself."""
        ...


SpectatorFactory = Callable[[dict[str, Any], Game[Any, Any, Any], Any], Spectator]


class _Events:
    """A game without a spectator of its own: no board, each event as compact JSON."""

    def board(self, state: Any) -> dict[str, Any]:
        return {}

    def lines(self, record: dict[str, Any]) -> list[str]:
        return [json.dumps(e, separators=(",", ":")) for e in record.get("events", [])]

    def revealed(self, state: Any) -> list[dict[str, Any]]:
        return []

    def attacks(self, record: dict[str, Any]) -> list[dict[str, Any]]:
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


def _spectator(header: dict[str, Any], game: Game[Any, Any, Any], state: Any) -> Spectator:
    """The game's spectator, found by its name (``arena.web.spectators.<game>``); a game
    without one is shown as its events."""
    name = str(header.get("game"))
    if not name.isidentifier() or importlib.util.find_spec(f"{SPECTATORS}.{name}") is None:
        return _Events()
    factory: SpectatorFactory = importlib.import_module(f"{SPECTATORS}.{name}").spectator
    return factory(header, game, state)


def _seats(record: dict[str, Any]) -> list[int]:
    if isinstance(record.get("answers"), list):
        return [int(a["seat"]) for a in record["answers"]]
    return [int(record["seat"])] if isinstance(record.get("seat"), int) else []


def frames(header: dict[str, Any], records: list[dict[str, Any]]) -> list[Frame]:
    """Every frame of a replay: the start, then one per record."""
    game, state = replay.start(header)
    spectator = _spectator(header, game, state)
    found: list[Frame] = [
        {
            "step": 0,
            "type": "start",
            "seats": [],
            "kind": None,
            "progress": game.progress(state),
            "lines": ["The game begins."],
            "attacks": [],
            "board": spectator.board(state),
        }
    ]
    for step, record in enumerate(records, 1):
        try:
            applied = replay.apply_record(game, state, record)
        except (ArenaError, KeyError, TypeError, ValueError) as exc:
            raise ReplayError(f"record {step} cannot be applied: {exc}") from None
        if applied is not None:
            state = applied.state
        found.append(
            {
                "step": step,
                "type": record.get("type"),
                "seats": _seats(record),
                "kind": record.get("kind"),
                "progress": game.progress(state),
                "lines": spectator.lines(record),
                "attacks": spectator.attacks(record),
                "board": spectator.board(state),
            }
        )
    found[-1]["revealed"] = spectator.revealed(state)
    return found


def frame_count(data: bytes) -> int:
    """How many frames a replay's JSONL makes (its header and each record make one), without
    re-playing it: a match page needs only this."""
    return sum(1 for line in data.splitlines() if line.strip())


@lru_cache(maxsize=32)
def replay_frames(data: bytes) -> list[Frame]:
    """The frames of a stored replay's JSONL (recently computed ones are reused)."""
    return frames(*parse(data))
