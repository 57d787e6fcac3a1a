"""The blind deal: a hand dealt so that no browser, not even the host's, learns a card before
the rules make it public to that seat (issue #38). docs/blind-deal.md says what is hidden from
whom, and how to check it. What it does not prevent: a wrong shuffle (there is no shuffle
proof) lets the last shuffler copy a friend's card into its own hand and read it at the deal;
that is caught with certainty, and the seat named, when it must show that position (it cannot
prove it holds any card there) or at the end-of-hand audit.

- `group`: the 2048-bit Schnorr group, derived with nothing up its sleeve, and the cards in it
  (their elements precomputed in `elements`); fast powers of ``G`` and multi-exponentiation;
- `proofs`: Chaum-Pedersen proofs, "the same secret exponent", and the lock's proof ("this
  position's value before, under my committed keys"), bound to table, hand, step and position,
  and their check many at once with random weights;
- `seating`: the hand's seats, its positions and who holds each, a seat's secret `Keys`;
- `deck`: a human seat's own work: the messages it sends, and its cards;
- `transcript`: what every browser keeps of the hand, and `accept`, which checks each message;
- `audit`: the end-of-hand check of everything, once every seat has published its keys;
- `public`: the play and the show followed from public information only (`Public`);
- `alarms`: an `Alarm` (seat, step, reason) and `Work`, the generators all the above run in;
- `local`: a whole hand with every seat in one process, in the order the table sends messages.

A whole 2-player hand, both seats human: shuffle, lock, deal, play a card.

>>> import random
>>> from game.blind.alarms import finish
>>> from game.blind.deck import deal_unlocks, lock, own_cards, reveal, shuffle
>>> from game.blind.seating import Setup, new_keys
>>> from game.blind.transcript import Hand, accept
>>> setup = Setup("room", 0, 0, players=2, dealer=1, humans=(0, 1), host=0)
>>> keys = [new_keys(setup, seat, random.Random(seat)) for seat in (0, 1)]
>>> hand, rng = Hand(setup), random.Random(9)
>>> for seat in (0, 1):
...     hand, alarms = finish(accept(hand, finish(shuffle(hand, keys[seat], rng))))
>>> for seat in (0, 1):
...     hand, alarms = finish(accept(hand, finish(lock(hand, keys[seat]))))
>>> for seat in (0, 1):
...     hand, alarms = finish(accept(hand, finish(deal_unlocks(hand, keys[seat], rng))))
>>> mine, alarms = finish(own_cards(hand, keys[0]))
>>> len(mine), alarms
(6, ())
>>> position, card = next(iter(mine.items()))
>>> hand, alarms = finish(accept(hand, finish(reveal(hand, keys[0], position, card, rng))))
>>> hand.cards[position] == card, alarms
(True, ())
"""
