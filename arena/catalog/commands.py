"""How a bot's ``command`` and ``setup`` run: as argv in the arena's own Python environment."""

from __future__ import annotations

import os
import shlex
import sys

from arena.catalog.manifest import BotSpec
from arena.errors import BotError

PYTHON_WORDS = frozenset({"python", "python3"})
"""A leading word meaning the arena's own interpreter, in ``command`` and ``setup``."""
PIP_WORDS = frozenset({"pip", "pip3"})
"""A leading word meaning the arena interpreter's pip (``sys.executable -m pip``)."""


def resolve_argv(command: str | list[str]) -> list[str]:
    """A ``bot.toml`` command or setup as argv, in the arena's Python environment.

    A string is split like a shell line (no shell runs it). A leading ``python``/``python3``
    becomes ``sys.executable`` and a leading ``pip``/``pip3`` ``sys.executable -m pip``, so
    ``setup = "pip install -r requirements.txt"`` installs where ``command = "python bot.py"``
    imports from, whatever ``pip`` comes first on the user's ``PATH``.
    """
    argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    if not argv:
        raise BotError("bot command is empty")
    if argv[0] in PYTHON_WORDS:
        return [sys.executable, *argv[1:]]
    if argv[0] in PIP_WORDS:
        return [sys.executable, "-m", "pip", *argv[1:]]
    return argv


def command_argv(spec: BotSpec) -> list[str]:
    """How to start the bot process (see :func:`resolve_argv`)."""
    if spec.command is None:
        raise BotError(f"bot {spec.name!r} has no command to start it")
    return resolve_argv(spec.command)


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
