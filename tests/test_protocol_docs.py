"""docs/protocol.md says what the engines do: its per-game tables (rules keys, event types
and fields, default-action kinds, end reasons) are read here and compared with the games
themselves, and the facts it states about Europe's options, answers and forfeits are
checked on real positions of seeded play."""

from __future__ import annotations

import functools
import random
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.errors import IllegalActionError
from arena.games import load
from arena.games.api import Event, Game, Position
from arena.games.classic.rules.end import Termination
from arena.games.europe.actions import Turn
from arena.games.europe.game import ASK_ALL
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.protocol.envelope import rules_to_wire

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "protocol.md"
GAMES = {"classic": "Classic RISK", "europe": "RISK: Europe"}
SOURCES = {"classic": ROOT / "arena/games/classic", "europe": ROOT / "arena/games/europe"}
PLAYS = {
    "classic": [
        (2, {}),
        (3, {"mode": "mission"}),
        (4, {"mode": "capital", "advantage_reroll": "true"}),
        (3, {"max_rounds": "3"}),
    ],
    "europe": [(4, {}), (3, {}), (2, {}), (4, {"missions": "true"}), (3, {"max_rounds": "2"})],
}
"""Configurations played (two seeds each, one with a forfeit) to meet every kind of event."""
FORFEIT_AFTER = 150
RARE_EVENTS = 3
"""Documented event types seeded random play may not meet (their fields go unchecked)."""
BACKTICKED = re.compile(r"`([^`]+)`")


def section(game: str) -> str:
    """The page's section of ``game`` (its ``## `` heading up to the next)."""
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(f"\n## {GAMES[game]}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def table(game: str, heading: str) -> list[list[str]]:
    """The cells of the first table under ``### heading`` in ``game``'s section."""
    part = section(game).split(f"\n### {heading}\n", 1)[1].split("\n### ", 1)[0]
    rows = [line for line in part.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split(" | ")] for row in rows[2:]]


def names(cell: str) -> list[str]:
    """The backticked names of a table cell."""
    return BACKTICKED.findall(cell)


def documented_events(game: str) -> dict[str, set[str]]:
    return {names(row[0])[0]: set(names(row[1])) for row in table(game, "Events")}


def emitted_types(game: str) -> set[str]:
    """Every event type the game's code can emit (the ``"type": "..."`` of its sources)."""
    found: set[str] = set()
    for path in SOURCES[game].rglob("*.py"):
        found.update(re.findall(r'"type": "(\w+)"', path.read_text(encoding="utf-8")))
    return found


def played(game: str) -> Iterator[tuple[Game[Any, Any, Any], Any, list[Event]]]:
    """(game, state, events) after every step of seeded random games of ``game``, every
    other game with a forfeit, every seat asking for every battle decision."""
    for players, options in PLAYS[game]:
        configured = load(game).configure(options, players)
        for seed in (1, 2):
            declared = [ASK_ALL if game == "europe" else {}] * players
            state = configured.new_game(seed, declared)
            rng = random.Random(seed)
            steps = 0
            while (decision := configured.decision(state)) is not None:
                steps += 1
                if seed == 2 and steps == FORFEIT_AFTER:
                    step = configured.forfeit(state, decision.seats[0])
                else:
                    picks = {
                        s: rng.choice(list(configured.choices(configured.legal_options(state, s))))
                        for s in decision.seats
                    }
                    step = configured.apply_joint(state, picks)
                state = step.state
                yield configured, state, list(step.events)


@pytest.fixture(scope="module")
def seen() -> dict[str, tuple[dict[str, list[set[str]]], set[str]]]:
    """Per game: the field sets of every event met in play, by type, and the end reasons."""
    found: dict[str, tuple[dict[str, list[set[str]]], set[str]]] = {}
    for game in GAMES:
        fields: dict[str, list[set[str]]] = defaultdict(list)
        ends: set[str] = set()
        for configured, state, events in played(game):
            for event in events:
                fields[event["type"]].append(set(event) - {"type"})
            outcome = configured.outcome(state)
            if outcome is not None:
                ends.add(outcome.end_reason)
        found[game] = (fields, ends)
    return found


def test_every_game_section_has_the_same_headings() -> None:
    headings = {game: re.findall(r"^### (.+)$", section(game), re.MULTILINE) for game in GAMES}
    assert headings["classic"] == headings["europe"]
    assert "Events" in headings["classic"] and "Forfeits" in headings["classic"]


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_keys_are_the_ones_matchstart_carries(game: str) -> None:
    configured = load(game).configure({}, 3)
    assert {names(row[0])[0] for row in table(game, "MatchStart.rules")} == set(
        rules_to_wire(configured.config())
    )


@pytest.mark.parametrize("game", GAMES)
def test_the_event_types_are_every_type_the_game_emits(game: str) -> None:
    assert set(documented_events(game)) == emitted_types(game)


@pytest.mark.parametrize("game", GAMES)
def test_every_event_has_the_documented_fields(
    game: str, seen: dict[str, tuple[dict[str, list[set[str]]], set[str]]]
) -> None:
    documented = documented_events(game)
    fields, _ = seen[game]
    assert set(fields) <= set(documented)
    rare = set(documented) - set(fields)  # e.g. a crown saving a cityless army
    assert len(rare) <= RARE_EVENTS, f"seeded play met too few event types; not met: {rare}"
    for kind, sets in fields.items():
        assert all(each <= documented[kind] for each in sets), (kind, sets)
        assert set().union(*sets) == documented[kind], kind


@pytest.mark.parametrize("game", GAMES)
def test_the_default_actions_cover_every_decision_kind(game: str) -> None:
    documented = [name for row in table(game, "Default actions") for name in names(row[0])]
    assert sorted(documented) == sorted(p.kind for p in positions(game))


@pytest.mark.parametrize("game", GAMES)
def test_the_end_reasons_are_the_ones_the_engine_gives(
    game: str, seen: dict[str, tuple[dict[str, list[set[str]]], set[str]]]
) -> None:
    documented = {names(row[0])[0] for row in table(game, "MatchEnd.end_reason")}
    if game == "classic":
        possible = {reason.value for reason in Termination}
    else:
        rules = (SOURCES["europe"] / "rules.py").read_text(encoding="utf-8")
        possible = set(re.findall(r'\bend(?: = | or )"(\w+)"', rules))
    assert documented == possible
    assert seen[game][1] <= documented


def test_the_hello_block_of_the_guide_shows_every_field() -> None:
    guide = (ROOT / "docs" / "writing-a-bot.md").read_text(encoding="utf-8")
    block = guide.split("message Hello {", 1)[1].split("}", 1)[0]
    shown = dict(re.findall(r"(\w+) = (\d+)", block))
    assert shown == {f.name: str(f.number) for f in pb.Hello.DESCRIPTOR.fields}


def test_europe_sources_never_list_a_territory_the_army_attacks() -> None:
    """``TurnOptions.sources``: every territory the army holds, none where it is the
    attacker; ``casualties`` is asked only for fewer hits than the units there."""
    turns = casualties = 0
    for configured, state, _ in played("europe"):
        decision = configured.decision(state)
        if decision is None or decision.kind not in ("turn", "casualties"):
            continue
        options = configured.legal_options(state, decision.seats[0])
        army, constraints = options.army, options.constraints
        if decision.kind == "turn":
            turns += 1
            listed = {source["territory"] for source in constraints["sources"]}
            held = {t for t, owner in enumerate(state.owner) if owner == army}
            assert listed == held
            assert not any(state.attacker[t] == army for t in listed)
        else:
            casualties += 1
            assert 0 < constraints["count"] < sum(constraints["units"])
    assert turns and casualties


@functools.cache
def positions(game: str) -> list[Position]:
    """The check-bot positions of ``game``: a real position of every decision kind."""
    return load(game).positions()


def first_turn() -> tuple[Game[Any, Any, Any], Any, int]:
    position = next(p for p in positions("europe") if p.kind == "turn")
    return position.game, position.state, position.seat


def test_europe_refuses_bonus_first_without_a_bonus() -> None:
    game, state, seat = first_turn()
    game.check(state, seat, Turn())
    with pytest.raises(IllegalActionError, match=r"bonus_first.* go with a bonus action"):
        game.check(state, seat, Turn(bonus_first=True))


def test_a_forfeited_seat_leaves_the_europe_board_and_stays_on_the_classic_one() -> None:
    game, state, seat = first_turn()
    step = game.forfeit(state, seat)
    assert {"type": "eliminated", "army": seat, "why": "forfeit"} in step.events
    assert seat not in step.state.owner
    assert not any(any(step.state.of(t, seat)) for t in range(len(step.state.owner)))

    classic = next(p for p in positions("classic") if p.kind == "attack")
    held = [t for t, owner in enumerate(classic.state.owner) if owner == classic.seat]
    after = classic.game.forfeit(classic.state, classic.seat)
    assert {"type": "forfeited", "seat": classic.seat} in after.events
    assert all(after.state.owner[t] == classic.seat for t in held)
    assert after.state.forfeited[classic.seat]
