"""The bubblewrap command line that runs one bot process in namespaces of its own.

What the process sees is an allow-list: the system's programs and libraries (read-only), a
few files of ``/etc`` programs need to start, the arena's interpreter and package and what
the bundled bots share (the ``.proto`` files, the JavaScript library; read-only), the
program its command names, its own bot folder (read-only), its private home (writable, also
its ``TMPDIR``), a small private ``/tmp``, and the folder with its own referee socket.
Nothing else of the host — no results, no other bot's folder or socket, no other process
(its own PID namespace), no network (its own network namespace, unless the referee serves
on TCP).

The namespaces die with the process bubblewrap starts: when the referee kills it, the
kernel kills everything left in its PID namespace, children that called ``setsid`` or
double-forked included.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path

from arena.paths import bundled_bots_dir

SANDBOX_PATHS_ENV = "ARENA_SANDBOX_PATHS"
"""More read-only folders for every sandbox, ``os.pathsep``-separated (e.g. a runtime in
``/opt``)."""

SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""The system's programs and libraries (on merged-/usr systems most are symlinks)."""
ETC = (
    "/etc/alternatives",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/nsswitch.conf",
    "/etc/host.conf",
    "/etc/hosts",
    "/etc/resolv.conf",
    "/etc/gai.conf",
    "/etc/passwd",
    "/etc/group",
    "/etc/ssl",
    "/etc/ca-certificates",
)
"""Files of ``/etc`` that interpreters and their libraries read at start (no secrets)."""
TMP_BYTES = 64 << 20
"""Size of the private ``/tmp`` (memory-backed): programs that ignore ``TMPDIR`` still run."""


JS_LIBRARY = "js-sdk"
"""The JavaScript bots' shared library, a folder of the bundled bots: their ``setup`` (``npm
ci``) copies it into their ``node_modules`` from there (a ``file:`` dependency)."""


def runtime_paths(argv0: str, path_env: str) -> list[Path]:
    """Read-only folders the bot's command needs beyond the system: the arena's interpreter
    and package, the ``protos/`` beside the package (bots that load the contract at run
    time, as the bundled JavaScript bots do), the bundled JavaScript library (which their
    setup installs), the folder of the program ``argv0`` names (only that folder: a program
    in ``~/bin`` must not bring the home with it), and ``$ARENA_SANDBOX_PATHS``."""
    import arena

    package = Path(arena.__file__).resolve().parent
    found: list[Path] = [
        Path(sys.prefix),
        Path(sys.base_prefix),
        package,
        package.parent / "protos",
        bundled_bots_dir() / JS_LIBRARY,
    ]
    program = shutil.which(argv0, path=path_env) if "/" not in argv0 else argv0
    if program is not None and os.path.isabs(program):
        found.append(Path(os.path.realpath(program)).parent)
    extra = os.environ.get(SANDBOX_PATHS_ENV, "")
    found += [Path(p) for p in extra.split(os.pathsep) if p]
    return found


class _Mounts:
    """bubblewrap mount arguments, parents before children, each folder made once."""

    def __init__(self) -> None:
        self.args: list[str] = []
        self._made: set[str] = {"/"}
        self._mounted: list[str] = []

    def covered(self, path: str) -> bool:
        return any(path == m or path.startswith(m.rstrip("/") + "/") for m in self._mounted)

    def _parents(self, path: str) -> None:
        """Make every missing parent of ``path`` traversable by any user (bubblewrap makes
        them 0700 for root otherwise, which a seat user could not pass)."""
        parts = Path(path).parts[1:-1]
        current = ""
        for part in parts:
            current = f"{current}/{part}"
            if current not in self._made and not self.covered(current):
                self.args += ["--perms", "0755", "--dir", current]
                self._made.add(current)

    def bind(self, source: str, dest: str, writable: bool = False) -> None:
        if self.covered(dest):
            return
        self._parents(dest)
        self.args += ["--bind" if writable else "--ro-bind", source, dest]
        self._mounted.append(dest)
        self._made.add(dest)

    def tree(self, path: Path, writable: bool = False) -> None:
        """Mount a folder (or file) at its real path; a symlink to it points there too."""
        if not path.exists():
            return
        real = os.path.realpath(path)
        self.bind(real, real, writable)
        shown = os.path.abspath(path)
        if shown != real and not self.covered(shown):
            self._parents(shown)
            self.args += ["--symlink", real, shown]
            self._made.add(shown)


def bwrap_argv(
    bwrap: str,
    argv: list[str],
    *,
    cwd: Path,
    home: Path,
    socket_dir: Path | None,
    uid: int | None,
    path_env: str,
    runtime: Iterable[Path] | None = None,
    writable_cwd: bool = False,
) -> list[str]:
    """``argv`` run by bubblewrap in a sandbox of its own.

    ``socket_dir`` is the folder of the seat's referee socket (None: the referee serves on
    TCP, or this is a bot's ``setup``, so the network namespace is shared). ``uid``: the
    seat user the command runs as (the referee is root; bubblewrap keeps only what
    ``setpriv`` needs to switch to it). ``writable_cwd``: the bot folder is writable (its
    ``setup`` installs its packages there).
    """
    mounts = _Mounts()
    for system in SYSTEM:
        if os.path.islink(system):
            mounts.args += ["--symlink", os.readlink(system), system]
            mounts._made.add(system)
        elif os.path.isdir(system):
            mounts.bind(system, system)
    for name in ETC:
        if os.path.exists(name):
            mounts.bind(name, name)
    mounts.args += ["--proc", "/proc", "--dev", "/dev"]
    mounts.args += ["--size", str(TMP_BYTES), "--perms", "1777", "--tmpfs", "/tmp"]
    mounts._made.add("/tmp")
    wanted = sorted(
        {Path(os.path.realpath(p)) for p in (runtime or runtime_paths(argv[0], path_env))},
        key=lambda p: len(p.parts),
    )
    for folder in wanted:
        mounts.tree(folder)
    mounts.tree(cwd, writable=writable_cwd)
    mounts.tree(home, writable=True)
    if socket_dir is not None:
        mounts.tree(socket_dir)
    namespaces = ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"]
    if socket_dir is not None:
        namespaces.append("--unshare-net")
    head = [bwrap, *namespaces, "--die-with-parent", "--new-session", *mounts.args]
    head += ["--chdir", os.path.realpath(cwd)]
    if uid is None:
        return [*head, "--", *argv]
    drop = [
        shutil.which("setpriv") or "setpriv",
        f"--reuid={uid}",
        f"--regid={uid}",
        "--clear-groups",
        "--nnp",
    ]
    drop += ["--inh-caps=-all", "--bounding-set=-all", "--"]
    caps = ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    return [*head, *caps, "--", *drop, *argv]
