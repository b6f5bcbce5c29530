"""Classic RISK's events in words: one wording for the human seat and ``arena replay show``.

Pure text (no I/O, no terminal styling): :class:`Narrator` names players, territories and
cards from one seat's point of view ("you") or a spectator's (``seat=None``), and tells each
event in a sentence; :func:`replay_blocks` tells a whole replay, one block per turn.
:mod:`arena.sdk.classic.human_view` builds the terminal seat's screens on it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from arena.errors import ArenaError
from arena.games.classic.board import classic_board
from arena.games.classic.game import GAME
from arena.games.classic.missions import MISSIONS

NEUTRAL, UNCLAIMED = -1, -2


class Narrator:
    """Names players, territories and cards from one seat's point of view (None: nobody's)."""

    def __init__(
        self, seat: int | None, names: tuple[str, ...] | list[str], board: dict[str, Any]
    ) -> None:
        self.seat = seat
        self.board = board
        self.territories: list[str] = list(board["territories"])
        self.symbols: list[str] = list(board.get("card_symbols", []))
        self.names = list(names)
        self.owner: list[int] | None = None
        """Owners as the events being told left them (to name a battle's defender)."""

    # ------------------------------------------------------------ names

    def player(self, seat: int) -> str:
        """'you', 'neutral', or the seat's bot name (with its seat number when not unique)."""
        if seat == self.seat:
            return "you"
        if seat == NEUTRAL:
            return "neutral"
        if seat == UNCLAIMED:
            return "unclaimed"
        if not 0 <= seat < len(self.names):
            return f"seat {seat}"
        name = self.names[seat]
        return name if self.names.count(name) == 1 else f"{name} (seat {seat})"

    def subject(self, seat: int, verb: str) -> str:
        """'You attack' / 'random attacks': a player and a verb that agree."""
        if seat == self.seat:
            return f"You {verb}"
        return f"{self.player(seat)} {_third_person(verb)}"

    def whose(self, seat: int) -> str:
        """'your' or "random's"."""
        return "your" if seat == self.seat else f"{self.player(seat)}'s"

    def loses(self, seat: int, n: int) -> str:
        """'you lose 1' / 'random loses 2'."""
        verb = "lose" if seat == self.seat else "loses"
        return f"{self.player(seat)} {verb} {n}"

    def territory(self, t: int) -> str:
        return self.territories[t] if 0 <= t < len(self.territories) else f"territory {t}"

    def card(self, card: int | None) -> str:
        """'Alaska (infantry)' for a territory card, 'wild' for a wild card."""
        if card is None:
            return "a card"
        symbol = self.symbols[card] if 0 <= card < len(self.symbols) else "?"
        if card >= len(self.territories) or symbol == "wild":
            return "wild"
        return f"{self.territory(card)} ({symbol})"

    def cards(self, cards: Sequence[int] | None) -> str:
        if not cards:
            return "no cards"
        return ", ".join(self.card(c) for c in cards)

    def placements(self, placements: Any) -> str:
        return ", ".join(f"{n} on {self.territory(t)}" for t, n in placements)

    # ------------------------------------------------------------ events

    def events(self, events: list[dict[str, Any]], owner: Sequence[int]) -> list[str]:
        """The events since the last decision in words; ``owner`` is each territory's owner
        after them (the position the seat is shown)."""
        if self.owner is None or len(self.owner) != len(owner):
            self.owner = list(owner)
        lines = [text for e in events if (text := self.event(e))]
        self.owner = list(owner)
        return lines

    def event(self, event: dict[str, Any]) -> str | None:
        """One event in words (ownership is followed through claims and conquests)."""
        kind = event.get("type")
        owner = self.owner
        seat = event.get("seat", -99)
        t = self.territory
        if kind == "turn":
            return (
                f"Round {event['round']}: {self.whose(seat)} turn "
                f"({event['reinforcements']} new armies)"
            )
        if kind == "claimed":
            if owner is not None:
                owner[event["territory"]] = seat
            return f"{self.subject(seat, 'claim')} {t(event['territory'])}."
        if kind == "placed":
            return f"{self.subject(seat, 'place')} {self.placements(event['placements'])}."
        if kind == "placed_neutral":
            return f"{self.subject(seat, 'add')} a neutral army to {t(event['territory'])}."
        if kind == "reinforced":
            return f"{self.subject(seat, 'reinforce')}: {self.placements(event['placements'])}."
        if kind == "traded":
            text = (
                f"{self.subject(seat, 'trade')} {self.cards(event['cards'])} "
                f"for {army_count(event['armies'])}"
            )
            if event.get("bonus_territory") is not None:
                text += f" (+2 on {t(event['bonus_territory'])})"
            return text + "."
        if kind == "battle":
            defender = owner[event["to"]] if owner is not None else None
            target = (
                t(event["to"]) if defender is None else f"{self.whose(defender)} {t(event['to'])}"
            )
            losses = (
                f"attacker loses {event['attacker_losses']}, "
                f"defender loses {event['defender_losses']}"
                if defender is None
                else f"{self.loses(seat, event['attacker_losses'])}, "
                f"{self.loses(defender, event['defender_losses'])}"
            )
            return (
                f"{self.subject(seat, 'attack')} {target} from {t(event['from'])}: "
                f"{dice_text(event['attacker_dice'], True)} against "
                f"{dice_text(event['defender_dice'], True)}; {losses}."
            )
        if kind == "rerolled":
            return f"{self.subject(seat, 're-roll')} a {event['old']}: it is now {event['new']}."
        if kind == "conquered":
            if owner is not None:
                owner[event["to"]] = seat
            return (
                f"{self.subject(seat, 'conquer')} {t(event['to'])} from "
                f"{self.player(event['previous_owner'])}, moving {army_count(event['armies'])} "
                f"in from {t(event['from'])}."
            )
        if kind == "occupied":
            return f"{self.subject(seat, 'occupy')} {t(event['to'])} with {army_count(event['armies'])}."
        if kind == "eliminated":
            by = self.player(event["by"])
            if seat == self.seat:
                return f"You are eliminated by {by}."
            return (
                f"{self.player(seat)} is eliminated by {by} ({event.get('cards', 0)} cards taken)."
            )
        if kind == "cards_taken":
            if event.get("cards") is None:
                return f"{self.subject(seat, 'take')} {self.whose(event['from'])} cards."
            return (
                f"{self.subject(seat, 'take')} {self.cards(event['cards'])} "
                f"from {self.player(event['from'])}."
            )
        if kind == "card_drawn":
            if seat == self.seat and event.get("card") is not None:
                return f"You draw a card: {self.card(event['card'])}."
            return f"{self.subject(seat, 'draw')} a card."
        if kind == "fortified":
            return (
                f"{self.subject(seat, 'move')} {army_count(event['armies'])} from "
                f"{t(event['from'])} to {t(event['to'])}."
            )
        if kind == "headquarters_revealed":
            pairs = ", ".join(
                f"{self.player(s)} {t(h)}" for s, h in enumerate(event["headquarters"])
            )
            return f"Headquarters revealed: {pairs}."
        if kind == "mission_revealed":
            mission = event.get("mission")
            text = MISSIONS[mission].text() if isinstance(mission, int) else str(mission)
            return f"{self.subject(seat, 'reveal')} a completed mission: {text}"
        if kind == "forfeited":
            if owner is not None:
                owner[:] = [NEUTRAL if o == seat else o for o in owner]
            return (
                f"{self.player(seat)} forfeits; its armies stay on the board as neutral defenders."
            )
        if kind == "game_over":
            winner = event.get("winner")
            who = "no winner" if winner is None else f"winner {self.player(winner)}"
            places = f", places {event['places']}" if "places" in event else ""
            return f"Game over ({event.get('reason')}): {who}{places}."
        rest = ", ".join(f"{k} {v}" for k, v in event.items() if k != "type")
        return f"{kind}: {rest}"


def replay_blocks(header: dict[str, Any], records: list[dict[str, Any]]) -> Iterator[list[str]]:
    """A classic replay in words, as a spectator: the setup, then one block per player turn
    (headed by its ``turn`` event), then the result. The heading line of the whole replay
    is the caller's (:mod:`arena.replays.text`)."""
    names = [s["bot"] for s in header["seats"]]
    board, owner = _start(header)
    narrator = Narrator(None, names, board)
    narrator.owner = owner
    block: list[str] = []
    for record in records:
        if record.get("type") == "rejected":
            block.append(
                f"  ✗ {narrator.player(record['seat'])}'s answer rejected: {record['reason']}"
            )
        if record.get("type") == "timeout":
            block.append(f"  ⏱ {narrator.player(record['seat'])} ran out of time")
        for event in record.get("events", []):
            line = narrator.event(event)
            if event["type"] == "turn":
                yield block
                block = [line or ""]
            elif line:
                block.append(f"  {line}")
    yield block


def _start(header: dict[str, Any]) -> tuple[dict[str, Any], list[int] | None]:
    """The board and first owners of a replayed game, dealt again from its rules and seed
    (so battles name their defenders); the world board and no owners if the header's rules
    are not classic's."""
    try:
        game = GAME.from_config(header["rules"])
        state = game.new_game(int(header["seed"]))
        return game.board(), list(game.view(state, 0)["owner"])
    except (ArenaError, KeyError, TypeError, ValueError):
        return classic_board().to_dict(), None


def dice_text(rolled: Any, ranked: bool = False) -> str:
    """Dice as text; ``ranked`` puts them high to low, as they are compared."""
    shown = sorted(rolled, reverse=True) if ranked else rolled
    return " ".join(str(d) for d in shown) or "-"


def dice_word(n: int) -> str:
    return "die" if n == 1 else "dice"


def army_count(n: int) -> str:
    return f"{n} army" if n == 1 else f"{n} armies"


def _third_person(verb: str) -> str:
    if verb.endswith(("s", "sh", "ch", "x")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"
