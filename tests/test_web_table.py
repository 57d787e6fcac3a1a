"""The browser table's behaviour and markup, driven under CPython (no browser needed)."""

import json
from html import escape
import re
from pathlib import Path

import pytest

from game.engine import DISCARDING, PLAYING
from game.errors import ParseError
from web.controller import Controller
from web.seat import clean_prefs
from web.render import render
from web.session import Session


def start(players=2, level="easy", target=61, seed=1):
    ctl = Controller(seed_source=lambda: seed)
    ctl.command("start", {"name": "Ann", "players": str(players), "level": level,
                          "target": str(target)})
    return ctl


def step(ctl):
    """One move: read the show, let a bot move, or act for the player with the first cards."""
    view = ctl.view()
    if ctl.seat_screen.show:
        ctl.command("continue")
    elif ctl.bot_waiting():
        ctl.bot_step()
    elif view.phase == DISCARDING:
        for card in sorted(view.hand)[: view.config.to_crib]:
            ctl.command("select", str(card))
        ctl.command("confirm-discard")
    elif view.phase == PLAYING and view.turn == 0:
        ctl.command("play", str(view.legal[0].card))
    assert not ctl.error, ctl.error


def to_the_show(ctl):
    """Play until the show is on the table: the move that ends the play, then the beat the
    page waits before it opens the show (web.table.screen)."""
    while not ctl.seat_screen.show:
        step(ctl)
    assert ctl.seat_screen.play_end is not None
    ctl.seat_screen.open_show()


def on_table(ctl):
    """The view the table shows, and whether it shows the show: in a beat (before the show,
    or as a count ends), the table held for it."""
    if ctl.seat_screen.beat is not None:
        return ctl.seat_screen.beat, False
    return ctl.view(), bool(ctl.seat_screen.show)


def play_through(ctl, check=lambda ctl, html: None):
    """Play the player's seat with the first legal cards, reading the show, to the end."""
    for _ in range(5000):
        if ctl.is_over() and not ctl.seat_screen.show:
            return
        step(ctl)
        check(ctl, render(ctl))
    raise AssertionError("the game did not end")


def shown_numbers_match_the_engine(ctl, html):
    view, showing = on_table(ctl)
    for side, score in enumerate(view.scores):
        assert f'data-testid="score-{side}">{min(score, view.config.target)}<' in html
    if not showing and view.phase == "play":    # the show is counted on the table: no count, no pile
        assert f'data-testid="count">{view.count}<' in html
    elif not showing:        # the crib is being chosen: no count to say (issue 37: 'COUNT 0')
        assert 'data-testid="count"' not in html
    hand = re.search(r'data-testid="hand">(.*?)</div>', html).group(1)
    assert sorted(re.findall(r'data-card="(\w\w)"', hand)) == sorted(map(str, view.hand))
    if not showing:    # (during the show the next deal waits face down, out of sight)
        assert html.count('data-card="back"') >= sum(view.hand_sizes) - len(view.hand)


@pytest.mark.parametrize("players, level", [(2, "easy"), (2, "medium"), (3, "easy"),
                                            (4, "medium"), (2, "hard")])
def test_a_whole_game_through_the_controller(players, level):
    ctl = start(players, level)
    play_through(ctl, shown_numbers_match_the_engine)
    html = render(ctl)
    assert 'data-testid="verdict"' in html and 'data-testid="new-game"' in html
    ctl.command("new-game")
    assert ctl.view().phase == DISCARDING and max(ctl.view().scores) == 0


def test_unplayable_cards_are_disabled_and_refused():
    for seed in range(40):
        ctl = start(seed=seed)
        while not ctl.is_over():
            view = ctl.view()
            blocked = [c for c in view.hand if c.value + view.count > 31]
            if view.phase == PLAYING and view.turn == 0 and blocked and not ctl.seat_screen.show:
                html = render(ctl)
                assert re.search(rf'data-card="{blocked[0]}"[^>]*disabled', html)
                ctl.command("play", str(blocked[0]))
                assert "past 31" in ctl.error and ctl.view() == view
                return
            step(ctl)
    pytest.fail("no position with an unplayable card in 40 games")


def test_the_show_waits_for_the_player_and_lists_every_item():
    ctl = start()
    to_the_show(ctl)
    assert not ctl.bot_waiting()          # the bots wait while the show is read
    html = render(ctl)
    assert 'data-testid="show"' in html
    for event in ctl.seat_screen.show:
        assert event.breakdown.spoken() in html.replace("&#x27;", "'")
    ctl.command("key", "Enter")
    assert not ctl.seat_screen.show


def test_names_are_text_not_markup_and_bad_input_is_a_message():
    ctl = Controller(seed_source=lambda: 2)
    ctl.command("start", {"name": '<img src=x onerror="alert(1)">', "players": "2", "level": "easy"})
    assert "<img" not in render(ctl)
    ctl.command("play", "ZZ")
    assert "not a card" in ctl.error
    ctl.command("start", {"level": "godlike"})
    assert "bot level" in ctl.error
    with pytest.raises(ParseError):
        ctl.command("format-disk")


def test_keyboard_selects_and_confirms():
    ctl = start()
    ctl.command("key", "1")
    ctl.command("key", "2")
    assert len(ctl.seat_screen.selected) == 2
    ctl.command("key", "Enter")
    assert ctl.view().has_discarded[0]


def test_a_saved_table_resumes_and_damage_is_refused():
    ctl = start(players=3)
    ctl.bot_step()
    text = ctl.session.to_json()
    again = Session.from_json(text)
    assert again.state == ctl.session.state and again.log == ctl.session.log
    data = json.loads(text)
    data["bots"] = ["easy", "evil", None]
    with pytest.raises(ParseError):
        Session.from_json(json.dumps(data))
    with pytest.raises(ParseError):
        Session.from_json(text[:-10])


def test_saved_preferences_are_cleaned():
    prefs = clean_prefs({"name": "x" * 100, "players": "4", "target": 61, "auto_continue": "yes",
                         "sort": "suit", "evil": 1})
    assert prefs["name"] == "x" * 24 and prefs["players"] == 2 and prefs["target"] == 61
    assert prefs["auto_continue"] is False and prefs["sort"] == "suit" and "evil" not in prefs


def test_the_hand_follows_the_sort_preference():
    ctl = start()
    ctl.prefs["sort"] = "suit"
    hand = re.search(r'data-testid="hand">(.*?)</div>', render(ctl)).group(1)
    shown = re.findall(r'data-card="(\w\w)"', hand)
    assert shown == [str(c) for c in sorted(ctl.view().hand, key=lambda c: ("CDHS".index(c.suit), c.rank))]
    ctl.command("key", "1")
    assert {str(c) for c in ctl.seat_screen.selected} == {shown[0]}


def test_the_play_s_last_point_is_said_before_the_show():
    ctl = start()
    while not ctl.seat_screen.show:
        step(ctl)
    assert ctl.seat_screen.show_intro, "how the play ended is shown with the show"
    # First the play's end, for a beat: the last card on the pile, its points said and pegged.
    ended = ctl.seat_screen.play_end
    assert ended.hand_sizes == (0, 0) and ended.turn is None and not ended.legal
    last = [step for step in ended.play if step.kind == "play"][-1].card
    html = render(ctl)
    pile = re.search(r'data-testid="pile".*?</div>', html).group(0)
    assert f'data-card="{last}"' in pile and 'data-testid="show"' not in html
    assert f"{escape(ctl.seat_screen.show_intro[-1])}. The show is next" in html
    assert ctl.seat_screen.show_intro[-1].split(":")[0] in ctl.seat_screen.announcement and "The show:" not in ctl.seat_screen.announcement
    assert not ctl.bot_waiting()
    ctl.seat_screen.open_show()
    assert ctl.seat_screen.play_end is None and ctl.seat_screen.announcement.startswith("The show:")
    html = render(ctl)
    assert 'data-testid="last-card"' in html and "overlay" not in html.split('data-testid="show"')[0][-300:]


def test_enter_in_the_beat_before_the_show_brings_the_show():
    ctl = start(seed=3)
    while not ctl.seat_screen.show:
        step(ctl)
    ctl.command("key", "Enter")
    assert ctl.seat_screen.show and ctl.seat_screen.play_end is None and 'data-testid="show"' in render(ctl)
    ctl.command("key", "Enter")
    assert not ctl.seat_screen.show


def test_the_show_is_on_the_table_at_each_seat():
    ctl = start(players=3)
    to_the_show(ctl)
    html = render(ctl)
    for event in ctl.seat_screen.show:
        assert f'data-seat="{event.seat}" data-kind="{event.kind}"' in html


def test_a_resumed_game_is_not_announced_as_new():
    ctl = start()
    again = Controller(seed_source=lambda: 1)
    again.resume(Session.from_json(ctl.session.to_json()))
    assert again.seat_screen.announcement.startswith("Game resumed")


def test_partners_win_together_and_scores_stop_at_the_game_hole():
    ctl = start(players=4, target=61)
    play_through(ctl)
    html = render(ctl)
    view = ctl.view()
    winners = ctl.side_names()[view.winner]
    assert view.winner == 0 or f"{escape(winners)} win<" in html
    assert f'data-testid="score-{view.winner}">61<' in html and 'data-testid="game-hole"' in html


def test_the_show_names_the_crib_being_counted_not_the_next_one():
    ctl = start(players=3)
    to_the_show(ctl)
    dealer = next(event.seat for event in ctl.seat_screen.show if event.kind == "crib")
    assert ctl.view().dealer != dealer            # the next hand is already dealt
    html = render(ctl)
    whose = "Your crib" if dealer == 0 else f"{ctl.names()[dealer]}’s crib"
    assert f'<div class="label">{whose}</div>' in html
    seat = re.search(rf'data-seat="{dealer}" data-key="seat-{dealer}".*?</div>', html)
    assert dealer == 0 or 'badge dealer' in seat.group(0)
    # phones stack the counted hands in counting order
    orders = [int(n) for n in re.findall(r"--show-order:(\d)", html)]
    assert sorted(orders) == list(range(1, len(ctl.seat_screen.show) + 1))


def test_a_side_is_marked_as_yours_once():
    ctl = Controller(seed_source=lambda: 1)
    ctl.command("start", {"name": "You", "players": "4", "level": "easy", "target": "61"})
    assert "You &amp; Sage (you)" not in render(ctl) and "You &amp; Sage<" in render(ctl)
    assert "Ann (you)" in render(start())


def test_a_friends_table_shows_its_connection_state_by_the_status():
    import itertools

    from web.friends.host import HostTable
    from web.friends.host_controller import HostController
    table = HostTable("room-0123456789", 2, 61, "Hana",
                      token_source=lambda: "token-0000000000000001", clock=lambda: 1_700_000_000.0,
                      ticker=itertools.count(0.0, 1.0).__next__)
    host = HostController(table, seed_source=lambda: 5)
    host.command("seat", "1:easy")
    host.command("start-table")
    assert 'data-testid="table-link"' not in render(host)       # all is well: nothing to say
    host.link = "The relay cannot be reached <now>"
    status = re.search(r'<div class="status-wrap">.*?</div></div>', render(host)).group(0)
    assert '<div class="table-link" data-testid="table-link">The relay cannot be reached &lt;now&gt;</div>' in status


def test_the_status_says_what_the_play_s_last_step_was():
    ctl = start(players=3)
    seen = set()
    for _ in range(400):
        step(ctl)
        view, showing = on_table(ctl)
        html = render(ctl)
        last = re.search(r'data-testid="last-move">(.*?)</span>', html)
        if view.phase != PLAYING or showing or not view.play:
            assert last is None
            continue
        latest = view.play[-1]
        said = last.group(1)
        if latest.kind == "play":
            who = "You" if latest.seat == 0 else ctl.names()[latest.seat]
            assert said.startswith(f"{who} played ") and said.endswith("♣♦♥♠"["CDHS".index(latest.card.suit)])
        seen.add(latest.kind)
    assert {"play", "go"} <= seen


def test_a_phone_says_the_connection_trouble_in_the_bar_under_the_scores():
    """Phones: the bar that shows the chat's latest line says what is wrong instead, in the
    same place (so the hand is not pushed down off the screen), until all is well again."""
    from test_host import Wire
    wire = Wire(2)
    gus = wire.join("gus", "Gus")
    wire.host.command("start-table")
    wire.pump()
    assert 'data-testid="link-bar"' not in render(gus) and 'data-testid="chat-jump"' in render(gus)
    gus.link = "Lost the connection to the host. Reconnecting…"
    html = render(gus)
    assert 'data-testid="chat-jump"' not in html
    bar = re.search(r'<a class="chat-jump trouble"[^>]*data-testid="link-bar">.*?</a>', html).group(0)
    assert "Lost the connection to the host. Reconnecting…" in bar


def test_a_guest_cut_off_from_the_host_shows_no_one_else_online():
    """While the link is lost the guest cannot know who is there: the host is away, at the
    table and in the chat's list of players, and online again once reconnected."""
    from test_host import Wire
    wire = Wire(3, bots=[(2, "easy")])
    gus = wire.join("gus", "Gus")
    wire.host.command("start-table")
    wire.pump()
    assert gus.presence() == [True, True, True] and 'data-testid="away-0"' not in render(gus)
    gus.link = "Lost the connection to the host. Reconnecting…"
    html = render(gus)
    assert gus.presence() == [False, True, True]          # the host away; Gus himself and the bot not
    assert 'data-testid="away-0"' in html and '<li class="seat-row away" data-testid="seat-0"' in html
    gus.link = ""
    assert gus.presence() == [True, True, True]


def statics_as_stubs(html: str) -> str:
    stubbed = re.sub(r'(<svg[^>]*data-static="[^"]+")>.*?</svg>', r"\1 data-stub></svg>", html)
    return re.sub(r'(<g[^>]*data-static="[^"]+")>.*?</g>', r"\1 data-stub></g>", stubbed)


def test_a_repaint_sends_the_card_faces_and_the_board_once():
    """`Morph` sends each card's face to the page's sprite the first time the card shows, and
    each static part (the board's wood) whole the first time, then as an empty stub the page
    fills from its copy: a repaint sends about half the markup."""
    from web.table.motion import Morph, elide_same
    sent_to_page = []
    faces_to_page = []
    morph = Morph(lambda root, html, ms, faces: (sent_to_page.append(html), faces_to_page.append(faces)))
    ctl = start(players=4)
    for _ in range(6):
        morph(None, render(ctl), 0)
        step(ctl)
    whole = render(ctl)
    morph(None, whole, 0)               # (a card new on this screen goes whole, once)
    step(ctl)
    morph(None, render(ctl), 0)
    again = sent_to_page[-1]
    assert len(again) < 0.6 * len(render(ctl))
    assert 'data-static="board-61-2" data-stub></g>' in sent_to_page[1] and 'data-static="board-61-2"><rect' in sent_to_page[0]
    # nothing but the static parts' insides and the parts as they were is left out
    assert statics_as_stubs(elide_same(render(ctl), elide_same(whole, {})[1])[0]) == again
    # every face a screen used was sent, once, before (or with) that screen
    sent_faces = re.findall(r'<symbol id="face-(\w\w)"', "".join(faces_to_page))
    used = set(re.findall(r'href="#face-(\w\w)"', "".join(sent_to_page)))
    assert len(sent_faces) == len(set(sent_faces)) and set(sent_faces) == used and len(used) >= 8
    for screen, _faces in enumerate(faces_to_page):
        have = set(re.findall(r'id="face-(\w\w)"', "".join(faces_to_page[:screen + 1])))
        assert set(re.findall(r'href="#face-(\w\w)"', sent_to_page[screen])) <= have


def page_after(shown: dict, sent: str) -> str:
    """What the page shows after a morph: each ``data-same`` stub is the element it keeps."""
    return re.sub(r'<([\w-]+) data-key="([^"]+)" data-same></\1>', lambda m: shown[m.group(2)], sent)


def test_a_repaint_leaves_out_the_keyed_parts_the_page_shows_already():
    """Through whole games, what `elide_same` sends, with each stub taken from the page's last
    screen, is exactly the screen; and a screen like the last one sends almost nothing."""
    from web.table.motion import elide_same
    for players in (2, 3, 4):
        ctl, shown, cut = start(players=players), {}, 0
        for _ in range(120):
            html = render(ctl)
            sent, parts = elide_same(html, shown)
            assert page_after(shown, sent) == html
            cut += len(html) - len(sent)
            shown = parts
            step(ctl)
        assert cut > 0
        html = render(ctl)
        sent, _ = elide_same(html, elide_same(html, {})[1])
        assert page_after(elide_same(html, {})[1], sent) == html
        assert re.findall(r' data-key="[^"]+"( data-same)?', sent) == [" data-same"] * sent.count(" data-key=")


def test_a_morph_the_page_refused_is_sent_again_whole():
    """When the page lacks a part sent as a stub (a repaint broke off), `Morph` sends the whole
    screen again and starts over from it."""
    from web.table.motion import Morph
    sent_to_page = []

    def page(root, html, ms, faces):
        sent_to_page.append(html)
        if "data-same" in html:
            raise RuntimeError('morph: "coach" is not on the page')
    morph = Morph(page)
    ctl = start(players=2)
    morph(None, render(ctl), 0)
    morph(None, render(ctl), 0)
    assert "data-same" in sent_to_page[1] and "data-same" not in sent_to_page[2]
    assert statics_as_stubs(render(ctl)) == sent_to_page[2]


def test_every_button_the_page_draws_has_a_handler():
    """A ``data-action`` is handled by the page itself (web/input.py's actions and the invite
    copies), a profile screen, or the table; each table's handlers are callables (an attribute
    of the same name once hid the table's 'menu' command, and a click raised)."""
    from web.friends.guest import GuestController
    from web.friends.host import HostTable
    from web.friends.host_controller import HostController
    from web.profile.model import Profile
    from web.profile.screens import ProfileScreens

    root = Path(__file__).resolve().parent.parent
    drawn = set()
    for path in [*(root / "web").rglob("*.py"), root / "index.html"]:
        drawn |= set(re.findall(r'data-action="([a-z-]+)"', path.read_text(encoding="utf-8")))
    page_input = (root / "web" / "input.py").read_text(encoding="utf-8")
    page_own = set(re.findall(r'"([a-z-]+)": lambda', page_input))             # Input.actions
    page_own |= set(re.findall(r'action == "([a-z-]+)"', page_input))          # Input.on_submit's forms
    page_own |= set(re.findall(r'"(copy-[a-z-]+)": \(', (root / "web" / "friends" / "glue.py").read_text(encoding="utf-8")))
    host = HostTable("room-0123456789", 2, 61, "Hana", token_source=lambda: "token", clock=lambda: 0.0, ticker=lambda: 0.0)
    tables = [start(), HostController(host, seed_source=lambda: 1),
              GuestController("room-0123456789", name="Gus")]
    handled = set(page_own) | set(ProfileScreens(Profile.new("Ann"), clock=lambda: "").commands())
    for table in tables:
        commands = table.commands()
        assert all(callable(handler) for handler in commands.values()), type(table).__name__
        handled |= set(commands)
    assert {"copy-link", "leave", "sound"} <= page_own and drawn - {"chat"} >= {"menu-open", "to-start", "close-screen"}
    assert drawn <= handled, f"drawn with no handler: {sorted(drawn - handled)}"
