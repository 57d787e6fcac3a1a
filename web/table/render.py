"""HTML for the table: a pure function of the controller's view (see `web.render`)."""

from __future__ import annotations

from html import escape

from game.engine import DISCARDING, OVER, PLAYING

from ..controller import Controller, hand_order
from ..lobby import chat_panel
from .board import SIDE_COLOURS, board_svg
from .cards import card_back, card_face, cards_row


# ---- the table ------------------------------------------------------------------------------

def render_table(ctl: Controller) -> str:
    view = ctl.view()
    multiplayer = getattr(ctl, "multiplayer", False)
    parts = [f'<div class="tabletop{" friends" if multiplayer else ""}" data-phase="{view.phase}" '
             f'data-turn="{view.turn}" data-seat="{view.seat}" data-state="{view.state_id}">',
             scoreboard(ctl, view), chat_jump(ctl) if multiplayer else "", opponents(ctl, view),
             middle(ctl, view), my_hand(ctl, view)]
    if ctl.show:
        parts.append(show_panel(ctl, view))
    elif view.phase == OVER:
        parts.append(verdict_panel(ctl, view))
    if multiplayer:
        parts.append(chat_panel(ctl))
    parts.append(log_panel(ctl.log()))
    parts.append(f'<div class="sr-only" aria-live="polite" data-testid="announce">'
                 f'{escape(ctl.announcement)}</div></div>')
    return "".join(parts)


def chat_jump(ctl) -> str:
    """Phones: the table chat sits below the hand, so a bar under the scores shows its latest
    line and jumps down to it (hidden on wide screens, where the chat is beside the table)."""
    last = ctl.chat[-1] if ctl.chat else None
    if last is None:
        line = "Say something to the table"
    elif last["system"]:
        line = escape(last["text"])
    else:
        line = f'<b>{escape(last["name"])}:</b> {escape(last["text"])}'
    return (f'<a class="chat-jump" href="#chat-panel" data-testid="chat-jump">'
            f'<span class="chat-jump-label">Chat</span><span class="chat-jump-line">{line}</span></a>')


def scoreboard(ctl: Controller, view) -> str:
    names = ctl.side_names()
    dealer_side = view.config.side_of(view.dealer)
    sides = []
    for side, name in enumerate(names):
        you = " (you)" if side == view.side else ""
        crib = '<span class="badge crib">crib</span>' if side == dealer_side else ""
        why = escape(ctl.last_pegs.get(side, ""))
        sides.append(
            f'<div class="side" style="--side:{SIDE_COLOURS[side]}">'
            f'<span class="peg-dot"></span><span class="name">{escape(name)}{you}</span>{crib}'
            f'<span class="score" data-testid="score-{side}">{view.scores[side]}</span>'
            f'<span class="why">{why}</span></div>')
    wins = ""
    if view.config.match_wins > 1:
        wins = f'<div class="wins">Games: {" – ".join(map(str, view.wins))}</div>'
    board = board_svg(view.config.target, view.scores, view.previous, names)
    return f'<section class="scores" aria-label="Scores">{"".join(sides)}{wins}{board}</section>'


def seat_badges(ctl: Controller, view, seat: int) -> str:
    badges = []
    me = view.seat
    if seat == view.dealer:
        badges.append('<span class="badge dealer">dealer</span>')
    if view.config.players == 4 and seat != me and seat % 2 == me % 2:
        badges.append('<span class="badge partner">partner</span>')
    presence = getattr(ctl, "presence", None)
    if presence is not None and seat != me:
        if not presence()[seat]:
            badges.append(f'<span class="badge away" data-testid="away-{seat}">away</span>')
    if view.phase == DISCARDING and view.has_discarded[seat]:
        badges.append('<span class="badge done">ready</span>')
    if seat in view.said_go:
        badges.append('<span class="badge go" data-testid="go">go</span>')
    return "".join(badges)


def opponents(ctl: Controller, view) -> str:
    seats = []
    players = view.config.players
    for offset in range(1, players):
        seat = (view.seat + offset) % players
        played = [step.card for step in view.play if step.kind == "play" and step.seat == seat]
        turn = " turn" if view.turn == seat else ""
        level = ctl.levels()[seat]
        side = view.config.side_of(seat)
        seats.append(
            f'<div class="seat{turn}" data-seat="{seat}" style="--side:{SIDE_COLOURS[side]}">'
            f'<div class="who"><span class="name">{escape(ctl.names()[seat])}</span>'
            f'<span class="level">{escape(level or "")}</span>{seat_badges(ctl, view, seat)}</div>'
            f'<div class="held">{"".join(card_back("small") for _ in range(view.hand_sizes[seat]))}</div>'
            f'<div class="played">{cards_row(played, "small")}</div></div>')
    return f'<section class="opponents">{"".join(seats)}</section>'


def middle(ctl: Controller, view) -> str:
    owner = ctl.names()[view.dealer]
    whose = "Your crib" if view.dealer == view.seat else f"{escape(owner)}'s crib"
    starter = card_face(view.starter) if view.starter else card_back()
    crib = "".join(card_back("small stacked") for _ in range(view.crib_size)) or \
        '<span class="empty">empty</span>'
    pile = cards_row(view.pile, "pile-card") or '<span class="empty">no cards yet</span>'
    return f"""
<section class="middle">
  <div class="deck"><div class="label">Starter</div><div data-testid="starter">{starter}</div></div>
  <div class="crib"><div class="label">{whose}</div><div class="crib-cards" data-testid="crib">{crib}</div></div>
  <div class="play-area">
    <div class="label">Count <span class="count" data-testid="count">{view.count}</span></div>
    <div class="pile" data-testid="pile">{pile}</div>
  </div>
</section>"""


def status_line(ctl: Controller, view) -> str:
    text = status_text(ctl, view)
    error = f'<div class="error" role="alert">{escape(ctl.error)}</div>' if ctl.error else ""
    return (f'<div class="status-wrap"><div class="status" data-testid="status">{escape(text)}</div>'
            f'{error}</div>')


def status_text(ctl: Controller, view) -> str:
    names, me = ctl.names(), view.seat
    if view.phase == OVER:
        return "Game over"
    if ctl.show:
        return "The show: counting the hands"
    if getattr(ctl, "pending", False):
        return "Sending your move to the host…"
    levels = ctl.levels()
    if getattr(ctl, "multiplayer", False) and levels[me] is not None:
        return f"A bot ({levels[me]}) is playing for you until the host gives your seat back"
    if view.phase == DISCARDING:
        if view.has_discarded[me]:
            return "Waiting for the others to discard"
        n = view.config.to_crib
        owner = "your" if view.dealer == me else f"{names[view.dealer]}'s"
        if view.my_crib and view.dealer != me:
            owner = "your partner's"
        return f"Choose {n} card{'s' if n > 1 else ''} for {owner} crib"
    if view.turn == me:
        return f"Your turn: the count is {view.count}"
    return f"{names[view.turn]} to play"


def my_hand(ctl: Controller, view) -> str:
    buttons = []
    me = view.seat
    free = not ctl.show and not getattr(ctl, "pending", False) and \
        not (getattr(ctl, "multiplayer", False) and ctl.levels()[me] is not None)
    playing = view.phase == PLAYING and view.turn == me and free
    discarding = view.phase == DISCARDING and not view.has_discarded[me] and free
    for index, card in enumerate(hand_order(view.hand, ctl.prefs["sort"]), start=1):
        if discarding:
            chosen = card in ctl.selected
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
        ready = len(ctl.selected) == need
        label = f"Put {'them' if need > 1 else 'it'} in the crib"
        action = (f'<button class="primary" data-testid="confirm-discard" '
                  f'data-action="confirm-discard"{"" if ready else " disabled"}>{label}</button>')
    played = [step.card for step in view.play if step.kind == "play" and step.seat == me]
    mine = f'<div class="played">{cards_row(played, "small")}</div>' if played else ""
    go = seat_badges(ctl, view, me)
    turn = " turn" if view.turn == me else ""
    side = view.config.side_of(me)
    return (f'<section class="me{turn}" style="--side:{SIDE_COLOURS[side]}">{status_line(ctl, view)}'
            f'<div class="who"><span class="name">'
            f'{escape(ctl.names()[me])}</span>{go}</div>{mine}'
            f'<div class="hand" data-testid="hand">{"".join(buttons)}</div>'
            f'<div class="actions">{action}</div></section>')


def show_panel(ctl: Controller, view) -> str:
    """The counted hands, in order, each combination with its cards, and the spoken count."""
    names = ctl.names()
    starter = ctl.show_starter
    blocks = []
    for event in ctl.show:
        whose = "Your" if event.seat == view.seat else f"{escape(names[event.seat])}'s"
        title = f"{whose} {'crib' if event.kind == 'crib' else 'hand'}"
        items = "".join(
            f'<li class="item"><span class="what">{escape(item.label())}</span>'
            f'<span class="with">{cards_row(item.cards, "tiny")}</span></li>'
            for item in event.breakdown.items)
        blocks.append(
            f'<div class="shown" data-seat="{event.seat}" data-kind="{event.kind}">'
            f'<h3><span>{title}</span><span class="total">{event.breakdown.total}</span></h3>'
            f'<div class="cards">{cards_row(event.cards, "small")}'
            f'{card_face(starter, "small starter-mark") if starter else ""}</div>'
            f'<p class="spoken">{escape(event.breakdown.spoken())}</p>'
            f'<ul class="items">{items}</ul></div>')
    return (f'<section class="overlay" data-testid="show" aria-label="The show">'
            f'<div class="panel wide"><h2>The show</h2><div class="shows">{"".join(blocks)}</div>'
            f'<div class="continue-bar"><button class="primary" data-action="continue" '
            f'data-testid="continue" autofocus>Continue</button></div></div></section>')


def verdict_panel(ctl: Controller, view) -> str:
    names = ctl.side_names()
    winner = view.winner
    headline = "You win!" if winner == view.side else f"{escape(names[winner])} wins"
    if getattr(ctl, "multiplayer", False):
        again = ('<button class="primary" data-action="new-game" data-testid="new-game" autofocus>'
                 'Rematch</button>' if getattr(ctl, "hosting", False)
                 else '<p class="hint" data-testid="await-rematch">The host can start a rematch.</p>')
        buttons = f'{again}<button class="secondary" data-action="leave" data-testid="leave">Leave table</button>'
    else:
        buttons = ('<button class="primary" data-action="new-game" data-testid="new-game" autofocus>Play again'
                   '</button><button class="secondary" data-action="menu">Change table</button>')
    rows = "".join(
        f'<li><span class="name">{escape(name)}</span><span class="score">{view.scores[side]}</span>'
        f'<span class="verdict-word">{escape(view.verdicts[side])}</span></li>'
        for side, name in enumerate(names))
    return (f'<section class="overlay" data-testid="verdict"><div class="panel">'
            f'<h2>{headline}</h2><ol class="final">{rows}</ol>'
            f'<div class="actions">{buttons}</div></div></section>')


def log_panel(lines) -> str:
    items = "".join(f"<li>{escape(line)}</li>" for line in reversed(lines[-120:]))  # newest first
    return (f'<details class="log" data-testid="log"><summary>Hand history</summary>'
            f'<ol reversed>{items}</ol></details>')
