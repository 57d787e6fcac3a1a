"""A bot's thinking cut into slices of page time. Pure Python: the clock is passed in.

The bots think in steps (a `game.bots` ``think`` generator yields after each searched
sample). The page runs steps until the next one would not fit in what is left of the slice,
judged by the longest step so far, and then gives the browser its turn (input, paint, the
network). Checking only after a step would let a slice run a whole step past its budget:
the page would block for longer than the budget says.

>>> slices = Slices(0.025)
>>> slices.start(0.0)
>>> slices.step_done(0.010)     # 10 ms used, and a 10 ms step still fits in 25
False
>>> slices.step_done(0.020)     # 20 ms used: another 10 ms step would not fit
True
>>> slices.start(1.0)           # the page had its turn
>>> slices.step_done(1.004), slices.step_done(1.008)
(False, False)
"""

THINK_SLICE = 0.025   # seconds a bot may think before the page gets a turn


class Slices:
    """When a thinking bot should let the page have a turn (see the module's docstring)."""

    def __init__(self, budget: float):
        self.budget = budget        # seconds of thinking per slice
        self.longest = 0.0          # the longest step so far
        self.started = self.last = 0.0

    def start(self, now: float) -> None:
        """A slice starts at ``now``."""
        self.started = self.last = now

    def step_done(self, now: float) -> bool:
        """A step ended at ``now``: whether the page should get its turn before the next."""
        self.longest = max(self.longest, now - self.last)
        self.last = now
        return now - self.started + self.longest > self.budget
