"""The SDK's gRPC client (``arena.sdk.client.run``) against a real referee server: what it
says in its Hello, the order of a bot's callbacks, re-answering after a rejection, and its
exit codes."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from arena.games.classic import ClassicConfig
from arena.games.classic.game import ClassicGame
from arena.referee.match import MatchSettings, TimeControl, run_match
from arena.referee.seats import RemoteSeat
from arena.referee.server import Registry, start_server
from arena.sdk import Answer, Bot, MatchInfo, Request, client


class Recording(Bot):
    """Answers option 0, except its third decision, first answered out of range."""

    name = "recording"
    version = "1"

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []
        self.decisions = 0

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.calls.append("start")

    def choose(self, request: Request) -> Answer:
        self.calls.append("choose")
        if self.calls.count("choose") == 1:
            self.debug("first")
        self.decisions += 1
        return 9999 if self.decisions == 3 else 0

    def rejected(self, reason: str) -> None:
        self.calls.append(f"rejected {reason.split(':')[0]}")
        self.decisions += 1  # the next answer is the retry's: valid

    def finish(self, result: dict[str, Any]) -> None:
        self.calls.append(f"finish {result['seats'][0]['status']}")


def test_a_bot_plays_a_match_and_answers_again_after_a_rejection(tmp_path: Path) -> None:
    async def main() -> None:
        registry = Registry()
        server, target = await start_server(registry, f"unix:{tmp_path}/referee.sock")
        try:
            bots = [Recording(), Recording()]
            tokens = [registry.issue(f"seat {seat}") for seat in range(2)]
            runs = [
                asyncio.create_task(asyncio.to_thread(client.run, bot, target, token))
                for bot, token in zip(bots, tokens, strict=True)
            ]
            seats: list[Any] = []
            for token in tokens:
                session = await registry.wait(token, 60)
                assert session is not None
                assert session.hello.skip_accepted_results  # the client needs no acceptances
                seats.append(RemoteSeat(session, None, ""))
            game = ClassicGame(ClassicConfig.parse({"max_rounds": "3"}, 2))
            result = await run_match(
                game, seats, 3, settings=MatchSettings(TimeControl(30.0, 60.0))
            )
            for seat in seats:
                await seat.close()
            assert await asyncio.wait_for(asyncio.gather(*runs), 60) == [0, 0]
        finally:
            await server.stop(0)
        assert [s.status for s in result.seats] == ["OK", "OK"]
        assert [s.strikes for s in result.seats] == [1, 1]
        for bot in bots:
            calls = bot.calls
            assert calls[0] == "start" and calls[-1] == "finish OK"
            assert calls[1:4] == ["choose", "choose", "choose"]
            assert calls[4].startswith("rejected option index 9999") and calls[5] == "choose"
            assert set(calls[1:-1]) - {"choose"} == {calls[4]}
            assert calls.count("choose") > 10

    asyncio.run(main())


def test_a_refused_handshake_exits_2_and_says_why(tmp_path: Path, capsys) -> None:
    async def main() -> int:
        server, target = await start_server(Registry(), f"unix:{tmp_path}/referee.sock")
        try:
            return await asyncio.to_thread(client.run, Recording(), target, "not issued")
        finally:
            await server.stop(0)

    assert asyncio.run(main()) == client.EXIT_REFUSED
    err = capsys.readouterr().err
    assert err.startswith("recording: referee: StatusCode.UNAUTHENTICATED: unknown or already")


def test_no_referee_exits_1_and_no_address_exits_2(tmp_path: Path, capsys, monkeypatch) -> None:
    assert client.run(Recording(), f"unix:{tmp_path}/nobody.sock", "t") == 1
    assert "recording: referee: StatusCode.UNAVAILABLE" in capsys.readouterr().err
    monkeypatch.delenv(client.ADDRESS_ENV, raising=False)
    assert client.run(Recording()) == client.EXIT_REFUSED
    expected = f"recording: set {client.ADDRESS_ENV} (and {client.TOKEN_ENV}) to the referee's\n"
    assert capsys.readouterr().err == expected
