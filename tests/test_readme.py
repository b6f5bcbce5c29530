"""The README's and the guides' Python examples run (as doctests), and the README's
dependency table names every dependency with the reason for it."""

from __future__ import annotations

import doctest
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [
    ROOT / "README.md",
    ROOT / "docs" / "writing-a-bot.md",
    ROOT / "docs" / "adding-a-game.md",
    ROOT / "docs" / "europe-rules.md",
]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks(path: Path) -> list[tuple[int, str]]:
    """(line number, code) of every ```python block."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in BLOCK.finditer(text)]


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_python_examples_run_as_doctests(path: Path) -> None:
    """Every ``>>>`` block, in order and sharing names like a session, gives what it shows."""
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    names: dict[str, object] = {}
    examples = 0
    for line, code in python_blocks(path):
        if ">>>" not in code:
            continue
        test = parser.get_doctest(code, names, f"{path.name}:{line}", str(path), line - 1)
        examples += len(test.examples)
        runner.run(test, clear_globs=False)
        names = test.globs  # the next block goes on from here (get_doctest copies the names)
    assert examples > 0, f"no >>> examples in {path.name}"
    results = runner.summarize(verbose=False)
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples failed"


def test_every_readme_python_example_is_a_doctest() -> None:
    blocks = python_blocks(ROOT / "README.md")
    assert blocks
    for line, code in blocks:
        assert ">>>" in code, f"README.md:{line}: a Python example that is not run as a doctest"


def dependency_rows() -> dict[str, str]:
    """The "Dependencies and why" table: first column → second column."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Dependencies and why", 1)[1].split("\n## ", 1)[0]
    lines = section.strip().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| package"))
    table = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        table.append(line)
    rest = "\n".join(lines[start + len(table) :])
    assert not any(line.startswith("|") for line in rest.splitlines()), (
        "the dependency table is broken: a row after a blank line"
    )
    rows = {}
    for line in table[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        assert len(cells) == 2, line
        rows[cells[0]] = cells[1]
    return rows


def test_dependency_table_names_every_dependency_and_why() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    requirements = [
        *project["project"]["dependencies"],
        *project["project"]["optional-dependencies"]["dev"],
        *project["build-system"]["requires"],
    ]
    names = {re.split(r"[<>=!~ \[]", r, maxsplit=1)[0].lower() for r in requirements}
    rows = dependency_rows()
    listed = {
        name.strip().lower() for first in rows for name in re.sub(r"\(.*?\)", "", first).split(",")
    }
    assert names <= listed, f"not in the README's dependency table: {sorted(names - listed)}"
    assert any("node.js" in first.lower() for first in rows)
    for first, why in rows.items():
        assert len(why) > 10, f"no reason given for {first}"


def test_bot_guide_shows_every_sdk_action_constructor() -> None:
    """Each action in ``arena.sdk`` has a row in the guide's table and a runnable example."""
    import arena.sdk
    from arena.games.classic.actions import KIND_OF

    guide = (ROOT / "docs" / "writing-a-bot.md").read_text(encoding="utf-8")
    examples = "".join(code for _, code in python_blocks(ROOT / "docs" / "writing-a-bot.md"))
    exported = {name for name in arena.sdk.__all__ if getattr(arena.sdk, name) in KIND_OF}
    assert len(exported) == len(KIND_OF)
    for name in exported:
        assert f"| `{name}(" in guide, f"{name} has no row in the actions table"
        assert f">>> {name}(" in examples, f"{name} has no example"
