"""The rules in a few short paragraphs, for the table's menu (the whole of them, with every case:
docs/RULES.md). Plain HTML: no player's text in it.

>>> "<h3>The play</h3>" in RULES_HTML and "29" in RULES_HTML
True
"""

RULES_HTML = """
<div class="rules-text">
<h3>The deal and the crib</h3>
<p>Each player is dealt six cards at two players, five at three or four. Everyone puts cards in the crib at once
(two each at two players, one each at three or four, and one from the deck at three): the crib is the dealer's,
counted at the end of the hand. Partners (four players) sit opposite and share a score.</p>
<h3>The starter</h3>
<p>A card is cut and turned face up. A jack gives the dealer 2 points at once (his heels).</p>
<h3>The play</h3>
<p>Starting left of the dealer, each lays a card and says the count; it may not pass 31. Who cannot play says
<b>go</b>; the last to lay a card then pegs 1 (2 for exactly 31) and the count starts again. As a card is laid it
scores: 15 or 31 for 2, a pair 2, three of a kind 6, four 12, a run of three or more 1 a card. The last card of the
play pegs 1.</p>
<h3>The show</h3>
<p>Each hand counts with the starter, left of the dealer first, then the dealer's hand and the crib: every
combination adding to 15 for 2, every pair 2, every run 1 a card, a flush 4 (5 with the starter; a crib only with all
five), the jack of the starter's suit 1 (nobs). The best hand is 29.</p>
<h3>Winning</h3>
<p>First to 121 (or 61) wins on the spot, even in the middle of a count. A loser short of 91 is skunked, short of 61
double skunked (at 61: short of 31). Every point is counted for you: nothing is missed, nothing stolen.</p>
<h3>Five-card cribbage</h3>
<p>Two players, to 61: five cards each, two to the crib. The first non-dealer pegs 3 at once (three for last). The
play ends at the first 31 or go; cards left count only in the show. A three-card flush is 3 (4 with the starter).</p>
</div>
"""
