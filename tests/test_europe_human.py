"""The RISK: Europe terminal seat: what it shows (position, events, options in words) and what
it accepts (numbers, turn commands, JSON), played in-process from scripted input as a
person (or a script through pipes) would type it."""

from __future__ import annotations

import io
import json
import math
import re
import sys
from collections.abc import Callable
from typing import Any

import pytest

from arena import cli
from arena.catalog import find_bot, load_bot
from arena.games.europe.actions import Cards, Move, Recruit, Turn
from arena.games.europe.game import GAME
from arena.games.europe.narrate import Narrator, units_text
from arena.referee.match import MatchResult, play_match
from arena.sdk.bot import Request
from arena.sdk.europe.human import TURN_HELP, HumanBot, Places
from tests.europe_helpers import BOARD

PROMPT = re.compile(r"Your choice \(0(-\d+)?, (a command|JSON), or help\): ")


class Typist(io.StringIO):
    """Types an answer chosen from the request being asked (a patient person typing)."""

    def __init__(self, answer: Callable[[Request, int], str | None]) -> None:
        super().__init__()
        self.answer = answer
        self.request: Request | None = None
        self.tries = 0

    def readline(self, size: int | None = -1) -> str:
        assert self.request is not None
        self.tries += 1
        text = self.answer(self.request, self.tries)
        return "" if text is None else text + "\n"  # None: the end of input


class Recorded(HumanBot):
    """The Europe seat, keeping each request with what it printed for it."""

    def __init__(self, typist: Typist) -> None:
        self.out = io.StringIO()
        super().__init__(stdin=typist, stdout=self.out)
        self.typist = typist
        self.shown: list[tuple[Request, str]] = []

    def choose(self, request: Request) -> Any:
        self.typist.request, self.typist.tries = request, 0
        mark = len(self.out.getvalue())
        try:
            return super().choose(request)
        finally:
            self.shown.append((request, self.out.getvalue()[mark:]))


def always(text: str) -> Typist:
    return Typist(lambda request, tries: text)


def play(human: HumanBot, seed: int, rounds: int, players: int = 2, **rules: str) -> MatchResult:
    game = GAME.configure({"max_rounds": str(rounds), **rules}, players)
    others = [load_bot(find_bot("random")) for _ in range(players - 1)]
    return play_match(game, [human, *others], seed)


def name(t: int) -> str:
    return BOARD.names[t]


@pytest.mark.usefixtures("both_in_process_paths")
def test_a_whole_game_from_option_zero_at_every_prompt():
    human = Recorded(always("0"))
    result = play(human, seed=3, rounds=3)
    assert result.seats[0].status == "OK" and result.seats[0].strikes == 0
    shown = human.out.getvalue()
    assert shown.startswith("You are seat 0 of 2 (against seat 1 random).")
    assert {"bid", "kingdom", "mercenary_bid", "cards", "turn"} <= {r.kind for r, _ in human.shown}
    for request, text in human.shown:
        match = PROMPT.search(text)
        assert match, text
        last = len(request.choices) - 1
        assert match.group(1) == (f"-{last}" if last else None)
        assert text[match.end() :].startswith("0\n")  # piped input is echoed after the prompt
        assert "\x1b[" not in text  # not a terminal: no colour codes
    assert "Game over (" in shown and "{'type'" not in shown  # no raw event dicts


def test_the_position_shows_coins_crowns_reserve_cards_and_every_held_territory():
    human = Recorded(always("0"))
    play(human, seed=3, rounds=2)
    request, text = next((r, t) for r, t in human.shown if r.kind == "turn")
    view = request.view
    me = view["armies"][0]
    assert f"You: {me['coins']} coins; {me['crowns']} crown" in text
    assert f"reserve {units_text(me['reserve'])}" in text
    narrator = Narrator(["human", "random"], 2)
    hand = ", ".join(narrator.card(c) for c in me["hand"])
    assert f"hand: {hand}" in text
    chosen = [narrator.card(c) for c in me["cards"]]
    assert f"chosen: turn 1 {chosen[0]}, turn 2 {chosen[1]}" in text
    other = view["armies"][1]
    assert f"random: {other['coins']} coins; {other['crowns']} crown" in text
    assert f"{other['hand_size']} cards in hand" in text
    held = text[text.index("Held territories:") :].splitlines()
    for t, entry in enumerate(view["territories"]):
        for army, units in entry["units"].items():
            if entry["attacker"] < 0:
                line = next(ln for ln in held if f" {name(t)} " in ln or f" {name(t)} (" in ln)
                assert line.startswith(f"  {narrator.army(int(army))}: ")
                assert re.search(rf"{re.escape(name(t))} [^;]*{units_text(units)}", line)
    revealed = view["revealed"]
    card = view["armies"][revealed]["cards"][view["turn"] - 1]
    who = "human" if revealed == 0 else narrator.army(revealed)
    assert f"Revealed: {who}'s {narrator.card(card)} for turn {view['turn']}" in text
    assert f"Play {narrator.card(request.options['card'])}" in text


def test_events_are_told_by_the_europe_narrator():
    human = Recorded(always("0"))
    play(human, seed=4, rounds=3)
    narrator = Narrator(["human", "random"], 2)
    told = 0
    for request, text in human.shown:
        if request.events:
            assert "What happened:" in text
        for event in request.events:
            line = narrator.event(dict(event))
            if line:
                assert f"  {line}\n" in text, (line, text)
                told += 1
    assert told > 20


def _command(request: Request, form: str) -> str | None:
    """A legal command of ``form`` for this turn, or None when the position has none."""
    c = request.options
    cards_orders = c["orders"]
    if form == "tax" and "tax" in cards_orders and c["tax_cities"]:
        return f"tax {BOARD.city[c['tax_cities'][0]['territory']]}"
    if form == "spend" and "spend" in cards_orders and c["recruit_to"] and c["coins"] >= 3:
        place = c["recruit_to"][0]
        where = BOARD.city[place] or name(place)
        return f"spend 2f@{where} 1f@{where}"
    for source in c["sources"]:
        spare = source["units"][0] - source["expand_keep"]
        targets = [e["territory"] for e in source["expand_to"] if not e["needs_siege"]]
        if form == "expand" and "expand" in cards_orders and spare >= 1 and targets:
            return f"expand {name(source['territory'])} {name(targets[0])} {spare}f"
        if form == "split" and "split_expand" in cards_orders and spare >= 2 and len(targets) > 1:
            return (
                f"split {name(source['territory'])} {name(targets[0])} 1f "
                f"{name(targets[1])} {spare - 1}f"
            )
        spare = source["units"][0] - source.get("manoeuvre_keep", 99)
        if form == "manoeuvre" and "manoeuvre" in cards_orders and spare >= 1:
            for route in source["manoeuvre_to"]:
                via = f" via {name(route['via'])}" if route["via"] >= 0 else ""
                return f"manoeuvre {name(source['territory'])} {name(route['territory'])} 1f{via}"
    if form == "fortify" and c["bonus"] == "fortify":
        held = [e["territory"] for e in c["tax_cities"]]
        if held:
            return f"fortify {BOARD.city[held[0]]}; none"
    if form == "none":
        return "none"
    return None


FORMS = ("fortify", "split", "expand", "tax", "spend", "manoeuvre", "none")
TOLD = {
    "tax": r"Tax \w+: \d+ coins",
    "spend": r"Spend 3 coins: 3 footmen in \w+",  # one recruit per place
    "expand": r"Expand: .+ → .+ with \d+ footm[ae]n",
    "split": r"Expand: .+ → .+ with 1 footman",
    "manoeuvre": r"Manoeuvre: .+ → .+ with 1 footman",
    "fortify": r"Fortify \w+: \+\d+ footm[ae]n",
    "none": r"No order",
}
"""How each command's turn is told afterwards (by the narrator, in the next events)."""


@pytest.mark.usefixtures("both_in_process_paths")
def test_every_turn_command_form_is_played_as_typed():
    sent: dict[str, int] = {}

    def answer(request: Request, tries: int) -> str:
        if request.kind != "turn":
            return "0"
        for form in sorted(FORMS, key=lambda f: sent.get(f, 0)):  # the least used first
            command = _command(request, form)
            if command:
                sent[form] = sent.get(form, 0) + 1
                return command
        return "0"

    human = Recorded(Typist(answer))
    result = play(human, seed=5, rounds=6)
    assert result.seats[0].status == "OK" and result.seats[0].strikes == 0
    assert set(sent) == set(FORMS), sent
    shown = human.out.getvalue()
    for form in FORMS:
        assert re.search(TOLD[form], shown), form


def test_a_referee_rejection_is_shown_and_the_seat_asked_again():
    def answer(request: Request, tries: int) -> str:
        if request.kind == "turn" and tries == 1 and not answered:
            answered.append(request.request_id)
            return "spend 99c@London"
        return "0"

    answered: list[int] = []
    human = Recorded(Typist(answer))
    result = play(human, seed=3, rounds=2)
    assert result.seats[0].status == "OK" and result.seats[0].strikes == 1
    first, again = [t for r, t in human.shown if r.request_id == answered[0]]
    assert PROMPT.search(first) and "spend 99c@London\n" in first
    refusal = "The referee refused that answer (a strike): "
    assert refusal in human.out.getvalue()
    assert again.startswith("Play card ")  # asked again: the decision, not the whole position
    assert "Held territories:" not in again


def test_words_names_and_numbers_that_do_not_fit_are_explained_without_a_strike():
    answers = {
        "bid": ["banana", "", "99", "tax London", "0"],
        "turn": ["expand Atlantis Normandy 3f", "expand London", "tax", "fortify", "0"],
    }

    def answer(request: Request, tries: int) -> str:
        script = answers.get(request.kind, ["0"])
        return script[min(tries, len(script)) - 1]

    human = Recorded(Typist(answer))
    result = play(human, seed=3, rounds=2)
    assert result.seats[0].status == "OK" and result.seats[0].strikes == 0
    shown = human.out.getvalue()
    assert "  'banana' is not understood: choose 0-" in shown
    assert "  type an option number: choose 0-" in shown
    assert "  99 is not an option: choose 0-" in shown
    assert "  'tax' is a command for your turn, not this decision: choose 0-" in shown
    assert "  no territory or city is named 'Atlantis': choose 0-" in shown
    assert "  write expand FROM TO UNITS (e.g. 3f 1s): choose 0-" in shown
    assert "  tax names one city: tax London: choose 0-" in shown
    assert "  fortify names one territory: fortify Paris: choose 0-" in shown


def test_help_lists_the_commands_and_list_shows_the_options_again():
    def answer(request: Request, tries: int) -> str:
        return {1: "help", 2: "list"}.get(tries, "0")

    human = Recorded(Typist(answer))
    play(human, seed=3, rounds=2)
    request, text = next((r, t) for r, t in human.shown if r.kind == "turn")
    assert TURN_HELP in text
    for line in ("expand FROM TO UNITS", "spend ITEM...", "tax CITY", "fortify PLACE", "none"):
        assert line in text
    situation = f"Play {Narrator([], 2).card(request.options['card'])}"
    assert text.count(situation) == 2  # listed, then listed again
    bid = next(t for r, t in human.shown if r.kind == "bid")
    assert "Answer with an option number (0 is always legal)" in bid
    assert "expand FROM TO UNITS" not in bid  # the turn commands only where they apply


def _misfit(request: Request) -> list[tuple[str, str]]:
    """Commands this turn's card or constraints rule out, each with the explanation."""
    c = request.options
    card = Narrator([], 2).card(c["card"])
    offered = " or ".join(o.replace("_", " ") for o in c["orders"])
    found = []
    if "split_expand" not in c["orders"]:
        found.append(
            (
                "split England Normandy 1f Wales 1f",
                f"{card} has no split expand: play {offered} (or none)",
            )
        )
    if c["bonus"] != "fortify":
        found.append(("fortify London; none", f"{card} has no fortify bonus action"))
    taxable = [e["territory"] for e in c["tax_cities"]]
    other = next(t for t in BOARD.cities if t not in taxable)
    if "tax" in c["orders"]:
        city = BOARD.city[other]
        found.append((f"tax {city}", f"{city} cannot be taxed: tax one of your undisputed cities"))
    if "spend" in c["orders"] and not c["crown_card"]:
        found.append(("spend crown", "no crown card can be bought now"))
    found.append(
        (
            '{"kind": "turn", "order": "split_expand", "moves": []}'
            if "split_expand" not in c["orders"]
            else json.dumps({"kind": "turn", "order": "tax", "tax_city": BOARD.city[other]}),
            "",
        )
    )
    return found


def test_what_the_card_and_constraints_rule_out_is_explained_without_a_strike():
    """A command (or JSON turn) the revealed card cannot take is refused at the seat with
    the reason, and never sent: the referee sees only the final answer."""
    tried: dict[int, list[tuple[str, str]]] = {}

    def answer(request: Request, tries: int) -> str:
        if request.kind != "turn":
            return "0"
        script = tried.setdefault(request.request_id, _misfit(request))
        return script[tries - 1][0] if tries <= len(script) else "0"

    human = Recorded(Typist(answer))
    result = play(human, seed=3, rounds=3, missions="true")  # no crown card for sale
    assert result.seats[0].status == "OK" and result.seats[0].strikes == 0
    shown = human.out.getvalue()
    assert "The referee refused" not in shown
    explained = [why for script in tried.values() for _, why in script if why]
    assert len(explained) > 5
    for why in explained:
        assert f"  {why}" in shown, why
    for kind in ("has no split expand", "bonus action", "cannot be taxed", "crown card"):
        assert any(kind in why for why in explained), kind


def _table_number(text: str, first: int, second: int) -> int:
    """The option number the card table shows for ``first`` on turn 1, ``second`` on turn 2."""
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines) if "turn 1 ↓  turn 2 →" in line)
    columns = [int(c) for c in lines[head].split("→")[1].split()]
    row = next(line for line in lines[head + 1 :] if line.startswith(f"  card {first} ("))
    cells = row.split(")")[-1].split()
    return int(cells[columns.index(second)])


def test_card_pairs_are_a_table_and_the_prompt_fits_a_60_line_terminal():
    """All 56 pairs in a table of option numbers: from the position's first line to the
    prompt, the decision fits 60 lines of 80 columns (a long line takes several)."""
    picked: list[tuple[Request, int]] = []

    def answer(request: Request, tries: int) -> str:
        if request.kind == "cards" and len(request.choices) == 56:
            number = _table_number(human.out.getvalue(), 5, 2)
            picked.append((request, number))
            return str(number)
        return "0"

    human = Recorded(Typist(answer))
    result = play(human, seed=5, rounds=5, players=4)
    assert result.seats[0].strikes == 0
    assert len(picked) == 2  # rounds 1 and 5: a full hand
    for request, number in picked:
        assert request.choices[number] == Cards(5, 2)
    for request, text in human.shown:
        if request.kind != "cards":
            continue
        lines = text.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith(("Round ", "Setup")))
        prompt = next(i for i, line in enumerate(lines) if PROMPT.search(line))
        shown = lines[start : prompt + 1]
        rows = sum(max(1, math.ceil(len(line) / 80)) for line in shown)
        assert rows <= 60, "\n".join(shown)
        assert all(len(line) <= 80 for line in shown if "↓" in line or line.startswith("  card"))


def test_json_answers_take_names_for_places():
    def answer(request: Request, tries: int) -> str:
        if request.kind == "bid" and tries == 1:
            return json.dumps({"kind": "bid", "coins": request.options["max_coins"]})
        if request.kind == "kingdom" and tries == 1:
            city = BOARD.city[request.options["cities"][-1]]
            return json.dumps({"kind": "kingdom", "city": city, "neighbour": -1, "footmen": 10})
        return "0"

    human = Recorded(Typist(answer))
    result = play(human, seed=3, rounds=1)
    assert result.seats[0].strikes == 0
    kingdom = next(r for r, _ in human.shown if r.kind == "kingdom")
    city = BOARD.city[kingdom.options["cities"][-1]]
    assert re.search(rf"human founds a kingdom in {city} .*with 10 footmen", human.out.getvalue())


def test_the_seat_declares_that_it_decides_battles_at_the_prompt():
    asked = Recorded(always("0")).declarations("europe")
    assert asked == {"casualties": "ask", "castle_reroll": "ask", "battle_order": "ask"}


def test_the_cli_seats_a_person_for_europe_and_ends_the_seat_at_the_end_of_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("help\n0\n0\n"))
    args = ["match", "--game", "europe", "--bot", "human", "--bot", "random", "--seed", "3"]
    code = cli.main([*args, "--in-process", "--no-replay", "--json", "--rules", "max_rounds=2"])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)  # the seat talked on stderr: stdout is the one JSON object
    human, other = result["places"]
    assert (human["bot"], human["status"]) == ("human", "CRASH")
    assert other["status"] == "OK"
    assert "Bid 0-5 coins for the First Player Marker (secret)." in err
    assert "An answer the referee refuses is a strike" in err
    assert err.rstrip().endswith("No more input: the seat stops answering.")
    assert "Traceback" not in err


def _aggressive(request: Request, tries: int) -> str:
    """Expands into an opponent when an option does, and bids for a Mercenary Army."""
    if request.kind == "turn":
        owner = [e["owner"] for e in request.view["territories"]]
        for i, action in enumerate(request.choices):
            if action.order == "expand" and owner[action.moves[0].target] >= 0:
                return str(i)
        return "1" if len(request.choices) > 1 else "0"
    if request.kind == "mercenary_bid" and len(request.choices) > 1:
        return "1"
    return "0"


def test_battles_are_decided_at_the_prompt_in_words():
    human = Recorded(Typist(_aggressive))
    result = play(human, seed=2, rounds=5, players=4)
    assert result.seats[0].status == "OK" and result.seats[0].strikes == 0
    asked = {r.kind: (r, t) for r, t in human.shown}
    request, text = asked["battle_order"]
    listed = ", ".join(name(t) for t in request.options["territories"])
    assert f"Choose the order of this round's battles ({listed})." in text
    assert f"0  fight in {listed}" in text
    assert "Disputed (a battle at the round's end):" in text
    for t in request.options["territories"]:
        entry = request.view["territories"][t]
        holder, attacker = entry["owner"], entry["attacker"]
        assert re.search(rf"{name(t)}.*: .* holds with .*, .* attacks with ", text)
        assert holder >= 0 and attacker >= 0
    request, text = asked["casualties"]
    c = request.options
    units = units_text(c["units"])
    assert (
        f"Remove {c['count']} unit" in text
        and f"in {name(c['territory'])} (you have {units})" in text
    )
    assert f"0  remove {units_text(request.choices[0].units)}" in text


def test_a_mercenary_army_won_is_played_from_the_prompt():
    human = Recorded(Typist(_aggressive))
    result = play(human, seed=2, rounds=5, players=2)
    assert result.seats[0].status == "OK" and result.seats[0].strikes == 0
    cards = next(t for r, t in human.shown if r.kind == "mercenary_cards")
    army = next(r for r, _ in human.shown if r.kind == "mercenary_cards").options["army"]
    assert f"Choose two cards for mercenary army {army}: the first for turn 1" in cards
    turn = next(t for r, t in human.shown if r.kind == "turn" and r.options["army"] == army)
    assert re.search(rf"Play card \d \(.*\) for mercenary army {army} with \d+ coins?\.", turn)
    assert f"mercenary army {army} (played by human this round)" in turn


@pytest.mark.parametrize(
    ("command", "turn"),
    [
        ("none", Turn()),
        ("tax rome", Turn("tax", tax_city=BOARD.index("Rome"))),
        (
            "expand Kingdom of Sicily Rome 3f 1s 2F",
            Turn(
                "expand",
                moves=(Move(BOARD.index("Kingdom of Sicily"), BOARD.index("Rome"), (5, 0, 0, 1)),),
            ),
        ),
        (
            "split France Normandy 2f Burgundy 1c",
            Turn(
                "split_expand",
                moves=(
                    Move(BOARD.index("France"), BOARD.index("Normandy"), (2, 0, 0, 0)),
                    Move(BOARD.index("France"), BOARD.index("Burgundy"), (0, 0, 1, 0)),
                ),
            ),
        ),
        (
            "manoeuvre Normandy Paris 2a via Burgundy",
            Turn(
                "manoeuvre",
                moves=(
                    Move(
                        BOARD.index("Normandy"),
                        BOARD.index("France"),
                        (0, 2, 0, 0),
                        BOARD.index("Burgundy"),
                    ),
                ),
            ),
        ),
        (
            "spend castle@Paris 2c@London 1f @ London crown",
            Turn(
                "spend",
                recruits=(Recruit(BOARD.index("England"), (1, 0, 2, 0)),),
                castles=(BOARD.index("France"),),
                crown=True,
            ),
        ),
        (
            "fortify Paris; tax London",
            Turn(
                "tax",
                tax_city=BOARD.index("England"),
                bonus="fortify",
                bonus_first=True,
                bonus_target=BOARD.index("France"),
            ),
        ),
        (
            "tax London; fortify Paris",
            Turn(
                "tax",
                tax_city=BOARD.index("England"),
                bonus="fortify",
                bonus_target=BOARD.index("France"),
            ),
        ),
        (
            "assault Saxony Bohemia",
            Turn(
                bonus="siege_assault",
                bonus_first=True,
                bonus_source=BOARD.index("Saxony"),
                bonus_target=BOARD.index("Bohemia"),
            ),
        ),
        (
            "expand Saxony Bohemia 3f; manoeuvre Pomerania Saxony 1f",
            Turn(
                "expand",
                moves=(Move(BOARD.index("Saxony"), BOARD.index("Bohemia"), (3, 0, 0, 0)),),
                free_manoeuvre=Move(BOARD.index("Pomerania"), BOARD.index("Saxony"), (1, 0, 0, 0)),
            ),
        ),
    ],
)
def test_turn_commands_stand_for_structured_turns(command: str, turn: Turn) -> None:
    assert Places(BOARD).turn(command) == turn


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        ("tax London; spend crown", "a turn has one order (split the parts with ';')"),
        ("fortify Paris; fortify London", "a turn has one bonus action"),
        ("expand France 3f Normandy", "write expand FROM TO UNITS: a territory, then its units"),
        ("manoeuvre France Normandy 1f via", "via names the territory passed through"),
        ("spend London", "spend: write units@PLACE, castle@PLACE or crown"),
        ("attack France", "'attack' is not a command (type help)"),
        (
            "spend 2x@London",
            "'2x': 'x' is not a unit letter (f footmen, a archers, c cavalry, s siege weapons)",
        ),
        ("expand France Normandy 3F 2k", "'2k': 'k' is not a unit letter"),
    ],
)
def test_malformed_turn_commands_say_what_is_wrong(command: str, problem: str) -> None:
    with pytest.raises(ValueError, match=re.escape(problem)):
        Places(BOARD).turn(command)


def test_a_whole_cli_match_answered_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("0\n" * 3000))
    args = ["match", "--game", "europe", "--bot", "human", "--bot", "random", "--seed", "4"]
    code = cli.main([*args, "--in-process", "--no-replay", "--rules", "max_rounds=2"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert re.search(r"\d+\s+0\s+human\s+OK\s+0", out), out  # the summary: no strikes
    assert "What happened:" in out and "Held territories:" in out and "Game over (" in out
