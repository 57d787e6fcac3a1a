"""A guest's half of the fair deal (`game.fair`): answer each round with a fresh random share,
remember every card this seat saw, check each hand when its secret is revealed, and raise an
alarm on this guest's own screen whenever it cannot check a hand it was dealt. Pure Python:
the randomness is passed in.

Everything is tied to the views the host sends (`web.friends.protocol`): a view says which of
the table's games it belongs to and carries that game's rounds. A guest answers only the round
of the hand after the one on the table (or a new game's first, once the game before is over),
once; and it holds the host to this order, each break of it an alarm:

- the game's number changes only when a game is over (a rematch);
- a round's commitment never changes, and no commitment is used twice;
- a hand's shares are fixed when it is dealt (they come with its first view), labelled as the
  seating says (the host's and the bots' seats are stand-ins, a friend's its own share, or a
  stand-in for one that came late) and with this guest's share as sent;
- the next hand's commitment comes with each deal, a hand's secret by the next deal, every
  secret and the game's record with the view that ends the game.

Each hand ends ``verified`` (every check passed), ``alarm`` with the reasons (they stay with the
game's record, `web.profile.records`), or ``unchecked`` when the deck was checked but this
guest's own share was not in it because it was away (the reason says so). A page that reloads
keeps all of it (`to_json`, `load`), so nothing is checked less for a reload.

>>> from game.fair import commitment
>>> watch = FairWatch("room-0123456789", value_source=lambda: "cd" * 32)
>>> watch.seat = 1
>>> watch.commit(0, 0, commitment("ab" * 32))
[(0, 0, 'cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd')]
>>> watch.commit(1, 0, commitment("ef" * 32)), watch.alarms
([], ['the host asked for the shuffle of game 2 as well as another'])
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from game.cards import Card
from game.engine import OVER, Config
from game.errors import ParseError
from game.events import Event
from game.fair import Round, Seen, check_reveal, check_seen, check_sources
from game.view import View

from .verdicts import ALARM, UNCHECKED, VERIFIED

Key = tuple[int, int]      # (game, hand)
Verdict = tuple[str, tuple[str, ...]]   # (VERIFIED | ALARM | UNCHECKED, reasons)
KEPT_COMMITMENTS = 500     # commitments a page remembers across a reload, to catch one used again
MAX_ALARMS = 200           # a hostile host cannot grow a guest's memory with alarms (the first say most)


class FairWatch:
    """Everything one guest knows about the fair deal at its table."""

    def __init__(self, room: str, value_source: Callable[[], str] = lambda: secrets.token_hex(32)) -> None:
        self.room, self.value_source = room, value_source
        self.seat: int | None = None
        self.kinds: tuple[str, ...] = ()    # each seat's kind (host, person, bot), from the table
        self.game: int | None = None        # the table's game this guest's views are of
        self.over = False                   # ... and whether it is over
        self.rounds: dict[Key, Round] = {}  # (game, hand) -> Round as published so far
        self.commitments: dict[str, Key] = {}   # every commitment received -> its (game, hand), oldest first
        self.shares: dict[Key, tuple[str, int]] = {}   # (game, hand) -> (this guest's share, the epoch it was sent in)
        self.epoch = 0                      # connections so far (one more at each welcome); -1: a page before a reload
        self.seen: dict[Key, Seen] = {}     # (game, hand) -> Seen
        self.verdicts: dict[Key, Verdict] = {}   # (game, hand) -> (VERIFIED | ALARM | UNCHECKED, reasons)
        self.alarms: list[str] = []
        self.outbox: list[tuple[int, int, str]] = []   # shares to send: (game, hand, value)

    # -- the host's messages --

    def welcomed(self) -> None:
        """A new connection to the host: shares not yet used are sent again on it."""
        self.epoch += 1

    def commit(self, game: int, hand: int, commitment: str) -> list[tuple[int, int, str]]:
        """A game's first round (``fair_commit``, before its deal): answered when it is the
        next game's, once; returns the shares to send."""
        key, here = (game, hand), self._here(game)
        others = {g for (g, h) in self.rounds if h == 0 and g != game and (self.game is None or g > self.game)}
        if hand != 0:
            self.alarm(here, f"hand {hand + 1}: the host asked for its shuffle apart from the deals")
        elif self.game is not None and not self.over:
            self.alarm(here, f"the host asked for a new game's shuffle during game {self.game + 1}")
        elif others or (self.game is not None and game != self.game + 1):
            self.alarm(here, f"the host asked for the shuffle of game {game + 1} as well as another")
        elif self._take_commitment(Round(game, hand, commitment, (), ())) or \
                self.rounds[key].commitment == commitment:
            self._answer(key)
        return self.take_outbox()

    def see(self, view: View, events: Iterable[Event], game: int, rounds: Iterable[Round],
            full: bool) -> list[tuple[int, int, str]]:
        """A view from the host with its game number and rounds (`web.friends.protocol`);
        ``full`` for a full sync after a (re)connection. Returns the shares to send."""
        if self.game is None or game == self.game or (game == self.game + 1 and self.over) or \
                (full and game > self.game):
            self.game = game
        else:
            self.alarm((self.game, view.hand_no), f"the host moved this game's deals to game {game + 1}")
        self.saw(view, events)
        for round_ in rounds:
            self._round(round_, view)
        self._obligations(view)
        self.over = view.phase == OVER
        return self.take_outbox()

    def take_outbox(self) -> list[tuple[int, int, str]]:
        out, self.outbox = self.outbox, []
        return out

    def _take_commitment(self, round_: Round) -> bool:
        """Keep a new round's commitment: False (and an alarm) if it changes or repeats one."""
        key = (round_.game, round_.hand)
        known = self.rounds.get(key)
        if known is not None:
            if known.commitment != round_.commitment:
                self.alarm(key, f"hand {round_.hand + 1}: the host sent a second commitment for its shuffle")
            return False
        if self.commitments.get(round_.commitment, key) != key:   # its secret is known to whoever saw it revealed
            self.alarm(key, f"hand {round_.hand + 1}: the host used an earlier hand's commitment again")
            return False
        self.rounds[key] = Round(round_.game, round_.hand, round_.commitment, (), ())
        self.commitments[round_.commitment] = key
        return True

    def _answer(self, key: Key) -> None:
        """Send this guest's share of an open round: a fresh one, or the one sent before on a
        connection since lost (the host takes each seat's share once)."""
        share = self.shares.get(key)
        if share is None:
            share = (self.value_source(), self.epoch)
        elif share[1] == self.epoch:
            return
        self.shares[key] = (share[0], self.epoch)
        self.outbox.append((*key, share[0]))

    def _round(self, round_: Round, view: View) -> None:
        assert self.game is not None, "see sets the game first"
        key, hand = (round_.game, round_.hand), round_.hand
        if round_.game != self.game:
            return self.alarm(self._here(), f"the host sent a round of game {round_.game + 1} with game {self.game + 1}")
        if key not in self.rounds:
            if hand > view.hand_no + 1:
                return self.alarm(self._here(), f"hand {hand + 1}: the host asked for its shuffle before hand "
                                                f"{hand} was dealt")
            if not self._take_commitment(round_):
                return
        elif self.rounds[key].commitment != round_.commitment:
            return self.alarm(key, f"hand {hand + 1}: the host sent a second commitment for its shuffle")
        known = self.rounds[key]
        if round_.contributions and not known.contributions:
            known = self._published(known, round_)
        elif round_.contributions and round_.contributions != known.contributions:
            self.alarm(key, f"hand {hand + 1}: the host changed the shares it had published")
        if not known.contributions and hand == view.hand_no + 1 and view.phase != OVER:
            self._answer(key)
        if round_.secret is not None and known.contributions:
            if known.secret is None:
                self._reveal(known, round_.secret, view.config)
            elif known.secret != round_.secret:
                self.alarm(key, f"hand {hand + 1}: the host revealed a second secret")

    def _published(self, known: Round, round_: Round) -> Round:
        """A round's shares, fixed: check who gave each, and this guest's own."""
        key, label = (round_.game, round_.hand), f"hand {round_.hand + 1}"
        known = replace(known, contributions=round_.contributions, sources=round_.sources)
        self.rounds[key] = known
        for problem in check_sources(known, self.kinds):
            self.alarm(key, problem)
        if self.seat is None or self.seat >= len(known.sources):
            return known
        source, value, share = known.sources[self.seat], known.contributions[self.seat], self.shares.get(key)
        if share is None and source == "guest":
            self.alarm(key, f"{label}: the host put in a share for you that you never sent")
        elif share is not None and source == "guest" and value != share[0]:
            self.alarm(key, f"{label}: the host changed your share of the shuffle")
        elif source == "replaced" and share is not None and share[1] == self.epoch:
            self.alarm(key, f"{label}: your share of the shuffle was sent in time but the host did not use it")
        elif source == "replaced":
            self.note(key, f"{label}: your share is not in this deal (you were away when it was shuffled); "
                           f"the host's locked-in secret stood in for it")
        return known

    def _reveal(self, round_: Round, secret: str, config: Config) -> None:
        """Check a revealed hand: its secret, its shares' stand-ins and every card seen."""
        key = (round_.game, round_.hand)
        others = tuple(c for c, of in self.commitments.items() if of != key)
        problems = list(check_reveal(round_, secret, others))
        round_ = replace(round_, secret=secret)
        self.rounds[key] = round_
        if not problems and key in self.seen:
            problems += check_seen(config, round_.seed(self.room), round_.hand, self.seen[key])
        for problem in problems:
            self.alarm(key, problem)
        if key not in self.verdicts:
            self.verdicts[key] = (VERIFIED, ())

    def _obligations(self, view: View) -> None:
        """What must have come with or before this view: the shares of the hand on the table,
        the next hand's commitment, the secret of every hand before it (of every hand, at the
        end)."""
        game, hand = self.game, view.hand_no
        assert game is not None, "see sets the game first"
        round_ = self.rounds.get((game, hand))
        if round_ is None or not round_.contributions:
            self.alarm((game, hand), f"hand {hand + 1} was dealt without its shuffle's shares published")
        if view.phase != OVER and (game, hand + 1) not in self.rounds:
            self.alarm((game, hand + 1), f"hand {hand + 1} was dealt without asking for your share of the next")
        last = hand if view.phase == OVER else hand - 1
        for (g, h) in self.seen:
            if g == game and h <= last and self.rounds.get((g, h), Round(g, h, "", (), ())).secret is None:
                self.alarm((g, h), f"hand {h + 1}: the host did not reveal its secret by "
                                   f"{'the end of the game' if h == hand else 'the next deal'}")

    def _here(self, game: int = 0) -> tuple[int, int]:
        """The hand on the table now: where an alarm about a round that is no hand's is kept
        (so a host cannot make a guest keep verdicts for hands that never were)."""
        hands = [h for g, h in self.seen if g == self.game]
        return (game if self.game is None else self.game, max(hands, default=0))

    def alarm(self, key: Key, reason: str) -> None:
        if len(self.alarms) >= MAX_ALARMS and reason not in self.alarms:
            return
        reasons = self.verdicts.get(key, (ALARM, ()))[1]
        if reason not in reasons:
            self.verdicts[key] = (ALARM, reasons + (reason,))
        if reason not in self.alarms:
            self.alarms.append(reason)

    def note(self, key: Key, reason: str) -> None:
        """A hand checked without this guest's share in it (unless something worse is found)."""
        verdict, reasons = self.verdicts.get(key, (UNCHECKED, ()))
        self.verdicts[key] = (verdict if verdict == ALARM else UNCHECKED, reasons + (reason,))

    # -- what this seat saw --

    def saw(self, view: View, events: Iterable[Event]) -> None:
        """Note the cards in a view and the events that led to it (a show's cards arrive with
        the next hand's first view, so events are counted back from the deals among them)."""
        if self.seat is None or view.seat != self.seat or self.game is None:   # (`see` sets the game)
            return
        events = list(events)
        hand = view.hand_no - sum(event.kind == "deal" for event in events)
        for event in events:
            if event.kind == "deal":
                hand += 1
            elif event.kind in ("play", "starter", "show", "crib") and event.cards:
                self._note(hand, event)
        seen = self._seen(view.hand_no, view.dealer)
        assert seen is not None, "a hand's first view names its dealer"
        mine = set(view.hand) | set(view.discarded) | set(view.kept)
        played = {(step.seat, step.card) for step in view.play     # a play names both (game.codec checks)
                  if step.kind == "play" and step.seat is not None and step.card is not None}
        mine |= {card for seat, card in played if seat == self.seat}
        seen = replace(seen, mine=seen.mine | mine, played=seen.played | played,
                       starter=view.starter or seen.starter, cut=view.cut if view.hand_no == 0 else ())
        if len(seen.mine) == view.config.dealt:
            seen = replace(seen, whole=True)
        self.seen[(self.game, view.hand_no)] = seen

    def _seen(self, hand: int, dealer: int | None = None) -> Seen | None:
        assert self.game is not None and self.seat is not None, "`saw` checked both"
        key = (self.game, hand)
        if key not in self.seen and dealer is not None:
            self.seen[key] = Seen(self.seat, dealer)
        return self.seen.get(key)

    def _note(self, hand: int, event: Event) -> None:
        seen = self._seen(hand)
        if seen is None:        # a hand this guest never saw dealt
            return
        assert self.game is not None and event.seat is not None, "`saw` checked the game; game.codec the seat"
        if event.kind == "play":
            mine = seen.mine | set(event.cards) if event.seat == self.seat else seen.mine
            seen = replace(seen, played=seen.played | {(event.seat, event.cards[0])}, mine=mine)
        elif event.kind == "starter":
            seen = replace(seen, starter=event.cards[0])
        else:
            seen = replace(seen, shown=seen.shown + ((event.seat, event.kind == "crib", tuple(event.cards)),))
        self.seen[(self.game, hand)] = seen

    # -- for the screen and the record --

    def marks(self) -> list[tuple[int, str, tuple[str, ...]]]:
        """(hand, verdict, reasons) for this game's hands dealt so far, oldest first."""
        if self.game is None:       # no game yet: no hand
            return []
        hands = {h for (g, h) in self.seen if g == self.game} | \
                {h for (g, h) in self.verdicts if g == self.game and (g, h) in self.rounds
                 and self.rounds[g, h].contributions}
        return [(hand, *self.verdicts.get((self.game, hand), ("pending", ()))) for hand in sorted(hands)]

    def host_given(self) -> set[str]:
        """Which seats' shares the host gave this game: ``bot``, ``replaced`` (late or away)."""
        return {source for (game, _), r in self.rounds.items() if game == self.game
                for source in r.sources if source in ("bot", "replaced")}

    def transcript(self, game: int) -> dict[str, Any]:
        """The game's rounds and alarms, for its record (`web.profile.records`)."""
        dealt = max((h for g, h in self.seen if g == game), default=-1)    # not a round the game never reached
        rounds = [self.rounds[key].to_json() for key in sorted(self.rounds)
                  if key[0] == game and key[1] <= dealt and self.rounds[key].contributions]
        alarms = [reason for key, (verdict, reasons) in sorted(self.verdicts.items())
                  if key[0] == game and verdict == ALARM for reason in reasons]
        return {"table": self.room, "rounds": rounds, "alarms": alarms}

    # -- kept across a reload (the guest's own browser) --

    def to_json(self) -> dict[str, Any]:
        """This game's shares, verdicts and the cards seen of hands not yet checked."""
        game = self.game
        return {"game": game, "over": self.over, "alarms": self.alarms[-200:],
                "commitments": [[g, h, c] for c, (g, h) in list(self.commitments.items())[-KEPT_COMMITMENTS:]],
                "shares": [[g, h, value] for (g, h), (value, _) in self.shares.items() if g >= (game or 0)],
                "verdicts": [[g, h, verdict, list(reasons)] for (g, h), (verdict, reasons) in self.verdicts.items()
                             if g == game],
                "seen": [[g, h, _seen_json(seen)] for (g, h), seen in self.seen.items()
                         if g == game and (g, h) not in self.verdicts]}

    def load(self, data: Any) -> None:
        """Restore `to_json` output (this guest's own, from before a reload); `ParseError` if
        it is damaged, and then nothing is restored."""
        try:
            game = data["game"]
            if game is not None and (type(game) is not int or game < 0):
                raise ValueError("game")
            shares = {(_whole(g), _whole(h)): (_hex(v), -1) for g, h, v in data["shares"]}
            verdicts = {(_whole(g), _whole(h)): (_one_of(v, (VERIFIED, ALARM, UNCHECKED)), tuple(map(str, reasons)))
                        for g, h, v, reasons in data["verdicts"]}
            seen = {(_whole(g), _whole(h)): _seen_from(s) for g, h, s in data["seen"]}
            alarms = [str(a)[:300] for a in data["alarms"]][-200:]
            commitments = {_hex(c): (_whole(g), _whole(h)) for g, h, c in data["commitments"][-KEPT_COMMITMENTS:]}
            over = data["over"] is True
        except (KeyError, TypeError, ValueError) as damaged:
            raise ParseError(f"this table's saved fair deal is damaged ({damaged})") from None
        self.game, self.over, self.shares, self.verdicts = game, over, shares, verdicts
        self.seen, self.alarms, self.commitments, self.epoch = seen, alarms, commitments, 0


def _whole(value: object) -> int:
    if type(value) is not int or not 0 <= value < 2**31:
        raise ValueError("a number")
    return value


def _hex(value: object) -> str:
    if not isinstance(value, str) or len(value) != 64 or value.strip("0123456789abcdef"):
        raise ValueError("a share")
    return value


def _one_of(value: object, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError("a verdict")
    return value


def _seen_json(seen: Seen) -> dict[str, Any]:
    return {"seat": seen.seat, "dealer": seen.dealer, "mine": sorted(map(str, seen.mine)), "whole": seen.whole,
            "starter": None if seen.starter is None else str(seen.starter),
            "played": sorted([seat, str(card)] for seat, card in seen.played),
            "shown": [[seat, crib, [str(c) for c in cards]] for seat, crib, cards in seen.shown],
            "cut": [str(c) for c in seen.cut]}


def _seen_from(data: Any) -> Seen:
    """`_seen_json` output back (a wrong shape raises TypeError, KeyError or ValueError)."""
    return Seen(_whole(data["seat"]), _whole(data["dealer"]), frozenset(Card.parse(t) for t in data["mine"]),
                data["whole"] is True,
                None if data["starter"] is None else Card.parse(data["starter"]),
                frozenset((_whole(seat), Card.parse(card)) for seat, card in data["played"]),
                tuple((_whole(seat), crib is True, tuple(Card.parse(c) for c in cs)) for seat, crib, cs in data["shown"]),
                tuple(Card.parse(c) for c in data["cut"]))
