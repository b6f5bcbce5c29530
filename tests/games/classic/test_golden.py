"""Golden playthroughs of the classic game: fixed rules, seed, declarations and action list ⇒
pinned SHA-256 digests of the final state and of the event log, the pinned outcome, and the
playthrough told in words.

Each recorded game is two files in ``golden/``: ``NAME.json`` (the rules, seed, bots, the
action list and the digests) and ``NAME.txt``, the same game narrated the way of OpenSpiel's
playthroughs (layout in :mod:`tests.golden_text`): per decision the seat and what it
decided, then what happened in the words of :mod:`arena.games.classic.narrate`. This test
never regenerates anything: it replays every action through the validating
:meth:`ClassicGame.apply` (and :meth:`ClassicGame.forfeit` for a recorded forfeit), compares
the digests, and renders the text again and compares it with ``NAME.txt``; a difference is
shown as a unified diff from the first decision that tells another story. A refactor of the
engine that changes any rule, any die drawn, any state field or any event fails here.

After an intended change of the rules (or of the narrator's wording), regenerate from the
repository root, read the diff of the ``.txt`` files to check that it is the change meant,
and say so in the commit::

    .venv/bin/python -m tests.games.classic.golden.make_golden            # every playthrough
    .venv/bin/python -m tests.games.classic.golden.make_golden world_3p   # just these
    .venv/bin/python -m tests.games.classic.golden.make_golden --text     # only the texts

It plays the recorded games again with the bundled bots (a rule change may change their
actions too) and rewrites both files of each playthrough; ``--text`` only tells the recorded
games again (after a change of wording), leaving the ``.json`` files and their digests as
they are.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterator
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
from arena.games.classic.missions import MISSIONS
from arena.games.classic.narrate import UNCLAIMED, Narrator, army_count, dice_word
from tests.golden_text import (
    NOT_OVER,
    SHOWN,
    assert_told,
    difference,
    happened,
    heading,
    read,
    refused,
    text_of,
)

GOLDEN = Path(__file__).parent / "golden"
MAX_FILE_BYTES = 300_000
MAX_TEXT_BYTES = 300_000
AGAIN = (
    "the engine's behaviour changed; if that is intended, regenerate deliberately with "
    "`python -m tests.games.classic.golden.make_golden` and review the diff"
)

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


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of a replayed golden file: its entries (one, or one per seat of a
    simultaneous decision) from ``index`` on, the state before and after, and the events it
    caused; or the reason the game refused it (then ``after`` is ``before`` and there are no
    events)."""

    index: int
    entries: list[dict[str, Any]]
    before: ClassicState
    after: ClassicState
    events: list[dict[str, Any]]
    refused: str | None = None


def decisions(game: dict[str, Any]) -> Iterator[Step]:
    """Play a golden file's entries through the game contract, as the referee does, one
    decision at a time; a refused decision is the last step.

    An entry is ``{"seat": s, "action": {...}}`` or ``{"seat": s, "forfeit": true}``. The
    entries of a simultaneous decision (Capital RISK's headquarters) follow one another in
    seat order and are handed to :meth:`ClassicGame.apply_joint` together; any other entry
    goes to :meth:`ClassicGame.apply` or :meth:`ClassicGame.forfeit`.
    """
    contract, state = start(game)
    entries = game["actions"]
    applied = 0
    while applied < len(entries):
        entry = entries[applied]
        decision = contract.decision(state)
        if decision is None:
            yield Step(applied, [entry], state, state, [], "the game is already over")
            return
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
            yield Step(applied, batch, state, state, [], str(exc))
            return
        yield Step(applied, batch, state, step.state, list(step.events))
        state = step.state
        applied += len(batch)


def start(game: dict[str, Any]) -> tuple[ClassicGame, ClassicState]:
    """The game contract of a golden file and its first state (seed and declarations)."""
    assert game["game"] == "classic"
    contract = ClassicGame(rules_of(game).config)
    state = contract.new_game(
        game["seed"], [{ALWAYS_MAX_DEFENCE: flag} for flag in game["always_max"]]
    )
    return contract, state


def replay(game: dict[str, Any]) -> Played:
    """Play a golden file's entries (see :func:`decisions`), collecting every event. Raises
    :class:`IllegalActionError` when the game refuses an entry."""
    state = start(game)[1]
    events: list[dict[str, Any]] = []
    for step in decisions(game):
        if step.refused is not None:
            entry = step.entries[0]
            raise IllegalActionError(f"entry {step.index} ({entry}) refused: {step.refused}")
        state = step.after
        events.extend(step.events)
    return Played(state, events, len(game["actions"]))


# ------------------------------------------------------------------------------ the text


class GoldenNarrator(Narrator):
    """The spectator's narrator, naming the card drawn too: the text hides nothing the
    digests pin."""

    def event(self, event: dict[str, Any]) -> str | None:
        if event.get("type") == "card_drawn" and event.get("card") is not None:
            return f"{self.subject(event['seat'], 'draw')} {self.card(event['card'])}."
        return super().event(event)


def decided(n: GoldenNarrator, entry: dict[str, Any]) -> str:
    """What a seat decided, in words; every field of the action is told (one the wording
    does not know is appended as JSON), so two different actions never read the same."""
    if entry.get("forfeit"):
        return "forfeit"
    action = dict(entry["action"])
    kind = action.pop("kind")
    t = n.territory
    text: str
    match kind:
        case "claim":
            text = f"claim {t(action.pop('territory'))}"
        case "place":
            text = f"place {n.placements(action.pop('placements'))}"
        case "place_neutral":
            text = f"a neutral army on {t(action.pop('territory'))}"
        case "headquarters":
            text = f"headquarters in {t(action.pop('territory'))}"
        case "trade":
            cards = action.pop("cards")
            text = "no trade" if cards is None else f"trade {n.cards(cards)}"
            if (bonus := action.pop("bonus_territory", None)) is not None:
                text += f", +2 on {t(bonus)}"
        case "attack":
            source, target, dice = action.pop("from"), action.pop("to"), action.pop("dice")
            text = f"attack {t(target)} from {t(source)} with {dice} {dice_word(dice)}"
            if (until := action.pop("until", None)) is not None:
                text += f", repeated until it falls or {t(source)} is down to {army_count(until)}"
            if (policy := action.pop("reroll", None)) is not None:
                text += f", re-roll {policy}"
        case "end_attack":
            text = "stop attacking"
        case "defend":
            dice = action.pop("dice")
            text = f"defend with {dice} {dice_word(dice)}"
        case "reroll":
            die = action.pop("die")
            text = "keep the dice" if die is None else f"re-roll the die at index {die}"
        case "occupy":
            text = f"occupy with {army_count(action.pop('armies'))}"
        case "fortify":
            text = (
                f"move {army_count(action.pop('armies'))} from {t(action.pop('from'))} "
                f"to {t(action.pop('to'))}"
            )
        case "end_turn":
            text = "end the turn"
        case _:
            text = kind
    return text + (f" {canonical_json(action)}" if action else "")


def narrate(game: dict[str, Any]) -> str:
    """A golden file's playthrough in words (the layout of :mod:`tests.golden_text`)."""
    contract, state = start(game)
    narrator = GoldenNarrator(None, game["bots"], contract.board())

    def who(seat: int) -> str:
        return f"seat {seat} ({game['bots'][seat]})"

    lines = [
        f"Golden playthrough {game['name']}: {game['description']}",
        f"Game {game['game']}, seed {game['seed']}, rules {canonical_json(game['rules'])}",
        "Seats: "
        + "; ".join(
            f"{who(s)}{', always rolls the most defence dice' if flag else ''}"
            for s, flag in enumerate(game["always_max"])
        ),
    ]
    for holder in sorted(set(state.owner) - {UNCLAIMED}):
        held = [narrator.territory(t) for t, o in enumerate(state.owner) if o == holder]
        lines.append(f"Start: {narrator.player(holder)} holds {', '.join(held)}")
    lines += [
        f"Mission of {narrator.player(s)}: {MISSIONS[m].text()}"
        for s, m in enumerate(state.missions)
    ]
    for number, step in enumerate(decisions(game), 1):
        lines += [heading(number, who(e["seat"]), decided(narrator, e)) for e in step.entries]
        if step.refused is not None:
            lines.append(refused(step.refused))
            return text_of(lines)
        narrator.owner = list(step.before.owner)
        lines += happened(narrator.event(e) for e in step.events)
        state = step.after
    if contract.decision(state) is not None:
        lines.append(NOT_OVER)
    return text_of(lines)


def load(name: str) -> dict[str, Any]:
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


def golden_names() -> list[str]:
    return sorted(p.stem for p in GOLDEN.glob("*.json"))


# ------------------------------------------------------------------------------ tests


def test_every_playthrough_is_there() -> None:
    assert set(golden_names()) == EXPECTED
    assert {p.stem for p in GOLDEN.glob("*.txt")} == EXPECTED


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_playthrough_matches_its_pinned_digests(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    assert path.stat().st_size < MAX_FILE_BYTES
    game = load(name)
    assert game["name"] == name
    played = replay(game)
    # The game ran to its end on exactly the recorded actions.
    assert played.outcome() == game["outcome"], AGAIN
    assert played.state.turns == game["final"]["turns"], AGAIN
    assert played.state.round == game["final"]["rounds"], AGAIN
    assert len(played.events) == game["final"]["events"], AGAIN
    assert played.events[-1]["type"] == "game_over"
    assert played.digests() == game["digests"], AGAIN


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_playthrough_tells_its_golden_story(name: str) -> None:
    path = GOLDEN / f"{name}.txt"
    assert path.stat().st_size < MAX_TEXT_BYTES
    assert_told(path, narrate(load(name)), AGAIN)


def test_the_text_is_the_same_whatever_the_order_of_keys() -> None:
    """The text depends on the golden file's content only: rendering twice, or from a file
    whose keys come in another order, gives the same characters."""
    game = load("mission_4p")
    text = narrate(game)
    reordered = {k: game[k] for k in reversed(list(game))}
    reordered["actions"] = [{k: e[k] for k in reversed(list(e))} for e in game["actions"]]
    assert narrate(reordered) == text == narrate(load("mission_4p"))
    assert "\r" not in text and text.endswith("\n")


def decision_number(game: dict[str, Any], index: int) -> int:
    """The number the text gives the decision of entry ``index``."""
    steps = enumerate(decisions(game), 1)
    return next(n for n, step in steps if step.index + len(step.entries) > index)


def test_an_altered_action_shows_as_a_diff_naming_its_decision() -> None:
    """The text check can fail, and says where: a defence with one die fewer (legal, so the
    game goes on differently) is reported at its own decision, golden line against replayed
    line, with a unified diff."""
    game = load("world_3p")
    index = next(
        i
        for i, e in enumerate(game["actions"])
        if i > 200 and e["action"] == {"kind": "defend", "dice": 2}
    )
    number = decision_number(game, index)
    path = GOLDEN / "world_3p.txt"
    with pytest.raises(AssertionError) as failed:
        assert_told(path, narrate(_tampered(game, index, {"kind": "defend", "dice": 1})), AGAIN)
    report = str(failed.value)
    lines = report.splitlines()
    seat = game["actions"][index]["seat"]
    decided = f"#{number} seat {seat} ({game['bots'][seat]}): "
    at = _line_of(path, number)
    assert lines[0] == f"world_3p.txt: first difference at line {at}, in decision #{number}"
    assert lines[1:3] == ["--- world_3p.txt (golden)", "+++ world_3p.txt (replayed)"]
    assert lines[3].startswith(f"@@ -{at - 3},")  # numbered as in the whole file
    # Three unchanged lines, then the golden decision and what followed it, against the
    # replayed ones.
    assert lines[7] == f"-{decided}defend with 2 dice"
    assert f"+{decided}defend with 1 die" in lines[8:]
    assert lines[-1] == AGAIN and len(lines) <= 1 + SHOWN + 1


def _line_of(path: Path, number: int) -> int:
    """The line (from 1) of decision ``number``'s first heading in a golden text."""
    lines = read(path).splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.startswith(f"#{number} "))


def test_a_refused_action_is_told_where_the_replay_stops() -> None:
    """Claiming another territory first is legal; the replay stops where the recorded
    claim of that territory comes, refused, and the diff points at the first claim."""
    game = load("world_3p")
    entries = game["actions"]
    claim = next(i for i, e in enumerate(entries) if e["action"]["kind"] == "claim")
    other = (entries[claim]["action"]["territory"] + 1) % 42
    clash = next(i for i, e in enumerate(entries) if e["action"].get("territory") == other)
    text = narrate(_tampered(game, claim, {"kind": "claim", "territory": other}))
    lines = text.splitlines()
    number, seat = decision_number(game, clash), entries[clash]["seat"]
    territory = start(game)[0].board()["territories"][other]
    assert lines[-2:] == [
        f"#{number} seat {seat} ({game['bots'][seat]}): claim {territory}",
        f"  refused: cannot claim {territory!r} ({other}): already held by seat "
        f"{entries[claim]['seat']}; claim an unclaimed territory",
    ]
    report = difference(read(GOLDEN / "world_3p.txt"), text, "world_3p.txt")
    assert report is not None
    assert report.splitlines()[0].endswith(f"in decision #{decision_number(game, claim)}")


def test_another_header_is_told_as_such() -> None:
    game = load("world_3p")
    text = narrate({**game, "description": "another description"})
    report = difference(read(GOLDEN / "world_3p.txt"), text, "world_3p.txt")
    assert report is not None
    assert report.splitlines()[0] == "world_3p.txt: first difference at line 1, in the header"
    assert difference(text, text, "world_3p.txt") is None


def test_a_cut_list_says_the_game_is_not_over() -> None:
    game = load("world_3p")
    text = narrate({**game, "actions": game["actions"][:-1]})
    assert text.endswith(f"\n{NOT_OVER}\n")
    report = difference(read(GOLDEN / "world_3p.txt"), text, "world_3p.txt")
    last = decision_number(game, len(game["actions"]) - 1)
    assert report is not None and report.splitlines()[0].endswith(f"in decision #{last}")


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
