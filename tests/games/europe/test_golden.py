"""Golden playthroughs of RISK: Europe: fixed rules, seed, declarations and action list ⇒
a pinned digest after every step, pinned SHA-256 digests of the final state and of the event
log, and the pinned outcome.

Each file in ``golden/`` is one recorded seeded random game. Regenerate them only when a
change of behaviour is intended (and say so in the commit), from the repository root::

    .venv/bin/python -m tests.games.europe.golden.make_golden            # every playthrough
    .venv/bin/python -m tests.games.europe.golden.make_golden base_3p    # just these

This test never regenerates anything: it replays every action (back through
``game.action_from_dict``) through the validating ``apply`` / ``apply_joint`` and compares
step by step, so a change shows at the first decision it touches.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from arena.errors import IllegalActionError
from arena.games.europe.game import GAME, EuropeGame
from arena.games.europe.state import EuropeState

GOLDEN = Path(__file__).parent / "golden"
MAX_FILE_BYTES = 300_000
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
            "termination": outcome.termination,
        }


def game_of(record: dict[str, Any]) -> EuropeGame:
    assert record["game"] == "europe"
    game = GAME.from_config(record["rules"])
    assert isinstance(game, EuropeGame) and game.players == record["players"]
    return game


def replay(record: dict[str, Any]) -> Played:
    """Play a golden file's entries through the game contract, as the referee does.

    An entry is ``{"seat": s, "action": {...}, "step": digest}``; the entries of a
    simultaneous decision follow one another in seat order and go to ``apply_joint``
    together (each carries the step's digest), any other to ``apply``. Raises
    :class:`IllegalActionError` when the game refuses an entry.
    """
    game = game_of(record)
    state = game.new_game(record["seed"], record["declarations"])
    events: list[dict[str, Any]] = []
    steps: list[str] = []
    entries = record["actions"]
    applied = 0
    while applied < len(entries):
        decision = game.decision(state)
        if decision is None:
            raise IllegalActionError(f"entry {applied}: the game is already over")
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
            raise IllegalActionError(f"entry {applied} refused: {exc}") from exc
        state = step.state
        events.extend(step.events)
        steps.extend([step_digest(state, step.events)] * len(batch))
        applied += len(batch)
    return Played(state, events, steps, game)


def load(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return record


AGAIN = (
    "the engine's behaviour changed; if that is intended, regenerate deliberately with "
    "`python -m tests.games.europe.golden.make_golden` and review the diff"
)


def test_every_playthrough_is_there() -> None:
    assert {p.stem for p in GOLDEN.glob("*.json")} == EXPECTED


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
