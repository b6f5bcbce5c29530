"""Record the golden playthroughs of RISK: Europe (run deliberately, never by the tests).

Usage, from the repository root::

    .venv/bin/python -m tests.games.europe.golden.make_golden            # every playthrough
    .venv/bin/python -m tests.games.europe.golden.make_golden base_3p    # just these
    .venv/bin/python -m tests.games.europe.golden.make_golden --text     # only the texts

Each playthrough is a seeded random game: every seat picks uniformly (``random.Random(seed)``)
among the listed choices of its decision. The actions (``game.action_to_dict``, each with its
seat) are replayed through ``test_golden.replay`` to compute the digest of every step and the
pinned final digests. Two files are written per playthrough: ``golden/NAME.json`` (the game
and its digests) and ``golden/NAME.txt``, the game told decision by decision by
``test_golden.narrate``.

Regenerating changes the pinned digests and the texts: do it only when a change of
behaviour is intended, read ``git diff tests/games/europe/golden/*.txt`` to check that the
games changed the way meant, and say so in the commit. After a change of wording only (the
narrator's, or the text's layout in ``tests/golden_text.py``), ``--text`` tells the recorded
games again without playing them: the ``.json`` files, and so every digest, stay as they are.
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from typing import Any

from arena.games.europe.game import ASK_ALL, GAME
from tests.games.europe.test_golden import GOLDEN, load, narrate, replay
from tests.golden_text import write

TEXT_ONLY = "--text"
"""Only tell the recorded games again (``NAME.txt``), leaving ``NAME.json`` as it is."""


@dataclass(frozen=True)
class Spec:
    """One playthrough: player count, rules options, seed, and whether every seat asks for
    every battle decision."""

    name: str
    description: str
    players: int
    seed: int
    options: dict[str, str] = field(default_factory=dict)
    ask: bool = False


SPECS = (
    Spec("base_2p", "2 players and two Mercenary Armies, won by crowns", 2, 239),
    Spec("base_3p", "3 players and one Mercenary Army, to the round cap", 3, 301),
    Spec("base_4p", "4 players, won by crowns", 4, 403),
    Spec(
        "missions_ask_3p",
        "3 players, Kingdom Missions, every seat asks for every battle decision",
        3,
        303,
        {"missions": "true", "max_rounds": "12"},
        ask=True,
    ),
    Spec(
        "missions_ask_4p",
        "4 players, Kingdom Missions, every seat asks for every battle decision",
        4,
        418,
        {"missions": "true", "max_rounds": "12"},
        ask=True,
    ),
)


def record(spec: Spec) -> dict[str, Any]:
    """Play the spec's game and return its golden file's content."""
    game = GAME.configure(spec.options, spec.players)
    declarations = [dict(ASK_ALL) for _ in range(spec.players)] if spec.ask else []
    rng = random.Random(spec.seed)
    state = game.new_game(spec.seed, declarations)
    entries: list[dict[str, Any]] = []
    while (decision := game.decision(state)) is not None:
        picks = {
            seat: rng.choice(list(game.choices(game.legal_options(state, seat))))
            for seat in decision.seats
        }
        entries.extend(
            {"seat": seat, "action": game.action_to_dict(picks[seat])} for seat in sorted(picks)
        )
        state = game.apply_joint(state, picks).state
    header: dict[str, Any] = {
        "name": spec.name,
        "description": spec.description,
        "game": "europe",
        "players": spec.players,
        "rules": game.config(),
        "seed": spec.seed,
        "declarations": declarations,
        "actions": entries,
    }
    played = replay(header)
    for entry, step in zip(entries, played.steps, strict=True):
        entry["step"] = step
    header["outcome"] = played.outcome()
    header["final"] = {
        "turns": played.state.turns,
        "rounds": played.state.round,
        "events": len(played.events),
        "actions": len(entries),
    }
    header["digests"] = played.digests()
    return header


def dumps(record_: dict[str, Any]) -> str:
    """The file's text: the header fields indented, then one action per line."""
    head = {k: v for k, v in record_.items() if k != "actions"}
    lines = [f"  {json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}," for k, v in head.items()]
    actions = ",\n".join(
        "    " + json.dumps(e, separators=(",", ":"), sort_keys=True) for e in record_["actions"]
    )
    return "{\n" + "\n".join(lines) + '\n  "actions": [\n' + actions + "\n  ]\n}\n"


def retell(name: str) -> None:
    """Write ``golden/NAME.txt`` again from the recorded ``golden/NAME.json``, which stays as
    it is (the games are not played again)."""
    told = narrate(load(name))
    write(GOLDEN / f"{name}.txt", told)
    print(f"{name}: {len(told.encode()) // 1024} KB of text")


def main(args: list[str]) -> None:
    names = [a for a in args if a != TEXT_ONLY]
    known = {s.name for s in SPECS}
    unknown = sorted(set(names) - known)
    if unknown:
        raise SystemExit(f"unknown playthrough(s) {', '.join(unknown)}; known: {sorted(known)}")
    for spec in SPECS:
        if names and spec.name not in names:
            continue
        if TEXT_ONLY in args:
            retell(spec.name)
            continue
        game = record(spec)
        text = dumps(game)
        assert json.loads(text) == game
        (GOLDEN / f"{spec.name}.json").write_text(text, encoding="utf-8")
        told = narrate(game)
        write(GOLDEN / f"{spec.name}.txt", told)
        outcome, final = game["outcome"], game["final"]
        print(
            f"{spec.name}: {final['actions']} actions, {final['events']} events, "
            f"{final['rounds']} rounds, {outcome['termination']}, places {outcome['places']}, "
            f"{len(text) // 1024} KB + {len(told.encode()) // 1024} KB of text"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
