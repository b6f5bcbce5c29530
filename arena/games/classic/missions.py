"""The 12 Secret Mission cards of the 1993 US rules and when each is accomplished."""

from __future__ import annotations

from dataclasses import dataclass

COLOURS = ("red", "blue", "green", "yellow", "black", "grey")
"""Army colour of each seat, in seat order; the 'destroy' missions name them."""


@dataclass(frozen=True, slots=True)
class Mission:
    """One mission card. ``kind`` is ``continents``, ``territories`` or ``destroy``."""

    id: int
    kind: str
    continents: tuple[str, ...] = ()
    territories: int = 0
    min_armies: int = 1
    target: int = -1
    """Seat to destroy, for ``destroy`` missions."""

    def text(self) -> str:
        """The card's text."""
        if self.kind == "continents":
            return "Conquer the continents of " + " and ".join(self.continents) + "."
        if self.kind == "territories" and self.min_armies > 1:
            return (
                f"Conquer {self.territories} territories and occupy each with at least "
                f"{self.min_armies} armies."
            )
        if self.kind == "territories":
            return f"Occupy {self.territories} territories."
        return (
            f"Destroy all armies of {COLOURS[self.target]} (seat {self.target}). If you are "
            f"{COLOURS[self.target]}, occupy 24 territories."
        )


MISSIONS: tuple[Mission, ...] = (
    Mission(0, "continents", continents=("Asia", "South America")),
    Mission(1, "continents", continents=("Asia", "Africa")),
    Mission(2, "continents", continents=("North America", "Africa")),
    Mission(3, "continents", continents=("North America", "Australia")),
    Mission(4, "territories", territories=18, min_armies=2),
    Mission(5, "territories", territories=24),
    *(Mission(6 + seat, "destroy", target=seat) for seat in range(6)),
)

FALLBACK = MISSIONS[5]
"""'Occupy 24 territories': what a 'destroy your own colour' card means."""


def mission_deck(players: int) -> list[int]:
    """Mission ids in play: the six general cards plus a 'destroy' card per colour in play."""
    return [m.id for m in MISSIONS if m.kind != "destroy" or m.target < players]
