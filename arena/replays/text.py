"""Replays as text for the terminal, for any game: the game's narrator tells it in words
(classic: one block per turn, :mod:`arena.games.classic.narrate`); a game without one is
shown record by record, each record's events as compact JSON lines."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from arena import games


def turns(header: dict[str, Any], records: list[dict[str, Any]]) -> Iterator[list[str]]:
    """Blocks of lines, the first headed by the match line (game, seed, seats); the game's
    narrator (found in the registry by the header's ``game``) makes the blocks."""
    bots = [s["bot"] for s in header["seats"]]
    heading = f"{header['game']} · seed {header['seed']} · " + ", ".join(
        f"seat {i}: {b}" for i, b in enumerate(bots)
    )
    narrator = games.narrator(str(header.get("game")))
    blocks = (narrator or record_blocks)(header, records)
    first = next(blocks, [])
    yield [heading, *first]
    yield from blocks


def record_blocks(header: dict[str, Any], records: list[dict[str, Any]]) -> Iterator[list[str]]:
    """One block per record, for a game without a narrator: a heading (its number, type,
    seat or seats, kind, and why it was rejected, forfeited or ended), then its events as
    compact JSON lines."""
    for number, record in enumerate(records, 1):
        facts = [f"#{number} {record.get('type')}"]
        if "seat" in record:
            facts.append(f"seat {record['seat']}")
        answers = record.get("answers")  # a simultaneous decision: one answer per seat
        if isinstance(answers, list):
            seats = (a.get("seat") if isinstance(a, dict) else "?" for a in answers)
            facts.append("seats " + ", ".join(str(seat) for seat in seats))
        facts += [str(record[key]) for key in ("kind", "status", "reason", "end") if key in record]
        yield [
            " · ".join(facts),
            *(
                "  " + json.dumps(event, separators=(",", ":"), ensure_ascii=False)
                for event in record.get("events", [])
            ),
        ]


STEP_PROMPT = "-- Enter: next turn · q: quit --"


def page(
    blocks: Iterable[list[str]], step: bool, out: TextIO, prompts: TextIO, answers: TextIO
) -> bool:
    """Print the blocks; with ``step``, wait for a line of ``answers`` before each next one.

    ``q`` (or ``quit``) and end of input stop early: a stepped replay needs no Ctrl-C. Works the
    same with piped input, so a script can step through. True if every block was printed.
    """
    for number, block in enumerate(blocks):
        if step and number:
            print(STEP_PROMPT, end="", file=prompts, flush=True)
            answer = answers.readline()
            if not answer.endswith("\n"):
                print(file=prompts, flush=True)  # end of input: end the prompt's line
            if not answer or answer.strip().lower() in ("q", "quit"):
                return False
        print("\n".join(block), file=out, flush=True)
    return True


def find_match_file(match_id: str, folder: Path, limit: int = 5000) -> Path | None:
    """The replay file in ``folder`` whose header has ``match_id`` (newest files first)."""
    if not folder.is_dir():
        return None
    files = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True)
    for path in files[:limit]:
        try:
            with path.open(encoding="utf-8") as handle:
                header = json.loads(handle.readline())
        except (OSError, ValueError):
            continue
        if isinstance(header, dict) and header.get("match_id") == match_id:
            return path
    return None


def missing_replay_hint(ref: str, folder: Path) -> str:
    """What to say when ``ref`` is neither a file nor a stored match: ``arena match`` results are
    not in the database, their replays are files (named by the one found, if any)."""
    found = find_match_file(ref, folder) if ref and "/" not in ref else None
    example = (
        found if found is not None else folder / f"{games.DEFAULT_GAME}-YYYYMMDDTHHMMSS-seedN.jsonl"
    )
    return f"an `arena match` replay is a file, not in the database: arena replay show {example}"
