"""The cover of a pass and play table (`web.passplay`): the whole screen, between two people,
instead of the table, so no card of the last person's is on the page while the device changes
hands. One big button reveals the next person's table (a tap, or Enter or Space: it has the
focus); a screen reader hears a dialog named for the person.

>>> html = cover_html("<Sage>")
>>> "Pass to &lt;Sage&gt;" in html, 'data-card' in html, 'autofocus' in html
(True, False, True)
"""

from __future__ import annotations

from html import escape


def cover_html(name: str) -> str:
    """The cover for the person ``name`` (the table says whose turn it is once revealed)."""
    who = escape(name)
    return (f'<section class="pass-cover" role="dialog" aria-modal="true" aria-labelledby="cover-title" '
            f'aria-describedby="cover-note" data-testid="cover">'
            f'<h1 id="cover-title" data-testid="cover-name">Pass to {who}</h1>'
            f'<p id="cover-note" class="cover-note">Only {who} should look at the screen now.</p>'
            f'<button type="button" class="primary cover-reveal" data-action="reveal" data-testid="reveal" '
            f'autofocus>I am {who}: show my cards</button>'
            f'<button type="button" class="secondary" data-action="leave" data-testid="cover-leave">'
            f'Leave the table</button></section>')
