"""The lobby of ``arena serve``: remote bots' sessions, keyed by the bot their token names.

A remote bot dials in like a local one (``ARENA_ADDRESS``, ``ARENA_TOKEN``); the lobby
checks the token's hash against the database and so knows which bot it is. A token only
ever seats its own bot: the session is filed under that bot's name and handed only to a
match seat of that bot (a Hello naming another registered bot is refused). One stream per
token at a time; handshakes are rate-limited per token, failed ones per address.

A :class:`LobbySeat` is a :class:`RemoteSeat` whose bot may drop its stream mid-match and
dial in again within the move clock: the seat then takes the new stream and re-sends the
match's MatchStart and the pending request.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import grpc

from arena.catalog.remote import TOKEN_PREFIX, hash_token
from arena.protocol._pb.riskarena.v1 import arena_pb2 as pb
from arena.referee.seats import RemoteSeat
from arena.referee.server import Closed, Refused, Registry, Session

log = logging.getLogger("arena.serve")

HANDSHAKES_PER_TOKEN = (5, 1.0)
"""A token's handshake bucket: 5 at once, refilled one a second (an honest bot dials once,
and again after a drop)."""
FAILURES_PER_ADDRESS = (10, 0.2)
"""Failed handshakes one address may make: 10 at once, refilled one every 5 seconds."""
MAX_ADDRESSES = 10_000
"""Addresses whose failures are counted at once; past it, those back to a full bucket go."""


class Bucket:
    """A token bucket: ``capacity`` at once, refilled at ``rate`` a second."""

    def __init__(self, capacity: float, rate: float, clock: Callable[[], float] = time.monotonic):
        self.capacity = capacity
        self.rate = rate
        self.level = capacity
        self._clock = clock
        self._at = clock()

    def empty(self) -> float:
        """0 if one is there to take, else the seconds until there is."""
        now = self._clock()
        self.level = min(self.capacity, self.level + (now - self._at) * self.rate)
        self._at = now
        return 0.0 if self.level >= 1 else (1 - self.level) / self.rate

    def take(self) -> float:
        """Take one; 0 if there was one, else the seconds until there is (nothing taken)."""
        wait = self.empty()
        if wait == 0:
            self.level -= 1
        return wait


def peer_address(peer: str) -> str:
    """The address part of a gRPC peer (``ipv4:10.0.0.2:51234`` → ``ipv4:10.0.0.2``)."""
    if peer.startswith(("ipv4:", "ipv6:")):
        return peer.rsplit(":", 1)[0]
    return peer


class Lobby(Registry):
    """Who is connected, by remote bot name; the registry of the serve's TCP server.

    ``lookup(token_hash)`` names the bot whose current token has that hash (None: unknown or
    revoked); ``known(name)`` says whether ``name`` is another remote bot's name (a Hello
    claiming it is refused; local bots' names do not matter here: they never dial in).
    """

    def __init__(self, lookup: Callable[[str], str | None], known: Callable[[str], bool]) -> None:
        super().__init__()
        self._lookup = lookup
        self._known = known
        self.sessions: dict[str, Session] = {}
        """Each remote bot's current stream."""
        self._pending: dict[str, asyncio.Future[Session]] = {}
        self._waiters: dict[str, list[asyncio.Future[Session]]] = {}
        self._per_token: dict[str, Bucket] = {}
        self._per_address: dict[str, Bucket] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    def claim(self, token: str, peer: str = "", name: str = "") -> asyncio.Future[Session] | None:
        address = peer_address(peer)
        failures = self._per_address.get(address)
        if failures is not None and failures.empty() > 0:
            raise Refused(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                "too many failed handshakes from this address; wait and try again",
            )
        bot = self._lookup(hash_token(token)) if token.startswith(TOKEN_PREFIX) else None
        if bot is None:
            self._failed(address)
            raise Refused(grpc.StatusCode.UNAUTHENTICATED, "unknown or revoked token")
        wait = self._per_token.setdefault(bot, Bucket(*HANDSHAKES_PER_TOKEN)).take()
        if wait > 0:
            raise Refused(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"too many handshakes with bot {bot!r}'s token; try again in {wait:.1f} s",
            )
        if name and name != bot and self._known(name):
            self._failed(address)
            raise Refused(
                grpc.StatusCode.PERMISSION_DENIED,
                f"this token is bot {bot!r}'s; it cannot connect as bot {name!r}",
            )
        if self.live(bot):
            raise Refused(
                grpc.StatusCode.ALREADY_EXISTS,
                f"bot {bot!r} is already connected with this token (one connection per token "
                "at a time); close the other connection first",
            )
        future: asyncio.Future[Session] = asyncio.get_running_loop().create_future()
        self._pending[bot] = future
        future.add_done_callback(lambda done: self._arrived(bot, done, address))
        return future

    def _failed(self, address: str) -> None:
        if len(self._per_address) >= MAX_ADDRESSES:  # forget the addresses that are quiet
            for known, bucket in list(self._per_address.items()):
                if bucket.empty() == 0 and bucket.level >= bucket.capacity:
                    del self._per_address[known]
        self._per_address.setdefault(address, Bucket(*FAILURES_PER_ADDRESS)).take()

    def _arrived(self, bot: str, future: asyncio.Future[Session], address: str) -> None:
        if self._pending.get(bot) is future:
            del self._pending[bot]
        if future.cancelled():
            return
        session = future.result()
        self.sessions[bot] = session
        log.info("remote bot %s connected from %s", bot, address)
        for waiter in self._waiters.pop(bot, []):
            if not waiter.done():
                waiter.set_result(session)

    def live(self, bot: str) -> bool:
        """Whether ``bot`` has a stream up (or a handshake under way)."""
        pending = self._pending.get(bot)
        if pending is not None and not pending.done():
            return True
        session = self.sessions.get(bot)
        return session is not None and session.closed is None

    def connected(self) -> list[str]:
        """The remote bots with a stream up, by name."""
        return sorted(bot for bot in self.sessions if self.live(bot))

    async def session(self, bot: str, timeout: float) -> Session | None:
        """``bot``'s live stream, waiting up to ``timeout`` s for it to dial in; or None."""
        found = self.sessions.get(bot)
        if found is not None and found.closed is None:
            return found
        waiter: asyncio.Future[Session] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(bot, []).append(waiter)
        try:
            return await asyncio.wait_for(waiter, timeout)
        except TimeoutError:
            return None
        finally:
            waiters = self._waiters.get(bot, [])
            if waiter in waiters:
                waiters.remove(waiter)

    def drop(self, bot: str, session: Session) -> None:
        """End ``session`` (its bot is unsound for another match: it must dial in again)."""
        session.finish()
        if self.sessions.get(bot) is session:
            del self.sessions[bot]

    def lock(self, bot: str) -> asyncio.Lock:
        """Held by the match that seats ``bot``: a bot has one stream, so plays one match at
        a time (locks are taken in name order, so two matches never wait on each other)."""
        return self._locks.setdefault(bot, asyncio.Lock())

    def close(self) -> None:
        """End every stream (the serve stops)."""
        for bot, session in list(self.sessions.items()):
            self.drop(bot, session)


class LobbySeat(RemoteSeat):
    """A remote bot's seat: its stream comes from the lobby and may be replaced mid-match."""

    def __init__(self, session: Session, bot: str, lobby: Lobby) -> None:
        super().__init__(session, None, bot)
        self.bot = bot
        self.lobby = lobby

    async def _rejoined(self, closed: Closed, left: float | None) -> bool:
        """Wait the clock's ``left`` seconds for the bot to dial in again; then take its new
        stream and re-send MatchStart and the pending request. If it does not, the request
        times out as any unanswered one does (its stream's end stays in the inbox, so the
        next request waits for the bot again). Without a clock, a drop is a disconnect."""
        if closed.why != "disconnect" or self._match_start is None or self._request is None:
            return False
        if left is None:
            return False
        session = await self.lobby.session(self.bot, max(left, 0.0))
        if session is None or session is self.session:
            self.session.inbox.put_nowait(closed)
            return True  # the clock has run out: the seat's wait ends in a timeout
        log.info("remote bot %s dialled in again mid-match; request re-sent", self.bot)
        self.adopt(session)
        session.send(pb.RefereeMessage(match_start=self._match_start))
        again = pb.RefereeMessage(decision=self._request)
        again.decision.request_id = self._current
        session.send(again)
        return True

    def adopt(self, session: Session) -> None:
        """Play on ``session``, the bot's new stream. Request ids go on from the old one's,
        so they never repeat for this bot (a late answer is never taken for a new one)."""
        self.session = session
        self.hello = session.hello
        self._skip_accepted = session.hello.skip_accepted_results
        self.wants_accepted = not self._skip_accepted

    def sound(self) -> bool:
        """Whether its stream can play the next match as it is."""
        return self.session.closed is None and not self.timed_out
