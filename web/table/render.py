"""HTML for the table: a pure function of a seat's table (`web.table.model.TableModel`) and
of the parts other features put on it (`TableParts`: the coach's, the friends table's); the
screens around it are `web.render`'s."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from html import escape

from game.cards import Card
from game.engine import DISCARDING, OVER, PLAYING
from game.events import Event
from game.scoring import Breakdown
from game.view import View

from .board import SIDE_COLOURS, board_svg
from .cards import SUIT_GLYPHS, card_back, card_face, cards_row, rank_text
from .model import TableModel
from .rules import RULES_HTML
from .screen import SeatScreen, hand_order


@dataclass(frozen=True)
class TableParts:
    """HTML other features put on the table (`web.render.table_parts` makes them): under the
    scores (the fair deal's mark), the phone's chat bar, the chat beside the table, the coach's
    hint line over the hand and its panels under the table, whether a review is there to jump
    to, and the coach's summary of a finished game."""

    under_scores: str = ""
    chat_jump: str = ""
    side: str = ""
    hint_line: str = ""
    coach: str = ""
    review_jump: bool = False
    summary: str = ""


# ---- the table ------------------------------------------------------------------------------

def seat_place(players: int, offset: int) -> str:
    """Where a seat sits as seen by the player (offset 1 plays next, on the left).

    >>> [seat_place(2, 1)], [seat_place(3, o) for o in (1, 2)], [seat_place(4, o) for o in (1, 2, 3)]
    (['top'], ['left', 'right'], ['left', 'top', 'right'])
    """
    if offset == 0:
        return "me"
    if players == 2:
        return "top"
    if players == 3:
        return ("left", "right")[offset - 1]
    return ("left", "top", "right")[offset - 1]


def render_table(ctl: TableModel, parts: TableParts = TableParts(), log_open: bool = True) -> str:
    seen = ctl.seat_screen
    view = seen.table_view          # in the beat before the show, the table as the play ended
    assert view is not None, "the table is drawn once its seat has a view"
    players = view.config.players
    showing = " showing" if seen.shown else ""
    mine = " my-turn" if (view.turn == view.seat and view.phase == PLAYING and not seen.shown and not ctl.pending
                          and not ctl.watching) else ""
    html = [f'<div class="tabletop players-{players}{" friends" if ctl.multiplayer else ""}{showing}{mine}" '
            f'data-phase="{view.phase}" data-turn="{view.turn}" data-seat="{view.seat}" '
            f'data-state="{view.state_id}">',
            f'<h1 class="sr-only">Cribbage, {players} players</h1>', top_bar(ctl, view), parts.chat_jump,
            '<section class="felt" aria-label="The table">', opponents(ctl, view),
            # (the fair deal's strip: under the board, or at the show's head while the board is put away)
            board_row(ctl, view, "" if seen.shown else parts.under_scores),
            middle(ctl, view, parts.under_scores if seen.shown else ""), my_hand(ctl, view, parts), '</section>',
            '<aside class="side-panels">',
            f'<div class="coach-panels" data-key="coach">{parts.coach}</div>' if parts.coach else "",
            parts.side, log_panel(seen.log, log_open), '</aside>']
    if view.phase == OVER and not seen.shown:
        html.append(verdict_panel(ctl, view, parts.summary))
    html.append(table_menu(ctl))
    html.append(f'<div class="sr-only" aria-live="polite" data-testid="announce">'
                f'{escape(seen.announcement)}</div></div>')
    return "".join(html)


def top_bar(ctl: TableModel, view: View) -> str:
    """Over the table: each side's score, the sound, and the table's menu."""
    sound = bool(ctl.prefs.get("sound"))
    return (f'<div class="topbar">{scoreboard(ctl, view)}'
            f'<button type="button" class="icon-button" data-action="sound" data-testid="sound" '
            f'aria-pressed="{str(sound).lower()}" aria-label="Sound" title="Sound: cards, pegs, your turn">'
            f'{SPEAKER_ON if sound else SPEAKER_OFF}</button>'
            f'<button type="button" class="icon-button menu-button" data-action="menu-open" data-testid="menu-open" '
            f'aria-haspopup="dialog" aria-keyshortcuts="Escape" title="The table menu (Esc)">{MENU_ICON}'
            f'<span>Menu</span></button></div>')


# Icons drawn in the page's own colours (an emoji needs a font the system may not have).
_ICON = '<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">{}</svg>'
SPEAKER = '<path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>'
SPEAKER_ON = _ICON.format(SPEAKER + '<path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" fill="none" '
                                    'stroke="currentColor" stroke-width="2" stroke-linecap="round"/>')
SPEAKER_OFF = _ICON.format(SPEAKER + '<path d="M16 9l5 6M21 9l-5 6" stroke="currentColor" stroke-width="2" '
                                     'stroke-linecap="round"/>')
MENU_ICON = _ICON.format('<path d="M4 6h16M4 12h16M4 18h16" stroke="currentColor" stroke-width="2.2" '
                         'stroke-linecap="round"/>')


def board_row(ctl: TableModel, view: View, under: str = "") -> str:
    """The pegboard at the table's heart, the latest points pegged beside it in words."""
    seen = ctl.seat_screen
    names = ctl.side_names()
    words, key = seen.board_callout
    callout = (f'<p class="callout board-callout" data-key="board-callout-{key}" data-testid="board-callout" '
               f'aria-hidden="true">{escape(words)}</p>') if words else ""
    return (f'<div class="board-row">{board_svg(view.config.target, view.scores, view.previous, names)}'
            f'{callout}{under}</div>')


def table_menu(ctl: TableModel) -> str:
    """The table's menu (Esc opens it): a new game, the settings, the statistics, the rules,
    leaving; and the rules themselves when asked for."""
    if ctl.menu == "rules":
        return (f'<section class="overlay menu-overlay" role="dialog" aria-labelledby="rules-title" '
                f'data-testid="rules"><div class="panel rules"><h2 id="rules-title">How to play cribbage</h2>'
                f'{RULES_HTML}<div class="actions"><button class="primary" data-action="menu-close" '
                f'data-testid="menu-close" autofocus>Back to the table</button></div></div></section>')
    if ctl.menu != "open":
        return ""
    items = []
    if not (ctl.multiplayer and not ctl.hosting):     # a guest's host starts the games
        again = "Rematch" if ctl.multiplayer else "New game"
        items.append(f'<button class="primary" data-action="new-game" data-testid="menu-new-game">{again}</button>')
    items += ['<button class="secondary" data-action="settings" data-testid="menu-settings">Settings</button>',
              '<button class="secondary" data-action="stats" data-testid="menu-stats">Statistics</button>',
              '<button class="secondary" data-action="rules" data-testid="menu-rules">Rules</button>',
              f'<button class="secondary" data-action="leave" data-testid="menu-leave">'
              f'{"Close the table" if ctl.hosting else "Leave the table" if ctl.multiplayer else "Leave"}</button>',
              '<button class="secondary" data-action="menu-close" data-testid="menu-close" autofocus>'
              'Back to the game</button>']
    return (f'<section class="overlay menu-overlay" role="dialog" aria-labelledby="menu-title" data-testid="menu">'
            f'<div class="panel menu"><h2 id="menu-title">Menu</h2><div class="menu-items">{"".join(items)}</div>'
            f'</div></section>')


def scoreboard(ctl: TableModel, view: View) -> str:
    names = ctl.side_names()
    target = view.config.target
    dealer_side = view.config.side_of(dealer_of(ctl.seat_screen, view))
    sides = []
    for side, name in enumerate(names):      # "Ann (you)", but never "You (you)" or "You & Sage (you)"
        said = "you" in [part.strip().casefold() for part in name.split("&")]
        you = " (you)" if side == view.side and not said and not ctl.watching else ""
        crib = '<span class="badge crib">crib</span>' if side == dealer_side else ""
        why = escape(ctl.seat_screen.last_pegs.get(side, ""))
        sides.append(
            f'<div class="side" data-key="side-{side}" style="--side:{SIDE_COLOURS[side]}">'
            f'<span class="peg-dot"></span><span class="name">{escape(name)}{you}</span>'
            f'<span class="score" data-testid="score-{side}">{min(view.scores[side], target)}</span>'
            f'<span class="side-line">{crib}<span class="why">{why}</span></span></div>')
    wins = ""
    if view.config.match_wins > 1:
        wins = f'<div class="wins">Games: {" – ".join(map(str, view.wins))}</div>'
    return f'<section class="scores" aria-label="Scores"><div class="sides">{"".join(sides)}</div>{wins}</section>'



def seat_badges(ctl: TableModel, view: View, seat: int) -> str:
    badges = []
    me = view.seat
    if seat == dealer_of(ctl.seat_screen, view):
        badges.append('<span class="badge dealer">dealer</span>')
    if view.config.players == 4 and seat != me and seat % 2 == me % 2 and not ctl.watching:
        badges.append('<span class="badge partner">partner</span>')
    presence = ctl.presence()
    if presence is not None and seat != me and not presence[seat]:
        badges.append(f'<span class="badge away" data-testid="away-{seat}">away</span>')
    if view.phase == DISCARDING and view.has_discarded[seat]:
        badges.append('<span class="badge done">ready</span>')
    if seat in view.said_go:
        badges.append('<span class="badge go" data-testid="go">go</span>')
    if view.turn == seat and view.phase == PLAYING and not ctl.seat_screen.shown:
        badges.append('<span class="badge to-play">to play</span>')
    return "".join(badges)


def played_by(view: View, seat: int) -> list[Card]:
    return [step.card for step in view.play if step.kind == "play" and step.seat == seat and step.card is not None]


def opponents(ctl: TableModel, view: View) -> str:
    seats = []
    players = view.config.players
    seen = ctl.seat_screen
    shown = {event.seat: event for event in seen.shown if event.kind == "show"}
    order = show_order(seen)
    for offset in range(1, players):
        seat = (view.seat + offset) % players
        turn = " turn" if view.turn == seat and not seen.shown else ""
        level = ctl.levels()[seat]
        side = view.config.side_of(seat)
        place = seat_place(players, offset)
        if seat in shown:
            cards = show_hand(seen, shown[seat])
        else:
            backs = "".join(card_back("small", f"held-{seat}-{i}") for i in range(view.hand_sizes[seat]))
            played = cards_row(played_by(view, seat), "small", "played")
            cards = (f'<div class="held" data-from="{seat}">{backs}</div>'
                     f'<div class="played">{played}</div>')
        seats.append(
            f'<div class="seat at-{place}{turn}" data-seat="{seat}" data-key="seat-{seat}" '
            f'style="--side:{SIDE_COLOURS[side]}{order.get(("show", seat), "")}">'
            f'<div class="who"><span class="name">{escape(ctl.names()[seat])}</span>'
            f'<span class="level">{escape(level or "")}</span>{seat_badges(ctl, view, seat)}</div>'
            f'{cards}</div>')
    return "".join(seats)


def middle(ctl: TableModel, view: View, strip: str = "") -> str:
    seen = ctl.seat_screen
    dealer = dealer_of(seen, view)
    owner = ctl.names()[dealer]
    whose = "Your crib" if dealer == view.seat and not ctl.watching else f"{escape(owner)}’s crib"
    place = seat_place(view.config.players, (dealer - view.seat) % view.config.players)
    shown_starter = seen.show_starter if seen.shown else view.starter
    if shown_starter:
        starter = card_face(shown_starter, "starter-card", attrs='data-from="deck"')
    else:
        starter = card_back("", "deck")
    crib_event = next((event for event in seen.shown if event.kind == "crib"), None)
    counting = view.claim.cards if view.claim is not None and view.claim.what == "crib" else ()
    if crib_event is not None:
        crib = show_hand(seen, crib_event)
    elif counting:          # a muggins table: turned over for its owner to count and claim
        crib = "".join(card_face(card, "small stacked", key=f"crib-{i}") for i, card in enumerate(counting))
        crib = f'<div class="crib-cards" data-testid="crib">{crib}</div>'
    else:
        crib = "".join(crib_back(view, i) for i in range(view.crib_size)) or \
            '<span class="empty-slot" aria-hidden="true"></span>'      # where the crib goes, outlined
        crib = f'<div class="crib-cards" data-testid="crib">{crib}</div>'
    last = len(view.pile) - 1
    players_of = {step.card: step.seat for step in view.play if step.kind == "play" and step.seat is not None}
    laid = []
    for i, card in enumerate(view.pile):
        seat = players_of.get(card, view.seat)
        origin = f'data-from="held-{seat}-{view.hand_sizes[seat]} seat-{seat}"'
        laid.append(card_face(card, "pile-card last" if i == last else "pile-card", attrs=origin))
    pile = "".join(laid)
    # The count is the play's: while the crib is chosen its place is kept, but nothing says 0.
    count = "" if seen.shown else (
        f'<div class="count-badge"><span class="label">Count</span>'
        f'<span class="count" data-testid="count">{view.count}</span></div>' if view.phase == PLAYING else
        '<div class="count-badge idle" aria-hidden="true"></div>')
    words, key = seen.pile_callout
    callout = (f'<p class="callout pile-callout" data-key="pile-callout-{key}" data-testid="pile-callout" '
               f'aria-hidden="true">{escape(words)}</p>') if words and view.phase == PLAYING else ""
    pile_area = "" if seen.shown else (
        f'<div class="play-area">{count}'
        f'<div class="pile" data-testid="pile" role="group" aria-label="The pile" '
        f'style="--n:{len(view.pile)}">{pile}</div>{callout}</div>')
    intro = show_intro(seen, strip) if seen.shown else ""
    order = show_order(seen).get(("crib", dealer), "")
    style = f' style="{order[1:].strip()}"' if order else ""
    return f"""
<div class="centre dealer-{place}"{style}>
  <div class="deck" role="group" aria-label="Starter and crib">
    <div class="starter-slot"><div class="label">Starter</div><div data-testid="starter">{starter}</div></div>
    <div class="crib"><div class="label">{whose}</div>{crib}</div>
  </div>
  {pile_area}{intro}
</div>"""


def crib_back(view: View, slot: int) -> str:
    """One crib card, face down. The player's own discards are taken to be the last ones in, and
    fly there from the hand (`web.table.motion`); the others come from the discarding seats."""
    mine = len(view.discarded)
    j = slot - (view.crib_size - mine)
    if 0 <= j < mine:
        origin = f"card-{sorted(view.discarded)[j]}"
    else:
        others = [seat for seat in range(view.config.players) if seat != view.seat]
        seat = others[slot % len(others)]
        origin = f"held-{seat}-{view.hand_sizes[seat]} seat-{seat}"
    return card_back("small stacked", f"crib-{slot}", origin)


def dealer_of(seen: SeatScreen, view: View) -> int:
    """The dealer the table shows: during the show, the one whose crib is being counted (the
    view has already moved on to the next deal, dealt by the next player)."""
    crib = next((event for event in seen.shown if event.kind == "crib"), None)
    if crib is None:
        return view.dealer
    assert crib.seat is not None, "a counted crib has its dealer"
    return crib.seat


def show_order(seen: SeatScreen) -> dict[tuple[str, int | None], str]:
    """Each counted hand's place in the counting order, as a CSS variable for its element's
    style (phones stack the show in that order): ``{("show", seat) or ("crib", dealer): "; --show-order:N"}``."""
    return {(event.kind, event.seat): f"; --show-order:{number}" for number, event in enumerate(seen.shown, start=1)}


def show_intro(seen: SeatScreen, strip: str = "") -> str:
    """The show's heading on the table (``strip`` over it): what the play ended with, then the
    hands to count."""
    ended = "".join(f"<li>{escape(line)}</li>" for line in seen.show_intro)
    ended = f'<ul class="play-ended" data-testid="last-card">{ended}</ul>' if ended else ""
    return (f'<div class="show-head" data-testid="show" aria-label="The show">'
            f'{strip}<h2>The show</h2>{ended}</div>')


ITEM_BEATS, HAND_BEATS = 0.6, 1.5   # the show's rhythm, in beats (CSS --beat: the pace's)


def counted(event: Event) -> Breakdown:
    """A counted hand's breakdown (a ``show`` or ``crib`` event's)."""
    assert event.breakdown is not None, "a counted hand has its breakdown"
    return event.breakdown


def show_start(events: Sequence[Event], event: Event) -> float:
    """When a counted hand comes up in the show, in beats: after every hand before it."""
    before = events[:list(events).index(event)]
    return sum(HAND_BEATS + ITEM_BEATS * len(counted(e).items) for e in before)


def show_hand(seen: SeatScreen, event: Event) -> str:
    """A counted hand where it lies: its cards and the starter, the total, and each combination,
    said one after another with its cards lit as it is; hovering or focusing one lights it again.

    The timing is CSS (delays in beats, a beat set by the pace), so nothing waits in Python and
    instant play or reduced motion shows it all at once."""
    starter = seen.show_starter
    start = show_start(seen.shown, event)
    items = []
    breakdown = counted(event)
    lit: dict[Card, list[int]] = {}
    for number, item in enumerate(breakdown.items):
        for card in item.cards:
            lit.setdefault(card, []).append(number)
        items.append(f'<li class="item" tabindex="0" data-n="{number}" style="--i:{number}">'
                     f'{escape(item.label())}</li>')

    def shown_card(card: Card, extra: str) -> str:
        numbers = lit.get(card, [])
        classes = " ".join([extra] + [f"in-{n}" for n in numbers])
        timing = ", ".join(f"lit calc(var(--beat) * {ITEM_BEATS}) ease "
                           f"calc((var(--start) + 1 + {n * ITEM_BEATS:g}) * var(--beat))" for n in numbers)
        style = f' style="animation: {timing}"' if numbers else ""
        return card_face(card, classes, attrs=style.strip(), key=f"shown-{event.kind}-{event.seat}-{card}")

    starter_html = shown_card(starter, "small starter-mark") if starter else ""
    cards = "".join(shown_card(card, "small") for card in event.cards)
    return (f'<div class="shown" data-seat="{event.seat}" data-kind="{event.kind}" style="--start:{start:g}">'
            f'<div class="cards">{cards}{starter_html}</div>'
            f'<div class="shown-total"><span class="total" title="{escape(breakdown.spoken())}">'
            f'{breakdown.total}</span>{claim_note(seen, event)}</div><ul class="items">{"".join(items)}</ul></div>')


def claim_note(seen: SeatScreen, event: Event) -> str:
    """At a muggins table, under a counted hand's total: what its owner claimed, what was
    missed, and what a rival took of it (``"claimed 4 · missed 2 · 2 taken"``)."""
    assert event.seat is not None and event.breakdown is not None, "a counted hand has its seat and count"
    key = (event.kind, event.seat)
    claimed = seen.claimed.get(key)
    if claimed is None:
        return ""
    missed = event.breakdown.total - claimed
    words = f"claimed {claimed}" + (f" · missed {missed}" if missed else "")
    if key in seen.taken:
        words += f" · {seen.taken[key]} taken (muggins)"
    return f'<span class="claimed" data-testid="claimed">{escape(words)}</span>'



def status_line(ctl: TableModel, view: View) -> str:
    text = status_text(ctl, view)
    error = f'<div class="error" role="alert">{escape(ctl.error)}</div>' if ctl.error else ""
    last = last_move(ctl, view)
    last = f'<span class="last-move" data-testid="last-move">{escape(last)}</span> ' if last else ""
    return (f'<div class="status-wrap"><div class="status" data-testid="status">{last}{escape(text)}</div>'
            f'{table_link(ctl)}{error}</div>')


def last_move(ctl: TableModel, view: View) -> str:
    """The play's latest step in a few words, so the player sees what just happened before
    being told what comes next: ``"Bot played J♣"``, ``"Robin said go"``, ``"The count starts again"``."""
    if view.phase != PLAYING or ctl.seat_screen.shown or not view.play:
        return ""
    step = view.play[-1]
    who = "You" if step.seat == view.seat and not ctl.watching else (
        ctl.names()[step.seat] if step.seat is not None else "")
    if step.kind == "play":
        assert step.card is not None, "a play step has its card"
        return f"{who} played {rank_text(step.card)}{SUIT_GLYPHS[step.card.suit]}"
    if step.kind == "go":
        return f"{who} said go"
    return "The count starts again"


def table_link(ctl: TableModel) -> str:
    """A table with friends: the connection's state in words (the controller's ``link``, "" when
    all is well), beside the status where the player looks. The chat panel says it too (and is
    the one a screen reader hears, role=status); this copy is for the eyes on screens where the
    chat is out of sight (hidden by CSS where the chat sits beside the table)."""
    text = ctl.link if ctl.multiplayer else ""
    return f'<div class="table-link" data-testid="table-link">{escape(text)}</div>' if text else ""


DEALING = "Shuffling and dealing: every player's browser takes its turn…"


def status_text(ctl: TableModel, view: View) -> str:
    names, me, seen = ctl.names(), view.seat, ctl.seat_screen
    if seen.play_end is not None:
        ended = "; ".join(seen.show_intro[-2:])
        return f"{ended}. The show is next" if ended else "The play is over. The show is next"
    if seen.count_end is not None:      # the count that ended, for a beat before the pile clears
        return f"{view.count}: the count starts again" if view.count == 31 else "Go: the count starts again"
    if view.phase == OVER and not seen.shown:
        return "Game over"
    if view.claim is not None and not ctl.pending:
        return claim_text(view, names, ctl.watching)
    if seen.shown:
        return "Each hand is counted where it lies, then the crib"
    if ctl.watching and view.phase == DISCARDING:
        return "The players choose their crib cards"
    if view.phase == DISCARDING and not view.hand and ctl.levels()[me] is None:
        return DEALING          # a blind hand: this browser reads its cards once every browser has dealt
    if ctl.pending:
        if ctl.link:     # cut off: the move waits (web.friends.delivery)
            return "Your move is kept: it goes to the host when the connection is back"
        return "Sending your move to the host…"
    levels = ctl.levels()
    if ctl.multiplayer and levels[me] is not None:
        return f"A bot ({levels[me]}) is playing for you until the host gives your seat back"
    if view.phase == DISCARDING:
        if view.has_discarded[me]:
            return "Waiting for the others to discard"
        n = view.config.to_crib
        owner = "your" if view.dealer == me else f"{names[view.dealer]}'s"
        if view.my_crib and view.dealer != me:
            owner = "your partner's"
        return f"Choose {n} card{'s' if n > 1 else ''} for {owner} crib"
    if view.turn == me and not ctl.watching:
        return f"Your turn (count {view.count})"
    if view.turn is None:      # a blind hand's end: its crib shown and every browser's keys checked
        return "The browsers are checking the hand…"
    return f"{names[view.turn]} to play"


CLAIMED = {"play": "your card", "show": "your hand", "crib": "your crib"}


def claim_text(view: View, names: Sequence[str], watching: bool = False) -> str:
    """What a muggins table waits for: this seat's count or call, or another's (a spectator,
    ``watching`` from a seat's place, is never asked).

    >>> from dataclasses import replace
    >>> from game.engine import Claim
    >>> from game.scoring import Breakdown
    >>> from game.engine import Config, new_game
    >>> from game.view import view as seat_view
    >>> v = seat_view(new_game(Config(), seed=1), 0)
    >>> claim_text(replace(v, claim=Claim("show", 0, (), Breakdown())), ["You", "Bot"])
    'Count your hand: claim its points'
    >>> claim_text(replace(v, claim=Claim("play", 1, (), Breakdown(), 1, 0)), ["You", "Bot"])
    'Bot claimed 1 for their card: call muggins or pass'
    >>> claim_text(replace(v, claim=Claim("play", 0, (), Breakdown(), 1, 1)), ["You", "Bot"])
    'Bot may call muggins'
    """
    claim, me = view.claim, None if watching else view.seat
    assert claim is not None, "a claim waits"
    if claim.to_act != me:
        return f"{names[claim.to_act]} {'is counting' if claim.caller is None else 'may call muggins'}"
    if claim.caller is None:
        return f"Count {CLAIMED[claim.what]}: claim its points"
    return f"{names[claim.seat]} claimed {claim.claimed} for their {CLAIMED[claim.what][5:]}: call muggins or pass"


def claim_bar(view: View) -> str:
    """The fast input of a claim: a chip for every number of points the card, hand or crib
    could make (0 to 12 for a card, to 29 for a hand); or, when a rival's claim fell short
    and this seat may call, "Muggins! (take N)" and "Pass"."""
    claim = view.claim
    if claim is None or claim.to_act != view.seat:
        return ""
    if claim.caller is not None:
        return ('<div class="claim-bar" role="group" data-testid="call-bar" aria-label="A short claim">'
                f'<button class="primary" data-action="muggins" data-testid="muggins" autofocus>'
                f'Muggins! (take {claim.missed})</button>'
                '<button class="secondary" data-action="pass" data-testid="pass">Pass</button></div>')
    most = 12 if claim.what == "play" else 29
    chips = "".join(f'<button class="chip" data-action="claim" data-arg="{n}" data-testid="claim-{n}"'
                    f'{" autofocus" if n == 0 else ""}>{n}</button>' for n in range(most + 1))
    return (f'<div class="claim-bar" role="group" data-testid="claim-bar" '
            f'aria-label="Points of {CLAIMED[claim.what]}">{chips}</div>')


def my_hand(ctl: TableModel, view: View, parts: TableParts) -> str:
    buttons = []
    me, seen = view.seat, ctl.seat_screen
    robot = ctl.multiplayer and ctl.levels()[me] is not None     # a bot plays this seat for now
    free = not (seen.shown or ctl.pending or ctl.watching or robot)
    playing = view.phase == PLAYING and view.turn == me and free and view.claim is None
    discarding = view.phase == DISCARDING and not view.has_discarded[me] and free and bool(view.hand)   # (a blind deal: none yet)
    shown = next((event for event in seen.shown if event.kind == "show" and event.seat == me), None)
    if ctl.watching:    # a spectator: the host's place, its cards face down
        buttons = [card_back("", f"held-{me}-{i}") for i in range(view.hand_sizes[me])]
    for index, card in enumerate(hand_order(view.hand, ctl.prefs["sort"]), start=1):
        if discarding:
            chosen = card in seen.selected
            attrs = (f'data-action="select" data-arg="{card}" aria-pressed="{str(chosen).lower()}" '
                     f'title="key {index}"')
            buttons.append(card_face(card, "selected" if chosen else "", "button", attrs))
        elif playing:
            legal = card.value + view.count <= 31
            attrs = (f'data-action="play" data-arg="{card}" title="key {index}"' if legal
                     else 'disabled aria-disabled="true"')
            buttons.append(card_face(card, "" if legal else "dim", "button", attrs))
        else:
            buttons.append(card_face(card, "", "button", 'disabled aria-disabled="true"'))
    action = ""
    if discarding:
        need = view.config.to_crib
        ready = len(seen.selected) == need
        label = f"Put {'them' if need > 1 else 'it'} in the crib"
        action = (f'<button class="primary" data-testid="confirm-discard" '
                  f'data-action="confirm-discard"{"" if ready else " disabled"}>{label}</button>')
    elif view.claim is not None and not ctl.pending and not ctl.watching and not robot:
        action = claim_bar(view)          # (during a muggins show too: hand by hand)
    elif seen.shown:
        action = ('<button class="primary" data-action="continue" data-testid="continue" autofocus>'
                  'Continue</button>')
    if (discarding or playing) and ctl.hints_allowed():
        action += ('<button class="secondary" data-action="hint" data-testid="hint-button" '
                   'aria-keyshortcuts="h" title="key H">Hint</button>')
    if seen.shown and parts.review_jump:
        # Phones: the review is under the table; a link jumps down to it (wide screens show it beside).
        action += '<a class="coach-jump" href="#coach-review" data-testid="coach-jump">Coach review ↓</a>'
    if shown is not None:
        mine = show_hand(seen, shown)
    else:
        played = cards_row(played_by(view, me), "small", "played")
        mine = f'<div class="played">{played}</div>' if played else ""
    go = seat_badges(ctl, view, me)
    turn = " turn" if view.turn == me and not seen.shown else ""
    side = view.config.side_of(me)
    # During the show the next hand is already dealt: it waits, hidden, until Continue.
    hidden = " hidden" if seen.shown else ""
    # --n: how many cards, so a phone sizes them to fit its width
    hand = f'<div class="hand"{hidden} style="--n:{len(buttons)}" data-testid="hand">{"".join(buttons)}</div>'
    order = show_order(seen).get(("show", me), "")
    return (f'<section class="me{turn}" data-key="seat-{me}" style="--side:{SIDE_COLOURS[side]}{order}" '
            f'aria-label="{f"{escape(ctl.names()[me])}’s hand" if ctl.watching else "Your hand"}">'
            f'{status_line(ctl, view)}{parts.hint_line}'
            f'<div class="who"><span class="name">{escape(ctl.names()[me])}</span>{go}</div>{mine}'
            f'{hand}<div class="actions">{action}</div></section>')


def verdict_panel(ctl: TableModel, view: View, summary: str = "") -> str:
    names = ctl.side_names()
    winner = view.winner
    assert winner is not None, "a game over has its winner"
    target = view.config.target
    verb = "win" if view.config.players == 4 else "wins"
    headline = "You win!" if winner == view.side and not ctl.watching else f"{escape(names[winner])} {verb}"
    if ctl.multiplayer:
        again = ('<button class="primary" data-action="new-game" data-testid="new-game" autofocus>'
                 'Rematch</button>' if ctl.hosting
                 else '<p class="hint" data-testid="await-rematch">The host can start a rematch.</p>')
        buttons = f'{again}<button class="secondary" data-action="leave" data-testid="leave">Leave table</button>'
    else:
        buttons = ('<button class="primary" data-action="new-game" data-testid="new-game" autofocus>Play again'
                   '</button><button class="secondary" data-action="to-start">Change table</button>')
    rows = "".join(
        f'<li><span class="name">{escape(name)}</span><span class="score">{min(view.scores[side], target)}</span>'
        f'<span class="verdict-word">{escape(view.verdicts[side])}</span></li>'
        for side, name in enumerate(names))
    # With friends the chat stays in reach ("good game"): the backdrop lets clicks through.
    through = " see-through" if ctl.multiplayer else ""
    return (f'<section class="overlay{through}" data-testid="verdict" role="dialog" aria-labelledby="verdict-title">'
            f'<div class="panel"><h2 id="verdict-title">{headline}</h2><ol class="final">{rows}</ol>'
            f'{summary}<div class="actions">{buttons}</div></div></section>')


def log_panel(lines: Sequence[str], open_: bool = True) -> str:
    """The hand history, newest first. Closed, it goes without its lines: every move adds one
    at the top, which would change each line below it on the page, for a panel most players
    never open (the page repaints when it is opened: web/dom.py ``on_toggle``).

    >>> closed = log_panel(["Ann plays 5H: 5"], open_=False)
    >>> "Hand history" in closed and "5H" not in closed
    True
    """
    items = ""
    if open_:
        items = log_items(tuple(lines[-120:]))
    return (f'<details class="log" data-testid="log"{" open" if open_ else ""}>'
            f'<summary>Hand history</summary><ol reversed tabindex="0" aria-label="Hand history, newest first">'
            f'{items}</ol></details>')


@lru_cache(maxsize=1)    # the lines drawn last: most repaints add no line, and keep their escaped items
def log_items(lines: tuple[str, ...]) -> str:
    """The hand history's items, newest first."""
    return "".join(f"<li>{escape(line)}</li>" for line in reversed(lines))
