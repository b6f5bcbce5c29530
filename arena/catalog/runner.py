"""A Python bot's process: its script run as a module of the bot folder's package.

``command = "python bot.py"`` starts ``python -m arena.catalog.runner bot.py`` in the bot's
folder (:func:`arena.catalog.commands.command_argv`). The script runs as ``__main__`` as it
would on its own, with its arguments and the folder first on ``sys.path``, but as module
``bot`` of the package :func:`~arena.catalog.loader.package_name` names, the one it has
in-process too: its relative imports (``from .search import Search``) work in both, and its
modules write no bytecode cache into the folder.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

from arena.catalog.commands import script_module
from arena.catalog.loader import import_package, package_name

USAGE = "usage: python -m arena.catalog.runner SCRIPT.py [ARGS...] (in the bot's folder)"


def main(argv: list[str] | None = None) -> None:
    """Run ``SCRIPT.py ARGS...`` of the current folder (the bot's) as its package's module."""
    script, *args = (sys.argv[1:] if argv is None else argv) or [""]
    module = script_module(script)
    folder = Path.cwd()
    if module is None or not (folder / script).is_file():
        print(f"{USAGE}; got {script!r} in {folder}", file=sys.stderr)
        raise SystemExit(2)
    sys.dont_write_bytecode = True  # nothing is written into a bot's folder
    import_package(folder)
    sys.argv = [script, *args]  # runpy puts the full path of the script first
    runpy.run_module(f"{package_name(folder)}.{module}", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
