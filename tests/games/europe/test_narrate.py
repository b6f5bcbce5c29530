"""RISK: Europe replays in words (``arena replay show``): seeded matches narrated turn by
turn, every event type the engine emits told in words (never as raw JSON), and the wording
of the events random bots rarely or never cause."""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena import games
from arena.cli import main
from arena.games.europe import narrate
from arena.games.europe.board import europe_board
from arena.games.europe.narrate import Narrator, replay_blocks

Capsys = pytest.CaptureFixture[str]
ENGINE = Path(narrate.__file__).parent
EMITTERS = ("rules.py", "orders.py", "battle.py", "missions.py")
GAMES = [(2 + seed % 3, seed % 2 == 1, seed) for seed in range(1, 21)]
"""(players, missions, seed) of the 20 seeded games every event of which is told."""


def play(home: Path, players: int, seed: int, *rules: str) -> Path:
    """A seeded in-process match of random bots; its replay file."""
    bots = [arg for _ in range(players) for arg in ("--bot", "random")]
    options = [arg for rule in rules for arg in ("--rules", rule)]
    argv = ["match", "--game", "europe", *bots, "--in-process", "--json", "--seed", str(seed)]
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ARENA_HOME", str(home))
        with contextlib.redirect_stdout(out):
            assert main([*argv, *options]) == 0
    return Path(json.loads(out.getvalue())["replay"])


def load(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return lines[0], lines[1:]


def told(path: Path) -> list[list[str]]:
    header, records = load(path)
    return list(replay_blocks(header, records))


@pytest.fixture(scope="module")
def replays(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, bool, int], Path]:
    """The 20 seeded games' replays, played once for the module."""
    home = tmp_path_factory.mktemp("results")
    return {
        (players, missions, seed): play(home, players, seed, f"missions={str(missions).lower()}")
        for players, missions, seed in GAMES
    }


@pytest.fixture(scope="module")
def seed3(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play(tmp_path_factory.mktemp("results"), 4, 3)


def lines_of(blocks: list[list[str]]) -> Iterator[str]:
    """Every printed line."""
    for block in blocks:
        yield from block


def logical(block: list[str]) -> list[str]:
    """A block's lines with wrapped ones joined again (a continuation is indented 4 more)."""
    joined: list[str] = []
    for line in block:
        if joined and line.startswith("    "):
            joined[-1] += " " + line.strip()
        else:
            joined.append(line)
    return joined


def said(blocks: list[list[str]]) -> str:
    """The narration with wrapped lines joined, one line per event."""
    return "\n".join(line for block in blocks for line in logical(block))


# ------------------------------------------------------------ a seeded replay


def test_a_seeded_replay_tells_the_setup_rounds_turns_battles_and_the_end(seed3: Path):
    blocks = told(seed3)
    text = said(blocks)
    setup = logical(blocks[0])
    assert setup[0] == (
        "  Bids for the First Player Marker: random (seat 0) 4, random (seat 1) 4, "
        "random (seat 2) 1, random (seat 3) 4"
    )
    assert setup[1:3] == [
        "  Tie for the First Player Marker: rolls random (seat 0) 3, random (seat 1) 5, "
        "random (seat 3) 2",
        "  random (seat 1) takes the First Player Marker for 4 coins",
    ]
    assert setup[3] == (
        "  random (seat 1) founds a kingdom in Berlin (Saxony) with 7 footmen and 3 in "
        "Lorraine, a castle (+4 coins)"
    )
    assert logical(blocks[1])[0] == (
        "Round 1 · turn order: random (seat 1), random (seat 2), random (seat 3), random (seat 0)"
    )
    assert "  random (seat 0) chose 2 cards" in blocks[1]
    assert blocks[2][0] == (
        "Round 1 · turn 1 · random (seat 1) reveals card 7 (split expand or manoeuvre)"
    )
    assert "  King Me: random (seat 3) takes the First Player Marker" in text
    assert "  Spend 7 coins: 7 footmen in Polotsk" in text
    assert "  Spend 9 coins: castle in Denmark" in text
    assert "  Expand: Rusland → Polotsk with 2 footmen (claims Polotsk)" in text
    assert "  Expand: Pomerania → Poland with 1 footman (claims Poland and Warsaw: +2 coins)" in (
        text
    )
    assert "  Split Expand: Polotsk → Poland with 5 footmen (challenges random (seat 1))" in text
    assert "  Manoeuvre: Lorraine → Saxony with 3 footmen" in text
    assert "  Tax Berlin: 8 coins (network of 5 territories)" in text
    assert re.search(
        r"Tax Paris: \d+ coins \(network of \d+ territories; Officer in Training", text
    )
    assert re.search(r"  Fortify \w+: \+\d footmen", text)
    battle = next(b for b in blocks if b[0].startswith("Round 5 · battle for Poland"))
    assert battle == [
        "Round 5 · battle for Poland: random (seat 0) (5 footmen) attacks random (seat 1) "
        "(2 footmen, 2",
        "    cavalry)",
        "  Rank 3, cavalry: attacker no dice → 0 hits; defender 5 4 → 2 hits",
        "  random (seat 0) loses 2 footmen",
        "  Rank 4, general attack: attacker 4 3 2 → 0 hits; defender 5 3 → 2 hits",
        "  random (seat 0) loses 2 footmen",
        "  Rank 3, cavalry (repetition 2): attacker no dice → 0 hits; defender 6 1 → 1 hit",
        "  random (seat 0) loses 1 footman",
        "  random (seat 1) holds Poland",
    ]
    assert re.search(r"  Rank 4, general attack.*: attacker [1-6 ]+ → \d hits?; defender", text)
    assert re.search(r"  random \(seat \d\) takes \w+", text)
    assert (
        "End of round 1\n  Crowns: random (seat 0) 1, random (seat 1) 1, random (seat 2) 2, "
        in text
    )
    assert logical(blocks[-1])[-2:] == [
        "  Game over: the round limit is reached",
        "Result after 30 rounds: winner random (seat 3); places: random (seat 0) 4th, "
        "random (seat 1) 3rd, random (seat 2) 2nd, random (seat 3) 1st",
    ]
    assert all(len(line) <= narrate.WIDTH for line in lines_of(blocks))


def test_siege_weapons_are_told_with_their_dice(replays: dict[tuple[int, bool, int], Path]):
    told_all = "\n".join(said(told(path)) for path in replays.values())
    assert re.search(r"  Siege Assault: .+ → .+'s .+: \d+ dice [1-6 ]+, \d hits?", told_all)
    assert re.search(r"  Rank 1, siege weapons \(repetition \d+\)", told_all)


def test_a_round_has_a_block_per_turn_and_battle_and_one_for_its_end(seed3: Path):
    heads = [logical(block)[0] for block in told(seed3)[1:] if block]
    first = heads[: heads.index("End of round 1") + 1]
    assert [h.split(" · ")[1] for h in first[1:-1]] == ["turn 1"] * 4 + ["turn 2"] * 4
    rounds = [h for h in heads if re.fullmatch(r"Round \d+ · turn order: .*", h)]
    ends = [h for h in heads if h.startswith("End of round")]
    assert len(rounds) == len(ends) == 30


def test_mercenary_armies_bids_controllers_and_missions_are_told(tmp_path: Path):
    text = said(told(play(tmp_path, 2, 4, "missions=true")))
    assert (
        "Round 1 · turn order: random (seat 0), random (seat 1), mercenary army 2, mercenary army 3"
    ) in text
    assert (
        "  Mercenary bids: army 2: random (seat 0) 0, random (seat 1) 0; army 3: random "
        "(seat 0) 2, random (seat 1) 1"
    ) in text
    assert "  mercenary army 2: no bid, nobody controls it this round" in text
    assert "  random (seat 0) controls mercenary army 3 this round (2 coins)" in text
    assert "  random (seat 0) chose 2 cards for mercenary army 3" in text
    assert "mercenary army 3 (played by random (seat 0)) reveals card 3" in text
    assert "  random (seat 0) kept a mission" in text
    assert re.search(
        r"completes a mission \(\+1 crown; from next round \+\d \w+ on each \w+\): .+\.", text
    )


# ------------------------------------------------------------ every event type


def engine_event_types() -> set[str]:
    """Every event type the engine's modules build (``{"type": "..."}`` literals)."""
    found: set[str] = set()
    for name in EMITTERS:
        found |= set(re.findall(r'"type": "(\w+)"', (ENGINE / name).read_text(encoding="utf-8")))
    return found


def test_every_event_type_the_engine_emits_has_its_wording():
    types = engine_event_types()
    assert {"bids", "expand", "rank", "battle_end", "round_end", "game_over"} <= types
    assert {t for t in types if not hasattr(Narrator, f"_{t}")} == set()


def test_twenty_seeded_games_are_told_without_raw_events(replays: dict[Any, Path]):
    seen: set[str] = set()
    for path in replays.values():
        header, records = load(path)
        seen |= {e["type"] for r in records for e in r.get("events", [])}
        blocks = list(replay_blocks(header, records))
        for line in lines_of(blocks):
            assert '"' not in line and "{" not in line and "type" not in line, line
            assert len(line) <= narrate.WIDTH, line
        turns = sum(1 for r in records for e in r.get("events", []) if e["type"] == "turn")
        assert sum(1 for b in blocks if b and " reveals card " in logical(b)[0]) == turns
    assert {t for t in seen if not hasattr(Narrator, f"_{t}")} == set()
    assert {"mercenary_bids", "mission_kept", "mission_completed", "siege_assault"} <= seen


def test_split_expand_legs_are_told_as_split_expand(replays: dict[Any, Path]):
    """Each leg of an expand is told under its turn's order (a Split Expand's both legs)."""
    splits = 0
    for path in replays.values():
        _, records = load(path)
        legs = [line for line in said(told(path)).splitlines() if "Expand: " in line]
        told_as = ["split_expand" if "  Split Expand: " in line else "expand" for line in legs]
        orders = list(_expand_orders([e for r in records for e in r.get("events", [])]))
        assert told_as == orders
        splits += orders.count("split_expand")
    assert splits > 100


def _expand_orders(events: list[dict[str, Any]]) -> Iterator[str]:
    """The order of the turn each expand event belongs to."""
    order = "none"
    for event in events:
        if event["type"] == "turn":
            order = event["order"]
        elif event["type"] == "expand":
            yield order


def test_a_claimed_city_is_named_once_when_its_territory_has_its_name(
    replays: dict[Any, Path],
):
    text = "\n".join(said(told(path)) for path in replays.values())
    assert re.search(r"Expand: \w+ → Rome with .+ \(claims Rome: \+\d+ coins\)", text)
    assert "claims Rome and Rome" not in text
    assert re.search(r"\(claims Poland and Warsaw: \+2 coins\)", text)


def test_free_units_cut_short_by_the_reserve_say_so(replays: dict[Any, Path]):
    text = "\n".join(said(told(path)) for path in replays.values())
    assert not re.search(r"\+0 |\+no units", text)
    assert re.search(r"  Fortify [\w ]+: no footmen \(none left in the army reserve\)", text)
    assert re.search(
        r"Fortify [\w ]+: \+[12] footm[ae]n \(the army reserve had no more footmen\)", text
    )
    assert re.search(r"; [\w ]+: no \w+ \(none left in the army reserve\)", text)


@pytest.mark.parametrize(
    ("seed", "tie"),
    [
        pytest.param(
            4,
            "random (seat 0) and random (seat 2) tie on 3 crowns: random (seat 0) wins the "
            "tie-break on territories (6 to 5)",
            id="on-territories",
        ),
        pytest.param(
            3,
            "random (seat 0) and random (seat 1) tie on 3 crowns: random (seat 1) wins the "
            "tie-break on coins (19 to 18, the First Player Marker counting 10 coins)",
            id="on-coins-with-the-marker",
        ),
    ],
)
def test_a_win_on_the_tie_break_says_so(tmp_path: Path, seed: int, tie: str):
    blocks = told(play(tmp_path, 3, seed, "max_rounds=2"))
    assert logical(blocks[-1])[-2] == f"  Game over: the round limit is reached; {tie}"


def test_a_win_on_crowns_alone_tells_no_tie_break(seed3: Path):
    assert logical(told(seed3)[-1])[-2] == "  Game over: the round limit is reached"


def test_an_unknown_event_is_still_told_in_one_line():
    narrator = Narrator(["a", "b"], 2)
    assert narrator.event({"type": "comet", "army": 1}) == "comet: army 1"


# ------------------------------------------------------------ rare events


def name(territory: str) -> int:
    return europe_board().index(territory)


def test_the_wording_of_events_random_bots_rarely_cause():
    narrator = Narrator(["ann", "bob"], 2)
    narrator.round = 7
    france, normandy, saxony = name("France"), name("Normandy"), name("Saxony")
    tell = narrator.event
    assert (
        tell(
            {
                "type": "manoeuvre",
                "army": 0,
                "source": saxony,
                "target": france,
                "units": [2, 0, 1, 1],
                "free": True,
            }
        )
        == "Berlin's free manoeuvre: Saxony → France with 2 footmen, 1 cavalry, 1 siege weapon"
    )
    tie = {"type": "tie_roll", "for": "mercenary 3", "seats": [0, 1], "dice": [4, 6]}
    assert tell(tie) == "Tie for mercenary army 3: rolls ann 4, bob 6"
    assert tell({"type": "battle_order", "territories": [normandy, france]}) == (
        "Round 7 · battles in the order chosen: Normandy, France"
    )
    assert tell(
        {
            "type": "battle",
            "territory": france,
            "attacker": 3,
            "defender": 0,
            "attacker_units": [1, 1, 0, 0],
            "defender_units": [0, 0, 0, 2],
            "castle": True,
        }
    ) == (
        "Round 7 · battle for France: mercenary army 3 (1 footman, 1 archer) attacks ann "
        "(2 siege weapons, behind a castle)"
    )
    assert (
        tell({"type": "reroll", "territory": france, "rank": 1, "old": [1, 2], "dice": [6, 3]})
        == "Castle re-roll at rank 1: the defender's 1 2 become 6 3"
    )
    assert tell({"type": "casualties", "territory": france, "army": 3, "units": [1, 1, 0, 0]}) == (
        "mercenary army 3 loses 1 footman, 1 archer"
    )
    end = {"type": "battle_end", "territory": france, "attacker": 3, "defender": 0, "raid": 0}
    assert tell({**end, "winner": -1}) == "Both sides are wiped out: France is left unclaimed"
    assert tell({**end, "winner": 3, "raid": 4}) == (
        "mercenary army 3 takes France (Raid & Pillage: +4 coins)"
    )
    assert tell({"type": "saved_by_the_crown", "army": 1}) == (
        "bob holds no city but is saved by the crown for a round"
    )
    assert tell({"type": "eliminated", "army": 1, "why": "forfeit"}) == (
        "bob is eliminated (forfeit)"
    )
    assert tell({"type": "round_end", "round": 7, "crowns": [3, 0, 2, 1]}) == (
        "Crowns: ann 3, mercenary army 2 2, mercenary army 3 1"
    )
    assert tell(
        {
            "type": "spend",
            "army": 0,
            "cost": 32,
            "castles": [normandy],
            "crown": True,
            "recruits": [{"territory": name("Turkey"), "units": [0, 0, 0, 1], "free": 4}],
        }
    ) == (
        "Spend 32 coins: castle in Normandy; 1 siege weapon in Constantinople "
        "(Siege Escort: +4 footmen); a crown card"
    )
    assert tell({"type": "turn", "army": 0, "order": "none", "bonus": "fortify"}) == (
        "No order (bonus action only)"
    )
    assert tell({"type": "turn", "army": 0, "order": "tax", "bonus": "none"}) is None
    assert tell(
        {
            "type": "tax",
            "army": 0,
            "city": name("England"),
            "network": [name("England")],
            "coins": 3,
            "tiles": [{"tile": "london", "territory": name("England"), "units": [0, 2, 0, 0]}],
        }
    ) == ("Tax London: 3 coins (network of 1 territory; Welsh Archers: +2 archers)")


def test_rejected_answers_timeouts_and_forfeits_are_told_in_their_block():
    header = {"seats": [{"bot": "ann"}, {"bot": "bob"}], "rules": {"players": 2}}
    records = [
        {"type": "rejected", "seat": 1, "reason": "bid 0-5 coins, not 9"},
        {"type": "timeout", "seat": 0},
        {
            "type": "forfeit",
            "seat": 1,
            "status": "ILLEGAL",
            "detail": "3 strikes",
            "events": [
                {"type": "eliminated", "army": 1, "why": "forfeit"},
                {"type": "game_over", "end": "elimination"},
            ],
        },
        {"type": "result", "places_by_seat": [1, 2], "winner": 0, "end": "elimination"},
    ]
    assert list(replay_blocks(header, records)) == [
        [
            "  ✗ bob's answer rejected: bid 0-5 coins, not 9",
            "  ⏱ ann ran out of time",
            "  bob forfeits (ILLEGAL: 3 strikes)",
            "  bob is eliminated (forfeit)",
            "  Game over: one player is left",
            "Result: winner ann; places: ann 1st, bob 2nd",
        ]
    ]


# ------------------------------------------------------------ the CLI


def test_arena_replay_show_tells_a_europe_replay_in_words(capsys: Capsys, seed3: Path):
    assert games.narrator("europe") is replay_blocks
    code = main(["replay", "show", str(seed3)])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == (
        "europe · seed 3 · seat 0: random, seat 1: random, seat 2: random, seat 3: random"
    )
    assert lines[1].startswith("  Bids for the First Player Marker: ")
    assert "Round 1 · turn order: " in out and "  Game over: " in out
    assert '{"type"' not in out
