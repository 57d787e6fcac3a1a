"""What happened: the `Event` records `apply` returns, and the `Show` of a hand or crib.

Events hold only public information (a discard event names the seat, never its cards), so every
seat may receive every event.

>>> Event("go", seat=1, count=27).describe(["Ann", "Bob"])
'Bob: go (27)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .scoring import Breakdown

# The fields each kind of event uses, besides ``kind``; the others stay at their defaults.
EVENT_FIELDS = {
    "cut_for_deal": ("seat", "cards"), "deal": ("seat", "count"), "discard": ("seat",),
    "starter": ("seat", "cards"), "play": ("seat", "cards", "count"), "go": ("seat", "count"),
    "reset": ("seat", "count"), "peg": ("seat", "side", "breakdown", "scores"),
    "show": ("seat", "cards", "breakdown"), "crib": ("seat", "cards", "breakdown"),
    "game_over": ("side", "scores", "verdicts"), "match_over": ("side", "scores"),
    "claim": ("seat", "count", "breakdown"), "muggins": ("seat", "count"),
}
EVENT_KINDS = tuple(EVENT_FIELDS)
VERDICTS = ("win", "skunk", "double skunk", "loss")


@dataclass(frozen=True)
class Event:
    """One thing the table shows. Fields a kind does not use stay at their defaults.

    - ``cut_for_deal``: ``cards`` cut by each seat, ``seat`` the dealer.
    - ``deal``: ``seat`` the dealer, ``count`` the cards dealt to each player.
    - ``discard``: ``seat`` has put its crib cards down (face down).
    - ``starter``: ``cards`` the starter, ``seat`` who cut it.
    - ``play``: ``seat`` laid ``cards[0]``, the count is now ``count``.
    - ``go``: ``seat`` cannot play at ``count``.  ``reset``: the count goes back to 0.
    - ``peg``: ``seat`` scored ``breakdown`` for ``side``, whose score is now ``scores[side]``.
    - ``show`` / ``crib``: ``seat``'s hand (or the crib of dealer ``seat``) counted with the starter.
    - ``game_over`` / ``match_over``: ``side`` won; ``scores`` final (games won for a match);
      ``verdicts`` per side: ``"win"``, ``"skunk"``, ``"double skunk"`` or ``"loss"``.
    - ``claim`` (muggins tables): ``seat`` claimed ``count`` of the ``breakdown`` its cards made.
    - ``muggins``: ``seat`` called muggins and took the ``count`` points missed.
    """

    kind: str
    seat: int | None = None
    side: int | None = None
    cards: tuple[Card, ...] = ()
    count: int | None = None
    breakdown: Breakdown | None = None
    scores: tuple[int, ...] = ()
    verdicts: tuple[str, ...] = ()

    def describe(self, names: Sequence[str]) -> str:
        """One log line, with ``names[seat]`` for each seat (and ``names[side]`` for sides).

        >>> Event("cut_for_deal", seat=0, cards=(Card(6, "D"), Card(13, "S"))).describe(["You", "Bot"])
        'You cut 6♦, Bot cuts K♠: You deal'
        """
        who = names[self.seat] if self.seat is not None else ""
        cards = " ".join(card.face for card in self.cards)
        if self.kind == "cut_for_deal":
            cuts = ", ".join(f"{names[i]} {verb(names[i], 'cuts')} {card.face}"
                             for i, card in enumerate(self.cards))
            return f"{cuts}: {who} {verb(who, 'deals')}"
        if self.kind == "deal":
            return f"{who} {verb(who, 'deals')} {self.count} cards each"
        if self.kind == "discard":
            return f"{who} {verb(who, 'puts')} cards in the crib"
        if self.kind == "starter":
            return f"{who} {verb(who, 'cuts')}: the starter is {cards}"
        if self.kind == "play":
            return f"{who}: {cards} ({self.count})"
        if self.kind == "go":
            return f"{who}: go ({self.count})"
        if self.kind == "reset":
            return "the count goes back to 0"
        if self.kind == "peg":
            assert self.breakdown is not None and self.side is not None   # a peg has both
            return f"{who} {verb(who, 'pegs')} {self.breakdown.label()}: {self.scores[self.side]}"
        if self.kind in ("show", "crib"):
            whose = who if self.kind == "show" else "Your crib" if who == "You" else f"{who}'s crib"
            assert self.breakdown is not None   # a show has its count
            return f"{whose}: {cards} with the starter, {self.breakdown.spoken()}"
        if self.kind == "claim":
            assert self.breakdown is not None and self.count is not None   # a claim has both
            missed = self.breakdown.total - self.count
            return f"{who} {verb(who, 'claims')} {self.count}" + (f", missing {missed}" if missed else "")
        if self.kind == "muggins":
            return f"{who}: muggins! {verb(who, 'takes')} the {self.count} missed"
        if self.kind in ("game_over", "match_over"):
            what = "game" if self.kind == "game_over" else "match"
            assert self.side is not None   # the winning side
            winner = side_name(names, self.side)
            return f"{winner} {verb(winner, 'wins')} the {what}: " + " to ".join(map(str, self.scores))
        return self.kind


def verb(subject: str, third_person: str) -> str:
    """The verb agreeing with its subject: "You" and a pair of partners take the plain form.

    >>> verb("Bot", "cuts"), verb("You", "cuts"), verb("You & Sage", "wins")
    ('cuts', 'cut', 'win')
    """
    plural = subject == "You" or " & " in subject
    return third_person[:-1] if plural and third_person.endswith("s") else third_person


def side_name(names: Sequence[str], side: int) -> str:
    """A side's name: the player's, or both partners' in a four-player game.

    >>> side_name(["Ann", "Bob", "Cy", "Dee"], 1)
    'Bob & Dee'
    """
    return f"{names[side]} & {names[side + 2]}" if len(names) == 4 else names[side]


@dataclass(frozen=True)
class Show:
    """A counted hand: ``seat`` (the dealer for the crib), the cards and their `Breakdown`."""

    seat: int
    crib: bool
    cards: tuple[Card, ...]
    breakdown: Breakdown
