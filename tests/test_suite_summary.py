"""The suite's own settings: what ``make test`` tells the person who runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_a_skipped_test_says_why_in_the_summary(tmp_path: Path) -> None:
    """A machine without e.g. chromedriver skips the browser tests: the closing summary must
    name them and the reason, not only count them."""
    (tmp_path / "test_needs_a_tool.py").write_text(
        "import pytest\n\n\n"
        "@pytest.mark.skipif(True, reason='chromedriver not found on PATH')\n"
        "def test_in_the_browser():\n    pass\n"
    )
    config = ["-c", str(REPO / "pyproject.toml"), "--rootdir", str(tmp_path)]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *config, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    summary = run.stdout[run.stdout.index("short test summary") :]
    assert "SKIPPED [1]" in summary and "chromedriver not found on PATH" in summary
