"""Bots for every seat: three levels, each deciding from a seat's view and its own seed.

A bot never sees the full state, the deck or the game's seed: only ``view(state, seat)``.
Its randomness comes from its own seed and the position, so the same view and the same seed
always give the same decision.

>>> from game.engine import Config, new_game, apply
>>> from game.view import view
>>> state = new_game(Config(players=2), seed=3)
>>> bot = make_bot("hard", seed=1)
>>> action = bot.choose(view(state, 0))
>>> action in view(state, 0).legal, action == make_bot("hard", seed=1).choose(view(state, 0))
(True, True)
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import random

    from ..actions import Action
    from ..view import View
    from .levels import Thought

T = TypeVar("T")
Thinking = Generator[None, None, T]
"""A decision (or a review) in slices: a generator that yields ``None`` where its caller may
pause and returns its result (`run` drives one to the end)."""

BOT_LEVELS = ("easy", "medium", "hard")          # what the page offers
ARENA_LEVELS = BOT_LEVELS + ("hard-v1",)          # also seated by the arena and the protocol

# The levels' modules (tables, searches) are imported by the first bot made, not with this
# package: the page's start needs only the names above and `run` (web.lazy.AFTER_READY).


def run(steps: Thinking[T]) -> T:
    """Drive a thinking generator to its end and return its result.

    >>> def counting():
    ...     yield
    ...     return 3
    >>> run(counting())
    3
    """
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: T = done.value
            return result


class Bot:
    """A bot of one ``level`` with its own ``seed``: ``choose(view)`` returns a legal action."""

    def __init__(self, level: str, seed: int = 0) -> None:
        from .levels import LEVELS

        if level not in LEVELS:
            raise ValueError(f"no bot level {level!r}: choose from {', '.join(ARENA_LEVELS)}")
        self.level, self.seed = level, seed
        self._choose = LEVELS[level]

    def choose(self, view: View) -> Action:
        """One legal action for ``view`` (which must have legal actions)."""
        from .common import decision_rng

        if not view.legal:
            raise ValueError("this seat has nothing to do now")
        if len(view.legal) == 1:
            return view.legal[0]
        return self._claim(view) or self._choose(view, decision_rng(self.seed, view))

    def _claim(self, view: View) -> Action | None:
        """At a muggins table: the bot's claim, or its answer to a rival's (`claims`)."""
        if view.claim is None:
            return None
        from .claims import decide
        from .common import decision_rng

        return decide(self.level, view, decision_rng(self.seed, view))

    def think(self, view: View) -> Thinking[Thought]:
        """The decision as a generator: it yields ``None`` at points where the caller may
        pause (so a page stays responsive) and returns a `Thought`: the action, and for the
        hard bot each candidate's value (the bot explaining itself). The action is always
        the one `choose` gives.

        >>> from game.engine import Config, new_game
        >>> from game.view import view
        >>> seen = view(new_game(Config(players=2), seed=3), 0)
        >>> thought = run(make_bot("hard", seed=1).think(seen))
        >>> thought.action == make_bot("hard", seed=1).choose(seen), len(thought.values)
        (True, 15)
        """
        from .common import decision_rng
        from .levels import Thought, think

        if not view.legal:
            raise ValueError("this seat has nothing to do now")
        if len(view.legal) == 1:
            return Thought(view.legal[0])
        claim = self._claim(view)
        if claim is not None:
            return Thought(claim)
        return (yield from think(self.level, view, decision_rng(self.seed, view)))

    def __repr__(self) -> str:
        return f"Bot({self.level!r}, seed={self.seed})"


def make_bot(level: str, seed: int = 0) -> Bot:
    """A bot of ``level`` (one of `ARENA_LEVELS`) with its own seed."""
    return Bot(level, seed)


def choose(level: str, view: View, rng: random.Random) -> Action:
    """The action the bot of ``level`` takes in ``view`` with generator ``rng``."""
    from .claims import decide
    from .levels import LEVELS

    if len(view.legal) == 1:
        return view.legal[0]
    return decide(level, view, rng) or LEVELS[level](view, rng)
