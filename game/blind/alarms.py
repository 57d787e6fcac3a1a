"""An `Alarm`: what the blind deal found wrong, naming the seat and the step, as data.

>>> str(Alarm(2, "unlock", "position 4: the proof does not hold"))
'seat 3, unlock: position 4: the proof does not hold'
>>> str(Alarm(None, "deal", "position 4 is not a card"))
'deal: position 4 is not a card'
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")
Work = Generator[None, None, T]
"""A computation cut into steps: each ``yield`` comes after at most a few exponentiations (see
`finish` and `bench/blind_deal.py`), so a browser can run it in slices and give the page turns."""


@dataclass(frozen=True)
class Alarm:
    """``seat`` (counted from 0; None when the fault cannot be pinned on a seat yet: the audit
    will) did something wrong at ``step`` (shuffle, lock, unlock, reveal, keys, deal, play...)."""

    seat: int | None
    step: str
    reason: str

    def __str__(self) -> str:
        who = f"seat {self.seat + 1}, " if self.seat is not None else ""
        return f"{who}{self.step}: {self.reason}"


def finish(work: Work[T]) -> T:
    """Run ``work`` to its end in one go (tests, CPython tools).

    >>> def counting() -> Work[int]:
    ...     yield
    ...     return 3
    >>> finish(counting())
    3
    """
    while True:
        try:
            next(work)
        except StopIteration as done:
            return done.value   # type: ignore[no-any-return]
