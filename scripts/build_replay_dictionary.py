"""Build a game's preset dictionary for stored replays from seeded matches of bundled bots.

python scripts/build_replay_dictionary.py classic-1           # write it (never over a file)
python scripts/build_replay_dictionary.py classic-1 --check   # exit 1 unless the shipped file
                                                              # is what this builds

A dictionary is the last 32 KB (zlib's window) of the compact replays of a few seeded
matches, each as it is deflated (``arena.replays.deflated.laid_out``), end to end: what new replays repeat of them (the header, the names of records,
actions and columns, runs of typical values) then costs a few bits. The matches are played
under a fixed installation key (bots' seeds derive from it), and what a seeded match still
does not repeat, its think times and its random match id, is made fixed before compacting,
so the same recipe builds the same bytes on any machine. A shipped dictionary never changes
(stored replays name it): a new recipe gets the next number.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from arena import games
from arena.catalog import find_bot, load_bot
from arena.keys import KEY_BYTES, KEY_ENV
from arena.referee.match import TimeControl, play_match
from arena.replays import dictionary
from arena.replays.compact import MARKER, compact
from arena.replays.deflated import laid_out

WINDOW = 32 * 1024
"""zlib's window: a longer dictionary would only have its end used."""
BUILD_KEY = "00" * KEY_BYTES
"""The installation key the matches are played under: bots' seeds derive from it."""
_THINK_MS = re.compile(rb'"think_ms":[-+0-9.eE]+')
_MATCH_ID = re.compile(rb'"match_id":"[0-9a-f]*"')


@dataclass(frozen=True)
class Recipe:
    """The matches a dictionary is built from: each a number of players and its bots, in
    seat order, played with one seed each (the last matches weigh most: nearest the data)."""

    tables: tuple[tuple[str, ...], ...]
    seeds: tuple[int, ...]


RECIPES = {
    "classic-1": Recipe(
        tables=(
            ("random", "aggressive", "continent"),
            ("defensive", "random", "aggressive"),
            ("continent", "defensive", "random"),
            ("aggressive", "continent", "defensive"),
        ),
        seeds=(101, 102),
    ),
    "europe-1": Recipe(
        tables=(
            ("random", "europe-heuristic", "random", "europe-heuristic"),
            ("europe-heuristic", "random", "europe-heuristic"),
            ("random", "europe-heuristic"),
        ),
        seeds=(101, 102),
    ),
}


def build(name: str) -> bytes:
    """The bytes of dictionary ``name`` (a key of :data:`RECIPES`)."""
    game_name = name.rpartition("-")[0]
    recipe = RECIPES[name]
    installation_key = os.environ.get(KEY_ENV)
    os.environ[KEY_ENV] = BUILD_KEY
    try:
        replays = _played(game_name, recipe)
    finally:
        if installation_key is None:
            del os.environ[KEY_ENV]
        else:
            os.environ[KEY_ENV] = installation_key
    packed = [compact(replay) for replay in replays]
    if not all(p.startswith(MARKER) for p in packed):
        raise SystemExit(f"{name}: a replay of the recipe did not compact")
    texts = [laid_out(json.loads(p[len(MARKER) :]), name) for p in packed]
    return b"".join(texts)[-WINDOW:]


def _played(game_name: str, recipe: Recipe) -> list[bytes]:
    """The replays of the recipe's matches, made repeatable."""
    replays = []
    with tempfile.TemporaryDirectory() as folder:
        for seed in recipe.seeds:
            for index, table in enumerate(recipe.tables):
                game = games.load(game_name).from_config({"players": len(table)})
                path = Path(folder) / f"{seed}-{index}.jsonl"
                bots = [load_bot(find_bot(bot)) for bot in table]
                play_match(game, bots, seed, replay_path=path, control=TimeControl())
                match_id = f"{seed:06x}{index:06x}".encode()
                replays.append(_repeatable(path.read_bytes(), match_id))
    return replays


def _repeatable(replay: bytes, match_id: bytes) -> bytes:
    """The replay with what a seeded match does not repeat made so: every think time 0, the
    match id (random) given."""
    header, _, records = replay.partition(b"\n")
    header = _MATCH_ID.sub(b'"match_id":"' + match_id + b'"', header, count=1)
    return header + b"\n" + _THINK_MS.sub(b'"think_ms":0.0', records)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", choices=sorted(RECIPES), help="the dictionary: GAME-NUMBER")
    parser.add_argument("--check", action="store_true", help="compare with the shipped file")
    args = parser.parse_args(argv)
    game_name, _, number = args.name.rpartition("-")
    path = dictionary.FOLDER / dictionary.file_name(game_name, int(number))
    data = build(args.name)
    if args.check:
        if not path.is_file() or path.read_bytes() != data:
            print(f"{path}: not what the recipe {args.name} builds", file=sys.stderr)
            return 1
        print(f"{path}: as the recipe builds it ({len(data)} bytes)")
        return 0
    if path.exists():
        print(
            f"{path} exists and never changes: give a new recipe the next number", file=sys.stderr
        )
        return 1
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    print(f"{path}: {len(data)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
