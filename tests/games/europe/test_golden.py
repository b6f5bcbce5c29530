"""Golden playthroughs of RISK: Europe: fixed rules, seed, declarations and action list ⇒
a pinned digest after every step, pinned SHA-256 digests of the final state and of the event
log, the pinned outcome, and the playthrough told in words.

Each recorded seeded random game is two files in ``golden/``: ``NAME.json`` (the rules, seed,
declarations, the action list with each step's digest, the final digests) and ``NAME.txt``,
the same game narrated the way of OpenSpiel's playthroughs (layout in
:mod:`tests.golden_text`): per decision each answering seat and what it decided, then what
happened in the words of :mod:`arena.games.europe.narrate`. This test never regenerates
anything: it replays every action (back through ``game.action_from_dict``) through the
validating ``apply`` / ``apply_joint`` and compares step by step, so a change shows at the
first decision it touches; then it renders the text again and compares it with ``NAME.txt``,
showing a unified diff from the first decision that tells another story.

After an intended change of the rules (or of the narrator's wording), regenerate from the
repository root, read the diff of the ``.txt`` files to check that it is the change meant,
and say so in the commit::

    .venv/bin/python -m tests.games.europe.golden.make_golden            # every playthrough
    .venv/bin/python -m tests.games.europe.golden.make_golden base_3p    # just these
    .venv/bin/python -m tests.games.europe.golden.make_golden --text     # only the texts

It rewrites both files of each playthrough; ``--text`` only tells the recorded games again
(after a change of wording), leaving the ``.json`` files and their digests as they are.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from arena.errors import IllegalActionError
from arena.games.europe.game import GAME, EuropeGame
from arena.games.europe.missions import MISSIONS
from arena.games.europe.narrate import NOBODY, Narrator, units_text
from arena.games.europe.state import EuropeState
from tests.golden_text import (
    NOT_OVER,
    SHOWN,
    assert_told,
    happened,
    heading,
    read,
    refused,
    text_of,
)

GOLDEN = Path(__file__).parent / "golden"
MAX_FILE_BYTES = 300_000
MAX_TEXT_BYTES = 300_000
STEP_DIGEST = 16
"""Hex digits kept of each step's digest (enough to catch a change, short in the file)."""

EXPECTED = {"base_2p", "base_3p", "base_4p", "missions_ask_3p", "missions_ask_4p"}
"""The playthroughs that must exist (deleting one is a failure, not a silent skip)."""


def _plain(value: Any) -> Any:
    """JSON-ready data: dataclasses become dicts, tuples lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def canonical_state(state: EuropeState) -> dict[str, Any]:
    """Every field of the state as plain data (the shared random streams by their seed)."""
    data = {
        f.name: _plain(getattr(state, f.name))
        for f in dataclasses.fields(state)
        if f.name != "streams"
    }
    data["streams"] = {"seed": state.streams.seed}
    return data


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def digest(data: Any) -> str:
    """SHA-256 of the canonical JSON of ``data``."""
    return hashlib.sha256(canonical_json(data).encode()).hexdigest()


def step_digest(state: EuropeState, events: list[dict[str, Any]]) -> str:
    return digest([canonical_state(state), events])[:STEP_DIGEST]


@dataclass(frozen=True, slots=True)
class Played:
    """What replaying a golden file produced."""

    state: EuropeState
    events: list[dict[str, Any]]
    steps: list[str]
    """The step digest after each decision."""
    game: EuropeGame

    def digests(self) -> dict[str, str]:
        return {"state": digest(canonical_state(self.state)), "events": digest(self.events)}

    def outcome(self) -> dict[str, Any] | None:
        outcome = self.game.outcome(self.state)
        if outcome is None:
            return None
        return {
            "places": list(outcome.places),
            "winner": outcome.winner,
            "termination": outcome.end_reason,
        }


def game_of(record: dict[str, Any]) -> EuropeGame:
    assert record["game"] == "europe"
    game = GAME.from_config(record["rules"])
    assert isinstance(game, EuropeGame) and game.players == record["players"]
    return game


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of a replayed golden file: its entries (one, or one per seat of a
    simultaneous decision) from ``index`` on, the state before and after, and the events it
    caused; or the reason the game refused it (then ``after`` is ``before`` and there are no
    events)."""

    index: int
    entries: list[dict[str, Any]]
    before: EuropeState
    after: EuropeState
    events: list[dict[str, Any]]
    refused: str | None = None


def start(record: dict[str, Any]) -> tuple[EuropeGame, EuropeState]:
    """The game of a golden file and its first state (seed and declarations)."""
    game = game_of(record)
    return game, game.new_game(record["seed"], record["declarations"])


def decisions(record: dict[str, Any]) -> Iterator[Step]:
    """Play a golden file's entries through the game contract, as the referee does, one
    decision at a time; a refused decision is the last step.

    An entry is ``{"seat": s, "action": {...}, "step": digest}``; the entries of a
    simultaneous decision follow one another in seat order and go to ``apply_joint``
    together (each carries the step's digest), any other to ``apply``.
    """
    game, state = start(record)
    entries = record["actions"]
    applied = 0
    while applied < len(entries):
        decision = game.decision(state)
        if decision is None:
            yield Step(applied, [entries[applied]], state, state, [], "the game is already over")
            return
        batch = entries[applied : applied + len(decision.seats)]
        try:
            if decision.simultaneous:
                answers = {e["seat"]: game.action_from_dict(e["action"]) for e in batch}
                if sorted(answers) != sorted(decision.seats):
                    raise IllegalActionError(
                        f"a joint {decision.kind} needs an answer from each of seats "
                        f"{list(decision.seats)}"
                    )
                step = game.apply_joint(state, answers)
            else:
                entry = batch[0]
                step = game.apply(state, entry["seat"], game.action_from_dict(entry["action"]))
        except IllegalActionError as exc:
            yield Step(applied, batch, state, state, [], str(exc))
            return
        yield Step(applied, batch, state, step.state, list(step.events))
        state = step.state
        applied += len(batch)


def replay(record: dict[str, Any]) -> Played:
    """Play a golden file's entries (see :func:`decisions`), collecting every event and the
    digest after each decision. Raises :class:`IllegalActionError` when the game refuses an
    entry."""
    game, state = start(record)
    events: list[dict[str, Any]] = []
    steps: list[str] = []
    for step in decisions(record):
        if step.refused is not None:
            raise IllegalActionError(f"entry {step.index} refused: {step.refused}")
        state = step.after
        events.extend(step.events)
        steps.extend([step_digest(state, step.events)] * len(step.entries))
    return Played(state, events, steps, game)


# ------------------------------------------------------------------------------ the text


class GoldenNarrator(Narrator):
    """The spectator's narrator, naming the secret cards and missions too: the text hides
    nothing the digests pin."""

    def event(self, e: dict[str, Any]) -> str | None:
        kind = e.get("type")
        if kind == "cards_chosen":
            told = super().event(e)
            return f"{told}: {self.card(e['first'])}, then {self.card(e['second'])}"
        if kind == "mission_kept" and isinstance(e.get("mission"), int):
            return f"{self.army(e['army'])} kept a mission: {MISSIONS[e['mission']]}"
        return super().event(e)


def _move(n: GoldenNarrator, move: dict[str, Any]) -> str:
    move = dict(move)
    text = (
        f"{n.territory(move.pop('source'))} → {n.territory(move.pop('target'))} "
        f"with {units_text(move.pop('units'))}"
    )
    if (via := move.pop("via", None)) is not None:
        text += f" via {n.territory(via)}"
    return text + (f" {canonical_json(move)}" if move else "")


def _turn(n: GoldenNarrator, action: dict[str, Any]) -> str:
    """A turn's order with its parameters, then its bonus action and free manoeuvre."""
    order = action.pop("order")
    parts = ["no order" if order == "none" else order.replace("_", " ")]
    parts += [_move(n, m) for m in action.pop("moves", [])]
    parts += [
        f"{units_text(r['units'])} in {n.place(r['territory'])}"
        + (f" {canonical_json(rest)}" if (rest := _without(r, "units", "territory")) else "")
        for r in action.pop("recruits", [])
    ]
    parts += [f"castle in {n.territory(t)}" for t in action.pop("castles", [])]
    if action.pop("crown", False):
        parts.append("a crown card")
    if (city := action.pop("tax_city", None)) is not None:
        parts.append(n.place(city))
    text = parts[0] + (f": {', '.join(parts[1:])}" if parts[1:] else "")
    if (bonus := action.pop("bonus", None)) is not None:
        when = "before" if action.pop("bonus_first") else "after"
        where = n.territory(action.pop("bonus_target"))
        if (source := action.pop("bonus_source", None)) is not None:
            where = f"{n.territory(source)} → {where}"
        text += f"; {bonus.replace('_', ' ')} {where} {when} the order"
    if (free := action.pop("free_manoeuvre", None)) is not None:
        text += f"; free manoeuvre {_move(n, free)}"
    return text


def _coins(n: int) -> str:
    return f"{n} coin" if n == 1 else f"{n} coins"


def _without(data: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in keys}


def decided(n: GoldenNarrator, entry: dict[str, Any]) -> str:
    """What a seat decided, in words; every field of the action is told (one the wording
    does not know is appended as JSON), so two different actions never read the same."""
    action = dict(entry["action"])
    kind = action.pop("kind")
    text: str
    match kind:
        case "bid":
            text = f"bid {_coins(action.pop('coins'))} for the First Player Marker"
        case "mercenary_bid":
            coins = action.pop("coins")
            text = "bid " + ", ".join(
                f"{_coins(c)} for {n.army(n.players + k)}" for k, c in enumerate(coins)
            )
        case "kingdom":
            city, neighbour, footmen = (action.pop(k) for k in ("city", "neighbour", "footmen"))
            text = f"kingdom in {n.place(city)} with {footmen} footmen"
            if neighbour >= 0:
                text += f", the rest in {n.territory(neighbour)}"
        case "cards":
            first, second = action.pop("first"), action.pop("second")
            text = f"play cards {first}, then {second}"
        case "turn":
            text = _turn(n, action)
        case "casualties":
            text = f"remove {units_text(action.pop('units'))}"
        case "reroll":
            rank = action.pop("rank")
            text = "keep the dice" if rank == 0 else f"re-roll the dice of rank {rank}"
        case "battle_order":
            text = "battles in " + ", ".join(n.territory(t) for t in action.pop("territories"))
        case "mission":
            text = f"keep mission {action.pop('index')} of the two drawn"
        case _:
            text = kind
    return text + (f" {canonical_json(action)}" if action else "")


def narrator_of(record: dict[str, Any]) -> GoldenNarrator:
    """The narrator of a golden file's game; its seats are called "seat 0", "seat 1", ..."""
    return GoldenNarrator([f"seat {s}" for s in range(record["players"])], record["players"])


def narrate(record: dict[str, Any]) -> str:
    """A golden file's playthrough in words (the layout of :mod:`tests.golden_text`)."""
    game, state = start(record)
    narrator = narrator_of(record)
    names = narrator.names
    lines = [
        f"Golden playthrough {record['name']}: {record['description']}",
        f"Game {record['game']}, seed {record['seed']}, rules {canonical_json(record['rules'])}",
        f"Seats: {', '.join(names)}, each choosing at random among its options; declarations "
        f"{canonical_json(record['declarations'])}",
    ]
    for holder in sorted(set(state.owner) - {NOBODY}):
        held = [narrator.territory(t) for t, o in enumerate(state.owner) if o == holder]
        lines.append(f"Start: {narrator.army(holder)} holds {', '.join(held)}")
    for number, step in enumerate(decisions(record), 1):
        lines += [heading(number, f"seat {e['seat']}", decided(narrator, e)) for e in step.entries]
        if step.refused is not None:
            lines.append(refused(step.refused))
            return text_of(lines)
        lines += happened(narrator.event(e) for e in step.events)
        state = step.after
    if game.decision(state) is not None:
        lines.append(NOT_OVER)
    return text_of(lines)


def load(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return record


AGAIN = (
    "the engine's behaviour changed; if that is intended, regenerate deliberately with "
    "`python -m tests.games.europe.golden.make_golden` and review the diff"
)


def test_every_playthrough_is_there() -> None:
    assert {p.stem for p in GOLDEN.glob("*.json")} == EXPECTED
    assert {p.stem for p in GOLDEN.glob("*.txt")} == EXPECTED


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_playthrough_matches_its_pinned_digests(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    assert path.stat().st_size < MAX_FILE_BYTES
    record = load(name)
    assert record["name"] == name
    played = replay(record)
    for i, (entry, got) in enumerate(zip(record["actions"], played.steps, strict=True)):
        assert got == entry["step"], f"entry {i} ({entry['action']['kind']}): {AGAIN}"
    assert played.outcome() == record["outcome"], AGAIN
    assert played.state.round == record["final"]["rounds"], AGAIN
    assert played.state.turns == record["final"]["turns"], AGAIN
    assert len(played.events) == record["final"]["events"], AGAIN
    assert played.events[-1]["type"] == "game_over"
    assert played.digests() == record["digests"], AGAIN


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_playthrough_tells_its_golden_story(name: str) -> None:
    path = GOLDEN / f"{name}.txt"
    assert path.stat().st_size < MAX_TEXT_BYTES
    assert_told(path, narrate(load(name)), AGAIN)


def test_the_text_is_the_same_whatever_the_order_of_keys() -> None:
    """The text depends on the golden file's content only: rendering twice, or from a file
    whose keys come in another order, gives the same characters."""
    record = load("missions_ask_4p")
    text = narrate(record)
    reordered = {k: record[k] for k in reversed(list(record))}
    reordered["actions"] = [
        {**{k: e[k] for k in reversed(list(e)) if k != "action"}, "action": _reversed(e["action"])}
        for e in record["actions"]
    ]
    assert narrate(reordered) == text == narrate(load("missions_ask_4p"))
    assert "\r" not in text and text.endswith("\n")


def _reversed(action: dict[str, Any]) -> dict[str, Any]:
    return {k: action[k] for k in reversed(list(action))}


def decision_number(record: dict[str, Any], index: int) -> int:
    """The number the text gives the decision of entry ``index``."""
    steps = enumerate(decisions(record), 1)
    return next(n for n, step in steps if step.index + len(step.entries) > index)


def test_an_altered_action_shows_as_a_diff_naming_its_decision() -> None:
    """The text check can fail, and says where: a turn taken without its order (Tax) in the
    middle of the game is reported at its own decision, golden line against replayed line,
    with a unified diff."""
    record = load("base_3p")
    index = next(
        i
        for i, e in enumerate(record["actions"])
        if i > 200 and e["action"].get("order") == "tax" and "bonus" not in e["action"]
    )
    number, seat = decision_number(record, index), record["actions"][index]["seat"]
    changed = copy.deepcopy(record)
    changed["actions"][index]["action"] = {"kind": "turn", "order": "none"}
    path = GOLDEN / "base_3p.txt"
    with pytest.raises(AssertionError) as failed:
        assert_told(path, narrate(changed), AGAIN)
    lines = str(failed.value).splitlines()
    golden = read(path).splitlines()
    at = golden.index(
        f"#{number} seat {seat}: {decided(narrator_of(record), record['actions'][index])}"
    )
    assert lines[0] == f"base_3p.txt: first difference at line {at + 1}, in decision #{number}"
    assert lines[1:3] == ["--- base_3p.txt (golden)", "+++ base_3p.txt (replayed)"]
    assert lines[7] == f"-{golden[at]}"
    assert f"+#{number} seat {seat}: no order" in lines[8:]
    assert lines[-1] == AGAIN and len(lines) <= 1 + SHOWN + 1


def test_a_tampered_action_is_caught() -> None:
    """A different legal bid changes the game from that step on; an illegal one is refused."""
    record = load("base_4p")
    changed = copy.deepcopy(record)
    first = changed["actions"][0]
    assert first["action"]["kind"] == "bid"
    first["action"]["coins"] = (first["action"]["coins"] + 1) % 6
    try:
        played = replay(changed)
    except IllegalActionError:
        pass
    else:
        assert played.steps[0] != record["actions"][0]["step"]
    first["action"]["coins"] = 99
    with pytest.raises(IllegalActionError):
        replay(changed)


def test_a_cut_or_extended_list_is_caught() -> None:
    record = load("base_3p")
    cut = replay({**record, "actions": record["actions"][:-1]})
    assert cut.outcome() is None
    extra = {"seat": 0, "action": {"kind": "bid", "coins": 0}, "step": ""}
    with pytest.raises(IllegalActionError, match="over"):
        replay({**record, "actions": [*record["actions"], extra]})


def test_another_seed_or_declaration_is_caught() -> None:
    record = load("missions_ask_3p")
    try:
        played = replay({**record, "seed": record["seed"] + 1})
    except IllegalActionError:
        pass
    else:
        assert played.digests() != record["digests"]
    try:
        played = replay({**record, "declarations": []})
    except IllegalActionError:
        pass
    else:
        assert played.digests() != record["digests"]


def test_canonical_state_holds_every_field() -> None:
    """A new state field is in the canonical form by construction; the form names them all."""
    state = GAME.configure({}, 4).new_game(1)
    assert isinstance(state, EuropeState)
    assert set(canonical_state(state)) == set(EuropeState.__slots__)


def test_playthroughs_cover_the_decisions() -> None:
    """Between them the files meet every decision kind and more than one way to end."""
    kinds: set[str] = set()
    ends: set[str] = set()
    for name in EXPECTED:
        record = load(name)
        kinds |= {e["action"]["kind"] for e in record["actions"]}
        ends.add(record["outcome"]["termination"])
    assert {
        "bid",
        "kingdom",
        "mercenary_bid",
        "cards",
        "turn",
        "mission",
        "battle_order",
        "reroll",
        "casualties",
    } <= kinds
    assert {"crowns", "round_limit"} <= ends
