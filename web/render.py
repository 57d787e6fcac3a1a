"""HTML for each screen: which one is showing, and the start screen; the table is `web.table`'s.
Pure functions of the controller's view.

Nothing here touches the browser: the glue sets ``innerHTML`` and routes clicks by the
``data-action`` / ``data-arg`` attributes. Every text is escaped, so a player's name is text,
never markup. Test hooks: ``data-card`` on every card, ``data-testid`` on the parts tests read.

>>> from web.controller import Controller
>>> ctl = Controller(seed_source=lambda: 3)
>>> 'data-testid="start"' in render(ctl)
True
>>> ctl.command("start", {"name": "<b>Ann</b>", "players": "2", "level": "easy"})
>>> html = render(ctl)
>>> "&lt;b&gt;Ann" in html and "<b>Ann" not in html, html.count('data-card="back"') >= 6
(True, True)
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, cast

from game.bots import BOT_LEVELS

from . import passplay
from .coach.view import hint_html, hint_line, review_html, summary_html
from .table.cover import cover_html
from .table.model import TableModel
from .table.render import TableParts, render_table

if TYPE_CHECKING:
    from .friends.lobby import Friends


def render(ctl: TableModel, log_open: bool = True, narrow: bool = False) -> str:
    """The whole app for the current screen. ``log_open``: whether the table's hand history
    is open (closed, its lines are left out: see `web.table.render.log_panel`); ``narrow``: a
    phone's screen, where the coach's review waits, folded, under the table."""
    if ctl.screen == "table":
        cover = ctl.cover()     # (pass and play: the table is not drawn under it, no card in the page)
        if cover is not None:
            return cover_html(cover)
        return render_table(ctl, table_parts(ctl, narrow), log_open)
    if ctl.screen == "start":
        return render_start(ctl)
    from .friends import lobby    # (the other screens are a friends table's: loaded with it, web.lazy)
    if ctl.screen == "lobby":
        return lobby.render_lobby(as_friends(ctl))
    guest_screens = {"join": lobby.render_join, "rejected": lobby.render_rejected}
    return guest_screens[ctl.screen](lobby.as_guest(as_friends(ctl)))


def as_friends(ctl: TableModel) -> Friends:
    """The controller of a friends table (a host's or a guest's), where its screen or
    ``ctl.multiplayer`` says it is one. A cast: the table's kind is read from its flags, not
    its class, whose modules a bot game never imports (web.lazy)."""
    return cast("Friends", ctl)


def table_parts(ctl: TableModel, narrow: bool = False) -> TableParts:
    """What the coach and a friends table put on the table, as `web.table.render` takes it."""
    hint, review, game = ctl.current_hint(), ctl.hand_review(), ctl.game_review()
    opened = bool(ctl.seat_screen.shown) and not narrow
    coach = hint_html(hint) + (review_html(*review, open_=opened) if review else "")
    friends: dict[str, str] = {}
    if ctl.multiplayer:
        from .friends.lobby import table_parts as friends_parts
        friends = friends_parts(as_friends(ctl))
    return TableParts(hint_line=hint_line(hint), coach=coach, review_jump=review is not None,
                      summary=summary_html(*game) if game else "", **friends)


# ---- start screen ---------------------------------------------------------------------------

# Over the start form, a fan of the best hand in the game (four fives and the jack of the
# starter's suit: 29), drawn in HTML and CSS: the page paints it at once, before the card
# drawings load (index.html holds this markup: scripts/gen_shell.py).
_FAN = (("5", "♣", ""), ("5", "♦", " red"), ("5", "♥", " red"), ("J", "♠", ""), ("5", "♠", " starter"))
HERO = ('<div class="hero"><div class="fan" aria-hidden="true">'
        + "".join(f'<span class="mini-card{kind}" style="--i:{i}"><b>{rank}<br>{suit}</b><i>{suit}</i></span>'
                  for i, (rank, suit, kind) in enumerate(_FAN))
        + '</div><p class="hero-note" aria-hidden="true">Fifteen two, fifteen four… twenty-nine.</p>'
        '<ul class="features"><li>Bots from easy to hard, and a coach if you want one</li>'
        '<li>Friends at your table by a link: nothing to install, no account</li>'
        '<li>2, 3 or 4 players; plays offline once loaded</li></ul></div>')

def render_start(ctl: TableModel) -> str:
    """The start form: the player's name, the bots' level, the players, the game's length."""
    prefs = ctl.prefs

    def radio(name: str, value: str | int, label: str) -> str:
        checked = " checked" if str(prefs[name]) == str(value) else ""
        return (f'<label class="choice"><input type="radio" name="{name}" value="{value}"{checked}>'
                f'<span>{label}</span></label>')

    levels = "".join(radio("level", level, level.capitalize()) for level in BOT_LEVELS)
    players = "".join(radio("players", n, f"{n}" + (" (partners)" if n == 4 else ""))
                      for n in (2, 3, 4))
    targets = (radio("target", 121, "121") + radio("target", 61, "61 (short)")
               + radio("target", "five", "Five-card (61, 2 players)"))
    resume = ('<button type="button" class="secondary" data-action="resume">Back to the game'
              '</button>') if ctl.can_resume() else ""
    # A refused start (five-card cribbage at three players, two people of one name at pass and
    # play) says why, once, here.
    error = (f'<div class="error" role="alert" data-testid="start-error">{escape(ctl.error)}</div>'
             if ctl.error else "")
    return f"""
<form class="start" data-testid="start" data-action="start" autocomplete="off">
  {HERO}
  <h2>Play cribbage</h2>
  <label class="field">Your name
    <input name="name" maxlength="24" value="{escape(prefs['name'])}" placeholder="You"
           data-testid="name"></label>
  <fieldset><legend>Bot level</legend>{levels}</fieldset>
  <fieldset><legend>Players</legend>{players}</fieldset>
  <fieldset><legend>Game to</legend>{targets}</fieldset>
  <div class="actions"><button type="submit" data-testid="start-game">Deal</button>{resume}</div>{error}
  <div class="friends"><button type="submit" name="mode" value="friends" class="secondary"
    data-testid="create-table">Invite friends instead</button>
    <span class="hint">You host: the table runs in your browser, friends join with a link.</span></div>
  {passplay.form_html(ctl.error)}
  <div class="actions profile-links">
    <button type="button" class="secondary" data-action="stats" data-testid="open-stats">Statistics</button>
    <button type="button" class="secondary" data-action="settings" data-testid="open-settings">Settings</button>
  </div>
  <p class="hint">Everything runs in your browser. No account needed: your name, settings and
    games stay on this device (Settings moves them to another).</p>
</form>"""
