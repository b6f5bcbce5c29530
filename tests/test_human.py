"""The terminal seat: it shows the decision and takes an option number or a JSON action."""

from __future__ import annotations

import io

from arena.bots import find_bot, load_bot
from arena.referee.match import play_match
from tests.classic_helpers import rules_for


class EndlessInput(io.StringIO):
    """Answers every prompt with the same lines, cycling (a patient person typing)."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines
        self.count = 0

    def readline(self, size: int | None = -1) -> str:
        line = self.lines[self.count % len(self.lines)]
        self.count += 1
        return line


def test_human_seat_plays_a_whole_game_from_option_numbers():
    from arena.sdk.human import HumanBot

    out = io.StringIO()
    human = HumanBot(stdin=EndlessInput(["0\n"]), stdout=out)
    rules = rules_for(2, max_rounds=4)
    result = play_match(rules, [human, load_bot(find_bot("random"))], seed=3)
    assert result.seats[0].status == "OK" and result.seats[0].strikes == 0
    shown = out.getvalue()
    assert "You are seat 0 of 2" in shown
    assert "[place]" in shown and "choose a number" in shown


def test_human_seat_asks_again_after_input_it_does_not_understand():
    from arena.sdk.human import HumanBot

    out = io.StringIO()
    human = HumanBot(stdin=EndlessInput(["banana\n", "0\n"]), stdout=out)
    result = play_match(rules_for(2, max_rounds=2), [human, load_bot(find_bot("random"))], 5)
    assert result.seats[0].strikes == 0
    assert "not understood" in out.getvalue()


def test_human_seat_accepts_a_structured_json_action():
    from arena.sdk.human import HumanBot

    out = io.StringIO()

    class Typist(io.StringIO):
        """Types a JSON end_attack at every attack prompt and option 0 elsewhere."""

        def readline(self, size: int | None = -1) -> str:
            shown = out.getvalue()
            last = shown[shown.rfind("\n[") :]
            return '{"kind": "end_attack"}\n' if last.startswith("\n[attack]") else "0\n"

    human = HumanBot(stdin=Typist(), stdout=out)
    result = play_match(rules_for(2, max_rounds=3), [human, load_bot(find_bot("random"))], 5)
    assert "[attack]" in out.getvalue()
    assert result.seats[0].status == "OK" and result.seats[0].strikes == 0
    # Never attacking, seat 0 captured nothing: no card was ever drawn for it.
    assert result.final.hands[0] == ()
