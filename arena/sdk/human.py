"""A person at the terminal as a seat: shows the position and prompts from the legal options."""

from __future__ import annotations

import json
import sys
from typing import TextIO

from arena.games.classic.actions import action_from_dict, action_to_dict
from arena.sdk.bot import Answer, Bot, MatchInfo, Request


class HumanBot(Bot):
    """Answers by option number, or by an action as JSON (e.g. a reinforcement split)."""

    name = "human"
    version = "-"

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.names = match.board["territories"]
        self._say(f"You are seat {match.seat} of {match.players}: {', '.join(match.names)}")

    def _say(self, text: str) -> None:
        print(text, file=self.stdout, flush=True)

    def _territory(self, t: int) -> str:
        return f"{self.names[t]} ({t})"

    def choose(self, request: Request) -> Answer:
        view, seat = request.view, request.seat
        for event in request.events:
            if event["type"] in ("battle", "conquered", "eliminated", "traded", "card_drawn"):
                self._say(f"  · {event}")
        own = [t for t, o in enumerate(view["owner"]) if o == seat]
        self._say(
            f"\n[{request.kind}] round {view['round']} · you hold {len(own)} territories, "
            f"{sum(view['armies'][t] for t in own)} armies, cards {view['hand']}"
        )
        for i, action in enumerate(request.choices):
            self._say(f"  {i:>3}: {self._describe(action_to_dict(action))}")
        while True:
            print("choose a number, or an action as JSON: ", end="", file=self.stdout, flush=True)
            line = self.stdin.readline()
            if not line:
                raise EOFError("no more input")
            text = line.strip()
            if text.isdigit() and int(text) < len(request.choices):
                return int(text)
            try:
                return action_from_dict(json.loads(text))
            except Exception as exc:  # any bad input: say why and ask again
                self._say(f"  not understood ({exc}); try again")

    def _describe(self, action: dict) -> str:
        parts = [action["kind"]]
        for key in ("territory", "from", "to"):
            if key in action:
                parts.append(f"{key} {self._territory(action[key])}")
        for key in ("dice", "armies", "cards", "die"):
            if key in action:
                parts.append(f"{key} {action[key]}")
        if "placements" in action:
            parts.append(", ".join(f"{n} on {self._territory(t)}" for t, n in action["placements"]))
        return " · ".join(parts)
