"""How a bot's ``command`` and ``setup`` run: as argv in the arena's own Python environment,
a Python bot's script as a module of its folder's package."""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

from arena.catalog.manifest import BotSpec
from arena.errors import BotError

PYTHON_WORDS = frozenset({"python", "python3"})
"""A leading word meaning the arena's own interpreter, in ``command`` and ``setup``."""
PIP_WORDS = frozenset({"pip", "pip3"})
"""A leading word meaning the arena interpreter's pip (``sys.executable -m pip``)."""
RUNNER = "arena.catalog.runner"
"""The module that runs a Python bot's script as a module of its folder's package."""
_FLAGS = re.compile(r"-[bBdEIOPqsSu]+")
"""Interpreter options before a script that take no argument (``-B``, ``-u``, ``-OO``)."""
_WITH_VALUE = ("-X", "-W")
"""Interpreter options before a script that take one (``-X dev``, ``-Wignore``)."""


def resolve_argv(command: str | list[str]) -> list[str]:
    """A ``bot.toml`` command or setup as argv, in the arena's Python environment.

    A string is split like a shell line (no shell runs it). A leading ``python``/``python3``
    becomes ``sys.executable`` and a leading ``pip``/``pip3`` ``sys.executable -m pip``, so
    ``setup = "pip install -r requirements.txt"`` installs where ``command = "python bot.py"``
    imports from, whatever ``pip`` comes first on the user's ``PATH``.
    """
    argv = _words(command)
    if not argv:
        raise BotError("bot command is empty")
    if argv[0] in PYTHON_WORDS:
        return [sys.executable, *argv[1:]]
    if argv[0] in PIP_WORDS:
        return [sys.executable, "-m", "pip", *argv[1:]]
    return argv


def _words(command: str | list[str]) -> list[str]:
    return shlex.split(command) if isinstance(command, str) else [str(a) for a in command]


def command_argv(spec: BotSpec) -> list[str]:
    """How to start the bot process (see :func:`resolve_argv`).

    A ``python`` command running a script of the folder's own (``python bot.py``, ``python3
    -u bot.py --fast``) runs it through :mod:`arena.catalog.runner`, as module ``bot`` of
    the folder's package, so its relative imports work as they do in-process; any other
    command runs as written.
    """
    if spec.command is None:
        raise BotError(f"bot {spec.name!r} has no command to start it")
    argv = resolve_argv(spec.command)
    if _words(spec.command)[0] not in PYTHON_WORDS:
        return argv
    at = _script_index(argv)
    if at is None or script_module(argv[at]) is None or not (spec.path / argv[at]).is_file():
        return argv
    return [*argv[:at], "-m", RUNNER, *argv[at:]]


def script_module(script: str) -> str | None:
    """The module a script of the bot's folder runs as (``bot.py`` → ``bot``), or None when
    ``script`` is not a ``NAME.py`` right in the folder with ``NAME`` a Python identifier."""
    path = Path(script)
    if path.parent != Path(".") or path.suffix != ".py" or not path.stem.isidentifier():
        return None
    return path.stem


def _script_index(argv: list[str]) -> int | None:
    """Where the script is in an interpreter's argv (after its options), or None when the
    command runs no script (``-c``, ``-m``, an option not known here)."""
    at = 1
    while at < len(argv):
        word = argv[at]
        if word in _WITH_VALUE:
            at += 2
        elif word.startswith(_WITH_VALUE) or _FLAGS.fullmatch(word):
            at += 1
        elif word.startswith("-"):
            return None
        else:
            return at
    return None


def bot_environment(base: dict[str, str] | None = None) -> dict[str, str]:
    """Variables a bot's ``setup`` and ``command`` get on top of the arena's environment.

    The arena interpreter's ``bin`` folder comes first on ``PATH`` (and ``VIRTUAL_ENV`` names
    its environment when it is one), so ``python``/``pip`` inside scripts and build tools the
    bot runs are the arena's too.
    """
    env = os.environ if base is None else base
    bindir = os.path.dirname(sys.executable)
    rest = [p for p in env.get("PATH", os.defpath).split(os.pathsep) if p and p != bindir]
    extra = {"PATH": os.pathsep.join([bindir, *rest])}
    if sys.prefix != sys.base_prefix:
        extra["VIRTUAL_ENV"] = sys.prefix
    return extra
