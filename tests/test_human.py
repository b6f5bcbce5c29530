"""The terminal seat: what it shows (board, events, prompts in words) and what it accepts.

Games are played in-process from scripted input, as a person (or a script through pipes)
would type it; the CLI is run as a process for piped play and for Ctrl-C at the prompt.
"""

from __future__ import annotations

import ctypes
import io
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.catalog import find_bot, load_bot
from arena.games.classic.board import classic_board
from arena.referee.match import MatchResult, play_match
from arena.sdk.bot import Request
from arena.sdk.classic.human import HumanBot
from tests.classic_helpers import game_of, rules_for

ARENA = str(Path(sys.executable).with_name("arena"))
BOARD = classic_board()
PROMPT = "Your choice (0-"


class Typist(io.StringIO):
    """Types an answer chosen from the request being asked (a patient person typing)."""

    def __init__(self, answer: Callable[[Request, int], str]) -> None:
        super().__init__()
        self.answer = answer
        self.request: Request | None = None
        self.tries = 0

    def readline(self, size: int | None = -1) -> str:
        assert self.request is not None
        self.tries += 1
        return self.answer(self.request, self.tries) + "\n"


class Recorded(HumanBot):
    """The human seat, keeping each request with what it printed for it."""

    def __init__(self, typist: Typist) -> None:
        self.out = io.StringIO()
        super().__init__(stdin=typist, stdout=self.out)
        self.typist = typist
        self.shown: list[tuple[Request, str]] = []

    def choose(self, request: Request):  # type: ignore[no-untyped-def]
        self.typist.request, self.typist.tries = request, 0
        mark = len(self.out.getvalue())
        try:
            return super().choose(request)
        finally:
            self.shown.append((request, self.out.getvalue()[mark:]))


def always(text: str) -> Typist:
    return Typist(lambda request, tries: text)


def play(human: HumanBot, opponents: list[str], seed: int, max_rounds: int) -> MatchResult:
    rules = rules_for(1 + len(opponents), max_rounds=max_rounds)
    return play_match(game_of(rules), [human, *(load_bot(find_bot(b)) for b in opponents)], seed)


@pytest.mark.usefixtures("both_in_process_paths")
def test_a_whole_game_from_option_zero_at_every_prompt():
    human = Recorded(always("0"))
    result = play(human, ["random"], seed=3, max_rounds=4)
    assert result.seats[0].status == "OK" and result.seats[0].strikes == 0
    shown = human.out.getvalue()
    assert shown.startswith("You are seat 0 of 2 (against seat 1 random).")
    kinds = {request.kind for request, _ in human.shown}
    assert {"place", "reinforce", "attack"} <= kinds
    for request, text in human.shown:
        span = f"0-{len(request.choices) - 1}" if len(request.choices) > 1 else "0"
        assert f"Your choice ({span}, or an action as JSON): 0\n" in text
        assert "\x1b[" not in text  # not a terminal: no colour codes
    assert "Game over (" in shown


def test_the_board_shows_every_territory_by_continent_with_owner_and_armies():
    human = Recorded(always("0"))
    play(human, ["random"], seed=3, max_rounds=2)
    request, text = next((r, t) for r, t in human.shown if r.kind == "attack")
    view = request.view
    names = {0: "you", 1: "random", -1: "neutral"}
    headings = [text.index(f"{c.name} (+{c.bonus})") for c in BOARD.continents]
    assert headings == sorted(headings)  # continents in board order
    for ci, continent in enumerate(BOARD.continents):
        end = headings[ci + 1] if ci + 1 < len(headings) else text.index("you: ")
        block = text[headings[ci] : end]
        for t in continent.territories:
            owner, armies = names[view["owner"][t]], view["armies"][t]
            pattern = rf"{re.escape(BOARD.names[t])}\s+{owner}\s+{armies}\b"
            assert re.search(pattern, block), (BOARD.names[t], owner, armies, block)
    held = view["owner"].count(0)
    total = sum(a for t, a in enumerate(view["armies"]) if view["owner"][t] == 0)
    assert f"you: {held} territories, {total} armies, cards: " in text
    assert "{'type'" not in human.out.getvalue()  # no raw event dicts


@pytest.mark.usefixtures("both_in_process_paths")
def test_events_are_told_in_words_with_territory_and_player_names():
    human = Recorded(always("0"))
    play(human, ["aggressive"], seed=3, max_rounds=4)
    battles = conquests = 0
    for request, text in human.shown:
        for event in request.events:
            src, dst = BOARD.names[event.get("from", 0)], BOARD.names[event.get("to", 0)]
            who = "You" if event.get("seat") == 0 else "aggressive"
            if event["type"] == "battle":
                battles += 1
                dice = " ".join(str(d) for d in sorted(event["attacker_dice"], reverse=True))
                line = rf"{who} attacks? (your |aggressive's |neutral's )?{dst} from {src}: {dice} "
                assert re.search(line, text), (event, text)
            if event["type"] == "conquered":
                conquests += 1
                assert f"{who} conquer" in text and f"{dst} from " in text
                assert f"in from {src}." in text
            if event["type"] == "card_drawn" and event["seat"] == 0:
                card = event["card"]
                named = "wild" if card >= BOARD.size else BOARD.names[card]
                assert f"You draw a card: {named}" in text
    assert battles and conquests


def test_the_defend_prompt_names_the_attacked_territory_and_the_attacker():
    human = Recorded(always("0"))
    play(human, ["aggressive"], seed=3, max_rounds=4)
    defends = [(r, t) for r, t in human.shown if r.kind == "defend"]
    assert defends
    for request, text in defends:
        src, dst, dice = request.options.battle
        assert (
            f"aggressive attacks your {BOARD.names[dst]} ({request.view['armies'][dst]} armies) "
            f"from {BOARD.names[src]}"
        ) in text
        assert f"with {dice} dice. Defend {BOARD.names[dst]} with:" in text
        assert "0  defend with 1 die" in text and "1  defend with 2 dice" in text


def test_an_out_of_range_number_is_answered_with_the_valid_range():
    human = Recorded(Typist(lambda request, tries: "99" if tries == 1 else "0"))
    result = play(human, ["random"], seed=5, max_rounds=2)
    assert result.seats[0].strikes == 0
    for request, text in human.shown:
        last = len(request.choices) - 1
        span = f"0-{last}" if last else "0"
        assert f"  99 is not an option: choose {span}, or an action as JSON.\n" in text
    assert "must be a JSON object" not in human.out.getvalue()


@pytest.mark.usefixtures("both_in_process_paths")
def test_words_and_wrong_actions_are_explained_without_a_strike():
    answers = ["banana", "", '{"kind": "end_turn"}', "-1", "0"]
    human = Recorded(Typist(lambda request, tries: answers[min(tries, len(answers)) - 1]))
    result = play(human, ["random"], seed=5, max_rounds=2)
    assert result.seats[0].status == "OK" and result.seats[0].strikes == 0
    shown = human.out.getvalue()
    assert "'banana' is not understood: choose 0-" in shown
    assert "  type an option number: choose 0-" in shown
    assert "that does not answer a claim decision" in shown or (
        "that does not answer a place decision" in shown
    )
    assert "  -1 is not an option: choose 0-" in shown


def test_an_attack_that_would_roll_past_its_armies_is_explained_before_it_is_sent():
    def answer(request: Request, tries: int) -> str:
        if request.kind == "attack" and tries == 1 and request.options.attacks:
            src, dst, dice = request.options.attacks[0]
            until = request.view["armies"][src]
            attack = {"kind": "attack", "from": BOARD.names[src], "to": dst, "dice": dice}
            return json.dumps({**attack, "until": until})
        return "0"

    human = Recorded(Typist(answer))
    result = play(human, ["random"], seed=5, max_rounds=2)
    assert result.seats[0].strikes == 0
    attacks = [(r, t) for r, t in human.shown if r.kind == "attack" and r.options.attacks]
    assert attacks
    for request, text in attacks:
        src = request.options.attacks[0][0]
        armies = request.view["armies"][src]
        keeps = f"(the armies {BOARD.names[src]} keeps)"
        assert f"  until must be from 1 to {armies - 1} {keeps}: choose 0-" in text


@pytest.mark.usefixtures("both_in_process_paths")
def test_json_actions_take_territory_names():
    """Reinforcements split by name, and never attacking: the seat draws no card."""

    def answer(request: Request, tries: int) -> str:
        if request.kind == "attack":
            return '{"kind": "end_attack"}'
        o = request.options
        if request.kind == "reinforce" and o.armies >= 2 and len(o.territories) >= 2:
            first, second = (BOARD.names[t] for t in o.territories[:2])
            split = [[first.upper(), o.armies - 1], [second, 1]]
            return json.dumps({"kind": "place", "placements": split})
        return "0"

    human = Recorded(Typist(answer))
    result = play(human, ["random"], seed=5, max_rounds=3)
    assert result.seats[0].status == "OK" and result.seats[0].strikes == 0
    assert result.final.hands[0] == ()
    splits = [
        (r.options, t) for r, t in human.shown if r.kind == "reinforce" and r.options.armies >= 2
    ]
    assert splits
    # Each split shows up among the events of the next decision, in words.
    shown = human.out.getvalue()
    for options, _ in splits:
        first, second = (BOARD.names[t] for t in options.territories[:2])
        assert f"You reinforce: {options.armies - 1} on {first}, 1 on {second}." in shown


def _arena(*args: str, **kwargs) -> subprocess.Popen[str]:  # type: ignore[no-untyped-def]
    # SIGINT at its default even if this test runs where it is ignored (a background job).
    launcher = "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    launcher += "os.execv(sys.argv[1], sys.argv[1:])"
    return subprocess.Popen(
        [sys.executable, "-c", launcher, ARENA, *args],
        text=True,
        env=dict(os.environ),
        **kwargs,
    )


def test_a_script_plays_the_seat_through_pipes():
    process = _arena(
        "match", "--bot", "human", "--bot", "random", "--seed", "4",
        "--rules", "max_rounds=3", "--no-replay", "--json",
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    out, err = process.communicate("0\n" * 5000, timeout=300)
    assert process.returncode == 0, err
    result = json.loads(out)  # the seat talked on stderr: stdout is the one JSON object
    human = result["places"][0]
    assert (human["bot"], human["status"], human["strikes"]) == ("human", "OK", 0)
    assert PROMPT in err and "What happened:" in err and "North America (+5)" in err
    assert "\x1b[" not in err


def _threads_taking_sigint(pid: int) -> list[int]:
    """Threads of ``pid`` other than its main thread that do not block SIGINT."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        status = (task / "status").read_text()
        blocked = int(
            next(ln for ln in status.splitlines() if ln.startswith("SigBlk:")).split()[1], 16
        )
        if int(task.name) != pid and not blocked & (1 << (signal.SIGINT - 1)):
            found.append(int(task.name))
    return found


def _wait_until_the_main_thread_waits(pid: int, still: float = 0.3) -> None:
    """Until ``pid``'s main thread has been asleep (waiting for input) for ``still`` seconds
    on end: a signal must then wake it, not merely be noticed on its way to the read."""
    stat = Path(f"/proc/{pid}/task/{pid}/stat")
    deadline, asleep_since = time.monotonic() + 120, None
    while True:
        now = time.monotonic()
        assert now < deadline, "the main thread never settled into waiting for input"
        if stat.read_text().rsplit(")", 1)[1].split()[0] != "S":
            asleep_since = None
        elif asleep_since is None:
            asleep_since = now
        elif now - asleep_since >= still:
            return
        time.sleep(0.01)


def _sigint(process: subprocess.Popen[str], to: str) -> None:
    """Ctrl-C for the whole process, or aimed at one of its other threads (as the kernel may
    deliver it), where a plain blocking read would never see it."""
    if to == "process":
        process.send_signal(signal.SIGINT)
        return
    _wait_until_the_main_thread_waits(process.pid)
    threads = _threads_taking_sigint(process.pid)
    assert threads, "the referee runs gRPC threads beside the main one"
    assert ctypes.CDLL(None, use_errno=True).tgkill(process.pid, threads[0], signal.SIGINT) == 0


@pytest.mark.parametrize("to", ["process", "other thread"])
def test_ctrl_c_at_the_prompt_stops_the_match_at_once_and_cleanly(to: str) -> None:
    process = _arena(
        "match", "--bot", "human", "--bot", "random", "--seed", "4",
        "--rules", "max_rounds=3", "--no-replay",
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        shown, deadline = "", time.monotonic() + 120
        while PROMPT not in shown:
            assert time.monotonic() < deadline, f"no prompt within 120 s: {shown[-500:]!r}"
            assert process.poll() is None, process.communicate()
            ready, _, _ = select.select([process.stdout], [], [], 0.5)
            if ready:
                shown += os.read(process.stdout.fileno(), 65536).decode()
        _sigint(process, to)  # once, while it waits for input
        # stdin stays open: end of input must not be what stops it.
        process.wait(timeout=120)
        assert process.stderr is not None
        err = process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                stream.close()
    assert process.returncode == 130, err
    assert err.splitlines() == ["arena: interrupted"], err
    assert "Exception ignored" not in err and "Traceback" not in err


TWO_PRESSES = """
import os, signal
from arena.catalog import find_bot
from arena.referee.local import play
from arena.referee.match import TimeControl
from arena.sdk.bot import Bot
from tests.classic_helpers import game_of, rules_for

class TwoPresses(Bot):
    def choose(self, request):
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGINT)  # again, while the match is being stopped
        return 0

try:
    play(game_of(rules_for(2, max_rounds=3)), [TwoPresses(), find_bot("random")], 4, TimeControl())
except KeyboardInterrupt:
    print("interrupted")
"""


def test_a_second_ctrl_c_while_the_match_stops_leaves_no_server_behind():
    """The bot processes are ended and the gRPC server stopped before KeyboardInterrupt."""
    launcher = "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    launcher += "exec(sys.argv[1])"
    done = subprocess.run(
        [sys.executable, "-c", launcher, TWO_PRESSES],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=Path(__file__).resolve().parent.parent,
    )
    assert (done.returncode, done.stdout) == (0, "interrupted\n"), done.stderr
    assert "Exception ignored" not in done.stderr and "Traceback" not in done.stderr
    assert "Event loop is closed" not in done.stderr
