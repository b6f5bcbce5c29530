"""A Python bot loaded in-process from its ``entry`` (the fast path): its module under a
name of its own, never a bytecode cache in its folder."""

from __future__ import annotations

import importlib.util
import sys

from arena.catalog.manifest import BotSpec
from arena.errors import BotError
from arena.sdk.bot import Bot


def load_bot(spec: BotSpec) -> Bot:
    """Instantiate a Python bot in-process from its ``entry``."""
    if spec.entry is None:
        raise BotError(f"bot {spec.name!r} has no in-process 'entry' in its bot.toml")
    module_name, _, class_name = spec.entry.partition(":")
    file = spec.path / f"{module_name.replace('.', '/')}.py"
    unique = f"arena_bot_{spec.path.name}_{module_name}".replace("-", "_").replace(".", "_")
    module = sys.modules.get(unique)
    if module is None:
        loader = importlib.util.spec_from_file_location(unique, file)
        if loader is None or loader.loader is None or not file.is_file():
            raise BotError(f"bot {spec.name!r}: cannot load {file}")
        module = importlib.util.module_from_spec(loader)
        sys.modules[unique] = module
        # Nothing may be written into a bot's folder but by its own setup: no bytecode cache.
        writes_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
        try:
            loader.loader.exec_module(module)
        except Exception as exc:
            del sys.modules[unique]
            raise BotError(f"bot {spec.name!r}: importing {file} failed: {exc!r}") from exc
        finally:
            sys.dont_write_bytecode = writes_bytecode
    cls = getattr(module, class_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise BotError(f"bot {spec.name!r}: {spec.entry} is not a subclass of arena.sdk.Bot")
    bot = cls()
    # The folder's bot.toml names the bot, whatever its class says.
    bot.name, bot.version = spec.name, spec.version
    return bot
