"""A synthetic tournament written straight into a results database: any number of versions
and matches, tables of several sizes (one rating pool each), outcomes drawn from hidden
skills with an optional planted cycle, forfeits, and plan entries left unrecorded (queued or
playing). Rated with the arena's own TrueSkill book, in plan order, so its rating history is
what a real run would store. For the standings tests and ``benchmarks/tournament_page.py``."""

from __future__ import annotations

import os
import random
import socket
from collections.abc import Sequence
from pathlib import Path

from arena.results.ratings import RatingBook, pool_key
from arena.results.store import compress_replay, open_store

STAMP = "2026-01-01T00:00:00"
EMPTY_REPLAY = compress_replay(b"").data


def build(
    db: Path,
    *,
    versions: int = 20,
    matches: int = 10_000,
    seats: Sequence[int] = (2,),
    fmt: str = "ladder",
    challengers: Sequence[str] = (),
    cycle: Sequence[int] = (),
    forfeit_rate: float = 0.0,
    unrecorded: int = 0,
    seed: int = 1,
    tournament_id: str = "synth",
) -> str:
    """Write the tournament into ``db`` and return its id. Version ``i`` is bot ``bot-i``
    with hidden skill ``i`` (higher is better); ``cycle`` names bots (by index) that beat
    each other in a ring (each beats the next in 90 % of their games, the last the first)."""
    rng = random.Random(seed)
    names = [f"bot-{i:02d}" for i in range(versions)]
    vids = [f"v{i:02d}" + "0" * 14 for i in range(versions)]
    with open_store(db) as store:
        for name, vid in zip(names, vids, strict=True):
            store.add_bot(name, "python", "", "/nowhere")
            store.add_version(vid, name, "1.0")
        plan = []
        for index in range(matches + unrecorded):
            size = seats[index % len(seats)]
            lineup = rng.sample(range(versions), size)
            plan.append(
                {
                    "plan_index": index,
                    "round": index // 100,
                    "seed": index,
                    "seats": [vids[i] for i in lineup],
                }
            )
        settings = {
            "game": "classic",
            "format": fmt,
            "seats": list(seats) if len(seats) > 1 else seats[0],
            "entries": {
                vid: {"name": n, "label": "1.0"} for n, vid in zip(names, vids, strict=True)
            },
            "workers": 2,
        }
        if challengers:
            settings["challengers"] = list(challengers)
        store.create_tournament(tournament_id, "synthetic", settings, seed, plan)
        if unrecorded:  # running, in this process: live, not interrupted
            store.claim_tournament(tournament_id, os.getpid(), socket.gethostname())
        else:
            store.set_tournament_status(tournament_id, "finished")
        ring = (
            {(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle))}
            if len(cycle) > 2
            else set()
        )
        book = RatingBook()
        match_rows, seat_rows, history_rows = [], [], []
        for entry in plan[:matches]:
            lineup = [vids.index(v) for v in entry["seats"]]
            order = _finish(rng, lineup, ring)
            places = [order.index(i) + 1 for i in lineup]
            statuses = ["OK"] * len(lineup)
            if forfeit_rate and rng.random() < forfeit_rate:
                loser = max(range(len(lineup)), key=lambda s: places[s])
                statuses[loser] = "CRASH"
            pool = pool_key("classic", len(lineup), "world")
            match_id = f"{tournament_id}-{entry['plan_index']}"
            changes = book.rate_match(pool, entry["seats"], places, statuses)
            match_rows.append(
                (match_id, tournament_id, entry["plan_index"], "classic", pool, len(lineup), "{}",
                 entry["seed"], "domination", places.index(1), 10, 3, 50, STAMP, STAMP, EMPTY_REPLAY)
            )  # fmt: skip
            for seat, (vid, place, status) in enumerate(
                zip(entry["seats"], places, statuses, strict=True)
            ):
                seat_rows.append((match_id, seat, vid, names[vids.index(vid)], place, status))
            for c in changes:
                history_rows.append(
                    (
                        match_id,
                        pool,
                        c.entry,
                        c.mu_before,
                        c.sigma_before,
                        c.mu_after,
                        c.sigma_after,
                    )
                )
        conn = store.db.conn
        with conn:
            conn.executemany(
                "INSERT INTO matches (id, tournament_id, plan_index, game, pool, seat_count,"
                " rules_json, seed, end_reason, winner_seat, turns, rounds, decisions, started_at,"
                " finished_at, replay) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                match_rows,
            )
            conn.executemany(
                "INSERT INTO seats (match_id, seat, version_id, bot, place, status)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                seat_rows,
            )
            conn.executemany(
                "INSERT INTO rating_history (match_id, pool, version_id, mu_before, sigma_before,"
                " mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?)",
                history_rows,
            )
    return tournament_id


def _finish(rng: random.Random, lineup: list[int], ring: set[tuple[int, int]]) -> list[int]:
    """The lineup in finishing order: by hidden skill plus noise, except that a ring pair
    finishes as the ring says 90 % of the time."""
    order = sorted(lineup, key=lambda i: -(i + rng.gauss(0, 4)))
    for a, b in ring:
        if a in order and b in order and rng.random() < 0.9 and order.index(a) > order.index(b):
            i, j = order.index(a), order.index(b)
            order[i], order[j] = order[j], order[i]
    return order
