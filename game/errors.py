"""The two kinds of bad input the engine refuses, each with a message a player can read.

>>> issubclass(ParseError, ValueError) and issubclass(IllegalActionError, ValueError)
True
"""


class ParseError(ValueError):
    """Input that cannot be understood: bad card text, a malformed action or saved state."""


class IllegalActionError(ValueError):
    """A well-formed action that the rules do not allow now (not your turn, past 31, ...)."""
