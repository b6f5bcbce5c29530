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

from arena import keys, seeds
from arena.cli import main
from arena.sandbox import launcher
from arena.sandbox.launcher import Limits, launch


def test_bot_seeds_are_an_hmac_under_the_installation_key(tmp_path: Path) -> None:
    key = keys.installation_key(tmp_path)
    assert len(key) == keys.KEY_BYTES
    mac = hmac.new(key, b"1234/bot/2", hashlib.sha256).digest()
    assert keys.bot_seed(1234, 2, key) == int.from_bytes(mac[:8], "big")
    unkeyed = int.from_bytes(hashlib.sha256(b"1234/bot/2").digest()[:8], "big")
    assert keys.bot_seed(1234, 2, key) != unkeyed  # the old, guessable derivation
    assert keys.bot_seed(1234, 2, key) == keys.bot_seed(1234, 2, key)  # deterministic
    assert keys.bot_seed(1234, 2, key) != keys.bot_seed(1234, 3, key)
    assert keys.bot_seed(1234, 2, key) != keys.bot_seed(1234, 2, bytes(32))  # per install


def test_the_key_file_is_private_and_kept(tmp_path: Path) -> None:
    first = keys.installation_key(tmp_path)
    path = tmp_path / keys.KEY_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    keys._KEYS.clear()  # a new process reads the same key back
    assert keys.installation_key(tmp_path) == first == path.read_bytes()


def test_processes_making_the_key_at_once_agree_on_one(tmp_path: Path) -> None:
    made: list[bytes] = []

    def make() -> None:
        keys._KEYS.pop((tmp_path / keys.KEY_FILE).resolve(), None)
        made.append(keys.installation_key(tmp_path))

    threads = [threading.Thread(target=make) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(made)) == 1 and made[0] == (tmp_path / keys.KEY_FILE).read_bytes()


def test_a_damaged_key_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / keys.KEY_FILE).write_bytes(b"short")
    keys._KEYS.clear()
    with pytest.raises(keys.ConfigError, match="holds 5 bytes, not 32: remove it"):
        keys.installation_key(tmp_path)


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
    key = bytes.fromhex(os.environ[keys.KEY_ENV])  # the tests' shared installation key
    assert keys.installation_key() == key


def test_a_key_shared_through_the_environment_wins_and_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(keys.KEY_ENV, "ab" * 32)
    assert keys.installation_key() == bytes([0xAB]) * 32
    assert not (Path(os.environ["ARENA_HOME"]) / keys.KEY_FILE).exists()  # no file made
    monkeypatch.setenv(keys.KEY_ENV, "not hex")
    with pytest.raises(keys.ConfigError, match="ARENA_SECRET must be 64 hex digits"):
        keys.installation_key()


def test_a_bot_process_gets_a_scrubbed_environment_and_a_private_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Never the installation key (the tests set it), nor where the results are, nor anything
    else of the referee's but the locale, PATH and ARENA_* settings; HOME and TMPDIR are a
    private folder, removed with the process."""
    assert os.environ.get(keys.KEY_ENV)
    monkeypatch.setenv("SOME_REFEREE_SECRET", "x")
    monkeypatch.setenv("ARENA_TEST_SETTING", "passed")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    log = tmp_path / "bot.log"
    probe = "import json, os, sys; print(json.dumps(dict(os.environ)), file=sys.stderr)"
    homes = []

    async def run() -> None:
        extra = {"ARENA_TOKEN": "t", "PATH": os.environ["PATH"]}
        process = await launch([sys.executable, "-c", probe], tmp_path, extra, log, Limits())
        assert await process.wait_exit(60)
        assert process.home is not None and process.home.is_dir()
        homes.append(process.home)
        await process.kill()  # ends the log copy, removes the home

    asyncio.run(run())
    env = json.loads(log.read_text())
    assert keys.KEY_ENV not in env and "ARENA_HOME" not in env
    assert "SOME_REFEREE_SECRET" not in env
    assert env["ARENA_TEST_SETTING"] == "passed" and env["LC_ALL"] == "C.UTF-8"
    assert env["ARENA_TOKEN"] == "t" and env["HOME"] == env["TMPDIR"] == str(homes[0])
    assert set(env) <= {*launcher.PASSED, "HOME", "TMPDIR", "ARENA_TOKEN", "LC_ALL",
                        "ARENA_TEST_SETTING", "LC_CTYPE", "PWD", "SHLVL", "_"}  # fmt: skip
    assert not homes[0].exists()
