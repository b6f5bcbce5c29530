"""The replay viewer's frames against their documented shape, :class:`arena.web.frames.Frame`:
every frame of a real replay of each game (and of a game without a spectator) is plain JSON of
exactly that shape, names only sides its legend names, and draws what the game's own board
says."""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import (
    Any,
    Literal,
    NotRequired,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

import pytest

from arena import games
from arena.catalog import load_bot, read_spec
from arena.referee.match import play_match
from arena.replays import files as replay
from arena.replays.compact import expand
from arena.results.store import open_store
from arena.web import frames, match_plots
from arena.web.routes.matches import layout
from tests.games.guessing import GAME as GUESSING

GUESSER = Path(__file__).resolve().parent.parent / "games" / "bots" / "guesser"


def problems(value: Any, hint: Any, where: str) -> list[str]:
    """How ``value`` (decoded JSON) differs from the type ``hint``: missing or undocumented
    keys, wrong types; [] if it conforms."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is Any:
        return []
    if is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__}, not an object"]
        hints = get_type_hints(hint, include_extras=True)
        required = {k for k, h in hints.items() if get_origin(h) is not NotRequired}
        found = [f"{where}: no {k!r}" for k in sorted(required - value.keys())]
        found += [f"{where}: {k!r} is undocumented" for k in sorted(value.keys() - hints.keys())]
        for key in sorted(value.keys() & hints.keys()):
            found += problems(value[key], hints[key], f"{where}.{key}")
        return found
    if origin is NotRequired:
        return problems(value, args[0], where)
    if origin in (Union, types.UnionType):
        return [] if any(not problems(value, a, where) for a in args) else [f"{where}: {value!r}"]
    if origin is Literal:
        return [] if value in args else [f"{where}: {value!r} is none of {args}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__}, not a list"]
        return [p for k, item in enumerate(value) for p in problems(item, args[0], f"{where}[{k}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {type(value).__name__}, not an object"]
        return [p for k, item in value.items() for p in problems(item, args[1], f"{where}.{k}")]
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r}, not null"]
    if hint in (int, str):
        ok = isinstance(value, hint) and not isinstance(value, bool)
        return [] if ok else [f"{where}: {value!r}, not {hint.__name__}"]
    raise TypeError(f"{where}: {hint!r} is no JSON type this check knows")


def test_the_shape_check_finds_missing_undocumented_and_mistyped_keys() -> None:
    """The check the contract tests rest on catches what a drifting frame would do."""
    good = {"side": 0, "name": "random (seat 0)", "colour": "owner-0"}
    assert problems(good, frames.Side, "s") == []
    assert problems({**good, "extra": 1}, frames.Side, "s") == ["s: 'extra' is undocumented"]
    assert problems({"side": 0, "name": "x"}, frames.Side, "s") == ["s: no 'colour'"]
    assert problems({**good, "side": "0"}, frames.Side, "s") == ["s.side: '0', not int"]
    badge = {"text": "x", "style": "y", "corner": "middle"}
    assert problems(badge, frames.Badge, "b") == [
        "b.corner: 'middle' is none of ('top-left', 'top-right')"
    ]
    regions = {"owner": [0], "count": [1], "ring": [None, 2, "3"]}
    assert problems(regions, frames.Regions, "r") == ["r.ring[2]: '3'"]


def _sides(frame: frames.Frame) -> set[int]:
    """Every side a frame draws: owners, rings, units, arrows and panel rows."""
    regions = frame["regions"]
    found = set(regions["owner"])
    found |= {s for s in regions.get("ring", []) if s is not None}
    found |= {u["side"] for here in regions.get("units", []) for u in here}
    found |= {a["side"] for a in frame["arrows"]}
    return found | {r["side"] for r in frame["panel"]["rows"]}


def check_contract(found: list[frames.Frame], territories: int) -> None:
    """Every frame has the documented shape (as the browser receives it), the legend in the
    first alone, ``revealed`` in the last alone, one region entry per territory, and only
    sides the legend names."""
    assert found and "legend" in found[0] and "revealed" in found[-1]
    assert not any("legend" in f for f in found[1:])
    assert not any("revealed" in f for f in found[:-1])
    legend = {s["side"] for s in found[0]["legend"]}
    assert len(legend) == len(found[0]["legend"]), "each side once"
    for step, frame in enumerate(found):
        sent = json.loads(json.dumps(frame))
        assert sent == frame, f"frame {step} is not plain JSON"
        assert problems(sent, frames.Frame, f"frame {step}") == []
        assert frame["step"] == step
        for key, per_territory in sent["regions"].items():
            assert len(per_territory) == territories, (step, key)
        assert _sides(frame) <= legend, (step, _sides(frame) - legend)
        for arrow in frame["arrows"]:
            assert 0 <= arrow["from"] < territories and 0 <= arrow["to"] < territories
        for row in frame["panel"]["rows"]:
            assert len(row["cells"]) == len(frame["panel"]["columns"]) - 1, step


def _replay(db: Path, game: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    with open_store(db, read_only=True) as store:
        match = next(m for m in store.matches() if m["game"] == game)
        return frames.parse(expand(store.replay(match["id"])))


@pytest.mark.parametrize("game", games.GAMES)
def test_every_frame_of_a_real_replay_has_the_documented_shape(results_db: Path, game: str) -> None:
    header, records = _replay(results_db, game)
    found = frames.frames(header, records)
    board = layout(game)
    assert board is not None and board["territories"]
    check_contract(found, len(board["territories"]))
    assert len(found) == len(records) + 1
    names = [f"{s['bot']} (seat {n})" for n, s in enumerate(header["seats"])]
    assert [s["name"] for s in found[0]["legend"][: len(names)]] == names
    assert any(f["regions"]["owner"] != found[0]["regions"]["owner"] for f in found)


@pytest.mark.parametrize("game", games.GAMES)
def test_the_drawn_map_gives_each_games_own_standings(results_db: Path, game: str) -> None:
    """A game's own ``standing`` and the one read from what the viewer draws agree on every
    frame: the map shows the board the game describes."""
    header, records = _replay(results_db, game)
    own = match_plots.standing_of(game)
    assert own is not match_plots.drawn_standing, "each shipped game says its own standing"
    for frame in frames.frames(header, records):
        for seat in range(len(header["seats"])):
            assert own(frame, seat) == match_plots.drawn_standing(frame, seat), frame["step"]


def test_a_game_without_a_spectator_has_frames_of_its_events_and_no_plots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games, "_ENTRIES", dict(games._ENTRIES))
    games.register("guessing", "tests.games.guessing")
    game = GUESSING.configure({"rounds": "3"}, 2)
    bots = [load_bot(read_spec(GUESSER)) for _ in range(2)]
    play_match(game, bots, 3, replay_path=tmp_path / "match.jsonl")
    header, records = replay.read(tmp_path / "match.jsonl")
    found = frames.frames(header, records)
    check_contract(found, 0)
    assert [s["side"] for s in found[0]["legend"]] == [0, 1]
    assert all(f["panel"] == {"columns": [], "rows": []} for f in found)
    assert any(line.startswith("{") for f in found for line in f["lines"])  # events as JSON
    assert match_plots.plots("guessing", ["a", "b"], found) == []
