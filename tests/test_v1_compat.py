"""A bot built against the v1 contract keeps working, unchanged, against today's referee.

Two proofs, both from tests/fixtures/v1/ (see its README.md):

- The JavaScript bots and the .proto files exactly as they were at commit 697012b play real
  matches over gRPC against the live Python random bot: every seat ends OK without a strike
  and the replay verifies. (Needs Node ≥ 18 and npm; skipped without them.)
- A recorded byte-level v1 session (session-capital-2p.json, made by record_session.py) is
  replayed against the referee: the bot side's frames are sent byte for byte (only the
  Hello's token is replaced by the one the referee issues to the process), and every frame
  the referee sends, read with classes built from the fixture's v1 protos, must equal the
  recorded one field by field, but for the fields listed in ``VARYING``. The match must end
  with the recorded result.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message

from arena.catalog import read_spec
from arena.games import load
from arena.keys import bot_seed
from arena.referee.local import play
from arena.referee.match import MatchResult, TimeControl
from arena.replays.files import verify
from tests.fixtures.v1 import record_session, v1pb
from tests.node import node_major, set_up_js_bot

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests" / "fixtures" / "v1"
COMMIT = "697012b"
FROZEN = {
    "bots/js-heuristic/README.md": "51ac2f67027c372d255b5e883eb46fc30159a7eab87bec08e9c18b1a67974da2",
    "bots/js-heuristic/bot.js": "2c099fb644ab5d478b8e3ce6490805f778b954d625ffb876fe8f6d43c002be1f",
    "bots/js-heuristic/bot.toml": "fdaf33b9a140436d7df561569a0008625abc209ec08622e80683f3d2dc4d47a1",
    "bots/js-heuristic/package-lock.json": "bc0a858f8b38b8ed58d83f530ce4efcca49959a696f77896ff04b5f25aca816b",
    "bots/js-heuristic/package.json": "32ea37e444bee21e957c60fbc1b73844a07cc3b53a28daba7c66857e5460774a",
    "bots/js-random/bot.js": "bce04bdfb711475c4e1835da857be700827733c8077b5f9428dde04896b134bb",
    "bots/js-random/bot.toml": "630dfe8de2055e6edd07b94715b15dc959e4cf8483663b1b383010ae645d5d91",
    "bots/js-random/package-lock.json": "b4aa92d2170c6d0cd050fb61f7be46973712f83dc19840c588869609ee17290b",
    "bots/js-random/package.json": "ecb33de8f4d005520a6c88e4e2f197a75d3906c70e887239fc929f678497c9eb",
    "protos/riskarena/v1/arena.proto": "0aa392a71dc478449e7c21c3a44301e836c770a4a8d8fc89302c0095e6868d1b",
    "protos/riskarena/v1/classic.proto": "cde2d428cd1319726fe4bce9248cae5dac1839e42cea2988df873423263448d8",
}
"""Every frozen file of the fixture with its SHA-256 (the files of 697012b, byte for byte)."""

CONTROL = TimeControl(move_time=10.0, time_bank=120.0, startup_time=120.0)
"""Generous clocks: on a loaded machine Node takes seconds to start, and no bot is slow."""
ENDS = {"domination", "mission", "capitals", "round_limit"}

VARYING: dict[str, tuple[str, ...]] = {
    "welcome": ("referee_version",),  # the referee's release label, not part of the contract
    # A fresh random id per match; the bot seed is keyed by the installation's secret now
    # (checked below to be the keyed one), so it differs from the recording's.
    "match_start": ("match_id", "bot_seed"),
    "decision": ("match_id", "deadline_ms", "time_bank_ms", "server_time_ms"),  # clocks
    "match_end": ("match_id",),
}
"""Fields of the referee's frames that legitimately differ from run to run (by the member of
``RefereeMessage.message`` they sit in); every other field must equal the recording's. On
the bot side only ``Hello.token`` differs: the referee issues a fresh token per process."""


# ------------------------------------------------------------------ the frozen fixture


def test_the_fixture_holds_the_v1_files_unchanged() -> None:
    found = {
        str(p.relative_to(FIXTURE)): hashlib.sha256(p.read_bytes()).hexdigest()
        for folder in ("bots", "protos")
        for p in sorted((FIXTURE / folder).rglob("*"))
        if p.is_file() and "node_modules" not in p.relative_to(FIXTURE).parts
    }
    assert found == FROZEN


def test_the_fixture_files_are_those_of_the_commit() -> None:
    known = subprocess.run(
        ["git", "cat-file", "-e", f"{COMMIT}^{{commit}}"], cwd=REPO, capture_output=True
    )
    if shutil.which("git") is None or known.returncode != 0:
        pytest.skip(f"commit {COMMIT} is not in this checkout's history")
    for name in FROZEN:
        shown = subprocess.run(
            ["git", "show", f"{COMMIT}:{name}"], cwd=REPO, capture_output=True, check=True
        )
        assert shown.stdout == (FIXTURE / name).read_bytes(), name


@pytest.mark.parametrize("bot", ["js-random", "js-heuristic"])
def test_the_fixture_bots_load_the_fixture_protos(bot: str) -> None:
    """bot.js loads ``../../protos`` from its own folder: inside the fixture that is the
    frozen v1 protos, never the live ones."""
    source = (FIXTURE / "bots" / bot / "bot.js").read_text()
    assert 'path.join(__dirname, "..", "..", "protos")' in source
    assert (FIXTURE / "bots" / bot / ".." / ".." / "protos").resolve() == FIXTURE / "protos"


def test_fixture_node_modules_are_ignored_by_git() -> None:
    if shutil.which("git") is None:
        pytest.skip("no git")
    for bot in ("js-random", "js-heuristic"):
        path = f"tests/fixtures/v1/bots/{bot}/node_modules/@grpc/grpc-js/package.json"
        assert subprocess.run(["git", "check-ignore", "-q", path], cwd=REPO).returncode == 0


# ------------------------------------------------------- the v1 JavaScript bots play


@pytest.fixture(scope="module")
def js_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A results home where the fixture bots' setup (``npm ci``) ran once for the module."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("the v1 JavaScript bots need `node` and `npm` on PATH")
    major = node_major()
    if major is None or major < 18:
        pytest.skip(f"the v1 JavaScript bots need Node ≥ 18 (found {major})")
    home = tmp_path_factory.mktemp("arena-home")
    for bot in ("js-random", "js-heuristic"):
        # Once per checkout, under a lock: a second `npm ci` by another pytest worker would
        # delete node_modules under a bot this module is running.
        spec = read_spec(FIXTURE / "bots" / bot)
        set_up_js_bot(spec, home)
        assert (spec.path / "node_modules" / "@grpc" / "proto-loader").is_dir()
    return home


def _spec(name: str) -> Any:
    if name == "random":
        return read_spec(REPO / "bots" / "random")  # the live Python bot, over gRPC
    return read_spec(FIXTURE / "bots" / name)


@pytest.mark.parametrize(
    ("bots", "mode", "seed"),
    [
        (["js-random", "js-heuristic"], "capital", 4),
        (["js-heuristic", "random"], "world", 9),
        (["js-random", "js-heuristic", "random"], "mission", 5),
        (["random", "js-heuristic", "js-random"], "capital", 11),
    ],
)
def test_v1_javascript_bots_play_against_the_referee(
    js_home: Path,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    bots: list[str],
    mode: str,
    seed: int,
) -> None:
    monkeypatch.setenv("ARENA_HOME", str(js_home))
    game = load("classic").configure({"mode": mode, "max_rounds": "12"}, len(bots))
    specs = [_spec(b) for b in bots]
    assert all(
        s.path.is_relative_to(FIXTURE) for s, b in zip(specs, bots, strict=True) if b != "random"
    )
    replay = tmp_path / "replay.jsonl"
    result = play(game, specs, seed, CONTROL, replay)
    for seat in result.seats:
        assert (seat.status, seat.strikes) == ("OK", 0), (seat.to_dict(), seat.detail)
        assert seat.think_ms, f"seat {seat.seat} was never asked anything"
    assert [s.bot for s in result.seats] == bots
    assert result.end_reason in ENDS
    assert result.rules["mode"] == mode
    check = verify(replay)
    assert check.ok, check.message
    if mode == "capital":  # every seat made the secret headquarters choice (one joint record)
        records = [json.loads(line) for line in replay.read_text().splitlines()]
        chose = {
            a["seat"]
            for r in records
            if r.get("type") == "joint" and r["kind"] == "headquarters"
            for a in r["answers"]
        }
        assert chose == set(range(len(bots)))


# --------------------------------------------------- a recorded v1 session, replayed


SESSION = record_session.SESSION


@pytest.fixture(scope="module")
def v1() -> v1pb.V1:
    """The message classes of the fixture's v1 protos, compiled now with protoc."""
    return v1pb.load()


@pytest.fixture(scope="module")
def session() -> dict[str, Any]:
    return json.loads(SESSION.read_text())


def _frames(path: Path) -> list[dict[str, str]]:
    return record_session.read_frames(path)


def _data(frame: dict[str, str]) -> bytes:
    return base64.b64decode(frame["data"])


def _comparable(v1: v1pb.V1, data: bytes) -> dict[str, Any]:
    """A referee frame as v1 reads it, without the fields that vary from run to run.

    Fields a newer referee adds are unknown to v1 and invisible to a v1 bot: dropped too.
    """
    message = v1.RefereeMessage.FromString(data)
    message.DiscardUnknownFields()
    member = message.WhichOneof("message")
    assert member is not None, "a referee frame with no message a v1 bot knows"
    inner: Message = getattr(message, member)
    for name in VARYING.get(member, ()):
        inner.ClearField(name)
    return MessageToDict(message, preserving_proto_field_name=True)


def test_the_recorded_hello_reencodes_to_its_own_bytes(v1: v1pb.V1, session: dict) -> None:
    """So replacing the token (parse, set, serialise) changes that field and nothing else."""
    for stream in session["streams"]:
        first = stream["frames"][0]
        assert first["dir"] == "bot"
        hello = v1.BotMessage.FromString(_data(first))
        assert hello.WhichOneof("message") == "hello"
        assert hello.SerializeToString() == _data(first)
        assert hello.hello.protocol_version == 1


def test_the_recorded_session_covers_the_v1_contract(v1: v1pb.V1, session: dict) -> None:
    """The session exercises what a v1 bot meets: every decision kind of a 2-player capital
    game (the secret headquarters choice among them), answers by option index, a DebugText,
    the deprecated Hello.always_max_defence (seat 0 sets it and is never asked to defend)."""
    kinds: set[str] = set()
    sent: set[str] = set()
    for stream in session["streams"]:
        for frame in stream["frames"]:
            if frame["dir"] == "referee":
                message = v1.RefereeMessage.FromString(_data(frame))
                if message.WhichOneof("message") == "decision":
                    kinds.add(message.decision.kind)
                    if stream["seat"] == 0:
                        assert message.decision.kind != "defend"
            elif frame["dir"] == "bot":
                message = v1.BotMessage.FromString(_data(frame))
                member = message.WhichOneof("message")
                sent.add(member if member != "action" else message.action.WhichOneof("answer"))
    assert kinds >= {
        "place",
        "place_neutral",
        "headquarters",
        "reinforce",
        "attack",
        "defend",
        "occupy",
        "fortify",
        "trade",
        "reroll",
    }
    assert sent == {"hello", "option_index", "debug"}
    assert session["rules"]["mode"] == "capital"


def _replay_session(
    session: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[MatchResult, Path, list[list[dict[str, str]]]]:
    """Play the recorded match again with the session bots in replay mode."""
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setenv("ARENA_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARENA_V1_REPLAY", str(SESSION))
    monkeypatch.setenv("ARENA_V1_OUT", str(out))
    monkeypatch.delenv("ARENA_V1_RECORD", raising=False)
    players = session["players"]
    game = load("classic").configure(session["rules"], players)
    specs = [read_spec(folder) for folder in record_session.seat_folders()]
    replay = tmp_path / "replay.jsonl"
    result = play(game, specs, session["seed"], TimeControl(**session["control"]), replay)
    streams = [_frames(out / f"stream{k}.jsonl") for k in range(players)]
    return result, replay, streams


def test_a_recorded_v1_session_replays_byte_for_byte(
    v1: v1pb.V1, session: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    result, replay, live_streams = _replay_session(session, tmp_path, monkeypatch)
    for recorded_stream, live in zip(session["streams"], live_streams, strict=True):
        seat, recorded = recorded_stream["seat"], recorded_stream["frames"]
        assert [f["dir"] for f in live] == [f["dir"] for f in recorded], (
            f"seat {seat}: the referee sent {sum(f['dir'] == 'referee' for f in live)} frames, "
            f"the recording has {sum(f['dir'] == 'referee' for f in recorded)}; "
            f"first difference at frame {_first_difference(v1, recorded, live)}"
        )
        for number, (want, got) in enumerate(zip(recorded, live, strict=True)):
            where = f"seat {seat}, frame {number}"
            if want["dir"] == "bot":
                sent, expected = (
                    v1.BotMessage.FromString(_data(got)),
                    v1.BotMessage.FromString(_data(want)),
                )
                if number == 0:  # the Hello: only the token is the process's own
                    assert sent.hello.token and sent.hello.token != expected.hello.token
                    sent.hello.token = expected.hello.token
                    assert sent.SerializeToString() == _data(want), where
                else:
                    assert _data(got) == _data(want), where
            elif want["dir"] == "referee":
                assert _comparable(v1, _data(got)) == _comparable(v1, _data(want)), where
            else:
                assert got["code"] == want["code"] == "OK", where
        _check_varying(v1, [_data(f) for f in live if f["dir"] == "referee"], result.match_id)
    assert record_session.summary(result) == session["result"]
    check = verify(replay)
    assert check.ok, check.message


def _first_difference(v1: v1pb.V1, recorded: list[dict], live: list[dict]) -> int | None:
    for number, (want, got) in enumerate(zip(recorded, live, strict=False)):
        if want["dir"] != got["dir"]:
            return number
        if want["dir"] == "referee" and _comparable(v1, _data(got)) != _comparable(v1, _data(want)):
            return number
    return min(len(recorded), len(live))


def _check_varying(v1: v1pb.V1, frames: list[bytes], match_id: str) -> None:
    """The fields left out of the comparison are still there and make sense."""
    messages = [v1.RefereeMessage.FromString(data) for data in frames]
    assert messages[0].welcome.referee_version and messages[0].welcome.protocol_version == 1
    assert messages[1].match_start.match_id == match_id
    start = messages[1].match_start
    assert start.bot_seed == bot_seed(record_session.SEED, start.seat)
    assert messages[-1].match_end.match_id == match_id
    decisions = [m.decision for m in messages if m.WhichOneof("message") == "decision"]
    assert decisions
    for decision in decisions:
        assert decision.match_id == match_id
        assert decision.deadline_ms > 0 and decision.server_time_ms > 0
