"""Domination as a child process: :file:`DominationBridge.java` compiled against the given
Domination build into a cache folder outside the repository, then run; one JSON line back
for each line sent (see the Java file for the protocol)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path
from typing import IO, Any

from board_files import write_files

from arena.games.classic.board import Board

SOURCE = Path(__file__).with_name("DominationBridge.java")


class BridgeError(Exception):
    """Domination could not be built, started or asked (one line says why)."""


def classpath(domination: Path) -> list[Path]:
    """Domination's compiled classes and the jars of its build folder."""
    classes = domination / "classes"
    if not (classes / "net" / "yura" / "domination" / "engine" / "Risk.class").is_file():
        raise BridgeError(
            f"{domination} is not a Domination build (no classes/net/yura/domination/engine/"
            "Risk.class); see benchmarks/domination/README.md"
        )
    return [classes, *sorted((domination / "lib").glob("*.jar"))]


def prepare(domination: Path, cache: Path, board: Board) -> tuple[list[str], dict[int, int]]:
    """Compile the bridge (when its source changed) and write the map and cards files; the
    java command line and Domination's country -> arena territory mapping."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        raise BridgeError("java and javac are needed (e.g. Debian's default-jdk-headless)")
    jars = classpath(domination)
    if not (domination / "maps" / "risk.map").is_file():
        raise BridgeError(f"{domination}/maps/risk.map is missing; copy Domination's maps there")
    stamp = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]
    classes = cache / f"bridge-{stamp}"
    if not (classes / "DominationBridge.class").is_file():
        classes.mkdir(parents=True, exist_ok=True)
        path = ":".join(str(j) for j in jars)
        done = subprocess.run(
            ["javac", "-nowarn", "-cp", path, "-d", str(classes), str(SOURCE)],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            first = (done.stderr.strip().splitlines() or ["no output"])[0]
            raise BridgeError(f"the bridge did not compile against {domination}: {first}")
    files = cache / "maps"
    ids = write_files(domination / "maps", files, board)
    path = ":".join(str(p) for p in (classes, *jars))
    command = [
        "java",
        "-Xss64m",
        "-cp",
        path,
        "DominationBridge",
        str(files),
        str(domination / "maps"),
    ]
    return command, ids


class Bridge:
    """One running Domination; :meth:`new_game` and :meth:`send` return its position."""

    def __init__(self, command: list[str], log: IO[str] | None = None) -> None:
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log if log is not None else subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def _ask(self, line: str) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise BridgeError("Domination's process ended") from None
        answer = self.proc.stdout.readline()
        if not answer:
            raise BridgeError(f"Domination's process ended after {line!r}")
        snap: dict[str, Any] = json.loads(answer)
        if "error" in snap:
            raise BridgeError(f"the bridge refused {line!r}: {snap['error']}")
        return snap

    def new_game(self, players: int, seat: int) -> dict[str, Any]:
        return self._ask(f"new {players} {seat}")

    def send(self, command: str) -> dict[str, Any]:
        return self._ask(f"do {command}")

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=10)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
