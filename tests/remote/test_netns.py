"""Remote bots from another machine, as near as one machine gets: each bot runs in a network
namespace of its own (``ip netns``), reaching the serve over a veth pair made here, from its
own 10.x address. Where the kernel or the permissions do not allow namespaces, the bots dial
in over loopback instead, and the test says so in its output."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from arena.results.store import open_store
from tests.remote import arena, remote, serving, start_bot, stop


def _ip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=60)


@contextmanager
def namespace() -> Iterator[tuple[str, str, list[str]] | str]:
    """A network namespace linked to this one by a veth pair: (the serve's address on this
    side, the bots' address on the other, the command prefix that runs a program there); or,
    when one cannot be made, why not. Everything made is removed at the end."""
    if shutil.which("ip") is None:
        yield "no `ip` command (Debian: iproute2)"
        return
    tag = f"{os.getpid() % 100000}"
    name, here, there = f"arena-{tag}", f"ava{tag}", f"avb{tag}"
    octet = os.getpid() % 250 + 1
    serve_ip, bot_ip = f"10.231.{octet}.1", f"10.231.{octet}.2"
    made = _ip("netns", "add", name)
    if made.returncode != 0:
        yield f"cannot make a network namespace: {made.stderr.strip()}"
        return
    try:
        steps = [
            ("link", "add", here, "type", "veth", "peer", "name", there),
            ("link", "set", there, "netns", name),
            ("addr", "add", f"{serve_ip}/30", "dev", here),
            ("link", "set", here, "up"),
            ("-n", name, "addr", "add", f"{bot_ip}/30", "dev", there),
            ("-n", name, "link", "set", there, "up"),
            ("-n", name, "link", "set", "lo", "up"),
        ]
        for step in steps:
            done = _ip(*step)
            if done.returncode != 0:
                yield f"`ip {' '.join(step)}` failed: {done.stderr.strip()}"
                return
        yield serve_ip, bot_ip, ["ip", "netns", "exec", name]
    finally:
        _ip("link", "del", here)  # takes its peer with it
        _ip("netns", "del", name)


def test_remote_bots_from_another_network_namespace_play_a_tournament(tmp_path: Path) -> None:
    db = tmp_path / "arena.db"
    tokens = {name: remote(db, name) for name in ("east", "west")}
    with namespace() as made:
        if isinstance(made, str):
            print(f"network namespace unavailable ({made}): the bots dial in over loopback")
            serve_ip, bot_ip, wrap = "127.0.0.1", "127.0.0.1", []
        else:
            serve_ip, bot_ip, wrap = made
            print(f"the bots dial in from namespace address {bot_ip} to {serve_ip}")
        with serving(db, host=serve_ip) as (address, lines):
            bots = [start_bot(address, token, wrap=wrap) for token in tokens.values()]
            try:
                done = arena(
                    "tournament", "run", "--rules", "max_rounds=3", "--seed", "9",
                    "--no-progress", "--db", db, "--bot", "east", "--bot", "west",
                    "--bot", "random",
                )  # fmt: skip
            finally:
                outputs = [stop(bot) for bot in bots]
            assert done.returncode == 0, (done.stderr, outputs, lines.seen)
            connected = [line for line in lines.so_far() if "connected from" in line]
            assert sorted(line.split()[4] for line in connected) == ["east", "west"]
            assert all(f"ipv4:{bot_ip}" in line for line in connected), connected
    with open_store(db) as store:
        (tournament,) = store.tournaments()
        assert tournament["recorded"] == tournament["planned"] == 6
        seats = [s for m in store.matches(tournament["id"]) for s in store.seats_of(m["id"])]
        assert {s["status"] for s in seats} == {"OK"}
