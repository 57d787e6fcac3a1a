"""HTML for the coach: the hint, a hand's review (discard and pegging) and the game's summary.
Pure functions; plain text and tables first, so a screen reader gets every figure as words.

>>> from web.coach.follow import TableCoach
>>> from web.session import Session
>>> session = Session.new(2, 61, ["Ann", "Bot"], [None, "easy"], seed=3)
>>> html = hint_html(TableCoach(0).hint(session.view(0)))
>>> 'data-testid="hint"' in html and "expected" in html
True
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import TYPE_CHECKING

from game.cards import Card

from ..table.cards import SUIT_GLYPHS, rank_text

if TYPE_CHECKING:   # the coach loads after the start (web.lazy.AFTER_READY), and its fractions
    from fractions import Fraction

    from game.coach import DiscardOption, DiscardReview, GameReview, HandReview, Hint


def card_text(card: Card) -> str:
    """A card as short text, coloured by suit: ``<span class="suit-H">5♥</span>``."""
    return f'<span class="ct suit-{card.suit}">{rank_text(card)}{SUIT_GLYPHS[card.suit]}</span>'


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(card_text(card) for card in sorted(cards))


def points(x: float | Fraction, signed: bool = False) -> str:
    """A figure to two places, with a real minus sign: ``points(-1.5, True) == '−1.50'``."""
    text = f"{float(x):+.2f}" if signed else f"{float(x):.2f}"
    return text.replace("-", "−")


def rank_name(rank: int) -> str:
    return ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")[rank - 1]


# ---- the hint -------------------------------------------------------------------------------

def hint_html(hint: Hint | None) -> str:
    """The suggested discard or card with its values, as a short note under the hand."""
    if hint is None:
        return ""
    if hint.kind == "only":
        body = f'<p>Only {card_text(hint.suits[0])} can be played now{"" if len(hint.suits) == 1 else " (or its like in another suit)"}.</p>'
    elif hint.kind == "discard":
        review = hint.discard
        assert review is not None, "a discard's hint has its review"
        best = review.best
        whose = "your" if review.my_crib else "their"
        rows = "".join(_option_row(review, i, option) for i, option in enumerate(review.options[:3]))
        body = (f'<p><b>Throw {cards_text(best.thrown)}</b> to {whose} crib and keep '
                f'{cards_text(best.kept)}: {points(best.value)} points expected (hand '
                f'{points(best.hand)}, crib {points(review.sign * best.crib, True)}).</p>'
                f'{_discard_table(review, rows, "The three best discards")}')
    else:
        best_value = hint.values[0][1]
        card = hint.best_card()
        others = ", ".join(f"{rank_name(rank)} {points(value, True)}" for rank, value in hint.values[1:])
        body = (f'<p><b>Play {card_text(card)}</b>: {points(best_value, True)} points for you minus '
                f'the others, to the end of the play (the hard bot’s estimate). '
                f'Other cards: {others}.</p>')
    return (f'<section class="coach-hint" data-testid="hint" aria-label="Hint" role="status">'
            f'<h2>Hint</h2>{body}</section>')


def hint_line(hint: Hint | None) -> str:
    """The hint in one line above the hand, where the eyes are (the panel under the table has
    the figures); hidden from screen readers, which hear the panel."""
    if hint is None:
        return ""
    if hint.kind == "only":
        text = f"only {card_text(hint.suits[0])} can be played"
    elif hint.kind == "discard":
        assert hint.discard is not None, "a discard's hint has its review"
        best = hint.discard.best
        text = f"Throw {cards_text(best.thrown)} · {points(best.value)} expected"
    else:
        text = f"Play {card_text(hint.best_card())} · {points(hint.values[0][1], True)} by the estimate"
    return f'<p class="hint-line" data-testid="hint-line" aria-hidden="true">Hint: {text}</p>'


# ---- a hand's review ------------------------------------------------------------------------

def review_html(review: HandReview, missing: int, open_: bool) -> str:
    """A hand's review as a panel that opens and closes: its summary line says the result."""
    discard = review.discard
    heads = []
    if discard is not None:
        lost = discard.gave_away
        heads.append("best discard" if lost == 0 else f"discard gave away {points(lost)}")
    mistakes = [play for play in review.plays if play.mistake]
    if mistakes:
        heads.append(f"{len(mistakes)} play{'s' if len(mistakes) > 1 else ''} to look at")
    elif review.plays or not missing:
        heads.append("pegging fine")
    if review.missed:
        heads.append(f"{review.missed} point{'s' if review.missed > 1 else ''} missed in the count")
    summary = f"Coach, hand {review.number}: " + ", ".join(heads)
    parts = [discard_html(discard) if discard else "", pegging_html(review, missing)]
    return (f'<details class="coach" id="coach-review" data-testid="coach-review"{" open" if open_ else ""}>'
            f'<summary>{escape(summary)}</summary>'
            # keyed by hand: the next hand's review replaces this one whole, not node by node
            f'<div class="coach-body" data-key="coach-hand-{review.number}">{"".join(parts)}</div></details>')


_drawn: list[DiscardReview | str | None] = [None, ""]   # the discard review drawn last, and its HTML


def discard_html(review: DiscardReview) -> str:
    """A discard review's section. Every repaint of the next hand draws the last review again
    (it stays under the table): the same review object gives the same HTML, drawn once (it was
    half of a repaint's Python time)."""
    if _drawn[0] is not review:
        _drawn[:] = [review, _discard_html(review)]
    return str(_drawn[1])


def _discard_html(review: DiscardReview) -> str:
    rows = "".join(_option_row(review, i, option) for i, option in enumerate(review.options))
    n = len(review.options)
    lost = review.gave_away
    verdict = ("Your discard was the best one." if lost == 0 else
               f"Your discard gave away <b>{points(lost)}</b> points against the best.")
    result = ""
    if review.actual is not None:
        assert review.choice is not None and review.starter is not None, "an actual result follows the choice"
        result = (f'<p>Expected {points(review.choice.value)}; with the {card_text(review.starter)} '
                  f'starter your hand made {review.hand_shown} and the crib {review.crib_shown} '
                  f'({"yours" if review.my_crib else "against you"}): {points(review.actual, True)}.</p>')
    return (f'<section class="coach-discard" data-testid="discard-review" aria-label="Discard review">'
            f'<h2>Discard review</h2><p>{verdict}</p>{result}'
            f'{_discard_table(review, rows, f"All {n} discards, best first")}</section>')


def _discard_table(review: DiscardReview, rows: str, caption: str) -> str:
    crib = "Your crib" if review.my_crib else "Their crib"
    return (f'<div class="table-scroll coach-scroll" tabindex="0" role="region" aria-label="{escape(caption)}">'
            f'<table class="coach-table"><caption>{escape(caption)}: expected points over every '
            f'starter</caption><thead><tr><th scope="col">Throw</th><th scope="col">Keep</th>'
            f'<th scope="col">Hand</th><th scope="col">{crib}</th><th scope="col">Total</th></tr></thead>'
            f'<tbody>{rows}</tbody></table></div>')


def _option_row(review: DiscardReview, index: int, option: DiscardOption) -> str:
    marks = []
    if index == 0:
        marks.append("best")
    if review.chosen == index:
        marks.append("yours")
    note = f' <span class="mark">({", ".join(marks)})</span>' if marks else ""
    classes = " ".join(marks)
    return (f'<tr class="{classes}"><th scope="row">{cards_text(option.thrown)}{note}</th>'
            f'<td>{cards_text(option.kept)}</td><td>{points(option.hand)}</td>'
            f'<td>{points(review.sign * option.crib, True)}</td><td>{points(option.value)}</td></tr>')


def pegging_html(review: HandReview, missing: int) -> str:
    items = []
    for play in review.plays:
        if not play.mistake:
            continue
        best_rank, best = play.values[0]
        mine = dict(play.values)[play.played.rank]
        if play.racing:      # (the estimates blend winning with points: said in words)
            race = "it decides the race to the game hole" if play.decisive else \
                "it gave you the better chance in the race to the game hole"
            better = f"a {rank_name(best_rank)} was better: {race} (counted as <b>{points(play.lost)}</b> points)"
        else:
            better = (f"a {rank_name(best_rank)} was better by <b>{points(play.lost)}</b> points "
                      f"(estimates: yours {points(mine, True)}, best {points(best, True)})")
        items.append(f'<li>At count {play.count} you played {card_text(play.played)}; {better}.</li>')
    checked = len(review.plays)
    if items:
        body = f'<ul class="coach-plays">{"".join(items)}</ul>'
    elif checked:
        chose = {1: "The card you chose was", 2: "Both cards you chose were"}.get(
            checked, f"All {checked} cards you chose were")
        body = f'<p>{chose} the best by the bot’s estimate, or within half a point of it.</p>'
    else:
        body = "" if missing else "<p>You had no choice of card this hand.</p>"
    waiting = (f'<p class="hint" data-testid="coach-pending">Reviewing {missing} more '
               f'play{"s" if missing > 1 else ""}…</p>') if missing else ""
    return (f'<section class="coach-pegging" data-testid="pegging-review" aria-label="Pegging review">'
            f'<h2>Pegging review</h2>{body}{waiting}</section>')


# ---- the game -------------------------------------------------------------------------------

def summary_html(game: GameReview, missing: int) -> str:
    """The game's summary for the verdict: points given away in discards and in the pegging."""
    if not game.hands:
        return ""
    per_hand = game.discard_lost / game.hands
    pending = f" ({missing} play{'s' if missing > 1 else ''} still being reviewed)" if missing else ""
    return (f'<section class="coach-summary" data-testid="coach-summary" aria-label="Coach summary">'
            f'<h3>Coach</h3><p>Over {game.hands} hand{"s" if game.hands > 1 else ""} your discards '
            f'gave away <b>{points(game.discard_lost)}</b> expected points ({points(per_hand)} a hand) '
            f'and your pegging about <b>{points(game.pegging_lost)}</b> ({game.mistakes} '
            f'play{"s" if game.mistakes != 1 else ""} to look at){pending}.'
            + (f' You missed <b>{game.missed}</b> point{"s" if game.missed > 1 else ""} in your count: '
               f'given away.' if game.missed else "") + '</p></section>')
