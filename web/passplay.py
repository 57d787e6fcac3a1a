"""Pass and play: two to four people at one device, bots in any other seat. Pure Python.

The bot table (`web.controller.Controller`) seats one person; with two or more it is a pass
and play table, and its one `web.table.screen.SeatScreen` shows the seat of the person the game
waits for (`due`). Between two people a cover hides the table until the next one taps
(`cover_for`): nobody's hidden cards are on the page while the device changes hands. Who must
act, in what order:

- the crib: each person in turn, from the dealer's left (the bots choose whenever they like);
- the play: the person whose turn it is (a bot's turn leaves the last person's table showing);
- the show: nobody (every hand is counted face up); the next hand starts behind a cover;
- counting it yourself (muggins): whoever claims a card's, a hand's or the crib's points, then
  the rival who may call muggins on a short claim, during the play and the show alike.

Seats come from the start form (`seats_from_form`): the first is the device's owner, a
person, whose name and statistics are the profile's; the others are named like the seats at a
friends table (printable, trimmed, 24 characters) and must differ.

>>> from web.session import Session
>>> names, bots = seats_from_form({"name": "Ann", "seat1": "Sage", "kind2": "bot"}, 3, "easy")
>>> names, bots
(['Ann', 'Sage', 'Bot'], [None, None, 'easy'])
>>> session = Session.new(3, 61, names, bots, seed=2)
>>> session.state.dealer, due(session)           # the dealer's left discards first
(2, 0)
>>> [cover_for(session, holder, fresh) for holder, fresh in ((0, False), (1, False), (0, True))]
[None, 0, 0]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from game.engine import DISCARDING, PLAYING, legal_actions
from game.errors import ParseError

from .session import Session, clean_name

MODE = "pass-and-play"         # a finished game's mode in the profile's records and statistics
BOT_NAMES = ("Bot", "Robin", "Sage", "Pip")
KINDS = ("person", "bot")


def people(bots: Sequence[str | None]) -> list[int]:
    """The seats people sit in (no bot level).

    >>> people([None, "easy", None])
    [0, 2]
    """
    return [seat for seat, level in enumerate(bots) if level is None]


def is_pass_and_play(bots: Sequence[str | None]) -> bool:
    """Whether a table of these seats is passed around: two people or more."""
    return len(people(bots)) >= 2


def due(session: Session) -> int | None:
    """The person the game waits for now, or None (a bot's move, or nobody's: the game is over).
    In the crib's choice, the first person still to choose, from the dealer's left; while a
    claim waits (muggins), only its claimant or caller has a move."""
    state = session.state
    if state.phase not in (DISCARDING, PLAYING) and state.claim is None:
        return None
    players = state.config.players
    for offset in range(1, players + 1):
        seat = (state.dealer + offset) % players
        if session.bots[seat] is None and legal_actions(state, seat):
            return seat
    return None


def cover_for(session: Session, holder: int, fresh: bool) -> int | None:
    """The person to pass the device to, or None when the table stays in sight: ``holder``'s
    table is on screen; ``fresh`` says nobody's table is yet (a game begun or resumed, a hand
    after the show), so even the same person gets the cover. (The caller keeps the show and the
    beats before it, which everyone watches, uncovered.)"""
    person = due(session)
    if person is None:
        return None
    return person if fresh or person != holder else None


def seats_from_form(form: Mapping[str, object], players: int, level: str) -> tuple[list[str], list[str | None]]:
    """Each seat's name and bot level (None for a person) from the start form: the first seat is
    ``name``'s, a person; seat n's name is ``seat<n>`` and its kind ``kind<n>`` (person or bot).
    Bad input raises `ParseError` with a reason the player can read.

    >>> seats_from_form({"name": "Ann", "seat1": " Ann "}, 2, "easy")
    Traceback (most recent call last):
    ...
    game.errors.ParseError: two seats are named Ann: give each person a name of their own
    >>> seats_from_form({"name": "Ann", "kind1": "bot"}, 2, "easy")
    Traceback (most recent call last):
    ...
    game.errors.ParseError: pass and play needs two people or more (for one, play against the bots)
    >>> seats_from_form({"name": "Ann\\x07", "seat1": "Bo\\u202eb"}, 2, "hard")[0]
    ['Ann', 'Bob']
    """
    if players not in (2, 3, 4):
        raise ParseError("a table has 2, 3 or 4 players")
    names = [clean_name(form.get("name"), "Player 1")]
    bots: list[str | None] = [None]
    for seat in range(1, players):
        kind = form.get(f"kind{seat}", "person")
        if kind not in KINDS:
            raise ParseError(f"seat {seat + 1} is a person or a bot")
        bots.append(level if kind == "bot" else None)
        names.append(clean_name(form.get(f"seat{seat}"), "" if kind == "bot" else f"Player {seat + 1}"))
    spare = [name for name in BOT_NAMES if name.casefold() not in {n.casefold() for n in names}]
    names = [name or spare.pop(0) for name in names]     # an unnamed bot: a bot's name nobody has
    if not is_pass_and_play(bots):
        raise ParseError("pass and play needs two people or more (for one, play against the bots)")
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            raise ParseError(f"two seats are named {name}: give each person a name of their own")
        seen.add(name.casefold())
    return names, bots


def form_html(error: str = "") -> str:
    """The start form's part for pass and play: the other seats' names and kinds (the first is
    the form's own name), folded until opened, and the button that deals. The players' number,
    the bots' level and the game's length are the form's own choices. ``error``: why the form
    was refused (said once, under Deal: web.render.render_start); the fold stays open with it.

    >>> html = form_html()
    >>> html.count('name="seat'), 'value="passplay"' in html, "open" in html
    (3, True, False)
    >>> form_html("two seats of one name").startswith('<details class="passplay" open')
    True
    """
    def seat(n: int) -> str:
        kinds = "".join(f'<label class="choice"><input type="radio" name="kind{n}" value="{kind}"'
                        f'{" checked" if kind == "person" else ""} data-testid="seat-{kind}-{n}">'
                        f'<span>{kind.capitalize()}</span></label>' for kind in KINDS)
        return (f'<fieldset class="seat-choice seat-{n + 1}"><legend>Seat {n + 1}</legend>'
                f'<input name="seat{n}" maxlength="24" placeholder="Player {n + 1}" aria-label="Seat {n + 1}: name" '
                f'data-testid="seat-name-{n}">{kinds}</fieldset>')

    return (f'<details class="passplay"{" open" if error else ""} data-testid="passplay"><summary>Play on this device (pass and play)</summary>'
            '<p class="hint">Two to four people share this screen; a cover hides each hand until its player '
            'taps. Seat 1 is yours (the name above); Players says how many seats there are.</p>'
            + "".join(seat(n) for n in range(1, 4))
            + '<button type="submit" name="mode" value="passplay" class="secondary" data-testid="start-passplay">'
            'Play on this device</button></details>')
