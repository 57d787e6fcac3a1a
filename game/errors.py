"""The two kinds of bad input the engine refuses, each with a message a player can read.

>>> issubclass(ParseError, ValueError) and issubclass(IllegalActionError, ValueError)
True
"""

MAX_SHOWN = 20


class ParseError(ValueError):
    """Input that cannot be understood: bad card text, a malformed action or saved state."""


class IllegalActionError(ValueError):
    """A well-formed action that the rules do not allow now (not your turn, past 31, ...)."""


def shown(value: object) -> str:
    """``value`` for an error message: its ``repr`` cut short, never failing on a huge number.

    >>> shown("x" * 50), shown(2.0), shown(10**5000)
    ("'xxxxxxxxxxxxxxxxxxx", '2.0', 'a huge number')
    """
    if isinstance(value, int) and value.bit_length() > 64:
        return "a huge number"
    return repr(value)[:MAX_SHOWN]
