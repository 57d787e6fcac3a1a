"""The coach (game.coach): discard rankings checked by brute force against a scorer written
here from the rules (not the engine's nor the bots' code), known positions, properties of every
review, and that a review is built from one seat's knowledge only."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.actions import Action
from game.bots import crib_data, make_bot
from game.bots.common import PAIR_INDEX
from game.cards import DECK, Card, parse_cards
from game.coach import (SeatWalker, review_discard, review_game, review_hand, review_play, think_values,
                        walk)
from game.coach.discards import rank_discards
from game.coach.plays import MIN_LOST
from game.engine import Config, apply, new_game, stack_deck
from game.view import view


# ---- a reference scorer, from RULES.md ------------------------------------------------------

def reference_show(hand, starter) -> int:
    """A four-card hand with its starter, counted the slow, obvious way."""
    five = list(hand) + [starter]
    value = [min(card.rank, 10) for card in five]
    points = 0
    for size in range(2, 6):                       # fifteens: every subset adding to 15
        points += 2 * sum(1 for combo in combinations(range(5), size)
                          if sum(value[i] for i in combo) == 15)
    points += 2 * sum(1 for a, b in combinations(five, 2) if a.rank == b.rank)   # pairs
    for size in (5, 4, 3):                         # runs: only the longest length counts
        runs = [combo for combo in combinations(five, size)
                if sorted(c.rank for c in combo) == list(range(min(c.rank for c in combo),
                                                               min(c.rank for c in combo) + size))]
        if runs:
            points += size * len(runs)
            break
    if len({card.suit for card in hand}) == 1:     # a hand flush: 4, or 5 with the starter
        points += 5 if starter.suit == hand[0].suit else 4
    points += any(card.rank == 11 and card.suit == starter.suit for card in hand)   # nobs
    return points


def reference_crib(players, thrown, my_crib, starter) -> Fraction:
    """The expected crib, read straight from the generated data (hundredths)."""
    if players == 2:
        a, b = sorted(card.rank for card in thrown)
        flat = crib_data.PAIRS_DEALER if my_crib else crib_data.PAIRS_PONE
        row = PAIR_INDEX[(a, b)]
    else:
        flat = crib_data.SINGLE_3P if players == 3 else crib_data.SINGLE_4P
        row = thrown[0].rank - 1
    return Fraction(flat[13 * row + starter.rank - 1], crib_data.SCALE)


def reference_ranking(hand, players, my_crib):
    """{thrown: (hand, crib, value)} for every discard, by brute force over every starter."""
    starters = [card for card in DECK if card not in hand]
    sign = 1 if my_crib else (Fraction(-1, 2) if players == 3 else -1)
    result = {}
    for thrown in combinations(sorted(hand), 2 if players == 2 else 1):
        kept = [card for card in hand if card not in thrown]
        shown = Fraction(sum(reference_show(kept, s) for s in starters), len(starters))
        crib = sum(reference_crib(players, thrown, my_crib, s) for s in starters) / len(starters)
        result[thrown] = (shown, crib, shown + sign * crib)
    return result


@pytest.mark.parametrize("hand,starter,points", [
    ("5H 5D 5C JS", "5S", 29), ("4H 5D 6C 9S", "KD", 9), ("2H 4H 6H 8H", "KC", 4),
    ("2H 4H 6H 8H", "KH", 5), ("JD 3C 4C 8S", "7D", 1 + 4), ("3H 3D 4C 5S", "5D", 20),
    ("AH 2D 3C 4S", "5H", 7), ("TH JH QH KH", "AS", 4 + 4), ("7C 8D 8H 9S", "9C", 20),
])
def test_the_reference_scorer_counts_textbook_hands(hand, starter, points):
    assert reference_show(parse_cards(hand), Card.parse(starter)) == points


# ---- discards: brute force, exactly -----------------------------------------------------------

@pytest.mark.parametrize("players,deals", [(2, 30), (3, 12), (4, 12)])
def test_every_discard_of_random_hands_matches_brute_force_exactly(players, deals):
    rng = random.Random(players)
    for _ in range(deals):
        hand = rng.sample(DECK, 6 if players == 2 else 5)
        my_crib = rng.random() < 0.5
        options = rank_discards(hand, players, my_crib, [c for c in DECK if c not in hand])
        expected = reference_ranking(hand, players, my_crib)
        assert len(options) == len(expected) == (15 if players == 2 else 5)
        for option in options:
            shown, crib, value = expected[tuple(sorted(option.thrown))]
            assert (option.hand, option.crib, option.value) == (shown, crib, value)
            assert sorted(option.kept + option.thrown) == sorted(hand)


def seat_view(hands, starter, dealer=0, players=2, extra=None, seat=0):
    config = Config(players=players)
    deck = stack_deck(config, dealer, [parse_cards(h) for h in hands], Card.parse(starter),
                      Card.parse(extra) if extra else None)
    state = new_game(config, seed=1, stacked=[deck], first_dealer=dealer)
    return state, view(state, seat)


# 5-5-5-J over the 46 starters left after 5H 5D 5C JS 2C 3D, counted by hand: 14 points always
# (four fifteens and a pair royal); a ten-card adds three fifteens (12 cards: 20, the three
# spades 21), a jack three fifteens and a pair (3 cards: 22), the last five 29; the other 30
# cards add nothing but nobs for the 8 spades.  (240 + 3 + 66 + 29 + 420 + 8) / 46 = 383/23.
FIVES = Fraction(12 * 20 + 3 + 3 * 22 + 29 + 30 * 14 + 8, 46)


@pytest.mark.parametrize("dealer", [0, 1])
def test_five_five_five_jack_keeps_the_fives_as_dealer_and_as_pone(dealer):
    _, seen = seat_view(["5H 5D 5C JS 2C 3D", "KH QH 9C 8C 7D 6S"], "4S", dealer=dealer)
    review = review_discard(seen, Action.discard(0, parse_cards("2C 3D")))
    assert review.best.kept_text == "5C 5D 5H JS" and review.best.thrown_text == "2C 3D"
    assert review.best.hand == FIVES == Fraction(383, 23)
    starters = [card for card in DECK if card not in parse_cards("5H 5D 5C JS 2C 3D")]
    crib = sum(reference_crib(2, parse_cards("2C 3D"), dealer == 0, s) for s in starters) / 46
    assert review.my_crib is (dealer == 0) and review.gave_away == 0 and review.best.crib == crib
    assert review.best.value == FIVES + (crib if dealer == 0 else -crib)
    # Splitting the fives costs far more than the crib can give back, from either seat.
    split = next(o for o in review.options if o.thrown_text == "5C JS")
    assert review.best.value - split.value > 5


def test_the_points_a_discard_gave_away_and_what_it_made():
    state, seen = seat_view(["5H 5D 5C JS 2C 3D", "KH QH 9C 8C 7D 6S"], "4S", dealer=1)
    review = review_discard(seen, Action.discard(0, parse_cards("5H JS")))
    assert review.choice.thrown_text == "5H JS"
    assert review.gave_away == review.best.value - review.choice.value > 5
    shown = review_discard(seen, Action.discard(0, parse_cards("2C 3D")), Card.parse("4S"), 20, 6)
    assert shown.actual == 20 - 6 and shown.gave_away == 0


def test_a_discard_review_refuses_what_is_not_a_discard_of_this_hand():
    _, seen = seat_view(["5H 5D 5C JS 2C 3D", "KH QH 9C 8C 7D 6S"], "4S")
    with pytest.raises(ValueError, match="not a discard"):
        review_discard(seen, Action.discard(0, parse_cards("KH QH")))
    state, _ = seat_view(["5H 5D 5C JS 2C 3D", "KH QH 9C 8C 7D 6S"], "4S")
    state, _ = apply(state, "0 discard 2C 3D")
    with pytest.raises(ValueError, match="about to discard"):
        review_discard(view(state, 0))
    with pytest.raises(ValueError):
        rank_discards(parse_cards("5H 5D 5C"), 2, True, DECK[:10])


def test_three_players_count_a_rivals_crib_at_half():
    _, seen = seat_view(["5H 5D 5C JS 2C", "KH QH 9C 8C 7D", "AS AD 9H 9D 4C"], "4S",
                        dealer=1, players=3, extra="TC")
    review = review_discard(seen)
    assert len(review.options) == 5 and review.sign == Fraction(-1, 2) and review.chosen is None
    assert all(o.value == o.hand - o.crib / 2 for o in review.options)


cards_st = st.lists(st.sampled_from(DECK), min_size=6, max_size=6, unique=True)


@settings(max_examples=40)
@given(cards_st, st.booleans(), st.integers(0, 14), st.sampled_from([2, 3, 4]))
def test_a_ranking_is_sorted_holds_the_choice_and_never_gives_away_less_than_nothing(
        cards, my_crib, pick, players):
    hand = cards if players == 2 else cards[:5]
    options = rank_discards(hand, players, my_crib, [c for c in DECK if c not in hand])
    values = [option.value for option in options]
    assert values == sorted(values, reverse=True)
    chosen = options[pick % len(options)]
    assert chosen in options and values[0] - chosen.value >= 0
    assert len({option.thrown for option in options}) == len(options)


# ---- the play ---------------------------------------------------------------------------------

def first_play_view():
    config = Config()
    deck = stack_deck(config, 0, [parse_cards("KH QH 2C 3C 4D 5S"),
                                  parse_cards("TD 5C 7H 8H 9S AS")], Card.parse("6D"))
    state = new_game(config, seed=1, stacked=[deck], first_dealer=0)
    for action in ("0 discard KH QH", "1 discard 7H 8H", "1 play TD"):
        state, _ = apply(state, action)
    return view(state, 0)


def test_a_play_that_missed_a_fifteen_is_a_mistake_and_the_fifteen_is_not():
    seen = first_play_view()
    missed = review_play(seen, Action.parse("0 play 3C"))
    took = review_play(seen, Action.parse("0 play 5S"))
    assert missed.best_rank == 5 and missed.mistake and missed.lost >= 1
    assert took.lost == 0 and not took.mistake
    assert missed.values == took.values    # the same position: the same estimate, every time
    ranked = [value for _, value in missed.values]
    assert ranked == sorted(ranked, reverse=True)
    assert {rank for rank, _ in missed.values} == {2, 3, 4, 5}


def test_a_play_review_refuses_a_card_that_is_not_legal_or_a_turn_without_choice():
    seen = first_play_view()
    with pytest.raises(ValueError, match="not a legal play"):
        review_play(seen, Action.parse("0 play KH"))
    hints = think_values(seen)
    with pytest.raises(StopIteration):
        while True:
            next(hints)


# ---- a whole game, from one seat's knowledge ------------------------------------------------

def bot_game(players=2, seed=4, target=61, level="medium"):
    start = state = new_game(Config(players=players, target=target), seed)
    bots = [make_bot(level, seat + 1) for seat in range(players)]
    while state.phase != "over":
        seat = next(s for s in range(players) if view(state, s).legal)
        state, _ = apply(state, bots[seat].choose(view(state, seat)))
    return start, state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_review_adds_up_its_hands(players):
    start, state = bot_game(players, seed=players)
    hands = walk(start, state.actions, seat=0)
    assert all(hand.discard_view.seat == 0 for hand in hands)
    summary = review_game(hands, pegging=players == 2)
    assert summary.hands == sum(1 for hand in hands if hand.discard)
    assert summary.discard_lost == sum(r.discard.gave_away for r in summary.reviews) >= 0
    assert summary.pegging_lost == sum(p.lost for r in summary.reviews for p in r.plays if p.lost >= MIN_LOST)
    assert summary.pegging_lost >= 0
    for hand, review in zip(hands, summary.reviews):
        assert review.discard.choice.thrown == tuple(sorted(hand.discard.cards))
        if hand.shown:   # the show made the seat's hand public: the review says what it made
            assert review.discard.hand_shown == hand.hand_shown is not None


def test_the_review_is_the_same_whatever_the_hidden_cards_are():
    """Two deals that differ only in the other player's cards and the deck: seat 0's reviews of
    its discard and its first play must not change (they cannot have read the hidden cards)."""
    reviews = []
    for other in ("KH QH 9C 8C 7D 6S", "AS 2S 3S 6S 6H 7H"):
        state, seen = seat_view(["5H 5D 5C JS 2C 3D", other], "4S", dealer=0)
        start = state
        state, _ = apply(state, "0 discard 2C 3D")
        state, _ = apply(state, f"1 discard {' '.join(other.split()[:2])}")
        hands = walk(start, state.actions, seat=0)
        reviews.append(review_hand(hands[0], pegging=False).discard)
    assert reviews[0] == reviews[1]


def test_known_play_reviews_are_reused_not_searched_again():
    start, state = bot_game(2, seed=9)
    hands = walk(start, state.actions, seat=0)
    hand = next(hand for hand in hands if hand.plays)
    seen, action = hand.plays[0]
    known = {seen.state_id: review_play(seen, action)}
    assert review_hand(hand, known=known).plays[0] is known[seen.state_id]


@pytest.mark.parametrize("values,played,lost,decisive", [
    (((5, 3.5), (3, 1.0)), "3C", 2.5, False),
    (((5, 1004.0), (3, 2.0)), "3C", 10.0, True),       # missed the winning card
    (((5, 1004.0), (3, 1002.0)), "3C", 0.0, False),    # both win: nothing lost
    (((5, 2.0), (3, -1003.0)), "3C", 10.0, True),      # laid the card that loses the game
    (((5, 30.0), (3, 1.0)), "3C", 10.0, False),        # capped
])
def test_what_a_play_gave_away_near_the_end_of_the_game(values, played, lost, decisive):
    from game.coach.plays import PlayReview
    review = PlayReview(Card.parse(played), 10, values)
    assert (review.lost, review.decisive) == (lost, decisive)


def views_of_game(players: int, seed: int, seat: int, level: str = "easy"):
    """A bot game as a guest at ``seat`` gets it: its view after every move, with the events."""
    state = start = new_game(Config(players=players, target=61), seed=seed)
    bots = [make_bot(level, s + 1) for s in range(players)]
    fed = [(view(state, seat), ())]
    while state.phase != "over":
        mover = next(s for s in range(players) if view(state, s).legal)
        state, events = apply(state, bots[mover].choose(view(state, mover)))
        fed.append((view(state, seat), tuple(events)))
    return start, state, fed


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_guest_fed_only_its_views_finds_the_same_hands_as_the_whole_game(players):
    for seat in range(players):
        start, state, fed = views_of_game(players, seed=20 + players, seat=seat)
        walker = SeatWalker(seat)
        for seen, events in fed:
            walker.see(seen, events)
        hands = walk(start, state.actions, seat)
        assert walker.hands == hands and walker.over
        assert sum(len(hand.plays) for hand in hands) > 0


def test_a_guest_starts_a_new_walk_when_the_host_starts_a_rematch():
    walker = SeatWalker(1)
    for seed in (3, 4):
        start, state, fed = views_of_game(2, seed=seed, seat=1)
        for seen, events in fed:
            walker.see(seen, events)
        assert walker.hands == walk(start, state.actions, 1)


@settings(max_examples=25)
@given(st.sampled_from([2, 3, 4]), st.integers(0, 10_000), st.data())
def test_a_guest_that_missed_views_finds_less_but_never_anything_wrong(players, seed, data):
    """A guest's page closed for a while: the hands and plays it did see are right, the
    decisions made meanwhile are missing, never misplaced."""
    start, state, fed = views_of_game(players, seed=seed, seat=0)
    kept = data.draw(st.lists(st.booleans(), min_size=len(fed), max_size=len(fed)))
    walker = SeatWalker(0)
    for (seen, events), keep in zip(fed, kept):
        if keep:
            walker.see(seen, events)
    truth = {hand.key: hand for hand in walk(start, state.actions, 0)}
    for hand in walker.hands:
        true = truth[hand.key]
        assert hand.discard_view == true.discard_view
        assert hand.discard in (None, true.discard)
        assert all(play in true.plays for play in hand.plays)
        for field in ("starter", "hand_shown", "crib_shown"):
            assert getattr(hand, field) in (None, getattr(true, field))
