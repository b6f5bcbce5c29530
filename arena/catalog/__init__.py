"""The bot catalogue: bot folders and their ``bot.toml`` (:mod:`.manifest`), how their
commands run (:mod:`.commands`), their ``setup`` (:mod:`.setup`), their versions
(:mod:`.versions`), and a Python bot's folder as a package of its own, loaded in-process
(:mod:`.loader`) or run as a process (:mod:`.runner`).

The names below are the catalogue's public face, the one import outside harnesses need to
find a bot by name or folder and load it: ``from arena.catalog import find_bot, load_bot``.
"""

from arena.catalog.commands import bot_environment, command_argv, resolve_argv
from arena.catalog.loader import load_bot
from arena.catalog.manifest import (
    DEFAULT_GAMES,
    BotSpec,
    bundled_bots,
    check_plays,
    find_bot,
    is_bundled,
    read_spec,
)
from arena.catalog.setup import SETUP_TIMEOUT, folder_lock, run_setup, setup_command, setup_marker
from arena.catalog.versions import version_id

__all__ = [
    "DEFAULT_GAMES",
    "SETUP_TIMEOUT",
    "BotSpec",
    "bot_environment",
    "bundled_bots",
    "check_plays",
    "command_argv",
    "find_bot",
    "folder_lock",
    "is_bundled",
    "load_bot",
    "read_spec",
    "resolve_argv",
    "run_setup",
    "setup_command",
    "setup_marker",
    "version_id",
]
