"""Events: what happened when an action was applied (dice, captures, trades, …).

Events are plain dicts (JSON-ready, cheap to compare in replay verification). A few carry a
secret that only some seats may see; :func:`redact` hides it from the others.
"""

from __future__ import annotations

from arena.games.api import Event

PRIVATE_CARDS = {"card_drawn": ("seat",), "cards_taken": ("seat", "from")}
"""Event types whose ``card``/``cards`` field only the listed seats may see."""


def redact(event: Event, seat: int) -> Event:
    """The event as ``seat`` may see it (hidden card ids become None)."""
    holders = PRIVATE_CARDS.get(event["type"])
    if holders is None or any(event.get(k) == seat for k in holders):
        return event
    hidden = dict(event)
    if "card" in hidden:
        hidden["card"] = None
    if "cards" in hidden:
        hidden["cards"] = None
    return hidden
