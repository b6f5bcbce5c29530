"""Golden playthroughs told in words: the narrated ``NAME.txt`` beside each ``NAME.json``
digest file, and the readable diff a test shows when a replay no longer tells the same story.

A digest says *that* a game changed; the text says *what*. Each game's ``test_golden``
renders its text from a golden file alone (no times, paths or machine-dependent order, one
``\\n`` per line), so it is byte-identical on any machine. The layout, the same for every
game:

- a few header lines (name, rules, seed, seats, the start position);
- per decision, one heading line per answering seat, ``#N seat S (its bot, where the file
  names one): what it decided`` (the answers of a simultaneous decision share their number
  ``N``), then what happened, one line per event in the game's own narrator's words,
  indented by :data:`INDENT`;
- ``refused: ...`` under the heading of a decision the engine no longer accepts, where the
  replay stops, and a last line when the actions end before the game does.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

INDENT = "  "
HEADING = re.compile(r"^#(\d+) ")
"""A decision's heading line; its group is the decision's number."""
NOT_OVER = "The actions end here; the game is not over."
CONTEXT = 3
"""Unchanged lines shown before the first difference."""
SHOWN = 40
"""Lines of the diff shown at most (the first difference is what explains the rest)."""


def heading(number: int, who: str, decided: str) -> str:
    """A decision's heading line: ``#17 seat 1 (aggressive): defend with 2 dice``."""
    return f"#{number} {who}: {decided}"


def happened(lines: Iterable[str | None]) -> list[str]:
    """Event lines (None: the narrator had nothing to tell), indented under their decision."""
    return [f"{INDENT}{line}" for line in lines if line]


def refused(reason: str) -> str:
    return f"{INDENT}refused: {reason}"


def text_of(lines: Sequence[str]) -> str:
    """The file's content: the lines, each ending in one newline."""
    return "".join(f"{line}\n" for line in lines)


def write(path: Path, text: str) -> None:
    """Write a narration with ``\\n`` line ends on every platform."""
    path.write_text(text, encoding="utf-8", newline="\n")


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def first_difference(expected: Sequence[str], actual: Sequence[str]) -> int | None:
    """Index of the first line that differs (a missing line counts), or None if none does."""
    for i, (a, b) in enumerate(zip(expected, actual, strict=False)):
        if a != b:
            return i
    return None if len(expected) == len(actual) else min(len(expected), len(actual))


def decision_at(expected: Sequence[str], actual: Sequence[str], index: int) -> str:
    """Which decision line ``index`` belongs to: the heading at or above it (the lines above
    it are the same in both texts), or "the header" above the first decision."""
    for lines in (expected, actual):
        if index < len(lines) and (m := HEADING.match(lines[index])):
            return f"decision #{m.group(1)}"
    for line in reversed(expected[:index]):
        if m := HEADING.match(line):
            return f"decision #{m.group(1)}"
    return "the header"


def difference(expected: str, actual: str, name: str) -> str | None:
    """None when the texts agree; otherwise a report naming the first differing decision,
    with a unified diff from a little before it (at most :data:`SHOWN` lines)."""
    old, new = expected.splitlines(), actual.splitlines()
    first = first_difference(old, new)
    if first is None:
        return None
    start = max(0, first - CONTEXT)
    window = SHOWN  # enough lines on each side for the diff to resynchronise or run out
    diff = difflib.unified_diff(
        old[start : first + window],
        new[start : first + window],
        f"{name} (golden)",
        f"{name} (replayed)",
        n=CONTEXT,
        lineterm="",
    )
    shown = [_shifted(line, start) for line in diff][:SHOWN]
    return "\n".join(
        [f"{name}: first difference at line {first + 1}, in {decision_at(old, new, first)}", *shown]
    )


def _shifted(line: str, offset: int) -> str:
    """A hunk header of a diff of slices, renumbered to the whole files' lines."""
    m = re.fullmatch(r"@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@", line)
    if m is None:
        return line
    old, new = int(m.group(1)) + offset, int(m.group(3)) + offset
    return f"@@ -{old}{m.group(2) or ''} +{new}{m.group(4) or ''} @@"


def assert_told(path: Path, actual: str, again: str) -> None:
    """Fail with the readable difference when ``actual`` is not the text in ``path``."""
    report = difference(read(path), actual, path.name)
    if report is not None:
        raise AssertionError(f"{report}\n{again}")
