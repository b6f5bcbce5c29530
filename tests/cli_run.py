"""``arena ARGS`` run in the test's own process: its exit code, stdout and stderr."""

from __future__ import annotations

import pytest

from arena.cli import main

Capsys = pytest.CaptureFixture[str]


def run(capsys: Capsys, *args: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``arena ARGS``."""
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse exits by itself on usage errors and --version
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    out, err = capsys.readouterr()
    return code, out, err
