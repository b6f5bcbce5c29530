"""Seeds: a seat's bot_seed is keyed by the installation's secret, so nothing a seat receives
leads back to the match seed; the key is private and made once; default seeds use 63 bits;
replay files are private to the referee's user."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import stat
import sys
import threading
from pathlib import Path

import pytest

from arena import seeds
from arena.cli import main
from arena.referee.launcher import Limits, launch


def test_bot_seeds_are_an_hmac_under_the_installation_key(tmp_path: Path) -> None:
    key = seeds.installation_key(tmp_path)
    assert len(key) == seeds.KEY_BYTES
    mac = hmac.new(key, b"1234/bot/2", hashlib.sha256).digest()
    assert seeds.bot_seed(1234, 2, key) == int.from_bytes(mac[:8], "big")
    unkeyed = int.from_bytes(hashlib.sha256(b"1234/bot/2").digest()[:8], "big")
    assert seeds.bot_seed(1234, 2, key) != unkeyed  # the old, guessable derivation
    assert seeds.bot_seed(1234, 2, key) == seeds.bot_seed(1234, 2, key)  # deterministic
    assert seeds.bot_seed(1234, 2, key) != seeds.bot_seed(1234, 3, key)
    assert seeds.bot_seed(1234, 2, key) != seeds.bot_seed(1234, 2, bytes(32))  # per install


def test_the_key_file_is_private_and_kept(tmp_path: Path) -> None:
    first = seeds.installation_key(tmp_path)
    path = tmp_path / seeds.KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    seeds._KEYS.clear()  # a new process reads the same key back
    assert seeds.installation_key(tmp_path) == first == path.read_bytes()


def test_processes_making_the_key_at_once_agree_on_one(tmp_path: Path) -> None:
    keys: list[bytes] = []

    def make() -> None:
        seeds._KEYS.pop((tmp_path / seeds.KEY_FILE).resolve(), None)
        keys.append(seeds.installation_key(tmp_path))

    threads = [threading.Thread(target=make) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(keys)) == 1 and keys[0] == (tmp_path / seeds.KEY_FILE).read_bytes()


def test_a_damaged_key_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / seeds.KEY_FILE).write_bytes(b"short")
    seeds._KEYS.clear()
    with pytest.raises(seeds.ConfigError, match="holds 5 bytes, not 32: remove it"):
        seeds.installation_key(tmp_path)


def test_default_seeds_are_drawn_from_63_bits() -> None:
    drawn = [seeds.new_seed() for _ in range(64)]
    assert all(0 <= s < 2**63 for s in drawn)
    assert max(drawn) >= 2**40  # 64 draws all below 2**40 would happen with odds 2**-1472


def test_a_match_replay_is_private_and_its_bot_seeds_are_keyed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["match", "--bot", "random", "--bot", "random", "--in-process", "--json"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    replay = Path(result["replay"])
    assert stat.S_IMODE(replay.stat().st_mode) == 0o600
    assert stat.S_IMODE(replay.parent.stat().st_mode) == 0o700
    assert result["seed"] < 2**63
    key = bytes.fromhex(os.environ[seeds.KEY_ENV])  # the tests' shared installation key
    assert seeds.installation_key() == key


def test_a_key_shared_through_the_environment_wins_and_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(seeds.KEY_ENV, "ab" * 32)
    assert seeds.installation_key() == bytes([0xAB]) * 32
    assert not (Path(os.environ["ARENA_HOME"]) / seeds.KEY_FILE).exists()  # no file made
    monkeypatch.setenv(seeds.KEY_ENV, "not hex")
    with pytest.raises(seeds.ConfigError, match="ARENA_SECRET must be 64 hex digits"):
        seeds.installation_key()


def test_a_bot_process_never_gets_the_installation_key(tmp_path: Path) -> None:
    """The key is in the referee's environment (the tests set it); a bot's is without it."""
    assert os.environ.get(seeds.KEY_ENV)
    log = tmp_path / "bot.log"
    probe = "import os, sys; print(os.environ.get('ARENA_SECRET', 'absent'), file=sys.stderr)"

    async def run() -> None:
        process = await launch([sys.executable, "-c", probe], tmp_path, {}, log, Limits())
        assert await process.wait_exit(60)
        await process.kill()  # ends the log copy too

    asyncio.run(run())
    assert log.read_text().strip() == "absent"
