"""The coach at the table (web.coach.follow, the controller's hint and reviews), in records, statistics
and the replay viewer: pure Python, no browser."""

from __future__ import annotations

import json

import pytest

from game.bots import run
from game.cards import Card, parse_cards
from game.engine import Config, apply, new_game, stack_deck
from game.errors import ParseError
from game.view import view
from web.coach.follow import TableCoach
from web.coach.view import hint_html
from web.controller import Controller
from web.profile.model import Profile
from web.profile.screens import ProfileScreens
from web.profile.view import render_replay, render_stats
from web.profile.records import GameRecord, clean_coach, record_game
from web.render import render
from web.session import Session
from web.profile.stats import compute


def play(ctl: Controller, hint_every_turn: bool = False) -> None:
    """Play the player's seat (the first two cards, the highest playable card) to the end."""
    for _ in range(3000):
        if ctl.session.state.phase == "over" and not ctl.seat_screen.show:
            return
        if ctl.seat_screen.show:
            ctl.command("continue")
        elif ctl.bot_waiting():
            ctl.bot_step()
        else:
            view = ctl.view()
            if hint_every_turn:
                ctl.command("key", "h")
            if view.phase == "discard":
                for card in view.hand[:view.config.to_crib]:
                    ctl.command("select", str(card))
                ctl.command("confirm-discard")
            elif view.legal:
                ctl.command("play", str(view.legal[-1].card))
    raise AssertionError("the game did not end")


def table(seed=5, coach=True) -> Controller:
    ctl = Controller(seed_source=lambda: seed, prefs={"coach": coach})
    ctl.command("start", {"name": "Ann", "level": "easy", "players": "2", "target": "61"})
    return ctl


def test_a_hint_shows_the_best_discard_and_is_kept_with_the_game():
    ctl = table()
    ctl.command("key", "h")
    assert not ctl.error and ctl.seat_screen.announcement.startswith("Hint: throw")
    hint = ctl.current_hint()
    assert hint.kind == "discard" and ctl.session.hints == [ctl.view().state_id]
    html = render(ctl)
    assert 'data-testid="hint"' in html and 'data-testid="hint-line"' in html
    ctl.command("hint")
    assert ctl.session.hints == [ctl.view().state_id]          # asked twice, kept once
    saved = Session.from_json(ctl.session.to_json())
    assert saved.hints == ctl.session.hints


def test_a_hint_goes_when_its_decision_is_made_and_none_is_given_out_of_turn():
    ctl = table()
    ctl.command("hint")
    view = ctl.view()
    for card in view.hand[:2]:
        ctl.command("select", str(card))
    ctl.command("confirm-discard")
    assert ctl.current_hint() is None
    if ctl.view().turn != 0:
        ctl.command("hint")
        assert ctl.error == "there is nothing to choose just now"


def test_a_hint_asked_before_the_table_shows_a_view_is_refused_in_words():
    ctl = Controller(seed_source=lambda: 5)
    ctl.session = Session.new(2, 61, ["Ann", "Bot"], [None, "easy"], seed=3)   # a game, not on screen yet
    assert ctl.hints_allowed() and ctl.view() is None
    ctl.command("hint")
    assert ctl.error == "there is nothing to choose just now" and ctl.hint is None
    assert ctl.session.hints == [] and ctl.seat_screen.announcement == ""

def test_reviews_follow_each_show_and_the_verdict_sums_them_up():
    ctl = table(seed=8)
    seen = []
    for _ in range(3000):
        if ctl.session.state.phase == "over" and not ctl.seat_screen.show:
            break
        if ctl.seat_screen.show:
            if ctl.seat_screen.play_end is not None:    # the beat before the show: as the page, open it first
                ctl.command("continue")
            while ctl.coach_waiting():
                run(ctl.coach_thinking())
            review, missing = ctl.hand_review()
            assert missing == 0 and review.discard.choice is not None
            html = render(ctl)
            assert 'data-testid="coach-review" open' in html and "Discard review" in html
            seen.append(review.number)
            ctl.command("continue")
            assert 'data-testid="coach-review" open' not in render(ctl)   # closed, still there
        else:
            play_once(ctl)
    assert seen == sorted(seen) and seen
    assert 'data-testid="coach-summary"' in render(ctl)
    record = record_game(ctl.session, 0, "2026-12-01T10:00:00Z", coach=ctl.finished_review())
    assert len(record.coach) == ctl.coach.game_review()[0].hands
    assert all(d >= 0 and p >= 0 for d, p in record.coach)


def play_once(ctl: Controller) -> None:
    if ctl.bot_waiting():
        ctl.bot_step()
        return
    view = ctl.view()
    if view.phase == "discard":
        for card in view.hand[:2]:
            ctl.command("select", str(card))
        ctl.command("confirm-discard")
    elif view.legal:
        ctl.command("play", str(view.legal[-1].card))


def test_with_the_coach_off_there_are_no_reviews_but_hints_still_come_on_request():
    ctl = table(coach=False)
    ctl.command("hint")
    assert ctl.current_hint() is not None
    play(ctl)
    assert ctl.hand_review() is None and ctl.finished_review() is None
    assert 'data-testid="coach-summary"' not in render(ctl)


def finished_record(seed=3, coach=True) -> GameRecord:
    ctl = table(seed=seed, coach=coach)
    play(ctl, hint_every_turn=True)
    return record_game(ctl.session, 0, f"2026-12-0{seed}T10:00:00Z", coach=ctl.finished_review())


def test_records_keep_hints_and_figures_locally_and_work_out_again_the_figures_from_elsewhere():
    record = finished_record()
    assert record.hints and record.coach and not record.coach_due
    local = Profile.from_json(Profile.new("Ann").add_record(record).to_json())
    assert local.records[0] == record
    forged = dict(record.to_json(), coach=[[0, 0]] * len(record.coach))   # a flawless game, on paper
    imported = GameRecord.from_json(json.loads(json.dumps(forged)))
    assert imported.hints == record.hints and imported.coach == () and imported.coach_due
    old = record.to_json()
    del old["hints"], old["coach"]
    assert GameRecord.from_json(old).coach == () and not GameRecord.from_json(old).coach_due


def test_an_imported_profile_gets_its_coach_figures_worked_out_here_a_hand_at_a_time():
    record = finished_record()
    exported = Profile.new("Ann").add_record(record).to_json()
    screens = ProfileScreens(Profile.new("Ann", profile_id="other"), clock=lambda: "2026-12-02T00:00:00Z")
    screens.command("import-profile", exported)
    assert screens.profile.records[0].coach == () and screens.review_due()
    assert "going over 1 game" in render_stats(screens.profile)
    saved = Profile.from_json(screens.profile.to_json())           # a reload meanwhile keeps the debt
    assert saved.records[0].coach_due
    steps = 0
    while screens.review_due():
        run(screens.reviewing())
        steps += 1
    assert steps == len(record.coach) > 1                          # one hand per call
    assert screens.profile.records[0].coach == record.coach and not screens.profile.records[0].coach_due
    assert "going over" not in render_stats(screens.profile)


@pytest.mark.parametrize("figures", [[[1]], [[1, -2]], [["1", 2]], "x", [[1, 2.5]]])
def test_damaged_coach_figures_are_refused(figures):
    with pytest.raises(ParseError, match="coach figures"):
        clean_coach(figures)


def test_statistics_track_discard_accuracy_with_a_chart():
    records = [finished_record(seed) for seed in (3, 4)]
    stats = compute(records)["all"]
    hands = sum(len(r.coach) for r in records)
    assert stats.coached_hands == hands
    assert stats.lost_per_hand("discard") == sum(d for r in records for d, _ in r.coach) / 100 / hands
    assert [finished for finished, _ in stats.accuracy] == sorted(r.finished for r in records)
    profile = Profile.new("Ann")
    for record in records:
        profile = profile.add_record(record)
    html = render_stats(profile)
    assert 'data-testid="accuracy-chart"' in html and "Discard accuracy" in html


def test_the_replay_viewer_reviews_the_seats_discard_and_on_request_its_pegging():
    record = finished_record()
    html = render_replay(record, 0)
    assert 'data-testid="replay-coach"' in html and "Discard review" in html
    assert "Pegging review" not in html
    with_pegging = next(render_replay(record, i, True) for i in range(8)
                        if 'data-testid="replay-pegging"' in render_replay(record, i))
    assert "Pegging review" in with_pegging


def test_the_replay_says_in_which_hands_a_hint_was_asked_for():
    record = finished_record()          # a hint at every decision
    assert all('data-testid="replay-hints"' in render_replay(record, i) for i in range(2))


def test_a_hint_with_one_rank_to_play_says_so_without_searching():
    config = Config()
    deck = stack_deck(config, 1, [parse_cards("KH KD KC KS QH QD"), parse_cards("AS 2S 3S 4S 6H 7H")],
                      Card.parse("9C"))
    state = new_game(config, seed=1, stacked=[deck], first_dealer=1)
    state, _ = apply(state, "0 discard QH QD")
    state, _ = apply(state, "1 discard 6H 7H")
    hint = TableCoach(0).hint(view(state, 0))
    assert hint.kind == "only" and "can be played" in hint_html(hint)


def test_a_discard_is_ranked_while_the_play_goes_on_so_the_show_brings_its_review_at_once():
    """Once the player has thrown, the coach's first job is ranking that discard (in slices, as
    the page runs it); the show's review then uses that ranking. The move that brings the show
    paints the show alone: drawing the review is the coach's next job, first of all, and takes
    no search. A hint asked for before the throw has ranked it already."""
    ctl = table(seed=11)
    for card in ctl.view().hand[:2]:
        ctl.command("select", str(card))
    ctl.command("confirm-discard")
    assert ctl.coach_waiting() and ctl.coach.pending()[0] == "rank"
    _, choice = ctl.coach.pending()
    steps = sum(1 for _ in ctl.coach_thinking())
    assert steps == 15 and ctl.coach.pending() is None             # one step per way to throw two
    ranked = ctl.coach.ranked[choice]
    while not ctl.seat_screen.show:
        if ctl.bot_waiting():
            ctl.bot_step()
        else:
            ctl.command("play", str(ctl.view().legal[-1].card))
    ctl.seat_screen.open_show()        # (the page does, a beat after the play's end: web.table.screen)
    assert ctl.hand_review() is None and 'data-testid="coach-review"' not in render(ctl)
    assert ctl.coach.pending() == ("draw", 1)
    assert sum(1 for _ in ctl.coach_thinking()) == 0              # ranked already: no search
    review, _ = ctl.hand_review()
    assert review.discard.options is ranked and review.discard.chosen is not None
    assert 'data-testid="coach-review" open' in render(ctl)

    hinted = table(seed=11)
    hinted.command("key", "h")
    for card in hinted.view().hand[:2]:
        hinted.command("select", str(card))
    hinted.command("confirm-discard")
    assert hinted.coach.pending() is None
    assert hinted.coach.ranked[choice] == ranked


def test_a_play_that_weighs_the_game_s_end_is_said_in_words_not_in_blended_estimates():
    """Near the end the search blends reaching the target (pegging.WIN, 1000) with points: a
    review read 'a 3 was better by 10.00 points (estimates: yours −459.32, best +354.78)'."""
    from game.coach.hands import HandReview
    from game.coach.plays import PlayReview
    from web.coach.view import pegging_html
    racing = PlayReview(Card.parse("2D"), 0, ((3, 354.78), (2, -459.32)))
    decided = PlayReview(Card.parse("2D"), 0, ((3, 1000.0), (2, -3.0)))
    points = PlayReview(Card.parse("4D"), 11, ((5, 2.5), (4, -1.0)))
    html = pegging_html(HandReview(1, None, (racing, decided, points)), 0)
    assert "459" not in html and "354" not in html
    assert "the better chance in the race to the game hole (counted as <b>10.00</b> points)" in html
    assert "it decides the race to the game hole" in html
    assert "better by <b>3.50</b> points (estimates: yours −1.00, best +2.50)" in html
