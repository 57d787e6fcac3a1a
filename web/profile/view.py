"""HTML for the profile screens: settings, statistics and the replay viewer. Pure functions.

>>> from web.profile.model import Profile
>>> html = render_settings(Profile.new("Ann <3"))
>>> 'value="Ann &lt;3"' in html and 'name="theme"' in html
True
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import TYPE_CHECKING, Any

from game.coach import review_hand, walk
from game.events import Event

from ..coach.view import discard_html, pegging_html
from .model import PREFERENCES, Profile
from .records import GameRecord
from ..table.cards import card_face, cards_row
from .replay import replay_hands
from .stats import Stats, accuracy_svg, compute, histogram_svg, results_svg

if TYPE_CHECKING:   # in web/app_later.zip (web.lazy.LATER): only a link in progress has one
    from .device_link import LinkState

LABELS: dict[str, tuple[str, dict[object, str]]] = {   # a preference: its label, each value's
    "level": ("Default bot level", {"easy": "Easy", "medium": "Medium", "hard": "Hard"}),
    "players": ("Default players", {2: "2", 3: "3", 4: "4 (partners)"}),
    "target": ("Default game", {121: "121", 61: "61 (short)", "five": "Five-card (61, 2 players)"}),
    "card_size": ("Card size", {"small": "Small", "medium": "Medium", "large": "Large"}),
    "sort": ("Sort my hand by", {"rank": "Rank", "suit": "Suit"}),
    "four_colour": ("Four-colour deck", {False: "Off", True: "On"}),
    "speed": ("Pace of play", {"slow": "Slow", "normal": "Normal", "fast": "Fast",
                               "instant": "Instant"}),
    "auto_continue": ("After the show", {False: "Wait for me", True: "Continue by itself"}),
    "sound": ("Sound", {True: "On", False: "Off"}),
    "theme": ("Theme", {"system": "Follow the system", "light": "Light", "dark": "Dark"}),
    "muggins": ("Counting (bot and pass-and-play tables)", {False: "The table counts every point",
                                              True: "I count my own (muggins: a bot may take what I miss)"}),
    "coach": ("Coach after each hand (bot games, and friends tables whose host allows it)", {True: "Review my discard and pegging", False: "Off"}),
}


def render_settings(profile: Profile, message: str = "", link: LinkState | None = None) -> str:
    """Nickname and every preference (applied as soon as it changes), export and import, and
    linking another device."""
    groups = []
    for name, (label, choices) in LABELS.items():
        options = "".join(
            f'<label class="choice"><input type="radio" name="{name}" value="{_value(value)}"'
            f'{" checked" if profile.prefs[name] == value else ""} data-pref="{name}">'
            f'<span>{escape(text)}</span></label>'
            for value, text in ((v, choices[v]) for v in choices if v in PREFERENCES[name]))
        groups.append(f'<fieldset><legend>{escape(label)}</legend>{options}</fieldset>')
    note = f'<p class="notice" role="status">{escape(message)}</p>' if message else ""
    return f"""
<form class="start settings" data-testid="settings" data-action="save-settings" autocomplete="off">
  <h2>Settings</h2>{note}
  <label class="field">Nickname
    <input name="nickname" maxlength="24" value="{escape(profile.nickname)}" data-testid="nickname"></label>
  {"".join(groups)}
  <fieldset><legend>Your profile on another device</legend>
    <button type="button" class="secondary" data-action="export-profile" data-testid="export-profile">Save to a file</button>
    <label class="secondary file-button">Load from a file
      <input type="file" accept=".json,application/json" data-action="import-profile" data-testid="import-profile"></label>
  </fieldset>
  {render_link(link)}
  <div class="actions"><button type="button" class="primary" data-action="close-screen">Done</button></div>
</form>"""


def render_link(link: LinkState | None) -> str:
    """Link a device: show a code here or type the other device's, then how the link is going."""
    status = (f'<p class="link-status" role="status" data-testid="link-status">{escape(link.status)}</p>'
              if link and link.status else "")
    if link and not link.finished:
        shown = ""
        if link.showing:
            from .device_link import LINK_MINUTES   # (a LinkState: web.profile.device_link is in)
            shown = (f'<p>On your other device, open Settings, then Link a device, and type this code '
                     f'(it works for {LINK_MINUTES} minutes):</p>'
                     f'<p class="link-code" data-testid="link-code">{escape(link.code)}</p>')
        body = (f'{shown}{status}<div class="actions"><button type="button" class="secondary" '
                f'data-action="link-cancel" data-testid="link-cancel">Cancel</button></div>')
    else:
        body = f"""{status}
    <div class="link-choices">
      <button type="button" class="secondary" data-action="link-show" data-testid="link-show">Show a code</button>
      <span class="hint">or type the code your other device shows:</span>
      <span class="invite-row"><input maxlength="12" placeholder="K7MQ-2XRT" autocapitalize="characters"
        aria-label="Code from your other device" data-testid="link-code-input" spellcheck="false">
        <button type="button" class="secondary" data-action="link-enter" data-testid="link-enter">Link</button></span>
    </div>"""
    return f"""<fieldset class="link-device" data-testid="link-device"><legend>Link a device</legend>
    <p class="hint">Both devices, online at the same time, swap their games directly (peer to peer)
      and keep the newer settings. Linking again never counts a game twice.</p>
    {body}
  </fieldset>"""


def _value(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def parse_pref(name: str, text: str) -> object:
    """The preference value a settings radio button stands for (its text form back); None
    for none."""
    for value in PREFERENCES.get(name, ()):
        if _value(value) == text:
            return value
    return None
    return None


def render_stats(profile: Profile) -> str:
    """Totals per mode, two small charts, and the recent games with replay and share buttons."""
    groups = compute(profile.records)
    rows = "".join(_stats_row(name, stats) for name, stats in groups.items() if stats.games)
    everything = groups["all"]
    if not everything.games:
        body = '<p class="empty">No finished games yet: your statistics start with your first game.</p>'
    else:
        body = f"""
  <div class="table-scroll" tabindex="0" role="region" aria-label="Statistics per kind of game">
    <table class="stats-table">
    <thead><tr><th>Games</th>{"".join(f"<th>{escape(label)}</th>" for label in STATS_COLUMNS)}</tr></thead>
    <tbody>{rows}</tbody></table></div>
  <div class="charts">
    <figure>{histogram_svg(everything.shown, "How often each hand score came up")}
      <figcaption>Your hands: points per hand</figcaption></figure>
    <figure>{results_svg(everything.results, "Wins and losses over time, with the running win rate")}
      <figcaption>Results over time (dots up: wins)</figcaption></figure>
    {_accuracy_figure(everything)}
  </div>
  <h3>Recent games</h3><ol class="games">{"".join(_game_row(r) for r in reversed(profile.records[-20:]))}</ol>"""
    due = sum(record.coach_due for record in profile.records)
    if due:
        body = (f'<p class="hint" data-testid="coach-due">The coach is going over {due} game{"s" if due > 1 else ""} '
                f'from elsewhere: {"their" if due > 1 else "its"} figures join the discard accuracy as it finishes '
                f'(while this page is open).</p>') + body
    return f"""
<section class="start stats" data-testid="stats"><h2>Statistics</h2>{body}
  <div class="actions"><button type="button" class="primary" data-action="close-screen">Back</button></div>
</section>"""


# The statistics table's columns, as its header says them (and a phone, which lays each row
# out as a card, by each figure).
STATS_COLUMNS = ("Played", "Won", "Win rate", "Skunks given / taken", "Pegging per hand", "Hand", "Crib",
                 "Best hand", "29s", "Streak (best)", "Discard: points given away a hand",
                 "Pegging: given away a hand", "Hints", "Points missed a game (muggins)")


def _stats_row(name: str, s: Stats) -> str:
    label = "All games" if name == "all" else mode_label(name)
    figures = (s.games, s.wins, f"{s.win_rate:.0%}", f"{s.skunks_given} / {s.skunks_taken}",
               f'{s.per_hand("pegging"):.1f}', f'{s.per_hand("hand"):.1f}', f'{s.per_hand("crib"):.1f}',
               s.best_hand, s.twenty_nines, f"{streak_text(s.streak)} ({s.best_streak} won)",
               _lost(s, "discard"), _lost(s, "pegging"), s.hints, s.missed_per_game())
    cells = "".join(f'<td data-label="{escape(column)}">{figure}</td>'
                    for column, figure in zip(STATS_COLUMNS, figures, strict=True))
    return f'<tr data-group="{escape(name)}"><th>{escape(label)}</th>{cells}</tr>'


def _lost(s: Stats, what: str) -> str:
    value = s.lost_per_hand(what)
    return "—" if value is None else f"{value:.2f}"


def _accuracy_figure(s: Stats) -> str:
    """Discard accuracy over time, once the coach has reviewed a game."""
    if not s.accuracy:
        return ""
    chart = accuracy_svg(s.accuracy, "Discard accuracy over time: points given away per hand, each game and the running average")
    return (f'<figure data-testid="accuracy-chart">{chart}<figcaption>Discard accuracy: points your '
            f'discards gave away per hand (lower is better; {s.lost_per_hand("discard"):.2f} on average)'
            f'</figcaption></figure>')


def mode_label(mode: str) -> str:
    """A kind of game as a player reads it.

    >>> mode_label("bot-hard · 2 players"), mode_label("friends")
    ('Bot, hard · 2 players', 'Friends')
    """
    head, dot, rest = mode.partition(" · ")
    kind, _, level = head.partition("-")
    words = f"Bot, {level}" if kind == "bot" and level else head.capitalize()
    return words + (f" · {rest}" if dot else "")


def streak_text(streak: int) -> str:
    """``3 won`` or ``2 lost`` in a row, ``—`` before any game."""
    if streak == 0:
        return "—"
    return f"{abs(streak)} {'won' if streak > 0 else 'lost'}"


def scores_text(scores: Iterable[int], target: int) -> str:
    """Scores as the board shows them: the winner's peg stands in the game hole, at the target,
    however many points the last count made.

    >>> scores_text((53, 49, 67), 61)
    '53 – 49 – 61'
    """
    return " – ".join(str(min(score, target)) for score in scores)


def _game_row(record: GameRecord) -> str:
    s = record.summary
    scores = scores_text(s.scores, record.config.target)
    when = escape(record.finished[:16].replace("T", " "))
    return (f'<li data-record="{record.id}"><span class="when">{when}</span>'
            f'<span class="what">{escape(mode_label(record.mode))} · {record.config.players} players · {scores}</span>'
            f'<span class="result {"win" if s.won else "loss"}">{escape(s.verdict)}</span>{_fair_tag(record)}'
            f'<button type="button" class="secondary small" data-action="replay" data-arg="{record.id}">Replay</button>'
            f'<button type="button" class="secondary small" data-action="share-record" data-arg="{record.id}">Copy link</button></li>')


def _fair_tag(record: GameRecord) -> str:
    """A game dealt fairly (or blind) at a table with friends: its deal check, verified or failed."""
    if record.fair_verdict is None:
        return ""
    if record.fair_verdict == "alarm":
        reasons = escape("; ".join(record.alarms[:3]))
        return f'<span class="fair-tag alarm" title="{reasons}">⚠ deal check failed</span>'
    return f'<span class="fair-tag">✓ {"dealt blind, audited" if record.blind is not None else "deal verified"}</span>'


def _fair_note(record: GameRecord, index: int) -> str:
    if record.blind is not None:
        return _blind_note(record, index)
    if record.fair is None or record.fair_verdict != "alarm":
        return ""
    reasons = "".join(f"<li>{escape(reason)}</li>" for reason in record.alarms[:5])
    return (f'<div class="fair-alarm" role="alert" data-testid="replay-fair-alarm"><b>⚠ The deal check failed '
            f'in this game.</b> The host may have stacked the deck.<ul>{reasons}</ul></div>')


def blind_hands_of(record: GameRecord, index: int) -> list[dict[str, Any]]:
    """The blind game's hands dealt for the game's hand ``index``: those dealt again (a friend
    away, an alarm) before it, then the hand itself (the last, when the game ended in it)."""
    assert record.blind is not None, "a blind game"
    of: list[list[dict[str, Any]]] = [[]]
    for hand in record.blind["hands"]:
        of[-1].append(hand)
        if hand["deck"] is not None and not hand["alarms"]:
            of.append([])
    return of[index] if index < len(of) else []


def _blind_note(record: GameRecord, index: int) -> str:
    """A blind game's hand in the replay: audited by the browser that kept the record, and
    every alarm (of it, or of a deal of it that was dealt again) in red."""
    lines = []
    for hand in blind_hands_of(record, index):
        alarms = [str(alarm) for alarm in hand["alarms"]]
        if alarms:
            lines.append(f'<div class="fair-alarm" role="alert" data-testid="replay-fair-alarm"><b>⚠ The deal '
                         f'check failed; the hand was dealt again.</b><ul>'
                         f'{"".join(f"<li>{escape(alarm)}</li>" for alarm in alarms[:5])}</ul></div>')
        elif hand["deck"] is None:
            lines.append(f'<p class="fair-mark partial" data-testid="replay-blind-again">Dealt again: '
                         f'{escape(str(hand.get("abandoned") or "the hand did not finish"))}</p>')
        else:
            lines.append(f'<p class="fair-mark" data-testid="replay-blind-hand">✓ Hand {index + 1} dealt blind, '
                         f'audited by this browser</p>')
    return "".join(lines)


def replay_coach(record: GameRecord, index: int, pegging: bool) -> str:
    """The coach's review of hand ``index`` as the record's seat saw it: the discard review
    always, the pegging review when asked for (``pegging``: it searches, so it waits for a tap)."""
    hands = walk(record.start(), record.actions, record.seat)
    if not 0 <= index < len(hands) or hands[index].discard is None:
        return ""
    hand = hands[index]
    review = review_hand(hand, index + 1, pegging=pegging)
    body = discard_html(review.discard) if review.discard is not None else ""   # a hand with a discard has it
    end = hands[index + 1].discard_view.state_id if index + 1 < len(hands) else len(record.actions) + 1
    asked = sum(hand.discard_view.state_id <= n < end for n in record.hints)
    if asked:
        body += f'<p data-testid="replay-hints">You asked the coach for {asked} hint{"s" if asked > 1 else ""} this hand.</p>'
    if pegging:
        body += pegging_html(review, 0)
    elif hand.plays:
        body += ('<button type="button" class="secondary small" data-action="replay-pegging" '
                 f'data-arg="{index}" data-testid="replay-pegging">Review the pegging</button>')
    return (f'<section class="coach replay-coach" data-testid="replay-coach" aria-label="Coach">'
            f'<div class="coach-body">{body}</div></section>')


def _show_line(names: tuple[str, ...], event: Event) -> str:
    """A show or crib event of a replayed hand, as a list item: whose, the cards, the count."""
    assert event.seat is not None and event.breakdown is not None, "a count names its seat and its points"
    return (f'<li>{escape(names[event.seat])}{"&#x27;s crib" if event.kind == "crib" else ""}: '
            f'{cards_row(event.cards, "tiny")} <b>{event.breakdown.total}</b> — {escape(event.breakdown.spoken())}</li>')


def render_replay(record: GameRecord, index: int, pegging: bool = False) -> str:
    """One hand of a finished game, all cards face up, the coach's review of the seat's choices,
    and buttons to the other hands."""
    hands = replay_hands(record)
    index = max(0, min(index, len(hands) - 1))
    hand = hands[index]
    names = record.names
    seats = "".join(
        f'<div class="replay-seat"><h3>{escape(names[seat])}{" (dealer)" if seat == hand.dealer else ""}</h3>'
        f'<div class="cards">{cards_row(cards, "small")}</div>'
        f'<div class="label">to the crib: {cards_row(hand.discards[seat], "tiny") if hand.discards else "—"}</div></div>'
        for seat, cards in enumerate(hand.dealt))
    shows = "".join(_show_line(names, event) for event in hand.shows)
    lines = "".join(f"<li>{escape(line)}</li>" for line in hand.lines)
    previous = f'data-action="replay-hand" data-arg="{index - 1}"' if index else "disabled"
    following = (f'data-action="replay-hand" data-arg="{index + 1}"' if index + 1 < len(hands)
                 else "disabled")
    starter = card_face(hand.starter, "small") if hand.starter else "—"
    return f"""
<section class="start replay" data-testid="replay"><h2>Replay: hand {index + 1} of {len(hands)}</h2>
  {_fair_note(record, index)}
  <div class="replay-seats">{seats}</div>
  <p class="starter-line">Starter {starter}</p>
  <h3>The play</h3><ol class="replay-lines">{lines}</ol>
  <h3>The show</h3><ul class="replay-shows">{shows or "<li>The game ended before the show.</li>"}</ul>
  <p>Scores after this hand: {scores_text(hand.scores, record.config.target)}</p>
  {replay_coach(record, index, pegging)}
  <div class="actions">
    <button type="button" class="secondary" {previous} data-testid="replay-previous">Previous hand</button>
    <button type="button" class="secondary" {following} data-testid="replay-next">Next hand</button>
    <button type="button" class="primary" data-action="stats">Back to statistics</button>
  </div>
</section>"""
