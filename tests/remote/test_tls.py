"""``arena serve --tls-cert --tls-key``: the Python SDK and the JavaScript bot dial in over
TLS when ``ARENA_TLS_ROOTS`` names the trusted roots; a plaintext client is not served.
The certificate is made here, by the ``openssl`` command, for 127.0.0.1."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import grpc
import pytest

from arena.catalog import find_bot
from arena.results.store import open_store
from tests.node import set_up_js_bot
from tests.remote import BOTS, arena, handshake, remote, serving, start_bot, stop


def make_certificate(folder: Path, ips: tuple[str, ...] = ("127.0.0.1",)) -> tuple[Path, Path]:
    """A self-signed certificate (and its key) for ``ips``; the certificate is its own root."""
    if shutil.which("openssl") is None:
        pytest.skip("making a test certificate needs the openssl command")
    cert, key = folder / "cert.pem", folder / "key.pem"
    names = ",".join(["DNS:localhost", *(f"IP:{ip}" for ip in ips)])
    command = [
        "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        "-keyout", str(key), "-out", str(cert), "-subj", "/CN=arena-test",
        "-addext", f"subjectAltName={names}",
    ]  # fmt: skip
    subprocess.run(
        command,
        check=True,
        capture_output=True,
        timeout=120,
    )
    return cert, key


def test_bots_play_over_tls_and_plaintext_is_not_served(tmp_path: Path) -> None:
    cert, key = make_certificate(tmp_path)
    db = tmp_path / "arena.db"
    python_token, js_token = remote(db, "tls-python"), remote(db, "tls-js")
    with_js = shutil.which("node") is not None and shutil.which("npm") is not None
    if with_js:
        set_up_js_bot(find_bot("js-random"), Path(os.environ["ARENA_HOME"]))
    trusted = {"ARENA_TLS_ROOTS": str(cert)}
    with serving(db, "--tls-cert", cert, "--tls-key", key) as (address, lines):
        assert "over TLS" in lines.seen[-1]
        code, _, _ = handshake(address, python_token)
        assert code == grpc.StatusCode.UNAVAILABLE  # no TLS: no connection at all
        roots = grpc.ssl_channel_credentials(cert.read_bytes())
        code, _, close = handshake(address, python_token, credentials=roots)
        assert code is None
        close()
        bots = [start_bot(address, python_token, env=trusted)]
        if with_js:
            command = ["node", str(BOTS / "js-random" / "bot.js")]
            bots.append(start_bot(address, js_token, command, env=trusted))
        players = ["tls-python", "random", *(["tls-js"] if with_js else [])]
        try:
            done = arena(
                "tournament", "run", "--rules", "max_rounds=3", "--seed", "3", "--no-progress",
                "--db", db, *(f"--bot={name}" for name in players),
            )  # fmt: skip
        finally:
            outputs = [stop(bot) for bot in bots]
        assert done.returncode == 0, (done.stderr, outputs, lines.seen)
    with open_store(db) as store:
        (tournament,) = store.tournaments()
        seats = [s for m in store.matches(tournament["id"]) for s in store.seats_of(m["id"])]
        assert {s["bot"] for s in seats} == set(players)
        assert {s["status"] for s in seats} == {"OK"}, outputs


def test_a_bot_that_does_not_trust_the_certificate_cannot_connect(tmp_path: Path) -> None:
    cert, key = make_certificate(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    stranger, _ = make_certificate(other)
    db = tmp_path / "arena.db"
    token = remote(db, "far")
    with serving(db, "--tls-cert", cert, "--tls-key", key) as (address, _):
        bot = start_bot(address, token, env={"ARENA_TLS_ROOTS": str(stranger)})
        bot.wait(120)
        output = stop(bot)
        assert bot.returncode == 1 and "UNAVAILABLE" in output


def test_tls_flags_go_together(tmp_path: Path) -> None:
    done = arena("serve", "--tls-cert", tmp_path / "c.pem", "--db", tmp_path / "a.db")
    assert done.returncode == 2 and "--tls-cert and --tls-key" in done.stderr
