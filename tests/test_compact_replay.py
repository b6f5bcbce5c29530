"""Compact replays: real matches of both games, compacted and expanded again, give the replay
file byte for byte; anything that would not is stored in full; a tournament stores compact
replays that `arena replay export` and `verify` read as the full replay; full replays stored
before read as they are."""

from __future__ import annotations

import gzip
import importlib.util
import json
import sqlite3
import sys
import zlib
from pathlib import Path

import pytest

from arena import games
from arena.catalog import find_bot, load_bot
from arena.errors import ReplayError
from arena.referee.match import play_match
from arena.replays import deflated, dictionary
from arena.replays.compact import MARKER, compact, deflate, expand
from arena.replays.deflated import laid_out
from arena.replays.files import verify
from arena.results.store import compress_replay, open_store
from tests.cli_run import Capsys, run

MATCHES = {
    "classic": ({"players": 3}, ["random", "aggressive", "continent"]),
    "europe": ({"players": 2}, ["random", "europe-heuristic"]),
}


def played(tmp_path: Path, game_name: str, seed: int) -> bytes:
    """The replay file of a real match of ``game_name`` at its default rules."""
    rules, bots = MATCHES[game_name]
    game = games.load(game_name).from_config(rules)
    path = tmp_path / f"{game_name}-{seed}.jsonl"
    play_match(game, [load_bot(find_bot(b)) for b in bots], seed, replay_path=path)
    return path.read_bytes()


@pytest.mark.parametrize("game_name", sorted(MATCHES))
@pytest.mark.parametrize("seed", [1, 2])
def test_a_compact_replay_expands_to_the_replay_byte_for_byte(
    tmp_path: Path, game_name: str, seed: int
) -> None:
    replay = played(tmp_path, game_name, seed)
    packed = compact(replay)
    assert packed.startswith(MARKER)
    assert expand(packed) == replay
    assert len(gzip.compress(packed)) < len(gzip.compress(replay))


def test_what_the_game_does_not_re_derive_is_kept(tmp_path: Path) -> None:
    lines = played(tmp_path, "classic", 3).decode().splitlines()
    record = json.loads(lines[5])
    record["events"] = [{"type": "edited"}]
    lines[5] = json.dumps(record, separators=(",", ":"))
    edited = ("\n".join(lines) + "\n").encode()
    assert compact(edited).startswith(MARKER)
    assert expand(compact(edited)) == edited  # the edited events are kept as written


def test_a_replay_compact_cannot_give_back_exactly_is_kept_in_full(tmp_path: Path) -> None:
    lines = played(tmp_path, "classic", 3).decode().splitlines()
    spaced = "".join(json.dumps(json.loads(line)) + "\n" for line in lines).encode()
    assert compact(spaced) == spaced  # not the referee's layout: stored as it is
    assert expand(spaced) == spaced
    assert compact(b"not a replay") == b"not a replay"


def test_a_damaged_compact_replay_is_a_replay_error(tmp_path: Path) -> None:
    packed = compact(played(tmp_path, "classic", 4))
    with pytest.raises(ReplayError, match="damaged"):
        expand(packed[: len(packed) // 2])


def test_a_tournament_stores_compact_replays_read_back_in_full(
    tmp_path: Path, capsys: Capsys
) -> None:
    db = tmp_path / "arena.db"
    code, _, err = run(
        capsys, "tournament", "run", "--game", "europe", "--bot", "random",
        "--bot", "europe-heuristic", "--seats", "2", "--rounds", "1", "--seed", "8",
        "--in-process", "--no-progress", "--db", str(db),
    )  # fmt: skip
    assert code == 0, err
    with open_store(db, read_only=True) as store:
        match_ids = [m["id"] for m in store.matches()]
        stored = {mid: store.replay(mid) for mid in match_ids}
    assert match_ids and all(deflated.is_deflated(data) for data in stored.values())
    for match_id, data in stored.items():
        out = tmp_path / f"{match_id}.jsonl"
        assert run(capsys, "replay", "export", match_id, str(out), "--db", str(db))[0] == 0
        assert out.read_bytes() == expand(data)
        assert verify(out).ok
        code, text, _ = run(capsys, "replay", "verify", match_id, "--db", str(db))
        assert code == 0, text


def test_a_full_replay_stored_before_reads_as_it_is(tmp_path: Path, capsys: Capsys) -> None:
    replay = played(tmp_path, "classic", 5)
    db = tmp_path / "arena.db"
    with open_store(db) as store:
        store.add_bot("random", "python", "", "/bots/random")
        store.add_version("r1", "random", "1.0")
        seats = [
            {"seat": i, "version_id": "r1", "bot": "random", "place": i + 1, "status": "OK"}
            for i in range(3)
        ]
        match = {
            "id": "old", "game": "classic", "pool": "classic/3p/world", "rules": {}, "seed": 5,
            "end_reason": "domination", "turns": 1, "rounds": 1, "decisions": 1,
            "started_at": "2026-01-01T00:00:00", "finished_at": "2026-01-01T00:00:01",
        }  # fmt: skip
        store.record_match(match, seats, replay, [], [])
    with sqlite3.connect(db) as conn:
        (blob,) = conn.execute("SELECT replay FROM matches WHERE id = 'old'").fetchone()
    assert gzip.decompress(blob) == replay  # stored as given: full
    out = tmp_path / "old.jsonl"
    assert run(capsys, "replay", "export", "old", str(out), "--db", str(db))[0] == 0
    assert out.read_bytes() == replay


@pytest.mark.parametrize("game_name", sorted(MATCHES))
@pytest.mark.parametrize("seed", [6, 7, 8])
def test_a_compact_replay_deflated_with_its_dictionary_expands_byte_for_byte(
    tmp_path: Path, game_name: str, seed: int
) -> None:
    replay = played(tmp_path, game_name, seed)
    packed = compact(replay)
    data = deflate(packed)
    assert data is not None and deflated.is_deflated(data)
    assert expand(data) == replay
    assert len(data) < len(gzip.compress(packed)) * 0.8  # the dictionary pays


def test_the_deflated_form_names_its_dictionary_in_its_marker_line(tmp_path: Path) -> None:
    data = deflate(compact(played(tmp_path, "europe", 2)))
    assert data is not None
    preset = dictionary.newest("europe")
    assert preset is not None and int.from_bytes(data[2:6], "big") == preset.id
    inflater = zlib.decompressobj(zdict=preset.data)
    first_line = (inflater.decompress(data) + inflater.flush()).partition(b"\n")[0]
    assert json.loads(first_line) == {
        "format": "risk-arena-replay-compact", "version": 2, "dictionary": "europe-1",
    }  # fmt: skip


def test_a_game_without_a_dictionary_is_stored_gzipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packed = compact(played(tmp_path, "classic", 3))
    monkeypatch.setattr(dictionary, "shipped", lambda: ())
    assert deflate(packed) is None
    assert deflate(b"not compact") is None


def test_a_damaged_or_unknown_deflated_replay_is_a_replay_error(tmp_path: Path) -> None:
    data = deflate(compact(played(tmp_path, "classic", 4)))
    assert data is not None
    with pytest.raises(ReplayError, match="damaged"):
        expand(data[: len(data) // 2])
    with pytest.raises(ReplayError, match="damaged"):
        expand(data[:40] + bytes(b ^ 0x55 for b in data[40:80]) + data[80:])
    with pytest.raises(ReplayError, match="does not ship"):
        expand(data[:2] + b"\0\0\0\1" + data[6:])


def test_each_shipped_dictionary_is_what_its_recipe_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dictionary never changes once replays use it: the script rebuilds each one exactly
    (seeded matches, think times and match ids made repeatable), and each has its own id."""
    spec = importlib.util.spec_from_file_location(
        "build_replay_dictionary",
        Path(__file__).parent.parent / "scripts/build_replay_dictionary.py",
    )
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, script)  # its dataclass looks itself up there
    spec.loader.exec_module(script)
    shipped = dictionary.shipped()
    assert {d.name for d in shipped} == set(script.RECIPES) >= {f"{g}-1" for g in games.names()}
    assert len({d.id for d in shipped}) == len(shipped)
    for preset in shipped:
        assert script.build(preset.name) == preset.data, preset.name


def test_a_compact_replay_stored_gzipped_before_dictionaries_reads_back(
    tmp_path: Path, capsys: Capsys
) -> None:
    replay = played(tmp_path, "classic", 9)
    db = tmp_path / "arena.db"
    with open_store(db) as store:
        store.add_bot("random", "python", "", "/bots/random")
        store.add_version("r1", "random", "1.0")
        seats = [
            {"seat": i, "version_id": "r1", "bot": "random", "place": i + 1, "status": "OK"}
            for i in range(3)
        ]
        match = {
            "id": "gz", "game": "classic", "pool": "classic/3p/world", "rules": {}, "seed": 9,
            "end_reason": "domination", "turns": 1, "rounds": 1, "decisions": 1,
            "started_at": "2026-01-01T00:00:00", "finished_at": "2026-01-01T00:00:01",
        }  # fmt: skip
        store.record_match(match, seats, compress_replay(compact(replay)), [], [])
        assert store.replay("gz").startswith(MARKER)
    out = tmp_path / "gz.jsonl"
    assert run(capsys, "replay", "export", "gz", str(out), "--db", str(db))[0] == 0
    assert out.read_bytes() == replay
    code, text, _ = run(capsys, "replay", "verify", "gz", "--db", str(db))
    assert code == 0, text


def test_columns_of_integers_from_0_up_are_laid_out_as_varints() -> None:
    payload = {
        "header": "{}", "shapes": [], "actions": [], "order": [0, 1, 300],
        "columns": {
            "wide": [0, 127, 128, 16383, 16384, 2**40], "as_is": [[1.5], ["x"]], "empty": [],
            "negative": [3, -1], "flags": [True, False],
        },
    }  # fmt: skip
    text = laid_out(payload, "classic-1")
    line = json.loads(text.split(b"\n")[1])
    assert line["order"] == 3 and line["columns"]["wide"] == 6
    assert line["columns"]["negative"] == [3, -1] and line["columns"]["flags"] == [True, False]
    data = deflated.deflate(payload, "classic")
    assert data is not None and deflated.inflate(data) == payload
    assert deflated.deflate(payload, "no-such-game") is None
    preset = dictionary.newest("classic")
    assert preset is not None
    cut = zlib.compressobj(9, zdict=preset.data)
    damaged = cut.compress(text[:-2]) + cut.flush()  # the last varints missing
    with pytest.raises(ReplayError, match="damaged"):
        deflated.inflate(damaged)
