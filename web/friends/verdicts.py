"""A guest's verdict on each hand of a fair deal: `web.friends.fair_guest` gives them,
`web.friends.fair_view` shows them. A module of its own so that showing the marks (at start,
in every table's render) does not import the checks and the hashing behind them.
"""

VERIFIED, ALARM, UNCHECKED = "verified", "alarm", "unchecked"
