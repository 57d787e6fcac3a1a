"""A provably fair deal at a table with friends: commit, contribute, deal, reveal, verify.

Before each hand the host picks a fresh 32-byte ``secret`` and sends its `commitment`
(SHA-256). Each guest then sends a fresh random contribution; seats the host answers for (its
own, bots', and a guest whose contribution never came) get a `stand_in` value computed from
the secret, so the host cannot pick them after seeing the guests'. The hand is shuffled from
`hand_seed`: SHA-256 over the table id, game and hand numbers, the secret and every
contribution in seat order. After the hand the host reveals the secret, and each guest checks
it (`check_reveal`) and every card it saw against the deck it derives (`check_seen`).

>>> secret = "ab" * 32
>>> round_ = Round(0, 1, commitment(secret), ("", "cd" * 32), ("host", "guest"), secret)
>>> round_ = round_.stood_in()
>>> check_reveal(round_, secret, earlier=()), 0 <= round_.seed("room") < 2**63
((), True)
>>> check_reveal(round_, "ef" * 32, earlier=())[0]
'hand 2: the revealed secret does not match the commitment sent before the hand'

Pure, standard library only: `hashlib` for SHA-256, the engine for the deck and the deal.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, replace

from .cards import Card
from .engine import Config, cut_for_deal, deal_from, shuffled_deck
from .errors import ParseError

DOMAIN = "cribbage-fair/1"
HEX = re.compile(r"[0-9a-f]{64}")
SOURCES = ("host", "guest", "bot", "replaced")   # who gave a seat's contribution


def commitment(secret: str) -> str:
    """The SHA-256 (hex) of a secret: sent before the hand, so the secret cannot change.

    >>> commitment("00" * 32)[:16]
    '66687aadf862bd77'
    """
    return hashlib.sha256(bytes.fromhex(check_hex(secret, "a secret"))).hexdigest()


def stand_in(secret: str, seat: int) -> str:
    """The contribution of a seat the host answers for: fixed by the committed secret."""
    return hashlib.sha256(f"{DOMAIN}/stand-in/{seat}/{secret}".encode()).hexdigest()


def hand_seed(table: str, game: int, hand: int, secret: str, contributions: Iterable[str]) -> int:
    """The seed a hand is shuffled from (`game.engine.shuffled_deck`): the first 63 bits of
    SHA-256 over ``cribbage-fair/1``, the table id, the game and hand numbers, the secret and
    the contributions in seat order, one a line."""
    text = "\n".join([DOMAIN, table, str(game), str(hand), secret, *contributions])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def check_hex(value: object, what: str) -> str:
    """64 lowercase hex digits (32 bytes), else `ParseError`."""
    if not isinstance(value, str) or not HEX.fullmatch(value):
        raise ParseError(f"{what} is 64 lowercase hex digits")
    return value


@dataclass(frozen=True)
class Round:
    """One hand's commit and reveal: ``game`` (counted at the table from 0), ``hand`` (the
    engine's ``hand_no``), the ``commitment``, each seat's ``contributions`` and their
    ``sources``, and the ``secret`` once revealed (None until then)."""

    game: int
    hand: int
    commitment: str
    contributions: tuple[str, ...]
    sources: tuple[str, ...]
    secret: str | None = None

    def stood_in(self) -> Round:
        """The round with every seat the host answers for given its `stand_in` value (the
        host, holding the secret, calls this before the deal)."""
        secret = self.secret
        assert secret is not None, "only the secret's holder stands in for seats"
        values = tuple(stand_in(secret, seat) if source != "guest" else value
                       for seat, (value, source) in enumerate(zip(self.contributions, self.sources)))
        return replace(self, contributions=values)

    def seed(self, table: str) -> int:
        """The hand's seed (`hand_seed`): the host's own round, or one whose secret is revealed."""
        assert self.secret is not None, "a round's seed needs its secret"
        return hand_seed(table, self.game, self.hand, self.secret, self.contributions)

    def to_json(self) -> dict[str, object]:
        return {"game": self.game, "hand": self.hand, "commitment": self.commitment,
                "contributions": list(self.contributions), "sources": list(self.sources),
                "secret": self.secret}

    @classmethod
    def from_json(cls, data: object) -> Round:
        """Read `to_json` output, checking every field; damage raises `ParseError`."""
        if not isinstance(data, dict) or set(data) != {"game", "hand", "commitment", "contributions",
                                                       "sources", "secret"}:
            raise ParseError("a fair deal round has game, hand, commitment, contributions, sources, secret")
        for key in ("game", "hand"):
            if type(data[key]) is not int or not 0 <= data[key] < 2**31:
                raise ParseError(f"a fair deal's {key} number is a whole number")
        values, sources = data["contributions"], data["sources"]
        if not isinstance(values, list) or not isinstance(sources, list) or \
                len(values) != len(sources) or not 2 <= len(values) <= 4:
            raise ParseError("a fair deal has a contribution and its source for every seat")
        if any(source not in SOURCES for source in sources):
            raise ParseError(f"a contribution's source is one of {', '.join(SOURCES)}")
        return cls(data["game"], data["hand"], check_hex(data["commitment"], "a commitment"),
                   tuple(check_hex(v, "a contribution") for v in values), tuple(sources),
                   None if data["secret"] is None else check_hex(data["secret"], "a secret"))


def check_reveal(round_: Round, secret: str, earlier: Collection[str],
                 mine: tuple[int, str] | None = None) -> tuple[str, ...]:
    """What is wrong with a revealed ``secret`` for ``round_`` (an empty tuple when nothing
    is): it must hash to the commitment, the commitment must be new (``earlier`` lists the
    table's earlier ones), the stand-in contributions must be the secret's, and ``mine``
    (seat, value), when given, must be in the list as sent."""
    label = f"hand {round_.hand + 1}"
    problems = []
    if commitment(secret) != round_.commitment:
        problems.append(f"{label}: the revealed secret does not match the commitment sent before the hand")
    if round_.commitment in earlier:
        problems.append(f"{label}: the host used an earlier hand's commitment again")
    for seat, (value, source) in enumerate(zip(round_.contributions, round_.sources)):
        if source != "guest" and value != stand_in(secret, seat):
            problems.append(f"{label}: seat {seat + 1}'s {source} contribution is not the secret's")
    if mine is not None:
        seat, value = mine
        if round_.sources[seat] == "guest" and round_.contributions[seat] != value:
            problems.append(f"{label}: the host changed your contribution")
    return tuple(problems)


SOURCES_OF = {"host": ("host",), "bot": ("bot",), "person": ("guest", "replaced")}   # by seat kind


def check_sources(round_: Round, kinds: Sequence[str]) -> tuple[str, ...]:
    """What is wrong with who a published round says gave each seat's share, against the
    seating a guest knows (``kinds``: ``host``, ``bot`` or ``person`` for each seat): the
    host's and the bots' shares are always the secret's stand-ins, a friend's is its own
    (``guest``) or a stand-in for one that came late (``replaced``). A share labelled a
    friend's where no friend sits would be one the host chose after seeing the others.

    >>> good = Round(0, 2, "", ("", "", ""), ("host", "guest", "bot"))
    >>> check_sources(good, ("host", "person", "bot"))
    ()
    >>> check_sources(Round(0, 2, "", ("", ""), ("guest", "guest")), ("host", "person"))
    ("hand 3: seat 1's share is labelled a friend's (guest), but the host sits there",)
    """
    label = f"hand {round_.hand + 1}"
    if len(round_.sources) != len(kinds):
        return (f"{label}: the host did not publish every seat's share before the deal",)
    whose = {"host": "the host sits there", "bot": "a bot sits there", "person": "a friend sits there"}
    called = {"guest": "a friend's", "host": "the host's", "bot": "a bot's", "replaced": "a stand-in"}
    return tuple(f"{label}: seat {seat + 1}'s share is labelled {called[source]} ({source}), "
                 f"but {whose.get(kind, 'no one sits there')}"
                 for seat, (source, kind) in enumerate(zip(round_.sources, kinds))
                 if source not in SOURCES_OF.get(kind, ()))


@dataclass(frozen=True)
class Seen:
    """The cards one seat saw in one hand: the ``dealer``, its own ``mine`` (``whole`` when it
    saw the deal itself, not only what was left after a reconnection), the ``starter``, cards
    ``played`` as (seat, card), hands and crib ``shown`` as (seat, crib, cards), and the
    game's ``cut`` for deal (first hand only)."""

    seat: int
    dealer: int
    mine: frozenset[Card] = frozenset()
    whole: bool = False
    starter: Card | None = None
    played: frozenset[tuple[int, Card]] = frozenset()
    shown: tuple[tuple[int, bool, tuple[Card, ...]], ...] = ()
    cut: tuple[Card, ...] = ()


def check_seen(config: Config, seed: int, hand: int, seen: Seen) -> tuple[str, ...]:
    """What ``seen`` has that the deck shuffled from ``seed`` does not deal (empty: all is
    where the deck says).

    >>> from game.engine import new_game
    >>> state = new_game(Config(), 11)
    >>> check_seen(Config(), 11, 0, Seen(0, state.dealer, frozenset(state.hands[0]), True))
    ()
    >>> check_seen(Config(), 12, 0, Seen(0, state.dealer, frozenset(state.hands[0]), True))
    ('hand 1: your cards are not the ones the deck deals you',)
    """
    label = f"hand {hand + 1}"
    hands, extra, rest = deal_from(config, seen.dealer, shuffled_deck(seed, hand))
    dealt = {card for cards in hands for card in cards} | ({extra} if extra else set())
    problems = []
    own = set(hands[seen.seat])
    if not seen.mine <= own or (seen.whole and seen.mine != own):
        problems.append(f"{label}: your cards are not the ones the deck deals you")
    if seen.starter is not None and seen.starter != rest[0]:
        problems.append(f"{label}: the starter {seen.starter} is not the deck's ({rest[0]})")
    if any(card not in hands[seat] for seat, card in seen.played):
        problems.append(f"{label}: a card was played that the deck did not deal to its player")
    for seat, crib, cards in seen.shown:
        if not set(cards) <= (dealt if crib else set(hands[seat])) or (crib and extra and extra not in cards):
            problems.append(f"{label}: the {'crib' if crib else f'hand of seat {seat + 1}'} "
                            f"shown is not what the deck dealt")
    if seen.cut and hand == 0 and cut_for_deal(config, seed) != (seen.dealer, seen.cut):
        problems.append(f"{label}: the cut for deal is not the deck's")
    return tuple(problems)


def audit(table: str, config: Config, seed: int, hand_seeds: Sequence[int], rounds: Sequence[Round]) -> tuple[str, ...]:
    """Check a finished game's whole record (`web.profile.records`): every round revealed and matching
    its commitment, no commitment used twice, and each hand dealt from the seed its round
    derives (hand 1 also keys the game's cut for deal, so it is the game's ``seed`` too)."""
    problems: list[str] = []
    earlier: list[str] = []
    for round_ in rounds:
        if round_.hand >= len(hand_seeds):    # committed for a hand the game ended before
            continue
        if round_.secret is None:
            problems.append(f"hand {round_.hand + 1}: the host never revealed its secret")
            continue
        problems += check_reveal(round_, round_.secret, tuple(earlier))
        earlier.append(round_.commitment)
        used = hand_seeds[round_.hand]
        if round_.seed(table) != used or (round_.hand == 0 and used != seed):
            problems.append(f"hand {round_.hand + 1}: the deal did not come from the committed seed")
    if set(range(len(hand_seeds))) - {round_.hand for round_ in rounds}:
        problems.append("some hands were dealt without a fair deal round")
    return tuple(problems)
