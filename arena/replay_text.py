"""Replays as text for the terminal: one block per turn, with the board after it."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from arena.games.classic.board import classic_board


def _name(territory: int) -> str:
    return classic_board().names[territory]


def describe(event: dict[str, Any], bots: list[str]) -> str | None:
    """One line for an event, or None for events not worth a line of their own."""
    kind = event["type"]

    def who(seat: int) -> str:
        return "neutral" if seat == -1 else f"{bots[seat]} (seat {seat})"

    if kind == "battle":
        return (
            f"  {_name(event['from'])} → {_name(event['to'])}: {event['attacker_dice']} v "
            f"{event['defender_dice']}, losses {event['attacker_losses']}/"
            f"{event['defender_losses']}"
        )
    if kind == "conquered":
        return f"  ✔ {who(event['seat'])} takes {_name(event['to'])} with {event['armies']}"
    if kind == "eliminated":
        return f"  ✖ {who(event['seat'])} eliminated by {who(event['by'])}"
    if kind == "traded":
        return f"  {who(event['seat'])} trades a set for {event['armies']} armies"
    if kind == "reinforced":
        spread = ", ".join(f"{n} on {_name(t)}" for t, n in event["placements"])
        return f"  reinforces: {spread}"
    if kind == "fortified":
        return f"  fortifies {event['armies']} from {_name(event['from'])} to {_name(event['to'])}"
    if kind == "forfeited":
        return f"  ⚠ {who(event['seat'])} forfeits"
    if kind == "headquarters_revealed":
        return "  headquarters: " + ", ".join(
            f"{who(s)} {_name(t)}" for s, t in enumerate(event["headquarters"])
        )
    if kind == "mission_revealed":
        return f"  {who(event['seat'])} reveals mission {event['mission']}"
    if kind == "game_over":
        return f"GAME OVER ({event['reason']}): places {event['places']}"
    return None


def turns(header: dict[str, Any], records: list[dict[str, Any]]) -> Iterator[list[str]]:
    """Blocks of lines: the setup, then one per player turn, then the result."""
    bots = [s["bot"] for s in header["seats"]]
    block: list[str] = [
        f"{header['game']} · seed {header['seed']} · "
        + ", ".join(f"seat {i}: {b}" for i, b in enumerate(bots))
    ]
    for record in records:
        if record.get("type") == "rejected":
            block.append(f"  ✗ seat {record['seat']} answer rejected: {record['reason']}")
        if record.get("type") == "timeout":
            block.append(f"  ⏱ seat {record['seat']} ran out of time")
        for event in record.get("events", []):
            if event["type"] == "turn":
                yield block
                block = [
                    f"round {event['round']} · {bots[event['seat']]} (seat {event['seat']}) "
                    f"· {event['reinforcements']} new armies"
                ]
                continue
            line = describe(event, bots)
            if line:
                block.append(line)
    yield block


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
    example = found if found is not None else folder / "classic-YYYYMMDDTHHMMSS-seedN.jsonl"
    return f"an `arena match` replay is a file, not in the database: arena replay show {example}"
