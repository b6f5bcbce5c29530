"""The answers a search compares: the reference policy's own first, then the next best by
the policy's cheap scores (at most ``limit``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from arena.sdk import Request
from arena.sdk.europe import NOBODY, Bid, Cards, Kingdom, MercenaryBid, Turn, largest_network

from .heuristic import EuropeHeuristic, _pair_score
from .rollout import as_action


def candidates(policy: EuropeHeuristic, request: Request, limit: int) -> list[Any]:
    """Distinct legal-looking answers, the policy's own first."""
    own = as_action(request, policy.choose(request))
    ranked = _RANKERS[request.kind](policy, request)
    found: list[Any] = [own]
    for action in ranked:
        if len(found) >= limit:
            break
        if action not in found:
            found.append(action)
    return found


def _bids(policy: EuropeHeuristic, request: Request) -> list[Any]:
    return [Bid(c) for c in range(request.options["max_coins"] + 1)]


def _kingdoms(policy: EuropeHeuristic, request: Request) -> list[Any]:
    """Each free city with the policy's split, cities by the policy's score."""
    m, view, opts = policy.map, request.view, request.options
    assert m is not None
    army = opts["army"]
    found: list[tuple[float, int, Kingdom]] = []
    for city in opts["cities"]:
        score = m.tax[city] + m.crowns[city] * 3.0
        for u in m.adjacent[city]:
            owner = view["territories"][u]["owner"]
            if owner == NOBODY:
                score += 1.0 + (2.0 if m.tax[u] else 0.0)
            elif owner != army:
                score -= 3.0
        near = opts["neighbours"].get(str(city), [])
        if near:
            step = max(near, key=lambda u: (policy._target_worth(view, army, u), -u))
            found.append((score, city, Kingdom(city, step, opts["footmen"] - 4)))
        else:
            found.append((score, city, Kingdom(city, -1, opts["footmen"])))
    return [k for _, _, k in sorted(found, key=lambda e: (-e[0], e[1]))]


def _mercenary_bids(policy: EuropeHeuristic, request: Request) -> list[Any]:
    mercs = request.options["mercenaries"]
    top = request.options["max_total"]
    found: list[Any] = [MercenaryBid(tuple(0 for _ in mercs))]
    for k in range(len(mercs)):
        for c in (3, 5):
            if c <= top:
                found.append(MercenaryBid(tuple(c if i == k else 0 for i in range(len(mercs)))))
    return found


def _cards(policy: EuropeHeuristic, request: Request) -> list[Any]:
    """Ordered pairs of the hand by the policy's pair score."""
    hand = request.options["hand"]
    army = request.options["army"]
    view = request.view
    pool = policy._free_targets(view, army)
    coins = view["armies"][army]["coins"]
    _, tax = largest_network(view, policy.map, army) if policy.map else (0, 0)
    crown_ok = view["crown_cards_left"] > 0 and "missions_held" not in view["armies"][army]
    scored = [
        (_pair_score(a, b, pool, coins, tax, crown_ok), a, b) for a in hand for b in hand if a != b
    ]
    scored.sort(key=lambda e: (-e[0], e[1], e[2]))
    return [Cards(a, b) for _, a, b in scored]


def _turns(policy: EuropeHeuristic, request: Request) -> list[Any]:
    """The policy's built turns and the listed choices, by the policy's turn score."""
    opts: Mapping[str, Any] = request.options
    view = request.view
    army = opts["army"]
    built: list[Any] = list(policy._build(view, opts, army)) + list(request.choices[:60])
    scored = [(policy._score(view, opts, army, c), i, c) for i, c in enumerate(built)]
    scored.sort(key=lambda e: (-e[0], e[1]))
    return [c for _, _, c in scored if isinstance(c, Turn)]


_RANKERS = {
    "bid": _bids,
    "kingdom": _kingdoms,
    "mercenary_bid": _mercenary_bids,
    "cards": _cards,
    "mercenary_cards": _cards,
    "turn": _turns,
}
SEARCHED = frozenset(_RANKERS)
"""Decision kinds the bot searches; the battle decisions and missions follow the policy."""
