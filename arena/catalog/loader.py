"""A bot folder as a Python package of its own, imported in-process or run as a process.

Each folder is imported under a name no other folder can have (:func:`package_name`), with
its files as the package's modules: a bot of several files imports its own modules
relatively (``from .search import Search``), and two folders loaded in one process, two
versions of one bot side by side included, never share a module, whatever their files are
called. The same holds in the bot's own process (:mod:`arena.catalog.runner`). Nothing is
written into a bot's folder but by its own setup: its modules leave no bytecode cache there.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from arena.catalog.manifest import BotSpec
from arena.errors import BotError
from arena.sdk.bot import Bot

PACKAGE_PREFIX = "arena_bot_"
"""How every bot folder's package name starts."""


def package_name(folder: Path) -> str:
    """The name the bot folder is imported under: ``arena_bot_<folder name>_<hash>``.

    The hash is of the folder's resolved path, so two folders never share a name (nor the
    module names inside it), even two copies of one bot both called ``strong``; the folder
    name is there for people reading a traceback (as a Python identifier).
    """
    real = folder.resolve()
    slug = re.sub(r"\W", "_", real.name, flags=re.ASCII).lower()
    digest = hashlib.sha256(os.fsencode(real)).hexdigest()[:16]
    return f"{PACKAGE_PREFIX}{slug}_{digest}"


@contextlib.contextmanager
def _no_bytecode() -> Iterator[None]:
    """No ``__pycache__`` written while a bot's modules are imported."""
    writes, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        yield
    finally:
        sys.dont_write_bytecode = writes


def import_package(folder: Path) -> ModuleType:
    """The folder's package, imported once per process: its ``__init__.py`` when it has one
    (not needed: without one the package is just the folder)."""
    name = package_name(folder)
    package = sys.modules.get(name)
    if package is not None:
        return package
    real = folder.resolve()
    init = real / "__init__.py"
    if init.is_file():
        found = importlib.util.spec_from_file_location(
            name, init, submodule_search_locations=[str(real)]
        )
        assert found is not None
        spec = found
    else:
        spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
        spec.submodule_search_locations = [str(real)]
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package
    if spec.loader is not None:
        spec.loader.exec_module(package)
    return package


def bot_module(folder: Path, module: str) -> ModuleType:
    """Module ``module`` (dotted, relative to the folder: ``bot``, ``search``) of the bot
    folder's package, imported once per process; no bytecode cache is written.

    If the import fails, every module of the package it imported is forgotten again, so a
    later call starts afresh from the files as they are then.
    """
    name = package_name(folder)
    before = {m for m in sys.modules if m == name or m.startswith(name + ".")}
    try:
        with _no_bytecode():
            import_package(folder)
            return importlib.import_module(f"{name}.{module}")
    except BaseException:
        for added in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            if added not in before:
                del sys.modules[added]
        importlib.invalidate_caches()
        raise


def load_bot(spec: BotSpec) -> Bot:
    """Instantiate a Python bot in-process from its ``entry`` (``module:Class``)."""
    if spec.entry is None:
        raise BotError(f"bot {spec.name!r} has no in-process 'entry' in its bot.toml")
    module_name, _, class_name = spec.entry.partition(":")
    relative = module_name.replace(".", "/")
    file = spec.path / f"{relative}.py"
    if not (file.is_file() or (spec.path / relative / "__init__.py").is_file()):
        raise BotError(f"bot {spec.name!r}: cannot load {file}")
    try:
        module = bot_module(spec.path, module_name)
    except Exception as exc:
        raise BotError(f"bot {spec.name!r}: importing {file} failed: {exc!r}") from exc
    cls = getattr(module, class_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise BotError(f"bot {spec.name!r}: {spec.entry} is not a subclass of arena.sdk.Bot")
    bot = cls()
    # The folder's bot.toml names the bot, whatever its class says.
    bot.name, bot.version = spec.name, spec.version
    return bot
