"""Finding and loading bots: a bot is a folder with a ``bot.toml``.

``bot.toml`` keys: ``name``, ``version`` (a label), ``language``, ``description``,
``command`` (how to start it: a string split like a shell line but run without a shell, or a
list; the working directory is the bot folder), optional ``setup`` (run once before first
use, e.g. ``npm ci``) and, for a Python bot that can also run in-process,
``entry = "module:Class"``. A bot is named by its folder name under ``bots/`` or by a path
to its folder. Nothing is ever written into a bot's folder except by its own ``setup``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import shlex
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from arena.errors import BotError
from arena.paths import bundled_bots_dir, results_home
from arena.sdk.bot import Bot


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot folder and what its ``bot.toml`` says."""

    name: str
    path: Path
    version: str
    language: str
    description: str
    entry: str | None
    command: str | list[str] | None = None
    setup: str | list[str] | None = None


def bundled_bots() -> list[BotSpec]:
    """Every bot folder under the bundled ``bots/`` directory, by name."""
    root = bundled_bots_dir()
    if not root.is_dir():
        return []
    return [read_spec(p) for p in sorted(root.iterdir()) if (p / "bot.toml").is_file()]


def read_spec(folder: Path) -> BotSpec:
    """Read and check a bot folder's ``bot.toml``."""
    manifest = folder / "bot.toml"
    try:
        data = tomllib.loads(manifest.read_text())
    except FileNotFoundError:
        raise BotError(f"{folder} is not a bot folder: it has no bot.toml") from None
    except tomllib.TOMLDecodeError as exc:
        raise BotError(f"{manifest}: invalid TOML: {exc}") from None
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise BotError(f"{manifest}: 'name' must be a non-empty string")
    entry = data.get("entry")
    if entry is not None and (not isinstance(entry, str) or ":" not in entry):
        raise BotError(f"{manifest}: 'entry' must look like 'module:Class', got {entry!r}")
    for key in ("command", "setup"):
        value = data.get(key)
        if value is not None and not (
            (isinstance(value, str) and value.strip())
            or (isinstance(value, list) and value and all(isinstance(a, str) for a in value))
        ):
            raise BotError(f"{manifest}: {key!r} must be a command string or a list of strings")
    if data.get("command") is None and entry is None:
        raise BotError(f"{manifest}: give a 'command' to start the bot (or an in-process 'entry')")
    return BotSpec(
        name=name,
        path=folder.resolve(),
        version=str(data.get("version", "0")),
        language=str(data.get("language", "")),
        description=str(data.get("description", "")),
        entry=entry,
        command=data.get("command"),
        setup=data.get("setup"),
    )


def find_bot(name_or_path: str, registered: dict[str, Path] | None = None) -> BotSpec:
    """Resolve ``--bot`` text: a bundled bot's name, a registered bot's name (``registered``
    maps names to folders, from ``arena bots add``), or a path to a bot folder."""
    candidate = Path(name_or_path)
    if ("/" in name_or_path or name_or_path.startswith(".")) and candidate.is_dir():
        return read_spec(candidate)
    for spec in bundled_bots():
        if spec.name == name_or_path or spec.path.name == name_or_path:
            return spec
    folder = (registered or {}).get(name_or_path)
    if folder is not None:
        if not (folder / "bot.toml").is_file():
            raise BotError(f"registered bot {name_or_path!r}: its folder {folder} is gone")
        return read_spec(folder)
    names = ", ".join(s.name for s in bundled_bots()) or "(none found)"
    others = ", ".join(sorted(registered or {}))
    extra = f"; registered: {others}" if others else ""
    raise BotError(
        f"unknown bot {name_or_path!r}; bundled bots: {names}{extra}; or give a bot folder path"
    )


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


def setup_marker(spec: BotSpec) -> Path:
    """Where the referee notes that a bot's ``setup`` ran (outside the bot's folder)."""
    digest = hashlib.sha256((spec.path / "bot.toml").read_bytes()).hexdigest()[:16]
    return results_home() / "setup" / f"{spec.path.name}-{digest}.done"


def run_setup(spec: BotSpec, force: bool = False) -> bool:
    """Run the bot's ``setup`` command once (or again with ``force``); True if it ran."""
    if spec.setup is None:
        return False
    marker = setup_marker(spec)
    if marker.exists() and not force:
        return False
    argv = shlex.split(spec.setup) if isinstance(spec.setup, str) else list(spec.setup)
    try:
        done = subprocess.run(
            argv, cwd=spec.path, capture_output=True, text=True, timeout=600, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BotError(f"setup of bot {spec.name!r} ({shlex.join(argv)}) failed: {exc}") from None
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise BotError(
            f"setup of bot {spec.name!r} ({shlex.join(argv)}) exited {done.returncode}: "
            + " | ".join(tail)
        )
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(shlex.join(argv) + "\n")
    return True


IGNORED_PARTS = {
    "node_modules",
    "__pycache__",
    ".git",
    ".venv",
    "venv",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
}
"""Folder names never part of a bot's identity (installed packages and caches)."""


def _tracked_files(folder: Path) -> list[Path]:
    """The folder's files minus caches and, inside a git work tree, git-ignored files."""
    files = [
        p
        for p in folder.rglob("*")
        if p.is_file() and not IGNORED_PARTS.intersection(p.relative_to(folder).parts)
    ]
    try:
        listed = subprocess.run(
            ["git", "check-ignore", "--stdin", "-z"],
            cwd=folder,
            capture_output=True,
            input=b"\0".join(str(p).encode() for p in files),
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return sorted(files)
    if listed.returncode not in (0, 1):  # 128: not a git work tree; keep everything
        return sorted(files)
    ignored = {Path(x.decode()) for x in listed.stdout.split(b"\0") if x}
    return sorted(p for p in files if p not in ignored)


def version_id(spec: BotSpec) -> str:
    """A bot version's identity: a SHA-256 over its files' paths and contents (16 hex digits).

    The ``bot.toml`` version is only a label; editing any file makes a new version, which
    gets ratings of its own.
    """
    digest = hashlib.sha256()
    for path in _tracked_files(spec.path):
        digest.update(str(path.relative_to(spec.path)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
