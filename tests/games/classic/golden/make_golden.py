"""Record the golden playthroughs of the classic game (run deliberately, never by the tests).

Usage, from the repository root::

    .venv/bin/python -m tests.games.classic.golden.make_golden            # every playthrough
    .venv/bin/python -m tests.games.classic.golden.make_golden world_3p   # just these
    .venv/bin/python -m tests.games.classic.golden.make_golden --text     # only the texts

Each playthrough is a match of bundled in-process bots (``random``, ``aggressive``,
``planner``) played by :func:`arena.referee.match.play_match` without clocks. ``planner`` is
the frozen reference (the former ``strong`` 1.0), so the playthroughs stay put when the top
bot changes; files recorded before it existed name ``strong`` in their ``bots`` field, the
same code. A match's replay's decision and forfeit records become the file's action list
(plain dicts from :func:`action_to_dict`, each with the seat that played it); the list is
then replayed through the validating engine by ``test_golden.replay`` to compute the pinned
digests, which must agree with the match's own final state. Two files are written per
playthrough: ``golden/NAME.json`` (the game and its digests) and ``golden/NAME.txt``, the
game told decision by decision by ``test_golden.narrate``; the digests are printed.

Regenerating changes the pinned digests and the texts: do it only when a change of
behaviour is intended, read ``git diff tests/games/classic/golden/*.txt`` to check that the
games changed the way meant, and say so in the commit. After a change of wording only (the
narrator's, or the text's layout in ``tests/golden_text.py``), ``--text`` tells the recorded
games again without playing them: the ``.json`` files, and so every digest, stay as they are.
"""

from __future__ import annotations

import json
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.catalog import find_bot, load_bot
from arena.games.classic import ClassicConfig, ClassicRules
from arena.games.classic.game import ClassicGame
from arena.referee.match import play_match
from arena.replays.files import read
from arena.sdk import Bot, Request
from tests.games.classic.test_golden import (
    GOLDEN,
    canonical_state,
    digest,
    load,
    narrate,
    replay,
)
from tests.golden_text import write

TEXT_ONLY = "--text"
"""Only tell the recorded games again (``NAME.txt``), leaving ``NAME.json`` as it is."""


@dataclass(frozen=True)
class Spec:
    """One playthrough: rules, seed and the bots per seat; ``crash`` = (seat, decision) makes
    that seat's bot raise at its n-th decision (a forfeit in the record)."""

    name: str
    description: str
    players: int
    seed: int
    bots: tuple[str, ...]
    options: dict[str, str] = field(default_factory=dict)
    crash: tuple[int, int] | None = None


SPECS = (
    Spec(
        "world_2p",
        "2 players and the neutral army, world domination, full game",
        2,
        201,
        ("random", "aggressive"),
    ),
    Spec("world_3p", "3 players, world domination", 3, 301, ("random", "aggressive", "planner")),
    Spec(
        "world_6p",
        "6 players, world domination, capped",
        6,
        601,
        ("random", "planner", "random", "aggressive", "random", "planner"),
        {"max_rounds": "12"},
    ),
    Spec(
        "mission_4p",
        "Secret Mission RISK, 4 players",
        4,
        401,
        ("planner", "random", "aggressive", "random"),
        {"mode": "mission"},
    ),
    Spec(
        "capital_full_4p",
        "Capital RISK, every opposing HQ, 4 players",
        4,
        402,
        ("aggressive", "planner", "random", "planner"),
        {"mode": "capital"},
    ),
    Spec(
        "capital_short_5p",
        "Capital RISK, short goal (3 HQs), 5 players",
        5,
        501,
        ("random", "planner", "aggressive", "random", "planner"),
        {"mode": "capital", "capital_goal": "short"},
    ),
    Spec(
        "sets_progressive_3p",
        "progressive card sets, 3 players",
        3,
        302,
        ("random", "random", "aggressive"),
        {"sets": "progressive", "max_rounds": "40"},
    ),
    Spec(
        "sets_fixed_4p",
        "card sets valued by type, 4 players",
        4,
        403,
        ("random", "aggressive", "random", "random"),
        {"sets": "fixed", "max_rounds": "40"},
    ),
    Spec(
        "advantage_reroll_3p",
        "advantage re-roll (asked of random bots, automatic for the others), 3 players",
        3,
        303,
        ("random", "random", "aggressive"),
        {"advantage_reroll": "true", "max_rounds": "25"},
    ),
    Spec(
        "fortify_connected_4p",
        "fortify along chains of own territories, 4 players",
        4,
        404,
        ("random", "planner", "random", "aggressive"),
        {"fortify": "connected", "max_rounds": "30"},
    ),
    Spec(
        "deal_random_3p",
        "territories dealt at random, 3 players",
        3,
        304,
        ("aggressive", "random", "planner"),
        {"deal": "random"},
    ),
    Spec(
        "forfeit_4p",
        "4 players, one bot crashes in the middle of the game and forfeits",
        4,
        405,
        ("random", "random", "random", "aggressive"),
        {"max_rounds": "30"},
        crash=(1, 40),
    ),
)


def crashing(bot: Bot, after: int) -> Bot:
    """``bot``, made to raise at its ``after``-th decision."""
    calls = {"n": 0}
    choose = bot.choose

    def choose_or_crash(request: Request) -> Any:
        calls["n"] += 1
        if calls["n"] >= after:
            raise RuntimeError("golden playthrough: planned crash")
        return choose(request)

    bot.choose = choose_or_crash  # type: ignore[method-assign]
    return bot


def record(spec: Spec) -> dict[str, Any]:
    """Play the spec's match and return its golden file's content."""
    rules = ClassicRules(ClassicConfig.parse(spec.options, spec.players))
    bots = [load_bot(find_bot(name)) for name in spec.bots]
    if spec.crash is not None:
        seat, after = spec.crash
        bots[seat] = crashing(bots[seat], after)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "match.jsonl"
        result = play_match(ClassicGame(rules.config), bots, spec.seed, replay_path=path)
        header, records = read(path)
    entries: list[dict[str, Any]] = []
    for r in records:
        if r["type"] == "decision":
            entries.append({"seat": r["seat"], "action": r["action"]})
        elif r["type"] == "joint":  # a simultaneous decision: its answers in seat order
            entries.extend({"seat": a["seat"], "action": a["action"]} for a in r["answers"])
        elif r["type"] == "forfeit":
            entries.append({"seat": r["seat"], "forfeit": True})
        elif r["type"] in ("timeout", "rejected"):
            raise SystemExit(f"{spec.name}: the match had a {r['type']} record; pick another seed")
    game: dict[str, Any] = {
        "name": spec.name,
        "description": spec.description,
        "game": "classic",
        "players": spec.players,
        "rules": rules.config.to_dict(),
        "seed": spec.seed,
        "always_max": header["always_max"],
        "bots": list(spec.bots),
        "actions": entries,
    }
    played = replay(game)
    # The recording is faithful: the replayed game ends where the referee's match ended.
    if digest(canonical_state(played.state)) != digest(canonical_state(result.final)):
        raise SystemExit(f"{spec.name}: the replayed final state differs from the match's")
    game["outcome"] = played.outcome()
    game["final"] = {
        "turns": played.state.turns,
        "rounds": played.state.round,
        "events": len(played.events),
        "actions": len(entries),
    }
    game["digests"] = played.digests()
    return game


def dumps(game: dict[str, Any]) -> str:
    """The file's text: the header fields indented, then one action per line."""
    head = {k: v for k, v in game.items() if k != "actions"}
    lines = [f"  {json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}," for k, v in head.items()]
    actions = ",\n".join(
        "    " + json.dumps(e, separators=(",", ":"), sort_keys=True) for e in game["actions"]
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
            f"{len(text) // 1024} KB + {len(told.encode()) // 1024} KB of text\n"
            f"  state  {game['digests']['state']}\n  events {game['digests']['events']}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
