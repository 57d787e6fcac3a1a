"""Pass and play (web.passplay, the Controller's seat that moves): who is covered when, and that
no page drawn holds a card another person has not shown."""

import re

import pytest

from game.engine import DISCARDING, OVER, PLAYING
from web import passplay
from web.controller import Controller
from web.profile.records import record_game
from web.profile.stats import compute
from web.profile.view import mode_label
from web.render import render
from web.session import Session


def start(kinds, seed=3, target=61, names=("Ann", "Bo", "Cy", "Di")):
    """A pass and play table: ``kinds`` of seats 2.. ('person' or 'bot'); seat 1 is Ann."""
    form = {"mode": "passplay", "name": names[0], "players": str(len(kinds) + 1), "level": "easy",
            "target": str(target)}
    for seat, kind in enumerate(kinds, start=1):
        form |= {f"seat{seat}": names[seat], f"kind{seat}": kind}
    ctl = Controller(seed_source=lambda: seed)
    ctl.command("start", form)
    assert not ctl.error, ctl.error
    return ctl


def cards_in(html):
    return set(re.findall(r'data-card="(\w\w)"', html)) - {"back"}


def hidden_cards_drawn(ctl, html):
    """The cards in ``html`` that are neither public (the pile, the cards played, the starter,
    the hands counted at the show or being counted) nor the shown seat's own hand (none under a cover or at the show)."""
    seen = ctl.seat_screen
    view = seen.table_view
    public = {str(step.card) for step in view.play if step.card is not None} | {str(c) for c in view.pile}
    public |= {str(card) for card in (view.starter, seen.show_starter) if card is not None}
    for event in seen.shown:
        public |= {str(card) for card in event.cards}
    if view.claim is not None:      # (muggins) the cards being counted, the crib too, are laid down
        public |= {str(card) for card in view.claim.cards}
    counting = view.claim is not None and (view.claim.seat, view.claim.what) == (view.seat, "show")
    own = set() if ctl.cover() is not None or seen.show and not counting else {str(card) for card in view.hand}
    return cards_in(html) - public - own


def step(ctl):
    """One move for whoever is at the device: reveal the table, read the show, a bot, or the first cards."""
    view = ctl.view()
    if ctl.cover() is not None:
        ctl.command("reveal")
    elif ctl.seat_screen.beat is not None:
        ctl.seat_screen.end_beat()
    elif ctl.seat_screen.show:
        ctl.command("continue")
    elif ctl.bot_waiting():
        ctl.bot_step()
    elif view.phase == DISCARDING:
        for card in sorted(view.hand)[: view.config.to_crib]:
            ctl.command("select", str(card))
        ctl.command("confirm-discard")
    elif view.phase == PLAYING and view.turn == view.seat:
        ctl.command("play", str(view.legal[0].card))
    assert not ctl.error, ctl.error


def play_out(ctl):
    """Play to the end, checking every page drawn; the covers seen, as (name, phase) pairs."""
    covers = []
    for _ in range(5000):
        html = render(ctl)
        assert not hidden_cards_drawn(ctl, html), (ctl.seat, hidden_cards_drawn(ctl, html))
        cover = ctl.cover()
        if cover is not None:
            assert 'data-testid="cover"' in html and not cards_in(html) and "data-card" not in html
            assert 'data-testid="hand"' not in html and 'data-testid="log"' not in html
            covers.append((cover, ctl.game.state.phase))
        if ctl.is_over() and not ctl.seat_screen.show and ctl.seat_screen.beat is None:
            return covers
        state, lines = ctl.game.state, len(ctl.game.log)
        step(ctl)
        if state.phase == DISCARDING:      # the hand history says who discarded, never what
            held = {card.face for hand in state.hands for card in hand}
            assert not [line for line in ctl.game.log[lines:] if any(face in line for face in held)]
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("kinds", [["person"], ["person", "bot"], ["bot", "person", "person"]])
def test_a_whole_game_passes_between_the_people_and_never_draws_their_hidden_cards(kinds):
    ctl = start(kinds)
    assert ctl.passing and not ctl.hints_allowed() and not ctl.coach_on()
    covers = play_out(ctl)
    people = {ctl.game.names[seat] for seat in passplay.people(ctl.game.bots)}
    assert {name for name, _ in covers} == people           # every person had the device, no bot did
    assert {phase for _, phase in covers} == {DISCARDING, PLAYING}
    assert ctl.game.state.phase == OVER


def test_the_cover_comes_between_two_people_not_before_a_bot_nor_the_same_person():
    ctl = start(["person", "bot"], seed=5)
    session = ctl.game
    assert ctl.cover() == session.names[passplay.due(session)]   # a new game starts covered
    ctl.command("reveal")
    assert ctl.cover() is None and ctl.seat == passplay.due(session)
    checked = set()
    for _ in range(400):
        if ctl.is_over():
            break
        before = ctl.seat
        step(ctl)
        seen = ctl.seat_screen
        if seen.show or seen.beat is not None:
            assert ctl.cover() is None          # everyone watches the show, and the beat before it
            continue
        person = passplay.due(session)
        if person is None:                      # a bot's move (or the game's end): the table stays
            checked.add("bot")
            assert ctl.cover() is None
        elif person != before and ctl.seat == before:
            checked.add("other")
            assert ctl.cover() == session.names[person]
        elif not ctl.fresh:
            checked.add("same")
            assert ctl.cover() is None
    assert checked == {"bot", "other", "same"}


def test_the_show_draws_nobody_s_next_hand_and_the_next_hand_starts_covered():
    ctl = start(["person"], seed=8)
    while not ctl.seat_screen.show:
        step(ctl)
    html = render(ctl)
    assert ctl.view().hand == () and ctl.game.view(ctl.seat).hand      # dealt, but off the table
    assert re.search(r'data-testid="hand">(.*?)</div>', html).group(1) == ""
    while ctl.seat_screen.show or ctl.seat_screen.beat is not None:
        step(ctl)
    assert ctl.cover() == ctl.game.names[passplay.due(ctl.game)]      # the same person too: all saw the show
    ctl.command("reveal")
    assert ctl.view().hand


def test_nothing_moves_under_a_cover():
    """The attacker's clicks: the holder's cards, played or chosen while the cover is up."""
    ctl = start(["person"], seed=4)
    ctl.command("reveal")
    view = ctl.view()
    for card in sorted(view.hand)[:2]:
        ctl.command("select", str(card))
    ctl.command("confirm-discard")
    assert ctl.cover() is not None
    state, holder = ctl.game.state, ctl.game.view(ctl.seat)
    for name, arg in [("select", str(holder.hand[0])), ("confirm-discard", None), ("key", "1"),
                      ("play", str(holder.hand[0])), ("hint", None), ("menu-open", None)]:
        ctl.command(name, arg)
        assert ctl.game.state is state and not ctl.seat_screen.selected and not ctl.menu
    ctl.command("key", "Enter")              # Enter reveals the next person's table
    assert ctl.cover() is None and ctl.seat != holder.seat


def test_back_to_the_game_from_the_start_screen_is_behind_a_cover():
    ctl = start(["person"], seed=4)
    ctl.command("reveal")
    ctl.command("to-start")
    ctl.command("resume")
    assert ctl.screen == "table" and ctl.cover() == ctl.game.names[ctl.seat]


def test_a_saved_game_resumes_behind_a_cover():
    ctl = start(["person", "person"], seed=6)
    for _ in range(30):
        step(ctl)
    saved = Session.from_json(ctl.game.to_json())
    again = Controller(seed_source=lambda: 1)
    again.resume(saved)
    person = passplay.due(saved)
    assert again.passing and again.cover() == saved.names[person] and again.seat == person
    assert not cards_in(render(again))


@pytest.mark.parametrize("form, reason", [
    ({"seat1": "ann"}, "two seats are named ann"),
    ({"kind1": "bot"}, "two people or more"),
    ({"kind1": "dragon"}, "seat 2 is a person or a bot"),
    ({"players": "5"}, "2, 3 or 4 players"),
])
def test_a_bad_table_is_refused_with_a_reason_and_changes_nothing(form, reason):
    ctl = start(["person"], seed=2)
    session, state = ctl.game, ctl.game.state
    ctl.command("start", {"mode": "passplay", "name": "Ann", "players": "2", "level": "easy"} | form)
    assert reason in ctl.error
    assert ctl.session is session and session.state is state


def test_names_are_cleaned_like_a_friends_table_s_and_are_text():
    ctl = start(["person", "bot"], names=("Ann", "<b>Bo\x1b[31m" + "o" * 40, "", ""))
    assert ctl.game.names == ["Ann", "<b>Bo[31m" + "o" * 15, "Bot"]
    html = render(ctl)
    assert "Pass to &lt;b&gt;Bo" in html or "Pass to Ann" in html
    assert "<b>Bo" not in html


def test_a_bot_table_is_never_covered():
    ctl = Controller(seed_source=lambda: 3)
    ctl.command("start", {"name": "Ann", "players": "3", "level": "easy", "target": "61"})
    assert not ctl.passing and ctl.cover() is None and ctl.hints_allowed()


def test_pass_and_play_games_count_as_their_own_mode():
    ctl = start(["person"], seed=9)
    play_out(ctl)
    record = record_game(ctl.game, 0, "2026-12-05T00:00:00Z", mode=passplay.MODE)
    groups = compute([record])
    assert "pass-and-play · 2 players" in groups and not any(name.startswith("bot") for name in groups)
    assert mode_label("pass-and-play · 2 players") == "Pass-and-play · 2 players"


def muggins_step(ctl, calls, short):
    """`step`, counting it yourself: each claim exact but every person's first that is worth
    something and every crib, one short (``short``: who did; the next hand is dealt on the call
    after a crib); the rival calls muggins on the first short claim and passes the others
    (``calls``: (claimant, caller, muggins) as pressed, the caller's table drawn)."""
    claim = ctl.game.state.claim
    if claim is None or ctl.cover() is not None or ctl.seat_screen.beat is not None:
        return step(ctl)
    html = render(ctl)
    assert ctl.seat == claim.to_act and ctl.view().seat == claim.to_act    # the person due holds the device
    if claim.caller is None:
        assert 'data-testid="claim-bar"' in html
        once = claim.breakdown.total > 0 and (claim.seat not in short or claim.what == "crib")
        short |= {claim.seat} if once else set()
        ctl.command("claim", str(claim.breakdown.total - 1 if once else claim.breakdown.total))
    else:
        assert f"Muggins! (take {claim.missed})" in html and 'data-testid="pass"' in html
        calls.append((claim.seat, claim.caller, not calls))
        ctl.command("muggins" if len(calls) == 1 else "pass")
    assert not ctl.error, ctl.error


@pytest.mark.parametrize("players, target, seed", [(3, "61", 12), (2, "five", 2)])
def test_counting_it_yourself_passes_the_device_to_each_claim_and_each_call(players, target, seed):
    ctl = Controller(seed_source=lambda: seed)
    ctl.prefs["muggins"] = True
    ctl.command("start", {"mode": "passplay", "name": "Ann", "players": str(players), "level": "hard",
                          "target": target, "seat1": "Bo", "seat2": "Cy"})
    assert ctl.passing and ctl.game.config.muggins
    short, calls, covers = set(), [], []
    for _ in range(8000):
        html = render(ctl)
        assert not hidden_cards_drawn(ctl, html), (ctl.seat, hidden_cards_drawn(ctl, html))
        if ctl.cover() is not None:
            assert not cards_in(html) and 'data-testid="claim-bar"' not in html
            covers.append((ctl.cover(), ctl.game.state.phase, ctl.game.state.claim is not None))
        if ctl.is_over() and not ctl.seat_screen.show and ctl.seat_screen.beat is None:
            break
        muggins_step(ctl, calls, short)
    else:
        raise AssertionError("the game did not end")
    assert len(calls) >= 2 and calls[0][2] and not calls[1][2] and short == set(range(players))
    assert all(claimant != caller for claimant, caller, _ in calls)
    assert any(phase == "show" and claiming for _, phase, claiming in covers)    # a count passed at the show
    log = ctl.game.log
    assert any("muggins! takes the 1 missed" in line for line in log)
