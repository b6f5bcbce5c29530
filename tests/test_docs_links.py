"""Every relative link of the README, the guides and the benchmark results leads somewhere:
to a file or folder of the repository and, when it names an anchor, to a heading of that
page (slugged as GitHub slugs headings), so moving text between pages cannot strand a link."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "benchmarks/RESULTS.md"]
FENCE = re.compile(r"^\s*(```|~~~)")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
CODE_SPAN = re.compile(r"``.+?``|`[^`]*`", re.S)


def prose(text: str) -> str:
    """The page without its fenced blocks and code spans, where brackets are not links."""
    kept, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            kept.append(line)
    return CODE_SPAN.sub("", "\n".join(kept))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: link text kept, lower case, punctuation but ``-`` and
    ``_`` dropped, each space a hyphen."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading's anchor on a page, repeated headings numbered as GitHub numbers them."""
    seen: dict[str, int] = {}
    found = set()
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        heading = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if fenced or not heading:
            continue
        base = slug(heading.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def relative_links(page: Path) -> list[str]:
    return [
        target
        for target in LINK.findall(prose(page.read_text(encoding="utf-8")))
        if not re.match(r"[a-z][a-z0-9+.-]*:", target)
    ]


def test_the_slugs_are_github_s() -> None:
    assert slug("`arena replay view`") == "arena-replay-view"
    assert slug("Rules options (`--rules KEY=VALUE`)") == "rules-options---rules-keyvalue"
    assert slug("6. Message size") == "6-message-size"
    assert slug("The top bot's search") == "the-top-bots-search"
    assert slug("`strong` 2.6: the planner's opening") == "strong-26-the-planners-opening"


def broken_links(page: Path) -> list[str]:
    """The page's relative links that lead to no file, or to no heading of a page."""
    broken = []
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.exists():
            broken.append(f"{target}: no such file")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            broken.append(f"{target}: no heading with that anchor")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_heading(page: Path) -> None:
    assert not broken_links(page), f"{page.relative_to(ROOT)}: " + "; ".join(broken_links(page))


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## A `code` heading\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n[fine](other.md#a-code-heading), [here](#page), [web](https://example.org)\n"
        "[gone](missing.md), [no anchor](other.md#nowhere), [none here](#nowhere)\n"
        "`[in code](missing.md)`\n\n```sh\n[in a block](missing.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page) == [
        "missing.md: no such file",
        "other.md#nowhere: no heading with that anchor",
        "#nowhere: no heading with that anchor",
    ]


def test_the_pages_link_to_each_other() -> None:
    """The README reaches every guide and the benchmark results, so none is orphaned."""
    readme = ROOT / "README.md"
    reached = {(readme.parent / t.partition("#")[0]).resolve() for t in relative_links(readme)}
    for page in PAGES[1:]:
        if page.name != "europe-facts.md":  # research notes, linked from europe-rules.md
            assert page.resolve() in reached, f"the README does not link to {page.name}"
