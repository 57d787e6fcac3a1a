"""HTML for tables with friends: the lobby, the guest's join form, a refusal, the chat and
presence panel, and what a friends table adds to the table (`table_parts`). Pure functions of a
`HostController`, a `GuestController` or a `SpectatorController` (``ctl.hosting`` and
``ctl.watching`` say which); every name and chat line is escaped, so it is text, never markup.

>>> from web.friends.guest import GuestController
>>> ctl = GuestController("room-0123456789", name="<b>Bo</b>")
>>> html = render_join(ctl)
>>> 'data-testid="join"' in html and "&lt;b&gt;Bo" in html and "<b>Bo" not in html
True
"""

from __future__ import annotations

import time
from html import escape
from typing import TYPE_CHECKING, cast

from game.bots import BOT_LEVELS

from ..table.board import SIDE_COLOURS
from .fair_view import fair_panel, fair_strip, host_fair_panel, host_strip
from .protocol import rules_words
from .watchers import MAX_WATCHERS

if TYPE_CHECKING:
    from .guest import GuestController
    from .host_controller import HostController
    from .protocol import SeatInfo
    from .spectator import SpectatorController

    Friends = GuestController | HostController | SpectatorController


def as_host(ctl: Friends) -> HostController:
    """The host's controller, where ``ctl.hosting`` says it is one."""
    return cast("HostController", ctl)


def as_guest(ctl: Friends) -> GuestController:
    return cast("GuestController", ctl)


def as_spectator(ctl: Friends) -> SpectatorController:
    return cast("SpectatorController", ctl)


def watching_count(ctl: Friends) -> int:
    """How many watch the table: the host counts them, the others are told (``table``)."""
    if ctl.hosting:
        return len(as_host(ctl).table.watchers)
    told = as_spectator(ctl).table if ctl.watching else as_guest(ctl).table
    return told["watching"] if told else 0


def watching_line(ctl: Friends) -> str:
    """Under the players: ``2 watching`` (nothing while no one watches)."""
    count = watching_count(ctl)
    return f'<p class="watching-count" data-testid="watching">{count} watching</p>' if count else ""


def watch_setting(ctl: HostController) -> str:
    """The host's switch for spectators and, while they may watch, the watch link to send."""
    on = ctl.table.watchers.room is not None
    buttons = "".join(
        f'<button type="button" class="mini{" on" if on == allow else ""}" data-action="watching" '
        f'data-arg="{"on" if allow else "off"}" data-testid="watching-{"on" if allow else "off"}" '
        f'aria-pressed="{str(on == allow).lower()}">{label}</button>'
        for allow, label in ((True, "Allowed"), (False, "Off")))
    link = ""
    if on and ctl.watch_link:
        link = (f'<div class="invite-row"><input readonly value="{escape(ctl.watch_link)}" '
                f'aria-label="Watch link: anyone with it can watch" data-testid="watch-link">'
                f'<button type="button" class="secondary" data-action="copy-watch-link" '
                f'data-testid="copy-watch-link">Copy</button></div>')
    elif on:
        link = '<p class="hint">Preparing the watch link…</p>'
    return (f'<div class="watch-setting" data-testid="watch-setting" role="group" aria-labelledby="watch-label">'
            f'<span id="watch-label" class="label">Spectators</span><span class="controls">{buttons}</span>{link}'
            f'<p class="hint">Anyone with the watch link sees the board, the cards played, the shows and the '
            f'chat, never a hand; they cannot sit down, play or chat. At most {MAX_WATCHERS} at once.</p></div>')


def clock(at: float, offset_minutes: int) -> str:
    """``HH:MM`` of a time in seconds since 1970, shifted by the viewer's UTC offset."""
    return time.strftime("%H:%M", time.gmtime(at + offset_minutes * 60))


def seat_tag(ctl: Friends, seat: int, info: SeatInfo) -> str:
    me = ctl.seat
    if info["kind"] == "open":
        return "waiting for a friend"
    parts = []
    if seat == me:
        parts.append("you")
    if info["kind"] == "host":
        parts.append("host")
    if info["kind"] == "bot":
        parts.append(f"bot, {info['level']}")
    if info["stand_in"]:
        parts.append(f"a {info['stand_in']} bot plays for now")
    if info["kind"] in ("person", "host") and not info["online"]:
        parts.append("away")
    path = ctl.paths.get(seat)
    if path and info["online"]:
        parts.append(path_words(*path))
    return ", ".join(parts)


PATH_WORDS = {"direct": "direct", "TURN": "via TURN", "relay": "through the relay"}


def path_words(path: str, rtt_ms: float | None) -> str:
    """How a seat reaches the host, for the lobby and the players list.

    >>> path_words("direct", 12.4), path_words("relay", None)
    ('direct, 12 ms', 'through the relay')
    """
    words = PATH_WORDS.get(path, path)
    return f"{words}, {rtt_ms:.0f} ms" if rtt_ms is not None else words


def seat_controls(ctl: Friends, seat: int, info: SeatInfo, started: bool) -> str:
    """The host's buttons for one seat: bots in the lobby, stand-ins during the game."""
    if not ctl.hosting or seat == 0:
        return ""
    buttons = []
    if not started and info["kind"] in ("open", "bot"):
        for level in BOT_LEVELS:
            current = info["kind"] == "bot" and info["level"] == level
            buttons.append(f'<button type="button" class="mini{" on" if current else ""}" data-action="seat" '
                           f'data-arg="{seat}:{level}" data-testid="bot-{seat}-{level}" '
                           f'aria-pressed="{str(current).lower()}">{level.capitalize()} bot</button>')
        if info["kind"] == "bot":
            buttons.append(f'<button type="button" class="mini" data-action="seat" data-arg="{seat}:open" '
                           f'data-testid="empty-{seat}">Empty seat</button>')
    elif not started and info["kind"] == "person":
        buttons.append(f'<button type="button" class="mini" data-action="remove-seat" data-arg="{seat}" '
                       f'data-testid="remove-{seat}" aria-label="Remove {escape(info["name"])} from the table">'
                       f'Remove</button>')
    elif started and info["kind"] == "person":
        if info["stand_in"]:
            buttons.append(f'<button type="button" class="mini" data-action="give-back" data-arg="{seat}" '
                           f'data-testid="give-back-{seat}">Give the seat back</button>')
        elif not info["online"]:
            buttons.append(f'<button type="button" class="mini" data-action="stand-in" data-arg="{seat}:medium" '
                           f'data-testid="stand-in-{seat}">Let a bot play</button>')
    return f'<span class="controls">{"".join(buttons)}</span>' if buttons else ""


def seat_list(ctl: Friends, started: bool) -> str:
    players, _ = ctl.table_config()
    rows = []
    for seat, info in enumerate(ctl.seats()):
        side = seat % 2 if players == 4 else seat
        team = f'<span class="team">team {side + 1}</span>' if players == 4 else ""
        state = "open" if info["kind"] == "open" else "online" if info["online"] else "away"
        name = escape(info["name"]) if info["kind"] != "open" else "Empty seat"
        rows.append(
            f'<li class="seat-row {state}" data-testid="seat-{seat}" style="--side:{SIDE_COLOURS[side]}">'
            f'<span class="dot" title="{state}"></span><span class="name">{name}</span>{team}'
            f'<span class="tag">{escape(seat_tag(ctl, seat, info))}</span>'
            f'{seat_controls(ctl, seat, info, started)}</li>')
    return f'<ol class="seat-list" data-testid="seats">{"".join(rows)}</ol>{watching_line(ctl)}'


def render_lobby(ctl: Friends) -> str:
    if ctl.watching and not as_spectator(ctl).table:
        return (f'<section class="start" data-testid="connecting"><h2>Opening the table to watch…</h2>'
                f'{link_status(ctl) or "<p class=hint>Connecting to the host.</p>"}</section>')
    if not ctl.hosting and not ctl.watching and not as_guest(ctl).table:
        return (f'<section class="start" data-testid="connecting"><h2>Joining the table…</h2>'
                f'{answer_panel(as_guest(ctl))}'
                f'{link_status(ctl) or "<p class=hint>Connecting to the host.</p>"}</section>')
    players, target = ctl.table_config()
    invite = ""
    if ctl.hosting:
        host = as_host(ctl)
        invite = (f'<div class="invite"><label class="field" for="invite-link">Invite link: send it to your '
                  f'friends</label><div class="invite-row"><input id="invite-link" readonly '
                  f'value="{escape(host.invite)}" data-testid="invite-link">'
                  f'<button type="button" class="primary" data-action="copy-link" data-testid="copy-link">'
                  f'Copy</button></div></div>') + code_invite_panel(host) + watch_setting(host)
    partners = ('<p class="hint">Partners sit opposite: seats 1 and 3 (team 1) play seats 2 and 4 (team 2).</p>'
                if players == 4 else "")
    if ctl.hosting:
        table = as_host(ctl).table
        waiting = len(table.open_seats())
        ready = table.can_start()
        note = ("Everyone is seated." if ready else
                f"{waiting} empty seat{'s' if waiting > 1 else ''}: wait for a friend or put a bot there.")
        if table.starting:
            note = "Shuffling: each friend's browser adds its own randomness to the deck…"
        start = (f'<div class="actions"><button class="primary" data-action="start-table" data-testid="start-table"'
                 f'{"" if ready else " disabled"}>Start the game</button>'
                 f'<button type="button" class="secondary" data-action="leave" data-testid="close-table">'
                 f'Close the table</button></div><p class="hint">{note}</p>')
    elif ctl.watching:
        start = ('<p class="waiting" data-testid="await-start">You are watching this table: the game shows '
                 'here once the host starts it.</p><div class="actions"><button type="button" class="secondary" '
                 'data-action="leave" data-testid="leave">Stop watching</button></div>')
    else:
        start = ('<p class="waiting" data-testid="await-start">Waiting for the host to start the game…</p>'
                 '<div class="actions"><button type="button" class="secondary" data-action="leave" '
                 'data-testid="leave">Leave the table</button></div>')
    error = f'<div class="error" role="alert">{escape(ctl.error)}</div>' if ctl.error else ""
    return f"""
<div class="lobby-wrap">
<section class="lobby" data-testid="lobby">
  <h2>Table for {players} · {rules_words(table_rules(ctl)[0], target)}</h2>
  {invite}
  {link_status(ctl)}
  {seat_list(ctl, False)}
  {partners}
  {rules_setting(ctl, players)}
  {blind_setting(ctl)}
  {coach_setting(ctl)}
  {start}{error}
</section>
{chat_panel(ctl, presence=False)}
</div>"""


def table_rules(ctl: Friends) -> tuple[str, bool]:
    """The table's variant and whether its players count it themselves (muggins): the host's
    choice, which the others are told (``table``)."""
    if ctl.hosting:
        table = as_host(ctl).table
        return table.variant, table.muggins
    told = as_spectator(ctl).table if ctl.watching else as_guest(ctl).table
    assert told is not None, "the lobby shows once the host has described the table (render_lobby)"
    return told["variant"], told["muggins"]


MUGGINS_WORDS = ("Each player claims their own points (a chip for each number); a rival may call "
                 "muggins and take any they miss.")
COUNTED_WORDS = "The table counts everyone's points."


def rules_setting(ctl: Friends, players: int) -> str:
    """The game's length (five-card for two players) and counting it yourself (muggins): the
    host's switches, the guests' and spectators' words."""
    variant, muggins = table_rules(ctl)
    if not ctl.hosting:
        words = MUGGINS_WORDS if muggins else COUNTED_WORDS
        return f'<p class="hint table-rules" data-testid="table-rules">Count it yourself: {"on" if muggins else "off"}. {words}</p>'
    target = as_host(ctl).table.target
    length = "five" if variant == "five" else str(target)
    lengths = (("121", "121"), ("61", "61")) + ((("five", "Five-card (61)"),) if players == 2 else ())
    groups = ((("table-length", "Game to", [(arg, label, arg == length) for arg, label in lengths])),
              ("table-muggins", "Count it yourself (muggins)",
               [("on", "On", muggins), ("off", "Off", not muggins)]))
    html = ""
    for action, label, choices in groups:
        buttons = "".join(
            f'<button type="button" class="mini{" on" if on else ""}" data-action="{action}" data-arg="{arg}" '
            f'data-testid="{action}-{arg}" aria-pressed="{str(on).lower()}">{text}</button>'
            for arg, text, on in choices)
        html += (f'<div class="table-coach" role="group" aria-labelledby="{action}-label" data-testid="{action}">'
                 f'<span id="{action}-label" class="label">{label}</span><span class="controls">{buttons}</span></div>')
    return html + f'<p class="hint">{MUGGINS_WORDS if muggins else COUNTED_WORDS}</p>'


BLIND_ON_WORDS = ("Nobody sees a card they should not, not even the host: every player's browser "
                  "shuffles and deals together, and checks the others. The bots' cards are known to the "
                  "host's browser, which plays them.")
BLIND_OFF_WORDS = "The host's browser deals each hand (fairly, checked by every browser), so it could see every card."


def blind_setting(ctl: Friends) -> str:
    """Whether nobody sees a card, not even the host (the blind deal, docs/blind-deal.md): the
    host's switch (on for a new table; five-card and muggins tables keep the fair deal, and say
    why), the guests' and spectators' words."""
    if ctl.hosting:
        table = as_host(ctl).table
        why = table.blind_why_not()
        buttons = "".join(
            f'<button type="button" class="mini{" on" if table.blind == on else ""}" data-action="table-blind" '
            f'data-arg="{"on" if on else "off"}" data-testid="table-blind-{"on" if on else "off"}" '
            f'aria-pressed="{str(table.blind == on).lower()}">{label}</button>'
            for on, label in ((True, "On"), (False, "Off")))
        words = (f"Not at this table: {why}." if table.blind and why else
                 BLIND_ON_WORDS if table.blind else BLIND_OFF_WORDS)
        return (f'<div class="table-coach" data-testid="table-blind" role="group" aria-labelledby="blind-label">'
                f'<span id="blind-label" class="label">Nobody sees a card, not even the host</span>'
                f'<span class="controls">{buttons}</span>'
                f'<p class="hint" data-testid="table-blind-words">{escape(words)}</p></div>')
    told = as_spectator(ctl).table if ctl.watching else as_guest(ctl).table
    assert told is not None, "a guest's lobby shows once the host has described the table (render_lobby)"
    words = BLIND_ON_WORDS if told.get("blind") else BLIND_OFF_WORDS
    return f'<p class="hint table-blind" data-testid="table-blind-words">{escape(words)}</p>'


def coach_setting(ctl: Friends) -> str:
    """Whether the coach may review each player's hands at this table: the host's choice (off
    unless allowed), which the guests read."""
    if ctl.hosting:
        allowed = as_host(ctl).table.coach
        buttons = "".join(
            f'<button type="button" class="mini{" on" if allowed == on else ""}" data-action="table-coach" '
            f'data-arg="{"on" if on else "off"}" data-testid="table-coach-{"on" if on else "off"}" '
            f'aria-pressed="{str(allowed == on).lower()}">{label}</button>'
            for on, label in ((True, "Allowed"), (False, "Off")))
        return (f'<div class="table-coach" data-testid="table-coach" role="group" aria-labelledby="coach-label">'
                f'<span id="coach-label" class="label">Coach after each hand</span>'
                f'<span class="controls">{buttons}</span>'
                f'<p class="hint">When allowed, each player sees a review of their own discards and pegging '
                f'after each show. Nobody sees anyone else\'s cards.</p></div>')
    told = as_spectator(ctl).table if ctl.watching else as_guest(ctl).table
    assert told is not None, "a guest's lobby shows once the host has described the table (render_lobby)"
    if told.get("coach"):
        words = ("The host allows the coach: after each hand you see a review of your own discards "
                 "and pegging (turn it off in your settings).")
    else:
        words = "The host has the coach off at this table."
    return f'<p class="hint table-coach" data-testid="table-coach">{words}</p>'


def code_invite_panel(ctl: HostController, expand: bool | None = None) -> str:
    """The host's invite without a relay: a link with the offer inside, then the friend's answer.
    Open by itself (unless ``expand`` says) when the relay cannot be reached: the plain link
    cannot work then."""
    down = ctl.relay_down
    in_use = bool(ctl.code_link or ctl.code_note)
    expand = (down if expand is None else expand) or in_use
    why = ('<p class="link-status" role="status" data-testid="relay-down">The relay cannot be reached, '
           'so the invite link above cannot connect anyone. Invite friends with a code instead, '
           'one at a time:</p>' if down else "")
    link = ""
    if ctl.code_link:
        link = (f'<div class="invite-row"><input readonly value="{escape(ctl.code_link)}" '
                f'aria-label="Invite link for one friend" data-testid="code-invite-link">'
                f'<button type="button" class="secondary" data-action="copy-code-link" data-testid="copy-code-link">Copy'
                f'</button></div>'
                f'<form class="invite-row" data-action="code-answer" autocomplete="off">'
                f'<input name="code" placeholder="Paste the answer code your friend sends back" '
                f'aria-label="Your friend\'s answer code" data-testid="answer-input" required>'
                f'<button type="submit" class="primary" data-testid="answer-connect">Connect</button></form>')
    note = f'<p class="hint" role="status" data-testid="code-note">{escape(ctl.code_note)}</p>' if ctl.code_note else ""
    return f"""
<details class="code-invite" data-testid="code-invite"{" open" if expand else ""}>
  <summary>No relay? Invite a friend with a code</summary>
  {why}
  <ol class="steps"><li>Make an invite link and send it to one friend.</li>
    <li>Their page shows an answer code: they send it back to you.</li>
    <li>Paste it here and press Connect. Then make a new link for the next friend.</li></ol>
  <button type="button" class="secondary" data-action="code-invite" data-testid="make-code-invite">Make an invite link</button>
  {link}{note}
</details>"""


def answer_panel(ctl: GuestController) -> str:
    """A guest invited by code: the answer code to send back, until the host connects."""
    code = ctl.answer_code
    if not code or ctl.table:
        return ""
    return f"""
<div class="invite answer" data-testid="answer-panel">
  <label class="field" for="answer-code">Send this answer code back to your host: the table
    connects once they paste it.</label>
  <div class="invite-row"><input id="answer-code" readonly value="{escape(code)}" data-testid="answer-code">
    <button type="button" class="primary" data-action="copy-answer" data-testid="copy-answer">Copy</button></div>
</div>"""


def link_status(ctl: Friends) -> str:
    text = ctl.link
    return f'<p class="link-status" role="status" data-testid="link-status">{escape(text)}</p>' if text else ""


def render_join(ctl: GuestController) -> str:
    return f"""
<form class="start join" data-testid="join" data-action="join" autocomplete="off">
  <h2>Join a cribbage table</h2>
  <p class="hint">A friend invited you. Type your name and sit down; the game runs in your friend's
  browser and yours.</p>
  <label class="field">Your name
    <input name="name" maxlength="24" value="{escape(ctl.prefs.get('name', ''))}" placeholder="Your name"
           data-testid="name" required autofocus></label>
  <div class="actions"><button type="submit" data-testid="sit-down">Sit down</button></div>
  {answer_panel(ctl)}
  {link_status(ctl)}
  {f'<div class="error" role="alert">{escape(ctl.error)}</div>' if ctl.error else ""}
</form>"""


def render_rejected(ctl: GuestController) -> str:
    return f"""
<section class="start" data-testid="rejected">
  <h2>You can't join this table</h2>
  <p role="alert" data-testid="reject-reason">{escape(ctl.rejected)}</p>
  <div class="actions"><a class="secondary" href="./">Play the bots instead</a></div>
</section>"""


def chat_panel(ctl: Friends, presence: bool = True) -> str:
    offset = ctl.utc_offset
    lines = []
    for line in ctl.chat[-200:]:
        when = f'<time>{clock(line["at"], offset)}</time>'
        if line["system"]:
            lines.append(f'<li class="system">{when} <span class="text">{escape(line["text"])}</span></li>')
        else:
            lines.append(f'<li>{when} <b class="speaker">{escape(line["name"])}</b> '
                         f'<span class="text">{escape(line["text"])}</span></li>')
    people = leave = ""
    if presence:
        what = "Close the table" if ctl.hosting else "Stop watching" if ctl.watching else "Leave the table"
        leave = (f'<button type="button" class="secondary small leave" data-action="leave" '
                 f'data-testid="leave-game">{what}</button>')
    if presence and ctl.table:
        people = f'<details class="people" open><summary>Players</summary>{seat_list(ctl, True)}</details>'
        if ctl.hosting:
            people += host_fair_panel(as_host(ctl))
            if as_host(ctl).relay_down:   # a friend who dropped needs a new code
                people += code_invite_panel(as_host(ctl), expand=False)
            people += f'<details class="watch-panel"><summary>Spectators</summary>{watch_setting(as_host(ctl))}</details>'
        elif not ctl.watching:      # (a spectator is not dealt in: no fair deal of its own to check)
            people += fair_panel(as_guest(ctl))
    return f"""
<section class="chat" id="chat-panel" data-testid="chat" aria-label="Table chat">
  {link_status(ctl) if presence else ""}
  {people}
  <h2>Table chat</h2>
  <ol class="chat-lines" data-testid="chat-lines" aria-live="polite" tabindex="0"
      aria-label="Chat messages">{"".join(lines)}</ol>
  {chat_form(ctl)}
  {leave}
</section>"""


def chat_form(ctl: Friends) -> str:
    """Where a player writes to the table; a spectator reads the chat only."""
    if ctl.watching:
        return '<p class="hint watch-note" data-testid="watch-note">You are watching: you read the chat, the players write in it.</p>'
    return '''<form class="chat-form" data-action="chat" autocomplete="off">
    <input name="text" maxlength="280" placeholder="Say something to the table" aria-label="Chat message"
           data-testid="chat-input">
    <button type="submit" data-testid="chat-send">Send</button>
  </form>'''


def chat_jump(ctl: Friends) -> str:
    """Phones: the table chat sits below the hand, so a bar under the scores shows its latest
    line and jumps down to it (hidden on wide screens, where the chat is beside the table).

    While the connection is in trouble the bar says so instead, in the same place: the table
    does not move under the player's thumb, and the hand stays on screen (the copy by the
    status, `web.table.render.table_link`, is for tablets, which have no bar)."""
    if ctl.link:
        return (f'<a class="chat-jump trouble" href="#chat-panel" data-testid="link-bar">'
                f'<span class="chat-jump-label">Connection</span>'
                f'<span class="chat-jump-line">{escape(ctl.link)}</span></a>')
    last = ctl.chat[-1] if ctl.chat else None
    if last is None:
        line = "The table's chat" if ctl.watching else "Say something to the table"
    elif last["system"]:
        line = escape(last["text"])
    else:
        line = f'<b>{escape(last["name"])}:</b> {escape(last["text"])}'
    return (f'<a class="chat-jump" href="#chat-panel" data-testid="chat-jump">'
            f'<span class="chat-jump-label">Chat</span><span class="chat-jump-line">{line}</span></a>')


def table_parts(ctl: Friends) -> dict[str, str]:
    """What a friends table adds to the table (`web.table.render.TableParts`): the fair deal's
    mark under a guest's scores, the phone's chat bar and the chat beside the table."""
    under = (f'<p class="watch-tag" data-testid="watch-tag">Watching from {escape(ctl.names()[0])}’s place</p>'
             if ctl.watching
             else host_strip(as_host(ctl)) if ctl.hosting else fair_strip(as_guest(ctl)))
    return {"under_scores": under, "chat_jump": chat_jump(ctl),
            "side": chat_panel(ctl)}
