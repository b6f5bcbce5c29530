"""Golden playthroughs of the classic game: fixed rules, seed, declarations and action list ⇒
pinned SHA-256 digests of the final state and of the event log, and the pinned outcome.

Each file in ``golden/`` is one recorded game (see ``golden/make_golden.py``, which records
them from the bundled bots and is run only deliberately). This test never regenerates
anything: it replays every action through the validating :meth:`ClassicRules.apply` (and
:meth:`ClassicRules.forfeit` for a recorded forfeit) and compares. A refactor of the engine
that changes any rule, any die drawn, any state field or any event fails here.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from arena.errors import IllegalActionError
from arena.games.classic import (
    ClassicConfig,
    ClassicRules,
    ClassicState,
    action_from_dict,
)
from arena.games.classic.game import ALWAYS_MAX_DEFENCE, ClassicGame

GOLDEN = Path(__file__).parent / "golden"
MAX_FILE_BYTES = 300_000

EXPECTED = {
    "world_2p",
    "world_3p",
    "world_6p",
    "mission_4p",
    "capital_full_4p",
    "capital_short_5p",
    "sets_progressive_3p",
    "sets_fixed_4p",
    "advantage_reroll_3p",
    "fortify_connected_4p",
    "deal_random_3p",
    "forfeit_4p",
}
"""The playthroughs that must exist (deleting one is a failure, not a silent skip)."""

STATE_FIELDS = (
    "n",
    "owner",
    "armies",
    "phase",
    "seat",
    "first",
    "round",
    "turns",
    "reserve",
    "neutral_reserve",
    "hands",
    "deck",
    "discard",
    "sets_traded",
    "dice_i",
    "card_i",
    "to_place",
    "bonus_given",
    "conquered",
    "forced_trade",
    "attack",
    "roll",
    "occupy",
    "eliminated",
    "forfeited",
    "missions",
    "hq",
    "hq_pending",
    "hq_revealed",
    "always_max",
    "winner",
    "end",
    "places",
)
"""Every field of :class:`ClassicState` in the canonical form (``streams`` is its seed)."""


def _plain(value: Any) -> Any:
    """JSON-ready data: tuples become lists, enums their names."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, Enum):  # the phase
        return value.name
    return value


def canonical_state(state: ClassicState) -> dict[str, Any]:
    """Everything the state holds, as plain data (the random streams by their seed)."""
    data = {name: _plain(getattr(state, name)) for name in STATE_FIELDS}
    data["streams"] = {"seed": state.streams.seed}
    return data


def canonical_json(data: Any) -> str:
    """One text per value: sorted keys, no spaces, ASCII only."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def digest(data: Any) -> str:
    """SHA-256 of the canonical JSON of ``data``."""
    return hashlib.sha256(canonical_json(data).encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Played:
    """What replaying a golden file produced."""

    state: ClassicState
    events: list[dict[str, Any]]
    applied: int

    def digests(self) -> dict[str, str]:
        """SHA-256 of the canonical final state and of the whole event log."""
        return {"state": digest(canonical_state(self.state)), "events": digest(self.events)}

    def outcome(self) -> dict[str, Any] | None:
        """Places, winner and termination once the game is over, else None."""
        if self.state.places is None:
            return None
        return {
            "places": list(self.state.places),
            "winner": self.state.winner,
            "termination": self.state.end,
        }


def rules_of(game: dict[str, Any]) -> ClassicRules:
    """The rules a golden file was recorded under (checked like a replay header)."""
    config = ClassicConfig.from_dict(game["rules"])
    assert config.players == game["players"]
    return ClassicRules(config)


def replay(game: dict[str, Any]) -> Played:
    """Play a golden file's entries through the game contract, as the referee does,
    collecting every event.

    An entry is ``{"seat": s, "action": {...}}`` or ``{"seat": s, "forfeit": true}``. The
    entries of a simultaneous decision (Capital RISK's headquarters) follow one another in
    seat order and are handed to :meth:`ClassicGame.apply_joint` together; any other entry
    goes to :meth:`ClassicGame.apply` or :meth:`ClassicGame.forfeit`. Raises
    :class:`IllegalActionError` when the game refuses an entry.
    """
    assert game["game"] == "classic"
    contract = ClassicGame(rules_of(game).config)
    state = contract.new_game(
        game["seed"], [{ALWAYS_MAX_DEFENCE: flag} for flag in game["always_max"]]
    )
    events: list[dict[str, Any]] = []
    entries = game["actions"]
    applied = 0
    while applied < len(entries):
        entry = entries[applied]
        decision = contract.decision(state)
        if decision is None:
            raise IllegalActionError(f"entry {applied}: the game is already over")
        joint = decision.simultaneous and not entry.get("forfeit")
        batch = entries[applied : applied + len(decision.seats)] if joint else [entry]
        try:
            if entry.get("forfeit"):
                step = contract.forfeit(state, entry["seat"])
            elif joint:
                answers = {e["seat"]: action_from_dict(e["action"]) for e in batch}
                if len(answers) != len(decision.seats) or any(e.get("forfeit") for e in batch):
                    raise IllegalActionError(
                        f"a joint {decision.kind} decision needs an answer from each of seats "
                        f"{list(decision.seats)}"
                    )
                step = contract.apply_joint(state, answers)
            else:
                step = contract.apply(state, entry["seat"], action_from_dict(entry["action"]))
        except IllegalActionError as exc:
            raise IllegalActionError(f"entry {applied} ({entry}) refused: {exc}") from exc
        state = step.state
        events.extend(step.events)
        applied += len(batch)
    return Played(state, events, len(entries))


def load(name: str) -> dict[str, Any]:
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def golden_names() -> list[str]:
    return sorted(p.stem for p in GOLDEN.glob("*.json"))


# ------------------------------------------------------------------------------ tests


def test_every_playthrough_is_there() -> None:
    assert set(golden_names()) == EXPECTED


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_playthrough_matches_its_pinned_digests(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    assert path.stat().st_size < MAX_FILE_BYTES
    game = load(name)
    assert game["name"] == name
    played = replay(game)
    again = (
        "the engine's behaviour changed; if that is intended, regenerate deliberately with "
        "`python -m tests.games.classic.golden.make_golden` and review the diff"
    )
    # The game ran to its end on exactly the recorded actions.
    assert played.outcome() == game["outcome"], again
    assert played.state.turns == game["final"]["turns"], again
    assert played.state.round == game["final"]["rounds"], again
    assert len(played.events) == game["final"]["events"], again
    assert played.events[-1]["type"] == "game_over"
    assert played.digests() == game["digests"], again


def test_replay_is_deterministic() -> None:
    """Two replays of the same file give the same digests (nothing depends on the run)."""
    game = load("world_3p")
    assert replay(game).digests() == replay(game).digests()


def _tampered(game: dict[str, Any], index: int, action: dict[str, Any]) -> dict[str, Any]:
    changed = copy.deepcopy(game)
    changed["actions"][index] = {**changed["actions"][index], "action": action}
    return changed


def _differs_or_refused(game: dict[str, Any]) -> bool:
    try:
        played = replay(game)
    except IllegalActionError:
        return True
    return played.digests() != game["digests"]


def test_a_tampered_action_is_caught() -> None:
    game = load("world_3p")
    entries = game["actions"]
    # A defence with one die fewer: legal, so the replay goes on and the dice diverge.
    defend = next(
        i
        for i, e in enumerate(entries)
        if e["action"]["kind"] == "defend" and e["action"]["dice"] == 2
    )
    weaker = _tampered(game, defend, {"kind": "defend", "dice": 1})
    assert _differs_or_refused(weaker)
    # A claim of another territory: the state differs from that point on.
    claim = next(i for i, e in enumerate(entries) if e["action"]["kind"] == "claim")
    taken = {e["action"]["territory"] for e in entries if e["action"]["kind"] == "claim"}
    assert len(taken) == 42  # every territory is claimed once, so any other one is refused
    other = (entries[claim]["action"]["territory"] + 1) % 42
    with pytest.raises(IllegalActionError):
        replay(_tampered(game, claim, {"kind": "claim", "territory": other}))


def test_a_late_change_is_caught() -> None:
    """A change near the end (the last fortify moves one army fewer) still shows."""
    game = load("world_3p")
    entries = game["actions"]
    last = max(
        i
        for i, e in enumerate(entries)
        if e["action"]["kind"] == "fortify" and e["action"]["armies"] > 1
    )
    fewer = {**entries[last]["action"], "armies": entries[last]["action"]["armies"] - 1}
    assert _differs_or_refused(_tampered(game, last, fewer))


def test_a_cut_or_extended_list_is_caught() -> None:
    game = load("world_3p")
    cut = replay({**game, "actions": game["actions"][:-1]})
    assert cut.outcome() is None  # the game is not over without its last action
    assert cut.digests() != game["digests"]
    extra = {"seat": 0, "action": {"kind": "end_turn"}}
    with pytest.raises(IllegalActionError, match="over"):
        replay({**game, "actions": [*game["actions"], extra]})


def test_another_seed_is_caught() -> None:
    game = load("world_3p")
    assert _differs_or_refused({**game, "seed": game["seed"] + 1})


def test_another_declaration_is_caught() -> None:
    game = load("world_3p")
    flipped = [not x for x in game["always_max"]]
    assert _differs_or_refused({**game, "always_max": flipped})


def test_canonical_state_holds_every_field() -> None:
    """A new state field must be added to the canonical form (and the digests regenerated
    deliberately), never silently left out of the comparison."""
    assert set(STATE_FIELDS) | {"streams"} == set(ClassicState.__slots__)


def test_playthroughs_cover_the_decisions() -> None:
    """Between them the files exercise every decision kind and both ends of a game."""
    kinds: set[str] = set()
    ends: set[str] = set()
    forfeits = 0
    for name in EXPECTED:
        game = load(name)
        kinds |= {e["action"]["kind"] for e in game["actions"] if "action" in e}
        forfeits += sum(1 for e in game["actions"] if e.get("forfeit"))
        ends.add(game["outcome"]["termination"])
    assert kinds == {
        "claim",
        "place",
        "place_neutral",
        "headquarters",
        "trade",
        "attack",
        "end_attack",
        "defend",
        "reroll",
        "occupy",
        "fortify",
        "end_turn",
    }
    assert forfeits >= 1
    assert ends == {"domination", "round_limit", "mission", "capitals"}
    events = {e["type"] for name in EXPECTED for e in replay(load(name)).events}
    assert {
        "rerolled",
        "forfeited",
        "cards_taken",
        "mission_revealed",
        "headquarters_revealed",
        "placed_neutral",
    } <= events


def test_headquarters_are_a_decision_of_several_seats() -> None:
    """The capital playthroughs go through the secret headquarters choice, asked of every
    seat at once and revealed together."""
    for name in ("capital_full_4p", "capital_short_5p"):
        game = load(name)
        rules = rules_of(game)
        state = rules.new_game(game["seed"], game["always_max"])
        widest = 0
        for entry in game["actions"]:
            decision = rules.decision(state)
            assert decision is not None
            if decision.kind == "headquarters":
                widest = max(widest, len(decision.seats))
            state = rules.apply(state, entry["seat"], action_from_dict(entry["action"])).state
        assert widest == game["players"]
