"""RISK: Europe matches with real bot processes, for the Europe fault and secrecy tests.

:class:`EuropeArena` is the referee suite's :class:`~tests.referee.Arena` playing Europe: the
same environment for the test bots, the same checks that the match completed, that its replay
verifies and that no bot process outlived it; :class:`EuropePlayed` re-plays its records
under the Europe engine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import tests.referee
from arena.catalog import BotSpec
from arena.games.europe.game import EuropeGame, EuropeType
from arena.referee import local
from arena.referee.match import TimeControl
from arena.replays.files import declarations_from_header, read
from arena.sdk.bot import Bot
from tests.referee import FAST, Arena, Played, _files, assert_all_gone, check_completed

ENDS = ("crowns", "elimination", "round_limit")
"""How a Europe game ends."""


def europe(players: int, **options: object) -> EuropeGame:
    """A short Europe game (6 rounds unless told) for ``players`` seats."""
    options.setdefault("max_rounds", 6)
    return EuropeType().configure({k: str(v) for k, v in options.items()}, players)


@dataclass(frozen=True)
class Seats:
    """What the shared completion checks read of the rules: the number of seats."""

    n: int


@dataclass
class EuropePlayed(Played):
    """A finished Europe match; ``rules`` only carries the seat count."""

    game: EuropeGame | None = None

    def state_before(self, index: int) -> Any:
        """The engine state after re-playing the records before ``records[index]``."""
        game = self.game
        assert game is not None
        state = game.new_game(self.header["seed"], declarations_from_header(self.header))
        for record in self.records[:index]:
            state = apply_record(game, state, record)
        return state


def apply_record(game: EuropeGame, state: Any, record: dict[str, Any]) -> Any:
    """The state after one replay record (records that change nothing leave it as it is)."""
    if record["type"] == "decision":
        return game.apply(state, record["seat"], game.action_from_dict(record["action"])).state
    if record["type"] == "joint":
        answers = {a["seat"]: game.action_from_dict(a["action"]) for a in record["answers"]}
        return game.apply_joint(state, answers).state
    if record["type"] == "forfeit":
        return game.forfeit(state, record["seat"]).state
    return state


class EuropeArena(Arena):
    """Plays Europe matches with subprocess bots (see :class:`~tests.referee.Arena`)."""

    def play_europe(
        self,
        players: list[BotSpec | Bot],
        *,
        game: EuropeGame | None = None,
        seed: int = 1,
        control: TimeControl = FAST,
        strike_limit: int = 3,
        mode: str = "",
        phase: str = "",
        env: dict[str, str] | None = None,
    ) -> EuropePlayed:
        """Play one match; checks that it completed and that no bot process survived it."""
        self.count += 1
        out = self.tmp / f"out{self.count}"
        pids = self.tmp / f"pids{self.count}"
        out.mkdir()
        pids.mkdir()
        for key, value in {
            "ARENA_TEST_OUT": str(out),
            "ARENA_TEST_PIDS": str(pids),
            "ARENA_TEST_MODE": mode,
            "ARENA_TEST_PHASE": phase,
            **(env or {}),
        }.items():
            self.monkeypatch.setenv(key, value)
        game = game or europe(len(players))
        replay = self.tmp / f"replay{self.count}.jsonl"
        self.launched = []
        folders = {spec.path: _files(spec.path) for spec in players if isinstance(spec, BotSpec)}
        started = time.perf_counter()
        result = local.play(game, players, seed, control, replay, strike_limit=strike_limit)
        seconds = time.perf_counter() - started
        for folder, files in folders.items():
            assert _files(folder) == files, f"something was written into {folder}"
        all_pids = sorted({*self.launched, *(int(p.name) for p in pids.iterdir())})
        assert_all_gone(all_pids)
        header, records = read(replay)
        assert header["game"] == "europe"
        played = EuropePlayed(
            result,
            Seats(game.players),  # type: ignore[arg-type]
            header,
            records,
            out,
            all_pids,
            seconds,
            game,
        )
        self.monkeypatch.setattr(tests.referee, "ENDS", ENDS)  # Europe's ends, not classic's
        check_completed(played)
        return played
