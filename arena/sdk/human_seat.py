"""What every game's human seat shares: the terminal it reads and prints on, the greeting,
reading one answer line, a rejection, and the end of the match; and where each game's seat
is found: ``HumanBot`` of ``arena.sdk.<game>.human``, by the game's name."""

from __future__ import annotations

import abc
import sys
from typing import Any, TextIO

from arena import games
from arena.sdk import game_sdk
from arena.sdk.bot import Bot, MatchInfo
from arena.sdk.human_input import PolledLines, interruptible, seat_console
from arena.terminal import Interrupted, is_terminal


class TerminalSeat(Bot, abc.ABC):
    """A person at the terminal. A game's seat says how to answer (:attr:`ANSWERS`) and how
    seats are named (:meth:`seat_name`), and decides what to show and how to parse."""

    name = "human"
    version = "-"
    ANSWERS = "an option number"
    """How a prompt may be answered, as the greeting says it."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self._lines = PolledLines(self.stdin)
        self.stdout = stdout or sys.stdout
        self._echo = not is_terminal(self.stdin)
        """Piped input is not echoed by a terminal: write each answer after its prompt."""
        self.console = seat_console(self.stdout)
        self._asked = -1

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        others = ", ".join(f"seat {s} {n}" for s, n in enumerate(match.names) if s != match.seat)
        self._say(f"You are seat {match.seat} of {match.players} (against {others}).")
        self._say(f"Answer each prompt with {self.ANSWERS}.")

    @abc.abstractmethod
    def seat_name(self, seat: int) -> str | None:
        """How seat ``seat`` is named in this game's words (None before the match starts)."""

    def _say(self, text: str = "", style: str = "") -> None:
        self.console.print(text, style=style or None)

    def _read_answer(self, prompt: str) -> str:
        """Print ``prompt`` and read one answer line (echoed when piped); at the end of input
        the seat stops answering (EOFError)."""
        self.console.print(prompt, end="", style="bold")
        line = self._read_line()
        if not line:
            self._say()
            self._say("No more input: the seat stops answering.")
            raise EOFError("no more input")
        text = line.strip()
        if self._echo:
            self._say(text)
        return text

    def _read_line(self) -> str:
        """One line of input; Ctrl-C while waiting raises :class:`Interrupted` at once.

        The runner's own SIGINT handler (asyncio's, or the referee's) only cancels the match
        task and returns, and a blocked read resumes after a handled signal, so the first
        press would otherwise go unnoticed until Enter. The handler is chained: the runner
        still learns of the press, then the read is broken off.
        """
        try:
            with interruptible():
                return self._lines.readline()
        except Interrupted:
            self._say()  # end the prompt line before the caller reports the interruption
            raise

    def rejected(self, reason: str) -> None:
        self._say(f"The referee refused that answer (a strike): {reason}", "bold red")

    def finish(self, result: dict[str, Any]) -> None:
        if self.seat_name(0) is None:
            return
        self._say()
        winner = result.get("winner")
        who = "no winner" if winner is None else f"winner: {self.seat_name(winner)}"
        self._say(f"Game over ({result.get('end')}), {who}.", "bold")
        for line in sorted(result.get("seats", []), key=lambda s: s["place"]):
            self._say(
                f"  {line['place']}. {self.seat_name(line['seat'])} ({line['bot']}) "
                f"{line['status']}"
            )


def human_seat(game: str) -> type[TerminalSeat] | None:
    """The terminal seat of ``game``: ``HumanBot`` of its SDK package's ``human`` module
    (``arena.sdk.<game>.human``), or None if the game has none."""
    seat = getattr(game_sdk.module(game, "human"), "HumanBot", None)
    return seat if isinstance(seat, type) and issubclass(seat, TerminalSeat) else None


def human_games() -> tuple[str, ...]:
    """The registered games that have a terminal seat, in listing order."""
    return tuple(name for name in games.names() if human_seat(name) is not None)
