"""Scripted hands with a stacked deck: each consequence of the rules, played out."""

from dataclasses import replace

import pytest

from game.cards import Card, parse_cards
from game.engine import Config, apply, legal_actions, new_game, stack_deck
from game.errors import IllegalActionError, ParseError


def table(players, dealer, hands, starter, extra=None, scores=None, target=121):
    """A game whose first hand deals ``hands`` (seat -> cards text) and turns ``starter``."""
    config = Config(players=players, target=target)
    dealt = {seat: parse_cards(text) for seat, text in hands.items()}
    deck = stack_deck(config, dealer, dealt, Card.parse(starter),
                      Card.parse(extra) if extra else None)
    state = new_game(config, seed=1, stacked=[deck], first_dealer=dealer)
    if scores:
        state = replace(state, scores=tuple(scores), previous=tuple(scores))
    return state


def run(state, *moves):
    events = []
    for move in moves:
        state, new = apply(state, move)
        events += new
    return state, events


def pegs(events):
    return [(e.seat, e.breakdown.label()) for e in events if e.kind == "peg"]


def kinds(events):
    return [e.kind for e in events]


PONE_29 = {1: "5H 5D 5C JS 2C 3C", 0: "4S 6S 7D 8D 9H TC"}


def test_a_whole_two_player_hand_scores_as_counted_by_hand():
    state = table(2, dealer=0, hands=PONE_29, starter="5S")
    state, events = run(state, "1 discard 2C 3C", "0 discard 9H TC")
    assert kinds(events) == ["discard", "discard", "starter"] and state.turn == 1
    state, events = run(state, "1 play 5H", "0 play 6S", "1 play 5D", "0 play 4S", "1 play 5C")
    assert pegs(events) == [(0, "run of 3 for 3"), (1, "go for 1")]     # 6-5-4, then nobody can play
    assert [e.seat for e in events if e.kind == "go"] == [0] and state.count == 0
    assert state.turn == 0                                               # left of the go's winner
    state, events = run(state, "0 play 7D", "1 play JS", "0 play 8D")
    assert pegs(events)[0] == (0, "last card for 1")
    shows = [(e.kind, e.seat, e.breakdown.total) for e in events if e.kind in ("show", "crib")]
    assert shows == [("show", 1, 29), ("show", 0, 9), ("crib", 0, 4)]  # pone first, crib last
    assert state.scores == (4 + 9 + 4, 1 + 29)
    assert state.phase == "discard" and state.dealer == 1 and len(state.hands[0]) == 6
    assert kinds(events)[-1] == "deal"


def test_thirty_one_with_a_pair_is_four_and_a_last_card_thirty_one_is_two():
    state = table(2, dealer=0, hands={1: "KH 6H KS 5S 2C 3C", 0: "9C 6D QC 6C 2D 3D"}, starter="AC")
    state, _ = run(state, "1 discard 2C 3C", "0 discard 2D 3D")
    state, events = run(state, "1 play KH", "0 play 9C", "1 play 6H", "0 play 6D")
    assert pegs(events) == [(0, "thirty-one for 2, pair for 2")] and state.turn == 1
    state, events = run(state, "1 play KS", "0 play QC", "1 play 5S", "0 play 6C")
    assert pegs(events)[0] == (0, "thirty-one for 2")                 # no extra point for last card
    assert kinds(events)[kinds(events).index("peg") + 1] == "reset"


def test_his_heels_can_win_before_any_card_is_played():
    state = table(2, dealer=0, hands=PONE_29, starter="JH", scores=(119, 0))
    state, events = run(state, "1 discard 2C 3C", "0 discard 9H TC")
    assert pegs(events) == [(0, "his heels for 2")]
    assert kinds(events)[-1] == "game_over"
    assert (state.phase, state.winner, state.scores) == ("over", 0, (121, 0))
    assert state.verdicts == ("win", "double skunk")
    assert legal_actions(state, 1) == ()
    with pytest.raises(IllegalActionError, match="over"):
        apply(state, "1 play 5H")


def test_a_go_at_120_wins_and_nothing_later_in_the_hand_is_scored():
    hands = {1: "KH QH JD TC 2C 3C", 0: "9S 5H 5D 8C 2D 3D"}
    state = table(2, dealer=0, hands=hands, starter="AS", scores=(50, 120))
    state, _ = run(state, "1 discard 2C 3C", "0 discard 2D 3D")
    state, events = run(state, "1 play KH", "0 play 9S", "1 play QH")
    assert pegs(events) == [(1, "go for 1")]
    assert "show" not in kinds(events) and kinds(events)[-1] == "game_over"
    assert state.scores == (50, 121) and state.verdicts == ("double skunk", "win")


def test_the_pone_wins_in_the_show_before_the_dealer_counts_a_bigger_hand():
    hands = {1: "2H 3H 4C 9C QH KH", 0: "5H 5D 5C JS QD KD"}
    state = table(2, dealer=0, hands=hands, starter="5S", scores=(100, 113))
    state, _ = run(state, "1 discard QH KH", "0 discard QD KD")
    state, events = run(state, "1 play 9C", "0 play 5H", "1 play 4C", "0 play 5D", "1 play 3H",
                        "0 play 5C", "1 play 2H", "0 play JS")
    assert pegs(events)[:3] == [(1, "run of 3 for 3"), (0, "thirty-one for 2"),
                                (0, "last card for 1")]
    shows = [e for e in events if e.kind == "show"]
    assert [(e.seat, e.breakdown.total) for e in shows] == [(1, 6)]   # the dealer's 29 never counts
    assert state.winner == 1 and state.scores == (103, 122) and state.verdicts == ("loss", "win")


def test_three_players_the_go_goes_round_to_the_last_card_laid():
    hands = {1: "KH 6H 7H 8D 2S", 2: "QD 6D 7D 9C 3S", 0: "TC 6C 7C 9D 4S"}
    state = table(3, dealer=0, hands=hands, starter="AS", extra="AH")
    assert len(state.crib) == 1
    state, events = run(state, "1 discard 2S", "2 discard 3S", "0 discard 4S")
    assert len(state.crib) == 4 and [len(h) for h in state.hands] == [4, 4, 4]
    state, events = run(state, "1 play KH", "2 play QD", "0 play TC")
    assert [e.seat for e in events if e.kind == "go"] == [1, 2]
    assert pegs(events) == [(0, "go for 1")] and state.turn == 1


def test_four_players_partners_peg_together():
    hands = {0: "7H 9H TH JH", 1: "3C 8C 9C TC", 2: "5H 2D 4D 6D", 3: "KS QS JS TS"}
    hands = {seat: text + f" {extra}" for seat, text, extra in
             [(0, hands[0], "AC"), (1, hands[1], "AD"), (2, hands[2], "AH"), (3, hands[3], "AS")]}
    state = table(4, dealer=3, hands=hands, starter="2C")
    state, _ = run(state, "0 discard AC", "1 discard AD", "2 discard AH", "3 discard AS")
    assert state.turn == 0
    state, events = run(state, "0 play 7H", "1 play 3C", "2 play 5H")
    assert pegs(events) == [(2, "fifteen for 2")]
    assert [e.side for e in events if e.kind == "peg"] == [0] and state.scores == (2, 0)


def test_a_match_continues_with_the_loser_dealing_the_next_game():
    config = Config(players=2, match_wins=2)
    deck = stack_deck(config, 0, {k: parse_cards(v) for k, v in PONE_29.items()}, Card.parse("JH"))
    state = new_game(config, seed=1, stacked=[deck], first_dealer=0)
    state = replace(state, scores=(119, 80), previous=(119, 80))
    state, events = run(state, "1 discard 2C 3C", "0 discard 9H TC")
    assert kinds(events)[-2:] == ["game_over", "deal"] and state.wins == (1, 0)
    over = next(e for e in events if e.kind == "game_over")
    assert over.verdicts == ("win", "skunk") and over.scores == (121, 80)
    assert (state.phase, state.game_no, state.dealer, state.scores) == ("discard", 1, 1, (0, 0))


def test_cut_for_deal_picks_the_lowest_card():
    state = new_game(Config(players=3), seed=11)
    assert len(state.cut) == 3
    lowest = min(card.rank for card in state.cut)
    assert [card.rank for card in state.cut].count(lowest) == 1
    assert state.cut[state.dealer].rank == lowest


@pytest.mark.parametrize("move, message", [
    ("1 play 5H", "crib cards first"),
    ("1 discard 2C", "exactly 2 cards"),
    ("1 discard 9H TC", "not in your hand"),
    ("3 discard 2C 3C", "no seat 3"),
])
def test_illegal_discards_are_refused_and_change_nothing(move, message):
    state = table(2, dealer=0, hands=PONE_29, starter="5S")
    before = repr(state)
    with pytest.raises(IllegalActionError, match=message):
        apply(state, move)
    assert repr(state) == before


def test_illegal_plays_are_refused_with_readable_messages():
    state = table(2, dealer=0, hands={1: "KH QH JD TC 2C 3C", 0: "9S 5H 5D 8C 2D 3D"}, starter="AS")
    state, _ = run(state, "1 discard 2C 3C")
    with pytest.raises(IllegalActionError, match="already"):
        apply(state, "1 discard KH QH")
    state, _ = run(state, "0 discard 2D 3D")
    with pytest.raises(IllegalActionError, match="not your turn"):
        apply(state, "0 play 9S")
    with pytest.raises(IllegalActionError, match="time to play"):
        apply(state, "1 discard KH QH")
    state, _ = run(state, "1 play KH", "0 play 5H", "1 play QH")
    with pytest.raises(IllegalActionError, match="past 31"):
        apply(state, "0 play 9S")
    assert [str(a) for a in legal_actions(state, 0)] == ["0 play 5D"]
    assert legal_actions(state, 1) == ()
    with pytest.raises(ParseError):
        apply(state, "1 play 1Z")
    with pytest.raises(ParseError):
        apply(state, 42)
